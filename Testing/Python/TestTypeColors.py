"""One type name, one colour, in every view and every trace; a colour chosen
once (macroscope.set_type_color) reaches every view, and its link and value
are saved in the state file (docs/colours.md).

Two different synthesized runs (ring and tree patterns, other machine
shapes) are each shown as Timeline, Temporal Overview, Treemap, Logical
Timeline and Topology-Time 3D. The colours are read from the layers the
representations computed (marks and legend swatches). Process 1 of two:
TestTypeColorsLoad.py loads the state it saves in a fresh pvbatch."""
import json
import os
import shutil

import macroscope_testing as mt
import type_colors_common as tcc

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *

mt.load_plugin(args, globals())
import macroscope

shared = tcc.shared_dir(args)
shutil.rmtree(shared, ignore_errors=True)  # never leave an old state for the load to find
os.makedirs(shared)

RUNS = {
    "A": ["--clusters", 1, "--nodes-per-cluster", 2, "--ranks-per-node", 2, "--threads-per-rank", 1,
          "--iterations", 4, "--pattern", "ring"],
    "B": ["--clusters", 2, "--nodes-per-cluster", 1, "--ranks-per-node", 3, "--threads-per-rank", 2,
          "--iterations", 3, "--pattern", "tree", "--seed", 7],
}
TYPED = ("Timeline", "Temporal Overview", "Spatiotemporal Overview", "Treemap", "Topology-Time 3D")  # colour by type
VIEWS = TYPED + ("Logical Timeline",)  # colours by a metric: no type colour

# --- The palette's Python copy agrees with the C++ one on examples -----------
mt.check(macroscope.colors.to_hex((1.0, 0.5, 0.0)) == "#ff8000", "to_hex of floats")
mt.check(macroscope.colors.to_hex((255, 128, 0)) == "#ff8000", "to_hex of ints")
mt.check(macroscope.colors.to_hex("#FF8000") == "#ff8000", "to_hex of upper-case hex")

# --- Two traces, five views each ---------------------------------------------
displays = {}     # (run, representation type) -> display
type_names = {}   # run -> the reader's Types names, by row
classes = {}      # type name -> (paradigm, role), what the palette colours by


def pal(name):
    """The palette colour of a type of the traces (palette_color of its
    name, paradigm and role)."""
    return macroscope.palette_color(name, *classes[name])

for run, options in RUNS.items():
    directory = os.path.join(shared, run)
    mt.synthesize(args, directory, *options)
    reader = OTF2TraceReader(registrationName="reader" + run,
                             FileName=os.path.join(directory, "traces.otf2"))
    outputs = [OutputPort(reader, i) for i in range(6)]
    slicing = TimeSlicing(registrationName="slicing" + run, Input=outputs, Slices=16)
    temporal = TemporalAggregation(registrationName="temporal" + run, Input=slicing, Parameter=0.3)
    partition = SpatiotemporalAggregation(registrationName="partition" + run, Input=slicing,
                                          Parameter=0.3)
    treemap = ResourceTreemap(registrationName="treemap" + run, Input=slicing)
    logical = LogicalTime(registrationName="logical" + run, Input=outputs)
    sources = {"Timeline": reader, "Temporal Overview": temporal,
               "Spatiotemporal Overview": partition, "Treemap": treemap,
               "Logical Timeline": logical, "Topology-Time 3D": reader}
    for rtype in VIEWS:
        view = CreateView("RenderView", registrationName="%s %s" % (rtype, run))
        view.OrientationAxesVisibility = 0
        display = Show(OutputPort(sources[rtype], 0), view, "MacroscopeTraceRepresentation")
        display.SetRepresentationType(rtype)
        view.ResetCamera()
        displays[(run, rtype)] = display

    # The reader's colours (C++ TypePalette) are palette_color's (Python),
    # in both palettes.
    types = servermanager.Fetch(reader, idx=5)
    names = mt.column(types, "Name")
    paradigms, roles = mt.column(types, "Paradigm"), mt.column(types, "Role")
    for column, palette in (("Color", "default"), ("ColorBlindColor", "colour-blind")):
        colors = types.GetColumnByName(column)
        for row, name in enumerate(names):
            want = macroscope.palette_color(name, paradigms[row], roles[row], palette)
            mt.check(tcc.rgb(colors, row) == tcc.hex_rgb(want),
                     "run %s: the reader's %s of %s (%s, %s) is %s, palette_color gives %s"
                     % (run, column, name, paradigms[row], roles[row], tcc.rgb(colors, row), want))
    for row, name in enumerate(names):
        classes[name] = (paradigms[row], roles[row])
    type_names[run] = names


