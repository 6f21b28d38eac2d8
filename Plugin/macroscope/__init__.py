"""Macroscope's Python helpers for pvpython, pvbatch and the GUI's shell.

The plugin embeds this package: after
``LoadPlugin(".../Macroscope.so", remote=False, ns=globals())``,
``import macroscope`` gives the functions below.
"""
from .colors import link_type_colors, palette_color, reset_type_color, set_type_color, type_colors  # noqa: F401
