"""Property-based tests (hypothesis) of every parser of typed input (issue 29).

The property, for generated strings and for mutations of valid inputs (an entry
emptied, duplicated, retyped, out of range, a huge number, a list shortened or
lengthened): the parser either accepts the input and it means what it says (a
valid input round-trips), or it raises WizsimError with one line. Any other
exception is a defect. Nothing here compiles a Numba kernel: the parsers are
called directly.

Generated cases per parser (``max_examples`` of each test, the suite's budget):

====================================  ========
parser                                 cases
====================================  ========
card notation (card_code, form_code)   200 + 200 + 200
card lists (--hand, --trick)           200 + 200
bid and whole-number lists (--bids)    200 + 200
schedules (--schedule)                 150
--tricks                               200 + 150
--passed                               150
--rule                                 200 + 150
--specials                             200 + 150
strategy strings                       200 + 150
advisor positions (--play arguments)   150
====================================  ========
"""

from __future__ import annotations

import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from wizsim.errors import WizsimError
from wizsim.game import cards as C
from wizsim.game.cards import parse_cards
from wizsim.game.notation import parse_whole_list, split_entries, split_passes, split_tricks
from wizsim.game.rules import CHOICES, VARIANTS, check_round_size, parse_rules
from wizsim.players.strategies import make_strategy, seat_strategies, strategy_label

FAST = settings(max_examples=200, deadline=None)
SOME = settings(max_examples=150, deadline=None)

HAND_NAMES = list(C.CARD_NAMES)
PLAYED_NAMES = [n for n in C.FORM_NAMES if not n.startswith("?") and n not in ("Juggler", "Cloud", "Shapeshifter")]
# text a user might type: card-ish characters, separators, digits, and anything at all
TOKENS = list("BRGYWJbrgywj0123456789,; /:=()+-_ \t\nxé\x00") + ["B13", "r7", "Dragon", "Juggler:B", "Shapeshifter:W"]
TYPED = st.lists(st.sampled_from(TOKENS), max_size=30).map("".join)
ANY_TEXT = st.one_of(TYPED, st.text(max_size=40))


def one_line(exc: WizsimError) -> bool:
    msg = str(exc)
    return bool(msg) and "\n" not in msg


def refused_in_one_line(fn, *args, **kwargs):
    """``fn(*args)``'s result, or None if it raised a one-line WizsimError (any other exception fails the test)."""
    try:
        return fn(*args, **kwargs)
    except WizsimError as exc:
        assert one_line(exc), repr(str(exc))
        return None


def cased(draw, name: str) -> str:
    """``name`` with random letter case and surrounding spaces (notation is case-insensitive)."""
    flips = draw(st.lists(st.booleans(), min_size=len(name), max_size=len(name)))
    return "".join(c.upper() if f else c.lower() for c, f in zip(name, flips, strict=True))


# --- card notation ------------------------------------------------------------------------------


@FAST
@given(ANY_TEXT)
def test_card_code_accepts_cards_only(text):
    code = refused_in_one_line(C.card_code, text)
    if code is not None:
        assert C.card_code(C.card_name(code)) == code  # it names a card, and says which


@FAST
@given(ANY_TEXT)
def test_form_code_accepts_played_forms_only(text):
    code = refused_in_one_line(C.form_code, text)
    if code is not None:
        assert C.form_code(C.card_name(code)) == code
        assert not C.card_name(code).startswith("?")


@FAST
@given(st.data())
def test_every_card_in_any_case_means_itself(data):
    name = data.draw(st.sampled_from(PLAYED_NAMES))
    typed = data.draw(st.sampled_from(["", " ", "\t"])) + cased(data.draw, name) + data.draw(st.sampled_from(["", " "]))
    assert C.card_name(C.form_code(typed)) == name


# --- card lists ---------------------------------------------------------------------------------

SEPARATORS = st.sampled_from([",", ", ", " ", "  ", " ,"])


@FAST
@given(st.lists(st.sampled_from(HAND_NAMES), min_size=1, max_size=12), st.data())
def test_a_card_list_round_trips_and_an_empty_entry_is_refused(names, data):
    seps = [data.draw(SEPARATORS) for _ in names[1:]]
    text = names[0] + "".join(s + n for s, n in zip(seps, names[1:], strict=True))
    assert [C.card_name(c) for c in parse_cards(text, "--hand")] == names
    # mutation: an empty entry anywhere (a doubled comma, a leading or trailing one)
    cut = data.draw(st.integers(0, len(names)))
    pieces = [*names[:cut], "", *names[cut:]]
    with pytest.raises(WizsimError, match="empty") as exc:
        parse_cards(",".join(pieces), "--hand")
    assert one_line(exc.value) and "--hand" in str(exc.value)


