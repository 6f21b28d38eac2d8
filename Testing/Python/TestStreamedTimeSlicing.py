"""Streamed Time Slicing: the model built while the trace is read equals Time
Slicing's on the reader's tables for every metric and grid; the model cache
is written on the first read, rebuilds later models without reading (eq. 6
exactly when the grids align, eqs. 7-8 within their error bound otherwise),
honours Exact, and is refused when the trace or the cache file changed; bad
input is reported, progress is reported and abort honoured."""
import os
import shutil

import numpy as np

import macroscope_testing as mt

args = mt.parse_args()
from paraview.simple import *
from paraview import servermanager
from vtkmodules.util.numpy_support import vtk_to_numpy

mt.load_plugin(args, globals())

trace_dir = os.path.join(args.output, "trace")
mt.synthesize(args, trace_dir, "--iterations", 24, "--threads-per-rank", 2,
                        "--seed", 3)
anchor = os.path.join(trace_dir, "traces.otf2")
cache_dir = os.path.join(args.output, "cache")
shutil.rmtree(cache_dir, ignore_errors=True)

reader = OTF2TraceReader(FileName=anchor)
reader.UpdatePipelineInformation()
trace_end = reader.GetProperty("TimeBounds").GetData()[1]
mt.check(trace_end > 0, "the synthesized trace has no duration")


def model(source):
    """The Value array as (types, resources, slices), and the image."""
    source.UpdatePipeline()
    image = servermanager.Fetch(source)
    nx, ny, nz = image.GetDimensions()
    values = vtk_to_numpy(image.GetPointData().GetArray("Value")).reshape(nz, ny, nx).copy()
    return values, image


def info(source, name):
    source.UpdatePropertyInformation()
    return source.GetProperty(name).GetElement(0)


def field_strings(image, name):
    array = image.GetFieldData().GetAbstractArray(name)
    mt.check(array is not None, "the model has no %s field array" % name)
    return [array.GetValue(i) for i in range(array.GetNumberOfValues())]


def close(a, b, tolerance=1e-12):
    scale = max(1.0, float(np.abs(b).max()) if b.size else 1.0)
    return a.shape == b.shape and np.abs(a - b).max() <= tolerance * scale


# 0. The serial models MPI.StreamedTimeSlicing compares its 2-rank ones with.
mpi_dir = os.path.join(args.output, "mpi-trace")
mt.synthesize(args, mpi_dir, "--iterations", 20, "--threads-per-rank", 2, "--seed", 8)
mpi_settings = [dict(Metric="State duration", Slices=40),
                dict(Metric="Bytes sent per second", Slices=25),
                dict(Metric="Event count", Slices=50, ResourceLevel=3),
                dict(Metric="State duration", Slices=10)]
references = {}
for i, setting in enumerate(mpi_settings):
    source = StreamedTimeSlicing(FileName=os.path.join(mpi_dir, "traces.otf2"), UseModelCache=0,
                                 **setting)
    references["model%d" % i] = model(source)[0]
    references["read%d" % i] = info(source, "LocationsRead")
    Delete(source)
np.savez(os.path.join(args.output, "..", "streamed-serial.npz"), **references)

# 1. Sliced while reading == Time Slicing on the tables, every metric, grids.
metrics = [
    dict(Metric="State duration"),
    dict(Metric="State duration", Normalize=1),
    dict(Metric="State duration", Depth=1),
    dict(Metric="Event count"),
    dict(Metric="Variable mean"),
    dict(Metric="Bytes sent per second"),
    dict(Metric="Bytes received per second"),
    dict(Metric="Messages sent"),
    dict(Metric="Messages received"),
]
grids = [
    dict(Slices=1),
    dict(Slices=7),
    dict(Slices=250),
    dict(Slices=40, TimeWindow=[0.2 * trace_end, 0.55 * trace_end]),
    dict(Slices=33, TimeWindow=[0.0, 1.3 * trace_end]),
    dict(Slices=20, ResourceLevel=3, Resources=["cluster-1", "node-0"]),
]
compared = 0
for metric in metrics:
    for grid in grids:
        settings = dict(metric, **grid)
        slicing = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], **settings)
        streamed = StreamedTimeSlicing(FileName=anchor, UseModelCache=0, **settings)
        expected, expected_image = model(slicing)
        got, got_image = model(streamed)
        mt.check(close(got, expected),
                 "%s: streamed model %s differs from Time Slicing's %s by %s" % (
                     settings, got.shape, expected.shape,
                     np.abs(got - expected).max() if got.shape == expected.shape else "shape"))
        for name in ("NodeName", "NodeKind", "TypeName", "Metric"):
            mt.check(field_strings(got_image, name) == field_strings(expected_image, name),
                     "%s: field %s differs" % (settings, name))
        mt.check(info(streamed, "ModelOrigin") == "trace", "%s: not read from the trace" % settings)
        mt.check(info(streamed, "NumberOfTraceReads") == 1, "%s: read more than once" % settings)
        compared += 1
        Delete(streamed)
        Delete(slicing)
