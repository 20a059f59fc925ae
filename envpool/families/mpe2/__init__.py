"""The Multi Particle Environments of mpe2 (multi-agent), served by ``envpool._mpe2``."""
