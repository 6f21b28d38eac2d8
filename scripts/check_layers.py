#!/usr/bin/env python3
"""Checks that each folder of Macroscope includes only from the layers below
it (docs/architecture.md, "Modules"): a header is found by its file name
(names are unique in the tree; "" and <> alike), a module's generated export header
(MacroscopeXModule.h) belongs to that module's folder, and anything else
(VTK, ParaView, OTF2, the standard library) is outside the check.

  check_layers.py [ROOT]   prints the include graph between folders; fails
                           on an include the table does not allow
"""
import collections
import pathlib
import re
import sys

# Each folder and the folders it may include from.
ALLOWED = {
    "Core": set(),
    "Readers/OTF2": {"Core"},
    "Readers/Paje": {"Core", "Readers/OTF2"},
    "Tools/Synthesizer": set(),
    "Tools": {"Tools/Synthesizer", "Core", "Readers/Paje", "Readers/OTF2"},
    "Common": {"Core"},
    "Readers": {"Common", "Core", "Readers/OTF2", "Readers/Paje", "Tools/Synthesizer"},
    "Filters": {"Common", "Core", "Readers"},
    "Representations": {"Common", "Core"},
    "Plugin": {"Common", "Core", "Readers", "Filters", "Representations"},
}
# Generated export headers, by the module folder that generates them.
EXPORT_HEADERS = {"MacroscopeCommonModule.h": "Common", "MacroscopeReadersModule.h": "Readers",
                  "MacroscopeFiltersModule.h": "Filters",
                  "MacroscopeRepresentationsModule.h": "Representations"}
INCLUDE = re.compile(r'^\s*#\s*include\s+["<]([^">]+)[">]', re.M)


def folder_of(path, root):
    """The deepest folder of ALLOWED that holds `path`."""
    relative = path.relative_to(root).as_posix()
    owners = [f for f in ALLOWED if relative.startswith(f + "/")]
    return max(owners, key=len) if owners else None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parent.parent)
    sources = sorted({p for f in ALLOWED for p in (root / f).rglob("*")
                      if p.suffix in (".h", ".cxx") and folder_of(p, root) == f})
    home = dict(EXPORT_HEADERS)
    for path in sources:
        home[path.name] = folder_of(path, root)
    edges = collections.Counter()
    bad = []
    for path in sources:
        owner = folder_of(path, root)
        for header in INCLUDE.findall(path.read_text(errors="replace")):
            target = home.get(pathlib.PurePosixPath(header).name)
            if target is None or target == owner:
                continue
            edges[(owner, target)] += 1
            if target not in ALLOWED[owner]:
                bad.append("%s includes %s (%s), a layer %s may not use"
                           % (path.relative_to(root), header, target, owner))
    for (owner, target), count in sorted(edges.items()):
        print("%-18s -> %-18s %4d includes" % (owner, target, count))
    if not sources:
        print("check_layers: no sources under %s" % root, file=sys.stderr)
        return 2
    for line in bad:
        print("check_layers: " + line, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
