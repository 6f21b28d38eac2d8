"""Type colours: one colour per type name in every Macroscope view.

Every view draws a type in the colour its trace gives it (the stable palette
of its name, see ``palette_color``) unless the ``TypeColors`` property of its
display names the type. The functions below keep that property the same on
every Macroscope display of the session: they set it on all of them and tie
them with one property link registered with the proxy manager as
"Macroscope type colours", so that editing ``TypeColors`` in any display's
Properties panel changes all of them. The link and the values are saved in
state files (docs/colours.md).

    import macroscope
    macroscope.set_type_color("MPI_Send", "#ff8000")
    macroscope.set_type_color("compute", (0.2, 0.4, 0.8))
    Render()

Views are not rendered here: call ``Render()`` (the GUI redraws by itself).
"""
import math

LINK_NAME = "Macroscope type colours"
PROPERTY = "TypeColors"
DISPLAY = "MacroscopeTraceRepresentation"

_MASK = (1 << 64) - 1


def _fnv1a(text):
    """64-bit FNV-1a of the UTF-8 bytes of `text` (TypePalette::StableHash)."""
    value = 14695981039346656037
    for byte in text.encode("utf-8"):
        value ^= byte
        value = (value * 1099511628211) & _MASK
    return value


def _hsv_to_rgb(hue, saturation, value):
    """8-bit RGB, computed as TypePalette::FromHSV does (same operations,
    so the same bytes)."""
    h = 6.0 * (hue - math.floor(hue))
    sector = int(h) % 6
    f = h - math.floor(h)
    p = value * (1.0 - saturation)
    q = value * (1.0 - saturation * f)
    t = value * (1.0 - saturation * (1.0 - f))
    r, g, b = [(value, t, p), (q, value, p), (p, value, t), (p, q, value), (t, p, value),
               (value, p, q)][sector]
    return tuple(int(math.floor(x * 255.0 + 0.5)) for x in (r, g, b))


def palette_color(name):
    """The colour "#rrggbb" the palette gives the type `name` when nobody
    chose one: the colour readers write in the Types table (the C++
    macroscope::TypePalette, of which this is a copy checked against it by
    the tests)."""
    h = _fnv1a(name)
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & _MASK
    h ^= h >> 33
    hue = (h & 0xffff) / 65536.0
    saturation = 0.50 + 0.15 * ((h >> 16) % 4)
    value = 0.70 + 0.10 * ((h >> 20) % 3)
    return to_hex(_hsv_to_rgb(hue, saturation, value))


def to_hex(color):
    """`color` as "#rrggbb": a string "#rrggbb" (either case), or (r, g, b)
    of floats in [0, 1] or of ints in 0-255. Raises ValueError naming the
    colour otherwise."""
    if isinstance(color, str):
        text = color.strip()
        digits = "0123456789abcdefABCDEF"
        if len(text) != 7 or text[0] != "#" or any(c not in digits for c in text[1:]):
            raise ValueError("colour %r is not of the form #rrggbb (e.g. #ff8000)" % (color,))
        return text.lower()
    try:
        channels = list(color)
    except TypeError:
        raise ValueError("colour %r is neither \"#rrggbb\" nor (r, g, b)" % (color,)) from None
    if len(channels) != 3 or not all(isinstance(c, (int, float)) and not isinstance(c, bool)
                                     for c in channels):
        raise ValueError("colour %r is not (r, g, b): three numbers are needed" % (color,))
    if all(isinstance(c, int) for c in channels):
        if not all(0 <= c <= 255 for c in channels):
            raise ValueError("colour %r: integer channels must be in 0-255" % (color,))
        return "#%02x%02x%02x" % tuple(channels)
    if not all(0.0 <= c <= 1.0 for c in channels):
        raise ValueError("colour %r: real channels must be in [0, 1]" % (color,))
    return "#%02x%02x%02x" % tuple(int(math.floor(c * 255.0 + 0.5)) for c in channels)


def displays():
    """Every Macroscope display (MacroscopeTraceRepresentation) of the session."""
    from paraview import servermanager
    pxm = servermanager.ProxyManager()
    found = []
    for key, proxy in pxm.GetProxiesInGroup("representations").items():
        if proxy.GetXMLName() == DISPLAY and proxy not in found:
            found.append(proxy)
    return found


