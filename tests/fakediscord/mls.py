"""Just enough MLS (RFC 9420) for the voice gateway's part in DAVE: the external sender.

Clients (discord.py through `davey`, and the stand-in's simulated listeners) run the real MLS group.
The voice gateway never joins it: it signs Add and Remove proposals as the group's one external
sender, reads the commits members send to pick one per epoch, and cuts each welcome down to the
secrets of the member it welcomes. `davey` can only be a member (it processes proposals, it cannot
make them), so these few structures are written here with `cryptography` for the signatures.

Ciphersuite 2 (MLS_128_DHKEMP256_AES128GCM_SHA256_P256), basic credentials, public messages only.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

MLS_10 = 1
CIPHERSUITE = 2
WIRE_PUBLIC_MESSAGE, WIRE_KEY_PACKAGE = 1, 5
CONTENT_PROPOSAL, CONTENT_COMMIT = 2, 3
SENDER_MEMBER, SENDER_EXTERNAL = 1, 2
PROPOSAL_ADD, PROPOSAL_REMOVE = 1, 3
BY_VALUE, BY_REFERENCE = 1, 2
CREDENTIAL_BASIC = 1


class MLSError(ValueError):
    """A message the voice gateway cannot accept."""


def varint(n: int) -> bytes:
    """RFC 9420 §2.1.2 vector length: 1, 2 or 4 bytes, the top two bits telling which."""
    if n < 1 << 6:
        return bytes([n])
    if n < 1 << 14:
        return struct.pack(">H", 0x4000 | n)
    if n < 1 << 30:
        return struct.pack(">I", 0x80000000 | n)
    raise MLSError("vector too long")


def vec(data: bytes) -> bytes:
    return varint(len(data)) + data


def ref_hash(label: bytes, value: bytes) -> bytes:
    return hashlib.sha256(vec(b"MLS 1.0 " + label) + vec(value)).digest()


class Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise MLSError("message ends early")
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def u8(self) -> int:
        return self.take(1)[0]

    def u16(self) -> int:
        return int(struct.unpack(">H", self.take(2))[0])

    def u32(self) -> int:
        return int(struct.unpack(">I", self.take(4))[0])

    def u64(self) -> int:
        return int(struct.unpack(">Q", self.take(8))[0])

    def vec(self) -> bytes:
        first = self.u8()
        prefix = first >> 6
        if prefix == 0:
            n = first
        elif prefix == 1:
            n = (first & 0x3F) << 8 | self.u8()
        elif prefix == 2:
            n = (first & 0x3F) << 24 | int.from_bytes(self.take(3), "big")
        else:
            raise MLSError("invalid vector length")
        return self.take(n)

    def rest(self) -> bytes:
        return self.take(len(self.data) - self.at)


@dataclass
class KeyPackage:
    raw: bytes  # the KeyPackage struct as the member sent it (davey sends it without MLSMessage framing)
    user_id: int  # from the basic credential: the big-endian snowflake
    not_before: int
    not_after: int

    @property
    def ref(self) -> bytes:
        return ref_hash(b"KeyPackage Reference", self.raw)


def _skip_leaf_node(r: Reader) -> tuple[int, int, int | None]:
    """Reads a LeafNode; returns (credential type, user id, lifetime not_after or None)."""
    r.vec()  # encryption key
    r.vec()  # signature key
    credential_type = r.u16()
    if credential_type != CREDENTIAL_BASIC:
        raise MLSError("only basic credentials are allowed")
    identity = r.vec()
    for _ in range(5):  # capabilities: versions, ciphersuites, extensions, proposals, credentials
        r.vec()
    source = r.u8()
    lifetime: tuple[int, int] | None = None
    if source == 1:  # key_package
        lifetime = (r.u64(), r.u64())
    elif source == 3:  # commit
        r.vec()  # parent hash
    elif source != 2:
        raise MLSError("unknown leaf node source")
    r.vec()  # extensions
    r.vec()  # signature
    if len(identity) != 8:
        raise MLSError("a DAVE credential is a 64-bit user id")
    user_id = int.from_bytes(identity, "big")
    if lifetime is not None and lifetime[0] != 0:
        raise MLSError("key package lifetime must start at 0")
    return credential_type, user_id, None if lifetime is None else lifetime[1]


def parse_key_package(data: bytes) -> KeyPackage:
    r = Reader(data)
    if data[:4] == struct.pack(">HH", MLS_10, WIRE_KEY_PACKAGE):  # framed as an MLSMessage: unwrap
        r.take(4)
        data = data[4:]
        r = Reader(data)
    if r.u16() != MLS_10 or r.u16() != CIPHERSUITE:
        raise MLSError("key package is not MLS 1.0 with ciphersuite 2")
    r.vec()  # init key
    _, user_id, not_after = _skip_leaf_node(r)
    r.vec()  # extensions
    r.vec()  # signature
    if r.at != len(data):
        raise MLSError("trailing bytes after the key package")
    return KeyPackage(data, user_id, 0, not_after or 0)


@dataclass
class Commit:
    message: bytes  # the MLSMessage, as broadcast to members
    group_id: bytes
    epoch: int
    committer_leaf: int
    proposal_refs: list[bytes]
    welcome: bytes | None  # what followed the commit in dave_mls_commit_welcome


def parse_commit_welcome(data: bytes) -> Commit:
    """dave_mls_commit_welcome's body: an MLSMessage commit, then a Welcome when it adds members."""
    r = Reader(data)
    if r.u16() != MLS_10 or r.u16() != WIRE_PUBLIC_MESSAGE:
        raise MLSError("a commit must be an MLS 1.0 public message")
    group_id, epoch = r.vec(), r.u64()
    if r.u8() != SENDER_MEMBER:
        raise MLSError("a commit must come from a member")
    committer = r.u32()
    r.vec()  # authenticated data
    if r.u8() != CONTENT_COMMIT:
        raise MLSError("not a commit")
    proposals = Reader(r.vec())
    refs = []
    while proposals.at < len(proposals.data):
        if proposals.u8() != BY_REFERENCE:
            raise MLSError("a DAVE commit may only reference the voice gateway's proposals")
        refs.append(proposals.vec())
    if r.u8():  # an UpdatePath
        _skip_leaf_node(r)
        r.vec()  # path nodes
    r.vec()  # signature
    r.vec()  # confirmation tag
    r.vec()  # membership tag
    message = data[: r.at]
    welcome = r.rest() or None
    return Commit(message, group_id, epoch, committer, refs, welcome)


