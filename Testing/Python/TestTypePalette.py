"""The type palette on real traces (docs/colours.md, "Tests").

The 8 state types that take most (exclusive) time in the demo's sample and
in the SMPI trace of the demo's MPI program have, as the Timeline draws
them (its legend swatches), colours at least 20 apart in CIEDE2000, in the
default palette and in the colour-blind-safe one, where they also stay at
least 9 apart for protanopes and deuteranopes (Machado et al. 2009).
set_type_color warns on a type no trace has, naming the closest; use_palette
switches palettes, keeps the user's own colours and writes them in the
state file."""
import itertools
import os
import subprocess
import warnings

import color_metrics as cm
import macroscope_testing as mt
import type_colors_common as tcc

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *

mt.load_plugin(args, globals())
import macroscope

# --- The Python CIEDE2000 on pairs of Sharma, Wu and Dalal (2005), Table 1 --
SHARMA = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
          ((50.0, 2.49, -0.001), (50.0, -2.49, 0.0011), 7.2195),
          ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
          ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
          ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
          ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082)]
for first, second, expected in SHARMA:
    got = cm.ciede2000(first, second)
    mt.check(abs(got - expected) < 5e-5 and abs(cm.ciede2000(second, first) - expected) < 5e-5,
             "CIEDE2000 of %s and %s is %.4f, Sharma et al. give %.4f" % (first, second, got, expected))

# --- The two traces --------------------------------------------------------
# examples/demo.py's SyntheticTrace, as macroscope-synth options.
DEMO = ["--clusters", 2, "--nodes-per-cluster", 4, "--ranks-per-node", 4, "--threads-per-rank", 2,
        "--iterations", 100, "--pattern", "stencil3d", "--imbalance", 0.2, "--compute-time", 0.001,
        "--perturbation", "slow-node", "--perturb-target", 5, "--perturb-window", 0.02, 0.06,
        "--perturb-factor", 3, "--seed", 42]