def _session_manager():
    from paraview import servermanager
    return servermanager.ProxyManager().SMProxyManager


def _registered_link():
    """The session's "Macroscope type colours" link, or None."""
    return _session_manager().GetRegisteredLink(LINK_NAME)


def _linked_proxies(link):
    """The proxies of `link`, each once."""
    proxies = []
    for i in range(link.GetNumberOfLinkedObjects()):
        proxy = link.GetLinkedProxy(i)
        if proxy is not None and proxy not in proxies:
            proxies.append(proxy)
    return proxies


def _pairs_to_dict(values, where):
    values = list(values)
    if len(values) % 2:
        raise ValueError("%s: TypeColors holds %d entries; it needs pairs (type name, #rrggbb)"
                         % (where, len(values)))
    return {values[i]: values[i + 1] for i in range(0, len(values), 2)}


def _current(link):
    """The overrides the linked displays hold (those of the first one)."""
    from paraview import servermanager
    proxies = _linked_proxies(link) if link is not None else []
    if not proxies:
        return {}
    display = servermanager._getPyProxy(proxies[0])
    return _pairs_to_dict(display.GetPropertyValue(PROPERTY), "the display of %s" % display)


def link_type_colors(displays_=None):
    """Ties the TypeColors of `displays_` (default: every Macroscope display
    of the session) to the "Macroscope type colours" link, creating and
    registering it on first use, and gives the newly linked ones the
    overrides already in force. Returns the vtkSMPropertyLink."""
    from paraview import servermanager
    from paraview.modules.vtkRemotingServerManager import vtkSMLink, vtkSMPropertyLink
    link = _registered_link()
    if link is None:
        link = vtkSMPropertyLink()
        _session_manager().RegisterLink(LINK_NAME, link)
    current = _current(link)
    linked = _linked_proxies(link)
    wanted = displays() if displays_ is None else list(displays_)
    for display in wanted:
        proxy = display.SMProxy if hasattr(display, "SMProxy") else display
        if proxy in linked:
            continue
        if proxy.GetXMLName() != DISPLAY:
            raise ValueError("%s is not a Macroscope display (%s)" % (proxy.GetXMLName(), DISPLAY))
        if linked:
            _write(servermanager._getPyProxy(proxy), current)
        # Both directions: a change on any linked display reaches the others.
        link.AddLinkedProperty(proxy, PROPERTY, vtkSMLink.INPUT)
        link.AddLinkedProperty(proxy, PROPERTY, vtkSMLink.OUTPUT)
        linked.append(proxy)
    return link


def _write(display, overrides):
    flat = []
    for name, color in overrides.items():
        flat += [name, color]
    display.SetPropertyWithName(PROPERTY, flat)


def _write_all(overrides):
    """Sets `overrides` on every linked display (the link would copy it from
    the first; setting each also works for a display linked elsewhere)."""
    from paraview import servermanager
    link = link_type_colors()
    for proxy in _linked_proxies(link):
        _write(servermanager._getPyProxy(proxy), overrides)


def type_colors():
    """The colours chosen so far, {type name: "#rrggbb"}; {} when every type
    keeps its palette colour."""
    return dict(_current(_registered_link()))


def set_type_color(name, color):
    """Draws the type `name` in `color` ("#rrggbb", or (r, g, b) of floats
    in [0, 1] or ints in 0-255) in every Macroscope view of the session,
    linking every display's TypeColors. Raises ValueError naming a bad
    colour or name, before changing anything."""
    if not isinstance(name, str) or not name:
        raise ValueError("type name %r: a non-empty string is needed" % (name,))
    hex_color = to_hex(color)
    overrides = _current(link_type_colors())
    overrides[name] = hex_color
    _write_all(overrides)
    return hex_color


def reset_type_color(name):
    """Gives the type `name` its palette colour back in every view (nothing
    happens when no colour was chosen for it)."""
    overrides = _current(link_type_colors())
    if name in overrides:
        del overrides[name]
        _write_all(overrides)
