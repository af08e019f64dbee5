"""The heuristic player: rule-of-thumb bids and card play that aims at the bid exactly.

Registry line: ``Player("heuristic", ROLLOUT_HEURISTIC)`` in :mod:`..layout`;
its parameters (``H_*``) are a shared block, since every player but random
bids and plays from them; its Python side is :mod:`wizsim.players.heuristic`.
Its entry points :func:`bid` and :func:`card` (end of the file) are what
:mod:`.seats` calls.

Its card play (:func:`heuristic_play`) is a normal (not inlined) call that
takes scalars only (array arguments would cost reference-count updates on
every card where they are not borrowed views), and inlining it would crowd the
random player's loop. It reads
cards by arithmetic (code = 13 * suit + rank - 1) and constants for the rest, and
decides for all plain suit cards at once on 64-bit masks (``lowest_valued``,
``highest_valued``, ``beats``, ``top_cards``); only special cards are scanned one
by one. ``tests/test_heuristic_masks.py`` checks it against the per-card scan it
replaced.
The ``table`` player plays the same code with refinements (``refine``), and
``pimc`` uses it in its rollouts.
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ..game.score import round_score
from ..game.trick import trick_result
from ..jit.bits import ONE, U64, ZERO, highest_bit, lowest_bit, popcount
from ..jit.config import OVERLOAD_OPTIONS, hot, jit, switch_off
from ..layout import (
    BOMB,
    CLOUD,
    CLOUD_AS,
    DRAGON,
    FAIRY,
    FLAG_BOMB,
    FLAG_DRAGON,
    FLAG_FAIRY,
    FREE,
    H_BID_SHIFT,
    H_LENGTH_DECAY,
    H_NT_ACE,
    H_PLAYER_DECAY,
    H_RUFF,
    H_SIDE_ACE,
    H_SIDE_DROP,
    H_SIDE_SECOND,
    H_SPECIAL,
    H_TRUMP_FLOOR,
    H_TRUMP_SLOPE,
    H_TRUMP_TOP,
    H_WIZARD,
    JESTER,
    JUGGLER,
    JUGGLER_AS,
    R_MONO,
    R_SCORING,
    REFINE_KEEP_JESTER,
    REFINE_LEAD_TRUMP,
    SHAPESHIFTER,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    WIZARD,
)


@hot
def suit_strength(hand):
    """The suit the hand is strongest in (count plus rank strength), and that strength."""
    best_suit = 0
    best = -1.0
    for s in range(4):
        bits = (hand >> U64(13 * s)) & U64(0x1FFF)
        score = 0.0
        while bits != ZERO:
            r = np.int64(lowest_bit(bits)) + 1
            bits &= bits - ONE
            score += 1.0 + r / 13.0
        if score > best:
            best = score
            best_suit = s
    return best_suit, best


@jit
def heuristic_estimate(hand, cnt_row, trump, n, k, prm):
    """Expected tricks of a hand, by rule of thumb (parameters in ``prm``)."""
    est = cnt_row[WIZARD] * prm[H_WIZARD]
    special = hand >> U64(DRAGON)
    while special != ZERO:
        i = np.int64(lowest_bit(special))
        special &= special - ONE
        est += prm[H_SPECIAL + i]
    side_scale = prm[H_SIDE_ACE] * (1.0 - prm[H_PLAYER_DECAY] * (n - 3)) * (1.0 - prm[H_LENGTH_DECAY] * (k - 1))
    if side_scale < 0.05:
        side_scale = 0.05
    if trump < 0:
        # no trump: side cards cannot be ruffed, so long rounds hurt them less
        side_scale = prm[H_NT_ACE] * (1.0 - prm[H_PLAYER_DECAY] * (n - 3))
    n_trump = 0
    short_suits = 0
    for s in range(4):
        bits = (hand >> U64(13 * s)) & U64(0x1FFF)
        cnt = np.int64(popcount(bits))
        if s == trump:
            n_trump = cnt
            while bits != ZERO:
                r = np.int64(lowest_bit(bits)) + 1
                bits &= bits - ONE
                v = prm[H_TRUMP_TOP] - prm[H_TRUMP_SLOPE] * (13 - r) * (1.0 + 0.15 * (n - 4))
                if v < prm[H_TRUMP_FLOOR]:
                    v = prm[H_TRUMP_FLOOR]
                est += v
        else:
            if cnt <= 1:
                short_suits += 1
            # the best side card counts fully, lower ones lose value the longer the suit
            v = side_scale
            while bits != ZERO:
                r = np.int64(highest_bit(bits)) + 1
                bits &= ~(ONE << U64(r - 1))
                est += v * prm[H_SIDE_DROP] ** (13 - r)
                v *= prm[H_SIDE_SECOND]
    if trump >= 0 and n_trump >= 1:
        # spare trumps can ruff short side suits
        spare = n_trump
        if spare > short_suits:
            spare = short_suits
        est += prm[H_RUFF] * spare
    est += prm[H_BID_SHIFT]
    # a floor of tricks the hand controls: Wizards, the Dragon, and unbroken
    # top sequences (of trump, or of every suit when there is no trump)
    sure = cnt_row[WIZARD] + ((hand >> U64(DRAGON)) & ONE)
    for s in range(4):
        if s == trump or trump < 0:
            bits = (hand >> U64(13 * s)) & U64(0x1FFF)
            r = 12
            while r >= 0 and (bits >> U64(r)) & ONE:
                sure += 1
                r -= 1
    return max(est, np.float64(sure))


@jit
def mono_estimate(hand, cnt_row, n):
    """Expected tricks in mono (no trump, no following, highest value wins)."""
    est = 0.8 * cnt_row[WIZARD]
    bits = hand & U64((1 << 52) - 1)
    while bits != ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - ONE
        r = c % 13 + 1
        # the chance that each other player's card in the trick is lower, roughly
        est += ((r - 1) / 14.0) ** (n - 1)
    return est


@hot
def estimate(hand, cnt_row, trump, n, k, prm, mono):
    """The heuristic's expected tricks of a hand (:func:`mono_estimate` in mono)."""
    if mono:
        return mono_estimate(hand, cnt_row, n)
    return heuristic_estimate(hand, cnt_row, trump, n, k, prm)


