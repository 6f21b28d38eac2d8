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
import difflib
import math
import warnings

from .proxies import linked_proxies, python_proxy

LINK_NAME = "Macroscope type colours"
PROPERTY = "TypeColors"
DISPLAY = "MacroscopeTraceRepresentation"

_MASK = (1 << 64) - 1

PALETTES = ("default", "colour-blind")

# The shades of TypeFamily.h, in its order, with the colours of the two
# palettes (Core/TypePalette.cxx: the same values, checked against
# the readers by Python.TypeColors). User code has 4 colours, other 2.
_SHADES = {
    # shade: (default colours, colour-blind-safe colours)
    "mpi-wait": (["#e8172b"], ["#fb0f31"]),
    "mpi-recv": (["#a54d43"], ["#b8122c"]),
    "mpi-send": (["#cb9695"], ["#d28c6f"]),
    "mpi-post": (["#8c2e53"], ["#7d2f13"]),
    "mpi-collective": (["#fd7802"], ["#d3c888"]),
    "mpi-barrier": (["#c58263"], ["#ddbf46"]),
    "mpi-init": (["#815215"], ["#e89a00"]),
    "mpi-finalize": (["#bc9915"], ["#867118"]),
    "mpi-other": (["#b8701d"], ["#fc5803"]),
    "threads-parallel": (["#a4b0f8"], ["#359a9e"]),
    "threads-work": (["#6097eb"], ["#34c3f2"]),
    "threads-wait": (["#4b49a2"], ["#03606f"]),
    "threads-sync": (["#7671d4"], ["#79c1c9"]),
    "io-read": (["#128c97"], ["#eba5fa"]),
    "io-write": (["#146365"], ["#b214df"]),
    "io-meta": (["#1cc5c3"], ["#b37dd2"]),
    "gpu-kernel": (["#8c5384"], ["#408849"]),
    "gpu-copy": (["#9f06ff"], ["#00edd3"]),
    "gpu-sync": (["#330bff"], ["#15e7a2"]),
    "user": (["#4f8f45", "#145f3d", "#5fce01", "#14c38c"],
             ["#3e5197", "#1d7df5", "#00aafe", "#682bd8"]),
    "other": (["#b8b4a6", "#acb7c3"], ["#7d757d", "#a19b96"]),
}


def _fnv1a(text):
    """64-bit FNV-1a of the UTF-8 bytes of `text` (TypePalette::StableHash)."""
    value = 14695981039346656037
    for byte in text.encode("utf-8"):
        value ^= byte
        value = (value * 1099511628211) & _MASK
    return value


def _lower(text):
    """ASCII lower case, as TypeClassifier (other characters unchanged)."""
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)


def _io_shade(lower):
    if any(p in lower for p in ("read", "get", "scanf")):
        return "io-read"
    if any(p in lower for p in ("write", "put", "printf", "flush", "sync")):
        return "io-write"
    return "io-meta"


def _mpi_shade(call):
    if call.startswith(("wait", "test")):
        return "mpi-wait"
    if call in ("recv", "mrecv", "probe", "mprobe") or call.startswith("sendrecv"):
        return "mpi-recv"
    if call.startswith(("irecv", "imrecv", "recv_init", "iprobe", "improbe", "start")):
        return "mpi-post"
    if "send" in call:
        return "mpi-send"
    if call in ("barrier", "ibarrier"):
        return "mpi-barrier"
    if call.startswith("init"):
        return "mpi-init"
    if call.startswith("finalize"):
        return "mpi-finalize"
    blocking = call[1:] if call.startswith("i") else call
    if blocking.startswith(("allreduce", "reduce", "bcast", "gather", "allgather", "scatter",
                            "alltoall", "scan", "exscan", "neighbor_")):
        return "mpi-collective"
    return "mpi-other"


def _mpi_role_shade(role):
    if role.startswith("coll_"):
        return "mpi-collective"
    if role in ("barrier", "implicit_barrier"):
        return "mpi-barrier"
    return "mpi-send" if role == "point2point" else "mpi-other"


_WAIT_ROLES = ("barrier", "implicit_barrier", "task_wait", "thread_wait")


def _thread_shade(lower, role):
    if any(p in lower for p in ("barrier", "wait", "join")) or role in _WAIT_ROLES:
        return "threads-wait"
    if any(p in lower for p in ("critical", "atomic", "lock", "ordered", "flush", "mutex",
                                "cond_", "spin")) or role in (
            "critical", "critical_sblock", "atomic", "flush", "ordered", "ordered_sblock",
            "single_sblock"):
        return "threads-sync"
    if any(p in lower for p in ("parallel", "create", "fork")) or role in ("parallel",
                                                                            "thread_create"):
        return "threads-parallel"
    return "threads-work"


