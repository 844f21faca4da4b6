"""The stand-in's messages drawn the way Discord's dark theme draws them, as an HTML page: what the
README's picture of the game panel is made from (tests/bot/test_panel_picture.py photographs it in
Chromium). It draws what Discord would from the same payload, so the picture cannot show a panel the bot
does not send: Components V2 containers with their accent colour, text displays (Discord's markdown
subset: bold, italics, strike, inline code, headings, subtext, mentions, timestamps), separators,
sections, action rows with buttons and selects, and a plain message's content.
"""

from __future__ import annotations

import contextvars
import html
import re
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from fakediscord.world import Message

BUTTON_COLOURS = {1: "#5865f2", 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058"}
SELECTS = {3, 5, 6, 7, 8}

CSS = """
body { background: #313338; color: #dbdee1; margin: 0; padding: 16px 24px;
       font: 16px/1.375 "DejaVu Sans", "Noto Sans", sans-serif; }
.message { display: flex; gap: 16px; margin: 0 0 18px; max-width: 760px; }
.message > .column { flex: 1; min-width: 0; }
.avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff;
          font-weight: 700; display: flex; align-items: center; justify-content: center; }
.head { margin-bottom: 4px; }
.author { color: #f2f3f5; font-weight: 600; }
.tag { background: #5865f2; color: #fff; font-size: 10px; font-weight: 700; border-radius: 3px;
       padding: 1px 4px; margin-left: 4px; vertical-align: 2px; }
.note { color: #949ba4; font-size: 12px; margin-left: 6px; }
.container { background: #2b2d31; border-left: 4px solid var(--accent); border-radius: 8px;
             padding: 12px 16px; max-width: 560px; }
.text { white-space: pre-wrap; margin: 2px 0; }
.text h1 { font-size: 24px; margin: 4px 0; } .text h2 { font-size: 20px; margin: 4px 0; }
.text h3 { font-size: 16px; margin: 4px 0; }
.sub { color: #949ba4; font-size: 13px; }
code { background: #1e1f22; border-radius: 4px; padding: 0 3px; font: 14px "DejaVu Sans Mono", monospace; }
.mention { background: rgba(88, 101, 242, .3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
.time { background: #3f4147; border-radius: 3px; padding: 0 2px; }
hr { border: 0; border-top: 1px solid #3f4147; margin: 8px 0; }
.gap { height: 8px; } .gap.large { height: 16px; }
.section { display: flex; gap: 12px; align-items: center; justify-content: space-between; }
.row { display: flex; flex-wrap: wrap; gap: 8px; margin: 8px 0 2px; }
.button { color: #fff; border-radius: 8px; padding: 2px 16px; min-height: 32px; font-size: 14px;
          font-weight: 500; display: inline-flex; align-items: center; }
.button.disabled { opacity: .5; }
.select { background: #1e1f22; border: 1px solid #1e1f22; border-radius: 8px; padding: 8px 12px;
          color: #949ba4; width: 100%; display: flex; justify-content: space-between; font-size: 14px; }
.ephemeral { color: #949ba4; font-size: 12px; margin-top: 4px; }
"""


# What the Discord client itself writes around the messages, in the client's language (a picture of an
# English server is one an English client sees).
CLIENT = {
    "ru": {
        "bot": "БОТ",
        "choose": "Выберите…",
        "only_you": "Только вы видите это сообщение",
        "in": "через {value} {unit}",
        "ago": "{value} {unit} назад",
        "s": "с",
        "min": "мин",
        "date": "%d.%m.%Y %H:%M",
    },
    "en": {
        "bot": "BOT",
        "choose": "Make a selection",
        "only_you": "Only you can see this",
        "in": "in {value} {unit}",
        "ago": "{value} {unit} ago",
        "s": "seconds",
        "min": "minutes",
        "date": "%m/%d/%Y %H:%M",
    },
}
_client: contextvars.ContextVar[str] = contextvars.ContextVar("render_client", default="ru")


def said(key: str) -> str:
    return CLIENT[_client.get()][key]


def relative(seconds: float) -> str:
    """Discord's <t:…:R> as the client shows it («через 59 с», «in 59 seconds»)."""
    amount = abs(round(seconds))
    unit = said("s") if amount < 60 else said("min")
    value = amount if amount < 60 else round(amount / 60)
    return said("in" if seconds >= 0 else "ago").format(value=value, unit=unit)


def inline(text: str, *, now: float, names: Callable[[int], str]) -> str:
    """One line of Discord markdown as HTML (escaped first: a member's name is his own text)."""
    out = html.escape(text, quote=False)
    out = re.sub(r"`([^`]+)`", lambda m: f"<code>{m.group(1)}</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    out = re.sub(r"__(.+?)__", r"<u>\1</u>", out)
    out = re.sub(r"~~(.+?)~~", r"<s>\1</s>", out)
    out = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<i>\1</i>", out)
    out = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(names(int(m.group(1))))}</span>',
        out,
    )

    def stamp(m: re.Match[str]) -> str:
        moment, style = int(m.group(1)), m.group(2) or "f"
        if style == "R":
            shown = relative(moment - now)
        else:
            shown = datetime.fromtimestamp(moment, UTC).strftime("%H:%M" if style in "tT" else said("date"))
        return f'<span class="time">{shown}</span>'

    return re.sub(r"&lt;t:(\d+)(?::([tTdDfFR]))?&gt;", stamp, out)


