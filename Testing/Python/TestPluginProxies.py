"""Every proxy of the plugin loads, is documented, and sits in the Macroscope
category; every property has documentation (read from the XML files and from
the loaded proxy definitions)."""
import glob
import os
import xml.etree.ElementTree as ET

import macroscope_testing as mt
import state_coverage

args = mt.parse_args()
from paraview import simple, servermanager

mt.load_plugin(args, globals())

xml_files = sorted(glob.glob(os.path.join(args.source, "Plugin", "*.xml")))
mt.check(xml_files, "no server-manager XML found under %s/Plugin" % args.source)

PROPERTY_TAGS = {"IntVectorProperty", "DoubleVectorProperty", "StringVectorProperty",
                 "IdTypeVectorProperty", "InputProperty", "ProxyProperty"}
aliases = state_coverage.state_aliases(args.source)
declared = {(group.get("name"), proxy.get("name")): proxy for path in xml_files
            for group in ET.parse(path).getroot().iter("ProxyGroup") for proxy in group}
proxies = 0
for path in xml_files:
    root = ET.parse(path).getroot()
    for group in root.iter("ProxyGroup"):
        for proxy in group:
            name = proxy.get("name")
            where = "%s: %s/%s" % (os.path.basename(path), group.get("name"), name)
            proxies += 1
            doc = proxy.find("Documentation")
            mt.check(doc is not None and (doc.text or "").strip(), where + " has no Documentation")
            is_reader = any(True for _ in proxy.iter("ReaderFactory"))
            if is_reader:
                extensions = [h.get("extensions") for h in proxy.iter("ReaderFactory")]
                mt.check(all(extensions), where + " is a reader without file extensions")
            elif name in aliases:
                # A proxy's name before a rename, for old state files only: in
                # no menu, standing for a proxy of the same group and class.
                mt.check(not any(True for _ in proxy.iter("ShowInMenu")), where + " is a state alias in a menu")
                target = declared.get((group.get("name"), aliases[name][0]))
                mt.check(target is not None and target.get("class") == proxy.get("class"),
                         "%s stands for %s, which is not a %s proxy of the same class"
                         % (where, aliases[name][0], group.get("name")))
            elif group.get("name") in ("sources", "filters"):
                # Readers are reached through File > Open, the others through the menus.
                menus = [h.get("category") for h in proxy.iter("ShowInMenu")]
                mt.check("Macroscope" in menus, where + " is not in the Macroscope menu category")
            for prop in proxy:
                if prop.tag in PROPERTY_TAGS:
                    pdoc = prop.find("Documentation")
                    mt.check(pdoc is not None and (pdoc.text or "").strip(),
                             "%s: property %s has no Documentation" % (where, prop.get("name")))

            # The loaded plugin knows the proxy and can instantiate it.
            pxm = servermanager.ProxyManager()
            instance = pxm.NewProxy(group.get("name"), name)
            mt.check(instance is not None, where + " cannot be instantiated from the loaded plugin")
            for prop in proxy:
                if prop.tag in PROPERTY_TAGS:
                    smprop = instance.GetProperty(prop.get("name"))
                    mt.check(smprop is not None,
                             "%s: property %s missing from the loaded proxy" % (where, prop.get("name")))

mt.check(proxies > 0, "the plugin declares no proxies")
print("%d proxies checked in %d XML files" % (proxies, len(xml_files)))
