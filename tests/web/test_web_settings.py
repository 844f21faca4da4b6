"""The `[web]` settings are checked like the rest of the configuration: a mistake names its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafiabot.config import ConfigError, load_settings


def _load(tmp_path: Path, text: str, environ: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_settings(path, environ or {})


def test_the_pages_are_off_by_default_and_listen_on_loopback(tmp_path: Path) -> None:
    web = _load(tmp_path, "").web
    assert not web.enabled and web.host == "127.0.0.1" and web.port == 8080
    assert web.public_url() == "http://127.0.0.1:8080"
    shown = _load(tmp_path, '[web]\nenabled = true\nbase_url = "https://mafia.example.org/"\n').web
    assert shown.public_url() == "https://mafia.example.org"  # the trailing slash is dropped


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("port = 70000", r"\[web\] port: Input should be less than or equal to 65535"),
        ('port = "web"', r"\[web\] port:"),
        ('base_url = "mafia.example.org"', r"\[web\] base_url: Value error, must be an http"),
        ('base_url = "https://x.org/?k=1"', r"\[web\] base_url:"),
        ('secret = "short"', r"\[web\] secret: Value error, must be at least 16 characters"),
        ("link_hours = 0", r"\[web\] link_hours:"),
        ('host = ""', r"\[web\] host:"),
        ("open = true", r"\[web\] open: unknown key"),
    ],
)
def test_a_mistake_names_its_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _load(tmp_path, f"[web]\n{text}\n")


def test_the_secret_comes_from_the_environment_and_never_shows(tmp_path: Path) -> None:
    settings = _load(tmp_path, "", {"MAFIABOT_WEB_SECRET": "sixteen-or-more-chars"})
    assert settings.web.secret.get() == "sixteen-or-more-chars"
    assert "sixteen" not in repr(settings) and "sixteen" not in str(settings.web)
    with pytest.raises(ConfigError, match="MAFIABOT_WEB_SECRET: Value error, must be at least 16"):
        _load(tmp_path, "", {"MAFIABOT_WEB_SECRET": "short"})
