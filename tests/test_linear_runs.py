"""A run's work grows linearly with its actions, refused ones included, for every command that plays a file.

Work is counted, not timed (timed tests are flaky on a shared machine): the Python function calls a
command makes, for a file of N refused actions and one of four times N. Linear work gives a ratio
near 4; work that replays the game from the start at each refusal, or looks at every action for
each line it prints, gives 16. ``benchmarks/refusals.py`` measures the time.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from checker.cli import main
from tests.conftest import SCENARIOS

SIZES = (100, 400)
SOURCE = SCENARIOS / "zatch-bell" / "and-attack-negated-in-step-5.yaml"
#: Its Attack declared again once negated: refused, for a reason that depends on the reading of a ruling.
REFUSED = {"action": "battle-in", "player": "A", "mamodo": "Card AM", "effect_of": "Card AM"}


def refusing(actions: int, folder: Path) -> Path:
    """The scenario's own start, then ``actions`` actions the rules refuse and the file does not expect refused."""
    data = yaml.safe_load(SOURCE.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:8] + [dict(REFUSED) for _ in range(actions)]
    data.pop("expect", None)
    data["expect"] = {"turn": 5}
    path = folder / f"refusing-{actions}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def calls(command: list[str]) -> int:
    count = 0

    def counted(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    main(command)  # the first run imports and builds what every later one shares
    sys.setprofile(counted)
    try:
        main(command)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("command", [["check", "-j", "1"], ["explain"], ["readings"], ["options"]], ids=lambda c: c[0])
def test_work_grows_linearly_with_refused_actions(command: list[str], tmp_path: Path) -> None:
    small, large = (calls([*command, str(refusing(size, tmp_path))]) for size in SIZES)
    assert large / small < 5, (small, large)  # 4 at most for linear work (less: what every run does once)


def test_the_refusals_are_unexpected(tmp_path: Path, capsys) -> None:
    assert main(["check", "-j", "1", str(refusing(SIZES[0], tmp_path))]) == 1
    assert capsys.readouterr().out.count("expected nothing, got attack-negated-before") == SIZES[0]
