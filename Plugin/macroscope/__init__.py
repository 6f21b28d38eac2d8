"""Macroscope's Python helpers for pvpython, pvbatch and the GUI's shell.

The plugin embeds this package: after
``LoadPlugin(".../Macroscope.so", remote=False, ns=globals())``,
``import macroscope`` gives the functions below.
"""
from .snapshot import snapshot, SnapshotError  # noqa: F401
from .comparison import chart_view, compare_models, compare_runs, summary_sentence, Comparison  # noqa: F401
from .links import link_views, unlink_views, set_window, set_selection, link_selection, window_from_rectangle, select_time_range
from .colors import known_types, link_type_colors, palette_color, reset_type_color, set_type_color, type_colors, type_shade, use_palette  # noqa: F401
from .progress import watch_progress, ProgressWatch  # noqa: F401
from .overview import overview, streamed_model, estimate, describe, Overview  # noqa: F401
from .details import details_at, details_at_chart, display_to_chart, chart_to_display, pick, select_rows, Details  # noqa: F401
from .layouts import layout_tab, views_outside_layouts  # noqa: F401
from . import navigation  # noqa: F401  (zoom, pan, chart_view of the Macroscope Chart View)
