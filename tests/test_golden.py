"""Golden games: whole games of the engine compared byte for byte with tests/golden/.

A difference means the rules, the dealing or the random/heuristic players
changed. If that was deliberate, run ``python scripts/regenerate_golden.py``
(it prints which games and rounds changed) and say why in the commit.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("regenerate_golden", ROOT / "scripts" / "regenerate_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GOLD = _script()
GAMES = GOLD.selections()
OUTPUTS = GOLD.output_commands()


def test_manifest_covers_what_the_golden_set_promises():
    sels = list(GAMES.values())
    specials = {s.get("specials") for s in sels}
    for card in ("dragon", "fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter", "all"):
        assert card in specials, card
    variants = {r.split("=", 1)[1] for s in sels for r in s.get("rules", []) if r.startswith("variant=")}
    assert {"clairvoyance", "mono", "maximus+clairvoyance", "elimination"} <= variants
    assert any("variant=elimination" in s.get("rules", []) and s.get("specials") for s in sels)
    assert {3, 6} <= {s["players"] for s in sels}
    for s in sels:  # random and heuristic seats only, one whole game each
        assert set(s["strategy"].split(",")) <= {"random", "heuristic"} and s["games"] == 1
    assert sorted(p.stem for p in GOLD.GOLDEN.glob("*.jsonl")) == sorted(GAMES)
    assert sorted(p.name for p in (GOLD.GOLDEN / "outputs").iterdir()) == sorted(OUTPUTS)
    assert {args[0] for args in OUTPUTS.values()} == {"simulate", "tournament", "advise"}


@pytest.mark.parametrize("name", list(GAMES))
def test_golden_game_is_byte_identical(name):
    old = (GOLD.GOLDEN / f"{name}.jsonl").read_bytes()
    new = GOLD.render(GAMES[name])
    assert new == old, (
        f"golden game {name} changed ({', '.join(GOLD.changed_rounds(old, new))}); if deliberate, run "
        "python scripts/regenerate_golden.py and say why in the commit"
    )


@pytest.mark.parametrize("name", list(OUTPUTS))
def test_golden_output_is_byte_identical(name):
    folder = GOLD.GOLDEN / "outputs" / name
    old = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    new = GOLD.run_output(OUTPUTS[name])
    # byte for byte on the machine that recorded them; elsewhere floats may differ in their last bits
    differ = sorted(f for f in set(old) | set(new) if not GOLD.same_to_12_digits(old.get(f, b""), new.get(f, b"")))
    assert not differ, (
        f"golden output {name} changed ({', '.join(differ)}); if deliberate, run "
        "python scripts/regenerate_golden.py and say why in the commit"
    )


def test_golden_games_are_whole_games():
    """Each file is one game: rounds 1..R in order, the last round as RULES.md 2 says."""
    for name, sel in GAMES.items():
        records = [json.loads(line) for line in (GOLD.GOLDEN / f"{name}.jsonl").read_text().splitlines()]
        assert [r["round"] for r in records] == list(range(1, len(records) + 1)), name
        assert {r["game"] for r in records} == {0}, name
        rules = sel.get("rules", [])
        if (
            not any(r.startswith(("variant=mono", "variant=maximus", "rounds=")) for r in rules)
            and "schedule" not in sel
        ):
            last = records[-1]
            assert last["indicator"] is None and last["trump"] is None, name
            assert len(records) == (20 if "variant=elimination" in rules else 60 // sel["players"]), name


def test_float_tolerance_is_only_in_the_last_digits():
    assert GOLD.same_to_12_digits(b'{"p": 0.34333333333333331, "n": 300}', b'{"p": 0.3433333333333333, "n": 300}')
    assert not GOLD.same_to_12_digits(b'{"p": 0.3433333333, "n": 300}', b'{"p": 0.3433333334, "n": 300}')
    assert not GOLD.same_to_12_digits(b'{"p": 0.5, "n": 300}', b'{"p": 0.5, "n": 301}')
    assert not GOLD.same_to_12_digits(b"1.5e-3,B13", b"1.5e-3,B12")


def test_changed_rounds_names_the_rounds():
    assert GOLD.changed_rounds(b"a\nb\nc\n", b"a\nx\nc\nd\n") == ["round 2", "3 rounds -> 4 rounds"]
