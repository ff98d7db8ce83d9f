"""README's "A dispute, from a new file to the website", followed as written: each command run, each YAML
block added to the file, each output shown found in what the command prints, then the website built."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from checker.cli import main
from tests.conftest import ROOT, SCENARIOS, build_site

HEADING = "### A dispute, from a new file to the website"
BLOCK = re.compile(r"```(?P<kind>\w+)\n(?P<body>.*?)```", re.S)
UNPIN = "Delete the two lines of `readings:`"
PIN = "readings:\n  mcs.amb.light-with-three: light-wins\n"


def walkthrough() -> list[tuple[str, str]]:
    """The section as (kind, text) in order: 'prose' between blocks, then each block's language and body."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index(HEADING) :]
    section = section[: section.index("\n## ")]
    steps: list[tuple[str, str]] = []
    position = 0
    for block in BLOCK.finditer(section):
        steps.append(("prose", section[position : block.start()]))
        steps.append((block["kind"], block["body"]))
        position = block.end()
    steps.append(("prose", section[position:]))
    return steps


def test_the_readme_walks_a_judge_from_a_new_file_to_the_site(tmp_path: Path, monkeypatch, capsys) -> None:
    source = SCENARIOS / "my-crypto-saga" / "light-beside-three-elements.yaml"
    (tmp_path / "scenarios" / "my-crypto-saga").mkdir(parents=True)
    shutil.copy(source, tmp_path / "scenarios" / "my-crypto-saga" / source.name)
    monkeypatch.chdir(tmp_path)
    steps = walkthrough()
    kinds = [kind for kind, _ in steps if kind != "prose"]
    assert kinds.count("sh") >= 5 and kinds.count("yaml") == 2 and kinds.count("text") >= 5
    dispute: Path | None = None
    code, printed = 0, ""
    for kind, body in steps:
        if kind == "sh":
            for line in body.splitlines():
                words = shlex.split(line, comments=True)
                assert words[0] == ".venv/bin/checker", line
                if "--output" in words:
                    dispute = tmp_path / words[words.index("--output") + 1]
                code = main(words[1:])
                captured = capsys.readouterr()
                printed = captured.out + captured.err
        elif kind == "text":
            assert code == (2 if "error:" in body else 0), printed
            for expected in body.splitlines():
                assert expected in printed, (expected, printed)
        elif kind == "yaml":
            assert dispute is not None
            with dispute.open("a", encoding="utf-8") as file:
                file.write(body)
        elif UNPIN in body:
            assert dispute is not None
            text = dispute.read_text(encoding="utf-8")
            assert text.count(PIN) == 1
            dispute.write_text(text.replace(PIN, ""), encoding="utf-8")
    assert dispute is not None

    site = build_site(tmp_path, tmp_path / "scenarios")
    disputes = (site / "disputes" / "index.html").read_text(encoding="utf-8")
    game = "my-crypto-saga"
    ruled = disputes[disputes.index(f'id="{game}-ruled"') : disputes.index(f'id="{game}-proposed"')]
    proposed = disputes[disputes.index(f'id="{game}-proposed"') : disputes.index(f'id="{game}-ambiguous"')]
    assert "light-beside-three-tie/" in ruled and "mcs.amb.light-with-three</a> = <code>tie</code>" in ruled
    assert '<time datetime="2025-01-15">2025-01-15</time> by the rulings team.' in ruled
    assert "light-beside-three-tie/" in proposed and "The Number of the losing cards is added" in proposed
    page = (site / game / "scenarios" / "light-beside-three-tie" / "index.html").read_text(encoding="utf-8")
    used = page[page.index("Readings used:") :]
    assert "mcs.amb.light-with-three</a> = <code>tie</code>" in used[: used.index("</p>")]
    assert "Pinned readings" not in page  # the reading is the ruling's, shown with it, not a pin
