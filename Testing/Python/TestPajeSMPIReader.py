"""The Pajé reader (the ParaView proxy, not only the parser) against pajeng's
pj_dump on SMPI traces of real MPI programs (the SMPI.Run.* fixtures of
Testing/SMPI): the same states, links and variables; then the same records
again once a HierarchyFile regroups the flat ranks into clusters and hosts,
whose Hierarchy output must follow the file and whose mismatches are
reported (docs/hierarchy-file.md)."""
import json
import os
import shutil
import subprocess

import macroscope_testing as mt
import paje_crosscheck as pc

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager

mt.load_plugin(args, globals())
pj_dump = shutil.which("pj_dump")
mt.check(pj_dump is not None, "pj_dump not found: install pajeng (scripts/deps.sh)")
smpi_dir = os.path.join(args.output, "..", "..", "SMPI")
TRACES = {
    "stencil": os.path.join(smpi_dir, "stencil", "stencil.paje"),
    "stencil-platform": os.path.join(smpi_dir, "stencil-platform", "stencil-platform.paje"),
}
with open(os.path.join(args.source, "Testing", "SMPI", "hosts.txt")) as f:
    hosts = [line.strip() for line in f if line.strip()]


def tables_of(reader):
    """The reader's tables as plain columns, as paje_crosscheck wants them."""
    def columns(port, names):
        table = servermanager.Fetch(reader, idx=port)
        return {name: mt.column(table, name) for name in names}
    tree = servermanager.Fetch(reader, idx=4)
    vertices = tree.GetVertexData()
    hierarchy = {name: [vertices.GetAbstractArray(name).GetValue(v)
                        for v in range(tree.GetNumberOfVertices())]
                 for name in ("Name", "LeafIndex", "Kind")}
    hierarchy["Parent"] = [tree.GetParent(v) for v in range(tree.GetNumberOfVertices())]
    return {
        "Types": columns(5, ["Name", "Kind", "Paradigm"]),
        "Hierarchy": hierarchy,
        "States": columns(0, ["Location", "Type", "Depth", "Start", "End"]),
        "Messages": columns(1, ["Sender", "Receiver", "SendTime", "RecvTime", "Communicator"]),
        "Variables": columns(3, ["Location", "Variable", "Time", "Value"]),
        "Events": columns(2, ["Location", "Type", "Time"]),
    }


def field_value(reader, name):
    array = servermanager.Fetch(reader, idx=0).GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "States field data lack %r" % name)
    return array.GetValue(0)


def check_against_pj_dump(label, reader, reference):
    tables = tables_of(reader)
    ours = pc.records_from_tables(tables, reader.GetProperty("TimeBounds")[1])
    problems = pc.compare(ours, reference)
    mt.check(not problems, "%s: the Pajé reader and pj_dump differ:\n  %s"
             % (label, "\n  ".join(problems)))
    mt.check(len(ours.states) > 100 and len(ours.links) > 100,
             "%s: only %d states and %d links compared" % (label, len(ours.states), len(ours.links)))
    print("%s: %d states, %d links, %d variable intervals, %d events equal pj_dump's"
          % (label, len(ours.states), len(ours.links), len(ours.variables), len(ours.events)))
    return tables