def _gpu_shade(lower, role):
    if any(p in lower for p in ("memcpy", "memset", "copy", "transfer", "prefetch")) \
            or role == "data_transfer":
        return "gpu-copy"
    if any(p in lower for p in ("sync", "wait", "event")) or role in _WAIT_ROLES:
        return "gpu-sync"
    return "gpu-kernel"


def _upper_at(name, i):
    return i < len(name) and "A" <= name[i] <= "Z"


_IO_NAMES = frozenset((
    "read", "write", "pread", "pwrite", "pread64", "pwrite64", "readv", "writev", "preadv",
    "pwritev", "fread", "fwrite", "fgets", "fputs", "fgetc", "fputc", "fprintf", "fscanf",
    "getline", "open", "open64", "openat", "creat", "close", "fopen", "fopen64", "fdopen",
    "fclose", "lseek", "lseek64", "fseek", "ftell", "fsync", "fdatasync", "fflush", "stat",
    "fstat", "lstat", "unlink", "rename", "truncate", "ftruncate", "aio_read", "aio_write"))


def type_shade(name, paradigm="", role=""):
    """The shade of a type (TypeClassifier::Classify): "mpi-wait",
    "mpi-collective", ..., "threads-wait", "io-read", "gpu-kernel", "user",
    "other". The family is the part before the first "-"."""
    lower, p, r = _lower(name), _lower(paradigm), _lower(role)
    for prefix in ("mpi_", "pmpi_"):
        if lower.startswith(prefix):
            call = lower[len(prefix):].rstrip("_")
            if call.startswith("file_"):
                return _io_shade(call[5:])
            return _mpi_shade(call)
    if lower.startswith(("!$omp", "omp_", "gomp_", "__kmpc_", "#pragma omp", "pthread_")):
        return _thread_shade(lower, r)
    if lower.startswith("cuda") or (lower.startswith("cu") and _upper_at(name, 2)) \
            or (lower.startswith("cl") and _upper_at(name, 2)) \
            or (lower.startswith("hip") and _upper_at(name, 3)) \
            or (lower.startswith("nccl") and _upper_at(name, 4)):
        return _gpu_shade(lower, r)
    if lower.lstrip("_") in _IO_NAMES or lower.lstrip("_").startswith(("h5", "nc_", "adios2_")):
        return _io_shade(lower)
    if r in ("file_io", "file_io_metadata"):
        return _io_shade(lower) if r == "file_io" else "io-meta"
    if p in ("mpi", "shmem", "gaspi", "upc"):
        return _mpi_role_shade(r)
    if p in ("openmp", "pthread", "ompss", "winthread", "qtthread", "ace thread", "tbb thread",
             "mtapi"):
        return _thread_shade(lower, r)
    if p in ("cuda", "opencl", "hip", "openacc", "hmpp", "kokkos"):
        return _gpu_shade(lower, r)
    if p == "measurement" or r == "artificial":
        return "other"
    return "user"


def palette_color(name, paradigm="", role="", palette="default"):
    """The colour "#rrggbb" the palette gives the type `name` of `paradigm`
    and `role` (the Types table's columns; "" where the format has none)
    when nobody chose one: the colour readers write in the Types table (the
    C++ macroscope::TypePalette, of which this is a copy checked against it
    by the tests). `palette`: "default" or "colour-blind"."""
    if palette not in PALETTES:
        raise ValueError("palette %r: choose one of %s" % (palette, ", ".join(PALETTES)))
    colours = _SHADES[type_shade(name, paradigm, role)][PALETTES.index(palette)]
    h = _fnv1a(name)
    h ^= h >> 33
    h = (h * 0xff51afd7ed558ccd) & _MASK
    h ^= h >> 33
    return colours[h % len(colours)]


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
    proxies = linked_proxies(link) if link is not None else []
    if not proxies:
        return {}
    display = proxies[0]
    return _pairs_to_dict(display.GetPropertyValue(PROPERTY), "the display of %s" % display)


def link_type_colors(displays_=None):
    """Ties the TypeColors of `displays_` (default: every Macroscope display
    of the session) to the "Macroscope type colours" link, creating and
    registering it on first use, and gives the newly linked ones the
    overrides already in force. Returns the vtkSMPropertyLink."""
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
            _write(display if hasattr(display, "SMProxy") else python_proxy(proxy), current)
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
    link = link_type_colors()
    for display in linked_proxies(link):
        _write(display, overrides)


def type_colors():
    """The colours chosen so far, {type name: "#rrggbb"}; {} when every type
    keeps its palette colour."""
    return dict(_current(_registered_link()))


