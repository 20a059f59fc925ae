// The envpool version these headers belong to. An env module compiled
// against them records it, and envpool refuses to load the module under a
// different installed version (tests/test_version.py keeps it in step with
// pyproject.toml).
#ifndef ENVPOOL_CORE_VERSION_H_
#define ENVPOOL_CORE_VERSION_H_

#define ENVPOOL_VERSION "0.1.0"

#endif  // ENVPOOL_CORE_VERSION_H_
