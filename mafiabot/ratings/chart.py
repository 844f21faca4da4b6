"""A player's rating over time as a PNG, drawn with zlib alone: a line of the values after each game on a
light grid, the starting value dashed. No text in the picture: the message beside it names the values."""

from __future__ import annotations

import itertools
import struct
import zlib
from collections.abc import Sequence

WIDTH, HEIGHT, MARGIN = 640, 320, 24
BACKGROUND = (255, 255, 255)
GRID = (228, 228, 232)
AXIS = (150, 150, 160)
LINE = (200, 40, 40)
POINT = (120, 20, 20)


class Canvas:
    def __init__(self, width: int, height: int, color: tuple[int, int, int]) -> None:
        self.width, self.height = width, height
        self.rows = [bytearray(bytes(color) * width) for _ in range(height)]

    def dot(self, x: int, y: int, color: tuple[int, int, int]) -> None:
        if 0 <= x < self.width and 0 <= y < self.height:
            self.rows[y][3 * x : 3 * x + 3] = bytes(color)

    def line(self, x0: int, y0: int, x1: int, y1: int, color: tuple[int, int, int], width: int = 1) -> None:
        """Bresenham's line, thickened by a square brush."""
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err = dx + dy
        while True:
            self.disc(x0, y0, width // 2, color)
            if x0 == x1 and y0 == y1:
                return
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def disc(self, x: int, y: int, r: int, color: tuple[int, int, int]) -> None:
        for oy in range(-r, r + 1):
            for ox in range(-r, r + 1):
                if ox * ox + oy * oy <= r * r + r:
                    self.dot(x + ox, y + oy, color)

    def png(self) -> bytes:
        raw = b"".join(b"\x00" + bytes(row) for row in self.rows)  # filter type 0 on every row

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b"")
        )


def rating_chart(values: Sequence[float], *, start: float | None = None) -> bytes:
    """The PNG of `values` (the rating after each change, oldest first); `start` is drawn dashed."""
    canvas = Canvas(WIDTH, HEIGHT, BACKGROUND)
    left, right, top, bottom = MARGIN, WIDTH - MARGIN, MARGIN, HEIGHT - MARGIN
    for i in range(5):
        y = top + (bottom - top) * i // 4
        canvas.line(left, y, right, y, GRID)
    canvas.line(left, top, left, bottom, AXIS)
    canvas.line(left, bottom, right, bottom, AXIS)
    if not values:
        return canvas.png()
    low = min([*values, *([start] if start is not None else [])])
    high = max([*values, *([start] if start is not None else [])])
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.08
    low, high = low - pad, high + pad

    def at(i: int, value: float) -> tuple[int, int]:
        x = left + (right - left) * i // max(1, len(values) - 1) if len(values) > 1 else (left + right) // 2
        y = bottom - round((value - low) / (high - low) * (bottom - top))
        return x, y

    if start is not None:
        _, y = at(0, start)
        for x in range(left, right, 12):
            canvas.line(x, y, min(x + 6, right), y, AXIS)
    points = [at(i, v) for i, v in enumerate(values)]
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        canvas.line(x0, y0, x1, y1, LINE, width=3)
    for x, y in points:
        canvas.disc(x, y, 3, POINT)
    return canvas.png()
