"""Errors a player can cause and is told about; everything else is a bug and gets logged."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from mafiabot.view_helpers import send_private

GENERIC_FAILURE = "Что-то пошло не так. Ошибка записана в журнал, попробуйте ещё раз."


class UserFacingError(app_commands.AppCommandError):
    """An expected failure whose message (Russian) is shown to the user, ephemerally."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowedHere(UserFacingError, app_commands.CheckFailure):
    """The command was used in a server outside the configured allow-list."""

    def __init__(self) -> None:
        super().__init__("Этот бот не настроен для работы на этом сервере.")


_PERMISSION_NAMES = {
    "mute_members": "Отключать участникам микрофон",
    "deafen_members": "Отключать участникам звук",
    "move_members": "Перемещать участников",
    "manage_channels": "Управлять каналами",
    "manage_threads": "Управлять ветками",
    "connect": "Подключаться",
    "speak": "Говорить",
    "send_messages": "Отправлять сообщения",
    "manage_nicknames": "Управлять никнеймами",
}


def permission_names(permissions: list[str]) -> str:
    return ", ".join(_PERMISSION_NAMES.get(name, name) for name in permissions)


def user_message(error: app_commands.AppCommandError) -> str | None:
    """The Russian text for an expected error, or None when the error is a bug."""
    if isinstance(error, app_commands.CommandInvokeError) and isinstance(error.original, UserFacingError):
        error = error.original
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
