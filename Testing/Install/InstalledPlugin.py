"""Install.Relocated, in pvpython or pvbatch: the installed plugin, with the
build tree out of reach (test_install.sh hides it).

--mode config-file registers the plugin from its installed configuration file
as ParaView's GUI does for the files paraview.conf names (listed, not loaded:
auto-load is off), then loads it by name with LoadDistributedPlugin;
--mode path loads it with LoadPlugin and the installed path. Then a reader and
a filter run on the trace the installed synthesizer wrote, `import macroscope`
works, the plugin information and a saved state carry the project's version,
and no file of the build or source tree is mapped in this process."""
import argparse
import json
import os
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--prefix", required=True)
parser.add_argument("--plugins", required=True)
parser.add_argument("--trace", required=True)
parser.add_argument("--version", required=True)
parser.add_argument("--forbidden", action="append", default=[])
parser.add_argument("--output", required=True)
parser.add_argument("--mode", choices=("config-file", "path"), required=True)
args = parser.parse_args()

from paraview.simple import *  # noqa: E402,F403
from paraview import servermanager  # noqa: E402
from paraview.modules.vtkRemotingCore import vtkPVPluginTracker  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message, flush=True)


def plugin_entry(name):
    """(loaded, version, file name) of the plugin `name` in this process's list."""
    info = servermanager.vtkSMProxyManager.GetProxyManager().GetPluginManager().GetLocalInformation()
    for i in range(info.GetNumberOfPlugins()):
        if info.GetPluginName(i) == name:
            return info.GetPluginLoaded(i), info.GetPluginVersion(i), info.GetPluginFileName(i)
    return None


plugin_file = os.path.join(args.plugins, "Macroscope", "Macroscope.so")
if args.mode == "config-file":
    xml = os.path.join(args.plugins, "Macroscope.plugins.xml")
    check(plugin_entry("Macroscope") is None, "Macroscope is listed before its configuration file is read")
    vtkPVPluginTracker.GetInstance().LoadPluginConfigurationXML(xml, False)
    entry = plugin_entry("Macroscope")
    check(entry is not None, "%s does not list Macroscope" % xml)
    if entry is not None:
        check(not entry[0], "Macroscope was loaded by reading %s: auto-load must be off" % xml)
        check(os.path.realpath(entry[2]) == os.path.realpath(plugin_file),
              "the configuration file points at %s, not the installed %s" % (entry[2], plugin_file))
    LoadDistributedPlugin("Macroscope", remote=False, ns=globals())
else:
    LoadPlugin(plugin_file, remote=False, ns=globals())

entry = plugin_entry("Macroscope")
check(entry is not None and entry[0], "Macroscope is not loaded")
if entry is not None:
    check(entry[1] == args.version, "the plugin says version %r, the project is %r" % (entry[1], args.version))

# A reader and a filter.
summary = json.load(open(os.path.join(os.path.dirname(args.trace), "summary.json")))
reader = OTF2TraceReader(FileName=args.trace)  # noqa: F405
reader.UpdatePipeline()
states = servermanager.Fetch(reader, idx=0)
check(states.GetNumberOfRows() == summary["events"]["Enter"],
      "the installed reader gives %d States rows, the synthesizer wrote %d Enter records" % (
          states.GetNumberOfRows(), summary["events"]["Enter"]))
slices = 8
model = TimeSlicing(Input=OutputPort(reader, 0), Slices=slices)  # noqa: F405
model.UpdatePipeline()
image = servermanager.Fetch(model)
values = image.GetPointData().GetArray("Value")
check(image.GetDimensions()[0] == slices, "the model has %d slices, not %d" % (image.GetDimensions()[0], slices))
total = sum(values.GetValue(i) for i in range(values.GetNumberOfTuples())) if values else 0.0
bound = summary["locations"] * summary["trace_length_seconds"] * (1 + 1e-9)
check(0.0 < total <= bound, "the model holds %g s of state time; a trace of %d locations over %g s holds at most %g" % (
    total, summary["locations"], summary["trace_length_seconds"], bound))

# The embedded Python package.
import macroscope  # noqa: E402
check(callable(getattr(macroscope, "overview", None)), "macroscope has no overview()")

# The version in a saved state.
state = os.path.join(args.output, "state-%s.pvsm" % args.mode)
SaveState(state)  # noqa: F405
text = open(state).read()
check('<Macroscope version="%s"/>' % args.version in text, "%s does not carry the plugin's version" % state)

# Nothing from the build or source tree in this process.
mapped = sorted({line.split(None, 5)[5].strip() for line in open("/proc/self/maps") if len(line.split(None, 5)) == 6})
for forbidden in args.forbidden:
    inside = [path for path in mapped if path.startswith(forbidden.rstrip("/") + "/")]
    check(not inside, "files of %s are mapped: %s" % (forbidden, inside))
ours = [path for path in mapped if "Macroscope" in os.path.basename(path)]
check(ours and all(path.startswith(args.prefix) for path in ours),
      "Macroscope's libraries mapped from %s, not only from %s" % (ours, args.prefix))
print("%s (%s): mapped from the prefix: %s" % (os.path.basename(sys.executable), args.mode,
                                                ", ".join(os.path.basename(p) for p in ours)), flush=True)

if failures:
    print("%d failure(s)" % len(failures), flush=True)
    os._exit(1)
print("InstalledPlugin %s: passed" % args.mode, flush=True)
os._exit(0)
