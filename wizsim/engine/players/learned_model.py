"""The learned player's card play: a small network, fitted to pimc's values, scores every legal form.

A decision is described by a *state row* (:func:`fill_state`, int64 columns
``ST_*``): what the seat knows at that moment, taken from the round and from
the same view of the round pimc keeps (cards played, suits shown out of, the
deck in play). The same row is written when pimc's decisions are logged for
training (``scripts/train_learned.py``) and when the learned player decides,
so training and play cannot read the state differently.

Features are one-hot indices (:func:`state_features` once per decision,
:func:`form_features` per candidate form). The network is an embedding bag
with one hidden layer: h = relu(b1 + sum of the rows of W1 the features
pick), score = w2 . h. It is fitted to pimc's mean round score of each
candidate minus the mean over the decision's candidates (only differences
choose a card), and the best-scoring candidate is played (the first on ties).
"""

from __future__ import annotations

import numpy as np

from ..jit.bits import ONE, U64, ZERO, highest_bit, lowest_bit, popcount
from ..jit.config import hot, jit
from ..jit.simd import add_rows, relu_dot
from ..layout import (  # the state row, feature and scratch layouts (one copy, in the layout)
    BOMB,
    BS_BASE,
    BS_EARLIER,
    BS_EST,
    BS_FORBIDDEN,
    BS_HAND,
    BS_HIDDEN,
    BS_JES,
    BS_K,
    BS_MONO,
    BS_N,
    BS_POS,
    BS_SCORING,
    BS_SPECIALS,
    BS_TRUMP,
    BS_WIDTH,
    BS_WIZ,
    CLOUD_AS,
    DRAGON,
    FAIRY,
    FLAG_BOMB,
    FLAG_DRAGON,
    FLAG_FAIRY,
    JESTER,
    JUGGLER_AS,
    LB_ACES,
    LB_BID,
    LB_EST,
    LB_K,
    LB_LAST,
    LB_OFFSET,
    LB_POS,
    LB_RULES,
    LB_SHORT,
    LB_SPECIAL_DECK,
    LB_SPECIAL_HELD,
    LB_TOP,
    LB_TOTAL,
    LB_TRUMP,
    LB_WIZ,
    LC_COARSE,
    LC_CROSS,
    LC_EXTREME,
    LC_FORM,
    LC_HIGHER,
    LC_LENGTH,
    LC_SUIT_LEFT,
    LC_VOID_AFTER,
    LC_WIN,
    LF_AFTER,
    LF_BEST,
    LF_BID_SUM,
    LF_BOMB_RULE,
    LF_CANCELLED,
    LF_K,
    LF_MY_TRUMP,
    LF_MY_WIZ,
    LF_NEED_LEFT,
    LF_POS,
    LF_RULES,
    LF_SPECIAL,
    LF_STRONG_NEED,
    LF_SURE_NEED,
    LF_SURPLUS,
    LF_TFLAGS,
    LF_TRUMP,
    LF_UNSEEN_TRUMP,
    LF_UNSEEN_WIZ,
    LF_WINNER,
    LOG_B_BIDS,
    LOG_B_DEALS,
    LOG_B_NB,
    LOG_B_TOTALS,
    LOG_DEALS,
    LOG_FORMS,
    LOG_NC,
    LOG_TOTALS,
    MAX_BID_FEATURES,
    MAX_BIDS,
    MAX_CANDIDATES,
    MAX_FORM_FEATURES,
    MAX_STATE_FEATURES,
    N_SPECIALS,
    R_BOMB,
    R_HIDDEN_BIDS,
    R_MONO,
    R_SCORING,
    SHAPESHIFTER_AS_JESTER,
    SHAPESHIFTER_AS_WIZARD,
    ST_BEST,
    ST_BIDS,
    ST_BOMB_RULE,
    ST_CANCELLED,
    ST_HAND,
    ST_HIDDEN,
    ST_J,
    ST_K,
    ST_LED,
    ST_LEGAL,
    ST_MONO,
    ST_MY_WIZ,
    ST_N,
    ST_NEED,
    ST_SCORING,
    ST_SEEN,
    ST_SPECIALS,
    ST_STRONG,
    ST_SURE,
    ST_T,
    ST_TFLAGS,
    ST_TRUMP,
    ST_UNSEEN,
    ST_UNSEEN_WIZ,
    ST_VOID,
    ST_WIDTH,
    ST_WINNER,
    ST_WON,
    W_ACC,
    W_BASE,
    W_CANDS,
    W_IDX,
    W_ROW,
    W_SCORES,
    WEREWOLF,
    WIZARD,
)
from .heuristic import form_power, forms_of


