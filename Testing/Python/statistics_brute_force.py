"""Trace Statistics recomputed by brute force (numpy) from a trace reader's
own tables, and the checks that compare the filter's three tables with it.
Shared by TestTraceStatistics.py and TestTraceStatisticsMPI.py."""
import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy

import macroscope_testing as mt

KINDS = ("States", "Events", "MessagesSent", "MessagesReceived")


def col(table, name):
    return vtk_to_numpy(table.GetColumnByName(name)).astype(float)


def string_column(table, name):
    array = table.GetColumnByName(name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def field(table, name):
    array = table.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "no field data %r" % name)
    return array.GetTuple(0) if array.GetNumberOfComponents() > 1 else array.GetValue(0)


class Trace:
    """The reader's tables as numpy columns, and the hierarchy's paths."""

    def __init__(self, states, messages, events, variables, tree, types):
        self.s_loc, self.s_type = col(states, "Location"), col(states, "Type")
        self.s_depth, self.s_start, self.s_end = col(states, "Depth"), col(states, "Start"), col(states, "End")
        self.e_loc, self.e_type, self.e_time = col(events, "Location"), col(events, "Type"), col(events, "Time")
        self.v_loc, self.v_type, self.v_time = col(variables, "Location"), col(variables, "Variable"), col(variables, "Time")
        self.sender, self.receiver = col(messages, "Sender"), col(messages, "Receiver")
        self.send, self.recv = col(messages, "SendTime"), col(messages, "RecvTime")
        self.type_names = string_column(types, "Name")
        self.type_kinds = string_column(types, "Kind")
        names = tree.GetVertexData().GetAbstractArray("Name")
        leaf_index = vtk_to_numpy(tree.GetVertexData().GetArray("LeafIndex"))
        self.leaves = int((leaf_index >= 0).sum())
        # The chain of vertices from the root to every leaf.
        self.leaf_chain = [None] * self.leaves
        for v in range(tree.GetNumberOfVertices()):
            if leaf_index[v] >= 0:
                chain = []
                u = v
                while u >= 0:
                    chain.append(u)
                    u = tree.GetParent(u)
                self.leaf_chain[int(leaf_index[v])] = chain[::-1]
        self.vertex_name = [names.GetValue(v) for v in range(tree.GetNumberOfVertices())]

    def producer_paths(self, level):
        """The path of every leaf's producer at `level` (-1: the leaf)."""
        paths = []
        for chain in self.leaf_chain:
            kept = chain if level < 0 else chain[:level + 1]
            paths.append("/".join(self.vertex_name[v] for v in kept))
        return paths


def expected(trace, begin, end, closed, bins, level):
    """Everything the filter should output, computed row by row in numpy."""
    def inside(t):
        return (t >= begin) & ((t < end) | (closed & (t == end)))

    frm = np.maximum(trace.s_start, begin)
    to = np.minimum(trace.s_end, end)
    interval = trace.s_end > trace.s_start
    s_in = np.where(interval, to > frm, inside(trace.s_start))
    duration = np.where(interval, to - frm, 0.0)
    e_in, v_in = inside(trace.e_time), inside(trace.v_time)
    send_in, recv_in = inside(trace.send), inside(trace.recv)

    paths = trace.producer_paths(level)
    order = list(dict.fromkeys(paths))  # producers in leaf order
    index = {p: i for i, p in enumerate(order)}
    of_leaf = np.array([index[p] for p in paths])
    n = len(order)

    def per_producer(leaves, mask, weights=None):
        return np.bincount(of_leaf[leaves[mask].astype(int)],
                           weights=None if weights is None else weights[mask], minlength=n)

    producers = {
        "States": per_producer(trace.s_loc, s_in),
        "Events": per_producer(trace.e_loc, e_in) + per_producer(trace.v_loc, v_in),
        "MessagesSent": per_producer(trace.sender, send_in),
        "MessagesReceived": per_producer(trace.receiver, recv_in),
        "StateTime": per_producer(trace.s_loc, s_in & (trace.s_depth == 0), duration),
    }
    producers["Records"] = sum(producers[k] for k in KINDS)

    types = {}
    for t, (name, kind) in enumerate(zip(trace.type_names, trace.type_kinds)):
        if kind == "state":
            rows = s_in & (trace.s_type == t)
            d = duration[rows]
            types[t] = (rows.sum(), d.sum(), d.min() if d.size else np.nan, d.max() if d.size else np.nan)
        elif kind == "event":
            types[t] = ((e_in & (trace.e_type == t)).sum(), 0.0, np.nan, np.nan)
        elif kind == "variable":
            types[t] = ((v_in & (trace.v_type == t)).sum(), 0.0, np.nan, np.nan)
    messages = int(send_in.sum())

    width = (end - begin) / bins

    def binned(times):
        return np.bincount(np.clip(np.floor((times - begin) / width), 0, bins - 1).astype(int),
                           minlength=bins)

    density = {
        "States": binned(frm[s_in]),
        "Events": binned(np.concatenate([trace.e_time[e_in], trace.v_time[v_in]])),
        "MessagesSent": binned(trace.send[send_in]),
        "MessagesReceived": binned(trace.recv[recv_in]),
    }
    return dict(order=order, producers=producers, types=types, messages=messages,
                density=density, width=width)


