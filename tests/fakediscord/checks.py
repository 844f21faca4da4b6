"""Discord's payload rules for messages and modals, checked before a route changes anything.

A message: content at most 2,000 characters; at most 10 embeds (title 256, description 4,096, at most
25 fields of name 256 and value 1,024, footer 2,048, author 256, 6,000 characters in all); components
as action rows, at most 5, each holding 1–5 buttons or one select; a button's label at most 80
characters, a custom_id 1–100 and unique in the message, a link button a url and no custom_id; a
select at most 25 options (label, value, description at most 100), placeholder 150, min/max values
0–25 with max at most the options; `allowed_mentions` parses only roles, users, everyone, never
together with an explicit list of the same kind. A modal: title 1–45 characters, 1–5 rows, text inputs
with label ≤ 45.

Components V2 (flag ``IS_COMPONENTS_V2``; checks_v2.py): no content, embeds, stickers or poll; at most 40
components in all, nested ones counted; at most 4,000 characters across every text display; top level
and containers hold only action rows, sections, text displays, media galleries, files and separators;
a section 1–3 text displays and a button or thumbnail accessory; a container's accent colour a 24-bit
RGB value. The flag, once a message has it, cannot be taken away by an edit.

A breach answers 400 `50035 Invalid Form Body` naming the field, as Discord does; an empty new message
answers `50006 Cannot send an empty message`.
"""

from __future__ import annotations

from typing import Any

IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, TEXT_INPUT = 1, 2, 4
SELECTS = (3, 5, 6, 7, 8)
LINK, PREMIUM = 5, 6


