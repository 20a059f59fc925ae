"""procgen's 16 games (``envpool._procgen``), played by procgen 0.10.7's own game
library, which ``envpool.procgen_runtime`` fetches from procgen's wheel on first use."""
