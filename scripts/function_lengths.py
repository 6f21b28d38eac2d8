#!/usr/bin/env python3
"""Lines of the functions of Macroscope's VTK and ParaView classes.

The adapters' rule (docs/architecture.md): a VTK class converts, validates,
reports progress and abort, and calls the core; its functions fit on a
screen. This script measures them: a function is a definition that starts at
column 0 and whose body opens with "{" alone at column 0 and closes with "}"
alone at column 0 (the project's style, .clang-format).

  function_lengths.py [ROOT]              the longest function of each class
  function_lengths.py --max N [ROOT]      fail when a function is over N lines
"""
import argparse
import pathlib
import re
import sys

# VTK/ParaView classes: vtk*.cxx and pq*.cxx in the VTK modules and the plugin.
FOLDERS = ("Common", "Readers", "Filters", "Representations", "Plugin")
NAME = re.compile(r"^[A-Za-z_][\w:<>,*&\s]*?\b(\w+::~?\w+)\s*\(")


def functions(path):
    """(name, first line, lines) of each function defined in `path`, where
    lines run from the signature to the closing brace."""
    lines = path.read_text(errors="replace").splitlines()
    found = []
    signature = None
    for number, line in enumerate(lines, 1):
        match = NAME.match(line)
        if match and not line.startswith(("return", "else")):
            signature = (match.group(1), number)
        elif line == "{" and signature is not None:
            start_name, start = signature
            for end in range(number, len(lines) + 1):
                if lines[end - 1] == "}":
                    found.append((start_name, start, end - start + 1))
                    break
            signature = None
        elif line.startswith("}") or line.startswith("#"):
            signature = None
    return found


def classes(root):
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.cxx")):
            if path.name.startswith(("vtk", "pq")):
                yield path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, help="fail when a function is longer")
    parser.add_argument("root", nargs="?", default=pathlib.Path(__file__).resolve().parent.parent)
    args = parser.parse_args()
    root = pathlib.Path(args.root)
    too_long = []
    rows = []
    for path in classes(root):
        found = functions(path)
        if not found:
            continue
        name, start, length = max(found, key=lambda item: item[2])
        rows.append((length, "%s:%d" % (path.relative_to(root), start), name))
        too_long += [(n, l, path) for n, s, l in found if args.max and l > args.max]
    for length, where, name in sorted(rows, reverse=True):
        print("%5d  %-60s %s" % (length, name, where))
    if not rows:
        print("function_lengths: no VTK class under %s" % root, file=sys.stderr)
        return 2
    if too_long:
        for name, length, path in too_long:
            print("function_lengths: %s (%s) is %d lines, over %d" % (name, path, length, args.max),
                  file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
