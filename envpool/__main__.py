"""``python -m envpool``: the same as the ``envpool`` command."""

from __future__ import annotations

import sys

from envpool.cli import main

if __name__ == "__main__":
    sys.exit(main())
