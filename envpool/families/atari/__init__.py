"""The Atari games (ALE), module ``envpool._atari``: ``tasks`` is the task table."""
