"""Special cards and variants: the Numba engine against the pure-Python reference.

For each group the issue names (each special card alone, Dragon + Fairy, all
seven, and each variant) at least 10,000 engine rounds are written as
HISTORY.md records with the legal cards at every play and re-checked by
``reference.replay``: deal, Werewolf swap and trump, bids, every legal set and
played form, winners and next leaders (bombed tricks), Juggler passes, Cloud
bid changes and scores. Full games (clairvoyance, mono, maximus, elimination)
are also checked as whole games by ``reference.check_game`` (schedule, last
round, dealers, who leaves an elimination game and when); more whole games are
in test_differential_games.py. Each group also asserts that the events it is
about actually happened, so the comparison cannot pass vacuously.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
import reference as R

from wizsim.run.history import iter_history
from wizsim.run.simulate import make_spec

pytestmark = pytest.mark.filterwarnings("ignore:.* without .*:UserWarning")
TARGET = 10_000
SPECIALS = ["Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter"]
STRATS = {
    3: ["random", "heuristic", "heuristic,random,heuristic"],
    4: ["random", "heuristic", "heuristic,random,random,heuristic"],
    5: ["random", "heuristic", "random,heuristic,random,heuristic,random"],
    6: ["random", "heuristic", "heuristic,random,heuristic,random,heuristic,random"],
}
RULE_SETS = [
    {},
    {"bomb": "cancel_bids", "werewolf": "may", "passive_indicator": "no_trump"},
    {"canadian": "true", "scoring": "progressive", "wizard_indicator": "no_trump"},
    {"werewolf": "may", "strategy_override": "random(form=heuristic,pass=heuristic,swap=heuristic)"},
    {"bomb": "cancel_bids", "strategy_override": "heuristic(form=random,pass=random,swap=random,trump=random)"},
]


def _hands_selections(specials, seed0, rule_sets=RULE_SETS, sizes=None):
    """Endless independent-round selections over players, round sizes, strategies and rule sets."""
    seed = seed0
    for rules in itertools.cycle(rule_sets):
        for players in (3, 4, 5, 6):
            most = (60 + len(specials)) // players
            for k in sizes or sorted({1, 2, 3, most // 2, most - 1, most}):
                rules = dict(rules)
                override = rules.pop("strategy_override", None)
                for strat in STRATS[players]:
                    seed += 1
                    strategy = override if override and strat != "random" else strat
                    yield {"players": players, "cards": k, "hands": 40, "seed": seed, "strategy": strategy,
                           "rules": rules, "specials": ",".join(specials) or None}  # fmt: skip


def _game_selections(variant, players_list, specials_options, seed0):
    seed = seed0
    for rules in itertools.cycle([{}, {"canadian": "true"}, {"scoring": "progressive", "bomb": "cancel_bids"}]):
        for players in players_list:
            for specials in specials_options:
                for strat in STRATS[players]:
                    seed += 1
                    yield {"players": players, "games": 3, "seed": seed, "strategy": strat,
                           "rules": dict(rules, variant=variant), "specials": specials}  # fmt: skip


def _check(selections, target=TARGET):
    """Replay records until ``target`` rounds; return (rounds, problems, event counts, records by game)."""
    rounds = 0
    problems: list[str] = []
    seen = Counter()
    games: dict = {}
    for sel in selections:
        for rec in iter_history(make_spec(**sel), include_legal=True):
            rounds += 1
            for p in R.replay(rec):
                problems.append(f"{sel} game {rec['game']} round {rec['round']}: {p}")
            _count_events(rec, seen)
            if "games" in sel:
                games.setdefault((sel["seed"], rec["game"]), []).append(rec)
        if rounds >= target or len(problems) > 20:
            break
    return rounds, problems, seen, games


def _count_events(rec, seen):
    for t in rec["tricks"]:
        cards = t["cards"]
        seen["bombed"] += t["winner"] is None
        seen["passes"] += "passes" in t
        seen["dragon+fairy"] += "Dragon" in cards and "Fairy" in cards
        seen["juggler led"] += cards[0].startswith("Juggler:")
        seen["cloud"] += any(c.startswith("Cloud:") for c in cards)
        seen["shapeshifter:W"] += "Shapeshifter:W" in cards
        seen["shapeshifter:J"] += "Shapeshifter:J" in cards
        seen["shapeshifter led as J"] += cards[0] == "Shapeshifter:J"
        seen["werewolf played"] += "Werewolf" in cards
        seen["juggler in last trick"] += any(c.startswith("Juggler:") for c in cards) and t is rec["tricks"][-1]
        seen["cloud bombed"] += any(c.startswith("Cloud:") for c in cards) and t["winner"] is None
        seen["bomb dragon fairy"] += "Bomb" in cards and "Dragon" in cards and "Fairy" in cards
    seen["cloud change"] += rec["final_bids"] != rec["bids"]
    seen["cloud change from 0"] += any(b == 0 and f == 1 for b, f in zip(rec["bids"], rec["final_bids"], strict=True))
    wolf = rec["werewolf"]
    if wolf is not None:
        seen["werewolf swapped"] += wolf["swapped"]
        seen["werewolf kept"] += not wolf["swapped"]
        seen["werewolf, no indicator"] += rec["indicator"] is None
        seen["werewolf, no indicator, cards left"] += rec["indicator"] is None and (
            rec["players"] * rec["cards_per_player"] < 60 + len(rec["specials"])
        )
        seen["werewolf, no indicator, trump named"] += rec["indicator"] is None and rec["trump"] is not None
    seen["special indicator"] += rec["indicator"] in SPECIALS
    seen["cancel_bids round"] += rec["options"]["bomb"] == "cancel_bids" and any(
        "Bomb" in t["cards"] for t in rec["tricks"]
    )


def _assert_clean(rounds, problems, target=TARGET):
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:10])
    assert rounds >= target


def _assert_whole_games(games, rounds_per_game):
    assert games
    for key, records in games.items():
        assert len(records) == rounds_per_game, key
        assert not (issues := R.check_game(records, rounds_checked=True)), f"game {key}: {issues[:5]}"


EVENTS = {
    "Dragon": [],
    "Fairy": [],
    "Bomb": ["bombed", "cancel_bids round"],
    "Werewolf": ["werewolf swapped", "werewolf kept", "werewolf played"],
    "Juggler": ["passes", "juggler led", "juggler in last trick"],
    "Cloud": ["cloud", "cloud change", "cloud change from 0"],
    "Shapeshifter": ["shapeshifter:W", "shapeshifter:J", "shapeshifter led as J"],
}


@pytest.mark.parametrize("special", SPECIALS)
def test_each_special_alone(special):
    rounds, problems, seen, _ = _check(_hands_selections([special], 1000 * SPECIALS.index(special)))
    _assert_clean(rounds, problems)
    assert seen["special indicator"] > 0
    for event in EVENTS[special]:
        assert seen[event] > 0, event


def test_werewolf_without_indicator():
    """No card turned up: 64 cards among 4 players x 16 (none left), or 4 x 15, the standard
    table's last round (4 left). Nothing to swap: the holder keeps the Werewolf, names
    nothing, the round has no trump, and the Werewolf plays as a Jester (RULES.md 3)."""
    sel = [{"players": 4, "cards": k, "hands": 250, "seed": 5 + i, "strategy": s, "rules": r,
            "specials": "werewolf,dragon,fairy,bomb"}
           for i, (s, r, k) in enumerate(itertools.product(STRATS[4], [{}, {"werewolf": "may"}], [16, 15]))]  # fmt: skip
    rounds, problems, seen, _ = _check(sel, 3000)
    _assert_clean(rounds, problems, 3000)
    assert seen["werewolf, no indicator"] > 500 and seen["werewolf played"] > 0
    assert seen["werewolf, no indicator, cards left"] > 200
    assert seen["werewolf, no indicator, trump named"] == 0 and seen["werewolf swapped"] == 0


def test_dragon_and_fairy():
    rounds, problems, seen, _ = _check(_hands_selections(["Dragon", "Fairy"], 9000))
    _assert_clean(rounds, problems)
    assert seen["dragon+fairy"] > 0


def test_all_seven():
    rounds, problems, seen, _ = _check(_hands_selections(SPECIALS, 12000))
    _assert_clean(rounds, problems)
    for event in ["dragon+fairy", "bombed", "passes", "cloud change", "werewolf swapped", "shapeshifter:W",
                  "cloud bombed", "bomb dragon fairy"]:  # fmt: skip
        assert seen[event] > 0, event


@pytest.mark.parametrize("hidden", ["simultaneous", "secret"])
def test_hidden_bids(hidden):
    sets = [{"hidden_bids": hidden}, {"hidden_bids": hidden, "scoring": "progressive"}]
    rounds, problems, _, _ = _check(_hands_selections(["Dragon", "Fairy", "Cloud"], 15000, sets), TARGET // 2)
    _assert_clean(rounds, problems, TARGET // 2)


def test_clairvoyance():
    sets = [{"variant": "clairvoyance"}, {"variant": "clairvoyance", "scoring": "progressive"}]
    one_card = _hands_selections([], 16000, sets, sizes=[1])
    rounds, problems, _, _ = _check(one_card, TARGET // 2)
    _assert_clean(rounds, problems, TARGET // 2)
    games = _game_selections("clairvoyance", [3, 4, 5, 6], [None, "all"], 17000)
    rounds, problems, _, by_game = _check(games, TARGET // 2)
    _assert_clean(rounds, problems, TARGET // 2)
    for records in by_game.values():  # 60 // n rounds, with or without specials
        assert len(records) == 60 // records[0]["players"]
        assert not (issues := R.check_game(records, rounds_checked=True)), issues[:5]


def test_mono():
    rounds, problems, _, games = _check(_game_selections("mono", [3, 4], [None], 18000))
    _assert_clean(rounds, problems)
    _assert_whole_games(games, 12)


def test_maximus():
    sel = _game_selections("maximus+clairvoyance", [3, 4, 5, 6], [None, "all", "werewolf,juggler"], 19000)
    rounds, problems, seen, games = _check(sel)
    _assert_clean(rounds, problems)
    assert seen["werewolf played"] > 0
    _assert_whole_games(games, 5)


def test_elimination():
    sel = _game_selections("elimination", [4, 5, 6], [None, "all"], 20000)
    rounds, problems, _, games = _check(sel)
    _assert_clean(rounds, problems)
    assert len(games) > 20
    _assert_whole_games(games, 20)
    # players leave after the same rounds with or without specials (RULES.md 9: from 60 cards)
    for records in games.values():
        sizes = [r["players"] for r in records]
        after = [r for r in range(1, 20) if sizes[r] < sizes[r - 1]]
        assert after == {4: [15], 5: [12, 15], 6: [10, 12, 15]}[sizes[0]], (records[0]["specials"], after)
