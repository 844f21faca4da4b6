"""DAVE (protocol version 1) as Discord's voice gateway runs it: the delivery service of each voice
channel's MLS group (see daveprotocol.com, "Group Key Exchange" and "Voice Gateway Opcodes").

The gateway sends its external sender package, turns each key package into an Add proposal and each
departure into a Remove, picks the first valid commit of an epoch, sends it to the members
(dave_mls_announce_commit_transition) and each welcomed member its own welcome, and executes the
transition once every member is ready. A sole remaining member is reset (prepare_epoch with epoch 1).

Members are the bot's voice connections and simulated listeners (`e2ee.py`).
Events from members are handled one at a time by one task per channel, as they would arrive in order
at one gateway; a listener's answers (its commit, its readiness) go back through the same queue.
"""

from __future__ import annotations

import asyncio
import struct
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from . import mls

PROTOCOL_VERSION = 1
# Voice gateway opcodes used by DAVE
CLIENTS_CONNECT, CLIENT_DISCONNECT = 11, 13
PREPARE_TRANSITION, EXECUTE_TRANSITION, READY_FOR_TRANSITION, PREPARE_EPOCH = 21, 22, 23, 24
EXTERNAL_SENDER, KEY_PACKAGE, PROPOSALS, COMMIT_WELCOME = 25, 26, 27, 28
ANNOUNCE_COMMIT, WELCOME, INVALID_COMMIT_WELCOME = 29, 30, 31
APPEND, REVOKE = 0, 1
DAVE_MAGIC = b"\xfa\xfa"  # the last two bytes of every DAVE-encrypted frame


class Member:
    """One client in a channel's media session: how the gateway sends it DAVE messages."""

    user_id: int

    async def send_json(self, op: int, data: dict[str, Any]) -> None:
        raise NotImplementedError

    async def send_binary(self, op: int, body: bytes) -> None:
        raise NotImplementedError


@dataclass
class _Proposal:
    ref: bytes
    message: bytes
    adds: int | None = None  # user id added
    removes: int | None = None  # leaf index removed


@dataclass
class _Transition:
    transition_id: int
    waiting: set[int]
    members: list[int]


