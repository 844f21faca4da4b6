"""scripts/check-spec-copy: CI stops when docs/rules/ differs from the planners' rules folder, and a fresh
clone with no such folder beside it passes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
COPY = REPO / "docs" / "rules"


def _check(source: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(REPO / "scripts" / "check-spec-copy")],
        env={"PATH": "/usr/bin:/bin", "MAFIABOT_RULES_DIR": str(source)},
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_equal_source_passes(tmp_path: Path) -> None:
    for md in COPY.glob("*.md"):
        shutil.copy(md, tmp_path / md.name)
    (tmp_path / "seeds").mkdir()  # the rulebooks beside the spec are not compared
    result = _check(tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_changed_spec_file_fails_and_names_the_file(tmp_path: Path) -> None:
    for md in COPY.glob("*.md"):
        shutil.copy(md, tmp_path / md.name)
    with (tmp_path / "ANNOUNCEMENTS.md").open("a", encoding="utf-8") as f:
        f.write("| `new_phrase` | all | x | Новая фраза. | composed |\n")
    result = _check(tmp_path)
    assert result.returncode == 1
    assert "docs/rules/ANNOUNCEMENTS.md differs" in result.stderr
    assert "RULESETS.md" not in result.stderr


def test_a_new_spec_file_fails(tmp_path: Path) -> None:
    for md in COPY.glob("*.md"):
        shutil.copy(md, tmp_path / md.name)
    (tmp_path / "GLOSSARY.md").write_text("# new\n", encoding="utf-8")
    result = _check(tmp_path)
    assert result.returncode == 1 and "GLOSSARY.md" in result.stderr


def test_without_the_source_folder_the_copy_stands_alone(tmp_path: Path) -> None:
    result = _check(tmp_path / "absent")
    assert result.returncode == 0
    assert "only copy" in result.stdout
