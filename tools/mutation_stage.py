"""The tree mutmut mutates: a copy of the repository in which decorated functions can be mutated.

mutmut 3 leaves every decorated function alone (a decorator runs when the function is defined,
and a mutated decorator could break the import). The rules modules register their action
handlers, effects and procedure steps with decorators (``@vocabulary.action(...)``,
``@steps("...")``), and their states use ``@property``: a third of the rules code would never be
mutated. In the staged copy each such function is defined plain and decorated by an assignment
right after it, which is what the decorator syntax does::

    @vocabulary.action("end-turn", ...)        def end_turn(...):
    def end_turn(...):                  ->         ...
        ...                                    end_turn = (vocabulary.action("end-turn", ...))(end_turn)

so the decorators themselves stay unmutated and run in the same order, and mutmut's trampoline
is what gets registered. ``@staticmethod`` and ``@classmethod`` (which mutmut handles) and
``@x.setter`` (whose name would no longer be the property) are kept as they are.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

KEPT = {"staticmethod", "classmethod"}


def undecorate(source: str) -> str:
    """``source`` with every decorated function rewritten as a plain def and an assignment after it."""
    lines = source.splitlines(keepends=True)
    functions = [
        node for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.decorator_list and not _kept(node)
    ]
    for node in sorted(functions, key=lambda n: n.lineno, reverse=True):
        indent = lines[node.lineno - 1][: node.col_offset]
        applied = node.name
        for decorator in reversed(node.decorator_list):
            applied = f"({ast.get_source_segment(source, decorator)})({applied})"
        end = node.end_lineno or node.lineno
        lines[end:end] = [f"{indent}{node.name} = {applied}\n"]
        first = node.decorator_list[0].lineno
        del lines[first - 1 : node.lineno - 1]
    return "".join(lines)


def _kept(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    names = [ast.unparse(d) for d in node.decorator_list]
    return any(name in KEPT or name.startswith(f"{node.name}.") for name in names)


def stage(root: Path, target: Path, modules: list[Path], copied: tuple[str, ...], *, fresh: bool) -> None:
    """Copy ``copied`` (folders and files of ``root``) into ``target``, the ``modules`` undecorated.

    ``fresh`` empties ``target`` first (mutmut's results in it too); otherwise only files whose
    content changed are written, so mutmut keeps the mutants of the others (it compares times).
    """
    if fresh:
        shutil.rmtree(target, ignore_errors=True)
    for name in copied:
        source = root / name
        files = [source] if source.is_file() else [p for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
        for path in files:
            if path.relative_to(root) not in modules:
                _write(target / path.relative_to(root), path.read_bytes(), path)
    for module in modules:
        _write(target / module, undecorate((root / module).read_text(encoding="utf-8")).encode("utf-8"), None)


def _write(path: Path, content: bytes, times_of: Path | None) -> None:
    if path.is_file() and path.read_bytes() == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    if times_of is not None:
        shutil.copystat(times_of, path)
