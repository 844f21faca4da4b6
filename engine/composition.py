"""Compositions: which roles are dealt for a number of players (the preset's table plus options)."""

from __future__ import annotations

from engine.errors import IllegalCommand
from engine.rules import Ruleset


def player_counts(ruleset: Ruleset) -> list[int]:
    """The table sizes the preset deals for (a composer that deals other sizes lists them in
    ``params.players``)."""
    counts = ruleset.params.get("players")
    if counts:
        return sorted(int(n) for n in counts)
    return sorted(ruleset.compositions)


def composition(ruleset: Ruleset, players: int) -> dict[str, int]:
    """The preset's table for ``players``; each extra role of the selected options replaces one
    civilian (D-CL1), and a split moves the smaller half of one role to another (the yakuza clan)."""
    picker = ruleset.params.get("composer")
    if picker:
        from engine.registry import COMPOSERS

        result: dict[str, int] = COMPOSERS[picker](ruleset, players)
        return result
    table = ruleset.compositions.get(players)
    if table is None:
        counts = ", ".join(str(n) for n in player_counts(ruleset))
        raise IllegalCommand(
            f"Эти правила рассчитаны на {counts} игроков, а не на {players}.",
            key="players-for-rules",
            counts=counts,
            players=players,
        )
    out = dict(table)
    for source, target in ruleset.composition_split.items():
        total = out.get(source, 0)
        moved = total // 2
        if moved < 2:
            raise IllegalCommand(
                f"Слишком мало ролей «{source}», чтобы выделить «{target}».",
                key="too-few-to-split",
                source=source,
                target=target,
            )
        out[source] = total - moved
        out[target] = out.get(target, 0) + moved
    for extra in ruleset.composition_extras:
        if extra in out and extra in ruleset.composition_split.values():
            continue
        if extra == "ninja" and not out.get("yakuza"):
            # D-CL1: «the ninja, if enabled, is one of the yakuza» («вместе с вариантом «якудза»»).
            raise IllegalCommand(
                "Ниндзя играет только в клане якудза: включите вариант «якудза».", key="ninja-needs-yakuza"
            )
        replaced = "yakuza" if extra == "ninja" else "civilian"
        if out.get(replaced, 0) < 1:
            raise IllegalCommand(
                f"Нет места для роли «{extra}» при {players} игроках.",
                key="no-seat-for-role",
                extra=extra,
                players=players,
            )
        out[replaced] -= 1
        out[extra] = out.get(extra, 0) + 1
    return {r: n for r, n in out.items() if n > 0}
