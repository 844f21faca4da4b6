"""Errors a player can cause and is told about; everything else is a bug and gets logged.

:func:`refusal` is the one place that turns an expected error (ours, the engine's refusal of a command,
a stale button) into the player's answer: the command tree's error handler and the component callbacks
(:func:`answering`) use it, so nothing else re-wraps engine errors by hand.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands

import engine
from mafiabot.i18n import DEFAULT, has, known_language, text, variant_about
from mafiabot.view_helpers import send_private

_Store = TypeVar("_Store")
log = logging.getLogger(__name__)

UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction answered after its 3 s

GENERIC_FAILURE = text(DEFAULT, "error-generic")
STALE = text(DEFAULT, "error-stale")


class UserFacingError(app_commands.AppCommandError):
    """An expected failure shown to the user, ephemerally: a catalogue key with its arguments
    (``UserFacingError("lobby-closed")``), written in the answer's language; a text that is not a key is
    shown as it is (a text already written in the right language)."""

    def __init__(self, message: str, **args: Any) -> None:
        self.key = message if has(DEFAULT, message) else None
        self.args_ = args
        # The Russian, for logs and for callers that want a text.
        self.message = text(DEFAULT, message, **args) if self.key else message
        super().__init__(self.message)

    def text(self, language: str) -> str:
        return text(language, self.key, **self.args_) if self.key else self.message


class NotAllowedHere(UserFacingError, app_commands.CheckFailure):
    """The command was used in a server outside the configured allow-list."""

    def __init__(self) -> None:
        super().__init__("error-not-allowed-here")


class StaleAction(Exception):
    """A button or select from an earlier step (or an earlier game) was used."""


RESTARTING = text(DEFAULT, "error-restarting")


class Restarting(UserFacingError):
    """The bot is stopping (SIGTERM, a deploy): nothing new is taken, running games are being stored."""

    def __init__(self) -> None:
        super().__init__("error-restarting")


NOT_STORED = text(DEFAULT, "error-not-stored")


class NotStored(UserFacingError):
    """The command could not be written to the game's log; the game did not move (write ahead)."""

    def __init__(self) -> None:
        super().__init__("error-not-stored")


def needed(storage: _Store | None, unavailable: str) -> _Store:
    """The database a command needs, or the user is told why it cannot be used now."""
    if storage is None:
        raise UserFacingError(unavailable)
    return storage


def permission_names(permissions: list[str], language: str = DEFAULT) -> str:
    from mafiabot.needs import names

    return names(permissions, language)


def language_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer an interaction in: its server's (as last read), else the bot's."""
    settings = getattr(interaction.client, "settings", None)
    default = getattr(getattr(settings, "game", None), "language", DEFAULT)
    return known_language(interaction.guild_id, default)


def refusal(error: BaseException, language: str = DEFAULT) -> str | None:
    """The player's answer to an expected refusal, in ``language``, or None."""
    if isinstance(error, UserFacingError):
        return error.text(language)
    if isinstance(error, engine.IllegalCommand):
        return engine_refusal(error, language)
    if isinstance(error, StaleAction):
        return text(language, "error-stale")
    return None


# A refusal's arguments that name a role by its id («leader»: "doctor"), and the column of special roles
# a deck refusal names ("special_mafiosi"): said in words, never as the id.
_ROLE_ARGS = frozenset({"role", "leader", "loner", "lord", "werewolf", "extra", "source", "target"})


def _in_words(language: str, name: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value  # a seat or a count
    if name == "what" and has(language, f"deck-group-{value}"):
        return text(language, f"deck-group-{value}")
    if name in _ROLE_ARGS and has(language, f"role-{value}"):
        return text(language, f"role-{value}")
    return value  # a role of a server's own rules file: the id its authors wrote


def engine_refusal(error: engine.IllegalCommand, language: str) -> str:
    """The engine's refusal: by its message id and arguments where it names one (``error.key``), else
    its own text (Russian, the rulebooks' words) on a Russian server and its kind's sentence elsewhere.
    A role or a column of roles the refusal names by its id is said by its name in ``language``."""
    key = getattr(error, "key", "")
    if key and has(language, f"illegal-{key}"):
        args = {name: _in_words(language, name, v) for name, v in getattr(error, "args_", {}).items()}
        return text(language, f"illegal-{key}", **args)
    if language == DEFAULT:
        return str(error)
    kind = type(error).__name__
    return text(language, f"illegal-kind-{kind}" if has(language, f"illegal-kind-{kind}") else "illegal-kind")


def ruleset_refusal(
    error: engine.RulesetError, language: str, ruleset_id: str, about: Mapping[str, str]
) -> str:
    """Variants that cannot be played as chosen, in ``language``: by the bot's message for the refusal
    and the variants in words (``about``: the preset's own descriptions), never the loader's text, which
    names ids in English for a rules file's author («unknown option (known: …)»)."""
    if not error.says:
        return text(language, "ruleset-invalid")
    words = {
        name: variant_about(language, ruleset_id, value, about[value]) if value in about else value
        for name, value in error.args_.items()
    }
    return text(language, f"ruleset-{error.says}", **words)


def expired(error: BaseException) -> bool:
    """Discord forgot the interaction: its first answer came more than 3 s after it was made."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def note_expired(interaction: discord.Interaction[Any]) -> None:
    """A warning, not an error: a stalled loop or a slow network, no bug; nobody is left to tell."""
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    log.warning(
        "The interaction expired before it was answered: %.1f s after it was made (Discord allows 3 s)",
        age,
    )


async def answering(interaction: discord.Interaction[Any], action: Awaitable[None]) -> None:
    """Run a component's action; a refusal is answered privately, anything else propagates (a bug)."""
    try:
        await _answering(interaction, action)
    except discord.NotFound as error:
        if not expired(error):
            raise
        note_expired(interaction)  # (the action itself ran: only its answer came too late)


async def _answering(interaction: discord.Interaction[Any], action: Awaitable[None]) -> None:
    try:
        if getattr(interaction.client, "stopping", False):
            if inspect.iscoroutine(action):
                action.close()  # never started: the bot is going down
            raise Restarting()
        await action
    except Exception as exc:
        answer = refusal(exc, language_of(interaction))
        if answer is None:
            raise
        await reply_ephemeral(interaction, answer)


def user_message(error: app_commands.AppCommandError, language: str = DEFAULT) -> str | None:
    """The text for an expected error in ``language``, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        answer = refusal(error.original, language)
        if answer is not None:
            return answer
    if isinstance(error, UserFacingError):
        return error.text(language)
    if isinstance(error, app_commands.CommandOnCooldown):
        return text(language, "error-cooldown", seconds=round(error.retry_after))
    if isinstance(error, app_commands.BotMissingPermissions):
        return text(
            language, "error-bot-permissions", names=permission_names(error.missing_permissions, language)
        )
    if isinstance(error, app_commands.MissingPermissions):
        names = permission_names(error.missing_permissions, language)
        return text(language, "error-your-permissions", names=names)
    if isinstance(error, app_commands.TransformerError):
        # A value Discord sent but the command cannot take: most often a user option naming somebody
        # who is not (or no longer) a member of the server, where the command wants a member.
        if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            return text(language, "error-not-a-member")
        return text(language, "error-bad-value")
    if isinstance(error, app_commands.NoPrivateMessage):
        return text(language, "error-server-only")
    if isinstance(error, app_commands.CheckFailure):
        return text(language, "error-not-here")
    return None


async def reply_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer the interaction privately whether or not it was answered already."""
    await send_private(interaction, content)