sample = os.path.join(args.output, "sample-trace")
mt.synthesize(args, sample, *DEMO)
smpi = os.path.join(args.output, "smpi")
run = subprocess.run([os.path.join(args.source, "examples", "smpi", "run.sh"), smpi],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
mt.check(run.returncode == 0, "examples/smpi/run.sh failed:\n" + run.stdout)
readers = {
    "demo sample": OTF2TraceReader(registrationName="sample", FileName=os.path.join(sample, "traces.otf2")),
    "SMPI": PajeTraceReader(registrationName="smpi", FileName=os.path.join(smpi, "smpi.paje"),
                            HierarchyFile=os.path.join(args.source, "examples", "smpi", "hierarchy.json")),
}


def top_types(reader, n=8):
    """The n state types of most exclusive time (the model's, Depth -1),
    with every type tied with the n-th; all of them when the trace has
    fewer (SMPI's trace has 7, 4 of them instantaneous in simulated time)."""
    model = TimeSlicing(Input=[OutputPort(reader, i) for i in range(6)], Slices=1)
    image = servermanager.Fetch(model)
    from vtkmodules.util.numpy_support import vtk_to_numpy
    dims = image.GetDimensions()
    values = vtk_to_numpy(image.GetPointData().GetArray("Value")).reshape(dims[::-1])
    names = image.GetFieldData().GetAbstractArray("TypeName")
    times = sorted(((float(values[z].sum()), names.GetValue(z)) for z in range(dims[2])), reverse=True)
    if len(times) > n:
        cut = times[n - 1][0]
        times = [t for t in times if t[0] >= cut]
    Delete(model)
    return times


displays = {}
for label, reader in readers.items():
    view = CreateView("RenderView", registrationName=label)
    view.OrientationAxesVisibility = 0
    display = Show(OutputPort(reader, 0), view, "MacroscopeTraceRepresentation")
    display.SetRepresentationType("Timeline")
    display.ViewSize = [1200, 800]
    displays[label] = display
    Render(view)

tops = {label: top_types(reader) for label, reader in readers.items()}
for label, top in tops.items():
    mt.check(len(top) >= 7, "%s: only %d state types take time: %s" % (label, len(top), top))
    print("%s, the %d types of most time: %s" % (label, len(top), ", ".join(
        "%s %.3f s" % (name, t) for t, name in top)))


def drawn_colours(label, top):
    """{type: colour} as the Timeline draws it: its legend swatch; a type
    that takes no time has no mark and no swatch, and is drawn (in a
    tooltip, a zoom) in the colour of the Types table the legend uses,
    after TypeColors."""
    legend = tcc.legend_colors(displays[label])
    missing = [name for t, name in top if t > 0.0 and name not in legend]
    mt.check(not missing, "%s: the Timeline's legend lacks %s" % (label, missing))
    chosen = macroscope.type_colors()
    types = servermanager.Fetch(readers[label], idx=5)
    names = mt.column(types, "Name")
    colours = types.GetColumnByName("Color")
    out = {}
    for _, name in top:
        if name in legend:
            out[name] = legend[name]
        elif name in chosen:
            out[name] = tcc.hex_rgb(chosen[name])
        else:
            out[name] = tcc.rgb(colours, names.index(name))
    return out


def check_apart(palette):
    """The drawn colours of each trace's top types: pairwise ΔE00 >= 20,
    and >= 9 in simulated dichromacy for the colour-blind-safe palette.
    Returns the smallest differences seen."""
    smallest = {"normal": 1e9, "protanopia": 1e9, "deuteranopia": 1e9}
    for label, top in tops.items():
        legend = drawn_colours(label, top)
        names = [name for _, name in top]
        for a, b in itertools.combinations(names, 2):
            ca, cb = legend[a], legend[b]
            d = cm.difference(ca, cb)
            smallest["normal"] = min(smallest["normal"], d)
            mt.check(d >= 20.0, "%s, %s palette: %s %s and %s %s are only %.1f apart"
                     % (label, palette, a, ca, b, cb, d))
            for kind, matrix in (("protanopia", cm.PROTANOPIA), ("deuteranopia", cm.DEUTERANOPIA)):
                ds = cm.difference(cm.simulate(ca, matrix), cm.simulate(cb, matrix))
                smallest[kind] = min(smallest[kind], ds)
                if palette == "colour-blind":
                    mt.check(ds >= 9.0, "%s, %s palette, %s: %s and %s are only %.1f apart"
                             % (label, palette, kind, a, b, ds))
    print("%s palette: smallest ΔE00 among the top types %s" % (palette, ", ".join(
        "%s %.1f" % item for item in smallest.items())))
    return smallest


default_smallest = check_apart("default")
# The default palette is not safe for dichromats (the reason for the other).
mt.check(min(default_smallest["protanopia"], default_smallest["deuteranopia"]) < 9.0,
         "the default palette already keeps the top types apart for dichromats: %s" % default_smallest)

# The families as drawn: MPI waits and collectives warm, computation not.
for label, reader in readers.items():
    types = servermanager.Fetch(reader, idx=5)
    names = mt.column(types, "Name")
    paradigms, roles = mt.column(types, "Paradigm"), mt.column(types, "Role")
    shades = {n: macroscope.type_shade(n, p, r) for n, p, r in zip(names, paradigms, roles)}
    legend = drawn_colours(label, tops[label])
    for t, name in tops[label]:
        want = macroscope.palette_color(name, *[c for n, p, r in zip(names, paradigms, roles)
                                                if n == name for c in (p, r)])
        mt.check(legend[name] == tcc.hex_rgb(want), "%s: %s is drawn %s, its palette colour is %s"
                 % (label, name, legend[name], want))
    waits = [n for _, n in tops[label] if shades[n] == "mpi-wait"]
    computing = [n for _, n in tops[label] if shades[n] == "user"]
    mt.check(waits and computing, "%s: no MPI wait (%s) or no user code (%s) among the top types"
             % (label, waits, computing))

# --- set_type_color warns on a type no trace has ------------------------------
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    macroscope.set_type_color("MPI_Waital", "#ff00ff")
    macroscope.set_type_color("MPI_Waitall", "#ff00ff")
texts = [str(w.message) for w in caught]
mt.check(len(texts) == 1 and "'MPI_Waital'" in texts[0] and "'MPI_Waitall'" in texts[0],
         "set_type_color on an unknown type warned %r (expected one warning naming it and "
         "MPI_Waitall)" % texts)
macroscope.reset_type_color("MPI_Waital")
macroscope.reset_type_color("MPI_Waitall")
mt.check(macroscope.type_colors() == {}, "reset left %r" % macroscope.type_colors())

# --- use_palette: colour-blind, the user's colour kept, saved, and back --------
macroscope.set_type_color("compute", "#ff00ff")
written = macroscope.use_palette("colour-blind")
for view in GetRenderViews():
    Render(view)
chosen = macroscope.type_colors()
mt.check(chosen.get("compute") == "#ff00ff", "use_palette replaced the user's colour of compute: %r"
         % chosen.get("compute"))
mt.check(written >= 10 and len(chosen) == written + 1, "use_palette wrote %d entries, TypeColors "
         "holds %d" % (written, len(chosen)))
tops_without_compute = {label: [(t, n) for t, n in top if n != "compute"] for label, top in tops.items()}
saved_tops = tops
tops = tops_without_compute
check_apart("colour-blind")
tops = saved_tops
for label, top in tops.items():
    legend = drawn_colours(label, top)
    for _, name in top:
        if name != "compute":
            types = servermanager.Fetch(readers[label], idx=5)
            row = mt.column(types, "Name").index(name)
            want = macroscope.palette_color(name, mt.column(types, "Paradigm")[row],
                                            mt.column(types, "Role")[row], "colour-blind")
            mt.check(legend[name] == tcc.hex_rgb(want), "%s: %s is drawn %s after "
                     "use_palette('colour-blind'), not %s" % (label, name, legend[name], want))
state = os.path.join(args.output, "palette.pvsm")
SaveState(state)
with open(state) as f:
    text = f.read()
for name, colour in chosen.items():
    mt.check('value="%s"' % colour in text and 'value="%s"' % name in text,
             "the state file lacks the entry %s %s" % (name, colour))
macroscope.use_palette("default")
mt.check(macroscope.type_colors() == {"compute": "#ff00ff"},
         "back to the default palette, TypeColors is %r" % macroscope.type_colors())
print("use_palette: %d colour-blind-safe colours written, the user's kept, saved in %s" % (written, state))