@jit
def clairvoyant_bid(p, n, k, dealer, trump, shown, hands, cnt, deck, table, scoring, work):
    """Round-1 clairvoyance: bid from the other hands, not one's own (one card each).

    Every card the player might hold (the deck minus the visible cards and the
    indicator) is tried in the trick the others' cards make, each played in its
    winning form; the bid with the higher expected score wins.
    """
    if k != 1:
        return np.int64(np.floor(k / n + 0.5))
    # others' cards in play order from the leader
    visible = np.zeros(64, dtype=np.int64)
    for q in range(n):
        if q != p:
            for c in range(64):
                if (hands[q] >> U64(c)) & ONE:
                    visible[c] += cnt[q, c]
    if shown >= 0:
        visible[shown] += 1  # the turned-up card
    wins = 0
    total = 0
    for i in range(deck.shape[0]):
        c = np.int64(deck[i])
        if visible[c] > 0:
            visible[c] -= 1  # this copy is someone else's
            continue
        total += 1
        for j in range(n):
            q = (dealer + 1 + j) % n
            own = c
            if q != p:
                own = np.int64(lowest_bit(hands[q]))
            work[j] = winning_form(own, trump)
        w, _ = trick_result(work, n, trump, table, True)
        if w >= 0 and (dealer + 1 + w) % n == p:
            wins += 1
    pw = wins / total if total > 0 else 0.0
    e0 = (1 - pw) * round_score(0, 0, 1, scoring) + pw * round_score(0, 1, 1, scoring)
    e1 = (1 - pw) * round_score(1, 0, 1, scoring) + pw * round_score(1, 1, 1, scoring)
    return 1 if e1 > e0 else 0


@hot
def winning_form(card, trump):
    """The form a player plays ``card`` in to win: Juggler/Cloud in trump (or Blue), Shapeshifter as Wizard."""
    if card == JUGGLER:
        return JUGGLER_AS + (trump if trump >= 0 else 0)
    if card == CLOUD:
        return CLOUD_AS + (trump if trump >= 0 else 0)
    if card == SHAPESHIFTER:
        return SHAPESHIFTER_AS_WIZARD
    return card


