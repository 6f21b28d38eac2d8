"""What the state-file tests must cover, read from the plugin's own XML.

Every proxy of Plugin/*.xml and every property a user can set on it (not
the information-only ones) must be given a non-default value by a test and
checked after the state is reloaded; a proxy or property added to the XML
later makes the tests fail until they cover it. Input and proxy properties
are covered by comparing the pipeline connections instead. The properties
of the representations in the "representations" group are covered through
the display that shows them (the composite MacroscopeTraceRepresentation
with that representation type selected).
"""
import glob
import os
import xml.etree.ElementTree as ET

# Properties of the sub-representations that the composite display does not
# expose: which view a shared class draws, a constant of the sub-proxy's XML
# default, not a user setting. ParaView saves a composite representation's
# exposed properties only, so these are not in a state file at all; the test
# checks that they stay hidden (panel_visibility="never", not exposed), and
# the fresh-process test's images show the right view is drawn.
FIXED = {
    ("MacroscopeLogicalTimelineRepresentation", "View"): "the composite picks the view",
    ("MacroscopeClusteredTimelineRepresentation", "View"): "the composite picks the view",
    ("MacroscopeMetricOverviewRepresentation", "View"): "the composite picks the view",
    ("MacroscopeTemporalOverviewRepresentation", "Overview"): "the composite picks the overview",
    ("MacroscopeSpatiotemporalOverviewRepresentation", "Overview"): "the composite picks the overview",
}

_CONNECTIONS = ("InputProperty", "ProxyProperty")


class PropertySpec:
    def __init__(self, element):
        self.name = element.get("name")
        self.tag = element.tag
        self.connection = element.tag in _CONNECTIONS
        self.numeric = element.tag in ("IntVectorProperty", "DoubleVectorProperty",
                                       "IdTypeVectorProperty")
        self.enum = {}
        for entry in element.iter("Entry"):
            self.enum[entry.get("text")] = int(entry.get("value"))
        self.strings = [s.get("value") for s in element.iter("String")]
        self.hidden = element.get("panel_visibility") == "never"
        default = element.get("default_values")
        if default is None:
            self.default = []
        elif self.numeric:
            self.default = [float(v) for v in default.split()]
        else:
            self.default = [default]

    def normalize(self, value):
        """A Python-side value as a list comparable with the XML default
        (enumeration texts become their values)."""
        values = list(value) if isinstance(value, (list, tuple)) else [value]
        out = []
        for v in values:
            if isinstance(v, str) and v in self.enum:
                out.append(float(self.enum[v]))
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                out.append(float(v))
            else:
                out.append(v)
        return out

    def is_default(self, value):
        return self.normalize(value) == self.default


class ProxySpec:
    def __init__(self, group, element, xml_file):
        self.group = group
        self.name = element.get("name")
        self.label = element.get("label") or self.name
        self.file = xml_file
        self.base = element.get("base_proxyname")
        self.element_base_group = element.get("base_proxygroup")
        self.properties = {}
        for child in element:
            if not child.tag.endswith("Property") or child.get("information_only") == "1":
                continue
            self.properties[child.get("name")] = PropertySpec(child)
        # Composite representations: representation type text -> sub-proxy XML name.
        self.exposed = {p.get("name") for e in element.iter("ExposedProperties")
                        for p in e.iter("Property")}
        self.types = {}
        self.subproxies = {}  # sub-proxy XML name -> its name in the composite
        names = {}
        for sub in element.iter("SubProxy"):
            proxy = sub.find("Proxy")
            if proxy is not None:
                names[proxy.get("name")] = proxy.get("proxyname")
                self.subproxies[proxy.get("proxyname")] = proxy.get("name")
        for rtype in element.iter("RepresentationType"):
            if rtype.get("subproxy") in names:
                self.types[rtype.get("text")] = names[rtype.get("subproxy")]


def _plugin_xml(source_dir):
    files = sorted(glob.glob(os.path.join(source_dir, "Plugin", "*.xml")))
    if not files:
        raise RuntimeError("no Plugin/*.xml under %s" % source_dir)
    return files


def state_aliases(source_dir):
    """XML name -> (the proxy it stands for, its ProxySpec) of every proxy
    that exists only so that state files written before a rename still
    load (a StateAlias hint). It has the properties of the proxy it stands
    for, so covering that proxy covers it; TestStateOldNames loads one."""
    aliases = {}
    for xml_file in _plugin_xml(source_dir):
        for group in ET.parse(xml_file).getroot().iter("ProxyGroup"):
            for element in group:
                for hint in element.iter("StateAlias"):
                    aliases[element.get("name")] = (
                        hint.get("of"), ProxySpec(group.get("name"), element, os.path.basename(xml_file)))
    return aliases


