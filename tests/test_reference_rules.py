"""Tests of the pure-Python reference engine tests/reference.py against RULES.md.

Phase 1: base game (RULES.md sections 1-8, no specials).  Phase 2: the seven special
cards.  Phase 3: the section 9 variants (mono, maximus, elimination, clairvoyance).
Phase 4: whole games (RULES.md 2, 3, 8, 9: game length, the last round without trump,
the Werewolf with no card turned up, dealers, leavers, totals; `check_game`).
Phases 2 to 4 are grouped at the end of the file.  Nothing here imports wizsim.
"""

import math
import os
import random
import sys
from collections import Counter
from fractions import Fraction

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from reference import enumerate_round_distribution, play_random_round  # noqa: E402  # the test drivers

from wizsim.game.reference import (  # noqa: E402  # the rules
    SPECIALS,
    allowed_trumps,
    check_elimination_game,
    check_game,
    elimination_after,
    full_deck,
    game_schedule,
    game_totals,
    game_variant,
    last_round_without_trump,
    led_suit,
    legal_bids,
    legal_cards,
    maximus_trump,
    mono_cards,
    normalize_options,
    parse_card,
    parse_variant,
    replay,
    round_score,
    trick_winner,
    variant_round_cards,
)

STD = {}  # all defaults: no Canadian rule, standard scoring, dealer chooses after a W


# ===========================================================================
# Phase 1: cards
# ===========================================================================


@pytest.mark.parametrize(
    "raw, canonical",
    [
        ("b13", "B13"),
        ("B13", "B13"),
        ("r1", "R1"),
        ("g7", "G7"),
        ("Y10", "Y10"),
        ("w", "W"),
        ("W", "W"),
        ("j", "J"),
        ("dragon", "Dragon"),
        ("FAIRY", "Fairy"),
        ("bomb", "Bomb"),
        ("werewolf", "Werewolf"),
        ("juggler", "Juggler"),
        ("cloud", "Cloud"),
        ("shapeshifter", "Shapeshifter"),
        ("juggler:b", "Juggler:B"),
        ("Cloud:r", "Cloud:R"),
        ("shapeshifter:w", "Shapeshifter:W"),
        ("SHAPESHIFTER:J", "Shapeshifter:J"),
    ],
)
def test_parse_card_canonical(raw, canonical):
    assert parse_card(raw) == canonical


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "B0",
        "B14",
        "B01",
        "X5",
        "B",
        "13",
        "WW",
        "wizard",
        "jester",
        " b1",
        "b1 ",
        "juggler:x",
        "juggler:",
        "cloud:w",
        "shapeshifter:b",
        "w:b",
        "dragon:r",
        "B-1",
        None,
        5,
    ],
)
def test_parse_card_rejects(raw):
    with pytest.raises(ValueError):
        parse_card(raw)


def test_full_deck():
    deck = full_deck()
    assert len(deck) == 60
    counts = Counter(deck)
    assert counts["W"] == 4 and counts["J"] == 4
    for suit in "BRGY":
        assert [c for c in deck if c[0] == suit and c[1:].isdigit()] == [f"{suit}{r}" for r in range(1, 14)]
    with_specials = full_deck(["Dragon", "fairy"])
    assert len(with_specials) == 62 and with_specials[-2:] == ["Dragon", "Fairy"]
    assert len(full_deck(SPECIALS)) == 67
    with pytest.raises(ValueError):
        full_deck(["Wizard"])
    with pytest.raises(ValueError):
        full_deck(["B5"])
    with pytest.raises(ValueError):
        full_deck(["Dragon", "Dragon"])


# ===========================================================================
# Phase 1: RULES.md section 10, worked examples 1-4
# ===========================================================================


def test_example_1_first_wizard_wins():
    assert trick_winner(["R5", "W", "R13", "W"], "B", STD) == 1
    # consequence: R is led, a player holding R must follow (W/J still allowed)
    assert legal_cards(["R2", "B3", "W", "J"], ["R5"], "B", STD) == {"R2", "W", "J"}


def test_example_2_jester_lead_sets_nothing():
    assert trick_winner(["J", "R5", "B1", "R13"], "B", STD) == 2
    assert led_suit(["J"]) is None
    assert legal_cards(["R7", "B9", "G1"], ["J"], "B", STD) == {"R7", "B9", "G1"}
    # R is led after the leading J: the next players must follow R
    assert led_suit(["J", "R5"]) == "R"
    assert legal_cards(["R7", "B9", "J"], ["J", "R5"], "B", STD) == {"R7", "J"}
    assert legal_cards(["R7", "B9", "G1"], ["J", "R5", "B1"], "B", STD) == {"R7"}


def test_example_3_all_jesters():
    assert trick_winner(["J", "J", "J"], None, STD) == 0


def test_example_4_wizard_lead():
    assert trick_winner(["W", "G1", "Y13", "J"], "G", STD) == 0
    # after the led W anything may be played, for the rest of the trick
    assert led_suit(["W"]) is None
    assert legal_cards(["G5", "Y2", "B3"], ["W"], "G", STD) == {"G5", "Y2", "B3"}
    assert legal_cards(["G5", "Y2", "B3"], ["W", "G1"], "G", STD) == {"G5", "Y2", "B3"}
    assert legal_cards(["G5", "Y2", "B3"], ["W", "G1", "Y13"], "G", STD) == {"G5", "Y2", "B3"}


# ===========================================================================
# Phase 1: scoring, RULES.md section 8
# ===========================================================================


@pytest.mark.parametrize(
    "bid, tricks, points",
    [
        (3, 3, 50),
        (0, 0, 20),
        (4, 2, -20),
        (2, 4, -20),
        (0, 3, -30),
    ],
)
def test_standard_scoring_examples(bid, tricks, points):
    assert round_score(bid, tricks, 8, STD) == points
    assert round_score(bid, tricks, 8, {"scoring": "standard"}) == points


@pytest.mark.parametrize("bid, tricks, points", [(3, 3, 110), (2, 3, 10), (4, 2, -10)])
def test_progressive_scoring_examples_round_8(bid, tricks, points):
    assert round_score(bid, tricks, 8, {"scoring": "progressive"}) == points


def test_progressive_scoring_more():
    prog = {"scoring": "progressive"}
    assert round_score(0, 0, 1, prog) == 10  # 10 x 0 + 10 x 1
    assert round_score(0, 3, 5, prog) == -60  # 0 - (10 + 20 + 30)
    assert round_score(5, 1, 5, prog) == 10 - 100  # 10 - (10+20+30+40)
    assert round_score(1, 2, 3, prog) == 0  # 10 - 10


def test_standard_scoring_does_not_depend_on_k():
    assert {round_score(2, 2, k, STD) for k in range(2, 21)} == {40}


# ===========================================================================
# Phase 1: one test per base rule
# ===========================================================================


def test_must_follow_suit_if_possible():
    hand = ["R3", "R11", "B13", "G2"]
    assert legal_cards(hand, ["R5"], "B", STD) == {"R3", "R11"}
    # holding the trump suit does not allow trumping while you can follow
    assert "B13" not in legal_cards(hand, ["R5"], "B", STD)


def test_wizard_and_jester_always_playable():
    hand = ["R3", "W", "J", "G2"]
    assert legal_cards(hand, ["R5"], "B", STD) == {"R3", "W", "J"}
    assert legal_cards(["W", "J"], ["R5"], None, STD) == {"W", "J"}


def test_void_in_led_suit_may_play_anything():
    hand = ["B13", "G2", "Y7", "J"]
    assert legal_cards(hand, ["R5"], "B", STD) == set(hand)
    assert legal_cards(hand, ["R5", "B1"], "B", STD) == set(hand)


def test_leader_may_play_anything():
    hand = ["B13", "G2", "Y7", "R1", "W", "J"]
    assert legal_cards(hand, [], "B", STD) == set(hand)


def test_legal_cards_collapses_duplicates():
    assert legal_cards(["W", "W", "J", "J", "R1"], ["R5"], None, STD) == {"W", "J", "R1"}


def test_legal_cards_rejects_bad_input():
    with pytest.raises(ValueError):
        legal_cards(["R1", "X9"], [], None, STD)
    with pytest.raises(ValueError):
        legal_cards(["R1"], [], "W", STD)


def test_jester_led_trick():
    # several Jesters before the first suit card: that card sets the led suit
    assert led_suit(["J", "J", "G3"]) == "G"
    assert trick_winner(["J", "J", "G3", "G9"], None, STD) == 3
    assert trick_winner(["J", "G3", "R13"], None, STD) == 1  # R13 is off-suit
    assert trick_winner(["J", "W", "G3"], "G", STD) == 1  # Wizard after a Jester


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_all_jester_trick_first_jester_wins(n):
    assert trick_winner(["J"] * n, "R", STD) == 0
    assert trick_winner(["J"] * n, None, STD) == 0


def test_jester_never_wins_otherwise():
    assert trick_winner(["J", "R1", "J"], "B", STD) == 1
    assert trick_winner(["J", "J", "R1"], None, STD) == 2


@pytest.mark.parametrize(
    "cards, expected",
    [
        (["W", "W", "W"], 0),
        (["R13", "W", "W"], 1),
        (["J", "B13", "R2", "W"], 3),
        (["B13", "J", "W", "W", "W", "W"], 2),
    ],
)
def test_first_wizard_wins(cards, expected):
    assert trick_winner(cards, "B", STD) == expected


def test_trump_beats_led_suit():
    assert trick_winner(["R13", "B1", "R12"], "B", STD) == 1
    assert trick_winner(["R13", "B1", "B2"], "B", STD) == 2  # highest trump
    assert trick_winner(["B1", "R13", "B2"], "B", STD) == 2  # trump led
    assert trick_winner(["R13", "B1", "R12"], None, STD) == 0  # no trump


def test_off_suit_never_wins():
    assert trick_winner(["R2", "G13", "Y13"], None, STD) == 0
    assert trick_winner(["R2", "G13", "Y13"], "B", STD) == 0
    assert trick_winner(["R2", "G13", "R3", "Y13"], "B", STD) == 2


def test_trick_winner_index_is_play_order():
    # W played fourth of six
    assert trick_winner(["B1", "B2", "B3", "W", "B4", "J"], "R", STD) == 3


def test_trump_from_indicator():
    assert allowed_trumps("G7", STD) == {"G"}
    assert allowed_trumps("B1", STD) == {"B"}
    assert allowed_trumps("J", STD) == {None}
    assert allowed_trumps(None, STD) == {None}  # no card left
    assert allowed_trumps("W", STD) == {"B", "R", "G", "Y"}  # dealer names a suit
    assert allowed_trumps("W", {"wizard_indicator": "dealer_chooses"}) == {"B", "R", "G", "Y"}
    assert allowed_trumps("W", {"wizard_indicator": "no_trump"}) == {None}


