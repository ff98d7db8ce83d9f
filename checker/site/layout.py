"""Deterministic drawings of graphs, computed when the site is built: the same data, the same picture.

Coordinates are the CSS pixels Cytoscape.js draws at zoom 1. Labels are wrapped here, so
their size is known and a layout can keep them from overlapping; the page then never has
to lay anything out, and picks the widest drawing its column can show with labels of at
least :data:`SMALLEST_TEXT` pixels.
"""

from __future__ import annotations

import functools
import math
import random
import textwrap
from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Sequence

#: Label size of an entity at zoom 1; the page never starts below the zoom that draws it at SMALLEST_TEXT.
FONT = 12
SMALLEST_TEXT = 11
LINE_HEIGHT = 1.25  # of the font size
CHAR_WIDTH = 0.6  # average character width of the label font, in font sizes (generous, so labels do not touch)
GAP = 6  # between two labels, at the least
#: A phone's column (390 px less the page's margins) and a 1366 px screen's, at the smallest readable zoom.
NARROW_WIDTH = 330
COLUMN_WIDTH = 700
SEED = 20240610


def wrap(text: str, width: int = 16, lines: int = 3) -> str:
    """The label as at most ``lines`` lines of about ``width`` characters; an ellipsis ends a cut name."""
    wrapped = textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1].rstrip() + "…"
    return "\n".join(wrapped)


@dataclass(frozen=True)
class Size:
    width: float
    height: float


def text_size(label: str, font: float = FONT) -> Size:
    rows = label.split("\n")
    return Size(max(len(row) for row in rows) * CHAR_WIDTH * font, len(rows) * LINE_HEIGHT * font)


@dataclass(frozen=True)
class Box:
    """What a node covers around its position: its shape and its label."""

    left: float
    right: float
    top: float
    bottom: float


def label_below(node_size: float, label: str, font: float = FONT) -> Box:
    text = text_size(label, font)
    half = max(node_size, text.width) / 2
    return Box(half, half, node_size / 2, node_size / 2 + 4 + text.height)


def label_right(node_size: float, label: str, font: float = FONT) -> Box:
    text = text_size(label, font)
    half = max(node_size, text.height) / 2
    return Box(node_size / 2, node_size / 2 + 6 + text.width, half, half)


Point = tuple[float, float]


@dataclass(frozen=True)
class Drawing:
    """Node positions and the size of the picture, from (0, 0) to (width, height)."""

    positions: dict[str, Point]
    width: float
    height: float

    def as_data(self) -> dict[str, object]:
        return {
            "positions": {node: [round(x, 1), round(y, 1)] for node, (x, y) in sorted(self.positions.items())},
            "width": round(self.width, 1),
            "height": round(self.height, 1),
        }


def framed(positions: dict[str, Point], boxes: dict[str, Box]) -> Drawing:
    """The drawing moved so that every box lies in the picture, which starts at (0, 0)."""
    if not positions:
        return Drawing({}, 0.0, 0.0)
    left = min(x - boxes[n].left for n, (x, _) in positions.items())
    top = min(y - boxes[n].top for n, (_, y) in positions.items())
    right = max(x + boxes[n].right for n, (x, _) in positions.items())
    bottom = max(y + boxes[n].bottom for n, (_, y) in positions.items())
    moved = {n: (x - left, y - top) for n, (x, y) in positions.items()}
    return Drawing(moved, right - left, bottom - top)


# --- Networks: a seeded force layout, then labels pushed apart --------------------------------------------


def network_drawings(nodes: Sequence[str], edges: Iterable[tuple[str, str]], boxes: dict[str, Box]) -> list[Drawing]:
    """A drawing for a phone's column and, when the graph is larger, one for a desktop's (16:10 at most); narrowest first."""
    return list(_network_drawings(tuple(nodes), tuple(sorted(set(edges))), tuple(boxes.items())))


@functools.lru_cache(maxsize=32)  # a rebuild under 'mkdocs serve' draws the same graphs again
def _network_drawings(nodes: tuple[str, ...], edge_list: tuple[tuple[str, str], ...],
                      box_items: tuple[tuple[str, Box], ...]) -> tuple[Drawing, ...]:
    boxes = dict(box_items)
    area = sum((b.left + b.right + GAP) * (b.top + b.bottom + GAP) for b in boxes.values()) * 3.0
    wide = min(math.sqrt(area * 1.6), COLUMN_WIDTH)
    widths = [NARROW_WIDTH, wide] if wide > NARROW_WIDTH * 1.2 else [NARROW_WIDTH]  # a phone shows every graph
    return tuple(_network(nodes, list(edge_list), boxes, width, area / width) for width in widths)