@dataclass
class MediaSession:
    """The DAVE group of one voice channel, as the voice gateway knows it."""

    channel_id: int
    sender: mls.ExternalSender
    report_error: Callable[[str], None]
    notify: Callable[[], None]
    members: dict[int, Member] = field(default_factory=dict)  # connected, by user id
    key_packages: dict[int, mls.KeyPackage] = field(default_factory=dict)  # pending members
    leaves: list[int | None] = field(default_factory=list)  # the established group's leaves
    epoch: int = 0
    proposals: list[_Proposal] = field(default_factory=list)  # in flight this epoch, unrevoked
    sent: dict[int, set[bytes]] = field(default_factory=dict)  # proposal refs each member was sent
    stale: set[int] = field(default_factory=set)  # flagged an invalid commit: removed, then re-added
    transition: _Transition | None = None
    next_transition_id: int = 1
    commits_announced: int = 0
    commits_ignored: int = 0  # late (another won the epoch) or invalid
    transitions_executed: list[int] = field(default_factory=list)
    events: asyncio.Queue[tuple[Callable[..., Awaitable[None]], tuple[Any, ...]]] = field(
        default_factory=asyncio.Queue
    )
    worker: asyncio.Task[None] | None = None

    @property
    def group_id(self) -> bytes:
        return struct.pack(">Q", self.channel_id)  # davey and libdave name the group by channel id

    @property
    def established(self) -> bool:
        return any(leaf is not None for leaf in self.leaves)

    def in_group(self) -> list[int]:
        return [user for user in self.leaves if user is not None]

    # -- events in, one at a time -------------------------------------------------------------------

    def post(self, handler: Callable[..., Awaitable[None]], *args: Any) -> None:
        self.events.put_nowait((handler, args))
        if self.worker is None or self.worker.done():
            self.worker = asyncio.create_task(self._work(), name=f"DAVE group {self.channel_id}")

    async def _work(self) -> None:
        while not self.events.empty():
            handler, args = self.events.get_nowait()
            try:
                await handler(*args)
            except Exception:
                self.report_error(f"DAVE: {traceback.format_exc()}")
            self.notify()

    async def idle(self) -> None:
        """Returns once every event posted so far has been handled."""
        while self.worker is not None and not self.worker.done():
            await asyncio.shield(self.worker)

    # -- handlers -------------------------------------------------------------------------------------

    async def join(self, member: Member) -> None:
        others = list(self.members)
        self.members[member.user_id] = member
        if others:
            await member.send_json(CLIENTS_CONNECT, {"user_ids": [str(u) for u in others]})
        for other in others:
            await self.members[other].send_json(CLIENTS_CONNECT, {"user_ids": [str(member.user_id)]})
        await member.send_binary(EXTERNAL_SENDER, self.sender.package())

    async def key_package(self, user_id: int, data: bytes) -> None:
        if user_id not in self.members:
            return
        package = mls.parse_key_package(data)
        if package.user_id != user_id or package.not_after != 2**64 - 1:
            raise mls.MLSError(f"key package of {package.user_id} from {user_id}: wrong user or lifetime")
        replaced = self.key_packages.get(user_id)
        self.key_packages[user_id] = package
        if replaced is not None:
            await self._revoke([p for p in self.proposals if p.adds == user_id])
        await self._propose()

    async def leave(self, user_id: int) -> None:
        if self.members.pop(user_id, None) is None:
            return
        self.key_packages.pop(user_id, None)
        for other in self.members.values():
            await other.send_json(CLIENT_DISCONNECT, {"user_id": str(user_id)})
        await self._revoke([p for p in self.proposals if p.adds == user_id])
        if self.transition is not None:
            self.transition.waiting.discard(user_id)
            await self._maybe_execute()
        await self._propose()

    async def commit(self, user_id: int, data: bytes) -> None:
        commit = mls.parse_commit_welcome(data)
        expected = {p.ref for p in self.proposals if p.adds != user_id}
        if (
            self.transition is not None
            or user_id not in self.members
            or commit.group_id != self.group_id
            or commit.epoch != self.epoch
            or not commit.proposal_refs
            or set(commit.proposal_refs) != expected
            or len(commit.proposal_refs) != len(expected)
        ):
            self.commits_ignored += 1
            return
        by_ref = {p.ref: p for p in self.proposals}
        before = self.in_group() if self.established else [user_id]
        leaves = list(self.leaves) if self.established else [user_id]
        if commit.committer_leaf >= len(leaves) or leaves[commit.committer_leaf] != user_id:
            self.commits_ignored += 1
            return
        removed_users = set()
        for ref in commit.proposal_refs:  # removes first, then adds, as RFC 9420 §12.3 orders them
            removed = by_ref[ref].removes
            if removed is not None:
                removed_users.add(leaves[removed])
                leaves[removed] = None
        added = [by_ref[ref].adds for ref in commit.proposal_refs if by_ref[ref].adds is not None]
        for user in added:
            blank = next((i for i, leaf in enumerate(leaves) if leaf is None), len(leaves))
            leaves[blank : blank + 1] = [user]
        while leaves and leaves[-1] is None:
            leaves.pop()
        welcomes = {}
        for user in added:
            assert user is not None
            if commit.welcome is None:
                self.commits_ignored += 1
                return
            welcomes[user] = mls.welcome_for(commit.welcome, self.key_packages[user].ref)
        # The commit wins the epoch.
        transition_id = self.next_transition_id
        self.next_transition_id = transition_id % 0xFFFF + 1
        self.leaves, self.epoch, self.proposals, self.sent = leaves, self.epoch + 1, [], {}
        self.stale -= removed_users
        # Members that stay get the commit; the added (or removed and re-added) only their welcome.
        stay = [u for u in before if u in leaves and u in self.members and u not in removed_users]
        self.transition = _Transition(transition_id, set(stay) | set(welcomes), stay + list(welcomes))
        self.commits_announced += 1
        for user in [user_id, *added]:
            self.key_packages.pop(user, None)
        for user in stay:
            await self.members[user].send_binary(
                ANNOUNCE_COMMIT, struct.pack(">H", transition_id) + commit.message
            )
        for user, welcome in welcomes.items():
            if user in self.members:
                await self.members[user].send_binary(WELCOME, struct.pack(">H", transition_id) + welcome)

    async def ready(self, user_id: int, transition_id: int) -> None:
        if self.transition is not None and self.transition.transition_id == transition_id:
            self.transition.waiting.discard(user_id)
            await self._maybe_execute()

    async def invalid(self, user_id: int, transition_id: int) -> None:
        """dave_mls_invalid_commit_welcome: the member goes back to pending, removed from the group."""
        self.key_packages.pop(user_id, None)  # it sends a new one
        if user_id in self.in_group():
            self.stale.add(user_id)
        if self.transition is not None:
            self.transition.waiting.discard(user_id)
            await self._maybe_execute()
        await self._propose()

    # -- the gateway's own moves ----------------------------------------------------------------------

    async def _maybe_execute(self) -> None:
        transition = self.transition
        if transition is None or transition.waiting:
            return
        self.transition = None
        for user in transition.members:
            if user in self.members:
                await self.members[user].send_json(
                    EXECUTE_TRANSITION, {"transition_id": transition.transition_id}
                )
        self.transitions_executed.append(transition.transition_id)
        await self._propose()

    async def _revoke(self, proposals: list[_Proposal]) -> None:
        if not proposals:
            return
        self.proposals = [p for p in self.proposals if p not in proposals]
        for user in self._proposal_receivers():
            refs = [p.ref for p in proposals if p.ref in self.sent.get(user, set())]
            if refs:
                body = bytes([REVOKE]) + mls.vec(b"".join(mls.vec(ref) for ref in refs))
                await self.members[user].send_binary(PROPOSALS, body)

    def _proposal_receivers(self) -> list[int]:
        if self.established:  # not a flagging member: it dropped the group (davey would raise on them)
            return [user for user in self.in_group() if user in self.members and user not in self.stale]
        return list(self.key_packages)  # every pending member has a local group of its own

    async def _propose(self) -> None:
        """Proposes what the group lacks: Add for pending members, Remove for departed ones."""
        if self.transition is not None:
            return  # after the transition
        connected_in_group = [user for user in self.in_group() if user in self.members]
        if self.established and len(connected_in_group) <= 1:
            await self._reset(connected_in_group)
            return
        new: list[_Proposal] = []
        proposed_adds = {p.adds for p in self.proposals}
        proposed_removes = {p.removes for p in self.proposals}
        if self.established:
            for leaf, user in enumerate(self.leaves):
                gone = user is not None and (user not in self.members or user in self.stale)
                if gone and leaf not in proposed_removes:
                    message, ref = self.sender.remove(self.group_id, self.epoch, leaf)
                    new.append(_Proposal(ref, message, removes=leaf))
        for user, package in self.key_packages.items():
            if user not in proposed_adds and (user not in self.in_group() or user in self.stale):
                message, ref = self.sender.add(self.group_id, self.epoch, package)
                new.append(_Proposal(ref, message, adds=user))
        self.proposals.extend(new)
        for user in self._proposal_receivers():
            # Before a group exists each pending member gets the adds of the others, in flight or new.
            sent = self.sent.setdefault(user, set())
            batch = [p for p in self.proposals if p.ref not in sent and p.adds != user]
            if batch:
                sent.update(p.ref for p in batch)
                body = bytes([APPEND]) + mls.vec(b"".join(p.message for p in batch))
                await self.members[user].send_binary(PROPOSALS, body)

    async def _reset(self, remaining: list[int]) -> None:
        """Sole member reset: nobody keeps control of an established group alone."""
        self.leaves, self.epoch, self.proposals, self.sent, self.stale = [], 0, [], {}, set()
        for user in remaining:
            self.key_packages.pop(user, None)
            member = self.members[user]
            await member.send_json(PREPARE_EPOCH, {"protocol_version": PROTOCOL_VERSION, "epoch": 1})
            await member.send_json(
                PREPARE_TRANSITION, {"protocol_version": PROTOCOL_VERSION, "transition_id": 0}
            )
        await self._propose()