print("streamed == Time Slicing on %d metric x grid settings" % compared)

# 1a. A hierarchy file that regroups and renumbers the leaves: the stream
# renumbers them as the reader's tables do.
import json
regrouping = os.path.join(args.output, "regroup.json")
with open(regrouping, "w") as f:
    json.dump({"name": "all", "children": [{"name": "pair", "kind": "cluster", "children": [
        {"name": "MPI Rank 5"}, {"name": "MPI Rank 0"}]}]}, f)
regrouped = OTF2TraceReader(FileName=anchor, HierarchyFile=regrouping)
for settings in [dict(Metric="State duration", Slices=20),
                 dict(Metric="Bytes received per second", Slices=15),
                 dict(Metric="Event count", Slices=10, ResourceLevel=1)]:
    slicing = TimeSlicing(Input=[OutputPort(regrouped, i) for i in range(6)], **settings)
    streamed = StreamedTimeSlicing(FileName=anchor, HierarchyFile=regrouping, UseModelCache=0,
                                   **settings)
    expected, expected_image = model(slicing)
    got, got_image = model(streamed)
    mt.check(field_strings(got_image, "NodeName") == field_strings(expected_image, "NodeName")
             and "pair" in field_strings(got_image, "NodeName"), "regrouped: the resources differ")
    mt.check(close(got, expected), "regrouped %s: the streamed model differs by %s" % (
        settings, np.abs(got - expected).max() if got.shape == expected.shape else "shape"))
    Delete(streamed)
    Delete(slicing)
print("regrouped by a hierarchy file: streamed == Time Slicing")

# 1b. A Pajé trace (the synthesizer's Pajé output): the same, through the
# Pajé reader's definitions-only scan and streamed pass.
paje_file = os.path.join(args.output, "synth.paje")
mt.synthesize(args, os.path.join(args.output, "paje-trace"), "--iterations", 12,
              "--threads-per-rank", 2, "--seed", 5, "--paje", paje_file)
paje_reader = PajeTraceReader(FileName=paje_file)
for settings in [dict(Metric="State duration", Slices=30),
                 dict(Metric="State duration", Depth=1, Slices=9, ResourceLevel=3),
                 dict(Metric="Event count", Slices=17),
                 dict(Metric="Variable mean", Slices=12),
                 dict(Metric="Messages sent", Slices=25, TimeWindow=[0.3 * trace_end, 0.0])]:
    if settings.get("TimeWindow"):
        paje_reader.UpdatePipelineInformation()
        paje_end = paje_reader.GetProperty("TimeBounds").GetData()[1]
        settings["TimeWindow"] = [0.3 * paje_end, 0.8 * paje_end]
    slicing = TimeSlicing(Input=[OutputPort(paje_reader, i) for i in range(6)], **settings)
    streamed = StreamedTimeSlicing(FileName=paje_file, UseModelCache=0, **settings)
    expected, _ = model(slicing)
    got, _ = model(streamed)
    mt.check(expected.size > 0 and np.abs(expected).max() > 0, "Pajé %s: empty model" % settings)
    mt.check(close(got, expected), "Pajé %s: streamed model differs from Time Slicing's by %s" % (
        settings, np.abs(got - expected).max() if got.shape == expected.shape else "shape"))
    Delete(streamed)
    Delete(slicing)
print("Pajé: streamed == Time Slicing")

# 2. The cache: written on the first read, used by later requests.
exact_whole, _ = model(TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)],
                                   Metric="Event count", Slices=100))
cached = StreamedTimeSlicing(FileName=anchor, Metric="Event count", Slices=100,
                             CacheDirectory=cache_dir, CacheSlices=1000)
values, _ = model(cached)
cache_file = info(cached, "CacheFile")
mt.check(info(cached, "ModelOrigin") == "new cache" and info(cached, "NumberOfTraceReads") == 1,
         "first read: origin %r, %d reads" % (info(cached, "ModelOrigin"),
                                              info(cached, "NumberOfTraceReads")))
mt.check(os.path.isfile(cache_file) and os.path.dirname(cache_file) == cache_dir,
         "no cache file written in %s (CacheFile %r)" % (cache_dir, cache_file))