def _network(nodes: Sequence[str], edges: list[tuple[str, str]], boxes: dict[str, Box], width: float,
             height: float) -> Drawing:
    positions = _springs(sorted(nodes), edges, width, height)
    return framed(_close_gaps(_separate(positions, boxes, width), boxes), boxes)


def _close_gaps(positions: dict[str, Point], boxes: dict[str, Box], widest: float = 3 * GAP) -> dict[str, Point]:
    """Empty bands across the picture, taller than ``widest``, closed up to that height."""
    order = sorted(positions, key=lambda n: (positions[n][1] - boxes[n].top, n))
    shift, bottom = 0.0, None
    moved: dict[str, Point] = {}
    for node in order:
        x, y = positions[node]
        top = y - boxes[node].top
        if bottom is not None and top - bottom > widest:
            shift += top - bottom - widest
        bottom = max(bottom if bottom is not None else top, y + boxes[node].bottom)
        moved[node] = (x, y - shift)
    return moved


def _springs(nodes: list[str], edges: list[tuple[str, str]], width: float, height: float,
             iterations: int = 160) -> dict[str, Point]:
    """Fruchterman and Reingold's layout in a width × height frame, from seeded starting points."""
    if len(nodes) < 2:
        return {n: (width / 2, height / 2) for n in nodes}
    rng = random.Random(SEED)
    xs = [rng.uniform(0, width) for _ in nodes]
    ys = [rng.uniform(0, height) for _ in nodes]
    index = {n: i for i, n in enumerate(nodes)}
    links = [(index[a], index[b]) for a, b in edges]
    pairs = list(combinations(range(len(nodes)), 2))
    k2 = 0.64 * width * height / len(nodes)
    k = math.sqrt(k2)
    for step in range(iterations):
        heat = max(width, height) / 10 * (1 - step / iterations) + 0.5
        px = [0.0] * len(nodes)
        py = [0.0] * len(nodes)
        for i, j in pairs:
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            force = k2 / max(dx * dx + dy * dy, 0.01)
            px[i] += dx * force; py[i] += dy * force
            px[j] -= dx * force; py[j] -= dy * force
        for i, j in links:
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            force = math.sqrt(dx * dx + dy * dy) / k
            px[i] -= dx * force; py[i] -= dy * force
            px[j] += dx * force; py[j] += dy * force
        for i in range(len(nodes)):
            length = math.sqrt(px[i] * px[i] + py[i] * py[i]) or 1.0
            scale = min(length, heat) / length
            xs[i] = min(width, max(0.0, xs[i] + px[i] * scale))
            ys[i] = min(height, max(0.0, ys[i] + py[i] * scale))
    return {n: (xs[i], ys[i]) for i, n in enumerate(nodes)}


def _separate(positions: dict[str, Point], boxes: dict[str, Box], width: float, rounds: int = 200) -> dict[str, Point]:
    """Move overlapping boxes apart, each time along the shorter way out, never beyond the frame's width."""
    position = {n: list(p) for n, p in positions.items()}
    for _ in range(rounds):
        moved = False
        order = sorted(position, key=lambda n: (position[n][0] - boxes[n].left, n))
        for at, a in enumerate(order):
            for b in order[at + 1:]:
                (xa, ya), (xb, yb), ba, bb = position[a], position[b], boxes[a], boxes[b]
                if xb - bb.left >= xa + ba.right + GAP:
                    break
                across = min(xa + ba.right, xb + bb.right) - max(xa - ba.left, xb - bb.left) + GAP
                down = min(ya + ba.bottom, yb + bb.bottom) - max(ya - ba.top, yb - bb.top) + GAP
                if across <= 0 or down <= 0:
                    continue
                moved = True
                if across < down:
                    sign = 1 if (xa, a) >= (xb, b) else -1
                    position[a][0] += sign * across / 2
                    position[b][0] -= sign * across / 2
                else:
                    sign = 1 if (ya, a) >= (yb, b) else -1
                    position[a][1] += sign * down / 2
                    position[b][1] -= sign * down / 2
        for n, box in boxes.items():
            position[n][0] = min(width - box.right, max(box.left, position[n][0]))
        if not moved:
            break
    return {n: (x, y) for n, (x, y) in position.items()}


# --- A fan: one node and its neighbours in a column beside it ----------------------------------------------


def fan_drawing(centre: str, others: Sequence[str], boxes: dict[str, Box], spread: float = 150) -> Drawing:
    """``centre`` on the left, ``others`` in the given order in a column, labels to their right."""
    rows = [boxes[n].top + boxes[n].bottom + GAP for n in others]
    positions: dict[str, Point] = {}
    y = 0.0
    for node, row in zip(others, rows):
        positions[node] = (spread, y + row / 2)
        y += row
    positions[centre] = (0.0, y / 2)
    return framed(positions, boxes)
