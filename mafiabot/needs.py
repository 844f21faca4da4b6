"""Every Discord permission the bot uses, where it needs it, and what happens without it.

One list serves the lobby, `/mafia check`, the start check, the README's invite link (a test compares
them) and the no-token help. A *required* permission blocks the start: the game cannot be run without
it. An *optional* one only degrades something, with a note, and never blocks closing a game or
releasing voice.

Discord computes permissions per channel, so each need names its place: the game's text channel, its
voice channel, or the private threads of the mafia's night chat (created under the text channel; a
thread takes its parent's permissions, with Send Messages in Threads instead of Send Messages).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

import discord

import engine
from mafiabot.i18n import DEFAULT, text

Place = Literal["text", "voice", "threads"]

PLACES: tuple[Place, ...] = ("text", "voice", "threads")  # in the order a report names them (``place-*``)


def _chat_presets() -> frozenset[str]:
    """Presets where a team talks in a private thread at night (a team with ``chat = true``)."""
    found = set()
    for preset_id in engine.available_presets():
        try:
            ruleset = engine.load_ruleset(preset_id)
        except engine.RulesetError:
            continue  # mafiabot.presets logs it
        if any(team.chat for team in ruleset.teams.values()):
            found.add(preset_id)
    return frozenset(found)


CHAT_PRESETS = _chat_presets()

# Why a stage channel cannot hold a game: a stage's newcomers join its silent audience and speak only
# when invited, while at a Mafia table everybody must be able to speak in turn (and the host unmutes
# each speaker; it cannot turn the audience into speakers without moderating the stage).
STAGE_REFUSAL = text(DEFAULT, "need-stage")  # (``need-stage`` in the catalogues)


@dataclass(frozen=True)
class Need:
    permission: str  # a discord.Permissions flag
    place: Place
    label: str  # as Discord's invite screen names it (English), for the README
    optional: bool = False
    presets: frozenset[str] | None = None  # only games of these presets need it
    nicknames_only: bool = False  # only when the lobby asked for seat numbers in nicknames
    without: str = ""  # an optional need's effect, in English, for the README

    def applies(self, preset: str | None, nicknames: bool) -> bool:
        if self.presets is not None and preset is not None and preset not in self.presets:
            return False
        return not (self.nicknames_only and not nicknames)


NEEDS: tuple[Need, ...] = (
    Need("view_channel", "text", "View Channels"),
    Need("send_messages", "text", "Send Messages"),
    Need(
        "attach_files",
        "text",
        "Attach Files",
        optional=True,
        without="the game's protocol is not posted as a file (`/mafia game` still shows it)",
    ),
    Need(
        "manage_messages",
        "text",
        "Manage Messages",
        optional=True,
        without="with automatic text fouls on, out-of-turn messages are not deleted",
    ),
    Need("view_channel", "voice", "View Channels"),
    Need("connect", "voice", "Connect"),
    Need("speak", "voice", "Speak"),
    Need("mute_members", "voice", "Mute Members"),
    Need(
        "create_private_threads",
        "threads",
        "Create Private Threads",
        presets=CHAT_PRESETS,
    ),
    Need(
        "send_messages_in_threads",
        "threads",
        "Send Messages in Threads",
        presets=CHAT_PRESETS,
    ),
    Need(
        "manage_threads",
        "threads",
        "Manage Threads",
        presets=CHAT_PRESETS,
    ),
    Need(
        "manage_nicknames",
        "text",
        "Manage Nicknames",
        optional=True,
        nicknames_only=True,
        without="no seat numbers in nicknames (asked for with `/mafia new nicknames:True`)",
    ),
)

# Every permission the bot may name to a player (``permission-*`` in the catalogues).
PERMISSION_NAMES = (
    "view_channel",
    "send_messages",
    "attach_files",
    "manage_messages",
    "connect",
    "speak",
    "mute_members",
    "deafen_members",
    "move_members",
    "manage_channels",
    "create_private_threads",
    "send_messages_in_threads",
    "manage_threads",
    "manage_nicknames",
)


def invite_permissions() -> discord.Permissions:
    """Everything the bot may use: the `permissions=` of its invite link."""
    return discord.Permissions(**{need.permission: True for need in NEEDS})


def invite_labels() -> list[str]:
    return list(dict.fromkeys(need.label for need in NEEDS))


def invite_url(application_id: int | str) -> str:
    return (
        f"https://discord.com/oauth2/authorize?client_id={application_id}"
        f"&scope=bot+applications.commands&permissions={invite_permissions().value}"
    )


# A helper bot (mafiabot/game/helpers.py) only server-mutes members: it must see the voice channel and
# may connect to it, or Discord grants it none of the channel's voice permissions.
HELPER_NEEDS: tuple[str, ...] = ("view_channel", "connect", "mute_members")


def helper_invite_url(application_id: int | str) -> str:
    """A helper's invite: scope `bot` only (it has no commands), and only what muting needs."""
    bits = discord.Permissions(**dict.fromkeys(HELPER_NEEDS, True)).value
    return f"https://discord.com/oauth2/authorize?client_id={application_id}&scope=bot&permissions={bits}"


