"""Every base rule of RULES.md (sections 1-8) and worked examples 1-4 of section 10, on the Numba engine itself."""

from __future__ import annotations

import numpy as np
import pytest

from wizsim.engine import layout as L
from wizsim.engine.game.score import cloud_bid_checked, round_score_checked
from wizsim.engine.game.trick import led_after_checked, legal_mask_checked, trick_result_checked
from wizsim.game import cards as C
from wizsim.run.simulate import kernel_tables

TABLE, MASKS = kernel_tables()
SUIT = {"B": 0, "R": 1, "G": 2, "Y": 3, None: -1}


def winner(cards: list[str], trump: str | None) -> int:
    codes = np.array([C.card_code(c) for c in cards], dtype=np.int64)
    w, next_leader = trick_result_checked(codes, SUIT[trump], TABLE, True)
    assert w == next_leader
    return int(w)


def legal(hand: list[str], trick: list[str]) -> set[str]:
    """Legal distinct cards for ``hand`` after ``trick`` was played, as the kernel computes them."""
    led = -1
    for c in trick:
        led = led_after_checked(led, C.form_code(c), TABLE)
    mask = np.uint64(0)
    for c in hand:
        mask |= np.uint64(1) << np.uint64(C.card_code(c))
    out = int(legal_mask_checked(mask, led, MASKS))
    return {C.card_name(b) for b in range(64) if (out >> b) & 1}


# ---- section 10, worked examples 1-4
def test_example_1_first_wizard_wins():
    assert winner(["R5", "W", "R13", "W"], "B") == 1


def test_example_2_jester_sets_nothing_trump_wins():
    assert winner(["J", "R5", "B1", "R13"], "B") == 2
    # R is led (the Jester set nothing): a player holding R must follow R
    assert legal(["R2", "B3", "Y4"], ["J", "R5"]) == {"R2"}
    assert legal(["R2", "B3", "W", "J"], ["J", "R5"]) == {"R2", "W", "J"}


def test_example_3_all_jesters_first_wins():
    assert winner(["J", "J", "J"], None) == 0


def test_example_4_wizard_led_frees_the_trick():
    assert winner(["W", "G1", "Y13", "J"], "G") == 0
    assert legal(["G5", "Y2", "R9"], ["W"]) == {"G5", "Y2", "R9"}
    assert legal(["G5", "Y2"], ["W", "G1"]) == {"G5", "Y2"}


# ---- section 5: following
def test_must_follow_led_suit_if_possible():
    assert legal(["R2", "R9", "B3"], ["R5"]) == {"R2", "R9"}


def test_void_in_led_suit_may_play_anything():
    assert legal(["B3", "G4", "Y13"], ["R5"]) == {"B3", "G4", "Y13"}


def test_wizard_and_jester_always_playable():
    assert legal(["R2", "W", "J"], ["R5"]) == {"R2", "W", "J"}


def test_leader_may_play_anything():
    assert legal(["R2", "B3", "W", "J"], []) == {"R2", "B3", "W", "J"}


def test_jesters_then_wizard_frees_the_trick():
    assert legal(["R2", "B3"], ["J", "W"]) == {"R2", "B3"}


def test_only_jesters_led_follow_nothing_yet():
    assert legal(["R2", "B3"], ["J", "J"]) == {"R2", "B3"}


# ---- section 6: winner
@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        (["R5", "R13", "R1"], None, 1),  # highest of the led suit
        (["R5", "B1", "R13"], "B", 1),  # any trump beats the led suit
        (["R5", "B1", "B2"], "B", 2),  # highest trump
        (["R5", "G13", "Y13"], "B", 0),  # off-suit never wins
        (["J", "G13", "G12"], None, 1),  # Jester led: the first other card sets the suit
        (["J", "W", "W"], "R", 1),  # first Wizard after a Jester
        (["B13", "J", "W"], "B", 2),  # Wizard beats the top trump
        (["J", "J", "J", "J", "J"], "B", 0),
        (["R7", "J", "J"], "G", 0),
        (["W", "W", "W", "W"], None, 0),
    ],
)
def test_trick_winner(cards, trump, expected):
    assert winner(cards, trump) == expected


# ---- section 8: scoring examples
@pytest.mark.parametrize(
    "bid, tricks, points",
    [(3, 3, 50), (0, 0, 20), (4, 2, -20), (2, 4, -20), (0, 3, -30)],
)
def test_standard_scoring_examples(bid, tricks, points):
    assert round_score_checked(bid, tricks, 8, 0) == points


@pytest.mark.parametrize("bid, tricks, points", [(3, 3, 110), (2, 3, 10), (4, 2, -10)])
def test_progressive_scoring_examples_round_8(bid, tricks, points):
    assert round_score_checked(bid, tricks, 8, 1) == points


def test_card_table_has_the_60_base_cards():
    deck = C.build_deck()
    assert len(deck) == 60
    names = [C.card_name(c) for c in deck]
    assert names.count("W") == 4 and names.count("J") == 4
    assert len({n for n in names if n not in ("W", "J")}) == 52
    assert C.card_code("b13") == C.card_code("B13") == 12
    with pytest.raises(ValueError, match="unknown card"):
        C.card_code("B14")


# ---- special cards (RULES.md 5-7) and worked examples 5-9, on the engine's trick code
def result(cards: list[str], trump: str | None, bomb_voids: bool = True) -> tuple[int | None, int]:
    """(winner index or None if nobody wins, next leader index), as the engine's play loop computes them."""
    forms = np.array([C.form_code(c) for c in cards], dtype=np.int64)
    w, nxt = trick_result_checked(forms, SUIT[trump], TABLE, bomb_voids)
    return (None if w < 0 else int(w)), int(nxt)


