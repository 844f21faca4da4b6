"""Hobby World «Мафия»: choosing the roles for a table (RULESETS.md 4.3, D-H1, D-H3, D-H9).

The book's table gives, for 6–16 players, how many civilians (one of them the leader, some special) and
how many criminals (some special mafiosi) there are, with ranges the host chooses from. Its general
rules: «В игре может быть только один лидер»; «Не рекомендуется вводить стукача в игру, в которой нет ни
одного персонажа, способного узнавать роли других игроков»; «В игре может быть только один одиночка. Мы не
рекомендуем вводить одиночку в игру, если в ней меньше десяти участников. Одиночка заменяет одного из
мафиози»; «если у мирных жителей не будет «стреляющих» ролей … их число стоит немного увеличить»
(a warning); the yakuza «Во-первых, игроков должно быть 12 и больше … роли мафиози делятся пополам … в игре
с якудзой не должны использоваться одиночки и особые персонажи мафии».
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalCommand
from engine.registry import composer, seat_check
from engine.rules.model import Ruleset

CHECKERS = ("detective", "priest", "judge", "jailer", "lawyer")  # roles that learn another's role
# A column of special roles, by its parameter's name (what a refusal names: the bot says it in the
# server's language, ``deck-group-<id>``), and in the rulebook's Russian for the refusal's own text.
GROUPS = {
    "special_civilians": "особый мирный житель",
    "special_mafiosi": "особый мафиози",
    "special_vampires": "особый вампир",
    "special_hunters": "особый охотник",
}
SHOOTERS = ("detective", "priest", "sheriff")  # the town's «стреляющие» roles


def table_row(ruleset: Ruleset, players: int) -> list[int]:
    """The book's table row for ``players`` (000, and 003 with its columns substituted)."""
    row = ruleset.params.get("table", {}).get(str(players))
    if row is None:
        raise IllegalCommand(
            f"По этим правилам играют от 6 до 16 человек, а не {players}.",
            key="hobbyworld-players",
            players=players,
        )
    return [int(x) for x in row]


def pick_specials(
    wanted: int | Sequence[str] | None,
    low: int,
    high: int,
    catalogue: Sequence[str],
    group: str,
    skip: Sequence[str] = (),
) -> list[str]:
    """Special roles of one column (``group``, a key of :data:`GROUPS`): the first ``wanted`` of the
    catalogue, or the roles named; each at most once (D-H3, D-B3), and their number within the table's
    range (the lower bound by default). A refusal names the column and roles by their ids."""
    what = GROUPS[group]
    if wanted is None:
        wanted = low
    if isinstance(wanted, int):
        picks = [r for r in catalogue if r not in skip][:wanted]
        if len(picks) < wanted:
            raise IllegalCommand(
                f"Не хватает ролей «{what}»: нужно {wanted}.",
                key="deck-lacks-roles",
                what=group,
                wanted=wanted,
            )
    else:
        picks = list(wanted)
        for role in picks:
            if role not in catalogue:
                raise IllegalCommand(f"«{role}» — не {what}.", key="deck-not-kind", role=role, what=group)
        if len(set(picks)) != len(picks):
            raise IllegalCommand(
                f"Каждая роль «{what}» бывает в игре только одна.", key="deck-unique-role", what=group
            )
    if not low <= len(picks) <= high:
        raise IllegalCommand(
            f"Ролей «{what}» при этом числе игроков должно быть от {low} до {high}.",
            key="deck-role-count",
            what=group,
            low=low,
            high=high,
        )
    return picks