mt.check(info(cached, "DirtySlices") == 0, "100 slices of 1000 cut a cached slice")
mt.check(np.array_equal(values, exact_whole), "event counts rebuilt from 1000 aligned slices "
         "differ from the counts of 100 slices")

# Fewer slices on the same source: rebuilt, no read.
cached.Slices = 50
values, _ = model(cached)
truth, _ = model(TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)],
                             Metric="Event count", Slices=50))
mt.check(info(cached, "ModelOrigin") == "cache" and info(cached, "NumberOfTraceReads") == 1,
         "50 slices were not rebuilt from the cache")
mt.check(np.array_equal(values, truth), "50 slices rebuilt from the cache differ from the truth")

# A fresh source finds the cache too (a new session).
fresh = StreamedTimeSlicing(FileName=anchor, Metric="Event count", Slices=25,
                            CacheDirectory=cache_dir)
values, _ = model(fresh)
mt.check(info(fresh, "ModelOrigin") == "cache" and info(fresh, "NumberOfTraceReads") == 0,
         "a new source read the trace instead of the cache")

# A zoom that cuts cached slices: eqs. 7-8 within their bound; the dirty
# slices are those a border cuts.
fine, _ = model(StreamedTimeSlicing(FileName=anchor, Metric="Event count", Slices=1000,
                                    UseModelCache=0))
window = [0.2031 * trace_end, 0.6177 * trace_end]
slices = 30
fresh.Slices = slices
fresh.TimeWindow = window
values, _ = model(fresh)
truth, _ = model(TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)],
                             Metric="Event count", Slices=slices, TimeWindow=window))
fine_width = trace_end / 1000
borders = [window[0] + j * (window[1] - window[0]) / slices for j in range(slices + 1)]
cut = set()
bound = np.zeros_like(truth)
for j in range(slices):
    lo, hi = borders[j], borders[j + 1]
    for f in range(int(lo / fine_width), min(999, int(hi / fine_width)) + 1):
        flo = f * fine_width
        p = max(0.0, min(hi, flo + fine_width) - max(lo, flo)) / fine_width
        if 1e-9 < p < 1 - 1e-9:
            cut.add(f)
            bound[:, :, j] += max(p, 1 - p) * fine[:, :, f]
mt.check(info(fresh, "ModelOrigin") == "cache", "the zoom was not rebuilt from the cache")
mt.check(info(fresh, "DirtySlices") == len(cut),
         "DirtySlices %d, but the borders cut %d cached slices" % (info(fresh, "DirtySlices"), len(cut)))
mt.check(len(cut) > 0, "the zoom cuts no cached slice: the test window is aligned")
excess = np.abs(values - truth) - bound
mt.check(excess.max() <= 1e-9, "a rebuilt cell exceeds the eqs. 7-8 error bound by %g" % excess.max())
mt.check(not np.array_equal(values, truth), "the shared slices changed nothing: test too weak")
print("zoom rebuilt from the cache: %d dirty slices, within the bound" % len(cut))

# Exact: the same zoom reads the trace and equals Time Slicing.
fresh.Exact = 1
values, _ = model(fresh)
mt.check(info(fresh, "ModelOrigin") == "trace" and info(fresh, "NumberOfTraceReads") == 1,
         "Exact did not read the trace")
mt.check(close(values, truth), "Exact differs from Time Slicing")
# An aligned request with Exact uses the cache (nothing to share).
fresh.TimeWindow = [0.0, 0.0]
fresh.Slices = 20
values, _ = model(fresh)
mt.check(info(fresh, "ModelOrigin") == "cache" and info(fresh, "NumberOfTraceReads") == 1,
         "Exact read the trace for an aligned request")

# A window beyond the cached one is read from the trace.
fresh.TimeWindow = [0.0, 1.5 * trace_end]
model(fresh)
mt.check(info(fresh, "ModelOrigin") == "trace" and info(fresh, "NumberOfTraceReads") == 2,
         "a window beyond the trace end was not read from the trace")

# 3. Invalidation: a corrupt cache, then a new trace at the same path.
# (While a capture is on, pvpython's stderr goes into it too: checks come
# after closing it.)
fresh.Exact = 0
capture = mt.ErrorCapture()
with open(cache_file, "r+b") as f:
    f.seek(-8, os.SEEK_END)
    f.write(b"\x01\x02\x03\x04\x05\x06\x07\x08")
fresh.TimeWindow = [0.0, 0.0]
fresh.Slices = 10
values, _ = model(fresh)
text = capture.text()
capture.close()
mt.check(cache_file in text and "corrupt" in text.lower(),
         "a corrupt cache gave no warning naming it:\n" + text)
