"""The Numba engine against the pure-Python reference, round by round.

Every round the kernel plays is written as a HISTORY.md record including the
legal cards at every play; ``reference.replay`` recomputes from the rules
alone the deal's validity, the trump, bid legality (Canadian rule), every legal
set, every trick winner and next leader, tricks won and scores, and reports
any disagreement. More than 10,000 rounds over 3-6 players, small to maximal
round sizes, every rule option of the base game and both strategies. The full
games among them are also checked whole by ``reference.check_game`` (60 / n
rounds, seat 0 deals first and the deal passes clockwise, the last round without
indicator or trump).
"""

from __future__ import annotations

from collections import Counter

import pytest
import reference as R

from wizsim.run.history import iter_history
from wizsim.run.simulate import make_spec

OPTION_SETS = [
    {},
    {"canadian": "true"},
    {"scoring": "progressive"},
    {"wizard_indicator": "no_trump"},
    {"canadian": "true", "scoring": "progressive", "wizard_indicator": "no_trump"},
]
STRATEGIES = ["random", "heuristic", "heuristic,random,heuristic,random,random,heuristic"]


def _selections(players: int):
    """(selection kwargs) covering round sizes 1, 2, mid, max-1, max and full games."""
    most = 60 // players
    sizes = sorted({1, 2, most // 2, most - 1, most})
    seed = 100 * players
    for rules in OPTION_SETS:
        for strat in STRATEGIES:
            strategy = ",".join(strat.split(",")[:players]) if "," in strat else strat
            seed += 1
            for k in sizes:
                yield {
                    "players": players,
                    "cards": k,
                    "hands": 60,
                    "seed": seed + 1000 * k,
                    "strategy": strategy,
                    "rules": rules,
                }
            # one full game with the standard schedule: dealer rotation, last round without indicator
            yield {"players": players, "games": 2, "seed": seed, "strategy": strategy, "rules": rules}
    # a Jester-rich reduced deck: all-Jester tricks and Jester leads are frequent
    deck = ["J", "J", "J", "J", "W", "B1", "B2", "R1", "R2", "G5", "Y9", "W"]
    yield {"players": players, "cards": 12 // players - 1, "hands": 600, "seed": seed, "deck": deck}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_engine_agrees_with_reference(players):
    rounds = 0
    problems: list[str] = []
    seen = Counter()
    for sel in _selections(players):
        games: dict[int, list[dict]] = {}
        for rec in iter_history(make_spec(**sel), include_legal=True):
            rounds += 1
            for p in R.replay(rec):
                problems.append(f"{sel} round {rec['round']}: {p}")
            if "games" in sel:
                games.setdefault(rec["game"], []).append(rec)
            ind = rec["indicator"]
            opt = rec["options"]["wizard_indicator"]
            seen["indicator W " + opt] += ind == "W"
            seen["indicator J"] += ind == "J"
            seen["no indicator"] += ind is None
            seen["canadian dealer constrained"] += rec["options"]["canadian"] and (
                sum(rec["bids"]) - rec["bids"][rec["dealer"]] <= rec["cards_per_player"]
            )
            seen["progressive"] += rec["options"]["scoring"] == "progressive"
            seen["all-jester trick"] += any(all(c == "J" for c in t["cards"]) for t in rec["tricks"])
            seen["wizard led"] += any(t["cards"][0] == "W" for t in rec["tricks"])
            seen["jester led then suit"] += any(
                t["cards"][0] == "J" and t["cards"][1] not in "WJ" for t in rec["tricks"]
            )
        for game, records in games.items():
            seen["whole games"] += 1
            seen["last round without trump"] += records[-1]["indicator"] is None and records[-1]["trump"] is None
            problems.extend(f"{sel} game {game}: {p}" for p in R.check_game(records, rounds_checked=True))
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:10])
    assert rounds >= 2500
    # the rounds must actually exercise the rules they check
    assert seen["whole games"] == seen["last round without trump"] == 2 * len(OPTION_SETS) * len(STRATEGIES)
    for key in ("indicator W dealer_chooses", "indicator W no_trump", "indicator J", "no indicator",
                "canadian dealer constrained", "progressive", "wizard led", "jester led then suit"):  # fmt: skip
        assert seen[key] > 0, key
    if players <= 4:  # only 4 Jesters exist
        assert seen["all-jester trick"] > 0


def test_reference_catches_a_corrupted_engine_record():
    """The comparison has teeth: a record changed in one place no longer replays cleanly."""
    rec = next(iter_history(make_spec(players=4, cards=5, hands=1, seed=1), include_legal=True))
    assert R.replay(rec) == []
    bad = dict(rec, scores=[s + 10 for s in rec["scores"]])
    assert R.replay(bad)
    t0 = dict(rec["tricks"][0])
    t0["winner"] = (t0["winner"] + 1) % 4
    assert R.replay(dict(rec, tricks=[t0] + rec["tricks"][1:]))