def test_canadian_rule_bids():
    canadian = {"canadian": True}
    assert legal_bids(3, [1, 1], True, canadian) == [0, 2, 3]  # may not bid 1
    assert legal_bids(3, [2, 2], True, canadian) == [0, 1, 2, 3]  # sum already > 3
    assert legal_bids(3, [0, 0], True, canadian) == [0, 1, 2]  # may not bid 3
    assert legal_bids(3, [1, 1], False, canadian) == [0, 1, 2, 3]  # not the dealer
    assert legal_bids(3, [1, 1], True, STD) == [0, 1, 2, 3]  # rule off


@pytest.mark.parametrize("k", [1, 2, 7, 20])
def test_bidding_range(k):
    assert legal_bids(k, [], False, STD) == list(range(k + 1))


def test_invalid_options_rejected():
    with pytest.raises(ValueError):
        round_score(1, 1, 1, {"scoring": "weird"})
    with pytest.raises(ValueError):
        allowed_trumps("W", {"wizard_indicator": "random"})
    with pytest.raises(ValueError):
        legal_bids(1, [], True, {"canadian": True, "hidden_bids": "secret"})


# ===========================================================================
# Phase 1: replay of hand-written records
# ===========================================================================

OPTIONS = {
    "canadian": False,
    "scoring": "standard",
    "bomb": "void_trick",
    "wizard_indicator": "dealer_chooses",
    "werewolf": "must",
    "variant": "standard",
    "hidden_bids": "off",
}


def history_example():
    """The example of HISTORY.md (it is correct: checked by hand)."""
    return {
        "seed": 7,
        "game": 0,
        "players": 3,
        "round": 2,
        "cards_per_player": 2,
        "dealer": 1,
        "specials": [],
        "options": dict(OPTIONS),
        "strategies": ["heuristic", "heuristic", "random"],
        "hands": [["W", "R3"], ["B13", "J"], ["G2", "R9"]],
        "indicator": "B4",
        "werewolf": None,
        "trump": "B",
        "bids": [1, 1, 0],
        "tricks": [
            {"leader": 2, "cards": ["R9", "W", "B13"], "winner": 0, "next_leader": 0},
            {"leader": 0, "cards": ["R3", "J", "G2"], "winner": 0, "next_leader": 0},
        ],
        "tricks_won": [2, 0, 0],
        "final_bids": [1, 1, 0],
        "scores": [-10, -10, 20],
    }


def canadian_example():
    """4 players, 3 cards, dealer 3, Canadian rule, progressive scoring, Wizard indicator.

    Worked by hand: trick 1 (leader 0) R4 G2 R12 G9 -> trump G9, seat 3;
    trick 2 (leader 3) Y11 J W Y5 -> W, seat 1; trick 3 (leader 1) B7 R1 B2 G13 -> seat 0.
    Bids 1 1 0 0 (dealer may not bid 1); progressive, k = 3: 40 40 30 -10.
    """
    return {
        "seed": 1,
        "game": 0,
        "players": 4,
        "round": 3,
        "cards_per_player": 3,
        "dealer": 3,
        "specials": [],
        "options": dict(OPTIONS, canadian=True, scoring="progressive"),
        "strategies": ["random"] * 4,
        "hands": [["G13", "R4", "J"], ["B7", "G2", "W"], ["R12", "R1", "Y5"], ["G9", "B2", "Y11"]],
        "indicator": "W",
        "werewolf": None,
        "trump": "G",
        "bids": [1, 1, 0, 0],
        "tricks": [
            {"leader": 0, "cards": ["R4", "G2", "R12", "G9"], "winner": 3, "next_leader": 3},
            {"leader": 3, "cards": ["Y11", "J", "W", "Y5"], "winner": 1, "next_leader": 1},
            {"leader": 1, "cards": ["B7", "R1", "B2", "G13"], "winner": 0, "next_leader": 0},
        ],
        "tricks_won": [1, 1, 0, 1],
        "final_bids": [1, 1, 0, 0],
        "scores": [40, 40, 30, -10],
    }


def test_replay_accepts_correct_records():
    assert replay(history_example()) == []
    assert replay(canadian_example()) == []


def test_replay_accepts_correct_legal_key():
    record = history_example()
    record["legal"] = [[["G2", "R9"], ["R3", "W"], ["B13", "J"]], [["R3"], ["J"], ["G2"]]]
    assert replay(record) == []


def test_replay_accepts_lowercase_input_and_missing_optional_keys():
    record = history_example()
    record["hands"][0] = ["w", "r3"]
    del record["werewolf"], record["specials"], record["options"], record["strategies"]
    assert replay(record) == []


def has(problems, *words):
    """True if one problem message contains all the words."""
    return any(all(w in p for w in words) for p in problems)


def test_replay_illegal_card():
    record = canadian_example()
    # seat 2 holds R1 and Y5 when Y11 is led, and discards R1: illegal
    record["tricks"][1]["cards"] = ["Y11", "J", "W", "R1"]
    record["tricks"][2]["cards"] = ["B7", "Y5", "B2", "G13"]
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "trick 2", "seat 2", "must follow")


def test_replay_illegal_card_not_following_with_trump():
    record = history_example()
    # seat 0 holds B5 and R3 when R9 is led, and trumps with B5 instead of following
    record["hands"] = [["B5", "R3"], ["B13", "J"], ["G2", "R9"]]
    record["tricks"][0]["cards"] = ["R9", "B5", "B13"]
    problems = replay(record)
    assert has(problems, "seat 0", "must follow")


def test_replay_wrong_winner():
    record = canadian_example()
    record["tricks"][0]["winner"] = 2
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "trick 1", "winner")


def test_replay_wrong_score():
    record = canadian_example()
    record["scores"][2] = 20  # standard score instead of progressive 30
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "scores")


def test_replay_wrong_next_leader():
    record = canadian_example()
    record["tricks"][0]["next_leader"] = 2
    problems = replay(record)
    assert has(problems, "trick 1", "next_leader")
    assert has(problems, "trick 2", "leader")  # trick 2 was not led by the announced seat


def test_replay_canadian_violation():
    record = canadian_example()
    record["bids"] = [1, 1, 0, 1]  # sum 3 == k, made by the dealer
    record["final_bids"] = [1, 1, 0, 1]
    record["scores"] = [40, 40, 30, 40]
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "Canadian")
    record["options"]["canadian"] = False
    assert replay(record) == []


def test_replay_card_played_twice():
    record = history_example()
    record["tricks"][1]["cards"] = ["W", "J", "G2"]  # seat 0 plays its W again
    problems = replay(record)
    assert has(problems, "trick 2", "seat 0", "not in their hand")
    assert has(problems, "W", "played 2 times")
    assert has(problems, "seat 0", "still holds", "R3")


def test_replay_wrong_first_leader():
    record = history_example()
    record["dealer"] = 0  # then seat 1 should have led the first trick
    problems = replay(record)
    assert has(problems, "trick 1", "leader")


def test_replay_overlapping_hands():
    record = history_example()
    record["hands"][2] = ["B13", "R9"]
    problems = replay(record)
    assert has(problems, "B13", "not disjoint")


def test_replay_indicator_in_hand():
    record = history_example()
    record["indicator"] = "R3"  # seat 0 holds R3
    record["trump"] = "R"  # the trick winners stay the same
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "indicator R3")


def test_replay_card_not_in_deck():
    record = history_example()
    record["hands"][1] = ["B13", "Dragon"]  # no specials in this game
    problems = replay(record)
    assert has(problems, "Dragon", "not in the deck")


def test_replay_wrong_hand_size():
    record = history_example()
    record["hands"][1] = ["B13", "J", "Y1"]
    problems = replay(record)
    assert has(problems, "seat 1", "3 cards")
    assert has(problems, "seat 1", "still holds", "Y1")


def test_replay_indicator_null_with_cards_left():
    record = history_example()
    record["indicator"] = None
    record["trump"] = None
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "indicator is null")


def test_replay_indicator_when_all_cards_dealt():
    deck = ["W", "R3", "B13", "J", "G2", "R9"]
    record = history_example()
    record["deck"] = deck
    record["indicator"], record["trump"] = None, None
    assert replay(record) == []
    record["indicator"], record["trump"] = "B4", "B"
    problems = replay(record)
    assert has(problems, "all 6 cards were dealt")


def test_replay_wrong_trump_for_suit_indicator():
    record = history_example()
    record["trump"] = "R"
    problems = replay(record)
    assert has(problems, "trump", "B4")


def test_replay_trump_after_wizard_indicator():
    record = history_example()
    record["indicator"] = "W"
    for trump in ("B", "R", "Y"):  # any suit the dealer names is fine
        record["trump"] = trump
        assert replay(record) == [], trump
    record["trump"] = "G"  # also G, but then G2 wins trick 2
    problems = replay(record)
    assert not has(problems, "trump is") and has(problems, "trick 2", "winner")
    record["trump"] = None  # ... but it must be a suit
    assert has(replay(record), "must name a suit")
    record["options"]["wizard_indicator"] = "no_trump"
    assert replay(record) == []
    record["trump"] = "B"
    assert has(replay(record), "trump")


def test_replay_trump_after_jester_indicator():
    record = history_example()
    record["indicator"] = "J"
    record["trump"] = None
    assert replay(record) == []
    record["trump"] = "B"
    assert has(replay(record), "trump")


def test_replay_bid_out_of_range():
    record = history_example()
    record["bids"] = [1, 3, 0]
    record["final_bids"] = [1, 3, 0]
    record["scores"] = [-10, -30, 20]
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "seat 1", "outside 0..2")
    record["bids"] = [1, -1, 0]
    assert has(replay(record), "outside 0..2")


def test_replay_wrong_tricks_won_and_final_bids():
    record = history_example()
    record["tricks_won"] = [1, 1, 0]
    record["final_bids"] = [1, 1, 1]
    problems = replay(record)
    assert has(problems, "tricks_won") and has(problems, "final_bids")


def test_replay_missing_trick():
    record = history_example()
    del record["tricks"][1]
    problems = replay(record)
    assert has(problems, "1 tricks recorded, expected 2")


def test_replay_card_not_in_hand():
    record = history_example()
    record["tricks"][0]["cards"] = ["R9", "W", "B12"]
    problems = replay(record)
    assert has(problems, "seat 1", "B12", "not in their hand")


def test_replay_legal_key_mismatch():
    record = history_example()
    record["legal"] = [[["G2", "R9"], ["R3"], ["B13", "J"]], [["R3"], ["J"], ["G2"]]]
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "trick 1, card 2", "legal")


