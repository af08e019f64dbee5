"""Whole games: the Numba engine against the pure-Python reference's ``check_game``.

The engine plays whole games (``iter_history``); ``reference.check_game`` re-checks
each from RULES.md alone: every round (``replay``), one game's seed, options, specials
and strategies, the variant's schedule and hand sizes, the last round without indicator
or trump (standard table and elimination round 20), the dealers, who leaves an
elimination game and when (from 60 cards), and the totals. More than 300 games over
3-6 players: every special alone, Dragon + Fairy, all seven, every variant (standard,
clairvoyance, mono, maximus(+clairvoyance), elimination(+clairvoyance) with and without
specials), ``rounds=`` and ``schedule=`` games and the rule options, with ``random``,
``heuristic`` and mixed players. The reference's totals and winners must reproduce the
engine's own game accumulators (``simulate_result``: sums of totals and squares, win
shares in 60ths and squares, by game seat) exactly, and the games must contain the
events they are about (so the test cannot pass vacuously).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
import reference as R

import wizsim
from wizsim.run.history import iter_history
from wizsim.run.simulate import make_spec

pytestmark = pytest.mark.filterwarnings("ignore:.* without .*:UserWarning")

SPECIALS = ["Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter"]
MIXED = {
    3: "heuristic,random,heuristic",
    4: "heuristic,random,random,heuristic",
    5: "random,heuristic,random,heuristic,random",
    6: "heuristic,random,heuristic,random,heuristic,random",
}
RULE_SETS = [
    {},
    {"canadian": "true"},
    {"scoring": "progressive"},
    {"bomb": "cancel_bids", "werewolf": "may"},
    {"passive_indicator": "no_trump", "wizard_indicator": "no_trump"},
    {"hidden_bids": "simultaneous"},
    {"hidden_bids": "secret", "scoring": "progressive", "bomb": "cancel_bids"},
    {"canadian": "true", "werewolf": "may", "passive_indicator": "no_trump"},
]
MIN_GAMES = 300


def _selections():
    """make_spec keyword arguments, a few whole games each; strategies and rule sets rotate."""
    groups = []  # (players, games, variant, specials, extra make_spec arguments)
    for specials in [[s] for s in SPECIALS] + [["Dragon", "Fairy"], SPECIALS]:  # standard table
        groups += [(n, 5, "standard", ",".join(specials), {}) for n in (3, 4, 5, 6)]
    for n in (3, 4, 5, 6):
        groups += [(n, 3, "standard", None, {}), (n, 3, "standard", None, {})]
        groups += [(n, 3, "clairvoyance", None, {}), (n, 3, "clairvoyance", "all", {})]
        groups += [(n, 2, "maximus", None, {}), (n, 2, "maximus+clairvoyance", "all", {})]
        groups += [(n, 2, "maximus", "werewolf,juggler", {})]
    for n in (3, 4):  # mono: 3 or 4 players, no specials
        groups += [(n, 4, "mono", None, {}), (n, 4, "mono+clairvoyance", None, {}), (n, 4, "mono", None, {})]
    for n in (4, 5, 6):
        groups += [(n, 5, "elimination", None, {}), (n, 5, "elimination", "all", {})]
        groups += [(n, 4, "elimination+clairvoyance", None, {}), (n, 4, "elimination", "dragon,fairy,werewolf", {})]
    # rounds=N (up to deck_size // n) and custom schedules turn up a card whenever one is left
    for n, rounds, specials in [(4, 16, "all"), (3, 22, "all"), (5, 13, "all"), (6, 11, "all"), (3, 6, None),
                                (4, 16, "dragon,fairy,bomb,werewolf")]:  # fmt: skip
        groups.append((n, 3, "standard", specials, {"rounds": str(rounds)}))
    for n, schedule, specials in [(4, [1, 3, 5], None), (3, [2, 4, 6, 8, 10], "all"), (5, [12, 1, 12], "werewolf"),
                                  (6, [11, 10, 9], "all")]:  # fmt: skip
        groups.append((n, 2, "standard", specials, {"schedule": schedule}))
    sels = []
    rule_sets = itertools.cycle(RULE_SETS)
    for i, (n, games, variant, specials, extra) in enumerate(groups):
        rules = dict(next(rule_sets), variant=variant)
        if variant.startswith("mono"):  # mono's own rules: no specials, so no special-card options
            rules = {"variant": variant, "canadian": str(i % 2 == 0).lower()}
        if "rounds" in extra:
            rules["rounds"] = extra["rounds"]
        sel = {"players": n, "games": games, "seed": 7000 + i, "strategy": ["random", "heuristic", MIXED[n]][i % 3],
               "rules": rules, "specials": specials}  # fmt: skip
        if "schedule" in extra:
            sel["schedule"] = extra["schedule"]
        sels.append(sel)
    return sels


SELECTIONS = _selections()


def _games(sel):
    """The records of each game of a selection, in game order."""
    games: dict[int, list[dict]] = {}
    for rec in iter_history(make_spec(**sel), include_legal=True):
        games.setdefault(rec["game"], []).append(rec)
    return [games[g] for g in sorted(games)]


def _count_events(records, seen):
    variant = R.game_variant(records[0]["options"])
    options = records[0]["options"]
    seen["games " + variant] += 1
    seen["rounds"] += len(records)
    last = records[-1]
    left = 60 + len(last["specials"]) - last["players"] * last["cards_per_player"]
    table = variant == "elimination" or (
        variant == "standard" and "rounds" not in options and "schedule" not in options
    )
    if table and last["specials"]:
        seen["last round without trump, cards left"] += left > 0 and last["indicator"] is None
        dealt = {c for hand in last["hands"] for c in hand}
        seen["specials undealt in the last round"] += any(s not in dealt for s in last["specials"])
        wolf = last["werewolf"]
        seen["werewolf in the last round"] += wolf is not None
        seen["werewolf played in the last round"] += wolf is not None and any(
            "Werewolf" in t["cards"] for t in last["tricks"]
        )
        if variant == "elimination":
            seen["werewolf in elimination round 20"] += wolf is not None and last["round"] == 20
    if "rounds" in options:
        seen["rounds game, last card turned up"] += left > 0 and last["indicator"] is not None
    if "schedule" in options:
        seen["schedule game"] += 1
    if variant == "elimination":
        sizes = [r["players"] for r in records]
        after = tuple(r for r in range(1, 20) if sizes[r] < sizes[r - 1])
        seen[f"elimination {sizes[0]} leaves after {after}" + (" with specials" if last["specials"] else "")] += 1
    for rec in records:
        wolf = rec["werewolf"]
        seen["werewolf without indicator"] += wolf is not None and rec["indicator"] is None
        seen["werewolf swapped"] += wolf is not None and wolf["swapped"]
    result = R.game_totals(records)
    seen["shared win"] += len(result.winners) > 1


def _engine_game_acc(sel):
    kwargs = {k: v for k, v in sel.items() if k != "players"}
    return wizsim.simulate_result(sel["players"], **kwargs).counts.game_acc


def _reference_game_acc(games, players):
    acc = [[0] * players for _ in range(4)]
    for records in games:
        result = R.game_totals(records)
        for seat, total in result.totals.items():
            acc[0][seat] += total
            acc[1][seat] += total * total
        for seat, share in result.shares.items():
            sixtieths = share * 60
            assert sixtieths.denominator == 1
            acc[2][seat] += int(sixtieths)
            acc[3][seat] += int(sixtieths) ** 2
    return acc


def test_whole_games_agree_with_reference():
    problems: list[str] = []
    seen = Counter()
    games_checked = 0
    for sel in SELECTIONS:
        games = _games(sel)
        assert len(games) == sel["games"], sel
        for records in games:
            games_checked += 1
            for p in R.check_game(records):
                problems.append(f"{sel} game {records[0]['game']}: {p}")
            _count_events(records, seen)
        if len(problems) > 20:
            break
        # the engine's game accumulators are the reference's totals and winners, exactly
        engine = _engine_game_acc(sel).tolist()
        reference = _reference_game_acc(games, sel["players"])
        if engine != reference:
            problems.append(f"{sel}: engine game_acc {engine}, reference {reference}")
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:10])
    assert games_checked >= MIN_GAMES and seen["rounds"] >= 3000
    for variant in ("standard", "mono", "maximus", "elimination"):
        assert seen["games " + variant] >= 20, variant
    # the events the new rules are about actually happen
    for event in [
        "last round without trump, cards left",
        "specials undealt in the last round",
        "werewolf in the last round",
        "werewolf played in the last round",
        "werewolf in elimination round 20",
        "werewolf without indicator",
        "werewolf swapped",
        "rounds game, last card turned up",
        "schedule game",
        "elimination 4 leaves after (15,)",
        "elimination 5 leaves after (12, 15)",
        "elimination 6 leaves after (10, 12, 15)",
        "elimination 4 leaves after (15,) with specials",
        "elimination 5 leaves after (12, 15) with specials",
        "elimination 6 leaves after (10, 12, 15) with specials",
        "shared win",
    ]:
        assert seen[event] > 0, (event, seen)


def test_selections_cover_the_brief():
    """Every special alone, Dragon + Fairy, all seven, every variant and rule option is played."""
    specials = Counter(sel.get("specials") for sel in SELECTIONS)
    for special in SPECIALS:
        assert specials[special] >= 4, special
    assert specials["Dragon,Fairy"] >= 4 and specials[",".join(SPECIALS)] >= 4
    variants = {sel["rules"]["variant"] for sel in SELECTIONS}
    assert variants >= {"standard", "clairvoyance", "mono", "mono+clairvoyance", "maximus", "maximus+clairvoyance",
                        "elimination", "elimination+clairvoyance"}  # fmt: skip
    options = {(k, v) for sel in SELECTIONS for k, v in sel["rules"].items() if k != "rounds"}
    for option in [("canadian", "true"), ("scoring", "progressive"), ("bomb", "cancel_bids"), ("werewolf", "may"),
                   ("passive_indicator", "no_trump"), ("hidden_bids", "simultaneous"), ("hidden_bids", "secret")]:  # fmt: skip
        assert option in options, option
    assert {sel["players"] for sel in SELECTIONS} == {3, 4, 5, 6}
    assert {sel["strategy"] for sel in SELECTIONS} >= {"random", "heuristic", *MIXED.values()}
    assert any("rounds" in sel["rules"] and sel["specials"] for sel in SELECTIONS)
    assert any("schedule" in sel for sel in SELECTIONS)
    assert sum(sel["games"] for sel in SELECTIONS) >= MIN_GAMES


def test_check_game_catches_corrupted_engine_games():
    """The whole-game check has teeth on engine records: each corruption is named."""
    sel = {"players": 4, "games": 1, "seed": 3, "strategy": "heuristic", "specials": "all"}
    (records,) = _games(sel)
    assert R.check_game(records) == [] and len(records) == 15
    last = records[-1]
    dealt = Counter(c for hand in last["hands"] for c in hand)
    spare = next(c for c in R.full_deck(SPECIALS) if not dealt[c])
    problems = R.check_game(records[:-1] + [dict(last, indicator=spare)])
    assert any("round 15: indicator is" in p and "last round of the standard table" in p for p in problems)
    problems = R.check_game(records[:-1])
    assert any("ends after round 14, expected 15 rounds" in p for p in problems)
    problems = R.check_game(records[:3] + [dict(records[3], dealer=0)] + records[4:])
    assert any("round 4: dealer is seat 0, expected seat 3" in p for p in problems)
    result = R.game_totals(records)
    wrong = {s: t + (s == 2) for s, t in result.totals.items()}
    assert any("game seat 2: total is" in p for p in R.check_game(records, final_totals=wrong))

    sel = {"players": 6, "games": 1, "seed": 4, "strategy": "random", "rules": {"variant": "elimination"},
           "specials": "all"}  # fmt: skip
    (records,) = _games(sel)
    assert R.check_game(records) == [] and [r["players"] for r in records][9:11] == [6, 5]
    # round 11 played by all six again: the player who had to leave after round 10 stayed
    stay = dict(records[10], seats=list(range(6)), players=6)
    problems = R.check_game(records[:10] + [stay] + records[11:])
    assert any("round 11: seats are [0, 1, 2, 3, 4, 5], expected exactly one" in p for p in problems)