class InvalidForm(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _fail(where: str, why: str) -> InvalidForm:
    return InvalidForm(50035, f"Invalid Form Body ({where}: {why})")


def _length(value: Any, where: str, most: int, least: int = 0) -> None:
    if value is None:
        if least:
            raise _fail(where, "This field is required")
        return
    if not isinstance(value, str) or not least <= len(value) <= most:
        raise _fail(where, f"Must be between {least} and {most} in length.")


def check_message(body: dict[str, Any], *, new: bool, had_flags: int = 0) -> None:
    """A message create (``new``) or edit body (only what it sets is checked); ``had_flags`` are the
    edited message's own flags (a message sent with Components V2 stays one)."""
    from fakediscord.checks_v2 import check_layout  # beside this module: the V2 tree rules

    flags = int(body.get("flags") or 0)
    _length(body.get("content"), "content", 2000)
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    if had_flags & IS_COMPONENTS_V2 and "flags" in body and not flags & IS_COMPONENTS_V2:
        raise _fail("flags", "The IS_COMPONENTS_V2 flag cannot be removed from a message")
    if (flags | had_flags) & IS_COMPONENTS_V2:
        if body.get("content") or embeds or body.get("sticker_ids") or body.get("poll"):
            raise _fail("content", "Cannot be used with the IS_COMPONENTS_V2 flag")
        seen: set[str] = set()
        check_layout(components, seen, _check_component)
    else:
        _check_rows(components)
    _check_embeds(embeds)
    _check_allowed_mentions(body.get("allowed_mentions"))
    nonce = body.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:  # an integer or a string of at most 25 characters
        raise _fail("nonce", "Must be 25 or fewer in length.")
    if new and not (
        body.get("content") or embeds or components or body.get("\0files") or body.get("sticker_ids")
    ):
        raise InvalidForm(50006, "Cannot send an empty message")


def _check_embeds(embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > 10:
        raise _fail("embeds", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        where = f"embeds.{i}"
        for key, most in (("title", 256), ("description", 4096)):
            _length(embed.get(key), f"{where}.{key}", most)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise _fail(f"{where}.fields", "Must be 25 or fewer in length.")
        for j, item in enumerate(fields):
            _length(item.get("name"), f"{where}.fields.{j}.name", 256, 1)
            _length(item.get("value"), f"{where}.fields.{j}.value", 1024, 1)
            total += len(item["name"]) + len(item["value"])
        for key, inner, most in (("footer", "text", 2048), ("author", "name", 256)):
            part = embed.get(key) or {}
            _length(part.get(inner), f"{where}.{key}.{inner}", most)
            total += len(part.get(inner) or "")
    if total > 6000:
        raise _fail("embeds", "Embed size exceeds maximum size of 6000")


def _check_rows(rows: list[dict[str, Any]]) -> None:
    if len(rows) > 5:
        raise _fail("components", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        where = f"components.{i}"
        if row.get("type") != ACTION_ROW:
            raise _fail(f"{where}.type", "Top-level components must be action rows")
        items = row.get("components") or []
        selects = [item for item in items if item.get("type") in SELECTS]
        if not items or len(items) > 5 or (selects and len(items) > 1):
            raise _fail(f"{where}.components", "An action row holds 1 to 5 buttons or one select")
        for j, item in enumerate(items):
            _check_component(item, f"{where}.components.{j}", seen)


def _check_component(item: dict[str, Any], where: str, seen: set[str]) -> None:
    kind = item.get("type")
    if kind == BUTTON:
        style = item.get("style")
        if style == LINK:
            if item.get("custom_id") is not None or not item.get("url"):
                raise _fail(where, "A link button has a url and no custom_id")
        elif style != PREMIUM:
            _custom_id(item, where, seen)
        _length(item.get("label"), f"{where}.label", 80)
        if style != PREMIUM and not item.get("label") and not item.get("emoji"):
            raise _fail(where, "A button needs a label or an emoji")
    elif kind in SELECTS:
        _custom_id(item, where, seen)
        _length(item.get("placeholder"), f"{where}.placeholder", 150)
        options = item.get("options") or []
        if kind == 3 and not 1 <= len(options) <= 25:
            raise _fail(f"{where}.options", "Must be between 1 and 25 in length.")
        for k, option in enumerate(options):
            _length(option.get("label"), f"{where}.options.{k}.label", 100, 1)
            _length(option.get("value"), f"{where}.options.{k}.value", 100, 1)
            _length(option.get("description"), f"{where}.options.{k}.description", 100)
        low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
        if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high) or (kind == 3 and high > len(options)):
            raise _fail(f"{where}.max_values", "Must be between min_values and the number of options")
    else:
        raise _fail(f"{where}.type", f"Component type {kind} cannot be in an action row")


def _custom_id(item: dict[str, Any], where: str, seen: set[str]) -> None:
    custom_id = item.get("custom_id")
    _length(custom_id, f"{where}.custom_id", 100, 1)
    if custom_id in seen:
        raise _fail(f"{where}.custom_id", "Component custom id cannot be duplicated")
    seen.add(custom_id)


def _check_allowed_mentions(mentions: dict[str, Any] | None) -> None:
    if not mentions:
        return
    parse = mentions.get("parse") or []
    if not set(parse) <= {"roles", "users", "everyone"}:
        raise _fail("allowed_mentions.parse", "Values must be roles, users or everyone")
    for kind in ("users", "roles"):
        listed = mentions.get(kind) or []
        if kind in parse and listed:
            raise _fail(
                f"allowed_mentions.{kind}", f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive'
            )
        if len(listed) > 100:
            raise _fail(f"allowed_mentions.{kind}", "Must be 100 or fewer in length.")


def check_modal(data: dict[str, Any]) -> None:
    _length(data.get("title"), "data.title", 45, 1)
    _length(data.get("custom_id"), "data.custom_id", 100, 1)
    rows = data.get("components") or []
    if not 1 <= len(rows) <= 5:
        raise _fail("data.components", "Must be between 1 and 5 in length.")
    for i, row in enumerate(rows):
        inputs = [row] if row.get("type") == 18 else row.get("components") or []  # a label holds one
        for item in inputs:
            inner = item.get("component", item)
            where = f"data.components.{i}"
            _length(item.get("label"), f"{where}.label", 45)
            if inner.get("type") == TEXT_INPUT:
                _length(inner.get("custom_id"), f"{where}.custom_id", 100, 1)
                _length(inner.get("placeholder"), f"{where}.placeholder", 100)
                _length(inner.get("value"), f"{where}.value", 4000)


# Discord's locales for command localisations (its reference's list).
LOCALES = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
    "zh-TW", "ko",
}  # fmt: skip


def check_command(command: dict[str, Any], where: str = "") -> None:
    """An application command, its options and choices: a chat command's description 1–100 characters, a
    choice's name 1–100, and every localisation under one of Discord's locales within the same limits."""
    menu = not where and command.get("type", 1) != 1  # a context-menu command has no description
    for key, most in (("name", 32), ("description", 100)):
        if key == "description" and menu:
            continue
        _length(command.get(key), f"{where}{key}", most, 1)
        for locale, text in (command.get(f"{key}_localizations") or {}).items():
            if locale not in LOCALES:
                raise _fail(f"{where}{key}_localizations", f"{locale!r} is not a valid locale")
            _length(text, f"{where}{key}_localizations.{locale}", most, 1)
    for i, option in enumerate(command.get("options") or []):
        check_command(option, f"{where}options.{i}.")
    for i, choice in enumerate(command.get("choices") or []):
        _length(choice.get("name"), f"{where}choices.{i}.name", 100, 1)
        for locale, text in (choice.get("name_localizations") or {}).items():
            if locale not in LOCALES:
                raise _fail(f"{where}choices.{i}.name_localizations", f"{locale!r} is not a valid locale")
            _length(text, f"{where}choices.{i}.name_localizations.{locale}", 100, 1)
