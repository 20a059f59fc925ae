"""The original EnvPool's ``envpool.mujoco`` package path, kept for code that imports
``envpool.mujoco.gym``. The MuJoCo tasks are registered when ``envpool`` is imported."""