@hot
def static_value(form, trump):
    """How valuable a played form is to keep for winning later (high = dangerous when ducking)."""
    if form < 52:
        rank = form % 13 + 1
        return 50 + rank if form // 13 == trump else rank
    if form == WIZARD or form == SHAPESHIFTER_AS_WIZARD:
        return 100
    if form == DRAGON:
        return 120
    if JUGGLER_AS <= form < JUGGLER_AS + 4:
        return 48 if form - JUGGLER_AS == trump else 3
    if CLOUD_AS <= form < CLOUD_AS + 4:
        return 49 if form - CLOUD_AS == trump else 4
    return -1  # Jester-like: Jester, Fairy, Bomb, kept Werewolf, Shapeshifter as Jester


@hot
def form_power(form, led, trump):
    """:func:`card_power` by arithmetic, and the led state after the form."""
    if form < 52:
        suit = form // 13
        led2 = suit if led == -1 else led
        return 4 * (form % 13 + 1) + 200 * np.int64(suit == trump) + 100 * np.int64(suit == led2), led2
    if form == WIZARD or form == SHAPESHIFTER_AS_WIZARD:
        return 1000, (FREE if led == -1 else led)
    if form == DRAGON:
        return 3000, (FREE if led == -1 else led)
    if form >= JUGGLER_AS and form < CLOUD_AS + 4:
        suit = (form - JUGGLER_AS) % 4
        led2 = suit if led == -1 else led
        base = 30 if form < CLOUD_AS else 39
        return base + 200 * np.int64(suit == trump) + 100 * np.int64(suit == led2), led2
    if form == FAIRY or form == BOMB:
        return -2, led
    return 0, led


@hot
def is_top(card, hand, seen):
    """True if no unseen card of its suit beats ``card`` (unseen Wizards and ruffs are a risk taken)."""
    if card == WIZARD or card == DRAGON:
        return True
    if card >= 52:
        return False
    suit = card // 13
    above = (U64(0x1FFF) << U64(13 * suit)) & ~((ONE << U64(card + 1)) - ONE)
    return (above & ~(hand | seen)) == ZERO


@hot
def forms_of(card, led, trump):
    """(form to win with, form to lose with) for a card: they differ only for the flexible specials."""
    if card == SHAPESHIFTER:
        return SHAPESHIFTER_AS_WIZARD, SHAPESHIFTER_AS_JESTER
    if card == JUGGLER or card == CLOUD:
        base = JUGGLER_AS if card == JUGGLER else CLOUD_AS
        win = trump if trump >= 0 else (led if 0 <= led < 4 else 0)
        lose = 0
        while lose == trump or lose == led or (led == -1 and lose == win and trump < 0):
            lose += 1
        return base + win, base + (lose % 4)
    return card, card


PLAIN = U64((1 << 52) - 1)  # the suit cards' bits
SUIT = U64(0x1FFF)  # one suit's 13 bits (bit r - 1 for rank r)
NO_CARD_LOW = 1 << 30  # the value of "no card" when looking for the lowest
NO_CARD_HIGH = -(1 << 30)


@hot
def first_of_rank(m, r):
    """The lowest code in ``m`` of rank bit ``r`` (the scan's tie-break: lowest suit first)."""
    c = r
    while (m >> U64(c)) & ONE == ZERO:
        c += 13
    return c


@hot
def lowest_valued(m, tmask, trump):
    """The plain card in ``m`` of least :func:`static_value` (lowest code on ties), and that value.

    A side card's value is its rank and a trump's is 50 + rank, so any side card is below every trump.
    """
    side = m & ~tmask
    if side != ZERO:
        fold = (side | (side >> U64(13)) | (side >> U64(26)) | (side >> U64(39))) & SUIT
        r = np.int64(lowest_bit(fold))
        return first_of_rank(side, r), r + 1
    if m != ZERO:
        c = np.int64(lowest_bit(m))
        return c, 51 + c - 13 * trump
    return np.int64(-1), np.int64(NO_CARD_LOW)


