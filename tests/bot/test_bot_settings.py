"""Settings, the command line and logs: no Discord needed."""

from __future__ import annotations

import io
import logging
import sys
import types
from pathlib import Path

import pytest

import mafiabot.__main__ as cli
from mafiabot.__main__ import main
from mafiabot.config import ConfigError, Secret, load_settings
from mafiabot.logs import ContextFilter, JsonFormatter, RedactFilter, TextFormatter, log_context

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_example_config_loads_and_documents_every_section() -> None:
    settings = load_settings(EXAMPLE, environ={})
    assert settings.database_url == "sqlite:///mafiabot.db"
    assert settings.audio.engine == "gtts" and settings.game.default_preset == "classic"
    assert not settings.token
    text = EXAMPLE.read_text(encoding="utf-8")
    for section in ("[bot]", "[database]", "[audio]", "[game]", "[voice]"):
        assert section in text


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ntoken = "from-file"\nguilds = [1]\n[database]\nurl = "sqlite:///a.db"\n')
    environ = {
        "MAFIABOT_TOKEN": "from-env",
        "MAFIABOT_GUILDS": "2, 3",
        "MAFIABOT_DATABASE_URL": "sqlite:///b.db",
    }
    settings = load_settings(config, environ)
    assert settings.token == Secret("from-env")
    assert settings.guild_ids == (2, 3)
    assert settings.database_url == "sqlite:///b.db"
    assert load_settings(config, {}).token.get() == "from-file"