def render_all():
    for view in GetRenderViews():
        Render(view)


def pixels(view_name, color):
    """How many pixels of a screenshot of the view have exactly `color`
    (charts are drawn unlit and opaque, so a type's colour reaches the
    image unchanged)."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOImage import vtkPNGReader
    path = os.path.join(args.output, view_name.replace(" ", "_") + ".png")
    SaveScreenshot(path, FindView(view_name), ImageResolution=[1000, 600], TransparentBackground=0)
    reader = vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = vtk_to_numpy(reader.GetOutput().GetPointData().GetScalars())[:, :3]
    return int((image == color).all(axis=1).sum())


def drawn():
    """(run, view) -> [(type name, rgb)] per mark cell."""
    return {key: tcc.mark_colors(d, type_names[key[0]]) for key, d in displays.items()}


render_all()
before = drawn()
legends_before = {key: tcc.legend_colors(d) for key, d in displays.items()
                  if key[1] != "Topology-Time 3D" and key[1] != "Logical Timeline"}

# --- One name, one colour: every typed view of both runs, and the legends ----
# Every mark and legend swatch of a type has the palette colour of its name
# (the Spatiotemporal Overview's marks, its blend over white).
names_seen = set()
for key, cells in before.items():
    if key[1] not in TYPED:
        continue
    for name, color in cells:
        if name is not None:
            names_seen.add(name)
            palette = tcc.hex_rgb(pal(name))
            mt.check(tcc.same_colour(color, palette), "%s %s: a %s mark is %r, not its palette colour %s"
                     % (key + (name, color, palette)))
for key, legend in legends_before.items():
    for name, color in legend.items():
        if name in names_seen:
            palette = tcc.hex_rgb(pal(name))
            mt.check(color == palette, "%s %s legend: %s is %s, not its palette colour %s"
                     % (key + (name, color, palette)))
drawn_by = {key: {n for n, _ in cells if n is not None} for key, cells in before.items()}
everywhere = set.intersection(*(drawn_by[(run, rtype)] for run in RUNS for rtype in TYPED))
mt.check(len(everywhere) >= 2, "fewer than two types are drawn in every typed view of both runs: %s"
         % sorted(everywhere))
only_a = drawn_by[("A", "Timeline")] - drawn_by[("B", "Timeline")]
mt.check(only_a, "the two runs draw the same types: they do not test two different traces")
X, Y = sorted(everywhere)[:2]
print("%d type names, one colour each in %d typed views of 2 runs; recolouring %s and %s"
      % (len(names_seen), 2 * len(TYPED), X, Y))

# --- set_type_color once: every view follows ----------------------------------
MAGENTA = (255, 0, 255)  # in no palette (docs/colours.md)
# What reaches the screen: the rendered Timeline and Treemap (marks and
# legend swatches) before and after.
PALETTE_X = tcc.hex_rgb(pal(X))
IMAGES = ("Timeline A", "Treemap B")
before_pixels = {v: (pixels(v, PALETTE_X), pixels(v, MAGENTA)) for v in IMAGES}
for view_name, (palette_count, magenta_count) in before_pixels.items():
    mt.check(palette_count > 0 and magenta_count == 0, "%s before: %d pixels of %s's palette colour, "
             "%d magenta" % (view_name, palette_count, X, magenta_count))
mt.check(macroscope.set_type_color(X, MAGENTA) == "#ff00ff", "set_type_color's return value")
render_all()
after = drawn()
for key, cells in after.items():
    mt.check(len(cells) == len(before[key]), "%s %s: %d marks before, %d after recolouring"
             % (key + (len(before[key]), len(cells))))
    for (name, color), (name0, color0) in zip(cells, before[key]):
        mt.check(name == name0, "%s %s: the marks changed order" % key)
        if key[1] in TYPED and name == X:
            mt.check(tcc.same_colour(color, MAGENTA), "%s %s: a %s mark is %s, not the chosen %s"
                     % (key + (X, color, MAGENTA)))
        else:
            mt.check(color == color0, "%s %s: a %s mark changed from %s to %s"
                     % (key + (name, color0, color)))
for key, legend in legends_before.items():
    now = tcc.legend_colors(displays[key])
    for name, color in legend.items():
        want = MAGENTA if name == X else color
        mt.check(now.get(name) == want, "%s %s legend: %s is %s, expected %s"
                 % (key + (name, now.get(name), want)))
mt.check(macroscope.type_colors() == {X: "#ff00ff"}, "type_colors() is %r" % macroscope.type_colors())
for view_name in IMAGES:
    palette_count, magenta_count = pixels(view_name, PALETTE_X), pixels(view_name, MAGENTA)
    mt.check(palette_count == 0 and magenta_count > 0, "%s after: %d pixels of %s's palette colour "
             "left, %d magenta" % (view_name, palette_count, X, magenta_count))
    print("%s: %d pixels of %s turned from %s to magenta (%d now)"
          % (view_name, before_pixels[view_name][0], X, pal(X), magenta_count))

# The link: registered under its name, every display in it, both directions.
pxm = servermanager.ProxyManager().SMProxyManager
link = pxm.GetRegisteredLink(macroscope.colors.LINK_NAME)
mt.check(link is not None, "no link %r registered" % macroscope.colors.LINK_NAME)
linked = macroscope.colors._linked_proxies(link)
mt.check(len(linked) == len(displays) and all(d.SMProxy in linked for d in displays.values()),
         "the link holds %d proxies, not the %d displays" % (len(linked), len(displays)))

# --- Editing one display's TypeColors (the Properties panel) changes all ----
CYAN = "#00ffff"
displays[("B", "Treemap")].TypeColors = [X, "#ff00ff", Y, CYAN]
for key, display in displays.items():
    mt.check(list(display.TypeColors) == [X, "#ff00ff", Y, CYAN],
             "%s %s: TypeColors %r did not follow the edited display" % (key + (list(display.TypeColors),)))
render_all()
for run in RUNS:
    for rtype in TYPED:
        tcc.check_type_drawn(displays[(run, rtype)], type_names[run], Y, tcc.hex_rgb(CYAN),
                             "after editing one display")

# reset_type_color gives Y its palette colour back everywhere.
macroscope.reset_type_color(Y)
render_all()
mt.check(macroscope.type_colors() == {X: "#ff00ff"}, "after reset: %r" % macroscope.type_colors())
for run in RUNS:
    for rtype in TYPED:
        tcc.check_type_drawn(displays[(run, rtype)], type_names[run], Y,
                             tcc.hex_rgb(pal(Y)), "after reset_type_color")

# --- Bad colours: a clear error naming them, nothing changed -----------------
for bad in ("#12345", "orange", (1.5, 0.0, 0.0), (0, 300, 0), (1, 2)):
    try:
        macroscope.set_type_color(Y, bad)
    except ValueError as error:
        mt.check(repr(bad) in str(error) or str(bad) in str(error),
                 "the error for %r does not name it: %s" % (bad, error))
    else:
        mt.fail("set_type_color accepted the colour %r" % (bad,))
mt.check(macroscope.type_colors() == {X: "#ff00ff"}, "a refused colour changed the overrides")

# Typed into the property: the views report the entry and draw nothing; no crash.
errors = mt.ErrorCapture()
display = displays[("A", "Timeline")]
display.TypeColors = [X, "#ff00ff", Y, "#12345z"]
render_all()
text = errors.text()
display.TypeColors = [X]
render_all()
odd = errors.text()
errors.close()
mt.check("type colour 2 (\"%s\")" % Y in text and "#12345z" in text,
         "a malformed colour is not reported with its entry:\n" + text)
mt.check("has no colour" in odd, "an odd-length TypeColors is not reported:\n" + odd)
display.TypeColors = [X, "#ff00ff"]
render_all()
tcc.check_type_drawn(displays[("B", "Treemap")], type_names["B"], X, MAGENTA, "after the errors")

# --- A display shown later joins with link_type_colors ------------------------
late_view = CreateView("RenderView", registrationName="late Timeline B")
late = Show(OutputPort(FindSource("readerB"), 0), late_view, "MacroscopeTraceRepresentation")
late.SetRepresentationType("Timeline")
mt.check(list(late.TypeColors) == [], "a new display starts with %r" % list(late.TypeColors))
macroscope.link_type_colors()
mt.check(list(late.TypeColors) == [X, "#ff00ff"], "link_type_colors gave the new display %r"
         % list(late.TypeColors))
Render(late_view)
tcc.check_type_drawn(late, type_names["B"], X, MAGENTA, "a display linked later")
displays[("B", "late Timeline")] = late

# --- The state file: the loading test checks it in a fresh process -----------
SaveState(os.path.join(shared, "colors.pvsm"))
with open(os.path.join(shared, "expected.json"), "w") as f:
    json.dump({"X": X, "Y": Y, "displays": len(displays),
               "views": {"%s|%s" % key: tcc.rtype(d) for key, d in displays.items()}}, f)
print("every view and both runs agree; %s recoloured once for %d displays; state saved"
      % (X, len(displays)))
