"""The engine's optional compiled path: the same modules compiled by Cython, same results.

`python -m play.engine build` (run by `make setup`, hence `make run`/`make test`)
compiles the hot modules of the engine (`MODULES`) from their unchanged source into
`var/engine-build/`. `play/engine/__init__.py` calls `activate`, which puts that folder first
on the package's search path when the build matches the sources byte for byte (a digest of
each source is stored beside the build), so an edited module never runs from a stale build.
Without a build, with a stale one, or with `ENGINE_PLAIN=1`, the engine is plain Python.

The rules stay in one place: Cython compiles the very `.py` files (with `annotation_typing`
off, so annotations never change what a function accepts), so both paths run the same code
and give the same results; `make test` runs the golden tests on both (docs/performance.md).

A module may have an augmenting `.pxd` beside it (`match`, `policies`, `runner`, `events`,
`judgment`, `chance`): Cython declarations only, never rules, each kept for a gain measured
against a build without it (its header gives the figure: from +4% for judgment to x2.35 for
match; all of them together make greedy matches 3.3x as fast). They make classes C classes
with typed fields (`Match`, `_SideState`, the event writers), give hot methods C calls and
C-int locals, and are part of the build and its digest. Plain Python ignores them, so each
declaration must keep the `.py`'s behaviour: a field typed `int` or `bint` holds only that,
one typed `str`, `list` or `dict` only that or None, anything else is `object`; and a C class
has no `__dict__` (no attribute outside its declared fields, so `Match.determinized` copies
them one by one).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
ROOT = ENGINE_DIR.parents[1]
# The modules on the hot path of a match (profile in docs/performance.md).
MODULES = (
    "actions",
    "cards",
    "chance",
    "events",
    "judgment",
    "legality",
    "match",
    "policies",
    "runner",
)
PLAIN_ENV = "ENGINE_PLAIN"  # ENGINE_PLAIN=1 forces the plain-Python path
STAMP = "sources.json"


def build_dir() -> Path:
    """Return where the compiled modules of this Python go (one folder per interpreter)."""
    tag = sys.implementation.cache_tag or "python"
    return ROOT / "var" / "engine-build" / tag


def _sources() -> list[Path]:
    """Return the files a build is made from: each module's `.py` and, where there is one, its
    augmenting `.pxd` (Cython declarations only: types for the compiled path, never rules)."""
    files = []
    for name in MODULES:
        files.append(ENGINE_DIR / f"{name}.py")
        pxd = ENGINE_DIR / f"{name}.pxd"
        if pxd.exists():
            files.append(pxd)
    return files


def _digests() -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in _sources()}


def _stamp() -> dict | None:
    try:
        return json.loads((build_dir() / STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def plain_forced() -> bool:
    return os.environ.get(PLAIN_ENV, "") not in ("", "0")


def build_state() -> str:
    """Return "current", "stale" or "missing" for the compiled build of this Python."""
    stamp = _stamp()
    if stamp is None:
        return "missing"
    return "current" if stamp.get("sources") == _digests() else "stale"


def activate(package_path: list[str]) -> bool:
    """Put a current build first on the engine package's path; return whether it is used."""
    if plain_forced():
        return False
    state = build_state()
    if state != "current":
        if state == "stale" and sys.argv[:1] != ["-m"]:  # quiet in `python -m play.engine`
            print(
                "play.engine: the compiled engine is older than its sources; running plain "
                "Python (make setup rebuilds it).",
                file=sys.stderr,
            )
        return False
    package_path.insert(0, str(build_dir() / "play" / "engine"))
    return True


def compiler_problem() -> str | None:
    """Return why this machine cannot compile the engine, or None when it can."""
    try:
        import Cython  # noqa: F401
    except ImportError:
        return "Cython is not installed (pip install -r requirements-dev.txt)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}) found"
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not include.exists():
        return f"no Python headers ({include})"
    return None


def build(*, force: bool = False) -> int:
    """Compile MODULES into build_dir() unless the build is current; return an exit code."""
    if plain_forced():
        print(f"engine: {PLAIN_ENV} is set; not compiling (the engine runs as plain Python).")
        return 0
    if not force and build_state() == "current":
        return 0
    problem = compiler_problem()
    if problem:
        print(f"engine: {problem}; the engine runs as plain Python (slower, same results).")
        return 0
    from Cython.Build import cythonize
    from setuptools import Distribution
    from setuptools.command.build_ext import build_ext

    target = build_dir()
    shutil.rmtree(target, ignore_errors=True)
    package = target / "play" / "engine"
    package.mkdir(parents=True)
    (target / "play" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    digests = _digests()
    sources = []
    for path in _sources():  # compile copies, so the module names come out as play.engine.*
        shutil.copyfile(path, package / path.name)
        if path.suffix == ".py":
            sources.append(str(package / path.name))
    print(f"engine: compiling {len(MODULES)} modules with Cython (about a minute)...")
    cwd = os.getcwd()
    os.chdir(target)
    try:
        extensions = cythonize(
            [os.path.relpath(s, target) for s in sources],
            compiler_directives={"language_level": 3, "annotation_typing": False},
            nthreads=min(2, os.cpu_count() or 1),
            quiet=True,
        )
        dist = Distribution({"ext_modules": extensions})
        command = build_ext(dist)
        command.inplace = True
        command.parallel = os.cpu_count() or 1
        command.build_temp = str(target / "tmp")
        command.build_lib = str(target / "build")
        command.ensure_finalized()
        command.run()
    except Exception as error:  # a broken toolchain must not stop `make run`
        shutil.rmtree(target, ignore_errors=True)
        print(f"engine: compiling failed ({error}); the engine runs as plain Python.")
        return 0
    finally:
        os.chdir(cwd)
    leftovers = [*package.glob("*.py"), *package.glob("*.pxd"), *package.glob("*.c")]
    for leftover in [*leftovers, target / "tmp", target / "build"]:
        if leftover.name != "__init__.py":
            shutil.rmtree(leftover) if leftover.is_dir() else leftover.unlink()
    (package / "__init__.py").unlink()  # the real package's __init__ runs, not this one
    (target / STAMP).write_text(json.dumps({"sources": digests}, indent=1), encoding="utf-8")
    print(f"engine: compiled into {target.relative_to(ROOT)}")
    return 0


def main(argv: list[str]) -> int:
    if argv[:1] == ["build"]:
        return build(force="--force" in argv)
    if argv[:1] == ["state"]:
        print("plain (forced)" if plain_forced() else build_state())
        return 0
    print("usage: python -m play.engine build [--force] | state", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
