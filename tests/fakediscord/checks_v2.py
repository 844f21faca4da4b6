"""Discord's rules for a Components V2 message's component tree (the flag ``IS_COMPONENTS_V2``).

What Discord's reference says, and what it answers otherwise (400 ``50035 Invalid Form Body``):

* at most 40 components in the whole message, every nested one counted (a container, its rows, the
  buttons in them, a section's text displays and its accessory);
* at most 4,000 characters of text across every text display of the message;
* the top level and a container hold action rows (1), sections (9), text displays (10), media galleries
  (12), files (13) and separators (14); a container (17) only at the top level, never inside another;
* a section holds 1–3 text displays and has one accessory, a button or a thumbnail (11);
* a text display has some text; a separator's spacing is 1 (small) or 2 (large); a container's
  ``accent_color`` is a 24-bit RGB value or null; a media gallery holds 1–10 items;
* action rows follow the legacy rules (1–5 buttons or one select), and every custom_id is unique in the
  message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fakediscord.checks import ACTION_ROW, BUTTON, InvalidForm, _fail

SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 9, 10, 11, 12, 13, 14, 17
MAX_COMPONENTS = 40
MAX_TEXT = 4000
_LAYOUT = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)

ItemCheck = Callable[[dict[str, Any], str, set[str]], None]


class _Totals:
    def __init__(self) -> None:
        self.components = 0
        self.text = 0


def check_layout(components: list[dict[str, Any]], seen: set[str], check_item: ItemCheck) -> None:
    """A V2 message's ``components``: ``check_item`` is the legacy check of a button or select."""
    totals = _Totals()
    for i, item in enumerate(components):
        _node(item, f"components.{i}", (*_LAYOUT, CONTAINER), totals, seen, check_item)
    if totals.components > MAX_COMPONENTS:
        raise _fail("components", f"Must be {MAX_COMPONENTS} or fewer in total (found {totals.components})")
    if totals.text > MAX_TEXT:
        raise _fail("components", f"The text of all text displays must be {MAX_TEXT} or fewer in length.")


def _node(
    item: dict[str, Any],
    where: str,
    allowed: tuple[int, ...],
    totals: _Totals,
    seen: set[str],
    check_item: ItemCheck,
) -> None:
    kind = item.get("type")
    if kind not in allowed:
        raise _fail(f"{where}.type", f"Component type {kind} cannot be here")
    totals.components += 1
    if kind == CONTAINER:
        colour = item.get("accent_color")
        if colour is not None and not (isinstance(colour, int) and 0 <= colour <= 0xFFFFFF):
            raise _fail(f"{where}.accent_color", "Must be an RGB value between 0 and 16777215")
        children = item.get("components") or []
        if not children:
            raise _fail(f"{where}.components", "A container holds at least one component")
        for j, child in enumerate(children):
            _node(child, f"{where}.components.{j}", _LAYOUT, totals, seen, check_item)
    elif kind == ACTION_ROW:
        items = item.get("components") or []
        selects = [c for c in items if c.get("type") != BUTTON]
        if not items or len(items) > 5 or (selects and len(items) > 1):
            raise _fail(f"{where}.components", "An action row holds 1 to 5 buttons or one select")
        for j, child in enumerate(items):
            totals.components += 1
            check_item(child, f"{where}.components.{j}", seen)
    elif kind == SECTION:
        texts = item.get("components") or []
        if not 1 <= len(texts) <= 3:
            raise _fail(f"{where}.components", "A section holds 1 to 3 text displays")
        for j, child in enumerate(texts):
            _node(child, f"{where}.components.{j}", (TEXT_DISPLAY,), totals, seen, check_item)
        accessory = item.get("accessory")
        if not isinstance(accessory, dict) or accessory.get("type") not in (BUTTON, THUMBNAIL):
            raise _fail(f"{where}.accessory", "A section needs a button or a thumbnail accessory")
        totals.components += 1
        if accessory["type"] == BUTTON:
            check_item(accessory, f"{where}.accessory", seen)
    elif kind == TEXT_DISPLAY:
        content = item.get("content")
        if not isinstance(content, str) or not content:
            raise _fail(f"{where}.content", "This field is required")
        totals.text += len(content)
    elif kind == SEPARATOR:
        if item.get("spacing", 1) not in (1, 2):
            raise _fail(f"{where}.spacing", "Must be 1 or 2")
    elif kind == MEDIA_GALLERY and not 1 <= len(item.get("items") or []) <= 10:
        raise _fail(f"{where}.items", "Must be between 1 and 10 in length.")


def texts(components: list[dict[str, Any]]) -> list[str]:
    """Every text display's text, in the order a reader sees them."""
    found: list[str] = []
    for item in components:
        if item.get("type") == TEXT_DISPLAY:
            found.append(str(item.get("content") or ""))
        found += texts(item.get("components") or [])
    return found


def interactive(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every button and select of a message, legacy rows or a V2 tree, in order."""
    found: list[dict[str, Any]] = []
    for item in components:
        kind = item.get("type")
        if kind in (ACTION_ROW, CONTAINER, SECTION):
            found += interactive(item.get("components") or [])
            accessory = item.get("accessory")
            if isinstance(accessory, dict) and accessory.get("type") == BUTTON:
                found.append(accessory)
        elif kind not in (TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR):
            found.append(item)
    return found


__all__ = ["InvalidForm", "check_layout", "interactive", "texts"]
