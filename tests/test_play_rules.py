"""User play rules (wizsim.players.play_rules): the features the engine hands them, their cards, their errors.

* Every feature is checked against its meaning (``FEATURES``), computed here
  from the recorded round with the reference rules (``reference``, written
  from RULES.md): a rule logs every feature of every (card, form) it scores,
  and the test recomputes them from the history, for every special card and
  each variant that changes card play.
* The rule's card is its highest score, ties to the lowest form code.
* A rule that plays the heuristic's form is the heuristic, count for count; a
  rule that always abstains is its fallback player, record for record.
* Bad rules: one clear error (an exception in Python, one line and exit 2 on
  the command line, no output file).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
import reference as R
from conftest import record_arrays

from wizsim.engine import layout as L
from wizsim.errors import WizsimError
from wizsim.game import cards as C
from wizsim.game.history_file import read_history
from wizsim.players.play_rules import ABSTAIN, FEATURES, PlayRule
from wizsim.players.strategies import make_strategy, play_rule
from wizsim.run.spec import make_spec, run_block

NAMES = [n for n in FEATURES]
SUITS = "BRGY"
TABLE, _ = C.kernel_tables()


def logging_rule(log: list) -> PlayRule:
    """A rule that reads every feature, appends them to ``log`` (Numba's object mode) and scores a spread of
    values, so that its cards vary."""
    args = ", ".join(NAMES)
    src = (
        f"def logged({args}):\n"
        "    with numba.objmode():\n"
        f"        LOG.append(({args},))\n"
        "    return (code * 7919 + trick * 31 + position * 17) % 101\n"
    )
    ns: dict = {"numba": numba, "LOG": log}
    exec(src, ns)  # noqa: S102 - the test's own rule
    return PlayRule(ns["logged"], "logged")


def score(code: int, trick: int, position: int) -> int:
    return (code * 7919 + trick * 31 + position * 17) % 101


def forms(c: int) -> list[int]:
    """The forms of card type ``c`` in code order (RULES.md: a Juggler/Cloud names a suit, a Shapeshifter a role)."""
    if c == L.JUGGLER:
        return [L.JUGGLER_AS + s for s in range(4)]
    if c == L.CLOUD:
        return [L.CLOUD_AS + s for s in range(4)]
    if c == L.SHAPESHIFTER:
        return [L.SHAPESHIFTER_AS_WIZARD, L.SHAPESHIFTER_AS_JESTER]
    return [c]


def card_type(f: int) -> int:
    return int(TABLE[f, L.T_CARD]) if f >= L.JUGGLER_AS else int(f)


def bits(mask: int) -> list[int]:
    return [c for c in range(64) if (int(mask) >> c) & 1]


class RoundView:
    """What the history tells about one recorded round (round seats)."""

    def __init__(self, rec, row: int, deck: dict[int, int], opts: dict):
        self.rec, self.row, self.opts = rec, row, opts
        self.n = int(rec.round_players[row])
        self.k = int(rec.cards[row])
        t = int(rec.trump[row])
        self.trump = SUITS[t] if t >= 0 else None
        self.mono = opts.get("variant") == "mono"
        ind = int(rec.indicator[row])
        self.shown = L.WEREWOLF if int(rec.swapped[row]) else ind
        self.deck = deck
        self.leaders = [int(rec.leaders[row, t]) for t in range(self.k)]
        self.plays = [[int(rec.plays[row, t, j]) for j in range(self.n)] for t in range(self.k)]
        self.passes = [[int(rec.passes[row, t, q]) for q in range(self.n)] for t in range(self.k)]
        self.winners = []  # by the reference rules, not the engine's record
        for t in range(self.k):
            w = R.trick_winner([C.card_name(f) for f in self.plays[t]], self.trump, opts)
            self.winners.append(-1 if w is None else (self.leaders[t] + w) % self.n)

    def seat(self, t: int, j: int) -> int:
        return (self.leaders[t] + j) % self.n

    def hand(self, p: int, t: int) -> dict[int, int]:
        """Seat p's card types at its play in trick t: what it plays from there on, plus what it passes away
        later, less what it receives later."""
        held: dict[int, int] = {}
        for u in range(t, self.k):
            for j in range(self.n):
                if self.seat(u, j) == p:
                    c = card_type(self.plays[u][j])
                    held[c] = held.get(c, 0) + 1
            if self.passes[u][p] >= 0:
                held[self.passes[u][p]] = held.get(self.passes[u][p], 0) + 1
                got = self.passes[u][(p - 1) % self.n]
                held[got] = held.get(got, 0) - 1
        return {c: m for c, m in held.items() if m > 0}

    def played_before(self, t: int, j: int) -> list[int]:
        out = [card_type(f) for u in range(t) for f in self.plays[u]]
        return out + [card_type(f) for f in self.plays[t][:j]]

    def voids(self, q: int, t: int) -> set[str]:
        """Suits seat q showed out of in the tricks before t since the last passes (a suit card off the led suit)."""
        if self.mono:
            return set()
        start = 0
        for u in range(t):
            if self.passes[u][0] >= 0:
                start = u + 1
        out = set()
        for u in range(start, t):
            names = [C.card_name(f) for f in self.plays[u]]
            for j in range(self.n):
                if self.seat(u, j) != q:
                    continue
                led = R.led_suit(names[:j])
                c = card_type(self.plays[u][j])
                if c < 52 and led is not None and SUITS[c // 13] != led:
                    out.add(led)
        return out

    def features(self, t: int, j: int, f: int) -> dict[str, int]:
        """Every feature but ``power`` and ``heuristic`` (checked apart) of form f at the play (t, j)."""
        n, k, p = self.n, self.k, self.seat(t, j)
        so_far = [C.card_name(g) for g in self.plays[t][:j]]
        name = C.card_name(f)
        c = card_type(f)
        hand = self.hand(p, t)
        led = None if self.mono else R.led_suit(so_far)
        suit = R.card_suit(name)
        bid = int(self.rec.bids[self.row, p])
        won = sum(1 for u in range(t) if self.winners[u] == p)
        need = bid - won
        cancelled = self.opts.get("bomb") == "cancel_bids" and any(
            card_type(g) == L.BOMB for u in range(t) for g in self.plays[u])  # fmt: skip
        wins = R.trick_winner(so_far + [name], self.trump, self.opts) == j
        out = {
            "code": f,
            "rank": int(name[1:]) if c < 52 else 0,
            "suit": SUITS.index(suit) if suit is not None else -1,
            "is_trump": int(suit is not None and suit == self.trump),
            "follows": int(led is not None and suit == led),
            "other_suit": int(suit is not None and suit != self.trump and suit != led),
            "wins": int(wins),
            "boss": int(wins and self.unbeatable(t, j, f, hand)),
            "lowest_in_suit": int(c < 52 and not any(d < c and d // 13 == c // 13 for d in hand)),
            "highest_in_suit": int(c < 52 and not any(d > c and d // 13 == c // 13 for d in hand)),
            "wizard": int(c == L.WIZARD),
            "jester": int(c == L.JESTER),
            "as_wizard": int(name in ("W", "Shapeshifter:W")),
            "as_jester": int(name in ("J", "Shapeshifter:J")),
            "named_suit": SUITS.index(suit) if c in (L.JUGGLER, L.CLOUD) else -1,
            "need": need,
            "bid": bid,
            "won": won,
            "made": int(need == 0),
            "lost": int(need < 0 or need > k - t),
            "tricks_left": k - t,
            "trick": t,
            "cards": k,
            "players": n,
            "position": j,
            "cards_after": n - 1 - j,
            "leading": int(j == 0),
            "last": int(j == n - 1),
            "no_trump": int(self.trump is None),
            "trumps_held": sum(1 for d in hand if d < 52 and SUITS[d // 13] == self.trump),
            "legal_cards": len(bits(self.rec.legal[self.row, t, j])),
            "bids_cancelled": int(cancelled),
        }
        for i, special in enumerate(L.SPECIAL_NAMES):
            out[special.lower()] = int(c == L.FIRST_SPECIAL + i)
        return out

    def unbeatable(self, t: int, j: int, f: int, hand: dict[int, int]) -> bool:
        """No unseen card (deck less the cards played, the hand and the face-up card) that a later seat may hold
        (it has not shown out of its suit) takes the trick from form f if it is played next."""
        if j == self.n - 1:
            return True
        left = dict(self.deck)
        for c in self.played_before(t, j) + [c for c, m in hand.items() for _ in range(m)]:
            left[c] -= 1
        if self.shown >= 0:
            left[self.shown] -= 1
        later = [self.seat(t, jj) for jj in range(j + 1, self.n)]
        common = set(SUITS)
        for q in later:
            common &= self.voids(q, t)
        so_far = [C.card_name(g) for g in self.plays[t][:j]] + [C.card_name(f)]
        for u, m in left.items():
            if m <= 0 or (u < 52 and SUITS[u // 13] in common):
                continue
            for g in forms(u):
                if R.trick_winner(so_far + [C.card_name(g)], self.trump, self.opts) != j:
                    return False
        return True


SETTINGS = {  # name -> (players, games, make_spec rules, specials, the reference's options)
    "all specials": (4, 2, [], "all", {}),
    "bomb cancels bids": (3, 2, ["bomb=cancel_bids"], "all", {"bomb": "cancel_bids"}),
    "mono": (3, 1, ["variant=mono"], None, {"variant": "mono"}),
    "maximus": (6, 2, ["variant=maximus"], None, {"variant": "maximus"}),
    "elimination": (5, 1, ["variant=elimination"], "dragon,fairy,juggler", {"variant": "elimination"}),
}


def deck_counts(spec) -> dict[int, int]:
    codes = C.mono_decks(spec.players).ravel() if spec.rules.has("mono") else spec.deck
    out: dict[int, int] = {}
    for c in codes:
        out[int(c)] = out.get(int(c), 0) + 1
    return out


@pytest.mark.parametrize("setting", list(SETTINGS))
def test_every_feature_is_what_its_name_says(setting):
    """All seats play the logging rule (heuristic bids); every feature of every scored form is recomputed from
    the history; the card played is the best score, ties to the lowest code."""
    n, games, rules, specials, opts = SETTINGS[setting]
    log: list = []
    seat = play_rule(logging_rule(log), bid="heuristic")
    log.clear()  # what the probe situations logged (wizsim.players.play_rules.PlayRule._probe)
    spec = make_spec(n, games=games, seed=11, strategy=[seat] * n, rules=rules, specials=specials)
    rec = record_arrays(spec)
    deck = deck_counts(spec)
    at = 0
    seen_values: dict[str, set] = {name: set() for name in NAMES}
    decisions = 0
    for row in range(len(rec)):
        rv = RoundView(rec, row, deck, opts)
        for t in range(rv.k):
            for j in range(rv.n):
                legal = bits(rec.legal[row, t, j])
                p = rv.seat(t, j)
                hand_names = [C.card_name(c) for c, m in rv.hand(p, t).items() for _ in range(m)]
                so_far = [C.card_name(g) for g in rv.plays[t][:j]]
                want_legal = R.legal_cards(hand_names, so_far, rv.trump, opts)
                assert {C.card_name(c) for c in legal} == want_legal, (row, t, j)
                cands = [f for c in legal for f in forms(c)]
                if len(cands) == 1 and len(legal) == 1:
                    continue  # no choice: the rule is not asked
                decisions += 1
                entries = log[at : at + len(cands)]
                at += len(cands)
                powers = {}
                for f, entry in zip(cands, entries, strict=True):
                    got = dict(zip(NAMES, entry, strict=True))
                    want = rv.features(t, j, f)
                    for name, value in want.items():
                        assert got[name] == value, (
                            f"{setting}: {name} of {C.card_name(f)} at round {row} trick {t}"
                            f" position {j}: engine {got[name]}, history {value}"
                        )
                    for name, value in got.items():
                        seen_values[name].add(value)
                    powers[f] = got["power"]
                    assert got["heuristic"] in (0, 1)
                for flag in ("heuristic", "fallback"):  # one form each (the fallback here: the heuristic)
                    assert sum(dict(zip(NAMES, e, strict=True))[flag] for e in entries) == 1
                assert [e[NAMES.index("heuristic")] for e in entries] == [e[NAMES.index("fallback")] for e in entries]
                check_power(rv, t, j, powers)
                best = max(cands, key=lambda f: (score(f, t, j), -f))
                assert rv.plays[t][j] == best, (row, t, j)
    assert at == len(log) and decisions > 100
    varied = {name for name, values in seen_values.items() if len(values) > 1}
    always = {"code", "rank", "suit", "is_trump", "wins", "need", "won", "tricks_left", "trick", "position",
              "cards_after", "leading", "last", "legal_cards", "lowest_in_suit", "highest_in_suit", "made", "lost",
              "boss", "power"}  # fmt: skip
    if opts.get("variant") == "mono":
        always -= {"is_trump"}  # [mono] no trump
    assert always <= varied, always - varied
    if specials == "all":
        assert {s.lower() for s in L.SPECIAL_NAMES} | {"named_suit", "as_wizard", "as_jester"} <= varied
    if "bomb=cancel_bids" in rules:
        assert "bids_cancelled" in varied


def check_power(rv: RoundView, t: int, j: int, powers: dict[int, int]) -> None:
    """A form of higher power wins whenever one of lower power would (the Fairy and the Bomb aside, and the Dragon
    when the Fairy is in the trick: RULES.md 6 puts those before powers)."""
    so_far = [C.card_name(g) for g in rv.plays[t][:j]]
    aside = (L.FAIRY, L.BOMB, L.DRAGON) if "Fairy" in so_far else (L.FAIRY, L.BOMB)
    plain = {f: pw for f, pw in powers.items() if card_type(f) not in aside}
    for a, pa in plain.items():
        for b, pb in plain.items():
            if pb > pa and R.trick_winner(so_far + [C.card_name(a)], rv.trump, rv.opts) == j:
                assert R.trick_winner(so_far + [C.card_name(b)], rv.trump, rv.opts) == j, (
                    C.card_name(a),
                    C.card_name(b),
                )


# --------------------------------------------------------------------------- cards the rule plays


def test_ties_go_to_the_lowest_form_code():
    flat = play_rule(PlayRule(lambda cards: 0, "flat"), bid="heuristic")
    spec = make_spec(4, games=1, seed=2, strategy=[flat, "heuristic", "heuristic", "heuristic"], specials="all")
    rec = record_arrays(spec)
    checked = 0
    for row in range(len(rec)):
        n, k = int(rec.round_players[row]), int(rec.cards[row])
        for t in range(k):
            for j in range(n):
                if (int(rec.leaders[row, t]) + j) % n == 0:
                    legal = bits(rec.legal[row, t, j])
                    assert int(rec.plays[row, t, j]) == forms(legal[0])[0]
                    checked += 1
    assert checked == sum(int(k) for k in rec.cards)


def test_a_rule_that_plays_the_heuristic_is_the_heuristic():
    """Count for count: the rule machinery changes nothing but who chooses the card."""
    same = PlayRule(lambda heuristic: heuristic, "same")
    for kw in ({"cards": 10, "hands": 20_000}, {"games": 30, "specials": "all"}):
        a = make_spec(4, seed=8, strategy="heuristic", **kw)
        b = make_spec(4, seed=8, strategy=[play_rule(same, bid="heuristic"), "heuristic"] * 2, **kw)
        ca, cb = run_block(a, 0, a.n_chunks), run_block(b, 0, b.n_chunks)
        assert np.array_equal(ca.joint, cb.joint) and np.array_equal(ca.aux, cb.aux)
        assert np.array_equal(ca.game_acc, cb.game_acc)


@pytest.mark.parametrize("player", ["learned", "table", "random"])
@pytest.mark.parametrize("kind", ["abstains", "plays the fallback's card"])
def test_a_rule_that_always_abstains_is_its_fallback(player, kind):
    """Record for record, special cards included (the fallback's forms and decision stream are untouched)."""
    func = (lambda wins: ABSTAIN) if kind == "abstains" else (lambda fallback: fallback)
    never = play_rule(PlayRule(func, "never"), bid=player)
    a = record_arrays(make_spec(4, games=2, seed=5, strategy=player, specials="all"))
    b = record_arrays(make_spec(4, games=2, seed=5, strategy=[never, player, never, player], specials="all"))
    for x, y in zip(a.kernel_arrays(), b.kernel_arrays(), strict=True):
        assert np.array_equal(x, y)


def test_a_habit_changes_only_where_it_applies():
    """Duck once made (the highest card that does not win), abstain elsewhere: every change is a made seat's."""
    duck = play_rule(PlayRule(lambda made, wins, power: (-1000 if wins else power) if made else ABSTAIN, "duck"),
                     bid="table")  # fmt: skip
    a = record_arrays(make_spec(4, cards=8, hands=400, seed=9, strategy="table"))
    b = record_arrays(make_spec(4, cards=8, hands=400, seed=9, strategy=[duck, "table", "table", "table"]))
    assert np.array_equal(a.bids, b.bids)  # bids come before any card
    differ = (a.plays != b.plays).any(axis=(1, 2))
    assert differ.any() and not differ.all()
    for row in np.flatnonzero(differ):  # the first difference is a seat-0 play with its bid made
        t, j = (int(x) for x in np.argwhere(a.plays[row] != b.plays[row])[0])
        rv = RoundView(b, int(row), deck_counts(make_spec(4, cards=8, hands=1, seed=9)), {})
        assert rv.seat(t, j) == 0
        feats = rv.features(t, j, int(b.plays[row, t, j]))
        assert feats["made"] == 1
        legal = [g for c in bits(b.legal[row, t, j]) for g in forms(c)]
        assert feats["wins"] == 0 or all(rv.features(t, j, g)["wins"] for g in legal)


def test_labels_parsing_and_workers(tmp_path):
    from wizsim.run.parallel import run_counts

    f = tmp_path / "mine.py"
    f.write_text("def play(made, wins, power):\n    return -power if made else power\n")
    s = make_strategy(f"play({f}:play,bid=heuristic)")
    assert s.name == f"play({f}:play,bid=heuristic)" and s.strategy_id == L.S_HEURISTIC
    assert make_strategy(f"play({f}:play)").name == f"play({f}:play)"  # bids: learned
    r = make_strategy(f"play({f}:play,bid=rule(wizsim.rules_of_thumb:sure_winners,play=heuristic))")
    assert r.strategy_id == L.S_HEURISTIC
    spec = make_spec(4, cards=10, hands=40_000, seed=5, strategy=[s, "heuristic", r, "heuristic"])
    one, two = run_counts(spec, jobs=1), run_counts(spec, jobs=2)
    assert np.array_equal(one.joint, two.joint) and np.array_equal(one.aux, two.aux)


# --------------------------------------------------------------------------- errors


def test_unknown_feature_is_named_with_a_suggestion():
    with pytest.raises(WizsimError, match=r"unknown feature 'winz'; did you mean wins"):
        play_rule(lambda winz: 0)


def test_a_rule_that_does_not_compile_is_refused():
    with pytest.raises(WizsimError, match="play rule .* does not compile with Numba") as e:
        play_rule(lambda wins: [wins])
    assert "\n" not in str(e.value)
    with pytest.raises(WizsimError, match="does not compile"):
        play_rule(lambda wins: "high")


def test_nan_is_refused_before_running_or_stops_the_run():
    with pytest.raises(WizsimError, match=r"scores .* NaN in a probe situation"):
        play_rule(lambda wins: math.nan)
    late = play_rule(PlayRule(lambda trick, cards: math.nan if trick == 3 and cards > 5 else 0.0, "late"),
                     bid="heuristic")  # fmt: skip
    spec = make_spec(4, cards=8, hands=50, seed=1, strategy=[late, "heuristic", "heuristic", "heuristic"])
    with pytest.raises(WizsimError, match=r"play rule late scored .* NaN"):
        run_block(spec, 0, spec.n_chunks)


def test_an_error_inside_a_rule_is_one_clear_error():
    with pytest.raises(WizsimError, match=r"play rule ratio fails on a probe situation: ZeroDivisionError"):
        play_rule(PlayRule(lambda power, trumps_held: power // trumps_held, "ratio"))  # no trump in the probe hand
    ratio = play_rule(PlayRule(lambda power, trick: power // (trick - 4), "ratio"), bid="heuristic")
    spec = make_spec(4, cards=10, hands=500, seed=1, strategy=ratio)
    with pytest.raises(WizsimError, match=r"play rule ratio failed while playing: ZeroDivisionError"):
        run_block(spec, 0, spec.n_chunks)


def _wizsim(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "wizsim.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=os.environ.copy())  # fmt: skip


PLAY_FILES = {
    "ok.py": "def play(made, wins, power, rank):\n    return (-power if made else power) - rank / 100\n",
    "unknown.py": "def play(wins, powr):\n    return wins\n",
    "nocompile.py": "def play(wins):\n    return 'one'\n",
    "nan.py": "import math\n\ndef play(wins):\n    return math.nan\n",
}
CLI_BAD = {
    "unknown feature": ("unknown.py", "unknown feature 'powr'; did you mean power"),
    "does not compile": ("nocompile.py", "does not compile with Numba"),
    "NaN": ("nan.py", "NaN"),
}


@pytest.mark.parametrize("case", list(CLI_BAD))
def test_command_line_bad_rule_is_one_line_exit_2_no_file(tmp_path, case):
    name, fragment = CLI_BAD[case]
    (tmp_path / name).write_text(PLAY_FILES[name])
    res = _wizsim(["simulate", "--players", "4", "--cards", "10", "--hands", "50", "--seed", "1", "--strategy",
                   f"play({name}:play,bid=heuristic),table,table,table", "--out", "out.csv"], tmp_path)  # fmt: skip
    assert res.returncode == 2, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("wizsim: error: play rule") and fragment in lines[0], res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_command_line_play_rule_and_features(tmp_path):
    (tmp_path / "ok.py").write_text(PLAY_FILES["ok.py"])
    rule = "play(ok.py:play,bid=heuristic)"
    res = _wizsim(["simulate", "--players", "4", "--cards", "10", "--hands", "2000", "--seed", "1", "--strategy",
                   f"{rule},table,table,table", "--out", "s.csv"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert rule in (tmp_path / "s.csv").read_text()
    res = _wizsim(["features", "--play"], tmp_path)
    assert res.returncode == 0 and all(name in res.stdout for name in FEATURES), res.stderr


def test_a_play_rule_goes_wherever_a_strategy_goes(tmp_path):
    (tmp_path / "ok.py").write_text(PLAY_FILES["ok.py"])
    rule = "play(ok.py:play,bid=heuristic)"
    res = _wizsim(["tournament", "--players", "4", "--cards", "10", "--deals", "200", "--seed", "1",
                   "--strategies", f"{rule},heuristic", "--json"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)["strategies"]
    assert {row["strategy"] for row in rows} == {rule, "heuristic"}, rows
    res = _wizsim(["history", "--players", "4", "--cards", "5", "--hands", "20", "--seed", "3", "--strategy",
                   f"{rule},table,table,table", "--out", "h.jsonl"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr
    lines = read_history(tmp_path / "h.jsonl")  # every record checked against HISTORY.md
    assert len(lines) == 20 and all(R.replay(line.record) == [] for line in lines)  # and replayed under the rules
    res = _wizsim(["advise", "--players", "4", "--position", "1", "--hand", "W,B13,R7,J,G2", "--indicator",
                   "B5", "--samples", "2000", "--strategy", f"{rule},table,table,table"], tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stderr


def test_the_example_file_loads_and_plays():
    example = Path(__file__).resolve().parents[1] / "scripts" / "my_play_rule_example.py"
    s = make_strategy(f"play({example}:my_play_rule,bid=heuristic)")
    spec = make_spec(4, cards=10, hands=500, seed=1, strategy=[s, "heuristic", "heuristic", "heuristic"])
    assert run_block(spec, 0, spec.n_chunks).joint.sum() == 500 * 4
