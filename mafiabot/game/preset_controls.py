"""The controls the presets beyond classic and simple need, plugged into the panel and the private
prompts through ``components.PANEL_EXTRAS`` / ``PROMPT_EXTRAS`` / ``STATUS_EXTRAS``.

Each function looks at the current step and offers only what the engine would accept there; the engine
still decides (a click it refuses is answered with its own message). The handlers are in
``mafiabot.cogs.variants``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from engine import queries
from engine.registry import STEP_KINDS
from mafiabot.game.components import (
    PANEL_EXTRAS,
    PROMPT_EVENTS,
    PROMPT_EXTRAS,
    STATUS_EXTRAS,
    GameItem,
    button,
    custom_id,
    seat_select,
)

if TYPE_CHECKING:
    from mafiabot.game.session import GameSession

Items = list[discord.ui.Item[Any]]

# The presets' own steps, each with its panel line («step-<kind>» in mafiabot/locales).
STEP_NAMES = ("lift", "acquittal", "court", "court_choice", "golden", "bets", "two_cards")

ACT_NAMES = {"kill": "Убить", "check": "Проверить"}

# Private ballots and day abilities whose actors get a prompt when their step opens.
PRIVATE_STEPS = ("acquittal", "court", "court_choice", "best_move")


def _speech_controls(session: GameSession) -> Items:
    """City: «Разрешаю N / Запрещаю N» and «Кто выставлен?» during one's own minute; fiim: «Отозвать»."""
    s = session.state
    step = s.step
    if s.phase != "day" or step.kind != "speech" or step.round != "day" or s.over:
        return []
    items: Items = []
    if s.ruleset.params.get("withdraw") == "explicit" and any(by == step.seat for by, _ in s.nominations):
        # FIIM D-FI8: the speaker takes his nomination back in his own minute («Отозвано»).
        items.append(button(session, "withdraw", "Отозвать кандидатуру", discord.ButtonStyle.secondary))
    if s.ruleset.phrase("nominees_list"):
        items.append(button(session, "nominees", "Кто выставлен?", discord.ButtonStyle.secondary))
    if s.ruleset.params.get("speech_permissions"):
        allowed = set(step.permitted)
        others = [x for x in s.living() if x != step.seat and x not in s.no_speech]
        free = [x for x in others if x not in allowed]
        if free:
            items.append(seat_select(session, "permit", "Разрешаю говорить…", free))
        if allowed:
            items.append(seat_select(session, "forbid", "Запрещаю говорить…", sorted(allowed)))
    return items


def _day_step_controls(session: GameSession) -> Items:
    s = session.state
    kind = s.step.kind
    if s.over or s.phase != "day":
        return []
    if kind == "lift":
        seats = ", ".join(f"№{x}" for x in s.step.candidates)
        return [button(session, "lift", f"За то, чтобы {seats} покинули стол", discord.ButtonStyle.danger)]
    if kind in PRIVATE_STEPS:
        return [button(session, "turn", "Мой ход", discord.ButtonStyle.primary)]
    if kind == "golden":
        return [button(session, "golden", "Взять золотую минуту", discord.ButtonStyle.primary)]
    if kind == "bets":
        return [seat_select(session, "bet", "Пари: мафия — игрок…", s.living())]
    if kind == "two_cards":
        return [
            button(session, "hidden", "Мафия — закрытая карта", discord.ButtonStyle.secondary),
            button(session, "opponent", "Мафия — соперник", discord.ButtonStyle.danger),
        ]
    return []


def _immunity(session: GameSession) -> list[str]:
    s = session.state
    if s.over or not s.immune:
        return []
    return ["Иммунитет: " + ", ".join(f"№{x}" for x in sorted(s.immune))]


# -- private prompts -------------------------------------------------------------------------------


def ability_select(
    session: GameSession, act: str, placeholder: str, seats: list[int], count: int
) -> GameItem:
    """A select of the targets of one ability; ``count`` values exactly (the journalist's two)."""
    options = [discord.SelectOption(label=f"№{x} {session.name_of(x)}"[:100], value=str(x)) for x in seats]
    cid = custom_id(session.game_id, session.serial, "ability", act or "one")
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=cid, placeholder=placeholder, options=options[:25], min_values=count, max_values=count
    )
    return GameItem(select)


