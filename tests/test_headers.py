"""Every command's text header names the whole configuration, the deck above all (issue 31).

For each command the same call runs with two decks: the first output line must differ, and it must name
every special card in play (and say ``standard`` for the standard deck). ``--json`` outputs and the
provenance carry the same ``deck`` field.
"""

from __future__ import annotations

import json

import pytest

from wizsim.cli import main
from wizsim.run.header import deck_name, header_line
from wizsim.run.history import write_history
from wizsim.run.spec import make_spec
from wizsim.tools.bench import BenchCase, format_bench, time_case

DECKS = {"standard": [], "dragon,fairy": ["Dragon", "Fairy"], "all": ["Dragon", "Fairy", "Bomb", "Werewolf",
                                                                      "Juggler", "Cloud", "Shapeshifter"]}  # fmt: skip


def _first_line(capsys, argv: list[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out.splitlines()[0]


def _specials(deck: str) -> list[str]:
    return [] if deck == "standard" else ["--specials", deck]


COMMANDS = {
    "simulate": ["simulate", "--players", "4", "--cards", "3", "--hands", "40", "--seed", "1", "--quiet"],
    "simulate games": ["simulate", "--players", "3", "--games", "2", "--schedule", "1,2", "--seed", "1", "--quiet"],
    "tournament": ["tournament", "--players", "3", "--strategies", "heuristic,random", "--cards", "2", "--deals", "5",
                   "--seed", "1", "--quiet"],  # fmt: skip
    "advise": ["advise", "--players", "4", "--position", "2", "--hand", "W,B13,R7", "--indicator", "B5",
               "--samples", "200", "--seed", "1", "--strategy", "heuristic"],  # fmt: skip
    "advise --play": ["advise", "--play", "--players", "4", "--position", "1", "--hand", "R7,J,Y2", "--bids",
                      "1,0,0,1", "--indicator", "B5", "--samples", "100"],  # fmt: skip
}


def _check(headers: dict[str, str]) -> None:
    assert len(set(headers.values())) == len(headers), headers  # another deck, another header
    for deck, line in headers.items():
        assert f"deck {deck_name(DECKS[deck])}" in line, line
        for card in DECKS[deck]:
            assert card in line, (card, line)
        if deck == "standard":
            assert "deck standard," in line
        for word in ("players", "rules", "seed", "wizsim"):
            assert word in line, (word, line)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_header_names_the_deck(command, capsys):
    _check({d: _first_line(capsys, COMMANDS[command] + _specials(d)) for d in DECKS})


def test_simulate_header_counts_games_and_schedule(capsys):
    line = _first_line(capsys, COMMANDS["simulate games"])
    assert "3 players, 2 games (schedule 1,2)" in line and "4 rounds" in line and "seats random in every seat" in line


def test_history_summary_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = {}
    for d in DECKS:
        argv = ["history", "--players", "3", "--cards", "2", "--hands", "6", "--seed", "1", "--quiet",
                "--out", f"h_{d.replace(',', '_')}.jsonl", *_specials(d)]  # fmt: skip
        lines[d] = _first_line(capsys, argv).split("; wrote ")[0]
    _check(lines)


def test_review_header_from_the_file(tmp_path, capsys):
    lines = {}
    for d in DECKS:
        path = tmp_path / f"r_{d.replace(',', '_')}.jsonl"
        write_history(path, make_spec(3, cards=2, hands=2, seed=1, specials=None if d == "standard" else d))
        lines[d] = _first_line(capsys, ["review", str(path), "--seat", "0", "--samples", "50"])
        assert main(["review", str(path), "--seat", "0", "--samples", "50", "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["run"]["deck"] == deck_name(DECKS[d]) and doc["run"]["specials"] == DECKS[d]
    _check(lines)


def test_json_and_provenance_carry_the_deck(tmp_path, capsys):
    for d in ("standard", "dragon,fairy"):
        out = tmp_path / f"t_{d.replace(',', '_')}.csv"
        assert main([*COMMANDS["simulate"], *_specials(d), "--out", str(out)]) == 0
        capsys.readouterr()
        prov = json.loads(out.with_suffix(".csv.json").read_text())
        assert prov["deck"] == deck_name(DECKS[d]) and prov["specials"] == DECKS[d]
        assert main([*COMMANDS["tournament"], *_specials(d), "--json"]) == 0
        run = json.loads(capsys.readouterr().out)["run"]
        assert run["deck"] == prov["deck"] and run["specials"] == prov["specials"] and run["players"] == 3
        assert main([*COMMANDS["advise"], *_specials(d), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["deck"] == prov["deck"]
        assert main([*COMMANDS["advise --play"], *_specials(d), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["deck"] == prov["deck"] and doc["specials"] == DECKS[d]


def test_custom_deck_is_named():
    assert deck_name([], ["W", "J", "B1"]) == "custom (3 cards)"
    line = header_line({"players": 3, "cards": 1, "deck": deck_name(["Dragon"], ["W", "J", "Dragon"]), "seed": 0})
    assert "deck custom (3 cards) with Dragon" in line


def test_bench_cases_name_their_deck():
    rows = [time_case(BenchCase(f"random 3x2 {d}", 3, 2, "random", 1, 64, None if d == "standard" else d), 1)
            for d in DECKS]  # fmt: skip
    for row, d in zip(rows, DECKS, strict=True):
        assert row["deck"] == deck_name(DECKS[d]) and row["specials"] == DECKS[d]
    rows[0]["name"] = "learned 4x10"  # format_bench relates the advisor's speed to this case
    res = {"cpu_count": 2, "repeats": 1, "cases": rows, "scaling_2_jobs": 1.0, "specials_speed_ratio_random": 1.0,
           "specials_speed_ratio_heuristic": 1.0, "rule_speed_ratio_heuristic": 1.0,
           "play_rule_speed_ratio_heuristic": 1.0}  # fmt: skip
    text = format_bench(res)
    for row in rows:
        assert any(line.startswith(row["name"]) and line.endswith(row["deck"]) for line in text.splitlines())
