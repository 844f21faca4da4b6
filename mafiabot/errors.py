"""Errors a player can cause and is told about; everything else is a bug and gets logged.

:func:`refusal` is the one place that turns an expected error (ours, the engine's refusal of a command,
a stale button) into the player's answer: the command tree's error handler and the component callbacks
(:func:`answering`) use it, so nothing else re-wraps engine errors by hand.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord
from discord import app_commands

import engine
from mafiabot.view_helpers import send_private

_Store = TypeVar("_Store")

GENERIC_FAILURE = "Что-то пошло не так. Ошибка записана в журнал, попробуйте ещё раз."
STALE = "Этот шаг игры уже закончился: кнопка больше не действует."


class UserFacingError(app_commands.AppCommandError):
    """An expected failure whose message (Russian) is shown to the user, ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowedHere(UserFacingError, app_commands.CheckFailure):
    """The command was used in a server outside the configured allow-list."""

    def __init__(self) -> None:
        super().__init__("Этот бот не настроен для работы на этом сервере.")


class StaleAction(Exception):
    """A button or select from an earlier step (or an earlier game) was used."""


RESTARTING = "Ведущий перезапускается: через минуту игра продолжится с того же места, повторите тогда."


class Restarting(UserFacingError):
    """The bot is stopping (SIGTERM, a deploy): nothing new is taken, running games are being stored."""

    def __init__(self) -> None:
        super().__init__(RESTARTING)


NOT_STORED = "Не получилось записать ход (база данных не отвечает): игра осталась как была, повторите."


class NotStored(UserFacingError):
    """The command could not be written to the game's log; the game did not move (write ahead)."""

    def __init__(self) -> None:
        super().__init__(NOT_STORED)


def needed(storage: _Store | None, unavailable: str) -> _Store:
    """The database a command needs, or the user is told why it cannot be used now."""
    if storage is None:
        raise UserFacingError(unavailable)
    return storage


def permission_names(permissions: list[str]) -> str:
    from mafiabot.needs import names

    return names(permissions)


def refusal(error: BaseException) -> str | None:
    """The player's answer to an expected refusal (the engine's messages are Russian), or None."""
    if isinstance(error, UserFacingError):
        return error.message
    if isinstance(error, engine.IllegalCommand):
        return str(error)
    if isinstance(error, StaleAction):
        return STALE
    return None


async def answering(interaction: discord.Interaction[Any], action: Awaitable[None]) -> None:
    """Run a component's action; a refusal is answered privately, anything else propagates (a bug)."""
    try:
        if getattr(interaction.client, "stopping", False):
            if inspect.iscoroutine(action):
                action.close()  # never started: the bot is going down
            raise Restarting()
        await action
    except Exception as exc:
        text = refusal(exc)
        if text is None:
            raise
        await reply_ephemeral(interaction, text)


def user_message(error: app_commands.AppCommandError) -> str | None:
    """The Russian text for an expected error, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        text = refusal(error.original)
        if text is not None:
            return text
    if isinstance(error, UserFacingError):
        return error.message
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Слишком часто. Попробуйте снова через {error.retry_after:.0f} с."
    if isinstance(error, app_commands.BotMissingPermissions):
        return f"Боту не хватает прав: {permission_names(error.missing_permissions)}."
    if isinstance(error, app_commands.MissingPermissions):
        return f"Вам не хватает прав: {permission_names(error.missing_permissions)}."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Эта команда работает только на сервере."
    if isinstance(error, app_commands.CheckFailure):
        return "Эту команду здесь использовать нельзя."
    return None


async def reply_ephemeral(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer the interaction privately whether or not it was answered already."""
    await send_private(interaction, content)
