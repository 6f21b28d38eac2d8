"""The ParaView GUI repaints, its progress bar visible and moving, during a
long read and a long aggregation (docs/progress.md).

Synthesizes a large OTF2 trace, starts the real `paraview` on this test's X
display with GUIRepaintScript.py (which reads the trace, then aggregates a
model of it, and writes marker times around each step) and, meanwhile, takes
a screenshot of the whole display every SHOT_PERIOD seconds with xwd. Then,
for each long step, on the screenshots taken within it, cropped to the
status bar's progress widget:
  1. the widget shows something else than when idle (the progress bar is
     up) on most of them;
  2. at least MIN_DISTINCT different pictures of it (the window repaints and
     the bar moves);
  3. no picture stays the same longer than MAX_FROZEN seconds while the
     step runs (the window never freezes for long). The bound is wall-clock
     time for a machine whose cores are free; when other work loads them
     (a load average L above the C cores), the GUI gets about C / L of a
     core's time and the bound grows by L / C, measured during the run.
A few screenshots are kept as PNG files in the output directory to look at:
idle.png, read.png, aggregate.png (each in the middle of its step).

    pvpython TestGUIRepaint.py --plugin ... --synth ... --output ... \
        --paraview PATH [--events N] [--slices S]
(run under Testing/Tools/with-xvfb.sh, which sets DISPLAY).
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

import numpy

import macroscope_testing as mt

SHOT_PERIOD = 0.2   # seconds between screenshots
MIN_DISTINCT = 4    # distinct pictures of the progress widget during a step
MAX_FROZEN = 2.0    # seconds a picture may stay the same during a step
MOSTLY = 0.6        # share of a step's pictures where the progress bar is up

parser = argparse.ArgumentParser()
parser.add_argument("--paraview", required=True)
parser.add_argument("--events", type=int, default=60000000)
parser.add_argument("--slices", type=int, default=80)
options, _ = parser.parse_known_args()
args = mt.parse_args()
mt.check("DISPLAY" in os.environ, "no DISPLAY: run this test under Testing/Tools/with-xvfb.sh")
xwd = shutil.which("xwd")
mt.check(xwd is not None, "xwd not found (Debian package x11-apps, scripts/deps.sh)")


def read_xwd(data):
    """An X Window Dump of a 24-bit TrueColor screen as an (height, width, 3)
    RGB array (the format of X11/XWDFile.h: a header of 25 big-endian
    32-bit fields, the window name, the colour map, then the pixels)."""
    fields = struct.unpack(">25I", data[:100])
    header_size, width, height = fields[0], fields[4], fields[5]
    byte_order, bytes_per_line, colours = fields[7], fields[12], fields[19]
    red_mask = fields[14]
    mt.check(fields[3] == 24 and bytes_per_line == 4 * width and red_mask == 0xff0000,
             "unexpected screen format in xwd's dump: depth %d, %d bytes a line for %d pixels"
             % (fields[3], bytes_per_line, width))
    start = header_size + 12 * colours
    pixels = numpy.frombuffer(data, numpy.uint8, height * bytes_per_line, start)
    pixels = pixels.reshape(height, width, 4)
    # 0xRRGGBB in 32 bits: B, G, R, unused in memory when least significant byte first.
    return pixels[:, :, [2, 1, 0]] if byte_order == 0 else pixels[:, :, [1, 2, 3]]


def write_png(path, rgb):
    height, width, _ = rgb.shape
    rows = b"".join(b"\0" + numpy.ascontiguousarray(rgb[y]).tobytes() for y in range(height))

    def chunk(kind, payload):
        return (struct.pack(">I", len(payload)) + kind + payload
                + struct.pack(">I", zlib.crc32(kind + payload)))

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


xwd_errors = []


def screenshot():
    """(time, RGB array) of the whole display now, or (time, None) when xwd
    failed (an X error while a window is created or destroyed under it:
    counted, and the test fails when it happens often)."""
    before = time.time()
    result = subprocess.run([xwd, "-root", "-silent"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    after = time.time()
    if result.returncode != 0:
        xwd_errors.append(result.stderr.decode(errors="replace").strip())
        return 0.5 * (before + after), None
    return 0.5 * (before + after), read_xwd(result.stdout)


# A trace whose read takes seconds.
trace_dir = os.path.join(args.output, "trace")
mt.synthesize(args, trace_dir, "--events", options.events)
markers_path = os.path.join(args.output, "markers.txt")
if os.path.exists(markers_path):
    os.remove(markers_path)

environment = dict(os.environ, MACROSCOPE_PLUGIN=args.plugin, MACROSCOPE_MARKERS=markers_path,
                   MACROSCOPE_TRACE=os.path.join(trace_dir, "traces.otf2"),
                   MACROSCOPE_SLICES=str(options.slices))
script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "GUIRepaintScript.py")
log_path = os.path.join(args.output, "paraview.log")


def read_markers():
    markers = {}
    if os.path.exists(markers_path):
        with open(markers_path) as f:
            for line in f:
                name, *values = line.split()
                markers[name] = [float(v) for v in values]
    return markers


# Every screenshot is kept cropped to the progress widget once the script
# said where it is, and one in WHOLE_EVERY whole (the top-left WHOLE pixels,
# where the window is), to be looked at.
WHOLE_EVERY = 5
WHOLE = (900, 1300)
rectangle = None
crops = []
wholes = []
started = time.time()
with open(log_path, "w") as log:
    gui = subprocess.Popen([options.paraview, "--dr", "--script=" + script], env=environment,
                           stdout=log, stderr=subprocess.STDOUT)
    count = 0
    while gui.poll() is None and time.time() - started < 240:
        taken, picture = screenshot()
        count += 1
        if picture is None:
            continue
        if rectangle is None and "progress" in read_markers():
            rectangle = [int(v) for v in read_markers()["progress"]]
        if rectangle is not None:
            x, y, width, height = rectangle
            crops.append((taken, picture[y:y + height, x:x + width].copy()))
        if count % WHOLE_EVERY == 1:
            wholes.append((taken, picture[:WHOLE[0], :WHOLE[1]].copy()))
        time.sleep(max(0.0, SHOT_PERIOD - (time.time() - taken)))
    if gui.poll() is None:
        gui.kill()
        gui.wait()
        mt.fail("paraview did not finish within 240 s (see %s)" % log_path)
with open(log_path) as log:
    gui_output = log.read()
mt.check(gui.returncode == 0, "the GUI script failed (exit code %s):\n%s" % (gui.returncode, gui_output))

mt.check(len(xwd_errors) <= max(3, count // 10), "xwd failed %d times in %d screenshots: %s"
         % (len(xwd_errors), count, xwd_errors[:3]))
markers = read_markers()
for name in ("progress", "idle", "read_begin", "read_end", "aggregate_begin", "aggregate_end"):
    mt.check(name in markers, "the GUI script wrote no %r marker (see %s)" % (name, markers_path))
x, y, width, height = rectangle
mt.check(width > 20 and height > 5, "the progress widget is %dx%d pixels" % (width, height))


def nearest(shots, moment):
    return min(shots, key=lambda shot: abs(shot[0] - moment))


idle_moment = markers["idle"][0]
idle_widget = nearest([c for c in crops if c[0] <= idle_moment + 0.05], idle_moment)[1]
write_png(os.path.join(args.output, "idle.png"),
          nearest([w for w in wholes if w[0] <= idle_moment] or wholes, idle_moment)[1])

report = []
for step in ("read", "aggregate"):
    begin, end = markers[step + "_begin"][0], markers[step + "_end"][0]
    during = [(t, w) for t, w in crops if begin <= t <= end]
    mt.check(end - begin >= 2.0, "the %s step took %.2f s: too short to show repainting; "
             "make the input larger" % (step, end - begin))
    mt.check(len(during) >= 5, "only %d screenshots during the %s step (%.2f s)"
             % (len(during), step, end - begin))
    write_png(os.path.join(args.output, step + ".png"), nearest(wholes, 0.5 * (begin + end))[1])

    changes = ["%.1f%s" % (t - begin, "" if numpy.array_equal(w, idle_widget) else "*")
               for (t, w), (_, previous) in zip(during, [(None, idle_widget)] + during)
               if not numpy.array_equal(w, previous)]
    print("%s: %.2f s; the progress widget changed at (s, * progress shown): %s"
          % (step, end - begin, " ".join(changes)))
    sys.stdout.flush()
    # 1. The progress bar is up: the widget differs from the idle one.
    shown = sum(1 for _, w in during if not numpy.array_equal(w, idle_widget))
    mt.check(shown >= MOSTLY * len(during), "%s: the progress widget shows progress on only %d of "
             "%d screenshots (see %s.png)" % (step, shown, len(during), step))
    # 2. It repaints and the bar moves: several distinct pictures.
    distinct = len({w.tobytes() for _, w in during})
    mt.check(distinct >= MIN_DISTINCT, "%s: %d distinct pictures of the progress widget in %.2f s "
             "(at least %d expected)" % (step, distinct, end - begin, MIN_DISTINCT))
    # 3. No long freeze: the longest time a picture stayed the same.
    frozen, since = 0.0, begin
    for (t0, w0), (t1, w1) in zip(during, during[1:]):
        if not numpy.array_equal(w0, w1):
            frozen, since = max(frozen, t1 - since), t1
    frozen = max(frozen, end - since)
    allowed = MAX_FROZEN * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    mt.check(frozen <= allowed, "%s: the progress widget stayed the same for %.2f s of a %.2f s "
             "step (at most %.1f s at load %.1f on %d cores)"
             % (step, frozen, end - begin, allowed, os.getloadavg()[0], os.cpu_count() or 1))
    report.append("%s: %.2f s, %d screenshots, progress shown on %d, %d distinct, longest unchanged "
                  "%.2f s" % (step, end - begin, len(during), shown, distinct, frozen))

print("\n".join(report))
print("GUI repaint: %d screenshots in %.1f s; %s" % (count, time.time() - started,
                                                    gui_output.strip().splitlines()[-1]))
shutil.rmtree(trace_dir, ignore_errors=True)