mt.check(info(fresh, "ModelOrigin") == "new cache" and info(fresh, "NumberOfTraceReads") == 3,
         "the corrupt cache was not replaced by a new read")
truth10, _ = model(TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)],
                               Metric="Event count", Slices=10))
mt.check(np.array_equal(values, truth10), "the model after a corrupt cache is wrong")

mt.synthesize(args, trace_dir, "--iterations", 30, "--threads-per-rank", 2, "--seed", 4)
fresh.Slices = 20
capture = mt.ErrorCapture()
values, _ = model(fresh)
text = capture.text()
capture.close()
mt.check("stale" in text, "a new trace at the same path did not make the cache stale:\n" + text)
mt.check(info(fresh, "ModelOrigin") == "new cache" and info(fresh, "NumberOfTraceReads") == 4,
         "the new trace was not read")
new_reader = OTF2TraceReader(FileName=anchor)
truth20, _ = model(TimeSlicing(Input=[OutputPort(new_reader, i) for i in range(6)],
                               Metric="Event count", Slices=20))
mt.check(np.array_equal(values, truth20), "the model of the new trace is wrong")

# 4. An unwritable cache directory: a warning, and the model all the same.
blocker = os.path.join(args.output, "not-a-directory")
with open(blocker, "w") as f:
    f.write("x")
unwritable = StreamedTimeSlicing(FileName=anchor, Metric="Event count", Slices=20,
                                 CacheDirectory=os.path.join(blocker, "cache"))
capture = mt.ErrorCapture()
values, _ = model(unwritable)
text = capture.text()
capture.close()
mt.check("model cache was not written" in text, "no warning for an unwritable cache:\n" + text)
mt.check(np.array_equal(values, truth20), "the model without a cache is wrong")

# 5. Bad input: named, no crash, and the source recovers.
missing = os.path.join(args.output, "no-such-trace.otf2")
garbage = os.path.join(args.output, "garbage.otf2")
with open(garbage, "wb") as f:
    f.write(os.urandom(4096))
capture = mt.ErrorCapture()
bad = StreamedTimeSlicing(FileName=missing, UseModelCache=0)
bad.UpdatePipeline()
missing_text = capture.text()
bad.FileName = garbage
bad.UpdatePipeline()
garbage_text = capture.text()[len(missing_text):]
bad.FileName = anchor
bad.Slices = 0
bad.UpdatePipeline()
slices_text = capture.text()[len(missing_text) + len(garbage_text):]
bad.Slices = 2000000000  # terabytes: refused before any allocation
bad.UpdatePipeline()
read = len(missing_text) + len(garbage_text) + len(slices_text)
huge_text = capture.text()[read:]
bad.Slices = 20
bad.ResourceLevel = 9
bad.UpdatePipeline()
deep_text = capture.text()[read + len(huge_text):]
bad.ResourceLevel = -1
bad.Metric = "Event count"
values, _ = model(bad)
capture.close()
mt.check("2000000000 slices x" in huge_text and "cells and needs" in huge_text and
         "of memory available" in huge_text, "a model too large for memory is not refused "
         "with its size:\n" + huge_text)
mt.check("ResourceLevel 9 is deeper than the Hierarchy, whose deepest level is 4" in deep_text,
         "a ResourceLevel deeper than the hierarchy is not refused:\n" + deep_text)
mt.check(missing in missing_text, "a missing trace is not named:\n" + missing_text)
mt.check(garbage in garbage_text, "a garbage trace is not named:\n" + garbage_text)
mt.check("Slices" in slices_text, "Slices = 0 gave no error:\n" + slices_text)
mt.check(np.array_equal(values, truth20), "the source did not recover from bad input")

# 6. Progress and abort.
progress = []
source = StreamedTimeSlicing(FileName=anchor, UseModelCache=0, Slices=13)
algorithm = source.GetClientSideObject()
observer = algorithm.AddObserver("ProgressEvent",
                                 lambda caller, event: progress.append(caller.GetProgress()))
source.UpdatePipeline()
mt.check(len(set(round(p, 3) for p in progress)) >= 3,
         "too few progress steps: %s" % sorted(set(progress)))
algorithm.RemoveObserver(observer)
algorithm.AddObserver("ProgressEvent", lambda caller, event: caller.SetAbortExecute(1)
                      if 0.0 < caller.GetProgress() < 0.9 else None)
source.Slices = 14
capture = mt.ErrorCapture()
source.UpdatePipeline()
text = capture.text()
capture.close()
mt.check("aborted" in text, "abort was not reported:\n" + text)
print("ok")