@FAST
@given(ANY_TEXT)
def test_any_typed_card_list_is_read_or_refused(text):
    codes = refused_in_one_line(parse_cards, text, "--hand")
    if codes is not None:
        assert "" not in [p.strip() for p in text.split(",")] or not text.strip()
        assert len(codes) == len(text.replace(",", " ").split())


# --- whole-number lists: bids, schedules --------------------------------------------------------


@FAST
@given(st.lists(st.integers(0, 20), min_size=1, max_size=6), st.data())
def test_bids_round_trip_and_every_bad_entry_is_refused(bids, data):
    assert parse_whole_list(",".join(map(str, bids)), "--bids", "1,0,2") == bids
    i = data.draw(st.integers(0, len(bids) - 1))
    bad = data.draw(st.sampled_from(["", "x", "1.5", "1_0", "٣", "10" * 20, "-", "+", "0x1", "1e3", " "]))
    mutated = [*map(str, bids[:i]), bad, *map(str, bids[i + 1 :])]
    if not ",".join(mutated).strip():
        assert parse_whole_list(",".join(mutated), "--bids", "1,0,2") == []  # nothing typed: no bids (callers count)
        return
    with pytest.raises(WizsimError) as exc:
        parse_whole_list(",".join(mutated), "--bids", "1,0,2")
    assert one_line(exc.value) and "--bids" in str(exc.value)


@FAST
@given(ANY_TEXT)
def test_any_typed_number_list_is_read_or_refused(text):
    numbers = refused_in_one_line(parse_whole_list, text, "--bids", "1,0,2")
    if numbers is not None:
        entries = text.replace(",", " ").split()
        assert all(re.fullmatch(r"[+-]?[0-9]+", e) for e in entries)
        assert numbers == [int(e) for e in entries]


@SOME
@given(st.integers(3, 6), ANY_TEXT)
def test_a_schedule_is_hand_sizes_a_table_can_deal_or_refused(players, text):
    sizes = refused_in_one_line(parse_whole_list, text, "--schedule", "1,3,5,7")
    if sizes:
        for k in sizes:
            if refused_in_one_line(check_round_size, players, k) is not None:
                assert 1 <= k <= 60 // players


# --- tricks and passes --------------------------------------------------------------------------


@FAST
@given(st.lists(st.lists(st.sampled_from(PLAYED_NAMES), min_size=1, max_size=6), min_size=1, max_size=5), st.data())
def test_tricks_round_trip_and_an_empty_trick_is_refused(tricks, data):
    text = "; ".join(" ".join(t) for t in tricks)
    assert split_tricks(text) == tricks
    assert split_tricks(tricks) == tricks
    cut = data.draw(st.integers(0, len(tricks)))
    blank = data.draw(st.sampled_from(["", " ", "  "]))
    mutated = ";".join([*(" ".join(t) for t in tricks[:cut]), blank, *(" ".join(t) for t in tricks[cut:])])
    with pytest.raises(WizsimError, match="empty") as exc:
        split_tricks(mutated)
    assert one_line(exc.value)


@SOME
@given(ANY_TEXT)
def test_any_typed_tricks_are_read_or_refused(text):
    tricks = refused_in_one_line(split_tricks, text)
    if tricks is not None:
        assert all(tricks) and sum(map(len, tricks)) == len(text.replace(",", " ").replace(";", " ").split())


@SOME
@given(ANY_TEXT)
def test_passes_are_gave_got_pairs_or_refused(text):
    passes = refused_in_one_line(split_passes, text)
    if passes is not None:
        assert all(a and b and "/" not in a + b for a, b in passes)
        assert len(passes) == len(text.replace(",", " ").split())


# --- --rule and --specials ------------------------------------------------------------------------

RULE_KEYS = ["canadian", *CHOICES, "variant", "rounds"]


def _valid_rule(draw) -> tuple[str, str]:
    key = draw(st.sampled_from(RULE_KEYS))
    if key == "canadian":
        return key, draw(st.sampled_from(["true", "false", "TRUE", "yes", "0"]))
    if key == "rounds":
        return key, str(draw(st.integers(1, 20)))
    if key == "variant":
        return key, draw(st.sampled_from([*VARIANTS, "maximus+clairvoyance"]))
    return key, draw(st.sampled_from(CHOICES[key]))


