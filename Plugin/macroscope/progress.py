"""Progress of a Macroscope reader, filter or layout, seen from pvpython
(docs/progress.md).

``watch_progress(proxy)`` prints the progress of every execution of
`proxy` until it is stopped; with a callback, the callback gets each value
instead and may abort the execution by returning False::

    reader = OTF2TraceReader(FileName="traces.otf2")
    with macroscope.watch_progress(reader):
        reader.UpdatePipeline()          # prints "OTF2 Trace Reader: 5%" ...

In a built-in session (pvpython, pvbatch, the GUI without a server) it
observes the ``ProgressEvent`` of the VTK algorithm itself, so it sees every
value the algorithm reports. Connected to a server, the algorithm runs
there: it then observes the session's progress handler, which ParaView
throttles (at most one value per 0.1 s) and through which an execution
cannot be aborted.
"""
import time

from paraview import servermanager


def _label(proxy):
    """The name a user knows the proxy by (its menu label)."""
    try:
        label = proxy.SMProxy.GetXMLLabel()
    except AttributeError:
        label = None
    return label or proxy.GetXMLName()


class ProgressWatch:
    """What ``watch_progress`` returns: the values seen so far, and ``stop()``.

    ``values`` holds ``(seconds since the watch started, fraction)`` pairs,
    fraction in [0, 1]. Usable as a context manager (stops on exit)."""

    def __init__(self, proxy, callback, step):
        self.proxy = proxy
        self.label = _label(proxy)
        self.values = []
        self._callback = callback
        self._step = step
        self._printed = None
        self._started = time.perf_counter()
        self._subject = None
        self._tag = None
        algorithm = proxy.GetClientSideObject()
        if algorithm is not None and algorithm.IsA("vtkAlgorithm") and \
                not servermanager.ActiveConnection.IsRemote():
            self._subject = algorithm
            self._tag = algorithm.AddObserver("ProgressEvent", self._on_algorithm)
        else:
            handler = proxy.GetSession().GetProgressHandler()
            self._subject = handler
            self._tag = handler.AddObserver("ProgressEvent", self._on_handler)

    def _on_algorithm(self, algorithm, event):
        if self._report(algorithm.GetProgress()) is False:
            algorithm.SetAbortExecute(1)

    def _on_handler(self, handler, event):
        self._report(handler.GetLastProgress() / 100.0, handler.GetLastProgressText())

    def _report(self, fraction, text=None):
        self.values.append((time.perf_counter() - self._started, fraction))
        if self._callback is not None:
            return self._callback(fraction)
        # The default: one line per `step` of progress, and the end.
        bucket = int(fraction / self._step + 1e-9)
        if bucket != self._printed:
            self._printed = bucket
            print("%s: %d%%" % (text or self.label, round(100.0 * fraction)), flush=True)
        return None

    def stop(self):
        """Stops watching (idempotent)."""
        if self._subject is not None:
            self._subject.RemoveObserver(self._tag)
            self._subject = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def watch_progress(proxy, callback=None, step=0.05):
    """Watches the progress of `proxy` (a reader, filter or layout) until
    ``stop()`` is called on the returned ``ProgressWatch``.

    Without `callback`, prints ``<label>: <percent>%`` each time progress
    crosses a multiple of `step` (5 % by default). With it, calls
    ``callback(fraction)`` for every value, fraction in [0, 1]; in a
    built-in session a callback that returns False aborts the execution
    (the algorithm stops within half a second, says so, and outputs nothing;
    the next update runs again in full).
    """
    if callback is not None and not callable(callback):
        raise TypeError("callback must be callable, got %r" % (callback,))
    if not (0.0 < step <= 1.0):
        raise ValueError("step must be in (0, 1], got %r" % (step,))
    return ProgressWatch(proxy, callback, step)
