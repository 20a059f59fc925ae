"""envpool's version (also in pyproject.toml, CMakeLists.txt and cpp/envpool/core/version.h)."""

__version__ = "0.1.0"
