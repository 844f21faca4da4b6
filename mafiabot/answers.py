"""Answers to interactions sent as discord.py sends them, without what discord.py makes of Discord's reply
(issue 18).

`InteractionResponse.edit_message` and `send_message` ask Discord for the callback's outcome
(`with_response`), which carries the whole message (a panel's Components V2 tree), and build an
`InteractionMessage` of it inside an `InteractionCallbackResponse`; the bot reads neither where these are
used. Here the same request goes through the same adapter (discord.py's webhook adapter: its lock per
interaction, its retries of a 429 and a 5xx, its errors) without `with_response`, so Discord answers 204
with no body. The bot's quota sees it as before (the session's middleware; an interaction's callback is
not counted towards the global limit). A new message is sent the same way without the `Message`
`Messageable.send` builds of Discord's answer (`send_message`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord.http import Route, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params

_UPDATE = discord.InteractionResponseType.message_update
_MESSAGE = discord.InteractionResponseType.channel_message
_CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def plain(view: discord.ui.View | discord.ui.LayoutView) -> bool:
    """Does discord.py dispatch no item of the view by the view itself? (Its dynamic items, the game's
    buttons and selects, it finds by their custom ids; any other item needs the view stored, which
    discord.py's own answer does.)"""
    dynamic = discord.ui.DynamicItem
    return not any(item.is_dispatchable() and not isinstance(item, dynamic) for item in view.walk_children())


async def update_message(
    interaction: discord.Interaction[Any], view: discord.ui.View | discord.ui.LayoutView
) -> None:
    """Answer a component's click by updating its message to `view` (Discord's UPDATE_MESSAGE), as
    `interaction.response.edit_message(view=view)` does. Raises as that does: discord.NotFound 10062
    when Discord forgot the interaction (its 3 s), InteractionResponded when it was answered already."""
    response = interaction.response
    if interaction.type is not discord.InteractionType.component or not plain(view):
        await response.edit_message(view=view)  # (what this does not cover: discord.py's own way)
        return
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    message = interaction.message
    if message is not None:
        state.prevent_view_updates_for(message.id)  # (as edit_message: a view stored for it goes)
    params = interaction_message_response_params(
        type=_UPDATE.value, view=view, previous_allowed_mentions=state.allowed_mentions
    )
    await _callback(interaction, params.payload)
    response._response_type = _UPDATE


async def send_private(interaction: discord.Interaction[Any], content: str) -> None:
    """Answer the interaction with a private text (CHANNEL_MESSAGE_WITH_SOURCE, ephemeral), as
    `interaction.response.send_message(content, ephemeral=True)` does, without the InteractionMessage
    discord.py builds of Discord's reply. Raises as that does."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    flags = discord.MessageFlags(ephemeral=True)
    params = interaction_message_response_params(
        type=_MESSAGE.value, content=content, flags=flags, previous_allowed_mentions=state.allowed_mentions
    )
    await _callback(interaction, params.payload)
    response._response_type = _MESSAGE


async def _callback(interaction: discord.Interaction[Any], payload: dict[str, Any] | None) -> None:
    """The interaction's callback through discord.py's webhook adapter, not asking for its outcome."""
    http = interaction._state.http
    await async_context.get().request(
        Route("POST", _CALLBACK, webhook_id=interaction.id, webhook_token=interaction.token),
        interaction._session,
        payload=payload,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
    )


async def send_message(
    channel: discord.abc.Messageable,
    content: str | None = None,
    *,
    nonce: str,
    view: discord.ui.View | discord.ui.LayoutView | None = None,
) -> int:
    """`channel.send(content, nonce=nonce, view=view)`'s request, without the `discord.Message` that send
    builds of Discord's answer (a line's author, a private message's Components V2 tree) where nobody
    reads it: the new message's id. A view with an item discord.py dispatches by the view itself goes
    through `channel.send`, which stores it."""
    if isinstance(view, discord.ui.LayoutView) and not plain(view):  # (a layout carries no content)
        return (await channel.send(view=view, nonce=nonce)).id
    if isinstance(view, discord.ui.View) and not plain(view):
        return (await channel.send(content, nonce=nonce, view=view)).id
    target = await channel._get_channel()
    state = target._state
    with handle_message_parameters(
        content=content,
        nonce=nonce,
        view=MISSING if view is None else view,
        previous_allowed_mentions=state.allowed_mentions,
    ) as params:
        data = await state.http.send_message(target.id, params=params)
    return int(data["id"])
