"""User bid rules (wizsim.players.bid_rules): the features the engine hands them, their bids, their errors.

* Every feature is checked against its meaning in ``FEATURES`` computed here from
  the recorded hands (a rule that bids the feature, clipped to the round).
* ``rule(table_bid)`` is the ``table`` player and ``rule(heuristic_bid,
  play=heuristic)`` the heuristic, game for game.
* Bad rules: one clear error (an exception in Python, one line and exit 2 on
  the command line, no output file).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from conftest import record_arrays

from wizsim.engine import layout as L
from wizsim.errors import WizsimError
from wizsim.players.bid_rules import FEATURES, BidRule, load_rule
from wizsim.players.strategies import RuleStrategy, bid_rule, make_strategy
from wizsim.run.spec import make_spec, run_block

NO_WOLF = "dragon,fairy,bomb,juggler,cloud,shapeshifter"  # the Werewolf swaps a hand after the deal
OFFSET = {"forbidden": 1}  # a rule bids feature + offset, clipped to 0..cards


def feature_rule(name: str) -> BidRule:
    """A rule that bids the feature ``name`` (plus its offset), clipped to 0..cards."""
    args = name if name == "cards" else f"{name}, cards"
    src = f"def bid_{name}({args}):\n    return min(max({name} + {OFFSET.get(name, 0)}, 0), cards)\n"
    ns: dict = {}
    exec(src, ns)  # noqa: S102 - a test's own rule
    return BidRule(ns[f"bid_{name}"])


def reference(rec, row: int, seat: int, n: int, rules: set[str]) -> dict[str, int]:
    """Every integer feature of ``seat``'s bid in recorded round ``row``, from FEATURES' meanings."""
    k = int(rec.cards[row])
    trump = int(rec.trump[row])
    indicator = int(rec.indicator[row])
    dealer = int(rec.dealer[row])
    hand = [int(c) for c in rec.hands[row, seat, :k]]
    pos = (seat - dealer - 1) % n
    earlier = [(dealer + 1 + j) % n for j in range(pos)]
    hidden = "hidden" in rules
    before = 0 if hidden else sum(int(rec.bids[row, s]) for s in earlier)
    sums = sum(int(rec.bids[row, s]) for s in earlier)
    suit_cards = [(c // 13, c % 13 + 1) for c in hand if c < 52]
    side = [(s, r) for s, r in suit_cards if s != trump]
    side_lengths = [sum(1 for s, _ in suit_cards if s == t) for t in range(4) if t != trump]
    # named by a player: a Wizard or special card turned up (not a Jester: no trump), or the Werewolf's swap;
    # a fixed trump (Maximus) or a turned-up suit card is not named
    named = trump >= 0 and (int(rec.swapped[row]) != 0 or (indicator >= 52 and indicator != L.JESTER))
    out = {
        "cards": k,
        "players": n,
        "position": pos,
        "first": int(pos == 0),
        "last": int(pos == n - 1),
        "bids_before": before,
        "bids_seen": int(not hidden),
        "forbidden": k - sums if ("canadian" in rules and pos == n - 1) else -1,
        "no_trump": int(trump < 0),
        "trump_named": int(named),
        "wizards": hand.count(L.WIZARD),
        "jesters": hand.count(L.JESTER),
        "trumps": sum(1 for s, _ in suit_cards if s == trump),
        "side_aces": sum(1 for _, r in side if r == 13),
        "side_kings": sum(1 for _, r in side if r == 12),
        "side_queens": sum(1 for _, r in side if r == 11),
        "longest_side": max(side_lengths),
        "shortest_side": min(side_lengths),
        "side_voids": side_lengths.count(0),
        "side_singletons": side_lengths.count(1),
        "side_doubletons": side_lengths.count(2),
    }
    for i, name in enumerate(L.SPECIAL_NAMES):
        out[name.lower()] = hand.count(L.FIRST_SPECIAL + i)
    for r in range(1, 13):
        out[f"trumps_above_{r}"] = sum(1 for s, q in suit_cards if s == trump and q > r)
        out[f"side_above_{r}"] = sum(1 for _, q in side if q > r)
    return out


CHECKED = [n for n, (_, is_float, _) in FEATURES.items() if not is_float and n not in ("heuristic_bid", "table_bid")]
SETTINGS = {  # name -> (make_spec rules, the reference's rule set)
    "canadian": (["canadian=true"], {"canadian"}),
    "hidden": (["hidden_bids=simultaneous"], {"hidden"}),
    "maximus": (["variant=maximus"], set()),  # every round's trump is fixed: never named
}


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_every_feature_is_what_its_name_says(setting):
    """Four feature rules at a time (one per seat) over full 4-player games with six special cards."""
    rules, ref_rules = SETTINGS[setting]
    checked = 0
    for start in range(0, len(CHECKED), 4):
        names = CHECKED[start : start + 4]
        names += names[:1] * (4 - len(names))
        seats = [bid_rule(feature_rule(f), play="table") for f in names]
        spec = make_spec(4, games=12, seed=31 + start, strategy=seats, rules=rules, specials=NO_WOLF)
        rec = record_arrays(spec)
        for row in range(len(rec)):
            k = int(rec.cards[row])
            for seat, name in enumerate(names):
                want = reference(rec, row, seat, 4, ref_rules)[name]
                bid = int(rec.bids[row, seat])
                expect = min(max(want + OFFSET.get(name, 0), 0), k)
                if expect == reference(rec, row, seat, 4, ref_rules)["forbidden"]:
                    assert abs(bid - expect) == 1  # the Canadian rule's step off the forbidden bid
                    continue
                assert bid == expect, f"{name}: round {row} seat {seat}: bid {bid}, feature {want}"
                checked += 1
    assert checked > 10 * len(CHECKED)


@pytest.mark.parametrize(
    "rules,specials,games",
    [
        ([], None, None),
        (["canadian=true"], NO_WOLF + ",werewolf", 40),
        (["hidden_bids=secret", "scoring=progressive"], "dragon,fairy,cloud", 40),
    ],
)
def test_a_rule_bidding_table_bid_is_the_table_player(rules, specials, games):
    """Same counts, round for round: the rule machinery changes nothing but the bidder."""
    kw = {"games": games} if games else {"cards": 10, "hands": 20_000}
    tb = BidRule(lambda table_bid: table_bid, label="tb")
    a = make_spec(4, seed=8, strategy="table", rules=rules, specials=specials, **kw)
    b = make_spec(4, seed=8, strategy=[bid_rule(tb), "table", bid_rule(tb), "table"], rules=rules,
                  specials=specials, **kw)  # fmt: skip
    ca, cb = run_block(a, 0, a.n_chunks), run_block(b, 0, b.n_chunks)
    assert np.array_equal(ca.joint, cb.joint) and np.array_equal(ca.aux, cb.aux)
    assert np.array_equal(ca.game_acc, cb.game_acc)


def test_a_rule_bidding_heuristic_bid_is_the_heuristic():
    hb = BidRule(lambda heuristic_bid: heuristic_bid, label="hb")
    a = make_spec(5, cards=8, hands=20_000, seed=2, strategy="heuristic")
    b = make_spec(5, cards=8, hands=20_000, seed=2, strategy=bid_rule(hb, play="heuristic"))
    assert np.array_equal(run_block(a, 0, a.n_chunks).joint, run_block(b, 0, b.n_chunks).joint)


def test_a_rule_changes_the_bids_and_plays_by_its_player():
    """A zero-bidder bids 0 always and (with the heuristic's play) makes it far more often than random play."""
    zero = bid_rule(BidRule(lambda cards: 0, label="zero"), play="heuristic")
    spec = make_spec(4, cards=5, hands=4_000, seed=3, strategy=[zero, "heuristic", "heuristic", "heuristic"])
    rec = record_arrays(spec)
    assert (rec.bids[:, 0] == 0).all()
    assert (rec.bids[:, 1:] > 0).any()
    zero_random = bid_rule(BidRule(lambda cards: 0, label="zero"), play="random")
    spec_r = make_spec(4, cards=5, hands=4_000, seed=3, strategy=[zero_random, "heuristic", "heuristic", "heuristic"])
    made = (rec.tricks_won[:, 0] == 0).mean()
    made_r = (record_arrays(spec_r).tricks_won[:, 0] == 0).mean()
    assert made > made_r + 0.1, (made, made_r)


def test_fractional_values_round_half_up():
    half = bid_rule(BidRule(lambda cards: cards / 2, label="half"))
    for k, want in ((3, 2), (5, 3), (4, 2)):  # 1.5 -> 2, 2.5 -> 3, 2.0 -> 2
        spec = make_spec(4, cards=k, hands=50, seed=1, strategy=half)
        assert (record_arrays(spec).bids == want).all()


def test_rule_labels_and_parsing(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def bid(wizards, side_aces):\n    return wizards + side_aces\n")
    s = make_strategy(f"rule({f}:bid)")
    assert isinstance(s, RuleStrategy) and s.name == f"rule({f}:bid)" and s.strategy_id == L.S_TABLE
    h = make_strategy(f"rule({f}:bid,play=pimc(samples=8))")
    assert h.name == f"rule({f}:bid,play=pimc(samples=8.0))" and h.strategy_id == L.S_PIMC
    assert h.param_row()[L.P_SAMPLES] == 8
    m = make_strategy("rule(wizsim.rules_of_thumb:sure_winners,play=heuristic)")
    assert m.strategy_id == L.S_HEURISTIC
    # a file rule travels to worker processes as the text read in the main process; a module's function by reference
    f.write_text("def bid(wizards, side_aces):\n    return 0\n")  # edited during the run: the workers keep the rule
    again = pickle.loads(pickle.dumps(s.rule))
    assert again.label == s.rule.label and again.digest() == s.rule.digest()
    assert again(wizards=1, side_aces=2) == 3.0
    assert pickle.loads(pickle.dumps(m.rule)).func is m.rule.func
    assert make_strategy(f"rule({f}:bid)").rule.digest() != s.rule.digest()


def test_same_numbers_with_one_or_two_workers(tmp_path):
    from wizsim.run.parallel import run_counts

    f = tmp_path / "r.py"
    f.write_text("def bid(wizards, trumps_above_9, cards):\n    return min(wizards + trumps_above_9, cards)\n")
    spec = make_spec(4, cards=10, hands=40_000, seed=5, strategy=f"rule({f}:bid),table,table,table")
    one, two = run_counts(spec, jobs=1), run_counts(spec, jobs=2)
    assert np.array_equal(one.joint, two.joint) and np.array_equal(one.aux, two.aux)


def test_forbidden_is_never_below_minus_one():
    """Earlier bids above the round size forbid nothing: -1, as the features say (not k - sum < -1)."""
    low = bid_rule(BidRule(lambda forbidden: 1 if forbidden < -1 else 0, label="low"))
    spec = make_spec(4, games=40, seed=4, strategy=[low, "random", "random", "random"], rules=["canadian=true"])
    rec = record_arrays(spec)
    far_over = 0
    for row in range(len(rec)):
        k, dealer = int(rec.cards[row]), int(rec.dealer[row])
        if dealer != 0:  # the rule seat bids last only when it deals
            assert int(rec.bids[row, 0]) == 0
            continue
        earlier = sum(int(rec.bids[row, s]) for s in (1, 2, 3))
        far_over += earlier >= k + 2
        assert int(rec.bids[row, 0]) == (1 if earlier == k else 0)  # 0 forbidden: stepped to 1
    assert far_over > 0


def test_clairvoyance_hides_the_hand_a_rule_reads():
    """Clairvoyant rounds: the rule seat bids as its card player does (it cannot see its own hand)."""
    zero = bid_rule(BidRule(lambda cards: 0, label="zero"))
    a = make_spec(4, cards=6, hands=3_000, seed=6, strategy="table", rules=["variant=clairvoyance"])
    b = make_spec(4, cards=6, hands=3_000, seed=6, strategy=zero, rules=["variant=clairvoyance"])
    assert np.array_equal(run_block(a, 0, a.n_chunks).joint, run_block(b, 0, b.n_chunks).joint)


def test_advise_takes_a_rule_object():
    from wizsim.tools.advise import BidOptions, advise

    rule = bid_rule(BidRule(lambda heuristic_bid: heuristic_bid, label="hb"))
    adv = advise(4, 2, "W,B13,R7", indicator="G5", strategy=rule, options=BidOptions(samples=2_000, seed=1))
    assert adv.to_dict()["strategy"] == ["rule(hb)"] * 4


# --------------------------------------------------------------------------- errors


def test_an_error_inside_a_rule_is_one_clear_error():
    ratio = bid_rule(BidRule(lambda wizards, side_voids: wizards // side_voids, label="ratio"))
    spec = make_spec(4, cards=10, hands=2_000, seed=1, strategy=ratio)
    with pytest.raises(WizsimError, match=r"bid rule ratio failed while bidding: ZeroDivisionError"):
        run_block(spec, 0, spec.n_chunks)


def test_unknown_feature_is_named_with_a_suggestion():
    def bad(wizzards, cards):
        return 0

    with pytest.raises(WizsimError, match=r"unknown feature 'wizzards'; did you mean wizards"):
        bid_rule(bad)


def test_a_rule_that_does_not_compile_is_refused_before_running():
    def bad(wizards):
        return [wizards]  # a list is not a bid

    with pytest.raises(WizsimError, match="does not compile with Numba") as e:
        bid_rule(bad)
    assert "\n" not in str(e.value)

    def half_none(wizards):
        if wizards > 0:
            return 1
        return None

    with pytest.raises(WizsimError, match="does not compile"):
        bid_rule(half_none)


def test_an_impossible_bid_stops_the_run_with_the_rule_named():
    over = bid_rule(BidRule(lambda cards, wizards: cards + 1 + wizards, label="over"))
    spec = make_spec(4, cards=5, hands=100, seed=1, strategy=[over, "table", "table", "table"])
    with pytest.raises(WizsimError, match=r"bid rule over returned 6 in a 5-card round"):
        run_block(spec, 0, spec.n_chunks)
    neg = bid_rule(BidRule(lambda cards: -1, label="neg"), play="heuristic")
    spec = make_spec(4, games=1, seed=1, strategy=neg)
    with pytest.raises(WizsimError, match=r"bid rule neg returned -1"):
        record_arrays(spec)
    nan = bid_rule(BidRule(lambda estimate: estimate * np.nan, label="nan"))
    spec = make_spec(3, cards=4, hands=10, seed=1, strategy=nan)
    with pytest.raises(WizsimError, match=r"bid rule nan returned nan"):
        run_block(spec, 0, spec.n_chunks)


@pytest.mark.parametrize(
    "spec,fragment",
    [
        ("rule(nofile.py:bid)", "no file"),
        ("rule(mine.py:nobid)", "has no function 'nobid'"),
        ("rule(mine.py)", "write rule(path/to/file.py:function)"),
        ("rule(mine.py:bid,play=rule(mine.py:bid))", "built-in player"),
        ("rule(mine.py:bid,play=nobody)", "unknown strategy 'nobody'"),
        ("rule(mine.py:bid,speed=3)", "the only one is play"),
        ("rule(broken.py:bid)", "fails to load (line 1)"),
        ("rule(no.such.module:bid)", "cannot import 'no.such.module'"),
    ],
)
def test_bad_rule_specs(tmp_path, monkeypatch, spec, fragment):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text("def bid(wizards):\n    return wizards\n")
    (tmp_path / "broken.py").write_text("def bid(wizards) return 1\n")
    with pytest.raises(WizsimError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        make_strategy(spec)


RULE_FILES = {
    "ok.py": "def bid(wizards, trumps_above_10, side_aces, cards):\n    return min(wizards + trumps_above_10 + side_aces, cards)\n",
    "unknown.py": "def bid(wizards, trumps_over_10):\n    return wizards\n",
    "nocompile.py": "def bid(wizards):\n    return 'one'\n",
    "over.py": "def bid(cards):\n    return cards + 1\n",
}
RULE_FILES["divide.py"] = "def bid(wizards, side_voids):\n    return wizards // side_voids\n"
CLI_BAD = {
    "divides by zero": ("divide.py", "failed while bidding: ZeroDivisionError"),
    "unknown feature": ("unknown.py", "unknown feature 'trumps_over_10'"),
    "does not compile": ("nocompile.py", "does not compile with Numba"),
    "impossible bid": ("over.py", "returned 11 in a 10-card round"),
}


def _wizsim(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizsim.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=os.environ.copy())  # fmt: skip


@pytest.mark.parametrize("case", list(CLI_BAD))
@pytest.mark.parametrize("command", ["simulate", "history"])
def test_command_line_bad_rule_is_one_line_exit_2_no_file(tmp_path, case, command):
    name, fragment = CLI_BAD[case]
    (tmp_path / name).write_text(RULE_FILES[name])
    out = "out.csv" if command == "simulate" else "out.jsonl"
    res = _wizsim([command, "--players", "4", "--cards", "10", "--hands", "50", "--seed", "1", "--strategy",
                   f"rule({name}:bid),table,table,table", "--out", out], tmp_path)  # fmt: skip
    assert res.returncode == 2, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error: bid rule") and fragment in lines[0], res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_command_line_rule_everywhere(tmp_path):
    """simulate, history, tournament and advise take a rule; features lists them."""
    (tmp_path / "ok.py").write_text(RULE_FILES["ok.py"])
    rule = "rule(ok.py:bid)"
    res = _wizsim(["simulate", "--players", "4", "--cards", "10", "--hands", "2000", "--seed", "1", "--strategy",
                   f"{rule},table,table,table", "--out", "s.csv"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert rule in (tmp_path / "s.csv").read_text()
    res = _wizsim(["history", "--players", "4", "--cards", "6", "--hands", "20", "--seed", "1", "--strategy", rule,
                   "--out", "h.jsonl"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert rule in (tmp_path / "h.jsonl").read_text().splitlines()[0]
    res = _wizsim(["tournament", "--players", "4", "--strategies", f"{rule},table", "--cards", "10", "--deals", "300",
                   "--seed", "1"], tmp_path)  # fmt: skip
    assert res.returncode == 0 and f"{rule} - table" in res.stdout, res.stderr
    res = _wizsim(["advise", "--players", "4", "--position", "2", "--hand", "W,B13,R7", "--indicator", "G5",
                   "--strategy", rule, "--samples", "2000", "--seed", "1"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    res = _wizsim(["features"], tmp_path)
    assert res.returncode == 0 and all(name in res.stdout for name in FEATURES)


def test_the_example_file_loads_and_plays():
    example = Path(__file__).resolve().parents[1] / "scripts" / "my_rule_example.py"
    rule = load_rule(f"{example}:my_rule")
    spec = make_spec(4, cards=10, hands=500, seed=1, strategy=bid_rule(rule))
    assert run_block(spec, 0, spec.n_chunks).joint.sum() == 500 * 4
    assert textwrap.dedent(example.read_text()).count("def my_rule(") == 1


def test_rules_made_in_a_loop_stay_apart_in_workers():
    """Unpickled rules are compiled once per process, keyed by their code and what it reads (closures too)."""
    cloudpickle = pytest.importorskip("cloudpickle")  # what loky and dask pickle with

    def weighted(weight):
        return BidRule(lambda cards: min(weight, cards), label="weighted")

    a, b = weighted(0), weighted(2)
    assert a.digest() != b.digest()
    made = [pickle.loads(cloudpickle.dumps(r)) for r in (a, b)]  # as a worker receives them
    assert made[0] is not made[1]
    assert made[0](cards=5) == 0 and made[1](cards=5) == 2
    two = make_spec(4, cards=5, hands=200, seed=1, strategy=[bid_rule(a), bid_rule(b), "table", "table"])
    from wizsim.run.parallel import run_counts

    got = run_counts(two, jobs=2).joint.sum(axis=(0, 2, 4))  # [seat, bid]
    assert got[0, 0] == 200 and got[1, 2] == 200
