"""Reads the phrase tables of ANNOUNCEMENTS.md into plain data.

The Markdown file lives outside the package (``docs/rules/ANNOUNCEMENTS.md``), so the catalogue is
generated from it once and committed as ``audio/data/phrases.json``; a test re-parses the Markdown and
compares. Regenerate with ``python -m audio.catalogue_md docs/rules/ANNOUNCEMENTS.md``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).with_name("data") / "phrases.json"

_ID = re.compile(r"`([a-z0-9_]+)`")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


# ANNOUNCEMENTS.md has no column or table for `fiim` (FIIM.md names no phrases): it speaks the city's
# lines, so every phrase of the city is one of fiim's too. A table of its own would replace this.
BORROWS: dict[str, str] = {"fiim": "city"}


def presets_of(markdown: str) -> list[str]:
    """The presets the document knows: the columns of its "Generic events" table, and those that borrow
    a column's lines (BORROWS)."""
    for line in markdown.splitlines():
        cells = _cells(line) if line.startswith("|") else []
        if cells and cells[0] == "generic event":
            columns = cells[1:]
            return columns + [b for b, lender in BORROWS.items() if lender in columns and b not in columns]
    raise ValueError('no "generic event" table: the presets are its columns')


def _parse_presets(cell: str, known: list[str]) -> tuple[list[str], str]:
    """Split a presets cell such as ``classic (judges)`` into preset names and the condition."""
    head, _, rest = cell.partition("(")
    condition = rest.rstrip(")").strip()
    names = [name.strip() for name in head.split(",") if name.strip()]
    if names == ["all"] or condition.startswith("any preset"):
        # "any preset with conduct on": conduct rules can be switched on in every preset.
        return list(known), condition
    unknown = [name for name in names if name not in known]
    if unknown:
        raise ValueError(f"unknown preset(s) {unknown} in cell {cell!r}")
    names += [b for b, lender in BORROWS.items() if lender in names and b in known and b not in names]
    return names, condition


def parse(markdown: str) -> dict[str, Any]:
    """Return ``{"presets": [...], "phrases": [...], "generic_events": {...}}`` in document order."""
    known = presets_of(markdown)
    phrases: list[dict[str, Any]] = []
    generic: dict[str, dict[str, list[str]]] = {}
    section = ""
    header: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            header = []
            continue
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        if not header:
            header = cells
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        if header[:2] == ["id", "presets"]:
            phrase_id = cells[0].strip("`")
            presets, condition = _parse_presets(cells[1], known)
            text = cells[3]
            phrases.append(
                {
                    "id": phrase_id,
                    "section": section,
                    "presets": presets,
                    "condition": condition,
                    "when": cells[2],
                    "text": text,
                    "spoken": not section.startswith("Private"),
                    "placeholders": sorted(set(_PLACEHOLDER.findall(text))),
                    "source": cells[4],
                }
            )
        elif header[0] == "generic event":
            event = cells[0].split("(")[0].strip()
            generic[event] = {
                preset: _ID.findall(cell) for preset, cell in zip(header[1:], cells[1:], strict=True)
            }
    return {"presets": known, "phrases": phrases, "generic_events": generic}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m audio.catalogue_md path/to/ANNOUNCEMENTS.md", file=sys.stderr)
        return 2
    data = parse(Path(args[0]).read_text(encoding="utf-8"))
    DATA_PATH.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(data['phrases'])} phrases to {DATA_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
