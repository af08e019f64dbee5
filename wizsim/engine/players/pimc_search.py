"""The pimc player: Perfect-Information Monte-Carlo bids and card play.

At a decision, deal the cards the player cannot see in K ways consistent with
what it knows (its hand, the cards played, the face-up card, the suits others
have shown out of, the hand sizes, cards it knows a seat holds), play every
candidate out in every deal with a fast rollout policy, and take the
candidate with the best mean own score (the same deals for every candidate).
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from ..bundles import Sampler, Snapshots, Turn
from ..game.events import juggler_passes
from ..game.score import cloud_bid, round_score
from ..game.trick import finish_trick, legal_mask, open_trick, take_card, trick_step
from ..jit.bits import ONE, U64, ZERO, lowest_bit
from ..jit.borrow import stack_stream
from ..jit.config import OVERLOAD_OPTIONS, hot, jit
from ..jit.rng import below, random_member
from ..layout import (
    D_PASS,
    FLAG_JUGGLER,
    FREE,
    JUGGLER,
    JUGGLER_AS,
    P_BID_SAMPLES,
    P_INFER,
    P_KIND,
    P_PRUNE,
    P_ROLLOUT,
    P_SAMPLES,
    PRUNE_BATCH,
    R_BOMB,
    R_HIDDEN_BIDS,
    R_MONO,
    R_SCORING,
    REFINE_KEEP_JESTER,
    REFINE_LEAD_TRUMP,
    ROLLOUT_HEURISTIC,
    ROLLOUT_LEARNED,
    ROLLOUT_OF,
    ROLLOUT_RANDOM,
    ROLLOUT_SEATS,
    ROLLOUT_TABLE,
    S_HEURISTIC,
    T_CARD,
    TP_REFINE,
    WIZARD,
)
from .heuristic import estimate, heuristic_play
from .learned_model import candidate_forms, learned_play
from .random import random_form


def learned_rollout_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):  # pragma: no cover - compiled
    """:func:`.learned.learned_play` in a rollout (ROLLOUT_LEARNED and ROLLOUT_SEATS); a stub unless ``net.w1`` is
    float64.

    Without the network file the weights are float32 placeholders
    (:func:`wizsim.players.learned_data.kernel_model`): the stub returns -1 and the
    rollout plays the heuristic's card instead.
    """
    raise NotImplementedError


@overload(learned_rollout_card, jit_options=OVERLOAD_OPTIONS)
def _learned_rollout_card(on, turn, trick, hands, cnt, bids, won, rules, legal, net):
    w1 = net.types[net.fields.index("w1")]
    if isinstance(w1, types.Array) and w1.dtype == types.float64:
        return learned_play

    def no_network(on, turn, trick, hands, cnt, bids, won, rules, legal, net):
        return np.int64(-1)

    return no_network


@hot
def rollout_view(net, played, void, n, c, led, p, reset):
    """Set the rollout's copies of the cards played and the voids (``net.played``, ``net.void``) to
    ``played``/``void`` (``reset``), then count card ``c`` played by seat ``p`` onto a trick led ``led``
    (``c`` < 0: nothing)."""
    pl, vo = net.played, net.void
    if reset:
        for x in range(64):
            pl[x] = played[x]
        for q in range(n):
            vo[q] = void[q]
    if c >= 0:
        pl[c] += 1
        if c < 52 and 0 <= led < 4 and c // 13 != led:
            vo[p] |= np.int64(1) << led


@jit
def pimc_pool(p, full, cnt, played, shown):
    """Copies of each card type the player at ``p`` cannot see: the deck minus its hand, the played cards and the face-up card."""
    pool = np.zeros(64, dtype=np.int64)
    for c in range(64):
        pool[c] = full[c] - cnt[p, c] - played[c]
    if shown >= 0:
        pool[shown] -= 1
    for c in range(64):
        if pool[c] < 0:
            pool[c] = 0
    return pool


@hot
def copy_counts(mask, src, dst):
    """Copy the counts of the card types in ``mask`` (the others are zero in both: rollouts end with empty hands)."""
    bits = mask
    while bits != ZERO:
        c = np.int64(lowest_bit(bits))
        dst[c] = src[c]
        bits &= bits - ONE


@jit
def sample_world(p, n, pool, sizes, void, known, hands, cnt, wh, wc, st):
    """Deal the unseen cards of ``pool`` to the other seats (``sizes`` each) into ``wh``/``wc``.

    Seats keep out of the suits they showed out of (``void`` bit masks) where
    possible: a shuffle is dealt greedily, retried a few times, and the last
    try ignores voids. ``known[q, c]`` copies of card ``c`` are known to be
    in seat ``q``'s hand (the indicator a Werewolf swapped for, the card
    ``p`` passed after a Juggler trick): they are dealt there first. Seat
    ``p`` keeps its own hand. Returns the new stream state.
    """
    return sample_world_into(p, n, new_sampler(pool, known), sizes, void, known, hands, cnt, wh, wc, st)


@hot
def new_sampler(pool, known):
    """The :class:`..bundles.Sampler` of a decision: the unseen cards of ``pool`` listed (the ``known`` ones taken
    out), the known cards' masks by seat, and the work buffers of :func:`sample_world_into`."""
    unseen = np.empty(80, dtype=np.int64)
    m = unseen_cards(pool, known, unseen)
    return Sampler(unseen, m, known_masks(known), np.empty(80, dtype=np.int64), np.empty(80, dtype=np.bool_),
                   np.empty(1, dtype=np.uint64))  # fmt: skip


