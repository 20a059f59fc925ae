"""gymnasium's classic-control tasks, module ``envpool._classic_control``: ``tasks`` is the
task table."""