@hot
def highest_valued(m, tmask, trump):
    """The plain card in ``m`` of greatest :func:`static_value` (lowest code on ties), and that value."""
    tr = m & tmask
    if tr != ZERO:
        c = np.int64(highest_bit(tr))
        return c, 51 + c - 13 * trump
    if m != ZERO:
        fold = (m | (m >> U64(13)) | (m >> U64(26)) | (m >> U64(39))) & SUIT
        r = np.int64(highest_bit(fold))
        return first_of_rank(m, r), r + 1
    return np.int64(-1), np.int64(NO_CARD_HIGH)


@hot
def beats(best, led, trump):
    """The plain cards whose power (:func:`form_power`) is above ``best``."""
    w = ZERO
    for s in range(4):
        # power = 4 * rank + 200 (trump) + 100 (led suit, or nothing led)
        over = best - 200 * np.int64(s == trump) - 100 * np.int64(led == -1 or s == led)
        if over < 0:
            w |= SUIT << U64(13 * s)
        elif over < 52:  # rank - 1 >= over // 4 (a rank of 13 is bit 12)
            w |= ((SUIT << U64(over // 4)) & SUIT) << U64(13 * s)
    return w


@hot
def top_cards(hand, seen):
    """The plain cards that no unseen card of their suit beats (:func:`is_top` for every card at once)."""
    unseen = ~(hand | seen)
    top = ZERO
    for s in range(4):
        u = (unseen >> U64(13 * s)) & SUIT
        if u == ZERO:
            top |= SUIT << U64(13 * s)
        else:
            h = highest_bit(u) + ONE
            top |= ((SUIT >> h) << h) << U64(13 * s)
    return top


@hot
def lowest_beaten_trump(trumps, unseen_trumps):
    """REFINE_LEAD_TRUMP: the lowest of ``trumps`` that an unseen trump beats (-1 if none)."""
    if unseen_trumps != ZERO:
        below = trumps & ((ONE << highest_bit(unseen_trumps)) - ONE)
        if below != ZERO:
            return np.int64(lowest_bit(below))
    return np.int64(-1)


@jit
def heuristic_play(hand, legal, need, led, best, n_played, n, trump, seen, tflags, mono, refine):
    """Choose a form to play: win cheaply while tricks are needed, duck otherwise.

    ``refine`` (0 for the heuristic) is the ``table`` player's bit set of
    refinements, found by watching where ``pimc`` plays differently:
    ``REFINE_LEAD_TRUMP``: on lead with the bid made, lead the lowest trump
    that an unseen trump still beats, before any side card. A low trump is
    the card most likely to take an unwanted trick later (a ruff once a side
    suit runs out); led now, the others' higher trumps take it.
    ``REFINE_KEEP_JESTER``: needing tricks but unable to win this one, shed
    the lowest side card rather than a Jester-like card, which stays a sure
    way to lose a trick later.
    """
    last = n_played == n - 1
    voided = (tflags & FLAG_BOMB) != 0  # nobody takes this trick whatever is played
    cheapest_win = -1
    cheapest_win_v = 1 << 30
    cheapest_top_win = -1
    highest_win = -1
    highest_win_v = -(1 << 30)
    wizard = -1
    highest_lose = -1
    highest_lose_v = -(1 << 30)
    lowest = -1
    lowest_v = 1 << 30
    lowest_side = -1
    jester = -1  # a jester-like form to lead when a trick must be lost
    lowest_trump = -1  # REFINE_LEAD_TRUMP: the lowest trump that an unseen trump beats
    lowest_plain = -1  # REFINE_KEEP_JESTER: the least valuable side card (no trump, no Jester-like card)
    lowest_plain_v = 1 << 30
    # plain suit cards, all at once on masks (the same choices, ties included, as
    # the per-card scan: lowest code first, so the lowest suit wins a tie of ranks)
    plain = legal & PLAIN
    if plain != ZERO:
        tmask = (SUIT << U64(13 * trump)) if trump >= 0 else ZERO
        lowest, lowest_v = lowest_valued(plain, tmask, trump)
        if plain & ~tmask != ZERO:  # then the lowest valued card is a side card
            lowest_side = lowest
            if (refine & REFINE_KEEP_JESTER) != 0:
                lowest_plain, lowest_plain_v = lowest, lowest_v
        if (refine & REFINE_LEAD_TRUMP) != 0 and plain & tmask != ZERO:
            lowest_trump = lowest_beaten_trump(plain & tmask, tmask & ~(hand | seen))
        if voided:
            win = ZERO
        elif n_played == 0:
            win = plain
        else:
            win = plain & beats(best, led, trump)
        highest_lose, highest_lose_v = highest_valued(plain & ~win, tmask, trump)
        if win != ZERO:
            cheapest_win, cheapest_win_v = lowest_valued(win, tmask, trump)
            highest_win, highest_win_v = highest_valued(win, tmask, trump)
            if not mono:
                eligible = win if (n_played == 0 or trump < 0) else win & tmask
                if eligible != ZERO:
                    cheapest_top_win, _ = lowest_valued(eligible & top_cards(hand, seen), tmask, trump)
    bits = legal >> U64(52)
    while bits != ZERO:
        c = np.int64(lowest_bit(bits)) + 52
        bits &= bits - ONE
        # special cards (Wizard, Jester, Dragon, ...): the general code
        win_form, lose_form = forms_of(c, led, trump)
        v_lose = static_value(lose_form, trump)
        if v_lose < 0 and (jester < 0 or c == JESTER):
            jester = lose_form
        if v_lose < lowest_v:
            lowest_v = v_lose
            lowest = lose_form
        if (refine & REFINE_KEEP_JESTER) != 0 and 0 <= v_lose < 50 and v_lose < lowest_plain_v:
            lowest_plain_v = v_lose  # a Juggler or Cloud in a side suit
            lowest_plain = lose_form
        v = static_value(win_form, trump)
        p, _ = form_power(win_form, led, trump)
        if c == DRAGON and (tflags & FLAG_FAIRY) != 0:
            p = -3  # the Fairy already in the trick beats it
        if c == FAIRY and (tflags & FLAG_DRAGON) != 0:
            p = 5000
        if not voided and (n_played == 0 or p > best):
            if c == WIZARD or c == DRAGON or c == SHAPESHIFTER:
                if wizard < 0 or v < static_value(wizard, trump):
                    wizard = win_form
            if v < cheapest_win_v:
                cheapest_win_v = v
                cheapest_win = win_form
            if v > highest_win_v:
                highest_win_v = v
                highest_win = win_form
        pl, _ = form_power(lose_form, led, trump)
        if voided or n_played > 0 and (pl <= best or (c == DRAGON and (tflags & FLAG_FAIRY) != 0)):
            if c == FAIRY and (tflags & FLAG_DRAGON) != 0 and not voided:
                continue  # would win (in a trick the Bomb voids nobody wins: then it is a card to lose with)
            if v_lose > highest_lose_v:
                highest_lose_v = v_lose
                highest_lose = lose_form
    if need > 0:
        if n_played == 0:
            if cheapest_top_win >= 0:
                return cheapest_top_win
            if wizard >= 0:
                return wizard
            return lowest_side if lowest_side >= 0 else lowest
        if cheapest_win < 0:
            return lowest_plain if lowest_plain >= 0 else lowest
        if last:
            return cheapest_win
        if cheapest_top_win >= 0:
            return cheapest_top_win
        if wizard >= 0:
            return wizard
        return highest_win
    # enough tricks: lose this one if at all possible
    if n_played == 0:
        if lowest_trump >= 0 and not mono:
            return lowest_trump
        # lead the lowest side card, unless nothing unseen beats it: then a jester-like card
        if lowest_side >= 0 and not (jester >= 0 and is_top(lowest_side, hand, seen)):
            return lowest_side
        return jester if jester >= 0 else lowest
    if highest_lose >= 0:
        return highest_lose
    # every card wins for now: dump the most dangerous if sure to take it, else the weakest
    if last:
        return highest_win
    return lowest


@hot
def heuristic_pass(hand, need, trump):
    """The card to pass after a Juggler trick: the one that hurts the bid most to keep."""
    best = -1
    best_v = 0
    bits = hand
    while bits != ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - ONE
        win_form, _ = forms_of(c, -1, trump)
        v = static_value(win_form, trump)
        if c == SHAPESHIFTER or c == BOMB:
            v = 40  # flexible or protective: worth keeping either way
        score = -v if need > 0 else v  # wanting tricks: pass the weakest; else the strongest
        if best < 0 or score > best_v:
            best = c
            best_v = score
    return best


# --------------------------------------------------------------------------- the player's entry points
#: what a heuristic seat needs from the round beyond the deal (:meth:`wizsim.players.base.Strategy.needs`)
NEEDS = frozenset({"heuristic"})


@hot
def bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """The heuristic's bid and its estimate (before the Canadian step of :func:`.seats.seat_bid`)."""
    tables = setup.tables
    return heuristic_bid(setup.feats.heuristic, turn, clairvoyant, seats.hands, seats.cnt, tables.deck, tables.table,
                         tables.rules, players.params, seats.work)  # fmt: skip


@hot
def card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The heuristic's card (a form; a flexible card's form is settled by the round)."""
    return play_heuristic(turn, trick, legal, setup, seats, np.int64(0))


@hot
def play_heuristic(turn, trick, legal, setup, seats, refine):
    """The heuristic's card with the table player's refinements ``refine`` (0: none); every player's card when it
    has one legal suit card, Wizard or Jester (tests/test_forced_play.py)."""
    if (legal & (legal - ONE)) == ZERO and legal < (ONE << U64(DRAGON)):
        return np.int64(lowest_bit(legal))  # no choice: no call
    p = turn.p
    need = turn.k if turn.cancelled else seats.bids[p] - seats.won[p]  # bids cancelled by the Bomb: 10 points a trick
    return heuristic_card(setup.feats.heuristic, seats.hands[p], legal, need, refine, trick.led, trick.best, turn.j,
                          turn.n, turn.trump, turn.seen, trick.flags, setup.tables.rules[R_MONO] != 0)  # fmt: skip


def heuristic_card(on, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):  # pragma: no cover
    """:func:`heuristic_play`; a stub when no seat needs the heuristic (the switch ``on``, :mod:`.switches`)."""
    raise NotImplementedError


@overload(heuristic_card, jit_options=OVERLOAD_OPTIONS)
def _heuristic_card(on, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):
    if switch_off(on):
        return lambda on, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono: np.int64(-1)

    def impl(on, hand, legal, need, refine, led, best, j, n, trump, seen, tflags, mono):
        return heuristic_play(hand, legal, need, led, best, j, n, trump, seen, tflags, mono, refine)

    return impl


def heuristic_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, params, work):  # pragma: no cover
    """:func:`base_bid`; a stub when no seat needs the heuristic."""
    raise NotImplementedError


@overload(heuristic_bid, jit_options=OVERLOAD_OPTIONS)
def _heuristic_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, params, work):
    if switch_off(on):
        return lambda on, turn, clairvoyant, hands, cnt, deck, table, rules, params, work: (np.int64(-1), 0.0)

    return base_bid  # the implementation itself: no wrapper call per bid


def base_bid(on, turn, clairvoyant, hands, cnt, deck, table, rules, params, work):
    """:func:`heuristic_base`, compiled as the implementation of :func:`heuristic_bid`: a function of its own,
    called once per bid of a heuristic seat (the table player's bid is one call too: :func:`.table.start_bid`)."""
    return heuristic_base(turn, clairvoyant, hands, cnt, deck, table, rules, params, work)


@hot
def heuristic_base(turn, clairvoyant, hands, cnt, deck, table, rules, params, work):
    """The heuristic's bid of seat ``turn.p`` (a :class:`..bundles.BidTurn`) and its estimate.

    The rounded estimate in 0..k (:func:`estimate`), or under clairvoyance
    the best bid for the hands as dealt (:func:`clairvoyant_bid`).
    """
    p, n, k, trump = turn.p, turn.n, turn.k, turn.trump
    if clairvoyant:
        b = clairvoyant_bid(p, n, k, turn.dealer, trump, turn.shown, hands, cnt, deck, table, rules[R_SCORING], work)
        est = np.float64(b)
    else:
        est = estimate(hands[p], cnt[p], trump, n, k, params[p], rules[R_MONO] != 0)
        b = np.int64(np.floor(est + 0.5))
    return min(max(b, 0), k), est
