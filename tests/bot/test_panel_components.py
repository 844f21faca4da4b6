"""The panel is drawn as the components Discord reads, without discord.py's `ui` items (issue 18: ≈ 40 µs a
drawing, at every click). What it sends must be what discord.py's items made of the same panel: here, at
every state of random games of every preset (their extras installed), in Russian and in English, the
drawn components equal those of the panel laid out with discord.py's items as it was before (built
here from the same texts and the same controls' arguments)."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import engine
from engine.simulate import deal, play_random_game
from mafiabot.answers import plain
from mafiabot.game import components, fiim_controls, preset_controls
from mafiabot.game.components import PANEL_EXTRAS, GameItem, custom_id, seat_select
from mafiabot.game.panel import DrawnPanel, accent, panel_components, panel_layout, panel_texts
from mafiabot.game.session import GameSession, SeatInfo


class _Quiet:
    async def on_due(self, session: GameSession, serial: int) -> None:
        pass

    async def on_tick(self, session: GameSession, seconds_left: int) -> None:
        pass


def _items(session: GameSession) -> list[discord.ui.Item[Any]]:
    """The panel's controls as discord.py's items (GameItems), as the panel made them before."""
    s, lang = session.state, session.language
    text = components.text

    def button(action: str, label: str, style: discord.ButtonStyle, arg: int | str = "") -> GameItem:
        cid = custom_id(session.game_id, session.serial, action, arg)
        return GameItem(discord.ui.Button(label=label, custom_id=cid, style=style))

    items: list[discord.ui.Item[Any]] = [
        button("role", text(lang, "control-role"), discord.ButtonStyle.secondary)
    ]
    if s.over:
        return items
    step = s.step
    free = components._nominable(session)
    if s.phase == "night" or step.kind in ("question", "tiebreak"):
        items.append(button("turn", text(lang, "control-turn"), discord.ButtonStyle.primary))
    elif step.kind == "speech":
        items.append(button("pass", text(lang, "control-pass"), discord.ButtonStyle.secondary))
        if (step.round == "day" or engine.queries.may_nominate_in_last_word(s, step.seat)) and free:
            items.append(seat_select(session, "nominate", text(lang, "control-nominate"), free))
    elif step.kind == "nominations" and free:
        items.append(seat_select(session, "nominate", text(lang, "control-nominate"), free))
    elif step.kind == "vote":
        label = text(lang, "control-vote", seat=step.seat, name=session.name_of(step.seat))[:80]
        items.append(button("vote", label, discord.ButtonStyle.danger, step.seat))
        if s.ruleset.voting.withdraw:
            items.append(
                button("unvote", text(lang, "control-unvote"), discord.ButtonStyle.secondary, step.seat)
            )
    for extra in PANEL_EXTRAS:
        items += extra(session)
    return items


def _layout(session: GameSession) -> list[dict[str, Any]]:
    """The panel laid out with discord.py's items, as panel_layout did before."""
    texts = panel_texts(session)
    parts: list[discord.ui.Item[Any]] = [discord.ui.TextDisplay(texts[0]), discord.ui.Separator(visible=True)]
    parts += [discord.ui.TextDisplay(t) for t in texts[1:]]
    items = _items(session)
    buttons = [item for item in items if isinstance(getattr(item, "item", item), discord.ui.Button)]
    selects = [item for item in items if item not in buttons]
    rows = [discord.ui.ActionRow(*buttons[i : i + 5]) for i in range(0, len(buttons), 5)]
    rows += [discord.ui.ActionRow(item) for item in selects]
    if rows:
        parts.append(discord.ui.Separator(visible=True))
        parts += rows
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(*parts, accent_colour=accent(session.state)))
    return view.to_components()


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("preset", engine.available_presets())
async def test_the_drawn_panel_is_what_discordpys_items_made_of_it(preset: str, language: str) -> None:
    preset_controls.install()
    fiim_controls.install()
    kinds: set[str] = set()
    for seed in range(4):
        ruleset = engine.load_ruleset(preset)
        roles = deal(ruleset, 10, seed)
        session = GameSession(
            game_id=10**17 + seed,
            ruleset=ruleset,
            seats=[SeatInfo(i + 1, 10**17 + i, f"*Игрок* {i + 1} @everyone") for i in range(10)],
            roles=roles,
            seed=seed,
            listener=_Quiet(),
        )
        session.language = language
        state = session.state
        for serial, command in enumerate(play_random_game(ruleset, 10, seed, list(roles)).commands):
            state, _ = engine.apply(state, command)
            session.state, session.serial = state, serial
            drawn = panel_components(session)
            assert drawn == _layout(session), (preset, seed, serial, state.step.kind)
            kinds.update(
                c["type"] for row in drawn[0]["components"] if row["type"] == 1 for c in row["components"]
            )
    assert kinds == {2, 3}  # buttons and selects both drawn


async def test_the_drawn_panel_is_sent_as_components_v2_and_stores_no_view() -> None:
    ruleset = engine.load_ruleset("classic")
    session = GameSession(
        game_id=1,
        ruleset=ruleset,
        seats=[SeatInfo(i + 1, 100 + i, f"p{i + 1}") for i in range(10)],
        roles=deal(ruleset, 10, 1),
        seed=1,
        listener=_Quiet(),
    )
    view = panel_layout(session)
    assert isinstance(view, DrawnPanel) and view.has_components_v2()
    assert plain(view) and not view.is_dispatchable() and list(view.walk_children()) == []
    assert view.to_components() == panel_components(session)
