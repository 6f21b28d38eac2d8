"""Every state file the demo and the examples write comes back whole in the
ParaView GUI (docs/state-files.md).

For each state file given (examples/demo.py's macroscope.pvsm,
examples/compare.py's comparison.pvsm, examples/ocelotl_workflow.py's
ocelotl.pvsm, written by the Examples.* tests this one depends on):

1. the real `paraview --state=FILE` on this test's X display: its screen is
   taken with xwd once the picture holds still (STILL seconds), then the
   process is ended; the picture must not be blank (an unreachable view or a
   failed load leaves the default empty tab);
2. `paraview --script=GUIStateProbe.py`, which loads the state as --state
   does and compares layout tabs, views, cameras, displays, colours and
   links with the file's XML, and saves a screenshot of every tab
   (OUTPUT/<state>/NN-<tab>.png);
3. neither run may change a file of the trace directories the state reads
   (every file under the directories of its FileName, HierarchyFile and
   OutputDirectory properties: sizes and modification times, before and
   after).

    pvpython TestGUIStateLoad.py --plugin ... --output DIR --paraview PATH \\
        --state FILE [--state FILE ...]
(run under Testing/Tools/with-xvfb.sh, which sets DISPLAY).
"""
import argparse
import json
import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET

import macroscope_testing as mt

STILL = 4.0        # seconds without a change in the picture: the load is over
LOAD_LIMIT = 180   # seconds for a state to load and draw
FILE_PROPERTIES = ("FileName", "HierarchyFile", "OutputDirectory", "TopologyFile")

parser = argparse.ArgumentParser()
parser.add_argument("--paraview", required=True)
parser.add_argument("--state", action="append", required=True)
options, _ = parser.parse_known_args()
args = mt.parse_args()
mt.check("DISPLAY" in os.environ, "no DISPLAY: run this test under Testing/Tools/with-xvfb.sh")
for tool in ("xwd", "convert"):
    mt.check(shutil.which(tool) is not None, "%s not found (scripts/deps.sh)" % tool)
here = os.path.dirname(os.path.abspath(__file__))


def data_directories(state):
    """The directories of the files a state's proxies name."""
    found = set()
    root = ET.parse(state).getroot()
    for prop in root.iter("Property"):
        if prop.get("name") in FILE_PROPERTIES:
            for item in prop.findall("Element"):
                value = item.get("value") or ""
                if os.path.isabs(value) and os.path.exists(value):
                    found.add(value if os.path.isdir(value) else os.path.dirname(value))
    return sorted(found)


def snapshot_files(directories):
    """path -> (size, mtime in ns) of every file under `directories`."""
    files = {}
    for top in directories:
        for folder, _, names in os.walk(top):
            for name in names:
                path = os.path.join(folder, name)
                info = os.stat(path)
                files[path] = (info.st_size, info.st_mtime_ns)
    return files


def changed(before, after):
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def environment(extra):
    env = dict(os.environ, PV_PLUGIN_PATH=os.path.dirname(args.plugin),
               PYTHONPATH=here + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra)
    return env


def screen(path):
    subprocess.run(["xwd", "-root", "-silent", "-out", path + ".xwd"], check=True)
    subprocess.run(["convert", "xwd:" + path + ".xwd", path + ".png"], check=True)
    with open(path + ".xwd", "rb") as f:
        data = f.read()
    os.remove(path + ".xwd")
    return data


def saturated(picture):
    """The share of saturated pixels in the views' area of the default
    window (right of the Pipeline Browser, below the toolbars), where an
    empty session shows grey buttons or a grey view."""
    share = subprocess.run(["convert", picture, "-crop", "800x500+320+200", "-colorspace", "HSL",
                            "-channel", "G", "-separate", "-threshold", "40%", "-format",
                            "%[fx:mean]", "info:"],
                           stdout=subprocess.PIPE, text=True, check=True).stdout
    return float(share)


def real_state_option(state, folder):
    """`paraview --state=state`: its screen once it shows data and holds
    still for STILL seconds, then the process is ended."""
    started = time.time()
    process = subprocess.Popen([options.paraview, "--dr", "--state=" + state],
                               env=environment({}), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    picture = os.path.join(folder, "paraview-state")
    last, still_since, share = None, time.time(), 0.0
    try:
        while time.time() - started < LOAD_LIMIT and process.poll() is None:
            time.sleep(1.0)
            data = screen(picture)
            if data != last:
                last, still_since = data, time.time()
                share = saturated(picture + ".png")
            elif share > 0.01 and time.time() - still_since >= STILL:
                break
    finally:
        alive = process.poll() is None
        if alive:
            process.kill()
        output = process.communicate()[0].decode(errors="replace")
    mt.check(alive, "paraview --state=%s ended by itself:\n%s" % (state, output[-3000:]))
    errors = [line for line in output.splitlines() if "ERR|" in line or "Traceback" in line]
    mt.check(not errors, "paraview --state=%s reported errors:\n%s" % (state, "\n".join(errors[:20])))
    print("paraview --state=%s: drawn in %.1f s, %.1f %% of the views' area saturated (%s.png)"
          % (os.path.basename(state), time.time() - started, 100 * share, picture))
    mt.check(share > 0.01, "paraview --state=%s shows no data after %d s (see %s.png)"
             % (state, LOAD_LIMIT, picture))


def probe(state, folder):
    record = os.path.join(folder, "record.json")
    run = subprocess.run(
        [options.paraview, "--dr", "--script=" + os.path.join(here, "GUIStateProbe.py")],
        env=environment({"MACROSCOPE_PROBE_STATE": state, "MACROSCOPE_PROBE_RECORD": record,
                         "MACROSCOPE_PROBE_SHOTS": folder}),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=LOAD_LIMIT + 120)
    output = run.stdout.decode(errors="replace")
    print(output.strip()[-4000:])
    mt.check(run.returncode == 0 and os.path.isfile(record),
             "the GUI probe of %s failed (exit %d)" % (state, run.returncode))
    with open(record) as f:
        result = json.load(f)
    saved = result["saved"]
    views = len(saved["views"])
    mt.check(views > 0 and len(saved["layouts"]) > 0, "%s has no views or layouts" % state)
    held = sorted(v for names in saved["layouts"].values() for v in names)
    mt.check(held == sorted(saved["views"]),
             "%s: views outside every layout tab (the GUI cannot reach them): %s"
             % (state, sorted(set(saved["views"]) - set(held))))
    mt.check(len(result["pictures"]) == len(saved["layouts"]),
             "%d screenshots for %d tabs" % (len(result["pictures"]), len(saved["layouts"])))
    return result


for state in options.state:
    mt.check(os.path.isfile(state), "no state file %s (the Examples.* tests write them)" % state)
    folder = os.path.join(args.output, os.path.splitext(os.path.basename(state))[0])
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    directories = data_directories(state)
    mt.check(directories, "%s names no data file" % state)
    before = snapshot_files(directories)
    real_state_option(state, folder)
    result = probe(state, folder)
    after = snapshot_files(directories)
    modified = changed(before, after)
    mt.check(not modified, "loading %s changed %d files: %s" % (state, len(modified), modified[:10]))
    got = result["loaded"]
    print("%s: %d tabs, %d views, %d displays, %d links; %d files of %s unchanged"
          % (os.path.basename(state), len(got["layouts"]), len(got["views"]),
             sum(len(v["displays"]) for v in got["views"].values()), got["links"], len(before),
             ", ".join(directories)))
