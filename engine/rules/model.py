"""The typed, validated form of a ruleset. Built only by :mod:`engine.rules.loader`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Seating = dict[str, tuple[int, ...]]  # role or team id -> seats, ascending
DealMemo = tuple[Seating, Seating, dict[str, Any]]  # by role, by team, other facts of one deal


@dataclass(frozen=True, slots=True)
class AbilityDef:
    """One ability of a role: a registered kind plus its parameters."""

    kind: str
    step: str
    optional: bool = True
    self_target: str = "never"  # "never" | "always" | "once"
    not_same_twice: bool = False  # not the same target two nights running
    uses: int = 0  # per game; 0 = unlimited
    from_night: int = 1
    targets: int = 1
    act: str = ""  # name of the choice where a role chooses between abilities at one step
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RoleDef:
    id: str
    side: str
    display: str
    description: str = ""
    team: str = ""  # the team the role wakes with (group kill, acquaintance)
    status: str = "honest"  # what a status check sees: "mafia" | "honest"
    night_immune: bool = False
    abilities: tuple[AbilityDef, ...] = ()
    joins_team_on_loss: bool = False  # classic werewolf (D-CL7)
    reveal_on_leave: bool = False  # city maniac: revealed even where roles stay hidden
    counts_for_win: bool = True  # classic lawyer is an ally, not a clan member (D-CL5)
    impostor: bool = False  # wakes with its team and poses as a member (sleepwalker, D-H7)
    lives: int = 1  # kill attempts it takes to kill him (blood ghoul: 2, D-B6)


@dataclass(frozen=True, slots=True)
class TeamDef:
    """A group woken together that may kill as one (mafia, yakuza, hunters)."""

    id: str
    side: str
    kill_step: str = ""
    tie: str = "miss"  # "miss" | "leader" (the leader's proposal breaks ties) | "designate" (city D-C10)
    leader: str = ""  # role id of the leader (simple don): if blocked, the team misses
    show_roles: bool = False  # members see each other's roles (city)
    show_leader: bool = False  # members see who the leader is (simple)
    chat: bool = False  # the members talk in a private text chat while the team is awake (city D-G12)


@dataclass(frozen=True, slots=True)
class StepDef:
    """A night step: a role or a team is woken, may act, and sleeps."""

    id: str
    role: str = ""
    team: str = ""
    wake: str = ""  # phrase ids
    sleep: str = ""
    kind: str = "act"  # "act" | "meet" (acquaintance, no action)
    from_night: int = 1
    phase: str = ""  # the steps phase it belongs to where a cycle has several (blood: dawn, day, sunset)
    shows: str = ""  # a meet step of a role: the team whose members it is shown (mafia judge, D-CL9)


@dataclass(frozen=True, slots=True)
class VotingDef:
    tally: str = "plurality"  # registered tally rule
    abstain: str = "allowed"  # "allowed" | "last_candidate"
    ties: str = "none"  # registered tie chain
    min_candidates: int = 1
    self_nomination: bool = True
    self_vote: bool = True
    nominations_per_player: int = 1
    no_candidates: str = "no_vote"  # "no_vote" | "everyone"
    foul_refusals: bool = False  # a self-nomination, self-vote or second vote is refused with a foul (D-F2)
    withdraw: bool = False  # a voter may lower his hand until the candidate's count closes (D-CL3)


@dataclass(frozen=True, slots=True)
class ConductDef:
    kind: str = "none"  # "none" | "fouls" | "bans"
    thresholds: Mapping[int, str] = field(
        default_factory=dict
    )  # count -> "no_speech" | "no_vote" | "removed"
    daily_reset: bool = False
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    title: str
    source: str
    sides: tuple[str, ...]
    roles: Mapping[str, RoleDef]
    teams: Mapping[str, TeamDef]
    night_steps: tuple[StepDef, ...]
    intro_night: tuple[StepDef, ...]
    cycle: tuple[str, ...]  # as written, e.g. ("day", "night"); the order played: intro_phases, loop_phases
    day_first: tuple[str, ...]
    day_normal: tuple[str, ...]
    voting: VotingDef
    timers: Mapping[str, int]
    compositions: Mapping[int, Mapping[str, int]]
    composition_extras: tuple[str, ...]
    composition_split: Mapping[str, str]
    win_check: str
    night_deaths: str  # "end_of_night" | "immediate"
    call_dead_roles: bool  # D-G8
    reveal_on_vote: bool
    reveal_on_night_death: bool
    phrases: Mapping[str, str]
    conduct: ConductDef
    options: Mapping[str, str]  # option name -> description (available options)
    selected_options: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)
    night_resolution: str = "standard"  # registered dawn resolution
    blocks_known: bool = False  # a blocked role is told so at its wake-up and cannot act (city D-C7)
    # The phases by name: those played once at the start, then the ones that repeat, and the kind of
    # each ("talk": discussion and vote, like a day; "steps": roles woken in turn, like a night).
    intro_phases: tuple[str, ...] = ("night",)
    loop_phases: tuple[str, ...] = ("day", "night")
    phase_kinds: Mapping[str, str] = field(default_factory=lambda: {"night": "steps", "day": "talk"})
    # What players call each phase («Ночь», blood's «Рассвет»), and a few sentences on the game for
    # `/mafia rules`, both in Russian.
    phase_names: Mapping[str, str] = field(default_factory=lambda: {"day": "День", "night": "Ночь"})
    summary: str = ""
    # Lookups derived from the fields above, built on first use (a ruleset never changes once loaded).
    # Keys: names (str) of the lookups, and the deals (tuples of role ids) whose seats were looked up.
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # The two lookups read at almost every night step, kept as fields of their own rather than behind
    # lookups(name), as tables of tables (no key tuple to build and hash): the night's plan by
    # [intro][step id] (engine.flow.next_night_step) and a role's abilities at a step by [role][step id]
    # (engine.abilities.abilities_now).
    night_plan: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    abilities_now: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # The busiest events of the preset, kept by what varies within it (its phrases do not): a host's line
    # without placeholders by its key (engine.announce.line) and a speech's call by [round][seconds][seat]
    # (engine.flow.announce_speech).
    lines: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    speeches: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    # night_step's answers by step id, of the night and of the intro night (filled on first use): a step's
    # close and its acts read them without the method's call.
    night_by_id: dict[str, StepDef] = field(default_factory=dict, init=False, repr=False, compare=False)
    intro_by_id: dict[str, StepDef] = field(default_factory=dict, init=False, repr=False, compare=False)
    # timer's answers by key (a speech's end reads the next speech's length there, without the call).
    seconds: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # step_index's answers: each night step's position in the night order (filled on first use).
    night_index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # The deal looked up last with its memo, [(roles, DealMemo)]: a game asks about its own deal ≈ 60 times,
    # and the tuple of its roles (the state's, the same object all game) is told by identity, without the
    # hash of a dozen strings that the memo's key costs (≈ 1,400 instructions a lookup, measured).
    # engine.seats.holders_of reads it itself (a call less at every night step).
    last_deal: list[Any] = field(
        default_factory=lambda: [(None, None)], init=False, repr=False, compare=False
    )
    # idle_steps' answer once worked out ([None] before): a night step's resolution reads it without the call.
    idle_kept: list[Any] = field(default_factory=lambda: [None], init=False, repr=False, compare=False)

    def phase_at(self, position: int) -> str:
        """The name of the ``position``-th phase of a game (0: the first intro phase)."""
        if position < len(self.intro_phases):
            return self.intro_phases[position]
        return self.loop_phases[(position - len(self.intro_phases)) % len(self.loop_phases)]

    def talks(self, phase: str) -> bool:
        """A talking and voting phase (a day), as opposed to a phase of role steps (a night)."""
        return self.phase_kinds[phase] == "talk"

    def phrase(self, key: str) -> str | None:
        return self.phrases.get(key)

    def timer(self, key: str) -> int:
        """The timer ``key`` in whole seconds (30 where the preset names none), kept in ``seconds``."""
        found = self.seconds.get(key)
        if found is None:
            found = self.seconds[key] = int(self.timers.get(key, 30))
        return found

    def ability_for_step(self, role_id: str, step_id: str) -> tuple[AbilityDef, ...]:
        table: dict[tuple[str, str], tuple[AbilityDef, ...]] | None = self._memo.get("abilities")
        if table is None:
            table = self._memo["abilities"] = {}
        found = table.get((role_id, step_id))
        if found is None:
            mine = []  # a loop: a generator would make step_id a cell at every call
            for a in self.roles[role_id].abilities:
                if a.step == step_id:
                    mine.append(a)
            found = table[role_id, step_id] = tuple(mine)
        return found

    def lookups(self, name: str) -> dict[Any, Any]:
        """A table kept with the ruleset, under ``name``, for lookups the engine derives from it alone."""
        table: dict[Any, Any] | None = self._memo.get(name)
        if table is None:
            table = self._memo[name] = {}
        return table

    def joining_roles(self) -> tuple[str, ...]:
        """Roles that join a team when it loses a member (the classic werewolf, D-CL7)."""
        found: tuple[str, ...] | None = self._memo.get("joining_roles")
        if found is None:
            found = self._memo["joining_roles"] = tuple(
                r for r, d in self.roles.items() if d.joins_team_on_loss
            )
        return found

    def killing_teams(self) -> tuple[tuple[str, TeamDef], ...]:
        """(id, team) of the teams with a kill step, in the ruleset's order."""
        found: tuple[tuple[str, TeamDef], ...] | None = self._memo.get("killing_teams")
        if found is None:
            found = self._memo["killing_teams"] = tuple((i, t) for i, t in self.teams.items() if t.kill_step)
        return found

    def idle_steps(self) -> frozenset[str]:
        """Ids of the night steps with an ability that names what happens to an idle actor (``if_idle``)."""
        found: frozenset[str] | None = self.idle_kept[0]
        if found is None:
            found = self.idle_kept[0] = frozenset(
                a.step for r in self.roles.values() for a in r.abilities if a.params.get("if_idle")
            )
        return found

    def night_agenda(self, phase: str, intro: bool = False) -> tuple[str, ...]:
        """Ids of the steps called in a phase of steps named ``phase``, in order (every step of the intro
        night; otherwise the steps of that phase and those of no particular phase)."""
        table: dict[tuple[str, bool], tuple[str, ...]] | None = self._memo.get("agendas")
        if table is None:
            table = self._memo["agendas"] = {}
        found = table.get((phase, intro))
        if found is None:
            steps = self.intro_night if intro else self.night_steps
            ids = []  # a loop: a generator would make phase and intro cells at every call
            for st in steps:
                if intro or st.phase in ("", phase):
                    ids.append(st.id)
            found = table[phase, intro] = tuple(ids)
        return found

    def team_step_ids(self) -> frozenset[str]:
        """Ids of the night steps where a team chooses."""
        found: frozenset[str] | None = self._memo.get("team_step_ids")
        if found is None:
            found = self._memo["team_step_ids"] = frozenset(st.id for st in self.night_steps if st.team)
        return found

    def night_step(self, step_id: str, intro: bool = False) -> StepDef:
        """The first step called ``step_id`` of the night (of the intro night if ``intro``); like a scan
        of the steps, StopIteration if there is none."""
        step = (self.intro_by_id if intro else self.night_by_id).get(step_id)
        if step is None:
            return self._night_step_by_scan(step_id, intro)
        return step

    def _night_step_by_scan(self, step_id: str, intro: bool) -> StepDef:
        """night_step on a first call (the table is filled) or for an unknown id (StopIteration)."""
        table = self.intro_by_id if intro else self.night_by_id
        for st in self.intro_night if intro else self.night_steps:
            table.setdefault(st.id, st)
        step = table.get(step_id)
        if step is None:
            raise StopIteration
        return step

    def step_index(self, step_id: str) -> int:
        """The position of ``step_id`` in the night order (StopIteration if it is not a night step). The
        table is kept as ``night_index`` (filled here on first use), which a night step's close reads."""
        table = self.night_index
        if not table:
            filled: dict[str, int] = {}
            for i, st in enumerate(self.night_steps):
                filled.setdefault(st.id, i)
            table.update(filled)  # at once: a reader never sees it half filled
        index = table.get(step_id)
        if index is None:
            raise StopIteration
        return index

    def seats_by_role(self, roles: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
        """The seats (ascending) dealt each role of ``roles`` (roles[i] is seat i + 1's role)."""
        last = self.last_deal[0]
        if roles is last[0]:
            return last[1][0]  # type: ignore[no-any-return]
        return self._seating(roles)[0]

    def seats_by_team(self, roles: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
        """The seats (ascending) whose dealt role wakes with each team (a joined werewolf not counted)."""
        last = self.last_deal[0]
        if roles is last[0]:
            return last[1][1]  # type: ignore[no-any-return]
        return self._seating(roles)[1]

    def deal_facts(self, roles: tuple[str, ...]) -> dict[str, Any]:
        """A scratch memo for facts that follow from the ruleset and the deal alone (the roles dealt never
        change during a game): the engine stores such facts here under names of its own."""
        last = self.last_deal[0]
        if roles is last[0]:
            return last[1][2]  # type: ignore[no-any-return]
        return self._seating(roles)[2]

    def seating(self, roles: tuple[str, ...]) -> DealMemo:
        """The deal's memo: the seats of each role and of each team, and its other facts (deal_facts)."""
        last = self.last_deal[0]
        if roles is last[0]:
            return last[1]  # type: ignore[no-any-return]
        return self._seating(roles)

    def _seating(self, roles: tuple[str, ...]) -> DealMemo:
        deals: list[tuple[str, ...]] | None = self._memo.get("deals")
        if deals is None:
            deals = self._memo["deals"] = []
        found: DealMemo | None = self._memo.get(roles)
        if found is None:
            by_role: dict[str, list[int]] = {}
            by_team: dict[str, list[int]] = {}
            for seat, role in enumerate(roles, start=1):
                by_role.setdefault(role, []).append(seat)
                team = self.roles[role].team
                by_team.setdefault(team, []).append(seat)
            found = (
                {r: tuple(seats) for r, seats in by_role.items()},
                {t: tuple(seats) for t, seats in by_team.items()},
                {},
            )
            if len(deals) >= 4096:  # a bound on the memory of a long simulation of many deals
                for old in deals:
                    del self._memo[old]
                deals.clear()
            deals.append(roles)
            self._memo[roles] = found
        self.last_deal[0] = (roles, found)  # one store: a reader sees the old pair or the new one
        return found