@dataclass(frozen=True)
class Missing:
    need: Need
    channel: str  # how the channel is shown (a mention)


def missing(
    me: discord.Member,
    *,
    text: discord.abc.GuildChannel | None,
    voice: discord.abc.GuildChannel | None,
    preset: str | None = None,
    nicknames: bool = True,
) -> list[Missing]:
    """What the bot lacks for a game in these channels (preset None: any preset)."""
    places: dict[Place, discord.abc.GuildChannel | None] = {"text": text, "voice": voice, "threads": text}
    found = []
    for need in NEEDS:
        channel = places[need.place]
        if channel is None or not need.applies(preset, nicknames):
            continue
        if not getattr(channel.permissions_for(me), need.permission):
            found.append(Missing(need, channel.mention))
    return found


def permission_name(permission: str, language: str = DEFAULT) -> str:
    key = f"permission-{permission}"
    return text(language, key) if key in _KNOWN else permission


_KNOWN = {f"permission-{name}" for name in PERMISSION_NAMES}


def names(permissions: Iterable[str], language: str = DEFAULT) -> str:
    return ", ".join(permission_name(name, language) for name in permissions)


def required_lines(found: list[Missing], language: str = DEFAULT) -> list[str]:
    """«текстовый канал <#…>: …» per place, for what blocks a game."""
    return _by_place([m for m in found if not m.need.optional], language)


def _by_place(found: list[Missing], language: str) -> list[str]:
    lines = []
    for place in PLACES:
        here = [m for m in found if m.need.place == place]
        if here:
            where = text(language, f"place-{place}", channel=here[0].channel)
            listed = names((m.need.permission for m in here), language)
            lines.append(text(language, "need-place-missing", place=where, names=listed))
    return lines


def optional_lines(found: list[Missing], language: str = DEFAULT) -> list[str]:
    return [
        text(
            language,
            "need-optional-missing",
            permission=permission_name(m.need.permission, language),
            channel=m.channel,
            without=text(language, f"need-without-{m.need.permission}"),
        )
        for m in found
        if m.need.optional
    ]


_README_PLACES = {"text": "game text channel", "voice": "game voice channel", "threads": "mafia chat threads"}


def readme_table() -> str:
    """The README's permission table (a test keeps the two identical)."""
    rows = ["| permission | where | needed |", "|---|---|---|"]
    for label in invite_labels():
        here = [need for need in NEEDS if need.label == label]
        where = ", ".join(dict.fromkeys(_README_PLACES[need.place] for need in here))
        first = here[0]
        if first.nicknames_only:
            where = "the server (players' nicknames)"
        if first.optional:
            needed = f"optional: without it {first.without}"
        elif first.presets is not None:
            needed = "required for " + ", ".join(f"`{p}`" for p in sorted(first.presets))
        else:
            needed = "required"
        rows.append(f"| {label} | {where} | {needed} |")
    return "\n".join(rows)
