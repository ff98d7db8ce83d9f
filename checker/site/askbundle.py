"""The engine as the website's Ask page runs it in the browser: Pyodide's runtime and a zip of the checker's Python.

The zip holds, from the environment that builds the site, the checker's packages a scenario is checked with
(engine, games with their data files, format, run, commands), the pure-Python libraries they import (PyYAML without
its compiled LibYAML binding; ``jsonschema`` with ``referencing``, ``attrs`` and ``jsonschema_specifications``), the
stand-ins for the two compiled ones (:mod:`checker.site.standins`), and ``cache/``: the data cache
(:mod:`checker.engine.datafile`) of a run of every game's new scenario, so that the browser reads the catalogues and
the games' index as JSON instead of parsing their YAML.

The zip is the same bytes for the same sources (entries sorted, fixed dates and modes). It is kept in the data cache
under a hash of its sources, so a build (or ``mkdocs serve``'s rebuild) makes it again only when one changed; one
unused for a day is removed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from importlib.metadata import distribution
from pathlib import Path

import checker
from checker.engine.datafile import cache_folder

BUNDLE = "assets/ask/engine.zip"
PYODIDE_FOLDER = "assets/vendor/pyodide"
#: Pyodide's runtime, as the npm package ships it: the loader, the interpreter, the standard library, the lock file.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
#: A first line the site serves one of them with. ``pyodide.asm.mjs`` gets V8's explicit compile hint: the browser then
#: compiles all of its functions when it compiles the module, so the code it keeps of the module (its code cache) holds
#: them all and a later visit compiles none of them again (about 0.2 s of the engine's start).
FIRST_LINES = {"pyodide.asm.mjs": b"//# allFunctionsCalledOnLoad\n"}
CHECKER = Path(checker.__file__).parent
PACKAGES = ("engine", "games", "format", "run", "commands")
#: Each distribution the bundle takes from the environment, with the top-level packages it takes of it.
DISTRIBUTIONS = {
    "PyYAML": ("yaml",),
    "jsonschema": ("jsonschema",),
    "referencing": ("referencing",),
    "attrs": ("attr", "attrs"),
    "jsonschema-specifications": ("jsonschema_specifications",),
}
STANDINS = Path(__file__).parent / "standins"
LEFT_OUT_FOLDERS = {"__pycache__", "tests", "benchmarks"}
LEFT_OUT_SUFFIXES = {".pyc", ".so", ".pyd", ".pyi"}
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
STALE = 24 * 3600  # seconds after its last use that a bundle of earlier sources is removed from the data cache
#: What warms the bundle's data cache: every game's index, and a run of each game's new scenario.
WARM = "from checker.commands import ask; ask.warm()"


def sources() -> dict[str, Path]:
    """Every file of the bundle but its cache, by its name in the zip."""
    found = {"checker/__init__.py": CHECKER / "__init__.py"}
    for package in PACKAGES:
        found.update(_files_of(CHECKER / package, f"checker/{package}"))
    for name, packages in DISTRIBUTIONS.items():
        for file in distribution(name).files or ():
            path = Path(str(file.locate()))
            if file.parts[0] in packages and _kept(file.parts) and path.is_file():
                found["/".join(file.parts)] = path
    for path in sorted(STANDINS.glob("*.py")):
        if path.name != "__init__.py":
            found[path.name] = path
    return dict(sorted(found.items()))


def _files_of(folder: Path, prefix: str) -> dict[str, Path]:
    return {f"{prefix}/{path.relative_to(folder).as_posix()}": path for path in folder.rglob("*")
            if path.is_file() and _kept(path.relative_to(folder).parts)}


def _kept(parts: tuple[str, ...]) -> bool:
    return not LEFT_OUT_FOLDERS.intersection(parts) and os.path.splitext(parts[-1])[1] not in LEFT_OUT_SUFFIXES


def bundle() -> Path:
    """The bundle's zip for the current sources: the one kept in the data cache, else one made now (and kept)."""
    files = sources()
    digest = hashlib.sha256()
    for name, path in files.items():
        digest.update(name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    folder = cache_folder()
    kept = folder / f"ask-engine-{digest.hexdigest()}.zip" if folder is not None else None
    if kept is not None and kept.is_file():
        os.utime(kept)  # in use: not forgotten
        return kept
    with tempfile.TemporaryDirectory() as work:
        target = kept or Path(work) / "engine.zip"
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.partial")  # builds at once each write their own
        _write(partial, files, _warm_cache(Path(work) / "cache"))
        partial.replace(target)
        if folder is not None:
            _forget_earlier(folder, time.time() - STALE)
        if kept is None:  # no data cache: a copy that outlives the temporary folder
            copy = Path(tempfile.mkdtemp()) / "engine.zip"
            copy.write_bytes(target.read_bytes())
            return copy
    return target


def _forget_earlier(folder: Path, before: float) -> None:
    """The bundles of earlier sources last used before ``before``: not needed again (a build still using one is
    long done)."""
    for earlier in folder.glob("ask-engine-*.zip"):
        try:
            if earlier.stat().st_mtime < before:
                earlier.unlink()
        except OSError:
            pass


def _warm_cache(folder: Path) -> dict[str, Path]:
    """The data cache a run of every game's new scenario fills, by name in the zip."""
    environment = {**os.environ, "RULINGS_CACHE": str(folder), "PYTHONPATH": str(CHECKER.parent)}
    subprocess.run([sys.executable, "-c", WARM], env=environment, check=True, capture_output=True)
    return {f"cache/{path.name}": path for path in sorted(folder.glob("*.json"))}


def _write(target: Path, files: dict[str, Path], cache: dict[str, Path]) -> None:
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, path in sorted({**files, **cache}.items()):
            entry = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes(), compresslevel=9)