def test_helper_tokens_come_from_the_file_or_the_environment_and_never_show(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[voice]\nhelper_tokens = ["helper-one", "helper-two"]\n')
    settings = load_settings(config, {"MAFIABOT_TOKEN": "main-token"})
    assert [t.get() for t in settings.helper_tokens] == ["helper-one", "helper-two"]
    from_env = load_settings(config, {"MAFIABOT_HELPER_TOKENS": "env-one, env-two"})
    assert [t.get() for t in from_env.helper_tokens] == ["env-one", "env-two"]
    assert "helper-one" not in repr(settings) and "helper-two" not in str(settings)
    assert settings.secrets() == ["main-token", "helper-one", "helper-two"]  # all redacted in the log


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"MAFIABOT_HELPER_TOKENS": "a,a"}, "MAFIABOT_HELPER_TOKENS: Value error, the same token twice"),
        (
            {"MAFIABOT_TOKEN": "main", "MAFIABOT_HELPER_TOKENS": "main"},
            "MAFIABOT_HELPER_TOKENS: holds the bot's own token",
        ),
    ],
)
def test_a_helper_token_twice_or_the_bot_s_own_is_refused(environ: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(Path("missing.toml"), environ)
    assert named in str(info.value), str(info.value)
    assert "main" not in str(info.value).replace("token", "")  # the message never quotes a token


def test_the_token_never_shows_in_a_repr() -> None:
    settings = load_settings(Path("missing.toml"), {"MAFIABOT_TOKEN": "sekrit-token"})
    assert "sekrit-token" not in repr(settings) and "sekrit-token" not in str(settings)


@pytest.mark.parametrize(
    ("content", "named"),
    [
        (
            '[audio]\nengine = "festival"\n',
            "[audio] engine: Input should be 'gtts', 'offline', 'rhvoice', 'espeak' or 'none'",
        ),
        ("[audio]\nvolume = 5\n", "[audio] volume: Input should be less than or equal to 2"),
        ('[bot]\nguilds = ["x"]\n', "[bot] guilds.0: Input should be a valid integer"),
        ('[bot]\nlog_level = "LOUD"\n', "[bot] log_level: Input should be 'DEBUG'"),
        (
            '[bot]\nevent_loop = "trio"\n',
            "[bot] event_loop: Input should be 'auto', 'asyncio' or 'uvloop'",
        ),
        ("[game]\nspeed = 1\n", "[game] speed: unknown key"),
        ('[bot]\nlanguage = "ru"\n', "[bot] language: unknown key"),
        (
            "[game]\nspeech_seconds = 2\n",
            "[game] speech_seconds: Input should be greater than or equal to 10",
        ),
        ('[game]\nnight_action_seconds = "fast"\n', "[game] night_action_seconds: Input should be a valid"),
        ('[game]\ndefault_preset = "chess"\n', "[game] default_preset: 'chess' is none of blood, city"),
        ('[game]\nvariants = ["nowhere.toml"]\n', "[game] variants[0]: "),
        ("[colour]\nred = 1\n", "[colour]: unknown key"),
    ],
)
def test_invalid_values_are_reported_with_their_key(tmp_path: Path, content: str, named: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(content)
    with pytest.raises(ConfigError) as info:
        load_settings(config, {})
    assert named in str(info.value), str(info.value)


def test_a_bad_environment_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as info:
        load_settings(tmp_path / "none.toml", {"MAFIABOT_LOG_FORMAT": "xml", "MAFIABOT_GUILDS": "1,x"})
    message = str(info.value)
    assert "MAFIABOT_LOG_FORMAT: Input should be 'text' or 'json'" in message, message
    assert "MAFIABOT_GUILDS" in message and "[bot]" not in message


def test_shards_are_checked_and_split_processes_need_postgresql(tmp_path: Path) -> None:
    none = tmp_path / "none.toml"
    pg = {"MAFIABOT_DATABASE_URL": "postgresql+psycopg://u:p@db/mafia"}
    settings = load_settings(none, {**pg, "MAFIABOT_SHARD_COUNT": "4", "MAFIABOT_SHARDS": "1, 3"})
    assert (settings.shard_count, settings.shard_ids, settings.sharded) == (4, (1, 3), True)
    # Discord's rule: a server is on shard (id >> 22) % shard_count.
    assert [settings.owns(shard << 22) for shard in range(4)] == [False, True, False, True]
    assert load_settings(none, {"MAFIABOT_SHARD_COUNT": "2"}).own_shards == (0, 1)  # one process, SQLite
    for environ, named in (
        ({"MAFIABOT_SHARD_COUNT": "2", "MAFIABOT_SHARDS": "2"}, "MAFIABOT_SHARDS: Value error, no shard 2"),
        ({"MAFIABOT_SHARD_COUNT": "2", "MAFIABOT_SHARDS": "1,1"}, "a shard is named twice"),
        ({"MAFIABOT_SHARD_COUNT": "0"}, "MAFIABOT_SHARD_COUNT: Input should be greater than or equal to 1"),
        ({"MAFIABOT_SHARD_COUNT": "2", "MAFIABOT_SHARDS": "1"}, "needs one PostgreSQL database"),
    ):
        with pytest.raises(ConfigError) as info:
            load_settings(none, environ)
        assert named in str(info.value), str(info.value)


def _keys(text: str) -> list[tuple[str, str, str]]:
    """(section, key, value) of every key the example documents, set or commented out."""
    found, section = [], ""
    for line in text.splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and (line[0].isalpha() or (line.startswith("# ") and line[2:3].isalpha())):
            key, _, value = line.lstrip("# ").partition(" = ")
            if key.isidentifier():
                found.append((section, key, value))
    return found


# A value other than the default for each key of config.example.toml: setting it must change the settings.
OTHER = {
    ("bot", "token"): '"t"',
    ("bot", "guilds"): "[1]",
    ("bot", "log_level"): '"DEBUG"',
    ("bot", "log_format"): '"json"',
    ("bot", "debug"): '["secrets"]',
    ("bot", "cogs"): '["mafiabot.cogs.help"]',
    ("bot", "shard_count"): "2",
    ("bot", "shards"): "[0]",
    ("bot", "requests_per_second"): "500",
    ("bot", "event_loop"): '"asyncio"',
    ("bot", "gc_freeze"): "false",
    ("bot", "gc_thaw_minutes"): "60",
    ("bot", "lean_rest"): "false",
    ("database", "url"): '"sqlite:///other.db"',
    ("audio", "engine"): '"none"',
    ("audio", "volume"): "1.5",
    ("audio", "cache_dir"): '"/tmp/clips"',
    ("game", "default_preset"): '"city"',
    ("game", "language"): '"en"',
    ("game", "speech_seconds"): "45",
    ("game", "night_action_seconds"): "20",
    ("game", "variants"): f'["{Path(__file__).resolve().parents[2] / "examples" / "club-variant.toml"}"]',
    ("voice", "helper_tokens"): '["helper-token"]',
    ("web", "enabled"): "true",
    ("web", "host"): '"0.0.0.0"',
    ("web", "port"): "8181",
    ("web", "base_url"): '"https://mafia.example.org"',
    ("web", "link_hours"): "2",
    ("web", "requests_per_minute"): "30",
    ("web", "forwarded_for"): "true",
    ("web", "secret"): '"a-long-enough-secret"',
}


def test_every_key_of_the_example_changes_the_settings(tmp_path: Path) -> None:
    """No key in config.example.toml is parsed and ignored: each one, changed, changes what the bot gets
    (what each does to a game is shown in tests/bot/test_game_settings.py)."""
    documented = _keys(EXAMPLE.read_text(encoding="utf-8"))
    assert {(s, k) for s, k, _ in documented} == set(OTHER)
    default = load_settings(tmp_path / "none.toml", {})
    for section, key, _ in documented:
        config = tmp_path / f"{section}-{key}.toml"
        config.write_text(f"[{section}]\n{key} = {OTHER[(section, key)]}\n", encoding="utf-8")
        assert load_settings(config, {}) != default, (section, key)


def test_run_without_token_explains_and_exits_non_zero(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played: list[bool] = []
    monkeypatch.setattr(cli, "_demo", lambda *_: played.append(True) or 0)
    monkeypatch.delenv("MAFIABOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)

    assert main(["run"]) == 2
    assert played == []
    err = capsys.readouterr().err
    assert "discord.com/developers/applications" in err and "MAFIABOT_TOKEN" in err
    assert main(["demo"]) == 0 and played == [True]


def test_debug_switches_are_checked_by_name(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[bot]\ndebug = ["secrets", "everything"]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"\[bot\] debug.*everything"):
        load_settings(config, {})
    assert load_settings(tmp_path / "none.toml", {"MAFIABOT_DEBUG": "secrets"}).debug == ("secrets",)


def test_the_run_script_plays_the_demo_without_a_token(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`./scripts/run` with no token configured explains how to get one, then plays the offline demo."""
    played: list[bool] = []
    monkeypatch.setattr(cli, "_demo", lambda *_: played.append(True) or 0)
    monkeypatch.delenv("MAFIABOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)

    assert main(["run", "--demo-without-token"]) == 0
    assert played == [True]
    assert "MAFIABOT_TOKEN" in capsys.readouterr().err
    script = (Path(__file__).resolve().parents[2] / "scripts" / "run").read_text(encoding="utf-8")
    assert "run --demo-without-token" in script


def test_audio_subcommand_delegates(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    cli = types.ModuleType("audio.cli")
    cli.main = lambda argv: calls.append(argv) or 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "audio.cli", cli)
    assert main(["audio", "prebuild", "--engine", "espeak"]) == 3
    assert calls == [["prebuild", "--engine", "espeak"]]


@pytest.mark.parametrize("formatter", [TextFormatter(), JsonFormatter()])
def test_logs_carry_ids_and_never_the_token(formatter: logging.Formatter) -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(ContextFilter())
    handler.addFilter(RedactFilter(["sekrit-token"]))
    logger = logging.getLogger("mafiabot.test")
    logger.addHandler(handler)
    try:
        with log_context(guild_id=11, game_id=22):
            logger.warning("login with %s failed", "sekrit-token")
        logger.warning("outside")
    finally:
        logger.removeHandler(handler)
    first, second = stream.getvalue().splitlines()
    assert "11" in first and "22" in first and "[redacted]" in first and "sekrit-token" not in first
    assert "guild_id" not in second