@jit
def known_masks(known):
    """Bit mask of the card types ``known[q]`` places in each seat's hand."""
    out = np.zeros(known.shape[0], dtype=np.uint64)
    for q in range(known.shape[0]):
        for c in range(64):
            if known[q, c] > 0:
                out[q] |= ONE << U64(c)
    return out


@jit
def unseen_cards(pool, known, unseen):
    """List the cards of ``pool`` in ``unseen`` (in code order, the ``known`` ones taken out); return how many."""
    m = 0
    for c in range(64):
        copies = pool[c]
        for q in range(known.shape[0]):
            copies -= known[q, c]
        for _ in range(copies):
            unseen[m] = c
            m += 1
    return m


@jit
def sample_world_into(p, n, sampler, sizes, void, known, hands, cnt, wh, wc, st):
    """:func:`sample_world` with the unseen cards listed and the work buffers given (``sampler``, a
    :class:`..bundles.Sampler` from :func:`new_sampler`)."""
    unseen, m, kmask, cards, used, rng = sampler.unseen, sampler.m, sampler.kmask, sampler.cards, sampler.used, sampler.rng
    rng[0] = st
    for i in range(m):
        cards[i] = unseen[i]
    for attempt in range(8):
        for i in range(m - 1):
            j = i + below(rng, m - i)
            t = cards[i]
            cards[i] = cards[j]
            cards[j] = t
        for i in range(m):
            used[i] = False
        ok = True
        first = 0  # every card before this one is dealt
        for q in range(n):
            bits = wh[q]  # clear the previous world's counts
            while bits != ZERO:
                wc[q, np.int64(lowest_bit(bits))] = 0
                bits &= bits - ONE
            wh[q] = ZERO
            if q == p:
                wh[q] = hands[p]
                copy_counts(hands[p], cnt[p], wc[q])
                continue
            need = sizes[q]
            bits = kmask[q]
            while bits != ZERO and need > 0:
                c = np.int64(lowest_bit(bits))
                bits &= bits - ONE
                copies = min(known[q, c], need)
                wh[q] |= ONE << U64(c)
                wc[q, c] += copies
                need -= copies
            for i in range(first, m):
                if need == 0:
                    break
                if used[i]:
                    continue
                c = cards[i]
                if attempt < 7 and c < 52 and (void[q] >> (c // 13)) & 1:
                    continue
                used[i] = True
                wh[q] |= ONE << U64(c)
                wc[q, c] += 1
                need -= 1
            while first < m and used[first]:
                first += 1
            if need > 0:
                ok = False
                break
        if ok:
            break
    return rng[0]


@jit
def save_snapshot(i, n, t, leader, tflags, hands, cnt, won, seen, cancelled, cloud_taker, snaps):
    """Save a rollout's state after trick ``t`` as snapshot ``i`` of ``snaps`` (:class:`..bundles.Snapshots`):
    ``info[i]`` = t, leader, Juggler pass due, cancelled, cloud taker, then the tricks won; only the counts of the
    cards in hand are copied."""
    sn_h, sn_c, sn_i, sn_seen = snaps.hands, snaps.cnt, snaps.info, snaps.seen
    for q in range(n):
        sn_h[i, q] = hands[q]
        copy_counts(hands[q], cnt[q], sn_c[i, q])
        sn_i[i, 5 + q] = won[q]
    sn_i[i, 0] = t
    sn_i[i, 1] = leader
    sn_i[i, 2] = np.int64((tflags & FLAG_JUGGLER) != 0)
    sn_i[i, 3] = np.int64(cancelled)
    sn_i[i, 4] = cloud_taker
    sn_seen[i] = seen


@jit
def rollout(turn, trick, hands, cnt, bids, won, tables, hstrat, params, policy, work, st, snaps, net):
    """Play the round out from ``turn`` (a :class:`..bundles.Turn`: trick ``turn.t`` with ``turn.j`` cards down in
    ``trick``); return (the score of seat ``turn.p``, state).

    Everybody plays like the heuristic (``policy`` ROLLOUT_HEURISTIC), at
    random (ROLLOUT_RANDOM), like the ``table`` player (ROLLOUT_TABLE: the
    heuristic with both refinements), like the ``learned`` player
    (ROLLOUT_LEARNED: its network in ``net``, which also holds the rollout's
    copies of the cards played and the voids, kept up to date here) or each
    as its own strategy (ROLLOUT_SEATS), Juggler passes included; the hands
    are the sampled world's and change.
    The state at the end of the trick where ``me``'s tricks reach ``v``,
    ``snaps.lo <= v < snaps.hi``, is saved to snapshot ``v`` before any Juggler
    passes (see :func:`save_snapshot`); ``snaps.hi = 0``: no snapshots.
    """
    me, t, j, n, k, trump, shown = turn.p, turn.t, turn.j, turn.n, turn.k, turn.trump, turn.shown
    seen, cancelled, cloud_taker = turn.seen, turn.cancelled, turn.cloud_taker
    table, masks, rules = tables.table, tables.masks, tables.rules
    rng = stack_stream(st)
    use_net = policy >= ROLLOUT_LEARNED
    bomb_voids = rules[R_BOMB] == 0
    mono = rules[R_MONO] != 0
    start_led = FREE if mono else -1
    while t < k:
        while j < n:
            p = trick.leader + j
            if p >= n:
                p -= n
            led = trick.led
            legal = legal_mask(hands[p], led, masks)
            kind = policy
            if policy == ROLLOUT_SEATS:  # as the seat plays (the registry's rollout policy of its player)
                kind = ROLLOUT_OF[np.int64(params[p, P_KIND])]
            f = np.int64(-1)
            if (legal & (legal - ONE)) == ZERO and legal < (ONE << U64(JUGGLER)):
                f = np.int64(lowest_bit(legal))  # forced: one plain card
            elif kind == ROLLOUT_LEARNED and (legal & (legal - ONE)) != ZERO:  # -1 without the network: heuristic's
                here = Turn(p, t, j, n, k, trump, shown, seen, cancelled, cloud_taker)
                f = learned_rollout_card(net.work_i, here, trick, hands, cnt, bids, won, rules, legal, net)
            if f < 0 and kind != ROLLOUT_RANDOM:
                need = bids[p] - won[p]
                if cancelled:
                    need = k
                refine = 0
                if kind == ROLLOUT_TABLE:
                    refine = (
                        REFINE_LEAD_TRUMP | REFINE_KEEP_JESTER if policy == ROLLOUT_TABLE else np.int64(params[p, TP_REFINE])
                    )
                f = heuristic_play(hands[p], legal, need, led, trick.best, j, n, trump, seen, trick.flags, mono, refine)
            elif f < 0:
                f = random_member(rng, legal)
                if f >= JUGGLER:
                    f = random_form(f, rng)
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            if use_net:
                rollout_view(net, net.played, net.void, n, c, led, p, False)
            seen |= ONE << U64(c)
            take_card(p, c, hands, cnt)
            trick = trick_step(f, p, trick, trump, table)
            j += 1
        winner, next_leader, cancelled, cloud_taker = finish_trick(trick, bomb_voids, cancelled, cloud_taker, won)
        if winner >= 0 and snaps.hi > 0 and winner == me and snaps.lo <= won[me] < snaps.hi:
            save_snapshot(won[me], n, t, next_leader, trick.flags, hands, cnt, won, seen, cancelled, cloud_taker, snaps)
        if (trick.flags & FLAG_JUGGLER) != 0 and t < k - 1:
            rng[0] = juggler_passes(0, n, trump, hstrat, params, rng[0], hands, cnt, bids, won, work)
            if use_net:
                for q in range(n):
                    net.void[q] = 0  # after the passes anyone may hold a suit again (as pimc_view forgets)
        t += 1
        j = 0
        trick = open_trick(next_leader, start_led)
    if snaps.hi > 0:  # how the round ended (last row), for the bids never reached
        sn_i = snaps.info
        sn_i[sn_i.shape[0] - 1, 3] = np.int64(cancelled)
        sn_i[sn_i.shape[0] - 1, 4] = cloud_taker
    if cancelled:
        return 10 * won[me], rng[0]
    bid = bids[me]
    if cloud_taker == me:
        bid = cloud_bid(bid, won[me], k, rules[R_SCORING], cancelled)
    return round_score(bid, won[me], k, rules[R_SCORING]), rng[0]


@jit
def prune_candidates(total, alive, scores, s, z):
    """Drop the live candidates that are significantly worse than the best live one; return how many live.

    ``scores[i, :s]`` are candidate ``i``'s scores in the ``s`` deals so far
    (the same deals for all). A candidate goes when its paired differences
    to the best have mean m > 0 and m > ``z`` standard errors (always when
    they are all equal and positive: worse in every deal by the same margin).
    """
    top = -1
    for i in range(total.shape[0]):
        if alive[i] and (top < 0 or total[i] > total[top]):
            top = i
    live = 0
    for i in range(total.shape[0]):
        if alive[i] and i != top:
            d1 = 0
            d2 = 0
            for r in range(s):
                d = scores[top, r] - scores[i, r]
                d1 += d
                d2 += d * d
            # m > z * sd / sqrt(s) with m = d1 / s, sd^2 = (d2 - d1^2 / s) / (s - 1)
            f1, f2 = np.float64(d1), np.float64(d2)  # floats: weighted scores could overflow int64 squares
            if d1 > 0 and f1 * f1 * (s - 1) > z * z * (s * f2 - f1 * f1):
                alive[i] = False
        live += np.int64(alive[i])
    return live


@jit
def world_bids(p, n, k, trump, wh, wc, spmask, spwiz, bids, seats, visible, sigma, mono, prm, tmp, out):
    """The others' bids as ``p`` models them in a sampled deal (``out``), and the deal's weight.

    Only the seats in bit mask ``seats`` (those that have bid) count. A
    seat's hand at the deal is its sampled hand plus the cards it has played
    (cards passed after a Juggler trick are not followed back). With
    ``visible`` bids the bids stand and, if ``sigma`` > 0, the deal weighs
    prod_q exp(-(bid_q - est_q)^2 / (2 sigma^2)), est_q the heuristic's
    estimate of that hand with ``p``'s parameters, as an integer 1..64.
    Secret bids (not ``visible``) are replaced by the rounded estimates.
    """
    w = 1.0
    for q in range(n):
        out[q] = bids[q]
        if q == p or (seats >> q) & 1 == 0 or (visible and sigma <= 0):
            continue
        tmp[WIZARD] = wc[q, WIZARD] + spwiz[q]  # the estimates read only the Wizard count
        e = estimate(wh[q] | spmask[q], tmp, trump, n, k, prm, mono)
        if visible:
            d = bids[q] - e
            w *= np.exp(-d * d / (2.0 * sigma * sigma))
        else:
            out[q] = min(max(np.int64(np.floor(e + 0.5)), 0), k)
    if not visible or sigma <= 0:
        return 1
    return 1 + np.int64(w * 63.0)


@jit
def pimc_play(turn, trick, hands, cnt, bids, won, view, known, tables, params, net, st, values=None):
    """The form PIMC plays at seat ``turn.p`` (more than one legal card); returns (form, stream state).

    ``turn``, ``trick``: where the round stands (:class:`..bundles.Turn`,
    :class:`..bundles.Trick`); ``view`` (:class:`..bundles.View`): the cards
    played, the voids, the deck in play and the cards (and Wizards) each seat
    has played this round, for :func:`world_bids`; ``known[q, c]``: copies of
    card ``c`` that ``p`` knows are in seat ``q``'s hand; ``net``: the learned
    network for the learned rollouts (:func:`rollout`). ``values`` (optional,
    int64, 3 rows of at least 2 * 64 + 1): the candidates are written there for
    training the learned player: row 0 the forms, row 1 the total scores, row 2
    the deals each was played in, and ``values[0, -1]`` how many (0 when one
    candidate is played at once). With 5 rows (the play advisor): row 3 the sums
    of squared scores, row 4 the deals in which the player made its bid (bids
    not cancelled, the Cloud's change counted).
    """
    p, t, j, n, k, trump = turn.p, turn.t, turn.j, turn.n, turn.k, turn.trump
    seen, cancelled, cloud_taker, shown = turn.seen, turn.cancelled, turn.cloud_taker, turn.shown
    table, masks, rules = tables.table, tables.masks, tables.rules
    played, void, full, spmask, spwiz = view.played, view.void, view.full, view.spmask, view.spwiz
    mono = rules[R_MONO] != 0
    led = trick.led
    samples = max(np.int64(params[p, P_SAMPLES]), 1)
    policy = np.int64(params[p, P_ROLLOUT])
    legal = legal_mask(hands[p], led, masks)
    cands = np.empty(2 * 64, dtype=np.int64)
    nc = candidate_forms(legal, led, trump, hands[p] | seen, cands)  # the same the learned player weighs
    if values is not None:
        values[0, values.shape[1] - 1] = 0
    if nc == 1:
        return cands[0], st  # the legal cards are all equivalent
    sampler = new_sampler(pimc_pool(p, full, cnt, played, shown), known)
    sigma = params[p, P_INFER]
    visible = rules[R_HIDDEN_BIDS] != 2  # secret bids stay hidden until the round is scored
    model = sigma > 0 or not visible
    wbids = bids.copy()
    tmp = np.zeros(64, dtype=np.int64)
    sizes = np.zeros(n, dtype=np.int64)
    for q in range(n):
        for c in range(64):
            sizes[q] += cnt[q, c]  # hand sizes are public
    hstrat = np.full(n, S_HEURISTIC, dtype=np.int64)
    total = np.zeros(nc, dtype=np.int64)
    wh = np.zeros(n, dtype=np.uint64)
    wc = np.zeros((n, 64), dtype=np.int64)
    h2 = np.zeros(n, dtype=np.uint64)
    c2 = np.zeros((n, 64), dtype=np.int64)
    won2 = np.zeros(n, dtype=np.int64)
    work = np.zeros(max(n, 8), dtype=np.int64)
    sn_h = np.zeros((1, 1), dtype=np.uint64)  # no snapshots
    sn_c = np.zeros((1, 1, 1), dtype=np.int64)
    sn_i = np.zeros((1, 1), dtype=np.int64)
    sn_seen = np.zeros(1, dtype=np.uint64)
    stats = False
    if values is not None:
        stats = values.shape[0] >= 5
    end = 1 if stats else 0  # snapshots [1, 1): none, but the round's end (Bomb, Cloud) is written to sn_end
    sn_end = np.zeros((1, 5), dtype=np.int64)
    snaps = Snapshots(sn_h, sn_c, sn_end if stats else sn_i, sn_seen, end, end)
    prune = params[p, P_PRUNE]
    alive = np.ones(nc, dtype=np.bool_)
    scores = np.zeros((nc, samples if prune > 0 else 1), dtype=np.int64)
    played_in = np.zeros(nc, dtype=np.int64)
    for s in range(samples):
        if prune > 0 and s > 0 and s % PRUNE_BATCH == 0:
            if prune_candidates(total, alive, scores, s, prune) == 1:
                break  # the decision is made: the other candidates are significantly worse
        st = sample_world_into(p, n, sampler, sizes, void, known, hands, cnt, wh, wc, st)
        weight = 1
        if model:
            weight = world_bids(
                p, n, k, trump, wh, wc, spmask, spwiz, bids, (1 << n) - 1, visible, sigma, mono, params[p], tmp, wbids
            )
        for ci in range(nc):
            if not alive[ci]:
                continue
            f = cands[ci]
            for q in range(n):
                h2[q] = wh[q]
                won2[q] = won[q]
                copy_counts(wh[q], wc[q], c2[q])
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            take_card(p, c, h2, c2)
            trick2 = trick_step(f, p, trick, trump, table)
            if policy >= ROLLOUT_LEARNED:
                rollout_view(net, played, void, n, c, led, p, True)
            after = Turn(p, t, j + 1, n, k, trump, shown, seen | (ONE << U64(c)), cancelled, cloud_taker)
            score, st = rollout(after, trick2, h2, c2, wbids, won2, tables, hstrat, params, policy, work, st, snaps,
                                net)  # fmt: skip
            add_score(total, scores, ci, s, score * weight, prune > 0)
            played_in[ci] += weight
            if values is not None and stats:
                values[3, ci] += weight * score * score
                bid = wbids[p]
                if sn_end[0, 4] == p:
                    bid = cloud_bid(bid, won2[p], k, rules[R_SCORING], False)
                values[4, ci] += weight * np.int64(sn_end[0, 3] == 0 and won2[p] == bid)
    best_ci = best_live(total, alive)
    if values is not None:
        for ci in range(nc):
            values[0, ci] = cands[ci]
            values[1, ci] = total[ci]
            values[2, ci] = played_in[ci]
        values[0, values.shape[1] - 1] = nc
    return cands[best_ci], st


@jit
def pimc_bid(turn, hands, cnt, bids, full, known, base, tables, params, net, st, values=None):
    """PIMC's bid: the best mean own score over sampled deals, for bids base - 2 .. base + 2; (bid, state).

    In each sampled deal the players after ``p`` (every other player under
    hidden bids) bid the heuristic's estimate of their sampled hands and
    everyone plays with the rollout policy. With ``infer`` on, the deals are
    weighted by how well they explain the earlier bids (:func:`world_bids`).
    ``turn``: a :class:`..bundles.BidTurn`; ``full``: the deck in play by card
    type; ``known`` as for :func:`pimc_play`.

    With heuristic rollouts that draw no random numbers, a bid only matters
    to play once it is reached (the heuristic asks only whether it still
    needs tricks), so one rollout with the highest bid serves every lower bid
    until ``p`` has taken that many tricks: lower bids resume from a snapshot
    taken then, and bids never reached score that rollout's tricks directly.
    The results are exactly those of a separate rollout per bid.
    ``values`` (optional) receives the candidate bids, their total scores and
    the deals each was played in, as for :func:`pimc_play`.
    """
    p, n, k, dealer, trump, shown, forbidden = turn.p, turn.n, turn.k, turn.dealer, turn.trump, turn.shown, turn.forbidden
    rules = tables.rules
    mono = rules[R_MONO] != 0
    samples = max(np.int64(params[p, P_BID_SAMPLES]), 1)
    policy = np.int64(params[p, P_ROLLOUT])
    prune = params[p, P_PRUNE]
    scoring = rules[R_SCORING]
    shared = policy == ROLLOUT_HEURISTIC or policy == ROLLOUT_TABLE  # the heuristic's play, refined or not, depends on the bid only via need > 0
    for q in range(n):
        if params[q, D_PASS] == 1:
            shared = False  # a random Juggler pass draws numbers: keep one rollout per bid
    played = np.zeros(64, dtype=np.int64)
    void = np.zeros(n, dtype=np.int64)
    sampler = new_sampler(pimc_pool(p, full, cnt, played, shown), known)
    hidden = rules[R_HIDDEN_BIDS] != 0  # the earlier bids are not seen when bidding
    sigma = params[p, P_INFER]
    earlier = seats_before(p, dealer, n)
    nothing_played = np.zeros(n, dtype=np.uint64)
    no_wizards = np.zeros(n, dtype=np.int64)
    tmp = np.zeros(64, dtype=np.int64)
    scratch = np.zeros(n, dtype=np.int64)
    sizes = np.full(n, k, dtype=np.int64)
    hstrat = np.full(n, S_HEURISTIC, dtype=np.int64)
    lo = max(base - 2, 0)
    hi = min(base + 2, k)
    nb = hi - lo + 1
    total, alive = bid_candidates(lo, nb, forbidden)
    wh = np.zeros(n, dtype=np.uint64)
    wc = np.zeros((n, 64), dtype=np.int64)
    h2 = np.zeros(n, dtype=np.uint64)
    c2 = np.zeros((n, 64), dtype=np.int64)
    won2 = np.zeros(n, dtype=np.int64)
    b2 = np.zeros(n, dtype=np.int64)
    work = np.zeros(max(n, 8), dtype=np.int64)
    # snapshot b: the top bid's rollout when p has taken b tricks; sn_i's last row: how that rollout ended
    sn_h = np.zeros((k + 1, n), dtype=np.uint64)
    sn_c = np.zeros((k + 1, n, 64), dtype=np.int64)
    sn_i = np.zeros((k + 2, 5 + n), dtype=np.int64)
    sn_seen = np.zeros(k + 1, dtype=np.uint64)
    snaps = Snapshots(sn_h, sn_c, sn_i, sn_seen, 0, 0)  # resumed rollouts take none
    fin_won = 0
    fin_cancel = False
    fin_cloud = -1
    leader = dealer + 1 if dealer + 1 < n else 0
    start_led = FREE if mono else -1
    scores = np.zeros((nb, samples if prune > 0 else 1), dtype=np.int64)
    live0 = alive.copy()  # the candidates (the forbidden bid is none)
    played_in = np.zeros(nb, dtype=np.int64)
    for s in range(samples):
        if prune > 0 and s > 0 and s % PRUNE_BATCH == 0:
            if prune_candidates(total, alive, scores, s, prune) == 1:
                break  # the decision is made: the other bids are significantly worse
        st = sample_world_into(p, n, sampler, sizes, void, known, hands, cnt, wh, wc, st)
        weight = 1
        if sigma > 0 and not hidden:
            weight = world_bids(p, n, k, trump, wh, wc, nothing_played, no_wizards, bids, earlier, True, sigma, mono,
                                params[p], tmp, scratch)  # fmt: skip
        sampled_bids(p, n, k, dealer, trump, hidden, bids, wh, wc, params[p], mono, b2)
        for b in range(nb):
            played_in[b] += weight * np.int64(alive[b])  # the weights in ``total``: its mean is total / played_in
        top = -1  # the highest live bid: played out in full (and, if shared, snapshotted for the lower ones)
        for b in range(hi, lo - 1, -1):
            if top < 0 and alive[b - lo]:
                top = b
        for idx in range(nb):
            b = hi - idx if shared else lo + idx
            if not alive[b - lo]:
                continue
            b2[p] = b
            if shared and b < top:
                if b > 0 and sn_i[b, 0] < 0:  # p never took b tricks: the top bid's play, scored for b
                    score = final_score(b, fin_won, fin_cancel, fin_cloud == p, k, scoring)
                    add_score(total, scores, b - lo, s, score * weight, prune > 0)
                    continue
                if b > 0:  # resume after the trick where p took its b-th trick
                    score, st = resume_snapshot(b, turn, h2, c2, b2, won2, tables, hstrat, params, policy, work, st,
                                                snaps, net)  # fmt: skip
                    add_score(total, scores, b - lo, s, score * weight, prune > 0)
                    continue
            for q in range(n):
                h2[q] = wh[q]
                won2[q] = 0
                copy_counts(wh[q], wc[q], c2[q])
            snap_hi = 0
            if shared and b == top:
                snap_hi = top
                for i in range(k + 1):
                    sn_i[i, 0] = -1  # not reached (yet)
            if policy >= ROLLOUT_LEARNED:
                rollout_view(net, played, void, n, -1, -1, p, True)
            first = Turn(p, 0, 0, n, k, trump, shown, ZERO, False, -1)
            score, st = rollout(first, open_trick(leader, start_led), h2, c2, b2, won2, tables, hstrat, params,
                                policy, work, st, Snapshots(sn_h, sn_c, sn_i, sn_seen, max(lo, 1), snap_hi),
                                net)  # fmt: skip
            add_score(total, scores, b - lo, s, score * weight, prune > 0)
            if snap_hi > 0:
                fin_won = won2[p]
                fin_cancel = sn_i[k + 1, 3] != 0
                fin_cloud = sn_i[k + 1, 4]
    if values is not None:
        bid_values(lo, hi, live0, total, played_in, values)
    best = best_live(total, alive)
    return (lo + best if best >= 0 else -1), st


@hot
def best_live(total, alive):
    """The live candidate with the highest total (the first of equals)."""
    best = -1
    for i in range(total.shape[0]):
        if alive[i] and (best < 0 or total[i] > total[best]):
            best = i
    return best


@hot
def bid_values(lo, hi, live0, total, played_in, values):
    """Write the candidate bids ``lo .. hi`` (those ``live0``), their totals and deals to ``values`` (training)."""
    c = 0
    for b in range(lo, hi + 1):
        if live0[b - lo]:
            values[0, c] = b
            values[1, c] = total[b - lo]
            values[2, c] = played_in[b - lo]
            c += 1
    values[0, values.shape[1] - 1] = c


@hot
def seats_before(p, dealer, n):
    """Bit mask of the seats that bid before seat ``p`` (from the dealer's left)."""
    earlier = 0
    q = dealer + 1 if dealer + 1 < n else 0
    while q != p:
        earlier |= 1 << q
        q = q + 1 if q + 1 < n else 0
    return earlier


@hot
def bid_candidates(lo, nb, forbidden):
    """Score totals and live flags of the bids lo .. lo + nb - 1 (the forbidden bid is never live)."""
    total = np.zeros(nb, dtype=np.int64)
    alive = np.ones(nb, dtype=np.bool_)
    if 0 <= forbidden - lo < nb:
        alive[forbidden - lo] = False
        total[forbidden - lo] = -(1 << 40)
    return total, alive


@hot
def add_score(total, scores, i, s, score, keep):
    """Candidate ``i`` scored ``score`` in deal ``s``: add it up (and keep it for pruning)."""
    total[i] += score
    if keep:
        scores[i, s] = score


@jit
def sampled_bids(p, n, k, dealer, trump, hidden, bids, wh, wc, prm, mono, out):
    """The others' bids in a sampled deal, as ``p`` models them (``out``).

    Bids made before ``p`` stand (unless bids are hidden); later bidders bid
    the heuristic's estimate of their sampled hand, with ``p``'s own parameters.
    """
    passed = not hidden
    q = dealer
    for _i in range(n):
        q = q + 1 if q + 1 < n else 0
        if q == p:
            passed = False
        elif passed:
            out[q] = bids[q]
        else:
            e = estimate(wh[q], wc[q], trump, n, k, prm, mono)
            out[q] = min(max(np.int64(np.floor(e + 0.5)), 0), k)


@hot
def final_score(bid, won, cancelled, took_cloud, k, scoring):
    """Own score of a finished rollout for ``bid`` (bids cancelled by the Bomb: 10 per trick)."""
    if cancelled:
        return 10 * won
    if took_cloud:
        bid = cloud_bid(bid, won, k, scoring, cancelled)
    return round_score(bid, won, k, scoring)


@jit
def resume_snapshot(b, turn, h2, c2, b2, won2, tables, hstrat, params, policy, work, st, snaps, net):
    """Play bid ``b`` on from snapshot ``b`` of ``snaps`` (the top bid's rollout when ``turn.p`` took its b-th
    trick); (score, state). ``turn``: the bid's :class:`..bundles.BidTurn`; ``snaps`` takes no new snapshots."""
    n, k, trump = turn.n, turn.k, turn.trump
    sn_h, sn_c, sn_i, sn_seen = snaps.hands, snaps.cnt, snaps.info, snaps.seen
    for q in range(n):
        h2[q] = sn_h[b, q]
        won2[q] = sn_i[b, 5 + q]
        copy_counts(sn_h[b, q], sn_c[b, q], c2[q])
    t0 = sn_i[b, 0]
    l0 = sn_i[b, 1]
    if sn_i[b, 2] != 0 and t0 < k - 1:
        st = juggler_passes(0, n, trump, hstrat, params, st, h2, c2, b2, won2, work)
    start_led = FREE if tables.rules[R_MONO] != 0 else -1
    resume = Turn(turn.p, t0 + 1, 0, n, k, trump, turn.shown, sn_seen[b], sn_i[b, 3] != 0, sn_i[b, 4])
    return rollout(resume, open_trick(l0, start_led), h2, c2, b2, won2, tables, hstrat, params, policy, work, st,
                   snaps, net)  # fmt: skip
