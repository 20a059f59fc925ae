"""Prints every translation unit of envpool's own (not vendored) code in a
compile_commands.json, one per line, for clang-tidy (.ci/run clang-tidy): the files
under cpp/, and those the build generates from cpp/'s templates into its generated/
folder (the DMC domains' registration units, which compile dmc/domains/*.h).

The generated units differ only in the domain headers they include, and each one
parses the same heavy headers (dmc_env.h, the physics, pybind11): they are checked
as one unit that includes them all (written next to them), which reports the same
findings in a fraction of the time."""

import json
import os
import sys


def main() -> None:
    database = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cpp = os.path.join(root, "cpp") + os.sep
    generated = os.path.join(os.path.dirname(os.path.abspath(database)), "generated") + os.sep
    seen = set()
    units: dict[str, list[str]] = {}  # generated folder -> its units
    with open(database) as file:
        entries = json.load(file)
    for entry in entries:
        path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        if path in seen:
            continue
        seen.add(path)
        if path.startswith(cpp):
            print(os.path.relpath(path, root))
        elif path.startswith(generated):
            units.setdefault(os.path.dirname(path), []).append(path)
    if not any(p.startswith(cpp) for p in seen):
        sys.exit(f"tidy_sources: no file under {cpp} in {database}")
    for folder, paths in units.items():
        if len(paths) == 1:
            print(os.path.relpath(paths[0], root))
            continue
        # clang-tidy takes the compile command of the most similar file in the database
        unity = os.path.join(folder, "tidy_all_units.cc")
        with open(unity, "w") as file:
            file.write("// Written by .ci/tidy_sources.py for clang-tidy: every unit here.\n")
            for path in sorted(paths):
                name = os.path.basename(path)
                file.write(f'#include "{name}"  // NOLINT(bugprone-suspicious-include)\n')
        print(os.path.relpath(unity, root))


if __name__ == "__main__":
    main()
