"""Prints every translation unit of envpool's own (not vendored) code in a
compile_commands.json, one per line, for clang-tidy (.ci/run clang-tidy): the files
under cpp/, and those the build generates from cpp/'s templates into its generated/
folder (the DMC domains' registration units, which compile dmc/domains/*.h)."""

import json
import os
import sys


def main() -> None:
    database = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cpp = os.path.join(root, "cpp") + os.sep
    generated = os.path.join(os.path.dirname(os.path.abspath(database)), "generated") + os.sep
    seen = set()
    with open(database) as file:
        entries = json.load(file)
    for entry in entries:
        path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
        if (path.startswith(cpp) or path.startswith(generated)) and path not in seen:
            seen.add(path)
            print(os.path.relpath(path, root))
    if not seen:
        sys.exit(f"tidy_sources: no file under {cpp} in {database}")


if __name__ == "__main__":
    main()