def welcome_for(welcome: bytes, key_package_ref: bytes) -> bytes:
    """The welcome with only the group secrets encrypted to one key package (as dave_mls_welcome
    sends it); raises MLSError if the welcome has none for it."""
    r = Reader(welcome)
    suite = r.u16()
    secrets = Reader(r.vec())
    group_info = r.vec()
    mine = None
    while secrets.at < len(secrets.data):
        start = secrets.at
        new_member = secrets.vec()
        secrets.vec()  # kem output
        secrets.vec()  # ciphertext
        if new_member == key_package_ref:
            mine = secrets.data[start : secrets.at]
    if mine is None:
        raise MLSError("the welcome has no secrets for this member")
    return struct.pack(">H", suite) + vec(mine) + vec(group_info)


@dataclass
class ExternalSender:
    """The voice gateway's signing identity in every DAVE group."""

    identity: bytes = b"fakediscord voice gateway"
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))

    @property
    def public_key(self) -> bytes:
        return self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def package(self) -> bytes:
        """The ExternalSender struct of dave_mls_external_sender_package."""
        return vec(self.public_key) + struct.pack(">H", CREDENTIAL_BASIC) + vec(self.identity)

    def _proposal(self, group_id: bytes, epoch: int, proposal: bytes) -> tuple[bytes, bytes]:
        """A signed PublicMessage carrying one proposal; returns (MLSMessage, its ProposalRef)."""
        content = (
            vec(group_id)
            + struct.pack(">QBI", epoch, SENDER_EXTERNAL, 0)
            + vec(b"")
            + bytes([CONTENT_PROPOSAL])
            + proposal
        )
        framing = struct.pack(">HH", MLS_10, WIRE_PUBLIC_MESSAGE)
        to_sign = vec(b"MLS 1.0 FramedContentTBS") + vec(framing + content)
        signature = self.key.sign(to_sign, ec.ECDSA(hashes.SHA256()))  # DER, as MLS uses for ECDSA
        authenticated = struct.pack(">H", WIRE_PUBLIC_MESSAGE) + content + vec(signature)
        message = struct.pack(">H", MLS_10) + authenticated  # no membership tag: not a member
        return message, ref_hash(b"Proposal Reference", authenticated)

    def add(self, group_id: bytes, epoch: int, key_package: KeyPackage) -> tuple[bytes, bytes]:
        return self._proposal(group_id, epoch, struct.pack(">H", PROPOSAL_ADD) + key_package.raw)

    def remove(self, group_id: bytes, epoch: int, leaf: int) -> tuple[bytes, bytes]:
        return self._proposal(group_id, epoch, struct.pack(">HI", PROPOSAL_REMOVE, leaf))
