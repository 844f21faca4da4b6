"""A self-signed certificate for the fake voice gateway, trusted through `SSL_CERT_FILE`.

discord.py hard-codes `wss://` for voice, and aiohttp builds its default SSL context when it is
first imported, so `trust_test_certificate()` must run before anything imports aiohttp: the root
`tests/conftest.py` calls it at import time. This module must therefore not import aiohttp itself.
"""

from __future__ import annotations

import atexit
import datetime
import ipaddress
import os
import shutil
import ssl
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path
    bundle: Path  # this certificate plus the system's CAs: what SSL_CERT_FILE points at
    aiohttp_was_imported: bool  # True: too late, aiohttp will not trust the certificate

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.cert, self.key)
        return context


def _make(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "fakediscord voice")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "voice-cert.pem", directory / "voice-key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_path, key_path


_installed: Certificate | None = None


def trust_test_certificate() -> Certificate:
    """Make the certificate once per process and point SSL_CERT_FILE at a bundle that includes it."""
    global _installed
    if _installed is None:
        directory = Path(tempfile.mkdtemp(prefix="fakediscord-tls-"))
        cert, key = _make(directory)
        bundle = directory / "bundle.pem"
        atexit.register(shutil.rmtree, directory, True)
        system = os.environ.get("SSL_CERT_FILE") or ssl.get_default_verify_paths().cafile
        extra = Path(system).read_bytes() if system and Path(system).is_file() else b""
        bundle.write_bytes(cert.read_bytes() + b"\n" + extra)
        os.environ["SSL_CERT_FILE"] = str(bundle)
        _installed = Certificate(cert, key, bundle, aiohttp_was_imported="aiohttp" in sys.modules)
    return _installed