for name, trace in TRACES.items():
    mt.check(os.path.isfile(trace), "the SMPI fixture did not write %s" % trace)
    dump = subprocess.run([pj_dump, "-l", "9", trace], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    mt.check(dump.returncode == 0, "pj_dump %s failed: %s" % (trace, dump.stderr))
    reference = pc.records_from_pj_dump(dump.stdout.splitlines())

    reader = PajeTraceReader(registrationName=name, FileName=trace)
    reader.UpdatePipeline()
    flat = check_against_pj_dump(name, reader, reference)
    ranks = sorted(n for n, leaf in zip(flat["Hierarchy"]["Name"], flat["Hierarchy"]["LeafIndex"])
                   if leaf >= 0 and n.startswith("rank-"))
    mt.check(len(ranks) == 8, "%s: %d rank leaves, 8 expected" % (name, len(ranks)))
    if name == "stencil-platform":
        mt.check(len(pc.records_from_tables(flat, 1.0).variables) > 500,
                 "%s: the platform trace should hold host and link variables" % name)

    # smpirun places rank r on the r-th host of the host file.
    clusters = {}
    for r in range(len(ranks)):
        host = hosts[r % len(hosts)]
        clusters.setdefault(host.split("-")[0], {}).setdefault(host, []).append("rank-%d" % r)
    layout = {"name": "grid", "children": [
        {"name": cluster, "kind": "cluster", "children": [
            {"name": host, "kind": "host", "children": [{"name": rank} for rank in members]}
            for host, members in sorted(by_host.items())]}
        for cluster, by_host in sorted(clusters.items())]}
    hierarchy_file = os.path.join(args.output, name + "-hierarchy.json")
    with open(hierarchy_file, "w") as f:
        json.dump(layout, f)
    parses = reader.GetProperty("NumberOfParses")[0]
    reader.HierarchyFile = hierarchy_file
    reader.UpdatePipeline()
    mt.check(reader.GetProperty("NumberOfParses")[0] == parses,
             "%s: setting HierarchyFile parsed the trace again" % name)
    grouped = check_against_pj_dump(name + " regrouped", reader, reference)

    # The Hierarchy follows the file: each rank under its host, each host
    # under its cluster; leaves in depth-first order.
    h = grouped["Hierarchy"]
    # (The platform trace also has host containers named like the file's
    # hosts: they stay unplaced, after the file's tree in depth-first order.)
    index = {}
    for v, n in enumerate(h["Name"]):
        index.setdefault(n, v)
    for cluster, by_host in clusters.items():
        for host, members in by_host.items():
            mt.check(h["Parent"][index[host]] == index[cluster],
                     "%s: host %s is not under %s" % (name, host, cluster))
            mt.check(h["Kind"][index[cluster]] == "cluster" and h["Kind"][index[host]] == "host",
                     "%s: the file's kinds are lost" % name)
            for rank in members:
                mt.check(h["Parent"][index[rank]] == index[host],
                         "%s: %s is not under %s" % (name, rank, host))
    leaf_order = [leaf for leaf in h["LeafIndex"] if leaf >= 0]
    mt.check(leaf_order == sorted(leaf_order) and leaf_order == list(range(len(leaf_order))),
             "%s: the leaves are not numbered depth-first: %s" % (name, leaf_order))
    report = field_value(reader, "HierarchyFileReport")
    if name == "stencil":
        mt.check(report == "", "%s: an exact hierarchy file reported %r" % (name, report))
    else:
        # The platform trace also has host and link containers the file does
        # not name: they stay, under "unplaced", and are reported.
        unplaced = field_value(reader, "HierarchyFileUnplacedLeaves")
        mt.check(unplaced > 0 and "unplaced" in h["Name"] and "not" in report,
                 "%s: the host and link containers should be reported unplaced (%d): %r"
                 % (name, unplaced, report))

    # A rank the file forgets and a name the trace lacks: reported, nothing lost.
    unplaced_before = field_value(reader, "HierarchyFileUnplacedLeaves") if report else 0
    layout["children"][0]["children"][0]["children"].pop(0)
    layout["children"][0]["children"][0]["children"].append({"name": "rank-99"})
    with open(hierarchy_file, "w") as f:
        json.dump(layout, f)
    os.utime(hierarchy_file, (os.stat(hierarchy_file).st_atime, os.stat(hierarchy_file).st_mtime + 5))
    reader.HierarchyFile = ""
    reader.UpdatePipeline()
    capture = mt.ErrorCapture()  # the information pass runs when the property is set
    reader.HierarchyFile = hierarchy_file
    reader.UpdatePipeline()
    text = capture.text()
    capture.close()
    unplaced = unplaced_before + 1
    mt.check(field_value(reader, "HierarchyFileUnplacedLeaves") == unplaced,
             "%s: %d leaves should be unplaced" % (name, unplaced))
    mt.check(("%d trace leaves not in the hierarchy file" % unplaced) in text and "rank-99" in text
             and (unplaced > 5 or "rank-0" in text),
             "%s: the warning should count the unplaced leaves (rank-0 among them) and name the "
             "missing rank-99: %r" % (name, text))
    mt.check(field_value(reader, "HierarchyFileUnmatchedLeaves") == 1,
             "%s: one file leaf matches nothing" % name)
    check_against_pj_dump(name + " partly regrouped", reader, reference)
    Delete(reader)
print("ok")
