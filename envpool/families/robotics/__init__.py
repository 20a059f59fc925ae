"""gymnasium-robotics' tasks (``envpool._robotics``), on envpool's MuJoCo: so far the
PointMaze ids. Their models come from the installed gymnasium-robotics package, as the
MuJoCo tasks' come from gymnasium's."""