def pick_composition(
    ruleset: Ruleset,
    players: int,
    *,
    leader: str | None = "detective",
    special_civilians: int | Sequence[str] | None = None,
    special_mafiosi: int | Sequence[str] | None = None,
    loner: str | None = None,
    yakuza: bool = False,
) -> tuple[dict[str, int], list[str]]:
    """The roles for ``players`` by the book's table and rules, and the warnings the host should see.

    Ranges default to their lower bound (D-H3: «не переборщите»); an ``int`` takes that many roles in the
    default order, a list names them. Impossible choices raise :class:`IllegalCommand`."""
    civilians, leaders, sc_low, sc_high, criminals, sm_low, sm_high = table_row(ruleset, players)
    params: dict[str, Any] = dict(ruleset.params)
    warnings: list[str] = []
    if leader is None:
        warnings.append("Игра без лидера: книга советует всегда играть с лидером (D-H3).")
    elif leader not in params["leaders"]:
        raise IllegalCommand(
            f"«{leader}» — не лидер. В игре может быть только один лидер.", key="not-leader", leader=leader
        )
    if yakuza:
        if players < 12:
            raise IllegalCommand("Якудза используется только при 12 и более игроках.", key="yakuza-twelve")
        if loner or special_mafiosi:
            raise IllegalCommand(
                "В игре с якудзой не используются одиночки и особые мафиози.", key="yakuza-no-loners"
            )
        sm_low = sm_high = 0
    civ = pick_specials(special_civilians, sc_low, sc_high, params["special_civilians"], "special_civilians")
    checker = leader in CHECKERS
    maf = pick_specials(
        special_mafiosi,
        sm_low,
        sm_high,
        params["special_mafiosi"],
        "special_mafiosi",
        skip=() if checker else ("snitch",),
    )
    if leader not in SHOOTERS:
        warnings.append("У мирных нет «стреляющих» ролей: книга советует немного увеличить их число.")
    if "snitch" in maf and not checker and "lawyer" not in maf:
        warnings.append("Стукач в игре, где никто не узнаёт роли: книга этого не рекомендует.")
    deck: dict[str, int] = {}
    if leader:
        deck[leader] = leaders
    for role in civ + maf:
        deck[role] = 1
    deck["civilian"] = civilians - (leaders if leader else 0) - len(civ)
    mafiosi = criminals - len(maf)
    if loner:
        if loner not in params["loners"]:
            raise IllegalCommand(f"«{loner}» — не одиночка.", key="not-loner", loner=loner)
        if players < 10:
            warnings.append("Одиночку не рекомендуют вводить в игру меньше чем на десять участников.")
        deck[loner] = 1
        if mafiosi:
            mafiosi -= 1
        else:
            deck[maf[-1]] = 0  # «Одиночка заменяет одного из мафиози» — a special one if no ordinary is left
    if yakuza:
        # D-H9 (5): the mafia gets the larger half.
        deck["yakuza"] = mafiosi // 2
        mafiosi -= mafiosi // 2
    deck["mafioso"] = mafiosi
    if deck["civilian"] < 0:
        raise IllegalCommand("Особых ролей больше, чем мирных жителей.", key="specials-over-civilians")
    return {r: n for r, n in sorted(deck.items()) if n > 0}, warnings


@composer("hobbyworld")
def _deal_table(ruleset: Ruleset, players: int) -> dict[str, int]:
    """The deck for dealing: the preset's parameters, as the selected options set them."""
    params = ruleset.params
    deck, _ = pick_composition(
        ruleset,
        players,
        leader=params.get("leader", "detective") or None,
        special_civilians=_range_choice(params.get("specials", "min"), ruleset, players, 2, 3),
        special_mafiosi=_range_choice(params.get("specials", "min"), ruleset, players, 5, 6),
        loner=params.get("loner") or None,
        yakuza=bool(params.get("yakuza", False)),
    )
    return deck


def _range_choice(which: str, ruleset: Ruleset, players: int, low: int, high: int) -> int:
    row = table_row(ruleset, players)
    if bool(ruleset.params.get("yakuza", False)) and low == 5:
        return 0
    return row[high] if which == "max" else row[low]


@seat_check("hobbyworld")
def _seats_by_the_book(ruleset: Ruleset, roles: Sequence[str]) -> tuple[str, str] | None:
    """A game record's seats against the book's rules that are not advice: six players or more, one leader,
    one loner, the yakuza from twelve players. (The table's ranges, «около трети» special roles and the
    yakuza game without loners or special mafiosi are not checked: the book's own journalist example
    puts «крёстный отец и якудза» in one game.)"""
    params = ruleset.params
    if len(roles) < 6:
        return (
            f"{len(roles)} player(s): the book's game is for six or more",
            "000: «Для игры вам понадобится компания из шести и больше человек»",
        )
    leaders = [r for r in roles if r in params.get("leaders", ())]
    if len(leaders) > 1:
        return (
            f"{len(leaders)} leaders ({', '.join(leaders)})",
            "000: «В игре может быть только один лидер»",
        )
    loners = [r for r in roles if r in params.get("loners", ())]
    if len(loners) > 1:
        return (
            f"{len(loners)} loners ({', '.join(loners)})",
            "000: «В игре может быть только один одиночка»",
        )
    if "yakuza" in roles and len(roles) < 12:
        return (
            f"the yakuza at a table of {len(roles)}",
            "000: «Якудза может использоваться в игре по следующим правилам. Во-первых, игроков должно "
            "быть 12 и больше»",
        )
    return None