@FAST
@given(st.data())
def test_rules_mean_what_they_say_and_mutations_are_refused(data):
    pairs: dict[str, str] = {}
    for _ in range(data.draw(st.integers(1, 4))):
        key, value = _valid_rule(data.draw)
        pairs[key] = value
    items = [f"{k}={v}" for k, v in pairs.items()]
    rules = refused_in_one_line(parse_rules, items)
    if rules is not None:
        for key, value in pairs.items():
            got = getattr(rules, key)
            if key == "canadian":
                assert got == (value.lower() in ("true", "yes"))
            elif key == "rounds":
                assert got == int(value)
            else:
                assert got == value.lower()
    # mutations: a key renamed, a value retyped, an item duplicated, "=" dropped
    i = data.draw(st.integers(0, len(items) - 1))
    key, value = items[i].split("=")
    mutated = data.draw(
        st.sampled_from(
            [f"{key}x={value}", f"{key}={value}!", f"{key}=", f"{key}{value}", f"{key}={value}+", f"={value}"]
        )
    )
    with pytest.raises(WizsimError) as exc:
        parse_rules([*items[:i], mutated, *items[i + 1 :]])
    assert one_line(exc.value)
    with pytest.raises(WizsimError, match="given 2 times"):
        parse_rules([*items, items[i]])


@SOME
@given(st.lists(ANY_TEXT, max_size=3))
def test_any_typed_rules_are_read_or_refused(items):
    refused_in_one_line(parse_rules, items)


@FAST
@given(st.lists(st.sampled_from(C.SPECIAL_NAMES), min_size=1, max_size=7, unique=True), st.data())
def test_specials_round_trip_and_mutations_are_refused(names, data):
    typed = ",".join(cased(data.draw, n) for n in names)
    assert C.parse_specials(typed) == [n for n in C.SPECIAL_NAMES if n in names]
    i = data.draw(st.integers(0, len(names)))
    for mutated in ([*names[:i], "", *names[i:]], [*names, names[0]], [*names[:i], "Dragoon", *names[i:]]):
        with pytest.raises(WizsimError) as exc:
            C.parse_specials(",".join(mutated))
        assert one_line(exc.value)


@SOME
@given(ANY_TEXT)
def test_any_typed_specials_are_read_or_refused(text):
    names = refused_in_one_line(C.parse_specials, text)
    if names is not None:
        assert len(set(names)) == len(names) and set(names) <= set(C.SPECIAL_NAMES)


# --- strategy strings -----------------------------------------------------------------------------

STRATEGY_TEXT = st.one_of(
    ANY_TEXT,
    st.builds(
        lambda name, params: f"{name}({params})" if params is not None else name,
        st.sampled_from(["random", "heuristic", "table", "pimc", "learned", "heurstic", ""]),
        st.one_of(st.none(), TYPED, st.sampled_from(["samples=8", "samples=8,prune=1", "bid_shift=0.2", "ruff=x"])),
    ),
)


@FAST
@given(STRATEGY_TEXT)
def test_a_strategy_string_is_a_strategy_or_refused(text):
    assume("rule" not in text.lower())  # rule(...) loads a file: tested with real files in test_bid_rules.py
    s = refused_in_one_line(make_strategy, text)
    if s is not None:
        again = make_strategy(strategy_label(s))  # the label means the same strategy
        assert strategy_label(again) == strategy_label(s)


@SOME
@given(st.integers(3, 6), st.lists(st.sampled_from(["random", "heuristic", "table", "pimc(samples=4)"]), min_size=1))
def test_strategy_lists_have_one_per_seat_and_no_empty_entry(players, names):
    got = refused_in_one_line(seat_strategies, ",".join(names), players)
    if got is not None:
        assert len(got) == players and len(names) in (1, players)
    with pytest.raises(WizsimError):
        seat_strategies(",".join([*names, ""]), players)  # a trailing comma is an empty entry


# --- advisor positions (the arguments of advise --play, read without playing) -----------------------


@SOME
@given(
    st.integers(2, 7),
    st.integers(-1, 8),
    ANY_TEXT,
    st.one_of(ANY_TEXT, st.lists(st.integers(-2, 30), max_size=7)),
    st.one_of(st.none(), ANY_TEXT),
    st.one_of(st.none(), st.sampled_from(["B", "r", "none", "x", ""])),
)
def test_an_advisor_position_is_read_or_refused(players, position, hand, bids, tricks, trump):
    from wizsim.tools.advise_play import PlayOptions, _read_position

    got = refused_in_one_line(
        _read_position, players, position, hand, bids, tricks, None, None, trump, None, None, None, PlayOptions()
    )
    if got is not None:
        pos, _ = got
        assert 3 <= pos.n <= 6 and 0 <= pos.me < pos.n and pos.hand_codes
        assert len(pos.bids) == pos.n and all(0 <= b <= pos.k for b in pos.bids)


def test_split_entries_names_the_option_and_the_entry():
    with pytest.raises(WizsimError, match=r"--hand 'R7,,Y2': entry 2 \(between commas\) is empty"):
        split_entries("R7,,Y2", "--hand", "W,B13,R7")
