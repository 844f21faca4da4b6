"""«Мафия. Кровная месть» (seed 003, RULESETS.md section 7): the win check and the composition picker.

Everything else of the preset is data (``presets/blood.toml``) over the pieces of `hobbyworld`, whose
rulebook part 2 of this game rewrites with substitutions (7.1): the cycle of phases, the sequential
resolution of dawn, day and sunset, the night's vote and the queen's acquittal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalCommand
from engine.kinds.hobbyworld_deck import pick_specials, table_row
from engine.registry import composer, win_check
from engine.rules.model import Ruleset
from engine.state import GameState


@win_check("blood")
def blood(s: GameState) -> Any:
    """D-B4 = D-H20 with M = hunters, T = vampires (the neophyte among them), L = the werewolf. The
    werewolf: «Он побеждает в том случае, если все игроки кроме него убиты»; prisoners count as living."""
    living = s.living()
    if not living:
        return ()
    sides = [s.ruleset.roles[s.roles[x - 1]].side for x in living]
    hunters, werewolf = sides.count("hunters"), sides.count("solo")
    vampires = len(living) - hunters - werewolf
    if werewolf and werewolf == len(living):
        return ("solo",)
    if hunters == 0 and (werewolf == 0 or not s.ruleset.params.get("town_needs_loner_dead", True)):
        return ("vampires",)
    if hunters > 0 and hunters >= vampires + werewolf:
        return ("hunters",)
    return None


def pick_composition(
    ruleset: Ruleset,
    players: int,
    *,
    lord: str = "count",
    special_vampires: int | Sequence[str] | None = None,
    special_hunters: int | Sequence[str] | None = None,
    werewolf: str | None = None,
) -> tuple[dict[str, int], list[str]]:
    """D-B3: 000's table with the columns substituted (vampires / lord / special vampires / hunters /
    special hunters); ranges default to the lower bound; «В игре может быть только один оборотень. Мы не
    рекомендуем вводить одиночку в игру, если в ней меньше десяти участников. Оборотень заменяет одного из
    охотников.» Returns the deck and the warnings the host should see."""
    vampires, lords, sv_low, sv_high, hunters, sh_low, sh_high = table_row(ruleset, players)
    params: dict[str, Any] = dict(ruleset.params)
    if lord not in params["lords"]:
        raise IllegalCommand(
            f"«{lord}» — не повелитель вампиров. Повелитель в игре только один.",
            key="not-vampire-lord",
            lord=lord,
        )
    sv = pick_specials(special_vampires, sv_low, sv_high, params["special_vampires"], "special_vampires")
    sh = pick_specials(special_hunters, sh_low, sh_high, params["special_hunters"], "special_hunters")
    warnings: list[str] = []
    deck: dict[str, int] = {lord: lords, **dict.fromkeys(sv + sh, 1)}
    deck["vampire"] = vampires - lords - len(sv)
    ordinary = hunters - len(sh)
    if werewolf:
        if werewolf not in params["werewolves"]:
            raise IllegalCommand(f"«{werewolf}» — не оборотень.", key="not-werewolf", werewolf=werewolf)
        if players < 10:
            warnings.append("Оборотня не рекомендуют вводить в игру меньше чем на десять участников.")
        deck[werewolf] = 1
        if ordinary:
            ordinary -= 1
        else:
            deck[sh[-1]] = 0  # «Оборотень заменяет одного из охотников»: a special one if no other is left
    deck["hunter"] = ordinary
    if deck["vampire"] < 0:
        raise IllegalCommand("Особых ролей больше, чем вампиров.", key="specials-over-vampires")
    return {r: n for r, n in sorted(deck.items()) if n > 0}, warnings


@composer("blood")
def _deal_table(ruleset: Ruleset, players: int) -> dict[str, int]:
    """The deck for dealing, as the preset's parameters (and the selected options) set it."""
    params = ruleset.params
    row = table_row(ruleset, players)
    most = params.get("specials", "min") == "max"
    deck, _ = pick_composition(
        ruleset,
        players,
        lord=str(params.get("lord", "count")),
        special_vampires=row[3] if most else row[2],
        special_hunters=row[6] if most else row[5],
        werewolf=str(params.get("werewolf", "")) or None,
    )
    return deck