@hot
def clip(v, lo, hi):
    """``v`` limited to ``lo .. hi``."""
    return lo if v < lo else (hi if v > hi else v)


@hot
def bucket(v, edges):
    """The index of the first edge above ``v`` (edges ascending; len(edges) if none)."""
    i = 0
    while i < len(edges) and v >= edges[i]:
        i += 1
    return i


@hot
def fill_state(row, turn, trick, hands, cnt, bids, won, rules, played, void, full):
    """Write what seat ``turn.p`` knows at this decision (a :class:`..bundles.Turn` in a :class:`..bundles.Trick`)
    into ``row`` (``ST_*`` columns)."""
    p, t, j, n, k, trump = turn.p, turn.t, turn.j, turn.n, turn.k, turn.trump
    seen, cancelled, shown = turn.seen, turn.cancelled, turn.shown
    led, best, winner, tflags = trick.led, trick.best, trick.winner, trick.flags
    hand = hands[p]
    row[ST_N] = n
    row[ST_K] = k
    row[ST_T] = t
    row[ST_J] = j
    row[ST_LED] = led
    row[ST_BEST] = best
    rel = winner - p  # (winner - p) mod n without a division
    row[ST_WINNER] = (rel + n if rel < 0 else rel) if j > 0 else 0
    row[ST_TFLAGS] = tflags
    row[ST_TRUMP] = trump
    row[ST_MONO] = np.int64(rules[R_MONO] != 0)
    row[ST_NEED] = (k - won[p]) if cancelled else bids[p] - won[p]
    row[ST_HAND] = np.int64(hand)
    row[ST_SEEN] = np.int64(seen)
    row[ST_MY_WIZ] = cnt[p, WIZARD]
    row[ST_UNSEEN_WIZ] = full[WIZARD] - cnt[p, WIZARD] - played[WIZARD] - np.int64(shown == WIZARD)
    specials = 0
    for i in range(N_SPECIALS):
        if full[DRAGON + i] > 0:
            specials |= 1 << i
    row[ST_SPECIALS] = specials
    row[ST_BOMB_RULE] = rules[R_BOMB]
    row[ST_SCORING] = rules[R_SCORING]
    row[ST_HIDDEN] = rules[R_HIDDEN_BIDS]
    row[ST_CANCELLED] = np.int64(cancelled)
    secret = rules[R_HIDDEN_BIDS] == 2  # secret bids: the others' bids are not known while playing
    for i in range(6):
        row[ST_BIDS + i] = -1
        row[ST_WON + i] = 0
        row[ST_VOID + i] = 0
    q = p
    for i in range(n):
        row[ST_BIDS + i] = -1 if (secret and i > 0) else bids[q]
        row[ST_WON + i] = won[q]
        row[ST_VOID + i] = void[q]
        q = q + 1 if q + 1 < n else 0
    known = hand | seen
    for s in range(4):
        suit = (~known >> U64(13 * s)) & U64(0x1FFF)
        row[ST_UNSEEN + s] = np.int64(popcount(suit))
    if shown >= 0 and shown < 52:  # the face-up card is seen but not in ``seen``
        row[ST_UNSEEN + shown // 13] -= 1
    sure = cnt[p, WIZARD] + np.int64((hand >> U64(DRAGON)) & ONE)
    strong = sure
    unseen = ~known
    if shown >= 0 and shown < 52:
        unseen &= ~(ONE << U64(shown))
    for s in range(4):
        # own cards above the highest unseen card of the suit have none above them (sure, for trumps or
        # without trump); those above the second highest have at most one (strong)
        own = (hand >> U64(13 * s)) & U64(0x1FFF)
        out = (unseen >> U64(13 * s)) & U64(0x1FFF)
        if out == ZERO:
            top = own
            second = own
        else:
            top = own >> (highest_bit(out) + ONE)
            rest = out & ~(ONE << highest_bit(out))
            second = own if rest == ZERO else own >> (highest_bit(rest) + ONE)
        if s == trump or trump < 0:
            sure += np.int64(popcount(top))
        strong += np.int64(popcount(second))
    row[ST_SURE] = sure
    row[ST_STRONG] = strong


@hot
def state_features(row, idx):
    """The state's one-hot feature indices into ``idx``; returns how many."""
    n = row[ST_N]
    k = row[ST_K]
    left = k - row[ST_T]
    need = row[ST_NEED]
    j = row[ST_J]
    m = 0
    idx[m] = LF_NEED_LEFT + (clip(need, -3, 5) + 3) * 10 + clip(left, 1, 10) - 1
    m += 1
    idx[m] = LF_POS + clip(j, 0, 5) * 4 + clip(n, 3, 6) - 3
    m += 1
    idx[m] = LF_TRUMP + (2 if row[ST_MONO] != 0 else (0 if row[ST_TRUMP] < 0 else 1))
    m += 1
    open_need = 0
    bid_sum = 0
    unknown = row[ST_CANCELLED] != 0
    for i in range(6):  # a fixed count (the seats past n are masked): unrolled, no tiny vector loop
        b = row[ST_BIDS + i]
        seat = i < n
        unknown |= seat & (b < 0)
        b_in = b if seat and b > 0 else 0
        bid_sum += b_in
        open_need += max(b_in - row[ST_WON + i], 0) if seat else 0
    known_bids = not unknown
    if known_bids:
        idx[m] = LF_SURPLUS + clip(left - open_need, -5, 5) + 5
        m += 1
    if j == 0:
        w = 0
    else:
        wb = row[ST_BIDS + row[ST_WINNER]]
        wneed = wb - row[ST_WON + row[ST_WINNER]]
        w = 4 if wb < 0 else (1 if wneed > 0 else (2 if wneed == 0 else 3))
    idx[m] = LF_WINNER + w
    m += 1
    after = n - 1 - j
    after_need = 0
    for i in range(1, 6):  # fixed count, masked (as above)
        b = row[ST_BIDS + i]
        after_need += np.int64((i <= after) & ((b < 0) | (b - row[ST_WON + i] > 0)))
    idx[m] = LF_AFTER + clip(after, 0, 5) * 6 + clip(after_need, 0, 5)
    m += 1
    best = row[ST_BEST]
    if best < 0:
        bc = 0
    elif best < 100:
        bc = 1
    elif best < 200:
        bc = 2
    elif best < 1000:
        bc = 3
    elif best < 3000:
        bc = 4
    else:
        bc = 5
    idx[m] = LF_BEST + bc
    m += 1
    idx[m] = LF_UNSEEN_WIZ + clip(row[ST_UNSEEN_WIZ], 0, 4)
    m += 1
    trump = row[ST_TRUMP]
    hand = U64(row[ST_HAND])
    if trump >= 0 and row[ST_MONO] == 0:
        idx[m] = LF_UNSEEN_TRUMP + bucket(row[ST_UNSEEN + trump], (1, 2, 3, 5, 7, 10))
        m += 1
        mine = np.int64(popcount((hand >> U64(13 * trump)) & U64(0x1FFF)))
        idx[m] = LF_MY_TRUMP + clip(mine, 0, 5)
        m += 1
    idx[m] = LF_K + bucket(k, (2, 3, 4, 6, 8, 11, 15))
    m += 1
    for i in range(N_SPECIALS):
        if (row[ST_SPECIALS] >> i) & 1:
            idx[m] = LF_SPECIAL + i
            m += 1
    for i in range(5):
        if (row[ST_TFLAGS] >> i) & 1:
            idx[m] = LF_TFLAGS + i
            m += 1
    idx[m] = LF_MY_WIZ + clip(row[ST_MY_WIZ], 0, 3)
    m += 1
    if row[ST_CANCELLED] != 0:
        idx[m] = LF_CANCELLED
        m += 1
    idx[m] = LF_BID_SUM + (clip(bid_sum - k, -4, 4) + 4 if known_bids else 9)
    m += 1
    if row[ST_BOMB_RULE] != 0:
        idx[m] = LF_BOMB_RULE
        m += 1
    if row[ST_SCORING] != 0:
        idx[m] = LF_RULES
        m += 1
    if row[ST_HIDDEN] != 0:
        idx[m] = LF_RULES + row[ST_HIDDEN]
        m += 1
    idx[m] = LF_SURE_NEED + clip(row[ST_SURE] - need, -3, 3) + 3
    m += 1
    idx[m] = LF_STRONG_NEED + clip(row[ST_STRONG] - need, -3, 3) + 3
    m += 1
    return m


@hot
def form_class(f, led, trump):
    """0..38: a plain card (trump / led suit / other side x rank); 39..52: the special forms."""
    if f < 52:
        suit = f // 13
        rel = 0 if suit == trump else (1 if suit == led else 2)
        return rel * 13 + f % 13
    if f == WIZARD:
        return 39
    if f == JESTER:
        return 40
    if f == DRAGON:
        return 41
    if f == FAIRY:
        return 42
    if f == BOMB:
        return 43
    if f == WEREWOLF:
        return 44
    if f >= JUGGLER_AS and f < CLOUD_AS + 4:
        suit = (f - JUGGLER_AS) % 4
        rel = 0 if suit == trump else (1 if suit == led else 2)
        return (45 if f < CLOUD_AS else 48) + rel
    if f == SHAPESHIFTER_AS_WIZARD:
        return 51
    return 52  # Shapeshifter as Jester


@hot
def form_features(row, f, idx, m):
    """Append candidate form ``f``'s feature indices to ``idx`` from position ``m``; returns the new count."""
    n = row[ST_N]
    j = row[ST_J]
    led = row[ST_LED]
    trump = row[ST_TRUMP] if row[ST_MONO] == 0 else -1
    need = row[ST_NEED]
    best = row[ST_BEST]
    tflags = row[ST_TFLAGS]
    hand = U64(row[ST_HAND])
    seen = U64(row[ST_SEEN])
    cls = form_class(f, led, trump)
    idx[m] = LC_FORM + cls
    m += 1
    # would it win the trick as it stands, and surely (nobody after can beat it)?
    power, _ = form_power(f, led, trump)
    if f == BOMB or ((tflags & FLAG_BOMB) != 0 and row[ST_BOMB_RULE] == 0):
        wins = False  # the Bomb never wins; under bomb=cancel_bids a trick with it is still won
    elif f == FAIRY:
        wins = (tflags & FLAG_DRAGON) != 0
    elif f == DRAGON and (tflags & FLAG_FAIRY) != 0:
        wins = False
    else:
        wins = j == 0 or power > best
    last = j == n - 1
    higher = 0
    if f < 52:
        suit = f // 13
        above = (U64(0x1FFF) << U64(13 * suit)) & ~((ONE << U64(f + 1)) - ONE)
        higher = np.int64(popcount(above & ~(hand | seen)))
    sure = False
    if wins:
        if last or f == DRAGON:
            sure = True
        elif f == WIZARD or f == SHAPESHIFTER_AS_WIZARD:
            sure = True  # it wins only as the first Wizard, and the first Wizard takes it (unless a Dragon comes)
        elif f < 52 and higher == 0 and row[ST_UNSEEN_WIZ] == 0 and (f // 13 == trump or trump < 0):
            sure = True
    win = 2 if sure else (1 if wins else 0)
    idx[m] = LC_WIN + win
    m += 1
    sign = 0 if need > 0 else (1 if need == 0 else 2)
    pos = 0 if j == 0 else (2 if last else 1)
    idx[m] = LC_CROSS + (sign * 3 + win) * 3 + pos
    m += 1
    if f < 52:
        suit = f // 13
        is_trump = np.int64(suit == trump)
        idx[m] = LC_HIGHER + clip(higher, 0, 4) * 2 + is_trump
        m += 1
        own = (hand >> U64(13 * suit)) & U64(0x1FFF)
        length = np.int64(popcount(own))
        idx[m] = LC_LENGTH + (clip(length, 1, 5) - 1) * 2 + is_trump
        m += 1
        idx[m] = LC_SUIT_LEFT + bucket(row[ST_UNSEEN + suit], (1, 3, 6, 9)) * 2 + np.int64(j == 0)
        m += 1
        voids = 0
        for i in range(1, 6):  # fixed count, masked: a variable count made a slow little vector loop
            voids += ((row[ST_VOID + i] >> suit) & 1) & np.int64(i < n - j)
        idx[m] = LC_VOID_AFTER + clip(voids, 0, 3)
        m += 1
        r = f % 13
        low = (own & ((ONE << U64(r)) - ONE)) == ZERO
        high = (own >> U64(r + 1)) == ZERO
        if low and high:
            idx[m] = LC_EXTREME + 2
            m += 1
        elif low:
            idx[m] = LC_EXTREME
            m += 1
        elif high:
            idx[m] = LC_EXTREME + 1
            m += 1
        coarse = (0 if r < 5 else (1 if r < 9 else 2)) + 3 * is_trump
    elif f == WIZARD or f == SHAPESHIFTER_AS_WIZARD or f == DRAGON:
        coarse = 6
    elif f == JESTER or f == SHAPESHIFTER_AS_JESTER or f == FAIRY or f == BOMB or f == WEREWOLF:
        coarse = 7
    else:
        coarse = 8
    idx[m] = LC_COARSE + (coarse * 3 + sign) * 2 + np.int64(j == 0)
    m += 1
    return m


@hot
def hidden_sum(w1, start, idx, lo, m, acc):
    """acc[:16] = ``start`` + the rows of ``w1`` picked by ``idx[lo:m]`` (:data:`HIDDEN` units), in that order.

    One vector add per row (:func:`..jit.simd.add_rows`): the same sums, bit for bit,
    as sixteen scalar ones, about three times faster.
    """
    add_rows(w1, start, idx, np.int64(lo), np.int64(m), acc)


@hot
def output(w2, base, idx, lo, m, w1, acc):
    """w2 . relu(h), h = base + the rows of ``w1`` picked by ``idx[lo:m]`` (h left in ``acc[:16]``).

    The dot product adds in a fixed order (no fastmath reassociation), so the training
    code, which calls this too, gets the same bits.
    """
    hidden_sum(w1, base, idx, lo, m, acc)
    return relu_dot(acc, w2)


@hot
def candidate_forms(legal, led, trump, held_or_gone, cands):
    """The candidates pimc weighs (and the network was fitted on): every legal card as a form, a Juggler,
    Cloud or Shapeshifter in its winning and its losing form; neighbouring cards of a suit with nothing
    unseen between them (every card between is in ``held_or_gone``) count once, as the lowest."""
    nc = 0
    bits = legal
    prev = -1
    while bits != ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - ONE
        if c < 52 and prev >= 0 and prev // 13 == c // 13:
            between = ((ONE << U64(c)) - ONE) & ~((ONE << U64(prev + 1)) - ONE)
            if (between & ~held_or_gone) == ZERO:
                prev = c  # the same as the lower card
                continue
        prev = c if c < 52 else -1
        win_form, lose_form = forms_of(c, led, trump)
        cands[nc] = win_form
        nc += 1
        if lose_form != win_form:
            cands[nc] = lose_form
            nc += 1
    return nc


@hot
def score_candidates(row, cands, nc, w1, b1, w2, out, idx=None, base=None, acc=None):
    """The network's score of each candidate form in ``cands[:nc]`` (written to ``out``).

    ``idx``, ``base``, ``acc``: scratch (allocated here when not given).
    """
    if idx is None:
        idx = np.empty(MAX_STATE_FEATURES + MAX_FORM_FEATURES, dtype=np.int64)
    if base is None:
        base = np.empty(b1.shape[0], dtype=np.float64)
    if acc is None:
        acc = np.empty(b1.shape[0], dtype=np.float64)
    ms = state_features(row, idx)
    hidden_sum(w1, b1, idx, 0, ms, base)
    for ci in range(nc):
        m = form_features(row, cands[ci], idx, ms)
        out[ci] = output(w2, base, idx, ms, m, w1, acc)


def learned_play(on, turn, trick, hands, cnt, bids, won, rules, legal, net):
    """The form the learned player plays (more than one legal card): the best-scoring candidate.

    Compiled as the implementation of the switch :func:`.switches.learned_card`
    (``on``): one call per decision that takes only the arrays it reads: the
    seats' four, the rules and ``net`` (:class:`..bundles.Net`; passing the whole
    view and model bundles copied about a kilobyte per call and made the player
    3x slower); everything it calls is inlined.
    """
    w1, b1, w2, work_i, work_f = net.w1, net.b1, net.w2, net.work_i, net.work_f
    h = b1.shape[0]
    row = work_i[W_ROW : W_ROW + ST_WIDTH]
    fill_state(row, turn, trick, hands, cnt, bids, won, rules, net.played, net.void, net.full)
    row[ST_LEGAL] = np.int64(legal)
    cands = work_i[W_CANDS : W_CANDS + MAX_CANDIDATES]
    nc = candidate_forms(legal, trick.led, turn.trump, hands[turn.p] | turn.seen, cands)
    if nc == 1:
        return cands[0]  # the legal cards are all equivalent
    scores = work_f[W_SCORES : W_SCORES + MAX_CANDIDATES]
    score_candidates(row, cands, nc, w1, b1, w2, scores, work_i[W_IDX : W_IDX + 64], work_f[W_BASE : W_BASE + h],
                     work_f[W_ACC : W_ACC + h])  # fmt: skip
    top = 0
    for ci in range(1, nc):
        if scores[ci] > scores[top]:
            top = ci
    return cands[top]


# --------------------------------------------------------------------------- the training log


@jit
def log_decision(log, log_n, values, turn, trick, hands, cnt, bids, won, rules, played, void, full, legal):
    """Append a pimc decision (its state row and every candidate's total score) to ``log`` while it has room."""
    nc = values[0, values.shape[1] - 1]
    i = log_n[0]
    if nc < 2 or nc > MAX_CANDIDATES or i >= log.shape[0]:
        return
    row = log[i]
    fill_state(row, turn, trick, hands, cnt, bids, won, rules, played, void, full)
    row[ST_LEGAL] = np.int64(legal)
    row[LOG_NC] = nc
    for ci in range(nc):
        row[LOG_FORMS + ci] = values[0, ci]
        row[LOG_TOTALS + ci] = values[1, ci]
        row[LOG_DEALS + ci] = values[2, ci]
    log_n[0] = i + 1


# --------------------------------------------------------------------------- bids


@hot
def fill_bid_state(row, turn, hands, cnt, bids, rules, full, est, base):
    """Write what seat ``turn.p`` (the ``turn.i``-th to bid; a :class:`..bundles.BidTurn`) knows when bidding into
    ``row`` (``BS_*`` columns)."""
    p, i, n, k, trump, dealer, forbidden = turn.p, turn.i, turn.n, turn.k, turn.trump, turn.dealer, turn.forbidden
    row[BS_N] = n
    row[BS_K] = k
    row[BS_POS] = i
    row[BS_TRUMP] = trump
    row[BS_MONO] = np.int64(rules[R_MONO] != 0)
    row[BS_HAND] = np.int64(hands[p])
    row[BS_WIZ] = cnt[p, WIZARD]
    row[BS_JES] = cnt[p, JESTER]
    earlier = 0
    q = dealer
    for _ in range(i):
        q = q + 1 if q + 1 < n else 0
        earlier += bids[q]
    row[BS_EARLIER] = -1 if rules[R_HIDDEN_BIDS] != 0 else earlier
    row[BS_FORBIDDEN] = forbidden
    row[BS_SCORING] = rules[R_SCORING]
    row[BS_HIDDEN] = rules[R_HIDDEN_BIDS]
    specials = 0
    for s in range(N_SPECIALS):
        if full[DRAGON + s] > 0:
            specials |= 1 << s
    row[BS_SPECIALS] = specials
    row[BS_EST] = np.int64(np.floor(est * 1000.0 + 0.5))
    row[BS_BASE] = base


@hot
def bid_fixed(row, fixed):
    """The bid features that do not depend on the bid, into ``fixed``: [0] position, [1] trumps held, [2] high trumps
    held (their index needs the bid), [3] how many follow, then those (side aces, short suits, specials, rules).

    Computed once per bid decision (:func:`score_bids`), not once per candidate bid: :func:`bid_assemble`
    puts them in the same places, so the sums, and the network's scores, are the same bits.
    """
    n = row[BS_N]
    i = row[BS_POS]
    trump = row[BS_TRUMP] if row[BS_MONO] == 0 else -1
    hand = U64(row[BS_HAND])
    fixed[0] = LB_POS + clip(i, 0, 5) * 4 + clip(n, 3, 6) - 3
    aces = 0
    short = 0
    n_trump = 0
    top = 0
    for s in range(4):
        own = (hand >> U64(13 * s)) & U64(0x1FFF)
        c = np.int64(popcount(own))
        if s == trump:
            n_trump = c
            top = np.int64(popcount(own >> U64(10)))
        else:
            aces += np.int64((own >> U64(12)) & ONE)
            if c <= 1:
                short += 1
    fixed[1] = LB_TRUMP + clip(n_trump, 0, 6) * 2 + np.int64(trump >= 0)
    fixed[2] = clip(top, 0, 3)
    m = 4
    fixed[m] = LB_ACES + clip(aces, 0, 3)
    m += 1
    if trump >= 0:
        fixed[m] = LB_SHORT + clip(short, 0, 3)
        m += 1
    for s in range(N_SPECIALS):
        if (hand >> U64(DRAGON + s)) & ONE:
            fixed[m] = LB_SPECIAL_HELD + s
            m += 1
        if (row[BS_SPECIALS] >> s) & 1:
            fixed[m] = LB_SPECIAL_DECK + s
            m += 1
    if row[BS_SCORING] != 0:
        fixed[m] = LB_RULES
        m += 1
    if row[BS_HIDDEN] != 0:
        fixed[m] = LB_RULES + row[BS_HIDDEN]
        m += 1
    if row[BS_MONO] != 0:
        fixed[m] = LB_RULES + 3
        m += 1
    fixed[3] = m - 4


@hot
def bid_assemble(row, b, fixed, idx):
    """The one-hot feature indices of bidding ``b`` (``fixed``: :func:`bid_fixed` of ``row``); returns how many."""
    n = row[BS_N]
    k = row[BS_K]
    i = row[BS_POS]
    est = row[BS_EST] / 1000.0
    kb = bucket(k, (2, 3, 4, 6, 8, 11, 15))
    quarter = np.int64(np.floor(est * 4.0 + 0.5))
    m = 0
    off = b - np.int64(np.floor(est + 0.5))
    idx[m] = LB_OFFSET + (clip(off, -3, 3) + 3) * 8 + kb
    m += 1
    idx[m] = LB_BID + clip(b, 0, 12)
    m += 1
    idx[m] = LB_EST + clip(quarter - 4 * b, -8, 8) + 8
    m += 1
    idx[m] = fixed[0]
    m += 1
    if row[BS_EARLIER] >= 0:
        share = (i + 1) * k / n
        idx[m] = LB_TOTAL + clip(np.int64(np.floor(row[BS_EARLIER] + b - share + 0.5)), -4, 4) + 4
        m += 1
        if i == n - 1:
            idx[m] = LB_LAST + clip(row[BS_EARLIER] + b - k, -4, 4) + 4
            m += 1
    else:
        idx[m] = LB_TOTAL + 9
        m += 1
    idx[m] = LB_WIZ + clip(row[BS_WIZ], 0, 4) * 4 + clip(b, 0, 3)
    m += 1
    idx[m] = fixed[1]
    m += 1
    sign = 0 if b * 4 < quarter - 1 else (2 if b * 4 > quarter + 1 else 1)
    idx[m] = LB_TOP + fixed[2] * 3 + sign
    m += 1
    for r in range(fixed[3]):
        idx[m] = fixed[4 + r]
        m += 1
    share = b / k if k > 0 else 0.0
    idx[m] = LB_K + kb * 4 + (0 if share < 0.15 else (1 if share < 0.35 else (2 if share < 0.6 else 3)))
    m += 1
    return m


@hot
def score_bids(row, cands, nb, bw1, bb1, bw2, out, idx=None, acc=None):
    """The bid network's score of each candidate bid in ``cands[:nb]`` (written to ``out``).

    ``idx`` (room for 2 x :data:`MAX_BID_FEATURES`), ``acc``: scratch (allocated here when not given).
    """
    if idx is None:
        idx = np.empty(2 * MAX_BID_FEATURES, dtype=np.int64)
    if acc is None:
        acc = np.empty(bb1.shape[0], dtype=np.float64)
    fixed = idx[MAX_BID_FEATURES:]
    bid_fixed(row, fixed)
    for c in range(nb):
        m = bid_assemble(row, cands[c], fixed, idx)
        out[c] = output(bw2, bb1, idx, 0, m, bw1, acc)


@jit
def learned_bid(turn, hands, cnt, bids, rules, full, est, base, bw1, bb1, bw2, work_i, work_f):
    """The bid among ``base - 2 .. base + 2`` (never ``forbidden``) the bid network scores best (first on ties).

    ``work_i``, ``work_f``: the learned player's scratch (the view's; no card decision is under way while a seat
    bids), so a bid allocates nothing: five allocations per bid were about a third of its time.
    """
    row = work_i[W_ROW : W_ROW + BS_WIDTH]
    fill_bid_state(row, turn, hands, cnt, bids, rules, full, est, base)
    k, forbidden = turn.k, turn.forbidden
    cands = work_i[W_CANDS : W_CANDS + MAX_BIDS]
    nb = 0
    for b in range(max(base - 2, 0), min(base + 2, k) + 1):
        if b != forbidden:
            cands[nb] = b
            nb += 1
    if nb == 0:
        return base
    out = work_f[W_SCORES : W_SCORES + MAX_BIDS]
    score_bids(row, cands, nb, bw1, bb1, bw2, out, work_i[W_IDX : W_IDX + 2 * MAX_BID_FEATURES],
               work_f[W_ACC : W_ACC + bb1.shape[0]])  # fmt: skip
    top = 0
    for c in range(1, nb):
        if out[c] > out[top]:
            top = c
    return cands[top]


@jit
def log_bid(log, log_n, values, turn, hands, cnt, bids, rules, full, est, base):
    """Append a pimc bid decision (its state row and every candidate bid's total score) while ``log`` has room."""
    nb = values[0, values.shape[1] - 1]
    j = log_n[0]
    if nb < 2 or nb > MAX_BIDS or j >= log.shape[0]:
        return
    row = log[j]
    fill_bid_state(row, turn, hands, cnt, bids, rules, full, est, base)
    row[LOG_B_NB] = nb
    for c in range(nb):
        row[LOG_B_BIDS + c] = values[0, c]
        row[LOG_B_TOTALS + c] = values[1, c]
        row[LOG_B_DEALS + c] = values[2, c]
    log_n[0] = j + 1
