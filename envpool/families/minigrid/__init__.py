"""minigrid's MiniGrid-* tasks (module ``envpool._minigrid``) and BabyAI-* levels (module
``envpool._babyai``): ``tasks`` registers both tables."""
