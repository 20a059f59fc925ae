"""The original EnvPool's ``envpool.mujoco.gym.registration`` module path, kept for code that
imports it to register the family's tasks: here they are registered when ``envpool`` is
imported, so importing this module does nothing more."""
