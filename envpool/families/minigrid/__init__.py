"""minigrid's MiniGrid-* tasks, module ``envpool._minigrid``: ``tasks`` is the task table."""
