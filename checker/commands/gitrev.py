"""Git, for ``checker diff``: the repository, the revision to compare with, and a checkout of it.

The checkout is a detached ``git worktree`` in a temporary folder, removed
afterwards even when the comparison fails; the user's working tree, index and
branches are never touched (git keeps a note of the extra worktree in its own
folder only while it exists). Git hooks do not run for it. A process killed
outright leaves the worktree behind: ``git worktree list`` shows it as
``checker-diff`` and ``git worktree prune`` forgets it once its folder is gone.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from checker.engine.errors import InputError

MAIN_BRANCH = "main"


@dataclass(frozen=True)
class Revision:
    commit: str  # the full commit id
    label: str  # how to name it to a reader: the revision given, or "merge base with main"

    @property
    def short(self) -> str:
        return self.commit[:7]


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", "-c", "core.hooksPath=/dev/null", *args], cwd=root, capture_output=True, text=True, check=False
        )
    except FileNotFoundError:
        raise InputError("git is not installed", expected="git on the PATH") from None


def repository_root(folder: Path) -> Path:
    """The top folder of the git working tree ``folder`` is in."""
    done = _git(folder, "rev-parse", "--show-toplevel")
    if done.returncode != 0:
        raise InputError(f"not a git repository: {folder}", expected="a folder inside the project's git repository")
    return Path(done.stdout.strip()).resolve()


def resolve(root: Path, revision: str | None) -> Revision:
    """``revision`` as a commit; without one, the merge base of HEAD with main, or HEAD when there is none."""
    if revision is None:
        base = _git(root, "merge-base", "HEAD", MAIN_BRANCH)
        if base.returncode == 0:
            return Revision(base.stdout.strip(), f"merge base with {MAIN_BRANCH}")
        revision = "HEAD"
    done = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    if done.returncode != 0:
        if revision == "HEAD":
            raise InputError("the repository has no commit yet", expected="a repository with at least one commit")
        raise InputError(f"unknown revision: {revision}", expected="a commit, branch or tag of this repository")
    return Revision(done.stdout.strip(), revision)


@contextlib.contextmanager
def checked_out(root: Path, revision: Revision) -> Iterator[Path]:
    """The files of ``revision`` in a temporary worktree, for the duration of the ``with`` block."""
    folder = Path(tempfile.mkdtemp(prefix="checker-diff-"))
    tree = folder / "checker-diff"  # the name git lists it by (``git worktree list``) while it exists
    try:
        done = _git(root, "worktree", "add", "--detach", "--quiet", str(tree), revision.commit)
        if done.returncode != 0:
            raise InputError(f"cannot check out {revision.label}: {_last_line(done.stderr)}")
        yield tree
    finally:
        if tree.exists():
            _git(root, "worktree", "remove", "--force", "--force", str(tree))
        shutil.rmtree(folder, ignore_errors=True)


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no message)"


def relative_paths(root: Path, here: Path, paths: list[str]) -> list[str]:
    """``paths`` (relative to ``here``) as paths relative to the repository's top folder, with '/'."""
    relative: list[str] = []
    for path in paths:
        absolute = (here / path).resolve()
        if not absolute.is_relative_to(root):
            raise InputError(f"{path} is outside the repository {root}", expected="a scenario file or folder of the repository")
        relative.append(absolute.relative_to(root).as_posix() or ".")
    return relative