def plugin_proxies(source_dir):
    """XML name -> ProxySpec of every proxy Plugin/*.xml defines in the
    sources, filters and representations groups, but the state aliases; a
    proxy deriving from another (base_proxygroup/base_proxyname) has its
    base's properties too."""
    proxies = {}
    bases = {}
    aliases = state_aliases(source_dir)
    for xml_file in _plugin_xml(source_dir):
        for group in ET.parse(xml_file).getroot().iter("ProxyGroup"):
            for element in group:
                if not element.get("name") or element.get("name") in aliases:
                    continue
                spec = ProxySpec(group.get("name"), element, os.path.basename(xml_file))
                bases[(group.get("name"), spec.name)] = spec
                if group.get("name") in ("sources", "filters", "representations"):
                    proxies[spec.name] = spec
    for spec in proxies.values():
        derived = spec
        while derived.base:
            key = (derived.element_base_group, derived.base)
            if key not in bases:
                raise RuntimeError("%s: %s derives from %s/%s, which no Plugin/*.xml defines"
                                   % (spec.file, spec.name, key[0], key[1]))
            derived = bases[key]
            for name, prop in derived.properties.items():
                spec.properties.setdefault(name, prop)
    return proxies


class Coverage:
    """Records which (proxy, property) pairs a test set off their default and
    checked after reloading, and lists the ones it did not."""

    def __init__(self, source_dir):
        self.proxies = plugin_proxies(source_dir)
        self.checked = set()
        self.errors = []

    def spec(self, xml_name, prop):
        proxy = self.proxies.get(xml_name)
        if proxy is None:
            return None
        return proxy.properties.get(prop)

    def setting(self, xml_name, prop, value):
        """Declares that the test sets `prop` of `xml_name` to `value`; an
        error when it is the XML default (it would prove nothing)."""
        spec = self.spec(xml_name, prop)
        if spec is None:
            self.errors.append("%s has no property %s in Plugin/*.xml" % (xml_name, prop))
        elif spec.is_default(value):
            self.errors.append("%s.%s is set to its default %r: a round trip of it proves "
                               "nothing" % (xml_name, prop, value))

    def checked_value(self, xml_name, prop):
        self.checked.add((xml_name, prop))

    def display_setting(self, representation_type, prop, value):
        """A display property set on the composite representation showing
        `representation_type`: covers the property of the sub-representation
        that draws it (and of the composite itself)."""
        composite = self.composite()
        sub = composite.types.get(representation_type)
        if sub is None:
            self.errors.append("no representation type %r in %s" % (representation_type, composite.name))
            return []
        covered = [name for name in (sub, composite.name) if self.spec(name, prop) is not None]
        if not covered:
            self.errors.append("the %r display has no property %s" % (representation_type, prop))
        for name in covered:
            self.setting(name, prop, value)
        return covered

    def composite(self):
        composites = [p for p in self.proxies.values() if p.types]
        if len(composites) != 1:
            raise RuntimeError("expected one composite representation, found %s"
                               % [p.name for p in composites])
        return composites[0]

    def fixed_errors(self):
        """FIXED properties a user could change after all."""
        errors = []
        composite = self.composite()
        for (xml_name, prop), why in FIXED.items():
            spec = self.spec(xml_name, prop)
            if spec is None:
                errors.append("FIXED names %s.%s, which Plugin/*.xml does not define" % (xml_name, prop))
            elif not spec.hidden or prop in composite.exposed:
                errors.append("%s.%s is fixed (%s) but shown to users: give it a non-default "
                              "value in the test instead" % (xml_name, prop, why))
        return errors

    def missing(self):
        """'Proxy.Property (file)' of every settable property not covered."""
        out = []
        for proxy in self.proxies.values():
            for name, spec in proxy.properties.items():
                if spec.connection or (proxy.name, name) in FIXED:
                    continue
                if (proxy.name, name) not in self.checked:
                    out.append("%s.%s (%s)" % (proxy.name, name, proxy.file))
        return sorted(out)

    def uncovered_proxies(self, seen):
        return sorted(name for name in self.proxies if name not in seen)
