"""Test drivers of the reference rules: random play and exact enumeration, written from RULES.md alone.

The rules themselves (cards, tricks, bids, scoring, the replay of a HISTORY.md
record, whole-game checks) are :mod:`wizsim.game.reference`, the package's
pure-Python rules implementation, independent of the Numba engine (it imports
nothing from wizsim) and used by ``wizsim check``. This module re-exports all
of it, so the differential tests keep writing ``import reference as R``, and
adds what only the tests need:

  6. random play                         (play_random_round)
  7. exact distribution for tiny decks   (enumerate_round_distribution)
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

from wizsim.game import reference as _rules
from wizsim.game.reference import *  # noqa: F403 - the rules, re-exported for `import reference as R`
from wizsim.game.reference import (  # the helpers the drivers below share with the rules
    MONO_PLAYERS,
    SPECIALS,
    SUITED_SPECIALS,
    SUITS,
    TRUMP_CHOICES,
    _hand_card,
    _is_int,
    _is_seat,
    _ordered,
    _score,
    allowed_trumps,
    cloud_final_bid,
    full_deck,
    game_variant,
    hand_name,
    last_round_without_trump,
    legal_bids,
    legal_cards,
    maximus_trump,
    mono_cards,
    normalize_options,
    replay,
    trick_taker,
    trick_winner,
    variant_round_cards,
)

__all__ = [*_rules.__all__, "play_random_round", "enumerate_round_distribution"]


# ---------------------------------------------------------------------------
# 6. Random play
# ---------------------------------------------------------------------------


def _check_table(n, k, dealer, deck_size):
    if not _is_int(n) or not 3 <= n <= 6:
        raise ValueError(f"Wizard is played by 3 to 6 players, got {n!r}")
    if not _is_int(k) or k < 1:
        raise ValueError(f"cards per player must be a positive integer, got {k!r}")
    if not _is_seat(dealer, n):
        raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
    if n * k > deck_size:
        raise ValueError(f"{n} x {k} cards exceed the deck of {deck_size}")


def _played_forms(card):
    """The ways a hand card can be played; a uniformly random one is chosen."""
    if card in SUITED_SPECIALS:  # [special]
        return [f"{card}:{s}" for s in SUITS]
    if card == "Shapeshifter":  # [special]
        return ["Shapeshifter:W", "Shapeshifter:J"]
    return [card]


def play_random_round(rng, n, k, dealer, options, deck=None, round_number=None):
    """Deal and play one round with uniformly random legal choices; return its record.

    Choices: uniform deal; a Werewolf holder swaps (always under werewolf=must, with
    probability 1/2 under may) and names a uniform trump among no trump and the 4 suits,
    but with no card turned up keeps it and names nothing (no trump);
    a dealer who names trump picks a uniform suit; bids uniform over the legal bids;
    cards uniform over the distinct legal hand names, then a uniform suit for a
    Juggler/Cloud and a uniform role for a Shapeshifter; Juggler passes uniform over the
    distinct cards in hand; the Cloud taker's bid change is the default choice.
    The record also carries "legal" (and "deck" if `deck` was given).  No card is turned
    up in the last round of the standard table (k = 60 // n, unless `options` carry
    "rounds" or "schedule") nor in elimination round 20 (`last_round_without_trump`).

    Variants (options["variant"]; clairvoyance and hidden bids change nothing here):
      mono:        each seat draws k cards from its own 15 (`mono_cards`); no indicator,
                   no trump; k = 3 + round; `deck` must not be given.
      maximus:     k must be deck_size // n; `round_number` (default 1) fixes the trump;
                   no indicator; a Werewolf holder keeps it (swapped false).
      elimination: a standard round of k = round cards; the record has seats 0..n-1.
    The record's "round" is `round_number`; by default the round the variant deals k
    cards in (mono k - 3, elimination k), else 1.
    """
    opts = normalize_options(options)
    variant = game_variant(opts)
    if variant == "mono":  # [mono]
        if deck is not None:
            raise ValueError("mono deals from each seat's own cards: give no deck")
        if n not in MONO_PLAYERS:
            raise ValueError(f"variant mono is for 3 or 4 players, not {n!r}")
        cards = full_deck()
    else:
        cards = full_deck() if deck is None else [_hand_card(c) for c in deck]
    _check_table(n, k, dealer, len(cards))
    round_number = _variant_round_number(variant, round_number, n, k, len(cards))

    if variant == "mono":  # [mono] every seat draws from its own 15 cards
        hands = [rng.sample(mono_cards(seat), k) for seat in range(n)]
        indicator = None
    else:
        shuffled = list(cards)
        rng.shuffle(shuffled)
        hands = [shuffled[seat * k : (seat + 1) * k] for seat in range(n)]
        # [maximus] no indicator is turned up, even if cards are left over; neither in the
        # standard table's last round nor in elimination round 20 (RULES.md 2)
        turns_up = variant != "maximus" and last_round_without_trump(opts, n, k, round_number) is None
        indicator = shuffled[n * k] if len(shuffled) > n * k and turns_up else None
    current = [list(h) for h in hands]

    werewolf = None
    holders = [s for s in range(n) if "Werewolf" in hands[s]]
    if variant == "mono":  # [mono]
        trump = None
    elif variant == "maximus":  # [maximus] the fixed trump stands; the holder keeps the Werewolf
        trump = maximus_trump(round_number)
        if holders:
            werewolf = {"seat": holders[0], "swapped": False}
    elif holders:  # [special]
        holder = holders[0]
        swap = indicator is not None and (opts["werewolf"] == "must" or rng.random() < 0.5)
        if swap:
            current[holder].remove("Werewolf")
            current[holder].append(indicator)
        werewolf = {"seat": holder, "swapped": swap}
        if swap:
            trump = rng.choice(TRUMP_CHOICES)
        elif indicator is None:
            trump = None  # nothing to swap: the holder names nothing, no trump (RULES.md 3)
        else:
            trump = rng.choice(_ordered(allowed_trumps(indicator, opts)))
    else:
        trump = rng.choice(_ordered(allowed_trumps(indicator, opts)))

    bids = [None] * n
    earlier = []
    for i in range(n):
        seat = (dealer + 1 + i) % n
        bid = rng.choice(legal_bids(k, earlier, seat == dealer, opts))
        bids[seat] = bid
        earlier.append(bid)

    tricks, legal_log = [], []
    won = [0] * n
    cloud_taker, bomb_played = None, False
    leader = (dealer + 1) % n
    for t in range(k):
        played, legal_lists = [], []
        for i in range(n):
            seat = (leader + i) % n
            legal = sorted(legal_cards(current[seat], played, trump, opts))
            legal_lists.append(legal)
            choice = rng.choice(legal)
            current[seat].remove(choice)
            played.append(rng.choice(_played_forms(choice)))
        taker_index = trick_taker(played, trump, opts)
        winner_index = trick_winner(played, trump, opts)
        winner = None if winner_index is None else (leader + winner_index) % n
        next_leader = (leader + taker_index) % n
        entry = {"leader": leader, "cards": played, "winner": winner, "next_leader": next_leader}
        if winner is not None:
            won[winner] += 1
        if any(hand_name(c) == "Cloud" for c in played):
            cloud_taker = winner
        if "Bomb" in played:
            bomb_played = True
        if any(hand_name(c) == "Juggler" for c in played) and t < k - 1:
            passes = [rng.choice(sorted(set(current[s]))) for s in range(n)]
            for s in range(n):
                current[s].remove(passes[s])
            for s in range(n):
                current[(s + 1) % n].append(passes[s])
            entry["passes"] = passes
        tricks.append(entry)
        legal_log.append(legal_lists)
        leader = next_leader

    bids_cancelled = bomb_played and opts["bomb"] == "cancel_bids"
    final_bids = list(bids)
    if cloud_taker is not None:
        final_bids[cloud_taker] = cloud_final_bid(bids[cloud_taker], won[cloud_taker], k, opts, bids_cancelled)
    scores = [_score(final_bids[s], won[s], k, opts, bids_cancelled) for s in range(n)]
    record = {
        "seed": 0,
        "game": 0,
        "players": n,
        "round": round_number,
        "cards_per_player": k,
        "dealer": dealer,
        "specials": [c for c in SPECIALS if c in cards],
        "options": opts,
        "strategies": ["random"] * n,
        "hands": hands,
        "indicator": indicator,
        "werewolf": werewolf,
        "trump": trump,
        "bids": bids,
        "tricks": tricks,
        "tricks_won": won,
        "final_bids": final_bids,
        "scores": scores,
        "legal": legal_log,
    }
    if variant == "elimination":  # [elimination] a lone round: nobody has left yet
        record["seats"] = list(range(n))
    if deck is not None:
        record["deck"] = list(cards)
    return record


def _variant_round_number(variant, round_number, n, k, deck_size):
    """The round a random `variant` round of k cards is recorded as (see play_random_round)."""
    if round_number is None:
        round_number = {"mono": k - 3, "elimination": k}.get(variant, 1)
    expected = variant_round_cards(variant, round_number, n, deck_size)
    if expected is not None and expected != k:
        raise ValueError(f"{variant} round {round_number} deals {expected} cards, not {k}")
    return round_number


# ---------------------------------------------------------------------------
# 7. Exact distribution for tiny decks
# ---------------------------------------------------------------------------


def enumerate_round_distribution(n, k, dealer, options, deck):
    """Exact {(seat_position, bid, tricks): Fraction} under the random model of
    `play_random_round` (seat_position = (seat - dealer - 1) % n; `bid` is the bid as
    made, before any Cloud change).

    Dealing: every assignment of deck *positions* (card objects) to the hands and the
    indicator is equally likely, so duplicate names are weighted correctly; deals are
    enumerated as ordered choices of index combinations (hand of seat 0, 1, ..., then
    the indicator) and collected by card names.

    Factorisation: random bids never look at the cards, and random play never looks at
    the bids, so for every seat the bid and the number of tricks are independent:
    P(pos, bid, tricks) = P(pos bids bid) * P(pos takes tricks).  Both factors are
    computed exactly by brute force.
    Standard rounds only (also clairvoyance/elimination rounds, which play the same);
    mono and maximus raise NotImplementedError.
    """
    opts = normalize_options(options)
    if game_variant(opts) in ("mono", "maximus"):
        raise NotImplementedError("exact enumeration covers standard rounds only (not mono/maximus)")
    cards = [_hand_card(c) for c in deck]
    _check_table(n, k, dealer, len(cards))

    # 1. Deals: (hands as sorted tuples, indicator) -> probability.  No card is turned up
    # when none is left or in the standard table's last round (RULES.md 2).
    deals = Counter()
    turns_up = last_round_without_trump(opts, n, k) is None

    def deal(seat, remaining, hands, prob):
        if seat == n:
            if not remaining or not turns_up:
                deals[(tuple(hands), None)] += prob
                return
            for index in remaining:
                deals[(tuple(hands), cards[index])] += prob / len(remaining)
            return
        combos = list(itertools.combinations(remaining, k))
        for combo in combos:
            rest = tuple(i for i in remaining if i not in combo)
            hand = tuple(sorted(cards[i] for i in combo))
            deal(seat + 1, rest, hands + [hand], prob / len(combos))

    deal(0, tuple(range(len(cards))), [], Fraction(1))

    # 2. Werewolf and trump: (hands, trump) -> probability.
    setups = Counter()
    for (hands, indicator), prob in deals.items():
        holders = [s for s in range(n) if "Werewolf" in hands[s]]
        if not holders:
            options_ = _ordered(allowed_trumps(indicator, opts))
            for trump in options_:
                setups[(hands, trump)] += prob / len(options_)
            continue
        holder = holders[0]  # [special]
        if indicator is None:
            swap_choices = [False]
        elif opts["werewolf"] == "must":
            swap_choices = [True]
        else:
            swap_choices = [True, False]
        for swap in swap_choices:
            p_swap = prob / len(swap_choices)
            new_hands = hands
            if swap:
                hand = list(hands[holder])
                hand.remove("Werewolf")
                hand.append(indicator)
                new_hands = hands[:holder] + (tuple(sorted(hand)),) + hands[holder + 1 :]
                options_ = list(TRUMP_CHOICES)  # the holder names a suit or no trump
            else:  # kept (declined, or no card turned up: then no trump)
                options_ = _ordered(allowed_trumps(indicator, opts))
            for trump in options_:
                setups[(new_hands, trump)] += p_swap / len(options_)

    # 3. Tricks: P(seat takes t tricks) by brute force over the play.
    cache = {}

    def play_from(hands, leader, trump):
        """Distribution of the trick counts (tuple by seat) still to be won from here."""
        if not hands[0]:
            return {(0,) * n: Fraction(1)}
        key = (hands, leader, trump)
        if key in cache:
            return cache[key]
        result = Counter()
        for played, rest, prob in trick_lines(hands, leader, trump, 0, []):
            winner_index = trick_winner(played, trump, opts)
            taker_index = trick_taker(played, trump, opts)
            gained = [0] * n
            if winner_index is not None:
                gained[(leader + winner_index) % n] = 1
            next_leader = (leader + taker_index) % n
            for after, p_after in after_trick(played, rest, prob):
                for counts, p_rest in play_from(after, next_leader, trump).items():
                    total = tuple(g + c for g, c in zip(gained, counts, strict=True))
                    result[total] += p_after * p_rest
        cache[key] = dict(result)
        return cache[key]

    def trick_lines(hands, leader, trump, i, played):
        """Yield (played cards, hands after the trick, probability) for every way to play."""
        if i == n:
            yield list(played), hands, Fraction(1)
            return
        seat = (leader + i) % n
        legal = sorted(legal_cards(hands[seat], played, trump, opts))
        for card in legal:
            hand = list(hands[seat])
            hand.remove(card)
            new_hands = hands[:seat] + (tuple(hand),) + hands[seat + 1 :]
            forms = _played_forms(card)
            for form in forms:
                p = Fraction(1, len(legal) * len(forms))
                for line, rest, q in trick_lines(new_hands, leader, trump, i + 1, played + [form]):
                    yield line, rest, p * q

    def after_trick(played, hands, prob):
        """[special] Juggler passes (not after the last trick); otherwise hands unchanged."""
        if not any(hand_name(c) == "Juggler" for c in played) or not hands[0]:
            return [(hands, prob)]
        outcomes = Counter()
        choices = [sorted(set(h)) for h in hands]
        for passes in itertools.product(*choices):
            new = [list(h) for h in hands]
            for s in range(n):
                new[s].remove(passes[s])
            for s in range(n):
                new[(s + 1) % n].append(passes[s])
            p = prob
            for c in choices:
                p /= len(c)
            outcomes[tuple(tuple(sorted(h)) for h in new)] += p
        return list(outcomes.items())

    tricks_by_position = Counter()  # (position, tricks) -> probability
    for (hands, trump), prob in setups.items():
        for counts, p in play_from(hands, (dealer + 1) % n, trump).items():
            for seat in range(n):
                tricks_by_position[((seat - dealer - 1) % n, counts[seat])] += prob * p

    # 4. Bids: P(position bids b) by brute force over bid sequences (position n-1 = dealer).
    bids_by_position = Counter()

    def bid_from(position, earlier, prob):
        if position == n:
            for pos, bid in enumerate(earlier):
                bids_by_position[(pos, bid)] += prob
            return
        allowed = legal_bids(k, earlier, position == n - 1, opts)
        for bid in allowed:
            bid_from(position + 1, earlier + [bid], prob / len(allowed))

    bid_from(0, [], Fraction(1))

    distribution = {}
    for (pos, bid), p_bid in bids_by_position.items():
        for (pos2, tricks), p_tricks in tricks_by_position.items():
            if pos2 == pos and p_bid * p_tricks:
                distribution[(pos, bid, tricks)] = p_bid * p_tricks
    return distribution


if __name__ == "__main__":  # quick self-check: python tests/reference.py
    rng = random.Random(1)
    bad = 0
    for _ in range(200):
        n = rng.randint(3, 6)
        rec = play_random_round(rng, n, rng.randint(1, 60 // n), rng.randrange(n), {})
        bad += bool(replay(rec))
    print("inconsistent random rounds:", bad)