_READERS = ("MacroscopeOTF2Reader", "MacroscopePajeReader")


def known_types():
    """{type name: (paradigm, role, "#rrggbb" the trace file gives)} of
    every trace reader of the session that has read its Types (port 5).
    Readers not yet updated are not read for this (nothing is executed);
    models built by Streamed Time Slicing have no reader and add nothing."""
    from paraview import servermanager
    found = {}
    for proxy in servermanager.ProxyManager().GetProxiesInGroup("sources").values():
        if proxy.GetXMLName() not in _READERS:
            continue
        info = proxy.GetDataInformation(5)
        if info is None or info.GetNumberOfRows() == 0:
            continue
        table = servermanager.Fetch(proxy, idx=5)
        names = table.GetColumnByName("Name")
        paradigms = table.GetColumnByName("Paradigm")
        roles = table.GetColumnByName("Role")
        traces = table.GetColumnByName("TraceColor")
        for row in range(table.GetNumberOfRows()):
            name = names.GetValue(row)
            if name in found:
                continue
            trace = "#%02x%02x%02x" % tuple(int(traces.GetComponent(row, c)) for c in range(3)) \
                if traces is not None else None
            found[name] = (paradigms.GetValue(row) if paradigms is not None else "",
                           roles.GetValue(row) if roles is not None else "", trace)
    return found


def _warn_unknown(name):
    """Warns when `name` is none of the types the session's traces define,
    naming the closest ones (a typo or a wrong case would otherwise colour
    nothing, silently). Silent when no trace has been read yet."""
    known = known_types()
    if not known or name in known:
        return
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.5)
    if not close:
        lowered = {k.lower(): k for k in known}
        close = [lowered[k] for k in difflib.get_close_matches(name.lower(), list(lowered), n=3,
                                                               cutoff=0.5)]
    hint = ("; closest: %s" % ", ".join(repr(c) for c in close)) if close else \
        "; known types: %s" % ", ".join(repr(k) for k in sorted(known)[:12])
    warnings.warn("set_type_color: no trace of this session has a type %r (names match exactly)%s"
                  % (name, hint), stacklevel=3)


def set_type_color(name, color):
    """Draws the type `name` in `color` ("#rrggbb", or (r, g, b) of floats
    in [0, 1] or ints in 0-255) in every Macroscope view of the session,
    linking every display's TypeColors. Raises ValueError naming a bad
    colour or name, before changing anything. Warns (and still sets it)
    when no trace read in the session has a type of that name, naming the
    closest known types."""
    if not isinstance(name, str) or not name:
        raise ValueError("type name %r: a non-empty string is needed" % (name,))
    hex_color = to_hex(color)
    _warn_unknown(name)
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


def use_palette(palette):
    """Draws every type of every trace read in the session (known_types())
    in `palette`: "default" (the colours the readers write), "colour-blind"
    (the colour-blind-safe palette of docs/colours.md) or "trace" (the
    colours the trace file gives its types, Pajé's Color field; the default
    palette's where the file gives none). The colours become TypeColors
    entries, linked and saved in state files like set_type_color's; a colour
    chosen with set_type_color (an entry that is none of the palettes'
    colours of its type) is kept. Types of traces read later keep the
    default palette until use_palette is called again. Returns the number of
    entries the palette wrote."""
    if palette not in PALETTES + ("trace",):
        raise ValueError("palette %r: choose one of %s" % (palette, ", ".join(PALETTES + ("trace",))))
    overrides = _current(link_type_colors())
    written = 0
    for name, (paradigm, role, trace) in known_types().items():
        default = palette_color(name, paradigm, role)
        made = {palette_color(name, paradigm, role, p) for p in PALETTES} | {trace}
        if name in overrides and overrides[name] not in made:
            continue  # the user's choice wins
        overrides.pop(name, None)
        colour = default if palette == "default" else trace if palette == "trace" else \
            palette_color(name, paradigm, role, palette)
        if colour is not None and colour != default:
            overrides[name] = colour
            written += 1
    _write_all(overrides)
    return written


def palette_in_use():
    """"colour-blind" when some type of the session's traces is drawn in
    its colour-blind-safe colour through TypeColors (use_palette wrote it),
    "trace" when some is in the trace file's own colour, else "default"."""
    overrides = type_colors()
    for name, (paradigm, role, trace) in known_types().items():
        colour = overrides.get(name)
        if colour is None or colour == palette_color(name, paradigm, role):
            continue
        if colour == palette_color(name, paradigm, role, "colour-blind"):
            return "colour-blind"
        if colour == trace:
            return "trace"
    return "default"