def markdown(text: str, *, now: float, names: Callable[[int], str]) -> str:
    lines = []
    for line in text.split("\n"):
        heading = re.match(r"^(#{1,3}) (.*)$", line)
        if line.startswith("-# "):
            lines.append(f'<span class="sub">{inline(line[3:], now=now, names=names)}</span>')
        elif heading:
            level = len(heading.group(1))
            lines.append(f"<h{level}>{inline(heading.group(2), now=now, names=names)}</h{level}>")
        else:
            lines.append(inline(line, now=now, names=names))
    return "\n".join(lines)


def component(item: dict[str, Any], *, now: float, names: Callable[[int], str]) -> str:
    kind = item.get("type")
    inner = [component(c, now=now, names=names) for c in item.get("components", [])]
    if kind == 17:
        accent = item.get("accent_color")
        colour = f"#{accent:06x}" if isinstance(accent, int) else "transparent"
        return f'<div class="container" style="--accent: {colour}">{"".join(inner)}</div>'
    if kind == 10:
        return f'<div class="text">{markdown(item.get("content", ""), now=now, names=names)}</div>'
    if kind == 14:
        if item.get("divider", True):
            return "<hr>"
        return '<div class="gap large"></div>' if item.get("spacing") == 2 else '<div class="gap"></div>'
    if kind == 9:
        accessory = item.get("accessory")
        side = component(accessory, now=now, names=names) if accessory else ""
        return f'<div class="section"><div>{"".join(inner)}</div>{side}</div>'
    if kind == 1:
        return f'<div class="row">{"".join(inner)}</div>'
    if kind == 2:
        emoji = (item.get("emoji") or {}).get("name", "")
        label = html.escape(" ".join(p for p in (emoji, item.get("label", "")) if p))
        colour = BUTTON_COLOURS.get(item.get("style", 2), "#4e5058")
        disabled = " disabled" if item.get("disabled") else ""
        return f'<span class="button{disabled}" style="background: {colour}">{label}</span>'
    if kind in SELECTS:
        placeholder = html.escape(item.get("placeholder") or said("choose"))
        return f'<div class="select"><span>{placeholder}</span><span>⌄</span></div>'
    return ""  # media, files and thumbnails: the game sends none of them


def message_html(
    message: Message, *, author: str, now: float, names: Callable[[int], str], note: str = ""
) -> str:
    if message.flags & Message.COMPONENTS_V2:
        body = "".join(component(c, now=now, names=names) for c in message.components)
    else:
        body = f'<div class="text">{markdown(message.content, now=now, names=names)}</div>' + "".join(
            component(c, now=now, names=names) for c in message.components
        )
    hidden = f'<div class="ephemeral">{said("only_you")}</div>' if message.ephemeral else ""
    aside = f'<span class="note">{html.escape(note)}</span>' if note else ""
    return (
        f'<div class="message"><div class="avatar">{html.escape(author[:1].upper())}</div>'
        '<div class="column">'
        f'<div class="head"><span class="author">{html.escape(author)}</span>'
        f'<span class="tag">{said("bot")}</span>{aside}</div>{body}{hidden}</div></div>'
    )


def page_html(
    messages: Sequence[tuple[Message, str]],
    *,
    author: str,
    now: float,
    names: Callable[[int], str],
    client: str = "ru",
) -> str:
    """A page of ``messages`` (each with a note beside the author, e.g. where it was posted), as a client
    in the language ``client`` draws it."""
    token = _client.set(client)
    try:
        body = "".join(
            message_html(m, author=author, now=now, names=names, note=note) for m, note in messages
        )
    finally:
        _client.reset(token)
    head = f'<head><meta charset="utf-8"><style>{CSS}</style></head>'
    return f'<!doctype html><html lang="{client}">{head}<body>{body}</body></html>'
