"""The Box2D tasks (LunarLander, BipedalWalker, CarRacing), module ``envpool._box2d``:
``tasks`` is the task table, ``score_font`` renders CarRacing's score glyphs."""