def check_tables(producers, types, density, want, what):
    """Compares the filter's three tables with `expected`'s result."""
    order = want["order"]
    n = len(order)
    mt.check(producers.GetNumberOfRows() == n, "%s: %d producer rows, expected %d"
             % (what, producers.GetNumberOfRows(), n))
    paths = string_column(producers, "Path")
    mt.check(sorted(paths) == sorted(order), "%s: producer paths differ" % what)
    row_of = [order.index(p) for p in paths]
    for key in KINDS + ("Records",):
        got = col(producers, key)
        exp = want["producers"][key][row_of]
        mt.check(np.array_equal(got, exp), "%s: %s per producer %s, expected %s"
                 % (what, key, got[:6], exp[:6]))
    mt.check(np.allclose(col(producers, "StateTime"), want["producers"]["StateTime"][row_of],
                         rtol=1e-12, atol=1e-15), "%s: StateTime differs" % what)
    names = string_column(producers, "Name")
    mt.check(all(p.endswith("/" + nm) or p == nm for p, nm in zip(paths, names)),
             "%s: a Name is not the end of its Path" % what)

    # Sorted by records, ties in hierarchy order; ranks and shares.
    records = col(producers, "Records")
    total = records.sum()
    mt.check(total == want["producers"]["Records"].sum(), "%s: total records differ" % what)
    mt.check(np.all(np.diff(records) <= 0), "%s: producers are not sorted by records" % what)
    for i in range(1, n):
        if records[i] == records[i - 1]:
            mt.check(row_of[i] > row_of[i - 1], "%s: equal producers not in hierarchy order" % what)
    mt.check(np.array_equal(col(producers, "Rank"), np.arange(1, n + 1)), "%s: Rank is not 1..N" % what)
    mt.check(np.array_equal(col(producers, "Producer"), np.array(row_of)), "%s: Producer index" % what)
    if total > 0:
        cumulative = col(producers, "CumulativeShare")
        mt.check(np.allclose(col(producers, "RecordShare"), records / total, rtol=1e-12), "%s: RecordShare" % what)
        mt.check(np.allclose(cumulative, np.cumsum(records) / total, rtol=1e-12), "%s: CumulativeShare" % what)
        mt.check(np.all(np.diff(cumulative) >= 0) and cumulative[-1] == 1.0,
                 "%s: CumulativeShare is not monotone ending at 1 (%r)" % (what, cumulative[-1]))
    mt.check(np.allclose(col(producers, "ProducerShare"), np.arange(1, n + 1) / n, rtol=1e-12),
             "%s: ProducerShare" % what)
    # The 80% answer from the brute-force counts sorted on their own.
    ranked = np.sort(want["producers"]["Records"])[::-1].astype(np.int64)
    running = np.cumsum(ranked)
    k = int(np.argmax(5 * running >= 4 * running[-1]) + 1) if running[-1] > 0 else 0
    mt.check(field(producers, "ProducersFor80Percent") == k, "%s: ProducersFor80Percent %d, expected %d"
             % (what, field(producers, "ProducersFor80Percent"), k))
    mt.check(abs(field(producers, "ProducerShareFor80Percent") - k / n) < 1e-12,
             "%s: ProducerShareFor80Percent" % what)
    if k > 0:
        cumulative = col(producers, "CumulativeShare")
        mt.check(cumulative[k - 1] >= 0.8 and (k == 1 or cumulative[k - 2] < 0.8),
                 "%s: the table's cumulative share disagrees with ProducersFor80Percent" % what)
    for key, field_name in zip(KINDS + ("Records",), ("TotalStates", "TotalEvents", "TotalMessagesSent",
                                                     "TotalMessagesReceived", "TotalRecords")):
        mt.check(field(producers, field_name) == want["producers"][key].sum(), "%s: %s" % (what, field_name))
    mt.check(field(producers, "Producers") == n, "%s: Producers field" % what)

    # Types: every listed type once, counts and durations, by count.
    ids = col(types, "Id").astype(int)
    kinds = string_column(types, "Kind")
    counts = col(types, "Count")
    listed = {t for t, k in zip(ids, kinds) if k != "link"}
    mt.check(listed == set(want["types"]), "%s: the Types table lists %d types, expected %d"
             % (what, len(listed), len(want["types"])))
    mt.check(kinds.count("link") == 1, "%s: no single line for the messages" % what)
    mt.check(np.all(np.diff(counts) <= 0), "%s: types are not sorted by count" % what)
    totals, means = col(types, "TotalDuration"), col(types, "MeanDuration")
    # Equal counts: the longer total duration first, then the Types row, the messages last.
    keys = [(-counts[i], -totals[i], ids[i] if kinds[i] != "link" else float("inf"))
            for i in range(len(ids))]
    mt.check(keys == sorted(keys), "%s: types are not in (count, duration, id) order" % what)
    mins, maxs = col(types, "MinDuration"), col(types, "MaxDuration")
    for i, (t, kind) in enumerate(zip(ids, kinds)):
        if kind == "link":
            mt.check(counts[i] == want["messages"], "%s: message line counts %d, expected %d"
                     % (what, counts[i], want["messages"]))
            continue
        count, duration, low, high = want["types"][t]
        mt.check(counts[i] == count, "%s: type %d counted %d, expected %d" % (what, t, counts[i], count))
        mt.check(abs(totals[i] - duration) <= 1e-12 * max(1.0, duration), "%s: type %d duration" % (what, t))
        if kind == "state" and count > 0:
            mt.check(abs(means[i] - duration / count) < 1e-12 and mins[i] == low and maxs[i] == high,
                     "%s: type %d mean/min/max %r %r %r, expected %r %r %r"
                     % (what, t, means[i], mins[i], maxs[i], duration / count, low, high))
        else:
            mt.check(np.isnan(means[i]) and np.isnan(mins[i]) and np.isnan(maxs[i]),
                     "%s: type %d (%s, %d) should have NaN durations" % (what, t, kind, count))
    if counts.sum() > 0:
        mt.check(np.allclose(col(types, "Share"), counts / counts.sum(), rtol=1e-12), "%s: type Share" % what)

    # Density: every column bin by bin, sums equal to the producers' totals.
    bins = len(want["density"]["States"])
    mt.check(density.GetNumberOfRows() == bins, "%s: %d bins" % (what, density.GetNumberOfRows()))
    for key in KINDS:
        got = col(density, key)
        mt.check(np.array_equal(got, want["density"][key]), "%s: density of %s %s, expected %s"
                 % (what, key, got[:8], want["density"][key][:8]))
        mt.check(got.sum() == want["producers"][key].sum(), "%s: density of %s does not sum to the total" % (what, key))
    mt.check(np.array_equal(col(density, "Records"), sum(col(density, k) for k in KINDS)),
             "%s: Records is not the sum of the kinds" % what)
    start, center, stop = col(density, "BinStart"), col(density, "BinCenter"), col(density, "BinEnd")
    mt.check(np.allclose(stop - start, want["width"], rtol=1e-9) and np.allclose(center, (start + stop) / 2),
             "%s: bin borders" % what)
    mt.check(np.array_equal(start[1:], stop[:-1]), "%s: bins are not contiguous" % what)