def test_replay_malformed_records_do_not_crash():
    assert replay({}) != []
    assert replay({"players": 3}) != []
    record = history_example()
    record["players"] = 7
    assert replay(record) != []
    record = history_example()
    record["tricks"][0]["cards"] = ["R9", "X", "B13"]
    assert has(replay(record), "'X'")
    record = history_example()
    record["options"]["scoring"] = "weird"
    assert replay(record) != []


# ===========================================================================
# Phase 1: random rounds
# ===========================================================================


def test_random_rounds_replay_clean():
    rng = random.Random(20240601)
    for i in range(3000):
        n = 3 + i % 4
        k = rng.randint(1, 60 // n)
        options = {
            "canadian": rng.random() < 0.5,
            "scoring": rng.choice(["standard", "progressive"]),
            "wizard_indicator": rng.choice(["dealer_chooses", "no_trump"]),
        }
        record = play_random_round(rng, n, k, rng.randrange(n), options)
        assert record["strategies"] == ["random"] * n
        problems = replay(record)
        assert problems == [], (record, problems)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_last_round_has_no_indicator(n):
    rng = random.Random(n)
    record = play_random_round(rng, n, 60 // n, 0, STD)
    assert record["indicator"] is None and record["trump"] is None
    assert replay(record) == []


def test_random_round_canadian_never_sums_to_k():
    rng = random.Random(3)
    for _ in range(300):
        record = play_random_round(rng, 4, 2, 1, {"canadian": True})
        assert sum(record["bids"]) != 2


def test_random_round_rejects_bad_tables():
    rng = random.Random(0)
    for n, k in [(2, 1), (7, 1), (3, 0), (3, 21)]:
        with pytest.raises(ValueError):
            play_random_round(rng, n, k, 0, STD)


# ===========================================================================
# Phase 1: exact distribution
# ===========================================================================


def sums_per_position(dist, n):
    totals = [Fraction(0)] * n
    for (pos, _bid, _tricks), p in dist.items():
        totals[pos] += p
    return totals


def test_enumerate_wizard_or_highest_blue_takes_the_single_trick():
    # 3 of the 4 cards are dealt; the W wins if dealt (1/4 per seat), otherwise the
    # highest blue card does (each seat equally likely): 1/4 + 3/4 * 1/3 = 1/3.
    dist = enumerate_round_distribution(3, 1, 0, STD, ["W", "B1", "B2", "B3"])
    assert sums_per_position(dist, 3) == [1, 1, 1]
    for pos in range(3):
        for bid in (0, 1):  # bids uniform over {0, 1}
            assert dist[(pos, bid, 1)] == Fraction(1, 6)
            assert dist[(pos, bid, 0)] == Fraction(1, 3)


def test_enumerate_weights_duplicate_cards_correctly():
    # deck W W J J B1, 3 players x 1 card: the leader (position 0) wins with a W (2/5),
    # or with B1 if neither other player holds a W (1/5 * 2/4 * 1/3 = 1/30).
    dist = enumerate_round_distribution(3, 1, 2, STD, ["W", "W", "J", "J", "B1"])
    p_leader_wins = dist[(0, 0, 1)] + dist[(0, 1, 1)]
    assert p_leader_wins == Fraction(2, 5) + Fraction(1, 30)


def test_enumerate_canadian_dealer_bids():
    # k = 1: the dealer (position 2) must bid 0 if the others bid 0+0, 1 if they bid 0+1
    # or 1+0, and may bid either after 1+1: P(dealer bids 0) = 1/4 + 1/4 * 1/2 = 3/8.
    dist = enumerate_round_distribution(3, 1, 0, {"canadian": True}, ["W", "B1", "B2", "B3"])
    p_bid0 = sum(p for (pos, bid, _t), p in dist.items() if pos == 2 and bid == 0)
    assert p_bid0 == Fraction(3, 8)
    p_first_bid0 = sum(p for (pos, bid, _t), p in dist.items() if pos == 0 and bid == 0)
    assert p_first_bid0 == Fraction(1, 2)


def monte_carlo(n, k, dealer, options, deck, rounds, seed):
    rng = random.Random(seed)
    counts = Counter()
    for _ in range(rounds):
        record = play_random_round(rng, n, k, dealer, options, deck=deck)
        for seat in range(n):
            counts[((seat - dealer - 1) % n, record["bids"][seat], record["tricks_won"][seat])] += 1
    return counts


def assert_close(dist, counts, rounds):
    """Every key within 5 standard errors (+0.002): at most a ~1e-5 false alarm per key,
    and the seed is fixed, so the test is deterministic."""
    assert set(counts) <= set(dist), set(counts) - set(dist)
    for key, p in dist.items():
        freq = counts[key] / rounds
        sigma = math.sqrt(float(p) * (1 - float(p)) / rounds)
        assert abs(freq - float(p)) <= 5 * sigma + 0.002, (key, freq, float(p))


def test_enumerate_matches_monte_carlo_tiny_deck():
    deck = ["B1", "R2", "R9", "W", "W", "J", "G5"]  # 3 x 2 cards + indicator
    options = {"canadian": True}
    dist = enumerate_round_distribution(3, 2, 1, options, deck)
    assert sums_per_position(dist, 3) == [1, 1, 1]
    rounds = 20000
    assert_close(dist, monte_carlo(3, 2, 1, options, deck, rounds, seed=12345), rounds)


def test_enumerate_sums_to_one_with_wizard_indicators_and_no_indicator():
    deck = ["B1", "R2", "W", "J", "G5", "Y13", "W"]  # a W indicator: the dealer chooses
    for options in ({}, {"wizard_indicator": "no_trump", "scoring": "progressive"}):
        dist = enumerate_round_distribution(3, 2, 0, options, deck)
        assert sums_per_position(dist, 3) == [1, 1, 1]
    dist = enumerate_round_distribution(3, 2, 0, {}, deck[:6])  # all dealt
    assert sums_per_position(dist, 3) == [1, 1, 1]


# ===========================================================================
# Phase 2: special cards (RULES.md sections 3, 5, 6, 7; examples 5-9)
# ===========================================================================


def test_example_5_dragon_and_fairy():
    assert trick_winner(["Dragon", "W", "Fairy"], None, STD) == 2
    assert trick_winner(["Dragon", "W", "J"], None, STD) == 0


def test_example_6_bomb():
    cards = ["R2", "Bomb", "R13", "W"]
    assert trick_winner(cards, "R", STD) is None
    record = bomb_example()
    assert record["tricks"][0]["next_leader"] == 2 and replay(record) == []


def test_example_7_juggler():
    assert trick_winner(["Juggler:Y", "B13", "Y7", "Y8"], "Y", STD) == 3
    assert trick_winner(["Juggler:Y", "B13", "Y7"], "Y", STD) == 0  # 7.5 > 7
    assert led_suit(["Juggler:Y"]) == "Y"
    # a player holding Y cards must follow Y (or play a colourless/special card)
    assert legal_cards(["Y2", "B13", "W", "Cloud"], ["Juggler:Y"], "Y", STD) == {"Y2", "W", "Cloud"}
    assert legal_cards(["B13", "R1"], ["Juggler:Y"], "Y", STD) == {"B13", "R1"}


def test_example_8_cloud():
    assert trick_winner(["R9", "Cloud:R", "R10"], None, STD) == 2
    assert trick_winner(["R9", "Cloud:R"], None, STD) == 1
    assert cloud_example()["final_bids"][1] == 2 and replay(cloud_example()) == []


def test_example_9_shapeshifter():
    assert trick_winner(["Shapeshifter:W", "W"], None, STD) == 0
    assert trick_winner(["R1", "Shapeshifter:W", "W"], "R", STD) == 1
    assert led_suit(["Shapeshifter:W"]) is None
    assert legal_cards(["R1", "G2"], ["Shapeshifter:W", "G5"], None, STD) == {"R1", "G2"}


def test_specials_always_playable():
    hand = ["R3", "Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter", "B1"]
    assert legal_cards(hand, ["R5"], "B", STD) == set(hand) - {"B1"}


def test_juggler_or_cloud_in_hand_is_not_a_suit_card():
    # holding only a Juggler/Cloud, a player is void in the led suit
    assert legal_cards(["Juggler", "B1"], ["R5"], None, STD) == {"Juggler", "B1"}


def test_jester_like_specials_do_not_set_the_led_suit():
    for jester in ["J", "Fairy", "Bomb", "Shapeshifter:J", "Werewolf"]:
        assert led_suit([jester]) is None
        assert led_suit([jester, "G4"]) == "G"
        assert legal_cards(["G1", "B2"], [jester, "G4"], None, STD) == {"G1"}
    for wizard in ["W", "Dragon", "Shapeshifter:W"]:
        assert led_suit([wizard, "G4"]) is None


def test_dragon_beats_everything_but_the_fairy():
    assert trick_winner(["W", "Shapeshifter:W", "Dragon"], "B", STD) == 2
    assert trick_winner(["Fairy", "B13", "Dragon"], "B", STD) == 0
    assert trick_winner(["Fairy", "B13", "J"], "B", STD) == 1


def test_fairy_and_bomb_never_win_an_all_jester_trick():
    assert trick_winner(["Fairy", "J", "J"], None, STD) == 1
    assert trick_winner(["Fairy", "Shapeshifter:J", "Werewolf"], None, STD) == 1
    assert trick_winner(["Bomb", "Werewolf", "J"], None, {"bomb": "cancel_bids"}) == 1


def test_bomb_variants():
    assert trick_winner(["R2", "Bomb", "R13", "W"], "R", {"bomb": "cancel_bids"}) == 3
    assert trick_winner(["Bomb", "R2", "R13"], None, {"bomb": "cancel_bids"}) == 2
    assert trick_winner(["Bomb", "R2", "R13"], None, STD) is None
    assert led_suit(["Bomb", "R2"]) == "R"


def test_played_specials_must_carry_their_choice():
    with pytest.raises(ValueError):
        trick_winner(["Juggler", "R1", "R2"], None, STD)
    with pytest.raises(ValueError):
        trick_winner(["Shapeshifter", "R1", "R2"], None, STD)


def test_trump_from_special_indicator():
    for card in SPECIALS:
        assert allowed_trumps(card, STD) == {"B", "R", "G", "Y"}
    passive = {"passive_indicator": "no_trump"}
    assert allowed_trumps("Fairy", passive) == {None}
    assert allowed_trumps("Bomb", passive) == {None}
    assert allowed_trumps("Dragon", passive) == {"B", "R", "G", "Y"}


# --- hand-written records with specials --------------------------------------------------


def cloud_example():
    """Werewolf swap, Juggler passes and the Cloud, worked by hand.

    Seat 0 swaps the Werewolf for the indicator G10 and names Y.  Trick 1 (leader 1):
    Juggler:R, Y4 (seat 2 has no R), R2 (seat 0 must follow) -> trump Y4, seat 2; then
    passes G10 (0->1), R8 (1->2), B9 (2->0).  Trick 2 (leader 2): Cloud:G, B5, G10 ->
    G10 (10 > 9.75), seat 1, who took the Cloud.  Trick 3 (leader 1): G3, R8, B9 -> seat 1.
    Seat 1 bid 1, took 2: +1 scores 40, -1 scores -20, so the final bid is 2.
    """
    return {
        "seed": 3,
        "game": 0,
        "players": 3,
        "round": 3,
        "cards_per_player": 3,
        "dealer": 0,
        "specials": ["Werewolf", "Juggler", "Cloud"],
        "options": dict(OPTIONS),
        "strategies": ["random"] * 3,
        "hands": [["B5", "Werewolf", "R2"], ["Juggler", "R8", "G3"], ["Cloud", "B9", "Y4"]],
        "indicator": "G10",
        "werewolf": {"seat": 0, "swapped": True},
        "trump": "Y",
        "bids": [1, 1, 1],
        "tricks": [
            {
                "leader": 1,
                "cards": ["Juggler:R", "Y4", "R2"],
                "winner": 2,
                "next_leader": 2,
                "passes": ["G10", "R8", "B9"],
            },
            {"leader": 2, "cards": ["Cloud:G", "B5", "G10"], "winner": 1, "next_leader": 1},
            {"leader": 1, "cards": ["G3", "R8", "B9"], "winner": 1, "next_leader": 1},
        ],
        "tricks_won": [0, 2, 1],
        "final_bids": [1, 2, 1],
        "scores": [-10, 40, 30],
    }


def bomb_example():
    """Bomb (void_trick), Dragon and Fairy, worked by hand.

    Trick 1 (leader 0): R2, Bomb, W -> bombed; the W (seat 2) leads next.
    Trick 2 (leader 2): Fairy, Dragon, R13 -> the Fairy, seat 2.
    """
    return {
        "seed": 4,
        "game": 0,
        "players": 3,
        "round": 2,
        "cards_per_player": 2,
        "dealer": 2,
        "specials": ["Bomb", "Dragon", "Fairy"],
        "options": dict(OPTIONS),
        "strategies": ["random"] * 3,
        "hands": [["R2", "Dragon"], ["Bomb", "R13"], ["W", "Fairy"]],
        "indicator": "R5",
        "werewolf": None,
        "trump": "R",
        "bids": [1, 0, 1],
        "tricks": [
            {"leader": 0, "cards": ["R2", "Bomb", "W"], "winner": None, "next_leader": 2},
            {"leader": 2, "cards": ["Fairy", "Dragon", "R13"], "winner": 2, "next_leader": 2},
        ],
        "tricks_won": [0, 0, 1],
        "final_bids": [1, 0, 1],
        "scores": [-10, 20, 30],
    }


def kept_werewolf_example():
    """All cards dealt (custom 6-card deck): no card is turned up, so there is nothing to
    swap; the Werewolf holder keeps it, names nothing, there is no trump, and it plays as
    a Jester (RULES.md 3).  Trick 1 (leader 1): Werewolf, J, R7 -> R7, seat 0.
    Trick 2 (leader 0): B3, G1, W -> W, seat 2."""
    return {
        "seed": 5,
        "game": 0,
        "players": 3,
        "round": 2,
        "cards_per_player": 2,
        "dealer": 0,
        "specials": ["Werewolf"],
        "options": dict(OPTIONS),
        "deck": ["Werewolf", "B3", "R7", "W", "J", "G1"],
        "strategies": ["random"] * 3,
        "hands": [["B3", "R7"], ["Werewolf", "G1"], ["W", "J"]],
        "indicator": None,
        "werewolf": {"seat": 1, "swapped": False},
        "trump": None,
        "bids": [0, 1, 1],
        "tricks": [
            {"leader": 1, "cards": ["Werewolf", "J", "R7"], "winner": 0, "next_leader": 0},
            {"leader": 0, "cards": ["B3", "G1", "W"], "winner": 2, "next_leader": 2},
        ],
        "tricks_won": [1, 0, 1],
        "final_bids": [0, 1, 1],
        "scores": [-10, -10, 30],
    }


def test_replay_special_records_correct():
    assert replay(cloud_example()) == []
    assert replay(bomb_example()) == []
    assert replay(kept_werewolf_example()) == []


def test_replay_werewolf_errors():
    record = cloud_example()
    record["werewolf"] = {"seat": 0, "swapped": False}  # compulsory by default
    assert has(replay(record), "compulsory")
    record["options"]["werewolf"] = "may"  # declined: the holder keeps it,
    problems = replay(record)  # G10 stays the indicator: trump G
    assert has(problems, "trump", "G10")
    assert has(problems, "G10", "not in their hand")
    record = cloud_example()
    record["werewolf"] = None
    assert has(replay(record), "Werewolf")
    record = cloud_example()
    record["trump"] = None  # the holder may name no trump
    assert not has(replay(record), "trump is")
    record = kept_werewolf_example()
    record["werewolf"]["swapped"] = True
    assert has(replay(record), "swapped is true", "no card was turned up", "nothing to swap")


@pytest.mark.parametrize("trump", ["B", "R", "G", "Y"])
def test_replay_werewolf_without_indicator_names_nothing(trump):
    """RULES.md 3: with no card turned up the holder keeps the Werewolf and names nothing: no trump."""
    record = kept_werewolf_example()
    record["trump"] = trump  # the old reading: the holder names a trump
    problems = replay(record)
    assert len(problems) == 1
    assert has(problems, f"trump is {trump!r}", "Werewolf's holder names nothing", "no trump")


def test_replay_juggler_pass_errors():
    record = cloud_example()
    record["tricks"][0]["passes"] = ["G10", "R8", "Y4"]  # Y4 was already played
    assert has(replay(record), "passes Y4", "not in their hand")
    record = cloud_example()
    del record["tricks"][0]["passes"]
    assert has(replay(record), "passes")
    record = bomb_example()
    record["tricks"][0]["passes"] = ["R2", "R13", "Fairy"]  # no Juggler in this trick
    assert has(replay(record), "passes recorded")


def test_replay_cloud_errors():
    record = cloud_example()
    record["final_bids"] = [1, 1, 1]
    record["scores"] = [-10, -10, 30]
    problems = replay(record)
    assert has(problems, "final_bids", "Cloud") and has(problems, "scores")
    record = cloud_example()
    record["final_bids"] = [1, 0, 1]  # -1 scores worse than +1
    record["scores"] = [-10, -20, 30]
    assert has(replay(record), "final_bids")


def test_cloud_in_bombed_trick_changes_nothing():
    record = bomb_example()
    record["specials"].append("Cloud")
    record["hands"][2] = ["Cloud", "Fairy"]
    record["tricks"][0]["cards"] = ["R2", "Bomb", "Cloud:R"]
    record["tricks"][0]["next_leader"] = 2  # Cloud:R 9.75 > R2
    assert replay(record) == []


def test_replay_bomb_errors_and_cancel_bids():
    record = bomb_example()
    record["tricks"][0]["winner"] = 2
    record["tricks_won"] = [0, 0, 2]
    assert has(replay(record), "trick 1", "winner")
    record = bomb_example()
    record["options"]["bomb"] = "cancel_bids"  # the W wins; 10 x tricks
    record["tricks"][0]["winner"] = 2
    record["tricks_won"] = [0, 0, 2]
    record["scores"] = [0, 0, 20]
    assert replay(record) == []
    record["scores"] = [-10, 20, -10]
    assert has(replay(record), "scores", "cancelled")


def test_random_rounds_with_specials_replay_clean():
    rng = random.Random(77)
    for i in range(800):
        n = 3 + i % 4
        specials = [s for s in SPECIALS if rng.random() < 0.7]
        deck = full_deck(specials)
        k = rng.randint(1, len(deck) // n)
        options = {
            "canadian": rng.random() < 0.5,
            "scoring": rng.choice(["standard", "progressive"]),
            "bomb": rng.choice(["void_trick", "cancel_bids"]),
            "werewolf": rng.choice(["must", "may"]),
            "passive_indicator": rng.choice(["dealer_chooses", "no_trump"]),
        }
        record = play_random_round(rng, n, k, rng.randrange(n), options, deck=deck)
        problems = replay(record)
        assert problems == [], (record, problems)


def test_enumerate_matches_monte_carlo_with_specials():
    cases = [
        # 3 x 1 from 9 cards: Werewolf swaps (may), special indicators, Dragon/Fairy, Bomb
        (
            3,
            1,
            1,
            {"werewolf": "may", "bomb": "void_trick"},
            ["Juggler", "Cloud", "Werewolf", "Bomb", "Shapeshifter", "R3", "W", "Dragon", "Fairy"],
        ),
        # 3 x 2 from 6 cards, all dealt: the kept Werewolf names nothing (no trump), Juggler passes
        (3, 2, 0, {"canadian": True, "bomb": "cancel_bids"}, ["Juggler", "Cloud", "Werewolf", "Bomb", "R3", "W"]),
    ]
    for n, k, dealer, options, deck in cases:
        dist = enumerate_round_distribution(n, k, dealer, options, deck)
        assert sums_per_position(dist, n) == [1] * n
        rounds = 8000
        assert_close(dist, monte_carlo(n, k, dealer, options, deck, rounds, seed=99), rounds)


# ===========================================================================
# Phase 3: section 9 variants
# ===========================================================================


@pytest.mark.parametrize(
    "text, variants, game",
    [
        ("standard", {"standard"}, "standard"),
        ("clairvoyance", {"clairvoyance"}, "standard"),
        ("mono", {"mono"}, "mono"),
        ("maximus", {"maximus"}, "maximus"),
        ("elimination", {"elimination"}, "elimination"),
        ("mono+clairvoyance", {"mono", "clairvoyance"}, "mono"),
        ("maximus+clairvoyance", {"maximus", "clairvoyance"}, "maximus"),
        ("elimination+clairvoyance", {"elimination", "clairvoyance"}, "elimination"),
        ("clairvoyance+maximus", {"maximus", "clairvoyance"}, "maximus"),  # a set: any order
    ],
)
def test_parse_variant(text, variants, game):
    assert parse_variant(text) == variants
    assert game_variant({"variant": text}) == game
    assert normalize_options({"variant": text})["variant"] == text  # kept as written


@pytest.mark.parametrize(
    "text",
    [
        "mono+maximus",
        "maximus+elimination",
        "standard+clairvoyance",
        "clairvoyance+clairvoyance",
        "mono+",
        "einfarbig",
        "Mono",
        "",
        None,
    ],
)
def test_parse_variant_rejects(text):
    with pytest.raises(ValueError):
        parse_variant(text)
    with pytest.raises(ValueError):
        normalize_options({"variant": text})


def test_replay_rejects_invalid_variant():
    record = history_example()
    record["options"]["variant"] = "mono+maximus"
    assert has(replay(record), "options", "variant")


@pytest.mark.parametrize("variant", ["clairvoyance", "elimination+clairvoyance"])
@pytest.mark.parametrize("hidden", ["off", "simultaneous", "secret"])
def test_what_players_see_does_not_change_a_standard_round(variant, hidden):
    record = history_example()
    record["options"].update(variant=variant, hidden_bids=hidden)
    if variant.startswith("elimination"):
        record["round"] = 2  # elimination: round r deals r cards
    assert replay(record) == []
    record["options"]["canadian"] = True
    if hidden != "off":  # hidden bids with canadian stays rejected
        assert has(replay(record), "hidden_bids", "canadian")


def test_variant_round_cards_and_maximus_trumps():
    assert [variant_round_cards("mono", r, 3, 60) for r in (1, 12)] == [4, 15]
    assert [variant_round_cards("maximus", 1, n, 67) for n in (3, 4, 5, 6)] == [22, 16, 13, 11]
    assert variant_round_cards("elimination", 17, 3, 60) == 17
    assert variant_round_cards("standard", 3, 4, 60) is None
    for variant, bad in [("mono", 13), ("maximus", 6), ("elimination", 21), ("mono", 0)]:
        with pytest.raises(ValueError):
            variant_round_cards(variant, bad, 3, 60)
    assert [maximus_trump(r) for r in range(1, 6)] == ["B", "R", "G", "Y", None]


# --- mono ------------------------------------------------------------------------------------

MONO = dict(OPTIONS, variant="mono")


def test_mono_cards():
    assert mono_cards(0) == [f"B{r}" for r in range(1, 14)] + ["W", "J"]
    assert mono_cards(3)[:2] == ["Y1", "Y2"] and len(mono_cards(3)) == 15
    with pytest.raises(ValueError):
        mono_cards(4)


def test_mono_trick_rules():
    # the highest value wins, whatever the suits; on equal values the card played first
    assert trick_winner(["R11", "G11", "B3"], None, MONO) == 0
    assert trick_winner(["B3", "R11", "G11"], None, MONO) == 1
    assert trick_winner(["R5", "W", "W"], None, MONO) == 1  # the first of two Wizards
    assert trick_winner(["G13", "W"], None, MONO) == 1  # the Wizard is highest
    assert trick_winner(["J", "B1", "J"], None, MONO) == 1  # a Jester is 0
    assert trick_winner(["J", "J", "J", "J"], None, MONO) == 0
    assert trick_winner(["B2", "R13", "G12"], None, MONO) == 1  # no led suit: R13 wins
    # no following: every card in hand is legal, whatever was led
    assert legal_cards(["B2", "B9", "W", "J"], ["R5"], None, MONO) == {"B2", "B9", "W", "J"}
    assert legal_cards(["R2", "R9", "G1"], ["R5"], None, STD) == {"R2", "R9"}  # (standard: follow)
    with pytest.raises(ValueError):
        trick_winner(["B2", "Dragon", "R3"], None, MONO)  # mono has no specials


def mono_example():
    """3 players, mono round 1 (4 cards each), dealer 0, worked by hand.

    Seat 0 owns Blue, 1 Red, 2 Green (each plus one W and one J).
    Trick 1 (leader 1): R11, G11, B3 -> R11 and G11 are equal: the first, seat 1.
    Trick 2 (leader 1): R5, W, W -> the first Wizard, seat 2.
    Trick 3 (leader 2): G13, B11, R2 -> seat 2.  Trick 4 (leader 2): G7, J, J -> seat 2.
    Bids 0 1 3, tricks 0 1 3: 20 30 50.
    """
    return {
        "seed": 8,
        "game": 0,
        "players": 3,
        "round": 1,
        "cards_per_player": 4,
        "dealer": 0,
        "specials": [],
        "options": dict(MONO),
        "strategies": ["random"] * 3,
        "hands": [["B3", "B11", "W", "J"], ["R11", "R5", "R2", "J"], ["G13", "G11", "G7", "W"]],
        "indicator": None,
        "werewolf": None,
        "trump": None,
        "bids": [0, 1, 3],
        "tricks": [
            {"leader": 1, "cards": ["R11", "G11", "B3"], "winner": 1, "next_leader": 1},
            {"leader": 1, "cards": ["R5", "W", "W"], "winner": 2, "next_leader": 2},
            {"leader": 2, "cards": ["G13", "B11", "R2"], "winner": 2, "next_leader": 2},
            {"leader": 2, "cards": ["G7", "J", "J"], "winner": 2, "next_leader": 2},
        ],
        "tricks_won": [0, 1, 3],
        "final_bids": [0, 1, 3],
        "scores": [20, 30, 50],
    }


def test_replay_mono_correct():
    assert replay(mono_example()) == []
    record = mono_example()
    record["options"]["variant"] = "mono+clairvoyance"
    record["options"]["hidden_bids"] = "secret"
    assert replay(record) == []
    record = mono_example()
    record["legal"] = [
        [["J", "R11", "R2", "R5"], ["G11", "G13", "G7", "W"], ["B11", "B3", "J", "W"]],
        [["J", "R2", "R5"], ["G13", "G7", "W"], ["B11", "J", "W"]],
        [["G13", "G7"], ["B11", "J"], ["J", "R2"]],
        [["G7"], ["J"], ["J"]],
    ]
    assert replay(record) == []


def test_replay_mono_card_of_another_seats_suit():
    # seat 0 plays R2 (Red belongs to seat 1) instead of B11
    record = mono_example()
    record["tricks"][2]["cards"] = ["G13", "R2", "R2"]
    problems = replay(record)
    assert has(problems, "trick 3", "seat 0", "R2", "not in their hand")
    assert has(problems, "seat 0", "still holds", "B11")
    # seat 0 was even dealt G2 (Green belongs to seat 2), and plays it
    record = mono_example()
    record["hands"][0] = ["G2", "B11", "W", "J"]
    record["tricks"][0]["cards"] = ["R11", "G11", "G2"]
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "seat 0", "dealt G2", "own mono cards")
    # two Wizards for one seat: each seat owns only one
    record = mono_example()
    record["hands"][0] = ["B3", "B11", "W", "W"]
    assert has(replay(record), "seat 0", "dealt W 2 times")


def test_replay_mono_equal_values_first_card_wins():
    record = mono_example()
    record["tricks"][0]["winner"] = 2  # G11 played after the equal R11: it does not win
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "trick 1", "winner", "first of equal values")
    record = mono_example()
    record["tricks"][1]["winner"] = 0  # the second Wizard
    record["tricks_won"] = [1, 1, 2]
    assert has(replay(record), "trick 2", "winner") and has(replay(record), "tricks_won")


def test_replay_mono_table_errors():
    record = mono_example()
    record["indicator"], record["trump"] = "B4", "B"
    problems = replay(record)
    assert has(problems, "mono turns up no indicator") and has(problems, "trump", "without trump")
    record = mono_example()
    record["round"] = 2  # round 2 deals 5 cards
    assert has(replay(record), "cards_per_player is 4", "round 2 deals 5")
    record = mono_example()
    record["specials"] = ["Dragon"]
    assert has(replay(record), "mono", "without special cards")
    record = mono_example()
    record["options"]["variant"] = "standard"  # then R11 must be followed, etc.
    assert replay(record) != []


def test_replay_mono_five_players_rejected():
    record = mono_example()
    record["players"] = 5
    assert has(replay(record), "mono is for 3 or 4 players")


# --- maximus ----------------------------------------------------------------------------------

MAXIMUS = dict(OPTIONS, variant="maximus")


def maximus_example(round_number, trump):
    """The HISTORY.md example played as maximus from a custom 7-card deck: 7 // 3 = 2
    cards each, B4 is left over but no indicator is turned up.  The tricks come out the
    same with trump B, R or none: R9 W B13 -> the W (seat 0); R3 J G2 -> R3 (seat 0)."""
    record = history_example()
    record.update(
        round=round_number,
        options=dict(MAXIMUS),
        deck=["W", "R3", "B13", "J", "G2", "R9", "B4"],
        indicator=None,
        trump=trump,
    )
    return record


def test_replay_maximus_fixed_trumps():
    assert replay(maximus_example(1, "B")) == []
    assert replay(maximus_example(2, "R")) == []
    assert replay(maximus_example(5, None)) == []  # round 5: no trump
    record = maximus_example(1, "B")
    record["options"]["variant"] = "maximus+clairvoyance"
    assert replay(record) == []


def test_replay_maximus_wrong_trump():
    problems = replay(maximus_example(1, "R"))
    assert len(problems) == 1 and has(problems, "trump is 'R'", "round 1", "fixed trump B")
    problems = replay(maximus_example(5, "B"))
    assert len(problems) == 1 and has(problems, "trump is 'B'", "round 5", "fixed trump none")
    problems = replay(maximus_example(1, None))
    assert len(problems) == 1 and has(problems, "trump is None", "fixed trump B")


def test_replay_maximus_no_indicator():
    record = maximus_example(1, "B")
    record["indicator"] = "B4"  # one card is left over, but maximus turns up none
    problems = replay(record)
    assert len(problems) == 1 and has(problems, "indicator is B4", "maximus turns up no indicator")


def test_replay_maximus_table_errors():
    record = maximus_example(1, "B")
    record["round"] = 6
    assert has(replay(record), "maximus has rounds 1..5")
    record = maximus_example(1, "B")
    del record["round"]
    assert has(replay(record), "no round")
    record = maximus_example(1, "B")
    record["deck"].append("Y9")  # 8 cards: still 8 // 3 = 2 each
    assert replay(record) == []
    record["deck"].append("Y8")  # 9 cards: 3 each
    assert has(replay(record), "cards_per_player is 2", "9 // 3 = 3")


def maximus_werewolf_example():
    """Maximus round 2 (trump R) from a custom 7-card deck, 2 cards each, Y5 left over.
    Seat 1 holds the Werewolf: the fixed trump stands, so it keeps it (a Jester).
    Trick 1 (leader 1): Werewolf, J, R7 -> trump R7, seat 0.  Trick 2: B3, G1, W -> seat 2."""
    return {
        "seed": 6,
        "game": 0,
        "players": 3,
        "round": 2,
        "cards_per_player": 2,
        "dealer": 0,
        "specials": ["Werewolf"],
        "options": dict(MAXIMUS),
        "deck": ["Werewolf", "B3", "R7", "W", "J", "G1", "Y5"],
        "strategies": ["random"] * 3,
        "hands": [["B3", "R7"], ["Werewolf", "G1"], ["W", "J"]],
        "indicator": None,
        "werewolf": {"seat": 1, "swapped": False},
        "trump": "R",
        "bids": [0, 1, 1],
        "tricks": [
            {"leader": 1, "cards": ["Werewolf", "J", "R7"], "winner": 0, "next_leader": 0},
            {"leader": 0, "cards": ["B3", "G1", "W"], "winner": 2, "next_leader": 2},
        ],
        "tricks_won": [1, 0, 1],
        "final_bids": [0, 1, 1],
        "scores": [-10, -10, 30],
    }


def test_replay_maximus_werewolf_keeps_the_fixed_trump():
    assert replay(maximus_werewolf_example()) == []
    record = maximus_werewolf_example()
    record["werewolf"]["swapped"] = True
    assert has(replay(record), "swapped is true", "fixed trump stands")
    record = maximus_werewolf_example()
    record["trump"] = "G"  # the holder may not name a trump in maximus
    assert has(replay(record), "trump is 'G'", "fixed trump R")
    # in the standard game with no card left the holder names nothing either: no trump
    record["options"]["variant"] = "standard"
    record["deck"] = record["deck"][:6]
    del record["round"]
    assert has(replay(record), "trump is 'G'", "names nothing")
    record["trump"] = None
    assert replay(record) == []


# --- elimination ---------------------------------------------------------------------------

ELIM = dict(OPTIONS, variant="elimination")


def elimination_rounds_15_16(dealer15=2, seats16=(0, 2, 3), dealer16=2):
    """Rounds 15 and 16 of a 4-player elimination game (random play, checked by replay).

    Round 15 deals all 60 cards to 4 players; 4 x 16 > 60, so one player leaves.  The
    running totals before round 15 are chosen by hand: game seat 1 is so far behind that
    it has the lowest total whatever round 15 scores (it scores -150..+170).
    Round 16: the remaining game seats 0, 2, 3; the round-15 dealer was game seat 2, so
    game seat 3 (round seat 2) deals.
    """
    rng = random.Random(1516)
    r15 = play_random_round(rng, 4, 15, dealer15, ELIM)
    r15.update(game=7, seats=[0, 1, 2, 3])
    r16 = play_random_round(rng, 3, 16, dealer16, ELIM)
    r16.update(game=7, seats=list(seats16))
    totals = {0: 120, 1: -400, 2: 75, 3: 210}
    return [r15, r16], totals


def test_elimination_round_records_replay():
    records, _totals = elimination_rounds_15_16()
    assert [r["round"] for r in records] == [15, 16] and records[0]["indicator"] is None
    assert [replay(r) for r in records] == [[], []]
    assert elimination_after(15, 4) and not elimination_after(14, 4)
    assert not elimination_after(19, 3)  # three players always remain
    record = records[1]
    record["round"] = 15
    assert has(replay(record), "cards_per_player is 16", "elimination round 15 deals 15")
    record["round"] = 21
    assert has(replay(record), "elimination has rounds 1..20")


def test_replay_seats_key():
    records, _totals = elimination_rounds_15_16()
    record = records[1]
    for bad in ([0, 3, 2], [0, 2], [0, 2, 2], [0, 2, 9], [0, "2", 3]):
        record["seats"] = bad
        assert has(replay(record), "seats"), bad
    record = history_example()
    record["seats"] = [0, 1, 2]
    assert replay(record) == []
    record["seats"] = [0, 1, 3]
    assert has(replay(record), "only elimination renumbers seats")


def test_elimination_lowest_total_leaves():
    records, totals = elimination_rounds_15_16()
    assert check_elimination_game(records, totals) == []
    # a list by game seat works too
    assert check_elimination_game(records, [totals[s] for s in range(4)]) == []


def test_elimination_wrong_seat_leaves():
    records, totals = elimination_rounds_15_16(seats16=(0, 1, 3))  # game seat 2 left
    problems = check_elimination_game(records, totals)
    assert len(problems) == 1 and has(problems, "game seat 2 left", "lowest total", "[1]")


def test_elimination_wrong_dealer_after_elimination():
    # round seat 0 = game seat 0 deals (as if the deal went on by round numbers)
    records, totals = elimination_rounds_15_16(dealer16=0)
    problems = check_elimination_game(records, totals)
    assert len(problems) == 1 and has(problems, "round 16", "dealer", "expected seat 2 (game seat 3)")
    # the round-15 dealer leaves: the deal passes to the next remaining seat, game seat 2
    records, totals = elimination_rounds_15_16(dealer15=1, dealer16=1)
    assert check_elimination_game(records, totals) == []
    records, totals = elimination_rounds_15_16(dealer15=1, dealer16=2)
    assert has(check_elimination_game(records, totals), "dealer", "game seat 2")


def test_elimination_ties_any_tied_seat_may_leave():
    records, _ = elimination_rounds_15_16()
    s15 = records[0]["scores"]
    totals = {0: 900, 1: -500 - s15[1], 2: 900, 3: -500 - s15[3]}  # 1 and 3 tie at -500
    assert check_elimination_game(records, totals) == []  # game seat 1 left
    records, _ = elimination_rounds_15_16(seats16=(0, 1, 2), dealer16=0)  # 3 left; 0 deals
    assert check_elimination_game(records, totals) == []
    records, _ = elimination_rounds_15_16(seats16=(1, 2, 3), dealer16=1)  # 0 left: not lowest
    assert has(check_elimination_game(records, totals), "game seat 0 left", "[1, 3]")


def test_elimination_at_the_wrong_time():
    rng = random.Random(1112)
    r11 = play_random_round(rng, 5, 11, 0, ELIM)
    r12 = play_random_round(rng, 4, 12, 0, ELIM)  # 5 x 12 = 60 cards: nobody may leave yet
    r12["seats"] = [0, 1, 2, 4]
    totals = [0, 0, 0, -999, 0]
    assert has(check_elimination_game([r11, r12], totals), "nobody leaves after round 11")
    r12 = play_random_round(rng, 5, 12, 1, ELIM)
    r12["round"] = 13  # not consecutive
    assert has(check_elimination_game([r11, r12], totals), "consecutive")


def random_elimination_game(seed, n, options=ELIM, specials=(), count=60, leaver=min):
    """A whole elimination game played at random, following RULES.md 9 step by step
    (the count is from 60 cards whatever the specials; round 20 turns up no card).
    `count` and `leaver` (min: the lowest total) break the rules on purpose."""
    rng = random.Random(seed)
    seats, totals, game_dealer, records = list(range(n)), dict.fromkeys(range(n), 0), 0, []
    for r in range(1, 21):
        record = play_random_round(rng, len(seats), r, seats.index(game_dealer), options, deck=full_deck(specials))
        del record["deck"]  # the deck is the standard one: written as specials
        record.update(game=5, seats=list(seats))
        records.append(record)
        for seat, points in zip(seats, record["scores"], strict=True):
            totals[seat] += points
        if len(seats) > 3 and len(seats) * (r + 1) > count:
            seats.remove(leaver(seats, key=lambda s: totals[s]))
        game_dealer = next((s for s in seats if s > game_dealer), seats[0])
    return records


def test_elimination_whole_game():
    records = random_elimination_game(60, 6)
    # RULES.md 9: with 6 players one leaves after rounds 10, 12 and 15
    assert [r["players"] for r in records] == [6] * 10 + [5] * 2 + [4] * 3 + [3] * 5
    assert check_elimination_game(records) == []
    # with all 7 specials (67 cards) too: the count is from 60 cards (RULES.md 9)
    records = random_elimination_game(67, 6, options=dict(ELIM, variant="elimination+clairvoyance"), specials=SPECIALS)
    assert [r["players"] for r in records] == [6] * 10 + [5] * 2 + [4] * 3 + [3] * 5
    assert records[-1]["indicator"] is None and records[-1]["trump"] is None  # 60 of 67 cards dealt
    assert check_elimination_game(records) == []
    records = random_elimination_game(4, 4)
    assert [r["players"] for r in records] == [4] * 15 + [3] * 5
    assert check_elimination_game(records) == []


def test_elimination_whole_game_errors():
    records = random_elimination_game(5, 5)
    assert has(check_elimination_game(records[:-1]), "ends after round 19")
    problems = check_elimination_game(records[1:])
    assert has(problems, "starts with round 2") and not has(problems, "first round")
    bad = [dict(r) for r in records]
    bad[3] = dict(bad[3], game=6)
    assert has(check_elimination_game(bad), "round 4", "game is 6")
    bad = [dict(r) for r in records]
    bad[0] = dict(bad[0], options=dict(OPTIONS))  # a standard round
    assert has(check_elimination_game(bad), "round 1", "not elimination")
    bad = [dict(r) for r in records]
    bad[14] = dict(bad[14], scores=[s + 10 for s in bad[14]["scores"]])  # replay finds it
    assert has(check_elimination_game(bad), "round 15: scores")
    bad = [dict(r) for r in records]
    del bad[7]["seats"]
    assert has(check_elimination_game(bad), "round 8", "seats")
    bad = [dict(r) for r in records]
    bad[2] = dict(bad[2], strategies=["heuristic"] + bad[2]["strategies"][1:])
    assert has(check_elimination_game(bad), "round 3", "game seat 0", "heuristic")
    bad = [dict(r) for r in records]
    bad[0] = dict(bad[0], dealer=1)
    assert has(check_elimination_game(bad), "round 1", "dealer", "expected 0")
    bad = [dict(r) for r in records]  # rounds 11 and 12 dealt by the wrong players
    bad[10] = dict(bad[10], dealer=(bad[10]["dealer"] + 1) % bad[10]["players"])
    assert has(check_elimination_game(bad), "round 11: dealer")
    assert check_elimination_game([]) != []


# --- random variant rounds ----------------------------------------------------------------


def test_random_mono_and_maximus_rounds_replay_clean():
    rng = random.Random(909)
    for i in range(150):
        n = 3 + i % 2
        round_number = rng.randint(1, 12)
        options = {"variant": rng.choice(["mono", "mono+clairvoyance"]), "canadian": rng.random() < 0.5}
        record = play_random_round(rng, n, round_number + 3, rng.randrange(n), options)
        assert record["round"] == round_number and record["trump"] is None and record["indicator"] is None
        assert all(set(record["hands"][s]) <= set(mono_cards(s)) for s in range(n))
        problems = replay(record)
        assert problems == [], (record, problems)
    for i in range(150):
        n = 3 + i % 4
        specials = [s for s in SPECIALS if rng.random() < 0.6]
        deck = full_deck(specials)
        round_number = 1 + i % 5
        options = {"variant": "maximus", "bomb": rng.choice(["void_trick", "cancel_bids"])}
        record = play_random_round(
            rng, n, len(deck) // n, rng.randrange(n), options, deck=deck, round_number=round_number
        )
        assert record["trump"] == maximus_trump(round_number) and record["indicator"] is None
        problems = replay(record)
        assert problems == [], (record, problems)


def test_random_variant_rounds_reject_bad_tables():
    rng = random.Random(0)
    with pytest.raises(ValueError):
        play_random_round(rng, 5, 4, 0, MONO)  # mono: 3 or 4 players
    with pytest.raises(ValueError):
        play_random_round(rng, 3, 16, 0, MONO)  # mono: at most 15 cards (round 12)
    with pytest.raises(ValueError):
        play_random_round(rng, 3, 4, 0, MONO, deck=full_deck())
    with pytest.raises(ValueError):
        play_random_round(rng, 3, 19, 0, MAXIMUS)  # maximus deals 60 // 3 = 20
    with pytest.raises(ValueError):
        play_random_round(rng, 3, 20, 0, MAXIMUS, round_number=6)
    with pytest.raises(NotImplementedError):
        enumerate_round_distribution(3, 2, 0, MAXIMUS, ["B1", "R2", "W", "J", "G5", "Y13"])


# ===========================================================================
# Phase 4: whole games (RULES.md 2, 3, 8, 9)
# ===========================================================================


def undealt(record):
    """The cards of the record's deck that nobody was dealt (sorted), with the deck of its specials."""
    left = Counter(full_deck(record["specials"]))
    left.subtract(c for hand in record["hands"] for c in hand)
    return sorted(left.elements())


@pytest.mark.parametrize("n, rounds", [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_standard_game_length_with_or_without_specials(n, rounds):
    """RULES.md 2: 60 / n rounds, also with specials mixed in (001: "20/15/12/10 Runden")."""
    for specials in ([], ["Dragon", "Fairy"], SPECIALS):
        deck_size = len(full_deck(specials))
        assert game_schedule(STD, n, deck_size) == list(range(1, rounds + 1))
        assert game_schedule({"variant": "clairvoyance", "hidden_bids": "secret"}, n, deck_size)[-1] == rounds


def test_schedules_of_options_and_variants():
    # rounds: any count up to deck_size // n
    assert game_schedule({"rounds": 16}, 4, 67) == list(range(1, 17))
    assert game_schedule({"rounds": 3}, 6, 60) == [1, 2, 3]
    for rounds, deck_size in [(16, 60), (17, 67), (11, 60)]:
        with pytest.raises(ValueError, match="rounds"):
            game_schedule({"rounds": rounds}, 4 if rounds > 11 else 6, deck_size)
    assert game_schedule({"schedule": [1, 3, 5]}, 4, 60) == [1, 3, 5]
    with pytest.raises(ValueError, match="schedule"):
        game_schedule({"schedule": [1, 16]}, 4, 60)
    assert game_schedule(MONO, 3, 60) == list(range(4, 16))
    assert game_schedule(dict(MAXIMUS, variant="maximus+clairvoyance"), 6, 67) == [11] * 5
    assert game_schedule(ELIM, 6, 67) == list(range(1, 21))


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 0},
        {"rounds": True},
        {"rounds": "16"},
        {"schedule": []},
        {"schedule": [1, "3"]},
        {"schedule": [0, 2]},
        {"rounds": 3, "schedule": [1, 2, 3]},
        {"variant": "mono", "rounds": 5},
        {"variant": "elimination", "schedule": [1, 2]},
    ],
)
def test_round_options_rejected(options):
    with pytest.raises(ValueError):
        normalize_options(options)
    record = history_example()
    record["options"].update(options)
    assert has(replay(record), "options")


