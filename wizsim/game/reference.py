"""Slow, readable reference engine for Wizard, written from /work/shared/RULES.md alone.

Pure standard library; it does NOT import wizsim.  Its main job is `replay(record)`:
re-check one hand-history record (HISTORY.md, one JSON object as a dict) and return a
list of human-readable discrepancies ([] = the record obeys the rules).

Conventions used throughout
---------------------------
* Card names are canonical strings (see `parse_card`): "B13", "W", "J", "Dragon", ...
  A *hand name* is how a card sits in a hand ("Juggler", "Shapeshifter", "Cloud").
  A *played name* is how it lies in a trick ("Juggler:B", "Cloud:R", "Shapeshifter:W").
  All other cards have identical hand and played names.
* Seats are 0..n-1 clockwise; the left neighbour of seat i is (i + 1) % n.
* `trump` is "B", "R", "G", "Y" or None (no trump).
* `options` is a HISTORY.md options dict; missing keys take the RULES.md defaults
  (DEFAULT_OPTIONS below).

Layout of this file
-------------------
  1. cards, options and variants         (parse_card, full_deck, normalize_options, parse_variant)
  2. rules of one trick                  (led_suit, legal_cards, trick_winner, ...)
  3. trump, bids, scoring, rounds        (allowed_trumps, legal_bids, round_score, game_schedule,
                                          last_round_without_trump, ...)
  4. replay of a record                  (replay)
  5. whole games                         (check_game, game_totals, check_elimination_game)
  6. random play                         (play_random_round)
  7. exact distribution for tiny decks   (enumerate_round_distribution)

Phase 1 (base game, RULES.md sections 1-8 without specials) and phase 2 (the seven
special cards) share the functions; every special-card rule is marked "[special]" in a
comment so the base-game path can be read on its own.  Phase 3 adds the section 9
variants; their rules are marked "[mono]", "[maximus]" and "[elimination]".
Clairvoyance and hidden bids change only what players see, never the rules of a
round, so the reference checks such records exactly like the underlying variant.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections import Counter, namedtuple
from fractions import Fraction

__all__ = [
    "Finding",
    "SUITS",
    "SPECIALS",
    "DEFAULT_OPTIONS",
    "parse_card",
    "full_deck",
    "normalize_options",
    "VARIANTS",
    "parse_variant",
    "game_variant",
    "mono_cards",
    "mono_value",
    "variant_round_cards",
    "maximus_trump",
    "elimination_after",
    "game_schedule",
    "last_round_without_trump",
    "hand_name",
    "card_suit",
    "card_value",
    "is_wizard_like",
    "is_jester_like",
    "led_suit",
    "legal_cards",
    "trick_winner",
    "trick_taker",
    "allowed_trumps",
    "legal_bids",
    "round_score",
    "cloud_final_bid",
    "replay",
    "check_game",
    "game_totals",
    "GameResult",
    "check_elimination_game",
]

# ---------------------------------------------------------------------------
# 1. Cards and options
# ---------------------------------------------------------------------------

SUITS = ("B", "R", "G", "Y")  # this order wherever an order is needed
DECK_CARDS = 60  # the base deck; the standard table and elimination count from it (RULES.md 2, 9)
RANKS = tuple(range(1, 14))  # 13 high, 1 low
SUIT_CARDS = tuple(f"{s}{r}" for s in SUITS for r in RANKS)
_SUIT_CARD_SET = frozenset(SUIT_CARDS)
SPECIALS = ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter")
SUITED_SPECIALS = {"Juggler": 7.5, "Cloud": 9.75}  # [special] take a named suit when played
TRUMP_CHOICES = (None,) + SUITS  # what a Werewolf holder may name after a swap

# Played names by role in a trick (RULES.md section 5/6).
WIZARD_LIKE = frozenset({"W", "Dragon", "Shapeshifter:W"})
# A Werewolf can only be *played* if it was kept in hand, and then it is a Jester.
JESTER_LIKE = frozenset({"J", "Fairy", "Bomb", "Shapeshifter:J", "Werewolf"})
# Jester-like cards that can win an all-jester trick (rule 6.7: never Fairy or Bomb).
_JESTERS_THAT_CAN_WIN = ("J", "Shapeshifter:J", "Werewolf")

DEFAULT_OPTIONS = {
    "canadian": False,
    "scoring": "standard",
    "bomb": "void_trick",
    "wizard_indicator": "dealer_chooses",
    "werewolf": "must",
    "variant": "standard",
    "hidden_bids": "off",
    # Not listed in HISTORY.md, but RULES.md section 3 names it.
    "passive_indicator": "dealer_chooses",
}
_OPTION_VALUES = {
    "scoring": ("standard", "progressive"),
    "bomb": ("void_trick", "cancel_bids"),
    "wizard_indicator": ("dealer_chooses", "no_trump"),
    "werewolf": ("must", "may"),
    "hidden_bids": ("off", "simultaneous", "secret"),
    "passive_indicator": ("dealer_chooses", "no_trump"),
}
# RULES.md section 9.  "variant" is one name or a "+"-joined set of names.
VARIANTS = ("standard", "clairvoyance", "mono", "maximus", "elimination")
# Each of these defines the whole game (rounds, deal, trump); at most one is in force.
GAME_VARIANTS = ("mono", "maximus", "elimination")

MONO_PLAYERS = (3, 4)  # [mono]
MONO_ROUNDS = 12  # [mono] round r deals 3 + r cards
MONO_WIZARD_VALUE = 14  # [mono] above every suit card
MAXIMUS_TRUMPS = ("B", "R", "G", "Y", None)  # [maximus] fixed trump of rounds 1..5
ELIMINATION_ROUNDS = 20  # [elimination] round r deals r cards; round 20 has no trump
ELIMINATION_PLAYERS = (4, 5, 6)  # [elimination] players at the start


# Every valid canonical name (hand names and played names), looked up case-insensitively.
_ALL_CANONICAL_NAMES = (
    SUIT_CARDS
    + ("W", "J")
    + SPECIALS
    + tuple(f"{special}:{s}" for special in SUITED_SPECIALS for s in SUITS)
    + ("Shapeshifter:W", "Shapeshifter:J")
)
_CANONICAL_BY_LOWER = {name.lower(): name for name in _ALL_CANONICAL_NAMES}


def parse_card(name):
    """Canonical card name from case-insensitive notation; ValueError on anything else.

    "b13" -> "B13", "w" -> "W", "j" -> "J", "dragon" -> "Dragon",
    "juggler:b" -> "Juggler:B", "cloud:r" -> "Cloud:R", "shapeshifter:w" -> "Shapeshifter:W".
    Ranks are 1..13 written without leading zeros; no surrounding whitespace is allowed.
    """
    if not isinstance(name, str):
        raise ValueError(f"card name must be a string, got {name!r}")
    canonical = _CANONICAL_BY_LOWER.get(name.lower())
    if canonical is None:
        raise ValueError(f"not a card: {name!r}")
    return canonical


def hand_name(card):
    """The name a (possibly played) card has in a hand: "Juggler:B" -> "Juggler"."""
    return card.split(":")[0]


def _is_hand_name(card):
    return ":" not in card


def full_deck(specials=()):
    """The 60 base cards (B1..B13, R1..R13, G1..G13, Y1..Y13, 4 W, 4 J) plus `specials`."""
    deck = list(SUIT_CARDS) + ["W"] * 4 + ["J"] * 4
    seen = set()
    for raw in specials:
        card = parse_card(raw)
        if card not in SPECIALS:
            raise ValueError(f"not a special card: {raw!r}")
        if card in seen:
            raise ValueError(f"special card given twice: {card}")
        seen.add(card)
        deck.append(card)
    return deck


def parse_variant(text):
    """The set of variant names in an option value; ValueError if RULES.md rejects it.

    "standard" -> {"standard"}; "maximus+clairvoyance" -> {"maximus", "clairvoyance"}.
    Allowed: any single name of VARIANTS, or one of mono/maximus/elimination joined
    with clairvoyance (in either order; blanks around a name are ignored).
    """
    if not isinstance(text, str):
        raise ValueError(f"option variant must be a string, got {text!r}")
    return _parse_variant(text)


@functools.cache
def _parse_variant(text):
    names = [part.strip() for part in text.split("+")]
    for name in names:
        if name not in VARIANTS:
            raise ValueError(f"option variant={text!r}: {name!r} is not one of {list(VARIANTS)}")
    variants = frozenset(names)
    if len(variants) != len(names):
        raise ValueError(f"option variant={text!r} names a variant twice")
    if len(variants) > 1:
        if "standard" in variants:
            raise ValueError(f"option variant={text!r}: standard cannot be combined")
        if len(variants & set(GAME_VARIANTS)) > 1:
            raise ValueError(f"option variant={text!r}: mono, maximus and elimination each define the whole game")
    return variants


def game_variant(options):
    """The variant that governs the rounds: "standard", "mono", "maximus" or "elimination".

    Clairvoyance is dropped: it changes only what players see when bidding.
    `options` may be a raw or normalized options dict (or None).
    """
    variants = parse_variant((options or {}).get("variant", "standard"))
    for name in GAME_VARIANTS:
        if name in variants:
            return name
    return "standard"


def normalize_options(options):
    """Options with RULES.md defaults filled in; ValueError on an invalid value.

    Unknown keys are kept untouched (they do not affect a single round).  The variant
    string is kept as given (see `parse_variant` and `game_variant`).

    Two optional keys set the rounds of a standard game (RULES.md 2) and are present
    only when the option was set: "rounds" (N, rounds 1..N) and "schedule" (a list of
    hand sizes).  Without either, a standard round belongs to the standard table, whose
    last round has no trump (see `last_round_without_trump`).
    """
    opts = dict(DEFAULT_OPTIONS)
    if options:
        opts.update(options)
    if not isinstance(opts["canadian"], bool):
        raise ValueError(f"option canadian must be true/false, got {opts['canadian']!r}")
    for key, allowed in _OPTION_VALUES.items():
        if opts[key] not in allowed:
            raise ValueError(f"option {key}={opts[key]!r} is not one of {list(allowed)}")
    parse_variant(opts["variant"])
    if opts["canadian"] and opts["hidden_bids"] != "off":
        raise ValueError("hidden_bids together with canadian is rejected (RULES.md 4)")
    _check_round_options(opts)
    return opts


def _check_round_options(opts):
    """The options "rounds" and "schedule" (RULES.md 2), when present."""
    if "rounds" in opts:
        rounds = opts["rounds"]
        if not _is_int(rounds) or rounds < 1:
            raise ValueError(f"option rounds={rounds!r} must be a whole number >= 1")
    if "schedule" in opts:
        schedule = opts["schedule"]
        if not isinstance(schedule, list) or not schedule or not all(_is_int(k) and k >= 1 for k in schedule):
            raise ValueError(f"option schedule={schedule!r} must be a non-empty list of hand sizes >= 1")
    if "rounds" in opts and "schedule" in opts:
        # RULES.md is silent on setting both; they are two ways to set the same thing, so a
        # record with both cannot say which schedule it follows (wizsim rejects it too).
        raise ValueError("options rounds and schedule both set the rounds of the game: give one")
    if ("rounds" in opts or "schedule" in opts) and game_variant(opts) != "standard":
        # RULES.md 2 offers rounds/schedule for the standard game; mono, maximus and
        # elimination fix their own rounds (RULES.md 9).
        key = "rounds" if "rounds" in opts else "schedule"
        raise ValueError(f"option {key} is set, but variant {game_variant(opts)} fixes its own rounds (RULES.md 9)")


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_seat(x, n):
    return _is_int(x) and 0 <= x < n


def _check_trump(trump):
    if trump is not None and trump not in SUITS:
        raise ValueError(f"trump must be one of {SUITS} or None, got {trump!r}")


# ---------------------------------------------------------------------------
# 2. Rules of one trick (RULES.md sections 5 and 6)
# ---------------------------------------------------------------------------


def _played_card(raw):
    """Canonical played name; ValueError for a Juggler/Cloud/Shapeshifter without choice."""
    card = parse_card(raw)
    if card in ("Juggler", "Cloud"):
        raise ValueError(f"a played {card} must carry its named suit, e.g. {card}:B")
    if card == "Shapeshifter":
        raise ValueError("a played Shapeshifter must carry its role: Shapeshifter:W or :J")
    return card


def _hand_card(raw):
    card = parse_card(raw)
    if not _is_hand_name(card):
        raise ValueError(f"{card} is a played name; in a hand it is {hand_name(card)}")
    return card


def card_suit(card):
    """Suit of a played card: suit cards and Juggler/Cloud with a named suit; else None."""
    if card in _SUIT_CARD_SET:
        return card[0]
    if hand_name(card) in SUITED_SPECIALS and ":" in card:  # [special]
        return card.split(":")[1]
    return None


def card_value(card):
    """Rank within its suit: 1..13, Juggler 7.5, Cloud 9.75."""
    if card in _SUIT_CARD_SET:
        return int(card[1:])
    if hand_name(card) in SUITED_SPECIALS and ":" in card:  # [special]
        return SUITED_SPECIALS[hand_name(card)]
    raise ValueError(f"{card} has no suit value")


def is_wizard_like(card):
    return card in WIZARD_LIKE


def is_jester_like(card):
    return card in JESTER_LIKE


def led_suit(trick_so_far):
    """The suit that must be followed, or None if nothing restricts the next card.

    Jester-like cards do not set it; the first other card decides: a suit card (or a
    Juggler/Cloud with its named suit) leads its suit, a wizard-like card means nothing
    is led for the rest of the trick.
    """
    for raw in trick_so_far:
        card = _played_card(raw)
        if is_jester_like(card):
            continue
        if is_wizard_like(card):
            return None
        return card_suit(card)
    return None


def legal_cards(hand, trick_so_far, trump, options):
    """Set of distinct hand names in `hand` that may be played now.

    `trick_so_far` holds the played names already in this trick (leader first).
    Following (RULES.md 5): whoever holds a *suit card* of the led suit must play one of
    those, or any card that is not a suit card (W, J and every special, including a
    Juggler or Cloud, which may then be given any suit).  A Juggler/Cloud in hand does
    not count as holding the led suit.  Without the led suit anything may be played.
    [mono] There is no following: every card in hand may be played.
    `trump` does not influence legality; it is accepted for API symmetry.
    """
    _check_trump(trump)
    cards = [_hand_card(c) for c in hand]
    distinct = set(cards)
    if game_variant(options) == "mono":  # [mono]
        return distinct
    led = led_suit(trick_so_far)
    if led is None:
        return distinct
    following = {c for c in distinct if c in _SUIT_CARD_SET and c[0] == led}
    if not following:
        return distinct
    always_playable = {c for c in distinct if c not in _SUIT_CARD_SET}
    return following | always_playable


def mono_value(card):
    """[mono] Value of a played card: Jester 0, suit cards 1..13 (any suit), Wizard 14."""
    card = _played_card(card)
    if card == "J":
        return 0
    if card == "W":
        return MONO_WIZARD_VALUE
    if card in _SUIT_CARD_SET:
        return int(card[1:])
    raise ValueError(f"{card} is not a mono card (suit cards, W and J only)")


def mono_trick_taker(cards):
    """[mono] Index of the highest value; on equal values the card played first."""
    values = [mono_value(c) for c in cards]
    return values.index(max(values))


def trick_taker(cards, trump, options=None):
    """Index of the card that takes the trick ignoring any Bomb (RULES.md 6, rules 2-7).

    This is also the index of the player who leads the next trick, bombed or not.
    A Bomb is treated like a Jester that never wins (it sets no suit).  None only when
    no card at all can take the trick (impossible with 3+ players).
    [mono] (options variant mono): the highest value wins, see `mono_trick_taker`.
    """
    _check_trump(trump)
    if game_variant(options) == "mono":  # [mono]
        return mono_trick_taker(cards)
    cards = [_played_card(c) for c in cards]
    # [special] rules 2 and 3: Dragon, and Fairy beating the Dragon.
    if "Dragon" in cards and "Fairy" in cards:
        return cards.index("Fairy")
    if "Dragon" in cards:
        return cards.index("Dragon")
    # rule 4: the first wizard-like card (Wizard or Shapeshifter as Wizard).
    for i, card in enumerate(cards):
        if card in ("W", "Shapeshifter:W"):
            return i
    # rule 5: highest trump.  (max() returns the first of equal values.)
    if trump is not None:
        trumps = [i for i, card in enumerate(cards) if card_suit(card) == trump]
        if trumps:
            return max(trumps, key=lambda i: card_value(cards[i]))
    # rule 6: highest card of the led suit.
    led = led_suit(cards)
    if led is not None:
        followers = [i for i, card in enumerate(cards) if card_suit(card) == led]
        return max(followers, key=lambda i: card_value(cards[i]))
    # rule 7: only jester-like cards: the first Jester (never Fairy or Bomb).
    for i, card in enumerate(cards):
        if card in _JESTERS_THAT_CAN_WIN:
            return i
    return None


def trick_winner(cards, trump, options):
    """Index (play order, 0 = leader) of the card winning the trick; None if bombed.

    [special] rule 6.1: with option bomb = void_trick (default) a trick containing the
    Bomb is won by nobody.  With bomb = cancel_bids the Bomb is a Jester that never wins.
    """
    opts = normalize_options(options)
    taker = trick_taker(cards, trump, opts)
    if opts["bomb"] == "void_trick" and any(_played_card(c) == "Bomb" for c in cards):
        return None
    return taker


# ---------------------------------------------------------------------------
# 3. Trump, bids and scoring (RULES.md sections 3, 4, 7, 8)
# ---------------------------------------------------------------------------


def allowed_trumps(indicator, options):
    """Set of trumps the table of RULES.md 3 allows for this indicator (no Werewolf swap).

    Where someone names a suit, every suit is allowed (the set has 4 elements);
    a Werewolf swap is handled separately (its holder may name any suit or no trump).
    `indicator` None (no card left, or section 2's last round: no card turned up) means
    no trump, also when a Werewolf was dealt: there is nothing to swap.
    """
    opts = normalize_options(options)
    if indicator is None:
        return {None}
    card = _hand_card(indicator)
    if card in _SUIT_CARD_SET:
        return {card[0]}
    if card == "J":
        return {None}
    if card == "W":
        return {None} if opts["wizard_indicator"] == "no_trump" else set(SUITS)
    # [special] any special card: the dealer names a suit ...
    if card in ("Fairy", "Bomb") and opts["passive_indicator"] == "no_trump":
        return {None}  # ... except a passive card under option passive_indicator=no_trump
    return set(SUITS)


def _ordered(trumps):
    """A set of trumps in a fixed order (None first, then B R G Y)."""
    return [t for t in TRUMP_CHOICES if t in trumps]


def legal_bids(k, earlier_bids, is_dealer, options):
    """Bids allowed to the next bidder: 0..k, minus the Canadian-forbidden one for the dealer."""
    opts = normalize_options(options)
    bids = list(range(k + 1))
    if opts["canadian"] and is_dealer:
        forbidden = k - sum(earlier_bids)
        bids = [b for b in bids if b != forbidden]
    return bids


def round_score(bid, tricks, k, options):
    """Points for one player in one round (RULES.md 8), from the (final) bid."""
    opts = normalize_options(options)
    miss = abs(tricks - bid)
    if opts["scoring"] == "standard":
        return 20 + 10 * tricks if miss == 0 else -10 * miss
    # progressive
    if miss == 0:
        return 10 * bid + 10 * k
    return 10 * min(bid, tricks) - 10 * (miss * (miss + 1) // 2)


def _score(bid, tricks, k, opts, bids_cancelled):
    """[special] bomb = cancel_bids: a round with a played Bomb scores 10 x tricks."""
    if bids_cancelled:
        return 10 * tricks
    return round_score(bid, tricks, k, opts)


def cloud_final_bid(bid, tricks, k, options, bids_cancelled=False):
    """[special] RULES.md 7: the Cloud taker changes the bid by +1 or -1 (0 only goes up);
    default choice: the change that scores more, +1 on a tie."""
    opts = normalize_options(options)
    up = bid + 1
    if bid == 0:
        return up
    down = bid - 1
    if _score(down, tricks, k, opts, bids_cancelled) > _score(up, tricks, k, opts, bids_cancelled):
        return down
    return up


# --- section 9 variants: what each round deals, and fixed trumps -------------------------


def mono_cards(seat):
    """[mono] The 15 cards seat 0..3 owns: its suit's 13 cards (seat 0 Blue, 1 Red,
    2 Green, 3 Yellow), one Wizard and one Jester."""
    if not _is_int(seat) or not 0 <= seat < len(SUITS):
        raise ValueError(f"mono seats are 0..3, got {seat!r}")
    return [f"{SUITS[seat]}{rank}" for rank in RANKS] + ["W", "J"]


def variant_round_cards(variant, round_number, n, deck_size):
    """Cards per player that `variant` (a `game_variant` name) deals in round
    `round_number` (1-based); None for the standard game, whose schedule is an option.
    ValueError for a round the variant does not have.

      mono:        rounds 1..12, 3 + r cards (4..15)
      maximus:     rounds 1..5, the whole deck: deck_size // n cards
      elimination: rounds 1..20, r cards
    """
    if variant == "standard":
        return None
    last = {"mono": MONO_ROUNDS, "maximus": len(MAXIMUS_TRUMPS), "elimination": ELIMINATION_ROUNDS}[variant]
    if not _is_int(round_number) or not 1 <= round_number <= last:
        raise ValueError(f"{variant} has rounds 1..{last}, not {round_number!r}")
    if variant == "mono":
        return 3 + round_number
    if variant == "maximus":
        return deck_size // n
    return round_number


def maximus_trump(round_number):
    """[maximus] The fixed trump of round 1..5: B, R, G, Y, then None (no trump)."""
    if not _is_int(round_number) or not 1 <= round_number <= len(MAXIMUS_TRUMPS):
        raise ValueError(f"maximus has rounds 1..{len(MAXIMUS_TRUMPS)}, not {round_number!r}")
    return MAXIMUS_TRUMPS[round_number - 1]


def elimination_after(round_number, n):
    """[elimination] True if a player leaves after round `round_number` played by `n`:
    the next round could not be dealt from 60 cards to everyone (n * (r + 1) > 60), and
    more than three players remain.  RULES.md 9: the 60-card count holds whatever
    specials are in the deck, so the deck size plays no part (6 players: one leaves
    after rounds 10, 12 and 15)."""
    return n > 3 and n * (round_number + 1) > DECK_CARDS


def game_schedule(options, n, deck_size):
    """The hand sizes of a whole game's rounds 1..R (RULES.md 2 and 9).

      standard (and clairvoyance): the standard table 1, 2, ..., 60 // n (3: 20, 4: 15,
                   5: 12, 6: 10 rounds), with or without specials; option "rounds" N:
                   1..N, at most deck_size // n; option "schedule": its list, each at
                   most deck_size // n.
      mono:        4, 5, ..., 15 (12 rounds).
      maximus:     deck_size // n, five times.
      elimination: 1, 2, ..., 20 (the players leaving on the way do not change it).
    ValueError for an option the deck cannot deal.
    """
    opts = normalize_options(options)
    variant = game_variant(opts)
    if variant == "mono":
        return [3 + r for r in range(1, MONO_ROUNDS + 1)]
    if variant == "maximus":
        return [deck_size // n] * len(MAXIMUS_TRUMPS)
    if variant == "elimination":
        return list(range(1, ELIMINATION_ROUNDS + 1))
    most = deck_size // n
    if "schedule" in opts:
        too_big = [k for k in opts["schedule"] if k > most]
        if too_big:
            raise ValueError(
                f"option schedule={opts['schedule']}: {too_big} cards each cannot be dealt to {n} players "
                f"from {deck_size} cards (at most {most})"
            )
        return list(opts["schedule"])
    if "rounds" in opts:
        if opts["rounds"] > most:
            raise ValueError(
                f"option rounds={opts['rounds']} is more than {deck_size} // {n} = {most}, "
                f"what the deck can deal (RULES.md 2)"
            )
        return list(range(1, opts["rounds"] + 1))
    return list(range(1, DECK_CARDS // n + 1))


def last_round_without_trump(options, n, k, round_number=None):
    """Why the round turns up no card and has no trump even with cards left (RULES.md 2),
    or None if it is not such a round.

    That is the last round of the standard table (standard and clairvoyance games without
    the options "rounds" and "schedule": the round of 60 // n cards; an independent round of
    60 // n cards counts as that last round, our documented decision for single-round
    runs) and round 20 of elimination.  Games of "rounds" or "schedule" turn up a card
    whenever one is left; mono and maximus never turn one up (not covered here).
    """
    opts = normalize_options(options)
    variant = game_variant(opts)
    if variant == "elimination":
        if round_number == ELIMINATION_ROUNDS:
            return f"elimination round {ELIMINATION_ROUNDS} is played without trump"
        return None
    if variant != "standard" or "rounds" in opts or "schedule" in opts:
        return None
    if k == DECK_CARDS // n:
        return f"the last round of the standard table ({n} players x {k} cards) is played without trump"
    return None


# ---------------------------------------------------------------------------
# 4. Replay: re-check one HISTORY.md record
# ---------------------------------------------------------------------------


class _Abort(Exception):
    """Raised after reporting a problem that makes further checking meaningless."""


class Finding(str):
    """One discrepancy: its text (a str, as `replay` has always returned), and where it is.

    section: the RULES.md section the record breaks ("1".."9"), or None for the record's
             format (HISTORY.md);
    trick:   the trick (1-based) or None;
    seat:    the seat (0-based, the round's numbering) or None;
    round:   the round number, for game-level findings (None in `replay`'s findings).
    """

    section: str | None
    trick: int | None
    seat: int | None
    round: int | None

    def __new__(cls, text, section=None, trick=None, seat=None, round=None):
        self = super().__new__(cls, text)
        self.section, self.trick, self.seat, self.round = section, trick, seat, round
        return self


_REQUIRED_KEYS = (
    "players",
    "cards_per_player",
    "dealer",
    "hands",
    "indicator",
    "trump",
    "bids",
    "tricks",
    "tricks_won",
    "final_bids",
    "scores",
)
MAX_GAME_SEAT = 5  # [elimination] game seats are 0..5 (at most 6 players)


def replay(record):
    """Re-check a whole round record; return a list of discrepancies ([] = consistent).

    Every variant of RULES.md 9 is checked (options.variant, see `parse_variant`);
    clairvoyance and hidden bids change nothing that a record can show.
    Besides HISTORY.md keys it honours these optional keys:
      "legal": per trick, per card, the sorted distinct legal hand names at that moment;
               compared (as sets of hand names) with `legal_cards`.
      "deck":  the list of cards the round was dealt from (default: 60 + `specials`).
               [mono] not used: each seat draws from its own 15 cards (`mono_cards`).
      "seats": [elimination] the game seat of each of the round's seats (increasing);
               in other variants, if given, it must be 0..players-1.
    "round" (a HISTORY.md key) is required by mono, maximus and elimination, where it
    fixes the cards per player (and, in maximus, the trump; in elimination round 20 has
    no trump).  In the standard game it is checked only against the options "rounds"
    and "schedule" when present (round r of "rounds" deals r cards, of "schedule" its
    r-th hand size); without them the round belongs to the standard table, whose last
    round (60 // n cards) turns up no card and has no trump (RULES.md 2), and records of
    independent rounds number their rounds by the hand, so "round" is not checked.
    One elimination round is checked like a standard round; who left the game and who
    deals after an elimination is checked by `check_game` (`check_elimination_game`).
    """
    problems: list[Finding] = []
    try:
        _RoundCheck(record, problems).run()
    except _Abort:
        pass
    except Exception as exc:  # malformed data we did not anticipate: still a finding
        problems.append(Finding(f"record could not be checked completely: {type(exc).__name__}: {exc}"))
    return problems


class _RoundCheck:
    """Re-checks one record, phase by phase; each phase keeps what later phases need.

    Phases (in order): keys, options, table, variant rounds, deal, trump, bids, tricks,
    scores.  `report` notes a problem and goes on; `abort` notes it and stops.
    """

    def __init__(self, record, problems):
        self.record = record
        self.problems = problems
        self.ctx = {}  # where the phase running now is: RULES.md section, trick, seat

    def report(self, message, **where):
        """Note a problem at the current place (`self.ctx`), `where` overriding it."""
        self.problems.append(Finding(message, **{**self.ctx, **where}))

    def abort(self, message, **where):
        self.report(message + " (further checks skipped)", **where)
        raise _Abort

    def run(self):
        for phase, section in (
            (self.check_keys, None),
            (self.check_options, None),
            (self.check_table, "2"),
            (self.check_variant_round, "9"),
            (self.check_deal, "2"),
            (self.check_trump, "3"),
            (self.check_bids, "4"),
            (self.check_tricks, "5"),
            (self.check_scores, "8"),
        ):
            self.ctx = {"section": section}
            phase()

    # --- keys and options --------------------------------------------------------------

    def check_keys(self):
        if not isinstance(self.record, dict):
            self.abort("record is not a JSON object")
        for key in _REQUIRED_KEYS:
            if key not in self.record:
                self.abort(f"record has no key {key!r}")

    def check_options(self):
        raw_options = self.record.get("options") or {}
        try:
            self.opts = normalize_options(raw_options)
        except ValueError as exc:
            self.abort(f"options: {exc}")
        # "standard", "mono", "maximus" or "elimination"; clairvoyance changes nothing here.
        self.variant = game_variant(self.opts)

    # --- table: players, cards, dealer, deck, seats ---------------------------------------

    def check_table(self):
        record, report, abort = self.record, self.report, self.abort
        n, k, dealer = record["players"], record["cards_per_player"], record["dealer"]
        if not _is_int(n) or not 3 <= n <= 6:
            abort(f"players must be 3..6, got {n!r}")
        if not _is_int(k) or k < 1:
            abort(f"cards_per_player must be a positive integer, got {k!r}")
        if not _is_seat(dealer, n):
            abort(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        self.n, self.k, self.dealer = n, k, dealer
        strategies = record.get("strategies")
        if strategies is not None and (not isinstance(strategies, list) or len(strategies) != n):
            report(f"strategies should list one strategy per seat ({n}), got {strategies!r}")

        self.specials = record.get("specials") or []
        try:
            if "deck" in record:
                self.deck = [_hand_card(c) for c in record["deck"]]
            else:
                self.deck = full_deck(self.specials)
        except (ValueError, TypeError) as exc:
            abort(f"deck/specials: {exc}")
        if self.variant != "mono" and n * k > len(self.deck):
            abort(f"{n} players x {k} cards = {n * k} exceeds the deck of {len(self.deck)} cards")
        self.check_seats()

    def check_seats(self):
        """[elimination] "seats": the game seat of each of the round's seats."""
        seats, n = self.record.get("seats"), self.n
        if seats is None:
            return
        self.ctx = {"section": "9"}
        if (
            not isinstance(seats, list)
            or len(seats) != n
            or not all(_is_int(s) and 0 <= s <= MAX_GAME_SEAT for s in seats)
        ):
            self.report(f"seats must list {n} game seats 0..{MAX_GAME_SEAT}, got {seats!r}")
        elif any(a >= b for a, b in itertools.pairwise(seats)):
            self.report(f"seats {seats} must be distinct and increasing (the remaining seats keep their order)")
        elif self.variant != "elimination" and seats != list(range(n)):
            self.report(f"seats is {seats}, but only elimination renumbers seats: expected {list(range(n))}")

    # --- section 9: what the variant's round deals ---------------------------------------

    def check_variant_round(self):
        """[mono] [maximus] [elimination] players, specials, round number and cards."""
        record, report, variant, n, k = self.record, self.report, self.variant, self.n, self.k
        self.round = None  # the round number, where the variant needs it and it is valid
        if variant == "standard":
            self.ctx = {"section": "2"}
            self.check_standard_round()
            return
        if variant == "mono":
            if n not in MONO_PLAYERS:
                self.abort(f"variant mono is for 3 or 4 players, not {n}")
            if self.specials:
                report(f"variant mono is played without special cards, but specials is {self.specials}")
        if variant == "maximus" and k != len(self.deck) // n:
            report(
                f"cards_per_player is {k}, but maximus deals the whole deck: "
                f"{len(self.deck)} // {n} = {len(self.deck) // n} cards each"
            )
        if "round" not in record:
            report(f"record has no round, which fixes the cards per player in {variant}")
            return
        try:
            expected = variant_round_cards(variant, record["round"], n, len(self.deck))
        except ValueError as exc:
            report(f"round: {exc}")
            return
        self.round = record["round"]
        if variant != "maximus" and k != expected:  # (maximus: reported above)
            how = "3 + round" if variant == "mono" else "the round number"
            report(f"cards_per_player is {k}, but {variant} round {self.round} deals {expected} ({how})")

    def check_standard_round(self):
        """Options "rounds" / "schedule" (RULES.md 2): round r deals the schedule's r-th size."""
        record, opts, k = self.record, self.opts, self.k
        most = len(self.deck) // self.n
        if "rounds" in opts and opts["rounds"] > most:
            self.report(f"option rounds={opts['rounds']} is more than {len(self.deck)} // {self.n} = {most} rounds")
        if ("rounds" not in opts and "schedule" not in opts) or "round" not in record:
            return
        number = record["round"]
        schedule = opts["schedule"] if "schedule" in opts else list(range(1, opts["rounds"] + 1))
        key = "schedule" if "schedule" in opts else "rounds"
        if not _is_int(number) or not 1 <= number <= len(schedule):
            self.report(f"round is {number!r}, but option {key}={opts[key]} has rounds 1..{len(schedule)}")
        elif k != schedule[number - 1]:
            self.report(
                f"cards_per_player is {k}, but round {number} of option {key}={opts[key]} deals {schedule[number - 1]}"
            )

    # --- deal: hands and indicator ----------------------------------------------------------

    def check_deal(self):
        record, report, abort, n, k = self.record, self.report, self.abort, self.n, self.k
        hands_raw = record["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != n:
            abort(f"hands must list {n} hands, got {hands_raw!r}")
        hands = []
        for seat, hand in enumerate(hands_raw):
            if not isinstance(hand, list):
                abort(f"hand of seat {seat} is not a list")
            try:
                hands.append([_hand_card(c) for c in hand])
            except ValueError as exc:
                abort(f"hand of seat {seat}: {exc}")
            if len(hand) != k:
                report(f"seat {seat} was dealt {len(hand)} cards, expected {k}", seat=seat)
        self.hands = hands

        indicator = record["indicator"]
        if indicator is not None:
            try:
                indicator = _hand_card(indicator)
            except ValueError as exc:
                report(f"indicator: {exc}", section="1")
                indicator = None
        # The last round of the standard table and elimination round 20 (RULES.md 2).
        self.last_round = last_round_without_trump(self.opts, n, k, self.round)
        if self.variant in ("mono", "maximus"):
            # [mono] [maximus] no card is turned up, even if cards are left over.
            if indicator is not None:
                report(f"indicator is {indicator} but {self.variant} turns up no indicator", section="9")
            indicator = None
        elif self.last_round is not None:
            # No card is turned up, even where cards are left over (with specials).
            if indicator is not None:
                report(f"indicator is {indicator} but no card is turned up: {self.last_round} (RULES.md 2)")
            indicator = None
        else:
            deck = self.deck
            if n * k == len(deck) and indicator is not None:
                report(f"indicator is {indicator} but all {len(deck)} cards were dealt (no card left)", section="3")
            if n * k < len(deck) and record["indicator"] is None:
                report(f"indicator is null although {len(deck) - n * k} cards were left undealt", section="3")
        self.indicator = indicator

        if self.variant == "mono":
            self.ctx = {"section": "9"}
            self.check_mono_hands()
        else:
            self.ctx = {"section": "1"}
            self.check_cards_in_deck()

    def check_cards_in_deck(self):
        """Hands and indicator are disjoint draws from the deck."""
        hands, indicator, report = self.hands, self.indicator, self.report
        deck_count = Counter(self.deck)
        used = Counter(c for hand in hands for c in hand)
        if indicator is not None:
            used[indicator] += 1
        for card in sorted(used):
            if used[card] <= deck_count[card]:
                continue
            if deck_count[card] == 0:
                report(f"card {card} is not in the deck (specials {self.specials})")
                continue
            holders = [s for s in range(self.n) if card in hands[s]]
            if card == indicator:
                report(
                    f"indicator {card} is also dealt to seat(s) {holders}, "
                    f"but the deck has only {deck_count[card]} {card}"
                )
            else:
                report(
                    f"card {card} is dealt {used[card]} times (seats {holders}) but the deck "
                    f"has {deck_count[card]}: hands are not disjoint"
                )

    def check_mono_hands(self):
        """[mono] Each seat's hand is drawn from its own 15 cards."""
        for seat, hand in enumerate(self.hands):
            own = Counter(mono_cards(seat))
            for card, extra in sorted((Counter(hand) - own).items()):
                if own[card]:
                    self.report(f"seat {seat} was dealt {card} {extra + 1} times but owns only one {card}")
                else:
                    self.report(
                        f"seat {seat} was dealt {card}, which is not among its own mono cards "
                        f"({SUITS[seat]}1..{SUITS[seat]}13, W, J)"
                    )

    # --- [special] Werewolf, then trump --------------------------------------------------------

    def check_trump(self):
        record, report, opts, n = self.record, self.report, self.opts, self.n
        hands, indicator = self.hands, self.indicator
        current = [list(h) for h in hands]  # hands as they change during the round
        holders = [s for s in range(n) if "Werewolf" in hands[s]]
        werewolf = record.get("werewolf")
        holder_names_trump = False
        if not holders:
            if werewolf is not None:
                report(f"werewolf is {werewolf!r} but no player was dealt the Werewolf")
        else:
            holder = holders[0]
            swapped = indicator is not None  # the compulsory behaviour (never in maximus)
            if not isinstance(werewolf, dict):
                report(f"seat {holder} was dealt the Werewolf but werewolf is {werewolf!r}")
            else:
                if werewolf.get("seat") != holder:
                    report(f"werewolf seat is {werewolf.get('seat')!r}, but seat {holder} holds it")
                claimed = werewolf.get("swapped")
                if not isinstance(claimed, bool):
                    report(f"werewolf swapped must be true/false, got {claimed!r}")
                elif self.variant == "maximus" and claimed:
                    report(
                        "werewolf swapped is true, but in maximus the fixed trump stands: "
                        "the holder keeps the Werewolf (it plays as a Jester)"
                    )
                elif indicator is None and claimed:
                    report(
                        "werewolf swapped is true but no card was turned up: there is nothing to swap "
                        "with, the holder keeps the Werewolf (RULES.md 3)"
                    )
                elif indicator is not None and opts["werewolf"] == "must" and not claimed:
                    report("werewolf swapped is false but the swap is compulsory (werewolf=must)")
                else:
                    swapped = claimed
            if swapped:
                current[holder].remove("Werewolf")
                current[holder].append(indicator)
            # The holder names the trump only after a swap.  With no card turned up there is
            # nothing to swap: the holder names nothing and the round has no trump (RULES.md 3).
            # [maximus] never: no card is turned up and the fixed trump stands.
            holder_names_trump = self.variant != "maximus" and swapped
        self.current = current
        self.held_after_swap = Counter(c for hand in current for c in hand)

        trump = record["trump"]
        if trump is not None and trump not in SUITS:
            report(f"trump must be one of {list(SUITS)} or null, got {trump!r}")
            trump = None
        else:
            allowed, why = self.expected_trumps(holder_names_trump)
            if allowed is not None and trump not in allowed:
                section = "9" if self.variant in ("mono", "maximus") else "2" if "RULES.md 2" in why else "3"
                report(f"trump is {trump!r} but {why}", section=section)
        self.trump = trump

    def expected_trumps(self, holder_names_trump):
        """(set of allowed trumps, reason) or (None, None) if any trump may be named."""
        indicator = self.indicator
        if self.variant == "mono":  # [mono]
            return {None}, "mono is played without trump"
        if self.variant == "maximus":  # [maximus]
            if self.round is None:
                return None, None  # reported in check_variant_round
            fixed = maximus_trump(self.round)
            return {fixed}, f"maximus round {self.round} has the fixed trump {fixed or 'none'}"
        if holder_names_trump:
            return None, None  # [special] any suit or no trump may be named
        allowed = allowed_trumps(indicator, self.opts)
        if indicator is None and self.last_round is not None:
            why = f"{self.last_round} (RULES.md 2)"
        elif indicator is None and any("Werewolf" in hand for hand in self.hands):
            why = "no card was turned up, so the Werewolf's holder names nothing and there is no trump (RULES.md 3)"
        elif indicator is None:
            why = "there is no indicator, so there is no trump"
        elif len(allowed) > 1:
            why = f"after indicator {indicator} the dealer must name a suit"
        else:
            why = f"indicator {indicator} means trump {next(iter(allowed))}"
        return allowed, why

    # --- bids ------------------------------------------------------------------------------------

    def check_bids(self):
        bids, n, k, report = self.record["bids"], self.n, self.k, self.report
        self.bids_ok = isinstance(bids, list) and len(bids) == n and all(_is_int(b) for b in bids)
        self.bids = bids
        if not self.bids_ok:
            report(f"bids must list {n} integers, got {bids!r}")
            return
        for seat, bid in enumerate(bids):
            if not 0 <= bid <= k:
                report(f"seat {seat} bid {bid}, outside 0..{k}", seat=seat)
        if self.opts["canadian"] and sum(bids) == k:
            report(
                f"Canadian rule: the bids {bids} sum to {k} = cards per player; "
                f"dealer (seat {self.dealer}) may not bid {bids[self.dealer]}",
                seat=self.dealer,
            )

    # --- tricks ----------------------------------------------------------------------------------

    def check_tricks(self):
        record, report, abort = self.record, self.report, self.abort
        n, k, opts, trump, current = self.n, self.k, self.opts, self.trump, self.current
        tricks = record["tricks"]
        if not isinstance(tricks, list):
            abort(f"tricks must be a list, got {tricks!r}")
        if len(tricks) != k:
            report(f"{len(tricks)} tricks recorded, expected {k}")
        legal_record = record.get("legal")
        if legal_record is not None and (not isinstance(legal_record, list) or len(legal_record) != len(tricks)):
            report("legal must have one entry per trick")
            legal_record = None

        won = [0] * n
        played_total: Counter[str] = Counter()
        cloud_taker = None  # [special] seat that took the Cloud (None: nobody)
        bomb_played = False  # [special]
        expected_leader = (self.dealer + 1) % n
        for t, trick in enumerate(tricks):
            where = f"trick {t + 1}"
            self.ctx = {"section": "5", "trick": t + 1}
            if not isinstance(trick, dict):
                abort(f"{where} is not an object")
            leader = trick.get("leader")
            if leader != expected_leader:
                because = (
                    "the player left of the dealer leads the first trick"
                    if t == 0
                    else "the previous trick's next_leader leads"
                )
                report(f"{where}: leader is {leader!r}, expected seat {expected_leader} ({because})", seat=leader)
            if not _is_seat(leader, n):
                leader = expected_leader
            cards = trick.get("cards")
            if not isinstance(cards, list):
                abort(f"{where}: cards must be a list")
            if len(cards) != n:
                report(f"{where}: {len(cards)} cards played, expected one per player ({n})")
            legal_for_trick = None
            if legal_record is not None:
                legal_for_trick = legal_record[t]
                if not isinstance(legal_for_trick, list) or len(legal_for_trick) != len(cards):
                    report(f"{where}: legal must have one entry per card played")
                    legal_for_trick = None

            played, all_valid = self.play_cards(where, leader, cards, legal_for_trick, played_total)

            claimed_next = trick.get("next_leader")
            if all_valid:
                taker_index = trick_taker(played, trump, opts)
                winner_index = trick_winner(played, trump, opts)
                winner = None if winner_index is None else (leader + winner_index) % n
                next_leader = (leader + taker_index) % n
                rule = "mono: highest value, first of equal values" if self.variant == "mono" else f"trump {trump}"
                if "winner" not in trick:
                    report(f"{where}: no winner recorded", section="6")
                elif trick["winner"] != winner:
                    section = "9" if self.variant == "mono" else "6"
                    report(
                        f"{where}: winner is {trick['winner']!r}, expected {winner!r} ({played} with {rule})",
                        section=section,
                    )
                if claimed_next != next_leader:
                    report(f"{where}: next_leader is {claimed_next!r}, expected seat {next_leader}", section="6")
                if winner is not None:
                    won[winner] += 1
                if any(hand_name(c) == "Cloud" for c in played):  # [special]
                    cloud_taker = winner
                if "Bomb" in played:  # [special]
                    bomb_played = True
            else:
                report(f"{where}: winner not checked because the trick is malformed")
                next_leader = expected_leader

            # [special] Juggler: everybody passes one card left, except after the last trick.
            juggler = any(hand_name(c) == "Juggler" for c in played)
            passes = trick.get("passes")
            self.ctx = {"section": "7", "trick": t + 1}
            if juggler and t < k - 1:
                if not isinstance(passes, list) or len(passes) != n:
                    abort(f"{where}: a Juggler trick needs passes, one card per seat, got {passes!r}")
                _apply_passes(passes, current, where, report, abort)
            elif passes not in (None, []):
                reason = "the last trick" if juggler else "a trick without the Juggler"
                report(f"{where}: passes recorded after {reason}")

            expected_leader = claimed_next if _is_seat(claimed_next, n) else next_leader

        # Every card played exactly once.  Passing moves cards between hands but keeps
        # the multiset of held cards unchanged.
        self.ctx = {"section": "5"}
        if len(tricks) == k:
            for seat in range(n):
                if current[seat]:
                    report(f"seat {seat} still holds {sorted(current[seat])} after the last trick", seat=seat)
        for card in sorted(played_total):
            if played_total[card] > self.held_after_swap[card]:
                report(
                    f"card {card} is played {played_total[card]} times but only "
                    f"{self.held_after_swap[card]} were held by the players"
                )
        self.won, self.cloud_taker, self.bomb_played = won, cloud_taker, bomb_played

    def play_cards(self, where, leader, cards, legal_for_trick, played_total):
        """Check each card of one trick against its player's hand and the legal cards; (played, all valid)."""
        report, n, opts, trump, current = self.report, self.n, self.opts, self.trump, self.current
        played: list[str] = []  # canonical played names of the valid cards
        all_valid = len(cards) == n
        for i, raw in enumerate(cards):
            seat = (leader + i) % n
            try:
                card = _played_card(raw)
                if self.variant == "mono":
                    mono_value(card)  # [mono] only suit cards, W and J
            except ValueError as exc:
                report(f"{where}: seat {seat} plays {raw!r}: {exc}", seat=seat, section="1")
                all_valid = False
                continue
            name = hand_name(card)
            legal_now = legal_cards(current[seat], played, trump, opts)
            if legal_for_trick is not None:
                _compare_legal(legal_for_trick[i], legal_now, f"{where}, card {i + 1}", report)
            if name not in current[seat]:
                report(
                    f"{where}: seat {seat} plays {card}, which is not in their hand {sorted(current[seat])}",
                    seat=seat,
                )
            else:
                if name not in legal_now:
                    report(
                        seat=seat,
                        message=f"{where}: seat {seat} plays {card} but must follow "
                        f"{led_suit(played)}; legal were {sorted(legal_now)}",
                    )
                current[seat].remove(name)
            played.append(card)
            played_total[name] += 1
        return played, all_valid

    # --- tricks won, final bids, scores -------------------------------------------------------

    def check_scores(self):
        record, report, opts, n, k = self.record, self.report, self.opts, self.n, self.k
        won, bids, cloud_taker = self.won, self.bids, self.cloud_taker
        if record["tricks_won"] != won:
            report(f"tricks_won is {record['tricks_won']!r}, expected {won}", section="6")
        if not self.bids_ok:
            return
        bids_cancelled = self.bomb_played and opts["bomb"] == "cancel_bids"
        final_bids = list(bids)
        if cloud_taker is not None:
            final_bids[cloud_taker] = cloud_final_bid(bids[cloud_taker], won[cloud_taker], k, opts, bids_cancelled)
        if record["final_bids"] != final_bids:
            why = f" (seat {cloud_taker} took the Cloud)" if cloud_taker is not None else ""
            report(f"final_bids is {record['final_bids']!r}, expected {final_bids}{why}", section="7", seat=cloud_taker)
        scores = [_score(final_bids[s], won[s], k, opts, bids_cancelled) for s in range(n)]
        if record["scores"] != scores:
            report(
                f"scores is {record['scores']!r}, expected {scores} "
                f"(final bids {final_bids}, tricks {won}"
                f"{', bids cancelled by the Bomb' if bids_cancelled else ''})"
            )


def _compare_legal(entry, legal_now, where, report):
    """Compare a record's "legal" entry with our legal set (as sets of hand names)."""
    try:
        theirs = {hand_name(parse_card(c)) for c in entry}
    except (ValueError, TypeError) as exc:
        report(f"{where}: legal entry {entry!r} is malformed: {exc}")
        return
    if theirs != legal_now:
        report(f"{where}: legal is {sorted(theirs)}, expected {sorted(legal_now)}")


def _apply_passes(passes, current, where, report, abort):
    """[special] Juggler passing: seat i gives passes[i] to seat i+1, all at once."""
    n = len(current)
    names = []
    for seat, raw in enumerate(passes):
        try:
            card = _hand_card(raw)
        except ValueError as exc:
            abort(f"{where}: seat {seat} passes {raw!r}: {exc}")
        if card not in current[seat]:
            report(f"{where}: seat {seat} passes {card}, which is not in their hand {sorted(current[seat])}")
        names.append(card)
    for seat, card in enumerate(names):  # first everybody gives ...
        if card in current[seat]:
            current[seat].remove(card)
    for seat, card in enumerate(names):  # ... then everybody receives
        current[(seat + 1) % n].append(card)


# ---------------------------------------------------------------------------
# 5. Whole games (RULES.md 2, 8 and 9)
# ---------------------------------------------------------------------------

GameResult = namedtuple("GameResult", "totals remaining winners shares")
GameResult.__doc__ = """The end of a game (see `game_totals`).

totals:    {game seat: sum of its round scores} for every game seat, players who left
           included (they keep their totals);
remaining: the game seats still in after the last round (everyone but elimination leavers);
winners:   the remaining game seats with the highest total (RULES.md 8: equal totals
           share the win; [elimination] a player who left cannot win: RULES.md 9 is
           silent, and "leaves" is read as leaving the contest for the win);
shares:    {game seat: Fraction of a win}, 1/m for each of m tied winners, 0 otherwise.
"""


def game_totals(records):
    """The `GameResult` of one game's records (in order): totals, remaining seats, winners.

    Game seats are those of "seats" where present (elimination), else 0..players-1.
    ValueError if a record has no valid seats or scores (`check_game` reports those).
    """
    if not isinstance(records, list) or not records:
        raise ValueError("a game needs a non-empty list of records")
    totals: dict[int, int] = {}
    seats: list = []
    for i, record in enumerate(records):
        n = record.get("players")
        seats = record.get("seats") or list(range(n if _is_int(n) else 0))
        scores = record.get("scores")
        if not isinstance(scores, list) or len(scores) != len(seats) or not all(_is_int(x) for x in scores):
            raise ValueError(f"record {i + 1}: scores {scores!r} do not match the seats {seats}")
        for seat, points in zip(seats, scores, strict=True):
            totals[seat] = totals.get(seat, 0) + points
    remaining = list(seats)
    top = max(totals[s] for s in remaining)
    winners = [s for s in remaining if totals[s] == top]
    shares = {s: Fraction(1, len(winners)) if s in winners else Fraction(0) for s in sorted(totals)}
    return GameResult(dict(sorted(totals.items())), remaining, winners, shares)


def check_game(records, final_totals=None, winners=None, *, rounds_checked=False):
    """Re-check the records of one whole game, in order; return the discrepancies.

    Any variant: standard, clairvoyance, mono, maximus, elimination and their
    "+clairvoyance" forms.  Every record is first checked on its own by `replay` (its
    problems are prefixed with "round r: "); then the game as a whole (RULES.md 2, 8, 9):
      * one game: the same seed, game, options, specials (and deck) in every record, the
        same players outside elimination, and every game seat keeps its strategy;
      * the variant's schedule (`game_schedule`): standard 1..60 // n, or 1..N with
        options.rounds, or options.schedule's list; mono 12 rounds of 4..15 cards; maximus
        5 rounds of deck_size // n; elimination rounds 1..20 with k = round.  Rounds are
        numbered 1..R consecutively and the game is complete;
      * hand sizes: cards_per_player and the length of every dealt hand;
      * the last round of the standard table and elimination round 20: no card turned
        up, no trump;
      * the dealer: seat 0 deals round 1 and the deal passes clockwise every round;
        [elimination] the next remaining game seat clockwise (`_check_elimination_sequence`),
        which also checks who leaves and when (`elimination_after`, from 60 cards);
      * totals: `final_totals` (a dict or a list by game seat), if given, must be the sums
        of the round scores by game seat; `winners` (a list of game seats), if given, must
        be those of `game_totals`.
    `rounds_checked=True` skips the `replay` of every record, for callers that have
    already replayed them (the game-level checks are the same).
    """
    return _check_whole_game(records, final_totals, winners, None, None, rounds_checked)


def check_elimination_game(records, totals=None):
    """Re-check the records of one elimination game, in order; return the discrepancies.

    Without `totals` this is `check_game` for a game that must be of the elimination
    variant.  Records name the game seat of each round seat in "seats" (round 1 may omit
    it); after round r played by n players exactly one player leaves if n > 3 and
    n * (r + 1) > 60 (`elimination_after`, whatever the specials), nobody otherwise; the
    one who leaves has the lowest running total (any of several tied players may leave);
    the others keep their order; the next dealer is the next remaining game seat
    clockwise after the previous dealer's game seat.

    `totals` checks a fragment of a game: the running totals by game seat before the
    first record (a dict, or a list indexed by game seat).  The fragment may then start
    and end at any round, and its first dealer is not checked.
    """
    return _check_whole_game(records, None, None, "elimination", totals, rounds_checked=False)


def _check_whole_game(records, final_totals, winners, expected_variant, start_totals, rounds_checked):
    if not isinstance(records, list) or not records:
        return ["a game needs a non-empty list of records"]
    problems: list[str] = []
    for i, record in enumerate([] if rounds_checked else records):
        label = f"round {record.get('round', '?')}" if isinstance(record, dict) else f"record {i + 1}"
        problems.extend(f"{label}: {problem}" for problem in replay(record))
    try:
        _GameCheck(records, problems.append, expected_variant, start_totals).run(final_totals, winners)
    except _Abort:
        pass
    return problems


class _GameRound:
    """What the game-level checks need from one record (round numbering -> game seats)."""

    def __init__(self, index, record, fragment, abort):
        where = f"record {index + 1}"
        if not isinstance(record, dict):
            abort(f"{where} is not a JSON object")
        self.record = record
        self.round = record.get("round")
        if not _is_int(self.round):
            abort(f"{where}: round must be an integer, got {self.round!r}")
        where = f"round {self.round}"
        self.where = where
        n = record.get("players")
        if not _is_int(n) or not 3 <= n <= 6:
            abort(f"{where}: players must be 3..6, got {n!r}")
        self.players = n
        raw_options = record.get("options") or {}
        try:
            self.options = normalize_options(raw_options)
            self.variant = game_variant(self.options)
        except (ValueError, AttributeError, TypeError):
            self.options = raw_options if isinstance(raw_options, dict) else {}
            self.variant = None  # reported by replay
        seats = record.get("seats")
        # Outside elimination every round has the game's seats 0..n-1 (replay checks a
        # "seats" key if given); in elimination round 1 may omit it.
        if seats is None and (self.variant != "elimination" or (self.round == 1 and not fragment)):
            seats = list(range(n))
        if (
            not isinstance(seats, list)
            or len(seats) != n
            or not all(_is_int(s) for s in seats)
            or any(a >= b for a, b in itertools.pairwise(seats))
        ):
            abort(f"{where}: seats must list the {n} players' game seats in increasing order, got {seats!r}")
        self.seats = seats
        self.k = record.get("cards_per_player")
        dealer = record.get("dealer")
        self.dealer = dealer if _is_seat(dealer, n) else None
        self.game_dealer = seats[dealer] if self.dealer is not None else None
        scores = record.get("scores")
        ok = isinstance(scores, list) and len(scores) == n and all(_is_int(x) for x in scores)
        self.scores = dict(zip(seats, scores, strict=True)) if ok else None  # by game seat
        strategies = record.get("strategies")
        ok = isinstance(strategies, list) and len(strategies) == n
        self.strategies = dict(zip(seats, strategies, strict=True)) if ok else {}
        try:
            deck = record["deck"] if "deck" in record else full_deck(record.get("specials") or [])
            self.deck_size = len(deck)
        except (ValueError, TypeError) as exc:
            abort(f"{where}: deck/specials: {exc}")


def _most_common(values):
    """The value most records share (the first one seen on a tie); values may be unhashable."""

    def key(value):
        return json.dumps(value, sort_keys=True, default=repr)

    keyed = Counter(key(v) for v in values)
    best = max(keyed.values())
    return next(v for v in values if keyed[key(v)] == best)


_MISSING = "(missing)"


class _GameCheck:
    """The game-level checks of `check_game` (and `check_elimination_game`), in order:
    one game, schedule and round numbers, hand sizes, last round, dealers (elimination:
    leavers and dealers), totals.  `report` notes a problem; `abort` also stops."""

    def __init__(self, records, report, expected_variant, start_totals):
        self._append = report
        self.section = None  # the RULES.md section of the check running now (None: HISTORY.md, one game)
        self.fragment = start_totals is not None
        self.start_totals = start_totals
        self.rounds = [_GameRound(i, record, self.fragment, self.abort) for i, record in enumerate(records)]
        self.first = self.rounds[0]
        variants = [r.variant for r in self.rounds if r.variant is not None]
        if expected_variant is None and not variants:
            self.abort("no record has valid options, so the variant is unknown")
        self.variant = expected_variant or _most_common(variants)

    def report(self, message):
        """Note a game-level problem: a `Finding` of the current check's section, at the round it names."""
        number = re.search(r"round (\d+)", message)
        self._append(Finding(message, section=self.section, round=int(number.group(1)) if number else None))

    def abort(self, message):
        self.report(message + " (further game checks skipped)")
        raise _Abort

    def run(self, final_totals, winners):
        self.check_one_game()
        self.section = "9" if self.variant in GAME_VARIANTS else "2"
        self.check_schedule()
        self.section = "2"
        self.check_last_round()
        if self.variant == "elimination":
            self.section = "9"
            _check_elimination_sequence(self.rounds, self.start_totals, self.report, self.abort)
        else:
            self.check_dealers()
        self.section = "8"
        self.check_totals(final_totals, winners)

    # --- one game ------------------------------------------------------------------------------

    def check_one_game(self):
        rounds, report, variant = self.rounds, self.report, self.variant
        keys = ["seed", "game", "specials", "deck"]
        if variant != "elimination":
            keys.append("players")  # [elimination] players leave; their seats are checked later
        for key in keys:
            values = [r.record.get(key, _MISSING) for r in rounds]
            common = _most_common(values)
            for r, value in zip(rounds, values, strict=True):
                if value != common:
                    report(f"{r.where}: {key} is {value!r}, but the game's other records have {common!r}")
        wrong_variant = set()
        for i, r in enumerate(rounds):
            if r.variant not in (None, variant):
                wrong_variant.add(i)
                report(f"{r.where}: variant is {r.options.get('variant')!r}, not {variant} like the game")
        # Every other option (and the exact variant, e.g. with or without clairvoyance).
        names = sorted({name for r in rounds for name in r.options})
        for name in names:
            values = [r.options.get(name, _MISSING) for r in rounds]
            common = _most_common(values)
            for i, (r, value) in enumerate(zip(rounds, values, strict=True)):
                if value != common and not (name == "variant" and i in wrong_variant):
                    report(f"{r.where}: option {name} is {value!r}, but the game's other records have {common!r}")
        self.options = _most_common([r.options for r in rounds])
        self.deck_size = _most_common([r.deck_size for r in rounds])
        strategy_of: dict[int, str] = {}
        for r in rounds:
            for seat, strategy in r.strategies.items():
                if strategy_of.setdefault(seat, strategy) != strategy:
                    report(f"{r.where}: game seat {seat} plays {strategy!r}, but played {strategy_of[seat]!r} before")

    # --- schedule: round numbers, cards per player, hand sizes ----------------------------------

    def describe_schedule(self, n, schedule):
        opts, variant = self.options, self.variant
        if variant == "mono":
            return "mono (12 rounds of 4..15 cards, 3 + round)"
        if variant == "maximus":
            return f"maximus (5 rounds of {self.deck_size} // {n} = {schedule[0]} cards)"
        if variant == "elimination":
            return f"elimination (rounds 1..{ELIMINATION_ROUNDS}, round r deals r cards)"
        if "schedule" in opts:
            return f"option schedule={opts['schedule']}"
        if "rounds" in opts:
            return f"option rounds={opts['rounds']} (round r deals r cards)"
        return f"the standard table for {n} players (60 // {n} = {len(schedule)} rounds, round r deals r cards)"

    def check_schedule(self):
        rounds, report, first = self.rounds, self.report, self.first
        n = first.players
        self.schedule = None
        try:
            schedule = game_schedule(self.options, n, self.deck_size)
        except ValueError as exc:
            report(f"options: {exc}")
            return
        self.schedule = schedule
        last = len(schedule)
        what = self.describe_schedule(n, schedule)
        if not self.fragment:
            if first.round != 1:
                hint = " (give totals= to check a fragment)" if self.variant == "elimination" else ""
                report(f"the game starts with round {first.round}, expected 1{hint}")
            if rounds[-1].round < last:
                report(f"the game ends after round {rounds[-1].round}, expected {last} rounds: {what}")
        for a, b in itertools.pairwise(rounds):
            if b.round != a.round + 1:
                report(f"round {b.round} follows round {a.round}: rounds must be consecutive")
        for r in rounds:
            if not 1 <= r.round <= last:
                report(f"{r.where}: the game has rounds 1..{last}: {what}")
                continue
            expected = schedule[r.round - 1]
            if r.k != expected:
                report(f"{r.where}: cards_per_player is {r.k!r}, but round {r.round} deals {expected} cards: {what}")
            hands = r.record.get("hands")
            if isinstance(hands, list):
                for seat, hand in enumerate(hands):
                    if isinstance(hand, list) and len(hand) != expected:
                        report(
                            f"{r.where}: seat {seat} was dealt {len(hand)} cards, but round {r.round} "
                            f"deals {expected}: {what}"
                        )

    # --- the last round -----------------------------------------------------------------------------

    def check_last_round(self):
        """The standard table's last round and elimination round 20: no card, no trump (RULES.md 2)."""
        if self.schedule is None:
            return
        opts, variant = self.options, self.variant
        if variant == "elimination":
            why = f"round {ELIMINATION_ROUNDS} is the last round of elimination"
        elif variant == "standard" and "rounds" not in opts and "schedule" not in opts:
            why = f"round {len(self.schedule)} is the last round of the standard table"
        else:
            return  # mono and maximus turn up no card anyway (replay); rounds/schedule turn one up
        for r in self.rounds:
            if r.round != len(self.schedule):
                continue
            indicator, trump = r.record.get("indicator"), r.record.get("trump")
            if indicator is not None:
                self.report(f"{r.where}: indicator is {indicator!r}, but {why}: no card is turned up (RULES.md 2)")
            if trump is not None:
                self.report(f"{r.where}: trump is {trump!r}, but {why}: it is played without trump (RULES.md 2)")

    # --- dealers ------------------------------------------------------------------------------------

    def check_dealers(self):
        """Seat 0 deals round 1 and the deal passes clockwise every round (RULES.md 2)."""
        for r in self.rounds:
            expected = (r.round - 1) % r.players
            if r.dealer is not None and r.dealer != expected:
                self.report(
                    f"{r.where}: dealer is seat {r.dealer}, expected seat {expected} "
                    f"(seat 0 deals round 1 and the deal passes clockwise every round)"
                )

    # --- totals and winners -----------------------------------------------------------------------

    def check_totals(self, final_totals, winners):
        if final_totals is None and winners is None:
            return
        if self.fragment:
            self.abort("final totals and winners are checked for whole games only, not for fragments")
        if any(r.scores is None for r in self.rounds):
            self.abort("some scores are malformed, so the totals are unknown")
        result = game_totals([r.record for r in self.rounds])
        if final_totals is not None:
            claimed = dict(enumerate(final_totals)) if isinstance(final_totals, list) else dict(final_totals)
            for seat in sorted(set(claimed) | set(result.totals), key=repr):
                if claimed.get(seat) != result.totals.get(seat):
                    self.report(
                        f"game seat {seat}: total is {claimed.get(seat)!r}, but its round scores add up to "
                        f"{result.totals.get(seat)!r}"
                    )
        if winners is not None and sorted(winners) != result.winners:
            top = result.totals[result.winners[0]]
            self.report(
                f"winners are {sorted(winners)}, but the highest total among the players still in "
                f"({result.remaining}) is {top}, held by game seat(s) {result.winners} (RULES.md 8: equal totals "
                f"share the win)"
            )


def _next_dealer(previous, seats):
    """[elimination] The next remaining game seat clockwise after game seat `previous`."""
    later = [s for s in sorted(seats) if s > previous]
    return later[0] if later else min(seats)


def _start_totals(totals, seats, abort):
    """Running totals by game seat before a fragment's first record."""
    if isinstance(totals, list):
        totals = dict(enumerate(totals))
    if not isinstance(totals, dict):
        abort(f"totals must be a dict or a list by game seat, got {totals!r}")
    missing = [s for s in seats if s not in totals]
    if missing:
        abort(f"totals has no running total for game seat(s) {missing}")
    return {s: totals[s] for s in seats}


def _check_elimination_sequence(rounds, totals, report, abort):
    """[elimination] The start, who leaves and when, and who deals (RULES.md 9).

    `rounds` are `_GameRound`s in order; `totals` the running totals before the first
    (None for a whole game, which then starts at round 1 with 4 to 6 players at seats
    0..n-1 and seat 0 dealing).
    """
    first = rounds[0]
    if totals is not None:
        running = _start_totals(totals, first.seats, abort)
    else:
        if first.round == 1:
            if first.players not in ELIMINATION_PLAYERS:
                report(f"{first.where}: an elimination game starts with 4 to 6 players, not {first.players}")
            if first.seats != list(range(first.players)):
                report(f"{first.where}: seats are {first.seats}, expected {list(range(first.players))}")
            if first.game_dealer not in (None, 0):
                report(f"{first.where}: dealer is game seat {first.game_dealer}, expected 0 in the first round")
        running = {s: 0 for s in first.seats}

    # --- round to round: who leaves, who deals -----------------------------------------------------
    for a, b in itertools.pairwise(rounds):
        if running is not None and a.scores is not None:
            for seat, points in a.scores.items():
                running[seat] = running.get(seat, 0) + points
        elif running is not None:
            report(f"{a.where}: scores are malformed, so the running totals are unknown from here on")
            running = None

        deal_next = f"{a.players} x {a.round + 1} cards"
        if elimination_after(a.round, a.players):
            gone = set(a.seats) - set(b.seats)
            if len(b.seats) != len(a.seats) - 1 or not set(b.seats) <= set(a.seats):
                report(
                    f"{b.where}: seats are {b.seats}, expected exactly one of {a.seats} to leave "
                    f"after round {a.round} ({deal_next} > {DECK_CARDS})"
                )
            elif running is not None:
                (leaver,) = gone
                lowest = min(running[s] for s in a.seats)
                if running[leaver] != lowest:
                    tied = [s for s in a.seats if running[s] == lowest]
                    report(
                        f"after round {a.round} game seat {leaver} left with total {running[leaver]}, "
                        f"but the lowest total was {lowest} (game seat(s) {tied})"
                    )
        elif b.seats != a.seats:
            why = "three players remain" if a.players <= 3 else f"{deal_next} <= {DECK_CARDS}"
            report(f"{b.where}: seats are {b.seats}, expected {a.seats}: nobody leaves after round {a.round} ({why})")

        if a.game_dealer is not None and b.game_dealer is not None:
            expected = _next_dealer(a.game_dealer, b.seats)
            if b.game_dealer != expected:
                report(
                    f"{b.where}: dealer is seat {b.dealer} (game seat {b.game_dealer}), expected "
                    f"seat {b.seats.index(expected)} (game seat {expected}), the next remaining "
                    f"game seat clockwise after the previous dealer, game seat {a.game_dealer}"
                )
