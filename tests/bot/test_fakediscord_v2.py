"""The stand-in refuses a Components V2 message Discord would refuse (fakediscord/checks_v2.py)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from fakediscord import Club, FakeDiscord
from fakediscord.checks import InvalidForm, check_message

from mafiabot.bot import MafiaBot

V2 = 1 << 15


def _text(content: str = "текст") -> dict[str, Any]:
    return {"type": 10, "content": content}


def _row(*custom_ids: str) -> dict[str, Any]:
    return {
        "type": 1,
        "components": [{"type": 2, "style": 1, "custom_id": c, "label": c} for c in custom_ids],
    }


def _container(*children: dict[str, Any], colour: Any = 0x2B2D31) -> dict[str, Any]:
    return {"type": 17, "accent_color": colour, "components": list(children)}


@pytest.mark.parametrize(
    "body",
    [
        {"flags": V2, "content": "x", "components": [_text()]},
        {"flags": V2, "embeds": [{"title": "t"}], "components": [_text()]},
        {"flags": V2, "components": [_text("я" * 2001), _text("я" * 2000)]},  # 4,001 characters in all
        {"flags": V2, "components": [_text()] * 41},
        # 1 container + 13 rows of 2 buttons = 40, and one more text display makes 41
        {"flags": V2, "components": [_container(*(_row(f"{i}a", f"{i}b") for i in range(13)), _text())]},
        {"flags": V2, "components": [_container(_container(_text()))]},  # no container in a container
        {"flags": V2, "components": [_container(_text(), colour=0x1000000)]},
        {"flags": V2, "components": [{"type": 9, "components": [_text()]}]},  # a section needs an accessory
        {
            "flags": V2,
            "components": [{"type": 9, "components": [_text()] * 4, "accessory": _row("a")["components"][0]}],
        },
        {"flags": V2, "components": [_text("")]},
        {"flags": V2, "components": [{"type": 14, "spacing": 3}]},
        {"flags": V2, "components": [_row("a"), _container(_row("a"))]},  # custom_ids unique in the message
        {"components": [_text()]},  # without the flag only action rows
    ],
)
def test_v2_messages_discord_refuses(body: dict[str, Any]) -> None:
    with pytest.raises(InvalidForm) as refused:
        check_message(body, new=True)
    assert refused.value.code == 50035


def test_v2_messages_within_the_limits_pass() -> None:
    rows = [_row(f"{i}a", f"{i}b") for i in range(12)]  # 1 + 12 * 3 + 2 = 39 components
    check_message(
        {"flags": V2, "components": [_container(*rows, _text("я" * 2000)), _text("я" * 2000)]}, new=True
    )
    section = {"type": 9, "components": [_text()] * 3, "accessory": _row("s")["components"][0]}
    check_message(
        {"flags": V2, "components": [section, {"type": 14, "spacing": 2, "divider": True}]}, new=True
    )


def test_an_edit_keeps_the_v2_flag() -> None:
    with pytest.raises(InvalidForm):  # content on a V2 message
        check_message({"content": "x"}, new=False, had_flags=V2)
    with pytest.raises(InvalidForm):  # the flag taken away
        check_message({"flags": 0, "components": [_row("a")]}, new=False, had_flags=V2)
    check_message({"components": [_text()]}, new=False, had_flags=V2)


async def test_discord_py_layout_views_reach_the_channel(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("## День 1"),
            discord.ui.ActionRow(discord.ui.Button(label="Пас", custom_id="x")),
            accent_colour=0xF1C40F,
        )
    )
    sent = await channel.send(view=view)
    message = fake.world.find_message(sent.id)
    assert message is not None and message.text == "## День 1" and message.content == ""
    assert message.component(label="Пас")["custom_id"] == "x"
    with pytest.raises(discord.HTTPException) as refused:
        await sent.edit(content="текст")
    assert refused.value.status == 400 and refused.value.code == 50035
    assert message.text == "## День 1"


class _Answer(discord.ui.Button[Any]):
    """A button whose click is answered by ``answer(interaction)``; what Discord refused is kept."""

    def __init__(self, label: str, answer: Any, refused: list[discord.HTTPException]) -> None:
        super().__init__(label=label, custom_id=f"answer-{label}")
        self.answer = answer
        self.refused = refused

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.answer(interaction)
        except discord.HTTPException as error:
            self.refused.append(error)


def _layout(heading: str, *buttons: discord.ui.Button[Any]) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(heading), discord.ui.ActionRow(*buttons)))
    return view


async def test_a_click_answered_by_updating_a_v2_message(
    bot: MafiaBot, fake: FakeDiscord, club: Club
) -> None:
    """UPDATE_MESSAGE (7) and DEFERRED_UPDATE_MESSAGE (6) then PATCH @original edit the clicked message
    itself, which stays a Components V2 message under V2's limits; a refused update acknowledges
    nothing, and a message deleted since the click cannot be updated (10008)."""
    channel = bot.get_channel(club.text.id)
    assert isinstance(channel, discord.TextChannel)
    refused: list[discord.HTTPException] = []

    async def update(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(view=_layout("## День 2", _Answer("b", update, refused)))

    async def with_content(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.edit_message(content="текст")

    async def too_big(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.LayoutView(timeout=None)  # 4,001 characters of text in all
        view.add_item(discord.ui.TextDisplay("я" * 2001)).add_item(discord.ui.TextDisplay("я" * 2000))
        await interaction.response.edit_message(view=view)

    async def deferred(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(view=_layout("## Ночь 2", _Answer("d", deferred, refused)))

    answers = (("a", update), ("c", with_content), ("t", too_big), ("d", deferred))
    buttons = [_Answer(label, answer, refused) for label, answer in answers]
    sent = await channel.send(view=_layout("## День 1", *buttons))
    message = fake.world.find_message(sent.id)
    assert message is not None

    for label in ("c", "t"):
        record = await fake.click(club.players[0], message, label=label, wait=False)
        await fake.wait_for(lambda: len(refused) == 1, what="the refusal")
        assert refused.pop().code == 50035 and record.callback is None  # nothing acknowledged
        assert message.text == "## День 1" and message.flags & V2

    record = await fake.click(club.players[0], message, label="a")
    assert record.callback_type == 7 and record.original is message
    assert message.text == "## День 2" and message.flags & V2 and message.edited_timestamp

    sent = await channel.send(view=_layout("## Ночь 1", _Answer("d", deferred, refused)))
    second = fake.world.find_message(sent.id)
    assert second is not None
    record = await fake.click(club.players[0], second, label="d")
    await fake.wait_for(lambda: second.text == "## Ночь 2", what="the edit of @original")
    assert record.callback_type == 6 and record.original is second and second.flags & V2
    assert not refused and [m.id for m in fake.messages(club.text)][-2:] == [message.id, second.id]

    second.deleted = True  # (as if deleted while the click was on its way)
    record = await fake.click(club.players[0], second, label="d", wait=False)
    await fake.wait_for(lambda: len(refused) == 1, what="the refusal")
    assert refused[0].code == 10008 and record.callback is None
