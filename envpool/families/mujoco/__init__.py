"""gymnasium's MuJoCo tasks, module ``envpool._mujoco``: ``tasks`` is the task table."""
