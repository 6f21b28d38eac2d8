"""A state file written before a proxy was renamed still loads, and gives
the same output as the proxy under its new name.

Active Producers was the filter proxy "ActiveProducers"; it is now
"MacroscopeActiveProducers", like the plugin's other proxies, and
"ActiveProducers" stays as a state alias (Plugin/ActiveProducers.xml). A
state of that time differs from today's only by the proxy's type in
<Proxy group="filters" type="...">, so the test saves today's state and
writes that old one from it, for every alias the XML declares
(state_coverage.state_aliases): a rename added later is tested too.
paraview.simple's function is the same before and after (ActiveProducers(),
from the label)."""
import os
import re

import macroscope_testing as mt
import state_coverage

args = mt.parse_args()
from paraview import servermanager
from paraview.simple import *

mt.load_plugin(args, globals())

aliases = state_coverage.state_aliases(args.source)
mt.check(aliases.get("ActiveProducers", (None,))[0] == "MacroscopeActiveProducers",
         "Plugin/*.xml declares no state alias ActiveProducers for MacroscopeActiveProducers: %r"
         % sorted(aliases))

anchor_dir = os.path.join(args.output, "otf2")
mt.synthesize(args, anchor_dir, "--iterations", 3, "--clusters", 1)
reader = OTF2TraceReader(registrationName="reader", FileName=os.path.join(anchor_dir, "traces.otf2"))
reader.UpdatePipeline()
ports = [OutputPort(reader, i) for i in range(6)]

# Off their defaults, so that the reloaded filter must have read them.
settings = dict(TimeWindow=[0.001, 0.002], Activity="Idle", Level=3, MinimumRecords=50)
producers = ActiveProducers(registrationName="producers", Input=ports, **settings)
mt.check(producers.GetXMLName() == "MacroscopeActiveProducers",
         "ActiveProducers() creates %s, not MacroscopeActiveProducers" % producers.GetXMLName())
producers.UpdatePipeline()


def table_of(proxy):
    """Column name -> values of the filter's output, for comparing runs."""
    table = servermanager.Fetch(proxy)
    return {table.GetColumnName(c): mt.column(table, table.GetColumnName(c))
            for c in range(table.GetNumberOfColumns())}


expected = table_of(producers)
mt.check(expected and len(next(iter(expected.values()))) > 0,
         "Active Producers lists no idle producer to compare")

state = os.path.join(args.output, "today.pvsm")
SaveState(state)
with open(state) as f:
    today = f.read()

for old_name, (new_name, spec) in sorted(aliases.items()):
    new_type = 'group="%s" type="%s"' % (spec.group, new_name)
    mt.check(new_type in today, "the state written today has no %s proxy" % new_name)
    old_state = os.path.join(args.output, "before-rename-%s.pvsm" % old_name)
    with open(old_state, "w") as f:
        f.write(today.replace(new_type, 'group="%s" type="%s"' % (spec.group, old_name)))
    with open(old_state) as f:
        written = f.read()
    mt.check(not re.search(r'type="%s"' % new_name, written) and 'type="%s"' % old_name in written,
             "%s does not hold the old name %s only" % (old_state, old_name))

    ResetSession()
    mt.load_plugin(args, globals())
    LoadState(old_state)
    loaded = FindSource("producers")
    mt.check(loaded is not None, "%s: no 'producers' source after LoadState" % old_state)
    mt.check(loaded.GetXMLName() == old_name,
             "%s loaded a %s, not the alias %s" % (old_state, loaded.GetXMLName(), old_name))
    for key, value in settings.items():
        got = getattr(loaded, key)
        if not isinstance(got, str) and hasattr(got, "__len__"):
            got = list(got) if len(got) > 1 else got[0]  # an enumeration reads as a list of one
        mt.check(got == value, "%s: %s is %r after loading, %r when saved" % (old_state, key, got, value))
    loaded.UpdatePipeline()
    got_table = table_of(loaded)
    mt.check(sorted(got_table) == sorted(expected), "%s: columns %s, %s before the rename"
             % (old_state, sorted(got_table), sorted(expected)))
    for column, values in expected.items():
        mt.check(list(got_table.get(column, [])) == list(values),
                 "%s: column %s differs from the filter's under its new name" % (old_state, column))
    print("%s: %s loads as %s, %d rows as before" % (os.path.basename(old_state), old_name,
                                                      new_name, len(next(iter(expected.values())))))
