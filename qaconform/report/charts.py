"""Inline SVG charts: a line chart over time and a horizontal bar chart. No library, no network.

The report must open from a file on a machine with no internet (an auditor's laptop, a CI artefact viewer), so
charts are plain SVG text. Both functions accept empty data and then draw a frame that says "no data".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#2563eb", "#dc2626", "#16a34a", "#d97706", "#7c3aed", "#0891b2")


def _nice_max(v: float) -> float:
    if v <= 0:
        return 1.0
    exp: float = 10 ** math.floor(math.log10(v))  # an int from 1 up, as the axis labels show it
    for m in (1, 2, 2.5, 5, 10):
        if v <= m * exp:
            return m * exp
    return 10 * exp


def _fmt(v: float) -> str:
    if v >= 100 or v == int(v):
        return f"{v:.0f}"
    return f"{v:.2g}" if v < 1 else f"{v:.1f}"


@dataclass(frozen=True)
class _Plot:
    """The plotting area of a chart and its scales: data (x, y) to SVG coordinates."""

    left: float
    top: float
    width: float
    height: float
    x_max: float
    y_max: float

    def sx(self, x: float) -> float:
        return self.left + self.width * (x / self.x_max)

    def sy(self, y: float) -> float:
        return self.top + self.height - self.height * (y / self.y_max)


def _axes(plot: _Plot, height: int, x_label: str, y_label: str) -> list[str]:
    """Five grid lines with their y ticks, five x ticks, and the axis labels."""
    parts = []
    for i in range(5):
        yv = plot.y_max * i / 4
        y = plot.sy(yv)
        parts.append(f'<line x1="{plot.left}" x2="{plot.left + plot.width}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="#e2e8f0"/><text x="{plot.left - 6}" y="{y + 4:.1f}" text-anchor="end" class="tick">'
                     f"{_fmt(yv)}</text>")
    for i in range(5):
        xv = plot.x_max * i / 4
        parts.append(f'<text x="{plot.sx(xv):.1f}" y="{plot.top + plot.height + 16}" text-anchor="middle" '
                     f'class="tick">{_fmt(xv)}</text>')
    parts.append(f'<text x="{plot.left + plot.width / 2}" y="{height - 6}" text-anchor="middle" class="tick">'
                 f"{escape(x_label)}</text>")
    if y_label:
        middle = plot.top + plot.height / 2
        parts.append(f'<text x="12" y="{middle}" transform="rotate(-90 12 {middle})" '
                     f'text-anchor="middle" class="tick">{escape(y_label)}</text>')
    return parts


def _series(plot: _Plot, i: int, name: str, pts: Sequence[tuple[float, float | None]],
            legend_width: int = 110, dots: bool = False) -> list[str]:
    """One series: its line (broken where a value is None; a lone point as a dot) and its legend entry."""
    color = PALETTE[i % len(PALETTE)]
    segments: list[list[str]] = [[]]
    for x, pv in pts:
        if pv is None:
            segments.append([])
        else:
            segments[-1].append(f"{plot.sx(x):.1f},{plot.sy(pv):.1f}")
    parts = []
    for seg in segments:
        if len(seg) == 1:
            cx, cy = seg[0].split(",")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="{color}"/>')
        elif seg:
            parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="1.8" points="{" ".join(seg)}"/>')
            if dots:
                parts += [f'<circle cx="{p.split(",")[0]}" cy="{p.split(",")[1]}" r="2.2" fill="{color}"/>'
                          for p in seg]
    lx = plot.left + 8 + i * legend_width
    parts.append(f'<rect x="{lx}" y="{plot.top + 6}" width="10" height="10" fill="{color}"/>'
                 f'<text x="{lx + 14}" y="{plot.top + 15}" class="tick">{escape(name)}</text>')
    return parts


@dataclass(frozen=True)
class Mark:
    """A dashed reference line across a chart: ``axis`` "x" (a vertical line at x = value) or "y" (horizontal)."""

    axis: str
    value: float
    label: str
    color: str = "#475569"


def _marks(plot: _Plot, marks: Sequence[Mark]) -> list[str]:
    """Dashed lines with their labels; a horizontal mark above the scale is named in the plot's top right corner
    instead (beside the legend, clear of the title)."""
    parts = []
    above = []
    xs = 0
    for m in marks:
        if m.axis == "x" and 0 <= m.value <= plot.x_max:
            x = plot.sx(m.value)
            right = x > plot.left + plot.width * 0.6  # labels near the right edge go to the left of their line
            xs += 1
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{plot.top}" y2="{plot.top + plot.height}" '
                         f'stroke="{m.color}" stroke-dasharray="5 3" stroke-width="1.4"/>'
                         f'<text x="{x - 3 if right else x + 3:.1f}" y="{plot.top + plot.height - 6 - 13 * (xs - 1)}" '
                         f'text-anchor="{"end" if right else "start"}" class="tick" fill="{m.color}">'
                         f"{escape(m.label)}</text>")
        elif m.axis == "y" and 0 <= m.value <= plot.y_max:
            y = plot.sy(m.value)
            parts.append(f'<line x1="{plot.left}" x2="{plot.left + plot.width}" y1="{y:.1f}" y2="{y:.1f}" '
                         f'stroke="{m.color}" stroke-dasharray="5 3" stroke-width="1.4"/>'
                         f'<text x="{plot.left + plot.width - 4}" y="{y - 4:.1f}" text-anchor="end" class="tick" '
                         f'fill="{m.color}">{escape(m.label)}</text>')
        elif m.axis == "y":
            above.append(m.label)
    if above:
        parts.append(f'<text x="{plot.left + plot.width - 4}" y="{plot.top + 14}" text-anchor="end" class="tick">'
                     f"{escape('; '.join(above))} (above the scale)</text>")
    return parts


def line_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float | None]]]],
    *,
    x_label: str = "seconds",
    y_label: str = "",
    width: int = 640,
    height: int = 240,
    marks: Sequence[Mark] = (),
    legend_width: int = 110,
    dots: bool = False,
) -> str:
    """Lines of (x, y) points sharing one axis; None values break a line (Locust writes N/A). ``marks`` are dashed
    reference lines (a limit, a capacity found); ``dots`` marks each measured point."""
    left, right, top, bottom = 56, 16, 28, 40
    pw, ph = width - left - right, height - top - bottom
    points = [(x, y) for _, pts in series for x, y in pts if y is not None]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}"><title>{escape(title)}</title>',
             f'<text x="{left}" y="18" class="chart-title">{escape(title)}</text>',
             f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="none" stroke="#cbd5e1"/>']
    if not points:
        parts.append(f'<text x="{left + pw / 2}" y="{top + ph / 2}" text-anchor="middle" fill="#64748b">'
                     "no data</text></svg>")
        return "".join(parts)
    plot = _Plot(left, top, pw, ph, max(x for x, _ in points) or 1.0, _nice_max(max(y for _, y in points)))
    parts += _axes(plot, height, x_label, y_label)
    parts += _marks(plot, marks)
    for i, (name, pts) in enumerate(series):
        parts += _series(plot, i, name, pts, legend_width, dots)
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(title: str, items: Sequence[tuple[str, float]], *, width: int = 640, unit: str = "",
              x_label: str = "") -> str:
    """Horizontal bars, one per label, longest scale first; zero-valued bars still show their label. ``x_label``
    names the bars' axis and its unit; with no items the chart says "none" (a clean run has no failures)."""
    bar_h, gap, left, top = 18, 6, 220, 28
    height = top + max(1, len(items)) * (bar_h + gap) + 12 + (18 if x_label else 0)
    pw = width - left - 60
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width}" '
             f'height="{height}" viewBox="0 0 {width} {height}"><title>{escape(title)}</title>',
             f'<text x="8" y="18" class="chart-title">{escape(title)}</text>']
    if x_label:
        parts.append(f'<text x="{left + (width - left - 60) / 2}" y="{height - 6}" text-anchor="middle" '
                     f'class="tick">{escape(x_label)}</text>')
    if not items or not any(v for _, v in items):
        parts.append(f'<text x="{left}" y="{top + 14}" fill="#64748b">none</text></svg>')
        return "".join(parts)
    vmax = max(v for _, v in items) or 1.0
    for i, (label, value) in enumerate(items):
        y = top + i * (bar_h + gap)
        w = pw * (value / vmax)
        short = label if len(label) <= 32 else label[:31] + "…"
        color = PALETTE[1] if value > 0 else "#94a3b8"
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" class="tick">'
                     f"<title>{escape(label)}</title>{escape(short)}</text>"
                     f'<rect x="{left}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}" fill="{color}"/>'
                     f'<text x="{left + max(w, 1) + 4:.1f}" y="{y + 13}" class="tick">'
                     f"{_fmt(value)}{escape(unit)}</text>")
    parts.append("</svg>")
    return "".join(parts)
