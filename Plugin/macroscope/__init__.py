"""Macroscope's Python helpers for pvpython, pvbatch and the GUI's shell.

The plugin embeds this package: after
``LoadPlugin(".../Macroscope.so", remote=False, ns=globals())``,
``import macroscope`` gives the functions below.
"""
from .snapshot import snapshot, SnapshotError  # noqa: F401
from .comparison import compare_models, summary_sentence