def test_last_round_without_trump():
    """RULES.md 2: the standard table's last round and elimination round 20; not rounds/schedule games."""
    for n in (3, 4, 5, 6):
        assert last_round_without_trump(STD, n, 60 // n)
        assert last_round_without_trump({"variant": "clairvoyance"}, n, 60 // n)
        assert last_round_without_trump({"hidden_bids": "simultaneous"}, n, 60 // n, round_number=7)
        assert last_round_without_trump(STD, n, 60 // n - 1) is None
        assert last_round_without_trump({"rounds": 60 // n}, n, 60 // n) is None
        assert last_round_without_trump({"schedule": [1, 60 // n]}, n, 60 // n) is None
    assert last_round_without_trump(STD, 4, 16) is None  # with specials only: not the standard table
    assert "round 20" in last_round_without_trump(ELIM, 3, 20, 20)
    assert last_round_without_trump(dict(ELIM, variant="elimination+clairvoyance"), 3, 20, 20)
    assert last_round_without_trump(ELIM, 3, 19, 19) is None
    assert last_round_without_trump(ELIM, 4, 15, 15) is None  # 60 cards dealt, but not round 20
    assert last_round_without_trump(MAXIMUS, 4, 15, 5) is None  # (maximus never turns one up anyway)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_last_round_turns_up_no_card_even_with_cards_left(n):
    rng = random.Random(100 + n)
    record = play_random_round(rng, n, 60 // n, n - 1, STD, deck=full_deck(SPECIALS))
    assert record["indicator"] is None and record["trump"] is None
    assert len(undealt(record)) == 7 and replay(record) == []
    spare = undealt(record)[0]
    bad = dict(record, indicator=spare)
    problems = replay(bad)
    assert len(problems) == 1
    assert has(problems, f"indicator is {spare}", "no card is turned up", "last round of the standard table")
    bad = dict(record, trump="Y")
    assert has(replay(bad), "trump is 'Y'", "last round of the standard table", "without trump")
    # the same deal in a game of rounds=60//n (or a schedule) must turn a card up
    for option in ({"rounds": 60 // n}, {"schedule": [60 // n]}):
        bad = dict(record, options=dict(record["options"], **option))
        if "rounds" in option:
            bad["round"] = 60 // n
        assert has(replay(bad), "indicator is null although 7 cards were left undealt")
    other = play_random_round(rng, n, 60 // n, 0, {"rounds": 60 // n}, deck=full_deck(SPECIALS), round_number=60 // n)
    assert other["indicator"] is not None and replay(other) == []


def test_elimination_round_20_turns_up_no_card():
    rng = random.Random(20)
    record = play_random_round(rng, 3, 20, 1, ELIM)
    assert record["round"] == 20 and record["indicator"] is None and replay(record) == []
    record = play_random_round(rng, 3, 20, 1, ELIM, deck=full_deck(["Dragon", "Fairy", "Bomb"]))
    del record["deck"]
    assert record["indicator"] is None and record["trump"] is None and replay(record) == []
    spare = undealt(record)[0]
    assert has(replay(dict(record, indicator=spare)), f"indicator is {spare}", "elimination round 20")
    assert has(replay(dict(record, trump="R")), "trump is 'R'", "elimination round 20")
    record = play_random_round(rng, 3, 19, 1, ELIM)  # 57 of 60 cards: a card is turned up
    assert record["indicator"] is not None and replay(record) == []


def test_werewolf_in_the_last_round_is_kept_as_a_jester():
    """RULES.md 3: no card turned up in the last round: the holder keeps the Werewolf, no trump."""
    rng = random.Random(33)
    seen_played = 0
    for i in range(60):
        record = play_random_round(rng, 4, 15, i % 4, {"werewolf": "may"}, deck=full_deck(["Werewolf", "Juggler"]))
        if record["werewolf"] is None:
            continue
        assert record["werewolf"]["swapped"] is False and record["trump"] is None and record["indicator"] is None
        assert replay(record) == []
        seen_played += any("Werewolf" in t["cards"] for t in record["tricks"])
        bad = dict(record, werewolf=dict(record["werewolf"], swapped=True))
        assert has(replay(bad), "swapped is true", "nothing to swap")
        bad = dict(record, trump="G")
        assert has(replay(bad), "trump is 'G'")
    assert seen_played > 0


def test_replay_checks_round_against_rounds_and_schedule_options():
    record = history_example()  # round 2, 2 cards
    record["options"]["rounds"] = 16
    assert replay(record) == []
    record["cards_per_player"] = 3  # (and the rest no longer fits)
    assert has(replay(record), "cards_per_player is 3", "round 2 of option rounds=16 deals 2")
    record = history_example()
    record["options"]["schedule"] = [1, 2, 5]
    assert replay(record) == []
    record["round"] = 3
    assert has(replay(record), "round 3 of option schedule=[1, 2, 5] deals 5")
    record["round"] = 4
    assert has(replay(record), "round is 4", "rounds 1..3")
    record = history_example()
    record["options"]["rounds"] = 21  # 3 players: at most 60 // 3 = 20 rounds
    assert has(replay(record), "rounds=21", "60 // 3 = 20")


@pytest.mark.parametrize("n, leaves_after", [(4, [15]), (5, [12, 15]), (6, [10, 12, 15])])
def test_elimination_counts_from_60_cards(n, leaves_after):
    """RULES.md 9: whatever specials are in the deck (6 players: after rounds 10, 12 and 15)."""
    after, players = [], n
    for r in range(1, 20):
        if elimination_after(r, players):
            after.append(r)
            players -= 1
    assert after == leaves_after and players == 3
    for specials in ([], SPECIALS):
        records = random_elimination_game(n, n, specials=specials)
        sizes = [r["players"] for r in records]
        assert [r for r in range(1, 20) if sizes[r] < sizes[r - 1]] == leaves_after
        assert check_game(records) == [] and check_elimination_game(records) == []


def test_elimination_counted_from_the_deck_in_play_is_caught():
    """The old reading (n * (r + 1) > deck size, 67 with all specials) leaves too late."""
    records = random_elimination_game(7, 6, specials=SPECIALS, count=67)
    assert [r["players"] for r in records][9:12] == [6, 6, 5]
    problems = check_game(records)
    assert has(problems, "round 11: seats are [0, 1, 2, 3, 4, 5]", "exactly one", "after round 10", "> 60")
    assert has(problems, "round 13: seats", "exactly one", "after round 12 (5 x 13 cards > 60)")
    assert has(problems, "round 16: seats", "exactly one", "after round 15 (4 x 16 cards > 60)")
    assert len(problems) == 3


def random_game(seed, n, options=STD, specials=(), game=3):
    """A whole game played at random by RULES.md alone: `game_schedule`, seat 0 deals round 1,
    the deal passes clockwise (not elimination: see `random_elimination_game`)."""
    rng = random.Random(seed)
    variant = game_variant(options)
    deck = None if variant == "mono" else full_deck(specials)
    records = []
    for r, k in enumerate(game_schedule(options, n, len(full_deck(specials))), 1):
        record = play_random_round(rng, n, k, (r - 1) % n, options, deck=deck, round_number=r)
        record.pop("deck", None)  # the deck is the standard one: written as specials
        record.update(game=game, round=r)
        records.append(record)
    return records


GAME_CASES = [
    (3, STD, ()),
    (4, STD, SPECIALS),
    (5, {"variant": "clairvoyance", "werewolf": "may"}, ["Werewolf", "Bomb"]),
    (6, {"canadian": True, "scoring": "progressive"}, ["Dragon", "Fairy"]),
    (4, {"rounds": 16}, SPECIALS),
    (3, {"rounds": 4, "passive_indicator": "no_trump"}, ["Fairy", "Bomb"]),
    (4, {"schedule": [1, 3, 5]}, ()),
    (3, MONO, ()),
    (4, dict(MONO, variant="mono+clairvoyance"), ()),
    (6, dict(MAXIMUS, variant="maximus+clairvoyance"), SPECIALS),
    (3, MAXIMUS, ()),
]


@pytest.mark.parametrize("n, options, specials", GAME_CASES)
def test_check_game_accepts_random_games(n, options, specials):
    records = random_game(n * 11, n, options, specials)
    assert check_game(records) == []
    last = records[-1]
    if game_variant(options) == "standard":
        assert last["players"] == n and last["dealer"] == (len(records) - 1) % n
        table = "rounds" not in options and "schedule" not in options
        assert (last["indicator"] is None) == (table or len(undealt(last)) == 0)
    result = game_totals(records)
    assert result.totals == {s: sum(r["scores"][s] for r in records) for s in range(n)}
    assert result.remaining == list(range(n)) and result.winners
    assert sum(result.shares.values()) == 1


def test_check_game_standard_table_with_specials():
    records = random_game(1, 4, STD, SPECIALS)
    assert [r["cards_per_player"] for r in records] == list(range(1, 16))  # 15 rounds, not 67 // 4 = 16
    last = records[-1]
    assert last["indicator"] is None and last["trump"] is None and len(undealt(last)) == 7
    assert check_game(records) == []


def test_check_game_wrong_schedule_length():
    records = random_game(2, 4, STD, SPECIALS)
    problems = check_game(records[:-1])
    assert has(problems, "ends after round 14, expected 15 rounds", "standard table for 4 players")
    # one round too many: the old reading, deck_size // n = 16 rounds with specials
    rng = random.Random(2)
    extra = play_random_round(rng, 4, 16, 3, STD, deck=full_deck(SPECIALS), round_number=16)
    del extra["deck"]
    extra["game"] = 3
    assert replay(extra) == []  # fine on its own: 64 of 67 cards
    problems = check_game(records + [extra])
    assert has(problems, "round 16: the game has rounds 1..15", "standard table")
    # rounds and schedule games, mono and maximus
    records = random_game(3, 4, {"rounds": 16}, SPECIALS)
    assert len(records) == 16 and check_game(records) == []
    assert has(check_game(records[:10]), "ends after round 10, expected 16 rounds", "option rounds=16")
    records = random_game(3, 4, {"schedule": [1, 3, 5]})
    assert has(check_game(records[:2]), "ends after round 2, expected 3 rounds", "schedule=[1, 3, 5]")
    assert has(check_game(random_game(4, 3, MONO)[:11]), "ends after round 11, expected 12", "mono")
    assert has(check_game(random_game(5, 5, MAXIMUS)[:4]), "ends after round 4, expected 5", "maximus")
    problems = check_game(random_game(6, 4, STD)[1:])
    assert has(problems, "starts with round 2, expected 1")


def test_check_game_round_numbers_and_hand_sizes():
    records = random_game(8, 4, STD)
    swapped = records[:3] + [records[4], records[3]] + records[5:]
    assert has(check_game(swapped), "round 5 follows round 3", "consecutive")
    # round 4 dealt 5 cards (a record that is fine on its own)
    rng = random.Random(8)
    bad = play_random_round(rng, 4, 5, 3, STD, round_number=4)
    bad["game"] = 3
    assert replay(bad) == []
    problems = check_game(records[:3] + [bad] + records[4:])
    assert has(problems, "round 4: cards_per_player is 5, but round 4 deals 4 cards")
    assert has(problems, "round 4: seat 0 was dealt 5 cards, but round 4 deals 4")
    # one hand with an extra card
    records = random_game(9, 4, STD, ["Dragon", "Fairy"])
    records[6] = dict(records[6], hands=[list(h) for h in records[6]["hands"]])
    records[6]["hands"][2].append(undealt(records[6])[0])
    problems = check_game(records)
    assert has(problems, "round 7: seat 2 was dealt 8 cards, but round 7 deals 7")


def test_check_game_indicator_or_trump_in_the_last_round():
    records = random_game(10, 5, STD, SPECIALS)
    last = records[-1]
    spare = undealt(last)[0]
    problems = check_game(records[:-1] + [dict(last, indicator=spare)])
    assert has(
        problems, f"round 12: indicator is {spare!r}", "last round of the standard table", "no card is turned up"
    )
    problems = check_game(records[:-1] + [dict(last, trump="B")])
    assert has(problems, "round 12: trump is 'B'", "last round of the standard table", "without trump")
    # elimination round 20
    records = random_elimination_game(11, 5, specials=["Dragon", "Fairy"])
    last = records[-1]
    spare = undealt(last)[0]
    problems = check_game(records[:-1] + [dict(last, indicator=spare)])
    assert has(problems, f"round 20: indicator is {spare!r}", "last round of elimination")
    problems = check_game(records[:-1] + [dict(last, trump="G")])
    assert has(problems, "round 20: trump is 'G'", "last round of elimination", "without trump")
    # a game of rounds=N turns a card up in its last round
    records = random_game(12, 4, {"rounds": 15}, SPECIALS)
    assert records[-1]["indicator"] is not None and check_game(records) == []


def test_check_game_wrong_dealer():
    records = random_game(13, 4, STD)
    records[5] = dict(records[5], dealer=2)  # round 6: seat 1 deals
    problems = check_game(records)
    assert has(problems, "round 6: dealer is seat 2, expected seat 1", "passes clockwise")
    records = random_game(13, 3, MONO)
    records[0] = dict(records[0], dealer=1)
    assert has(check_game(records), "round 1: dealer is seat 1, expected seat 0")
    records = random_elimination_game(14, 6)
    records[12] = dict(records[12], dealer=(records[12]["dealer"] + 1) % 4)
    assert has(check_game(records), "round 13: dealer", "next remaining game seat")


def test_check_game_wrong_leaver():
    records = random_elimination_game(15, 6, leaver=max)  # the highest total leaves
    problems = check_game(records)
    assert has(problems, "after round 10 game seat", "left with total", "but the lowest total was")
    assert has(problems, "after round 12") and has(problems, "after round 15")


def test_check_game_one_game():
    records = random_game(16, 4, STD, ["Cloud"])
    bad = list(records)
    bad[4] = dict(bad[4], options=dict(bad[4]["options"], scoring="progressive"))
    assert has(check_game(bad), "round 5: option scoring is 'progressive'", "other records have 'standard'")
    bad = list(records)
    bad[2] = dict(bad[2], specials=["Cloud", "Juggler"])
    assert has(check_game(bad), "round 3: specials is ['Cloud', 'Juggler']")
    bad = list(records)
    bad[7] = dict(bad[7], seed=99)
    assert has(check_game(bad), "round 8: seed is 99")
    bad = list(records)
    bad[1] = dict(bad[1], strategies=["random", "heuristic", "random", "random"])
    assert has(check_game(bad), "round 2: game seat 1 plays 'heuristic', but played 'random' before")
    records = random_game(17, 4, {"rounds": 16}, SPECIALS)
    bad = list(records)
    bad[3] = dict(bad[3], options={k: v for k, v in bad[3]["options"].items() if k != "rounds"})
    assert has(check_game(bad), "round 4: option rounds is '(missing)'", "other records have 16")
    records = random_game(18, 4, dict(MAXIMUS, variant="maximus+clairvoyance"))
    bad = list(records)
    bad[0] = dict(bad[0], options=dict(bad[0]["options"], variant="maximus"))
    assert has(check_game(bad), "round 1: option variant is 'maximus'", "'maximus+clairvoyance'")
    assert check_game([]) != [] and check_game("no") != []


def test_game_totals_and_the_totals_check():
    records = random_game(19, 3, STD, ["Bomb"])
    result = game_totals(records)
    assert result.totals == {s: sum(r["scores"][s] for r in records) for s in range(3)}
    assert check_game(records, final_totals=result.totals, winners=result.winners) == []
    assert check_game(records, final_totals=[result.totals[s] for s in range(3)]) == []
    wrong = dict(result.totals)
    wrong[1] += 10
    problems = check_game(records, final_totals=wrong)
    assert len(problems) == 1
    assert has(problems, f"game seat 1: total is {wrong[1]}", f"round scores add up to {result.totals[1]}")
    loser = min(range(3), key=lambda s: result.totals[s])
    problems = check_game(records, winners=[loser])
    assert has(problems, f"winners are [{loser}]", "highest total", str(result.winners))
    # a corrupted round score: replay names the round, and the totals no longer match
    bad = list(records)
    bad[5] = dict(bad[5], scores=[bad[5]["scores"][0] + 10] + bad[5]["scores"][1:])
    problems = check_game(bad, final_totals=result.totals)
    assert has(problems, "round 6: scores is") and has(problems, "game seat 0: total is")


def test_game_totals_ties_and_leavers():
    """RULES.md 8: equal totals share the win; a player who left cannot win."""

    def rec(seats, scores):
        return {"players": len(seats), "seats": seats, "scores": scores}

    # game seat 1 leaves with -20 (the lowest), the others fall to -40 / -30 / -30
    records = [rec([0, 1, 2, 3], [-10, -20, 0, 0]), rec([0, 2, 3], [-30, -30, -30])]
    result = game_totals(records)
    assert result.totals == {0: -40, 1: -20, 2: -30, 3: -30}
    assert result.remaining == [0, 2, 3] and result.winners == [2, 3]
    assert result.shares == {0: 0, 1: 0, 2: Fraction(1, 2), 3: Fraction(1, 2)}
    result = game_totals([{"players": 3, "scores": [30, 30, 30]}])
    assert result.winners == [0, 1, 2] and result.shares[1] == Fraction(1, 3)
    with pytest.raises(ValueError):
        game_totals([{"players": 3, "scores": [30, 30]}])


def test_check_elimination_game_is_check_game_for_elimination():
    records = random_game(20, 4, STD)
    assert check_game(records) == []
    assert has(check_elimination_game(records), "round 1: variant is 'standard', not elimination")
    records = random_elimination_game(21, 4, specials=SPECIALS)
    assert check_elimination_game(records) == check_game(records) == []


def test_check_game_rounds_checked_skips_only_the_replay():
    records = random_game(22, 4, STD)
    records[2] = dict(records[2], scores=[s + 10 for s in records[2]["scores"]])  # replay's finding
    records[5] = dict(records[5], dealer=3)  # a game-level finding (round 6: seat 1 deals)
    problems = check_game(records)
    assert has(problems, "round 3: scores is") and has(problems, "round 6: dealer is seat 3")
    problems = check_game(records, rounds_checked=True)
    assert not has(problems, "round 3: scores is") and has(problems, "round 6: dealer is seat 3")
