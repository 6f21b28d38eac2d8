"""The pvpython proxies behind server-manager objects, through
paraview.servermanager's public API (ProxyManager and Python properties):
the helpers every module of the package shares."""
from paraview import servermanager, simple

# The groups proxies are registered in: pipeline objects, their displays,
# the views and what they use.
_GROUPS = ("sources", "representations", "views", "lookup_tables", "layouts")


def python_proxy(smproxy):
    """The registered pvpython proxy of the vtkSMProxy `smproxy`, or None
    when the session has not registered it."""
    if smproxy is None:
        return None
    manager = servermanager.ProxyManager()
    for group in _GROUPS:
        for proxy in manager.GetProxiesInGroup(group).values():
            if proxy.SMProxy == smproxy:
                return proxy
    return None


def input_proxies(proxy):
    """The proxies feeding `proxy`'s Input property, in order (none for a
    source)."""
    if proxy.GetProperty("Input") is None:
        return []
    value = proxy.GetPropertyValue("Input")
    items = list(value) if isinstance(value, servermanager.InputProperty) else [value]
    # An output port other than the first comes as a port object of its
    # own: the registered proxy stands for it.
    return [python_proxy(item.SMProxy) or item for item in items if item is not None]


def linked_proxies(link):
    """The pvpython proxies a vtkSMProxyLink links, each once."""
    members = []
    for index in range(link.GetNumberOfLinkedObjects()):
        proxy = python_proxy(link.GetLinkedProxy(index))
        if proxy is not None and not any(proxy.SMProxy == m.SMProxy for m in members):
            members.append(proxy)
    return members


def create(name, registration_name=None, **properties):
    """Creates, initializes and registers the plugin's pipeline proxy `name`
    (e.g. "StreamedTimeSlicing") with `properties` set, as its pvpython
    constructor does. LoadPlugin(..., ns=) would put the constructors in a
    namespace, but loads the plugin again and makes all of them."""
    connection = servermanager.ActiveConnection
    for module in (connection.ProxiesNS.sources, connection.ProxiesNS.filters):
        make = getattr(module, name, None)
        if make is not None:
            break
    else:
        raise ValueError("this session has no %s proxy: load the Macroscope plugin first" % name)
    controller = servermanager.ParaViewPipelineController()
    proxy = make(no_update=True)
    controller.PreInitializeProxy(proxy)
    simple.SetProperties(proxy, **properties)
    controller.PostInitializeProxy(proxy)
    controller.RegisterPipelineProxy(proxy, registration_name)
    return proxy
