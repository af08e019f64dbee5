"""Numba kernels: deal, bid, play and score rounds on flat integer arrays.

Private to wizsim: the public API (``wizsim.simulate``) validates input, fixes
dtypes, seeds chunks and turns the integer counts returned here into tables.

Representation
--------------
* A card is its type code (``cards.py``); a hand is a ``uint64`` mask of the
  types it holds plus ``cnt[seat, type]`` copies (only W and J exceed 1).
* Card properties come from ``table[type, col]`` (suit, rank, class), suit
  masks from ``masks``; rules from the int64 ``rules`` array; strategies from
  ``strat[seat]`` ids and ``params[seat, :]`` rows.
* Random numbers: a SplitMix64 stream per chunk (state in a 1-element uint64
  array; one stream deals, another makes the players' random choices), bounded draws by Lemire's multiply-shift with rejection (exactly
  uniform). Each chunk's state comes from ``SeedSequence(seed, spawn_key=(i,))``
  on the Python side, so results do not depend on how chunks are spread over
  workers.

Trick state
-----------
``led`` is -1 while only Jesters were played (nothing led yet), 0..3 for a
led suit, and ``FREE`` after a leading Wizard (anything may be played). The
winner is tracked incrementally with a *power*: the first Wizard 1000, a trump
200 + rank, the led suit 100 + rank, another suit card 1, a Jester 0; a card
takes the trick only with strictly greater power, so the first of equals (the
first Wizard, the first Jester) keeps it.
"""

from __future__ import annotations

import os
import platform

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ._numba_config import NJIT_OPTIONS

U64 = np.uint64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(0x100000000)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# card table columns (simulate.kernel_tables)
T_SUIT = 0
T_RANK = 1
T_CLASS = 2
T_PSUIT = 3
T_BASE_POWER = 4
T_LEADS = 5
M_ALWAYS = 6  # masks[M_ALWAYS]: always playable; masks[led + 1]: cards following ``led``
CLASS_SUIT = 0
CLASS_WIZARD = 1
CLASS_JESTER = 2

WIZARD = 52
JESTER = 53
FREE = 4  # a Wizard was led: no suit to follow
NO_TRUMP = -1

# rule slots (rules.py)
R_CANADIAN = 0
R_SCORING = 1
R_WIZARD_INDICATOR = 2

# strategy ids (strategies.py)
S_RANDOM = 0
S_HEURISTIC = 1

# heuristic parameter slots (strategies.py)
H_WIZARD = 0
H_TRUMP_TOP = 1
H_TRUMP_SLOPE = 2
H_TRUMP_FLOOR = 3
H_SIDE_ACE = 4
H_SIDE_DROP = 5
H_PLAYER_DECAY = 6
H_LENGTH_DECAY = 7
H_RUFF = 8
H_BID_SHIFT = 9
H_NT_ACE = 10
H_SIDE_SECOND = 11

jit = njit(**NJIT_OPTIONS)
# Hot helpers are inlined by Numba itself: a call that passes arrays costs atomic
# reference-count updates per array argument, which dominated the round loop.
hot = njit(inline="always", **NJIT_OPTIONS)


# --------------------------------------------------------------------------- bits
@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM ctpop)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM cttz)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return sig, codegen


@intrinsic
def highest_bit(typingctx, x):
    """Index of the highest set bit of a non-zero uint64 (63 - LLVM ctlz)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


@intrinsic
def pdep(typingctx, src, mask):
    """Parallel bit deposit (x86 BMI2): scatter the low bits of ``src`` to the set bits of ``mask``."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


def _fast_pdep() -> bool:
    """True on x86-64 CPUs with BMI2 whose PDEP is not microcoded (AMD before Zen 3 is slow)."""
    if platform.machine().lower() not in ("x86_64", "amd64") or os.environ.get("WIZSIM_NO_PDEP"):
        return False
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read(20000)
    except OSError:
        return False
    flags = next((line for line in info.splitlines() if line.startswith("flags")), "")
    if " bmi2" not in flags:
        return False
    family = next((line.split(":")[1] for line in info.splitlines() if line.startswith("cpu family")), "0")
    return not ("AuthenticAMD" in info and int(family) < 25)


USE_PDEP = _fast_pdep()

if USE_PDEP:

    @hot
    def nth_bit(m, i):
        """Index of the i-th (0-based, from the low end) set bit of ``m`` (PDEP, branch-free)."""
        return np.int64(lowest_bit(pdep(_ONE << U64(i), m)))

