"""Rewrite the golden games and outputs in tests/golden/ and say which games, rounds and files changed.

Each golden game is ``wizsim history`` JSONL of one whole game (one line per
round), made from the selection named in ``tests/golden/manifest.json``. Each
golden output is what a ``simulate``, ``tournament`` or ``advise`` command of
the manifest prints and writes (``tests/golden/outputs/<name>/``).
``tests/test_golden.py`` compares them byte for byte, so a change to the
engine's rules or to the random and heuristic players shows up there; running
this script is the deliberate act that accepts it (say why in the commit).

Usage::

    python scripts/regenerate_golden.py            # rewrite, print what changed
    python scripts/regenerate_golden.py --check    # write nothing; exit 1 if any game differs
    python scripts/regenerate_golden.py --only mono_3p,advise_4p_pimc
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import warnings
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
MANIFEST = GOLDEN / "manifest.json"


def selections() -> dict[str, dict]:
    """The golden games: name -> ``make_spec`` keyword arguments."""
    return json.loads(MANIFEST.read_text(encoding="utf-8"))["games"]


def render(selection: dict) -> bytes:
    """The bytes ``wizsim history`` writes for ``selection`` (through the same writer)."""
    from wizsim.run.history import write_history
    from wizsim.run.simulate import make_spec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Dragon without Fairy and the reverse are golden cases
        spec = make_spec(**selection)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        write_history(path, spec)
        return path.read_bytes()


def output_commands() -> dict[str, list[str]]:
    """The golden outputs: name -> ``wizsim`` command-line arguments."""
    return json.loads(MANIFEST.read_text(encoding="utf-8"))["outputs"]


def run_output(args: list[str]) -> dict[str, bytes]:
    """Run ``wizsim ARGS`` in-process in an empty folder; its stdout (``stdout.txt``) and every file it wrote."""
    import contextlib
    import io
    import os

    from wizsim.cli import main as wizsim_main

    out = io.StringIO()
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        os.chdir(tmp)
        try:
            with contextlib.redirect_stdout(out):
                status = wizsim_main([*args, *(["--quiet"] if args[0] == "simulate" else [])])
        finally:
            os.chdir(cwd)
        if status not in (0, None):
            raise RuntimeError(f"wizsim {' '.join(args)} exited with {status}")
        files = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir())}
    files["stdout.txt"] = out.getvalue().encode()
    return files


def _compare_output(name: str, args: list[str], check: bool) -> bool:
    """Run one golden output; True if it differs from the stored files (which are rewritten unless ``check``)."""
    folder = GOLDEN / "outputs" / name
    new = run_output(args)
    old = {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}
    if old == new:
        print(f"output {name}: unchanged")
        return False
    what = sorted(f for f in set(old) | set(new) if old.get(f) != new.get(f))
    print(f"output {name}: CHANGED ({', '.join(what)})")
    if not check:
        folder.mkdir(parents=True, exist_ok=True)
        for f in set(old) - set(new):
            (folder / f).unlink()
        for f, data in new.items():
            (folder / f).write_bytes(data)
    return True


_FLOAT = re.compile(rb"-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+[eE][-+]?\d+")


def same_to_12_digits(old: bytes, new: bytes) -> bool:
    """True if two outputs agree once every float literal is rounded to 12 significant digits.

    Golden outputs are recorded byte for byte; on another CPU the last bits of a
    float computed by a library (a sum, a square root) may differ, so the
    tests accept that much and nothing else: integers and text must match.
    """

    def norm(data: bytes) -> bytes:
        return _FLOAT.sub(lambda m: b"%.12g" % float(m.group()), data)

    return old == new or norm(old) == norm(new)


def changed_rounds(old: bytes, new: bytes) -> list[str]:
    """Which rounds (lines) differ between two renderings of one game."""
    a, b = old.decode().splitlines(), new.decode().splitlines()
    out = [f"round {i + 1}" for i in range(min(len(a), len(b))) if a[i] != b[i]]
    if len(a) != len(b):
        out.append(f"{len(a)} rounds -> {len(b)} rounds")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a golden game differs")
    parser.add_argument("--only", help="comma-separated game names (default: all in the manifest)")
    args = parser.parse_args(argv)
    games = selections()
    outputs = output_commands()
    names = list(games) + list(outputs) if not args.only else [n.strip() for n in args.only.split(",")]
    unknown = [n for n in names if n not in games and n not in outputs]
    if unknown:
        print(f"regenerate_golden: error: unknown game(s) {', '.join(unknown)}; see {MANIFEST}", file=sys.stderr)
        return 2
    differ = 0
    for name in names:
        if name in outputs:
            differ += _compare_output(name, outputs[name], args.check)
            continue
        path = GOLDEN / f"{name}.jsonl"
        new = render(games[name])
        old = path.read_bytes() if path.exists() else b""
        if old == new:
            print(f"{name}: unchanged")
            continue
        differ += 1
        what = "new file" if not old else ", ".join(changed_rounds(old, new))
        print(f"{name}: CHANGED ({what})")
        if not args.check:
            path.write_bytes(new)
    stale = sorted(p.stem for p in GOLDEN.glob("*.jsonl") if p.stem not in games)
    for name in stale:
        print(f"{name}: not in the manifest (delete {name}.jsonl if it is no longer wanted)")
    print(f"{differ} of {len(names)} golden games and outputs differ" + ("" if args.check else " (rewritten)"))
    return 1 if args.check and differ else 0


if __name__ == "__main__":
    sys.exit(main())