def _night_prompt(session: GameSession, seat: int) -> tuple[str, Items] | None:
    """A role with two abilities at one step (kill or check) or with two targets (journalist,
    revenant); the don who designates the mafia's target. (A prisoner is woken but is no actor: the
    engine tells him so, D-H15.)"""
    s = session.state
    if s.phase != "night" or s.step.kind != "night":
        return None
    options = queries.targets_for(s, seat)
    if not options:
        return None
    role = s.ruleset.roles[s.role_of(seat)].display
    if "team" in options:
        return _designation(session, seat, options["team"])
    counts = {act: queries.targets_needed(s, seat, act) for act in options}
    if len(options) < 2 and all(n == 1 for n in counts.values()):
        return None  # the core prompt does
    items: Items = []
    for act, targets in options.items():
        n = counts[act]
        if len(targets) < n:
            continue
        verb = ACT_NAMES.get(act, "Выбрать")
        placeholder = f"{verb}: двух игроков" if n == 2 else f"{verb}: игрока"
        items.append(ability_select(session, act, placeholder, targets, n))
    if queries.is_optional(s, seat):
        items.append(button(session, "skip", "Пропустить", discord.ButtonStyle.secondary))
    if len(options) > 1:
        text = f"{role}, ваш ход. Выберите одно действие: " + " или ".join(
            f"«{ACT_NAMES.get(a, a)}»" for a in options
        )
    elif max(counts.values()) == 2:
        text = f"{role}, ваш ход. Выберите двух игроков."
    else:
        text = f"{role}, ваш ход. Выберите игрока."
    return text, items


def _designation(session: GameSession, seat: int, targets: list[int]) -> tuple[str, Items] | None:
    """City D-C10: the don's pick is the mafia's target; he is told so. While he lives, the others' picks
    are only proposals to him (issue 13: the lawyer was offered «Ваш выбор» that did nothing)."""
    s = session.state
    team = s.team_of(seat)
    tdef = s.ruleset.teams.get(team) if team else None
    if tdef is None or tdef.tie != "designate" or not tdef.leader:
        return None
    if s.role_of(seat) == tdef.leader:
        select = seat_select(session, "propose", "Цель мафии", targets)
        return "Дон, ваш выбор назначает цель мафии: выберите игрока.", [select]
    leaders = [x for x in s.team_members(team) if s.role_of(x) == tdef.leader]
    if not leaders:
        return None  # without the don every living member's pick counts (the core prompt)
    role = s.ruleset.roles[s.role_of(seat)].display
    select = seat_select(session, "suggest", "Предложить дону…", targets)
    return (
        f"{role}, цель мафии назначает дон (№{leaders[0]}). Вы можете предложить ему игрока: "
        "предложение видит ваша команда, решает дон.",
        [select],
    )


def _day_prompt(session: GameSession, seat: int) -> tuple[str, Items] | None:
    s = session.state
    kind = s.step.kind
    if s.phase != "day" or kind not in PRIVATE_STEPS:
        return None
    if kind == "best_move":  # FIIM D-FI13: the first-night victim names three seats, privately
        if seat not in queries.actors(s):
            return None
        targets = STEP_KINDS[kind].targets(s, seat)
        select = ability_select(session, "", "Лучший ход: три игрока", targets, 3)
        return "Лучший ход: назовите трёх игроков, которых вы считаете чёрными.", [select]
    if kind == "acquittal":
        if seat not in queries.actors(s):
            return None
        accused = s.step.seat
        acquit = button(session, "acquit", f"Оправдать №{accused}", discord.ButtonStyle.success, accused)
        return f"Игрок №{accused} осуждён. Вы можете его оправдать (раз в день).", [acquit]
    if seat not in queries.voters(s):
        return None
    if kind == "court":
        accused = s.step.seat
        return f"Суд решает судьбу игрока №{accused}.", [
            button(session, "court", "Казнить", discord.ButtonStyle.danger, accused),
            button(session, "court", "Помиловать", discord.ButtonStyle.success, 0),
        ]
    choices = STEP_KINDS[kind].choices(s, seat)
    select = seat_select(session, "court_pick", "Кого казнить?", choices)
    return "Суд обязан казнить одного из помилованных сегодня. Ваш выбор:", [select]


def install() -> None:
    """Plug the presets' controls in (idempotent: a reloaded cog does not add them twice)."""
    from mafiabot.game.panel import PANEL_STEPS

    for registry, extra in (
        (PANEL_EXTRAS, _speech_controls),
        (PANEL_EXTRAS, _day_step_controls),
        (STATUS_EXTRAS, _immunity),
        (PROMPT_EXTRAS, _night_prompt),
        (PROMPT_EXTRAS, _day_prompt),
    ):
        if extra not in registry:
            registry.append(extra)  # type: ignore[arg-type]
    # «extra_shot»: the team step opens again after its shot killed its impostor (D-H7).
    PROMPT_EVENTS.update(
        {"acquittal_offer", "court_ballot", "court_choice_ballot", "extra_shot", "best_move_offer"}
    )
    PANEL_STEPS.update(STEP_NAMES)
