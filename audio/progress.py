"""A dependency-free progress bar for the prebuild command."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressBar:
    """Redraws one line on a terminal; on a pipe or log file prints a line every 10 % instead."""

    def __init__(self, total: int, *, stream: TextIO | None = None, width: int = 30) -> None:
        self.total = max(total, 1)
        self.stream = stream or sys.stderr
        self.width = width
        self.done = 0
        self.started = time.monotonic()
        self._tty = self.stream.isatty()
        self._last_decile = -1

    def advance(self, label: str = "") -> None:
        self.done += 1
        if self._tty:
            filled = self.width * self.done // self.total
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total} {label[:40]:<40}")
            self.stream.flush()
        else:
            decile = 10 * self.done // self.total
            if decile != self._last_decile:
                self._last_decile = decile
                self.stream.write(f"{self.done}/{self.total} ({10 * decile} %)\n")

    def close(self) -> None:
        if self._tty:
            self.stream.write("\n")
        self.stream.flush()
