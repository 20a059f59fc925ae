"""The original EnvPool's ``envpool.mujoco.gym`` package path, kept for code that imports it.

Its tasks are registered when ``envpool`` is imported; see ``envpool.list_all_envs()``."""