def test_example_5_fairy_beats_dragon_dragon_beats_wizard():
    assert result(["Dragon", "W", "Fairy"], None) == (2, 2)
    assert result(["Dragon", "W", "J"], None) == (0, 0)


def test_example_6_bomb_voids_the_trick_winner_leads():
    assert result(["R2", "Bomb", "R13", "W"], "R") == (None, 3)


def test_example_7_juggler_sets_its_suit_and_counts_seven_and_a_half():
    assert result(["Juggler:Y", "B13", "Y7", "Y8"], "Y") == (3, 3)
    assert legal(["Y2", "B5", "W"], ["Juggler:Y"]) == {"Y2", "W"}
    assert legal(["Y2", "Juggler", "Cloud", "Bomb"], ["Juggler:Y"]) == {"Y2", "Juggler", "Cloud", "Bomb"}


def test_example_8_cloud_counts_nine_and_three_quarters():
    assert result(["R9", "Cloud:R", "R10"], None) == (2, 2)
    assert result(["R9", "Cloud:R", "R8"], None) == (1, 1)


def test_example_9_first_wizard_like_card_wins():
    assert result(["Shapeshifter:W", "W"], None) == (0, 0)
    assert result(["J", "W", "Shapeshifter:W"], "B") == (1, 1)


@pytest.mark.parametrize(
    "cards, trump, expected",
    [
        (["Bomb", "Dragon", "Fairy"], "B", (None, 2)),  # bombed: the Fairy's player leads
        (["Fairy", "Bomb", "J"], None, (None, 2)),  # Fairy and Bomb never take a trick of jesters
        (["Fairy", "J", "J"], None, (1, 1)),
        (["Shapeshifter:J", "R3", "R9"], "B", (2, 2)),  # led as Jester: R is led
        (["Shapeshifter:J", "J", "J"], None, (0, 0)),  # it wins a trick of jesters like a Jester
        (["Werewolf", "J"] + ["J"], None, (0, 0)),  # a kept Werewolf is a Jester
        (["Cloud:G", "G12", "Bomb"], "R", (None, 1)),  # a Cloud in a bombed trick: nobody wins
        (["Juggler:B", "B7", "B8"], "R", (2, 2)),
        (["Juggler:R", "B13", "J"], "R", (0, 0)),  # a Juggler named in trump is a trump
        (["Dragon", "Shapeshifter:W", "W"], None, (0, 0)),
        (["B5", "Dragon", "Fairy", "W"], "B", (2, 2)),
    ],
)
def test_special_card_winners(cards, trump, expected):
    assert result(cards, trump) == expected


def test_bomb_cancel_bids_plays_as_a_jester_that_never_wins():
    assert result(["R2", "Bomb", "R13", "W"], "R", bomb_voids=False) == (3, 3)
    assert result(["Bomb", "J", "J"], None, bomb_voids=False) == (1, 1)


def test_specials_are_always_playable_and_dragon_frees_the_trick():
    assert legal(["R2", "Dragon", "Fairy", "Werewolf", "Shapeshifter"], ["R5"]) == {
        "R2", "Dragon", "Fairy", "Werewolf", "Shapeshifter"}  # fmt: skip
    assert legal(["R2", "B3"], ["Dragon"]) == {"R2", "B3"}
    assert legal(["R2", "B3"], ["Fairy", "Shapeshifter:W"]) == {"R2", "B3"}
    assert legal(["R2", "B3"], ["Bomb", "R9"]) == {"R2"}


@pytest.mark.parametrize(
    "bid, tricks, k, expected",
    [(0, 0, 5, 1), (0, 1, 5, 1), (2, 1, 5, 1), (2, 3, 5, 3), (2, 2, 5, 3), (3, 0, 5, 2)],
)
def test_cloud_changes_the_bid_the_better_way(bid, tricks, k, expected):
    """+1 or -1, whichever scores more; +1 on a tie; a bid of 0 can only go up."""
    assert cloud_bid_checked(bid, tricks, k, 0, False) == expected


def test_layout_is_the_only_copy_of_the_shared_numbers():
    """Card codes, table columns, rule slots, parameter blocks and record columns live in engine/layout.py only."""
    import ast
    from pathlib import Path

    names = {n for n in dir(L) if n.isupper()}
    root = Path(L.__file__).resolve().parents[1]  # the wizsim package
    copies = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "layout.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id in names:
                        copies.append(f"{path.relative_to(root)}: {target.id}")
    assert not copies, copies


def test_parameter_blocks_do_not_overlap():
    """Each block of a seat's parameter row follows the previous one, so a block can grow without moving another."""
    from wizsim.players.strategies import make_strategy

    blocks = {"H_": (0, L.H_END), "D_": (L.H_END, L.D_END), "TP": (L.D_END, L.TP_END), "P_": (L.TP_END, L.P_END),
              "B_": (L.P_END, L.B_END), "SE": (L.B_END, L.N_PARAMS)}  # fmt: skip
    seen: dict[int, str] = {}
    for name in dir(L):
        prefix = name[:2]
        if prefix not in blocks or name.endswith("_END") or not isinstance(getattr(L, name), int):
            continue
        lo, hi = blocks[prefix]
        slot = getattr(L, name)
        width = L.N_SPECIALS if name == "H_SPECIAL" else 1
        assert lo <= slot and slot + width <= hi, name
        for s in range(slot, slot + width):
            assert s not in seen, (name, seen.get(s))
            seen[s] = name
    assert L.B_END + len(L.SEAT_SLOTS) == L.N_PARAMS == len(make_strategy("pimc").param_row())