else:

    @hot
    def nth_bit(m, i):
        """Index of the i-th (0-based, from the low end) set bit of ``m``."""
        for _ in range(i):
            m &= m - _ONE
        return np.int64(lowest_bit(m))


# --------------------------------------------------------------------------- rng
@hot
def next_u64(st):
    """SplitMix64: advance the state in ``st[0]`` and return 64 random bits."""
    s = st[0] + _GOLDEN
    st[0] = s
    z = (s ^ (s >> U64(30))) * _MIX1
    z = (z ^ (z >> U64(27))) * _MIX2
    return z ^ (z >> U64(31))


@hot
def below(st, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32 (Lemire, with rejection)."""
    nn = U64(n)
    m = (next_u64(st) >> U64(32)) * nn
    lo = m & _MASK32
    if lo < nn:
        threshold = (_TWO32 - nn) % nn
        while lo < threshold:
            m = (next_u64(st) >> U64(32)) * nn
            lo = m & _MASK32
    return np.int64(m >> U64(32))


@hot
def random_member(st, m):
    """A uniformly random set bit of the non-zero mask ``m``."""
    return nth_bit(m, below(st, popcount(m)))


# --------------------------------------------------------------------------- rules
@hot
def card_power(card, led, trump, table):
    """Trick-taking power of ``card`` given the led state and trump (see module doc).

    Branch-free: base power (rank, Wizard 1000, Jester 0) + 200 for trump +
    100 for the led suit; colourless cards have comparison suit 5, which
    matches neither.
    """
    ps = table[card, T_PSUIT]
    return table[card, T_BASE_POWER] + 200 * np.int64(ps == trump) + 100 * np.int64(ps == led)


@hot
def led_after(led, card, table):
    """The led state after ``card`` is played onto a trick whose led state is ``led``."""
    return table[card, T_LEADS] if led == -1 else led


@hot
def legal_mask(hand, led, masks):
    """Cards of ``hand`` that may be played: follow the led suit if possible."""
    follow = hand & masks[led + 1]
    return (follow | (hand & masks[M_ALWAYS])) if follow != _ZERO else hand


@jit
def round_score(bid, tricks, k, scoring):
    """Points for one round (RULES.md section 8)."""
    if scoring == 0:
        if bid == tricks:
            return 20 + 10 * tricks
        return -10 * abs(tricks - bid)
    if bid == tricks:
        return 10 * bid + 10 * k
    d = abs(tricks - bid)
    return 10 * min(bid, tricks) - 5 * d * (d + 1)


@jit
def trick_winner(cards, trump, table):
    """Index (in play order) of the card that wins the trick ``cards``."""
    led = -1
    best = -1
    win = 0
    for i in range(cards.shape[0]):
        led = led_after(led, cards[i], table)
        p = card_power(cards[i], led, trump, table)
        if p > best:
            best = p
            win = i
    return win


# --------------------------------------------------------------------------- heuristic
@hot
def _heuristic_estimate(hand, n_wiz, trump, n, k, prm):
    """Expected tricks of a hand, by rule of thumb (parameters in ``prm``)."""
    est = n_wiz * prm[H_WIZARD]
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
            while bits != _ZERO:
                r = np.int64(lowest_bit(bits)) + 1
                bits &= bits - _ONE
                v = prm[H_TRUMP_TOP] - prm[H_TRUMP_SLOPE] * (13 - r) * (1.0 + 0.15 * (n - 4))
                if v < prm[H_TRUMP_FLOOR]:
                    v = prm[H_TRUMP_FLOOR]
                est += v
        else:
            if cnt <= 1:
                short_suits += 1
            # the best side card counts fully, lower ones lose value the longer the suit
            v = side_scale
            while bits != _ZERO:
                r = np.int64(highest_bit(bits)) + 1
                bits &= ~(_ONE << U64(r - 1))
                value = v * prm[H_SIDE_DROP] ** (13 - r)
                est += value
                v *= prm[H_SIDE_SECOND]
    if trump >= 0 and n_trump >= 1:
        # spare trumps can ruff short side suits
        spare = n_trump
        if spare > short_suits:
            spare = short_suits
        est += prm[H_RUFF] * spare
    return est + prm[H_BID_SHIFT]


@hot
def _heuristic_trump(hand, n_wiz, table):
    """The suit the hand is strongest in (count plus rank strength)."""
    best_suit = 0
    best = -1.0
    for s in range(4):
        bits = (hand >> U64(13 * s)) & U64(0x1FFF)
        score = 0.0
        while bits != _ZERO:
            r = np.int64(lowest_bit(bits)) + 1
            bits &= bits - _ONE
            score += 1.0 + r / 13.0
        if score > best:
            best = score
            best_suit = s
    return best_suit


# The heuristic's card play is a normal (not inlined) call that takes scalars
# only: array arguments would cost reference-count updates on every card, and
# inlining it would crowd the random player's loop. It reads base cards by
# arithmetic (code = 13 * suit + rank - 1; 52 Wizard, 53 Jester).


@hot
def _base_suit(card):
    return card // 13 if card < 52 else -1


@hot
def _static_value(card, trump):
    """How valuable a card is to keep for winning (W > trumps > high side cards > J)."""
    if card == WIZARD:
        return 100
    if card == JESTER:
        return -1
    rank = card % 13 + 1
    if card // 13 == trump:
        return 50 + rank
    return rank


@hot
def _is_top(card, hand, seen):
    """True if no unseen card of its suit beats ``card`` (unseen Wizards and ruffs are a risk taken)."""
    if card == WIZARD:
        return True
    if card > WIZARD:
        return False
    suit = card // 13
    above = (U64(0x1FFF) << U64(13 * suit)) & ~((_ONE << U64(card + 1)) - _ONE)
    return (above & ~(hand | seen)) == _ZERO


@hot
def _base_power(card, led, trump):
    """:func:`card_power` for base cards, by arithmetic."""
    if card == WIZARD:
        return 1000
    if card == JESTER:
        return 0
    suit = card // 13
    return card % 13 + 1 + 200 * np.int64(suit == trump) + 100 * np.int64(suit == led)


@jit
def _heuristic_play(hand, legal, need, led, best, n_played, n, trump, seen):
    """Choose a card to play: win cheaply while tricks are needed, duck otherwise."""
    last = n_played == n - 1
    # classify the legal cards
    cheapest_win = -1
    cheapest_win_v = 1 << 30
    cheapest_top_win = -1
    cheapest_top_v = 1 << 30
    highest_win = -1
    highest_win_v = -(1 << 30)
    wizard = -1
    highest_lose = -1
    highest_lose_v = -(1 << 30)
    lowest = -1
    lowest_v = 1 << 30
    lowest_side = -1
    lowest_side_v = 1 << 30
    bits = legal
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - _ONE
        v = _static_value(c, trump)
        if v < lowest_v:
            lowest_v = v
            lowest = c
        suit = _base_suit(c)
        if suit >= 0 and suit != trump and c % 13 + 1 < lowest_side_v:
            lowest_side_v = c % 13 + 1
            lowest_side = c
        led_now = led
        if led == -1:
            led_now = suit if suit >= 0 else (FREE if c == WIZARD else -1)
        p = _base_power(c, led_now, trump)
        if n_played == 0 or p > best:
            if c == WIZARD:
                wizard = c
            if v < cheapest_win_v:
                cheapest_win_v = v
                cheapest_win = c
            if v > highest_win_v:
                highest_win_v = v
                highest_win = c
            if c != WIZARD and v < cheapest_top_v and _is_top(c, hand, seen):
                if n_played == 0 or suit == trump or trump < 0:
                    cheapest_top_v = v
                    cheapest_top_win = c
        elif v > highest_lose_v:
            highest_lose_v = v
            highest_lose = c
    if need > 0:
        if n_played == 0:
            if cheapest_top_win >= 0:
                return cheapest_top_win
            if wizard >= 0:
                return wizard
            return lowest_side if lowest_side >= 0 else lowest
        if cheapest_win < 0:
            return lowest
        if last:
            return cheapest_win
        if cheapest_top_win >= 0:
            return cheapest_top_win
        if wizard >= 0:
            return wizard
        return highest_win
    # enough tricks: lose this one if at all possible
    if n_played == 0:
        return lowest_side if lowest_side >= 0 else lowest
    if highest_lose >= 0:
        return highest_lose
    # every card wins for now: dump the most dangerous if sure to take it, else the weakest
    if last:
        return highest_win
    return lowest


# --------------------------------------------------------------------------- one round
@hot
def play_round(
    n,
    k,
    dealer,
    deck,
    table,
    masks,
    rules,
    strat,
    params,
    deal_st,
    dec_st,
    hands,
    cnt,
    bids,
    won,
    scores,
    record,
    rec_row,
    rec_hands,
    rec_info,
    rec_plays,
    rec_legal,
):
    """Deal, bid, play and score one round; results land in ``bids``, ``won``, ``scores``.

    Dealing draws from ``deal_st`` and every decision from ``dec_st``, so the
    same seed deals the same cards whatever the players do (common random
    numbers for comparing strategies and rules).
    When ``record`` is true the deal, trump, leaders, cards and legal masks are
    written to row ``rec_row`` of the ``rec_*`` arrays (for histories and tests).
    """
    d = deck.shape[0]
    m = n * k
    # partial Fisher-Yates over m + 1 places: m cards go round the table, the next is turned up
    for i in range(m + 1 if m < d else m):
        j = i + below(deal_st, d - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    for p in range(n):
        hands[p] = _ZERO
        won[p] = 0
    p = dealer
    for i in range(m):
        c = np.int64(deck[i])
        p += 1
        if p == n:
            p = 0
        hands[p] |= _ONE << U64(c)
        cnt[p, c] += 1
    if record:
        for p in range(n):
            for j in range(k):
                rec_hands[rec_row, p, j] = deck[j * n + (p - dealer - 1) % n]
    indicator = -1
    if m < d:
        indicator = np.int64(deck[m])
    # trump
    trump = NO_TRUMP
    if indicator >= 0:
        cls = table[indicator, T_CLASS]
        if cls == CLASS_SUIT:
            trump = table[indicator, T_SUIT]
        elif cls == CLASS_WIZARD and rules[R_WIZARD_INDICATOR] == 0:
            if strat[dealer] == S_HEURISTIC:
                trump = _heuristic_trump(hands[dealer], cnt[dealer, WIZARD], table)
            else:
                trump = below(dec_st, 4)
    # bidding, from the dealer's left
    bid_sum = 0
    p = dealer
    for i in range(n):
        p += 1
        if p == n:
            p = 0
        forbidden = -1
        if rules[R_CANADIAN] != 0 and i == n - 1:
            forbidden = k - bid_sum
        if strat[p] == S_HEURISTIC:
            est = _heuristic_estimate(hands[p], cnt[p, WIZARD], trump, n, k, params[p])
            b = np.int64(np.floor(est + 0.5))
            if b < 0:
                b = 0
            if b > k:
                b = k
            if b == forbidden:
                if (est >= b and b < k) or b == 0:
                    b += 1
                else:
                    b -= 1
        else:
            if 0 <= forbidden <= k:
                b = below(dec_st, k)
                if b >= forbidden:
                    b += 1
            else:
                b = below(dec_st, k + 1)
        bids[p] = b
        bid_sum += b
    # play
    leader = dealer + 1
    if leader == n:
        leader = 0
    seen = _ZERO
    for t in range(k):
        led = -1
        best = -1
        winner = leader
        p = leader - 1
        for j in range(n):
            p += 1
            if p == n:
                p = 0
            legal = legal_mask(hands[p], led, masks)
            if strat[p] == S_HEURISTIC:
                c = _heuristic_play(hands[p], legal, bids[p] - won[p], led, best, j, n, trump, seen)
            else:
                c = random_member(dec_st, legal)
            if record:
                rec_plays[rec_row, t, j] = c
                rec_legal[rec_row, t, j] = legal
            seen |= _ONE << U64(c)
            left = cnt[p, c] - 1
            cnt[p, c] = left
            hands[p] &= ~(U64(left == 0) << U64(c))
            led = led_after(led, c, table)
            pw = card_power(c, led, trump, table)
            better = pw > best
            best = pw if better else best
            winner = p if better else winner
        if record:
            rec_info[rec_row, 8 + t] = leader
            rec_info[rec_row, 8 + rec_plays.shape[1] + t] = winner
        won[winner] += 1
        leader = winner
    for p in range(n):
        scores[p] = round_score(bids[p], won[p], k, rules[R_SCORING])
    if record:
        rec_info[rec_row, 0] = dealer
        rec_info[rec_row, 1] = k
        rec_info[rec_row, 2] = indicator
        rec_info[rec_row, 3] = trump


# --------------------------------------------------------------------------- chunks
@jit
def simulate_chunks(
    n,
    schedule,
    games_mode,
    chunk_first,
    chunk_count,
    chunk_state,
    deck0,
    table,
    masks,
    rules,
    strat,
    params,
    joint,
    score_sum,
    score_sq,
    game_acc,
):
    """Play whole chunks and add their integer counts to the accumulators.

    Chunk ``c`` covers items ``chunk_first[c] .. chunk_first[c] + chunk_count[c] - 1``
    (rounds in hands mode, games in games mode) and draws from the stream seeded
    by ``chunk_state[c]`` (a dealing and a decision stream). In hands mode item ``h`` is dealt by seat ``h % n``;
    in games mode every game starts with seat 0 dealing.

    Accumulators: ``joint[k, seat, position, bid, tricks]``, ``score_sum`` and
    ``score_sq[k, seat, position]``; in games mode ``game_acc[row, seat]`` with
    rows: sum of totals, sum of squared totals, win shares in 60ths (a win
    shared by m tied players counts 60 / m) and their squares.
    """
    deal_st = np.zeros(1, dtype=np.uint64)
    dec_st = np.zeros(1, dtype=np.uint64)
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    bids = np.zeros(n, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    totals = np.zeros(n, dtype=np.int64)
    dummy_h = np.zeros((1, 1, 1), dtype=np.uint8)
    dummy_i = np.zeros((1, 1), dtype=np.int64)
    dummy_p = np.zeros((1, 1, 1), dtype=np.int64)
    dummy_l = np.zeros((1, 1, 1), dtype=np.uint64)
    for c in range(chunk_first.shape[0]):
        deal_st[0] = chunk_state[c, 0]
        dec_st[0] = chunk_state[c, 1]
        deck = deck0.copy()
        for item in range(chunk_first[c], chunk_first[c] + chunk_count[c]):
            dealer = item % n if games_mode == 0 else 0
            for p in range(n):
                totals[p] = 0
            for r in range(schedule.shape[0]):
                k = schedule[r]
                play_round(
                    n, k, dealer, deck, table, masks, rules, strat, params, deal_st, dec_st, hands, cnt, bids, won, scores,
                    False, 0, dummy_h, dummy_i, dummy_p, dummy_l,
                )  # fmt: skip
                pos = n - 1 - dealer  # position of seat 0: 0 = left of the dealer
                for p in range(n):
                    if pos == n:
                        pos = 0
                    joint[k, p, pos, bids[p], won[p]] += 1
                    score_sum[k, p, pos] += scores[p]
                    score_sq[k, p, pos] += scores[p] * scores[p]
                    totals[p] += scores[p]
                    pos += 1
                dealer += 1
                if dealer == n:
                    dealer = 0
            if games_mode != 0:
                top = totals[0]
                for p in range(1, n):
                    if totals[p] > top:
                        top = totals[p]
                n_top = 0
                for p in range(n):
                    if totals[p] == top:
                        n_top += 1
                for p in range(n):
                    game_acc[0, p] += totals[p]
                    game_acc[1, p] += totals[p] * totals[p]
                    if totals[p] == top:
                        game_acc[2, p] += 60 // n_top
                        game_acc[3, p] += (60 // n_top) * (60 // n_top)


@jit
def record_chunk(
    n,
    schedule,
    games_mode,
    first,
    count,
    state,
    deck0,
    table,
    masks,
    rules,
    strat,
    params,
    rec_hands,
    rec_info,
    rec_plays,
    rec_legal,
):
    """Play one chunk like :func:`simulate_chunks` and record every round.

    ``rec_info[row]`` holds dealer, k, indicator, trump, then at 8.. the leader
    of each trick, at 8 + kmax.. the winner of each trick, then at
    8 + 2 kmax.. bids, tricks won and scores of each seat.
    """
    deal_st = state[0:1].copy()
    dec_st = state[1:2].copy()
    hands = np.zeros(n, dtype=np.uint64)
    cnt = np.zeros((n, 64), dtype=np.int64)
    bids = np.zeros(n, dtype=np.int64)
    won = np.zeros(n, dtype=np.int64)
    scores = np.zeros(n, dtype=np.int64)
    deck = deck0.copy()
    kmax = rec_plays.shape[1]
    row = 0
    for item in range(first, first + count):
        dealer = item % n if games_mode == 0 else 0
        for r in range(schedule.shape[0]):
            k = schedule[r]
            play_round(
                n, k, dealer, deck, table, masks, rules, strat, params, deal_st, dec_st, hands, cnt, bids, won, scores,
                True, row, rec_hands, rec_info, rec_plays, rec_legal,
            )  # fmt: skip
            for p in range(n):
                rec_info[row, 8 + 2 * kmax + p] = bids[p]
                rec_info[row, 8 + 2 * kmax + n + p] = won[p]
                rec_info[row, 8 + 2 * kmax + 2 * n + p] = scores[p]
            row += 1
            dealer = (dealer + 1) % n


@jit
def trick_winner_checked(cards, trump, table):
    """Python-callable wrapper of :func:`trick_winner` for tests."""
    return trick_winner(cards, trump, table)
