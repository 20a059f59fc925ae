"""The DeepMind Control Suite tasks, module ``envpool._dmc``: ``tasks`` is the task table."""
