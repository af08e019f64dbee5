"""Numba kernels: deal, bid, play and score rounds and games on flat integer arrays.

Private to wizsim: the public API (``wizsim.simulate``) validates input, fixes
dtypes, seeds chunks and turns the integer counts returned here into tables.
Every Numba function of wizsim lives in this one file on purpose: Numba's
on-disk cache only notices changes to the file that defines a kernel, so
helpers it inlines must sit in the same file.

Representation
--------------
* A card is its type code, a played card its *form* (``cards.py``: a Juggler
  or Cloud with its named suit, a Shapeshifter with its role); a hand is a
  ``uint64`` mask of the types it holds plus ``cnt[seat, type]`` copies.
* Card properties come from ``table[form, column]``, suit masks from
  ``masks``; rules from the int64 ``rules`` array; strategies from
  ``strat[seat]`` ids and ``params[seat, :]`` rows. A special card is a row
  of the table plus, where a rule looks at the whole trick, a trick flag.
* Random numbers: SplitMix64 streams (state in a 1-element uint64 array; one
  stream deals, another makes the players' random choices), bounded draws by
  Lemire's multiply-shift with rejection (exactly uniform). Each chunk's
  states come from ``SeedSequence(seed, spawn_key=(i,))`` on the Python side,
  so results do not depend on how chunks are spread over workers.

Trick state
-----------
``led`` is -1 while only jester-like cards were played (nothing led yet),
0..3 for a led suit, and ``FREE`` after a leading wizard-like card (anything
may be played). The winner is tracked incrementally with a *power*
(``cards.py``): base power + 200 for trump + 100 for the led suit; a card takes
the trick only with strictly greater power, so the first of equals (the first
Wizard, the first Jester) keeps it. Rules about the whole trick (Fairy beats
Dragon, Bomb, Juggler, Cloud) use flags collected while the trick is played.
"""

from __future__ import annotations

import os
import platform

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._numba_config import inline, kernel

U64 = np.uint64
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(0x100000000)
_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# card table columns (cards.kernel_tables)
T_SUIT = 0
T_RANK = 1
T_CLASS = 2
T_PSUIT = 3
T_BASE_POWER = 4
T_LEADS = 5
T_FLAGS = 6
T_CARD = 7
M_ALWAYS = 6  # masks[M_ALWAYS]: always playable; masks[led + 1]: cards following ``led``
CLASS_SUIT = 0
CLASS_WIZARD = 1
CLASS_JESTER = 2
CLASS_SPECIAL = 3

WIZARD = 52
JESTER = 53
DRAGON = 54
FAIRY = 55
BOMB = 56
WEREWOLF = 57
JUGGLER = 58
CLOUD = 59
SHAPESHIFTER = 60
JUGGLER_AS = 64
CLOUD_AS = 68
SHAPESHIFTER_AS_WIZARD = 72
SHAPESHIFTER_AS_JESTER = 73
FLAG_DRAGON = 1
FLAG_FAIRY = 2
FLAG_BOMB = 4
FLAG_JUGGLER = 8
FLAG_CLOUD = 16
FREE = 4  # a wizard-like card was led: no suit to follow
NO_TRUMP = -1
FROM_INDICATOR = -2  # a round whose trump comes from the indicator (not fixed by the variant)

# rule slots (rules.py)
R_CANADIAN = 0
R_SCORING = 1
R_WIZARD_INDICATOR = 2
R_BOMB = 3  # 0 void_trick, 1 cancel_bids
R_WEREWOLF = 4  # 0 must, 1 may
R_PASSIVE_INDICATOR = 5  # 0 dealer_chooses, 1 no_trump
R_HIDDEN_BIDS = 6  # 0 off, 1 simultaneous, 2 secret
R_ELIMINATION = 7
ELIMINATION_DECK = 60  # elimination counts from the 60 base cards, whatever specials are in (RULES.md 9)
R_CLAIRVOYANCE = 8
R_MONO = 9
R_SPECIALS = 10  # bit i: special card DRAGON + i is in the deck
N_RULE_SLOTS = 12

# preset rounds (the bid advisor): slots of the ``pre_info`` array
PRE_ON = 0
PRE_SEAT = 1
PRE_DEALER = 2
PRE_INDICATOR = 3  # the turned-up card, -1: drawn from the unseen cards
PRE_MASK = 4  # the preset hand's card types as a bit mask
N_PRE = 5

# strategy ids (strategies.py)
S_RANDOM = 0
S_HEURISTIC = 1
S_TABLE = 2  # bids from the learned table, plays like the heuristic (plus T_REFINE)
S_PIMC = 3  # Perfect-Information Monte-Carlo card play and bids

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
H_SPECIAL = 12  # 12..18: expected tricks of Dragon, Fairy, Bomb, Werewolf, Juggler, Cloud, Shapeshifter
# decision overrides (every strategy): 0 the strategy's own rule, 1 random, 2 heuristic
P_BID_SAMPLES = 19  # pimc: sampled deals per bid decision
T_EXPLORE = 20  # table strategy: 1 = bid the heuristic's bid plus a random step of -2..2 (training)
P_SAMPLES = 21  # pimc: sampled deals per card decision
P_ROLLOUT = 22  # pimc: rollout policy, 0 heuristic, 1 random
P_PRUNE = 23  # pimc: drop a candidate this many standard errors worse than the best (0 = never)
P_INFER = 29  # pimc: weight sampled deals by how well they explain the bids (sigma in tricks; 0 = off)
PRUNE_BATCH = 8  # pimc: samples between pruning checks
T_REFINE = 28  # table strategy: bit set of refinements to the heuristic's play (REFINE_*)
REFINE_LEAD_TRUMP = 1  # bid made, on lead: lead the lowest trump that can still lose
REFINE_KEEP_JESTER = 2  # tricks needed, this one lost anyway: shed the lowest side card, keep Jesters
D_TRUMP = 24  # the dealer names trump (Wizard or special indicator)
D_WEREWOLF = 25  # swap the Werewolf (werewolf=may) and name trump
D_FORM = 26  # Juggler/Cloud suit, Shapeshifter role
D_PASS = 27  # the card passed after a Juggler trick

# ``jit``: a compiled function of its own; ``hot``: a helper Numba inlines into
# its callers (a call that passes arrays costs atomic reference-count updates per
# array argument, which dominated the round loop).
jit = kernel
hot = inline


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
def card_power(form, led, trump, table):
    """Trick-taking power of a played ``form`` given the led state and trump (see module doc).

    Branch-free: base power + 200 for trump + 100 for the led suit;
    colourless cards have comparison suit 5, which matches neither.
    """
    ps = table[form, T_PSUIT]
    return table[form, T_BASE_POWER] + 200 * np.int64(ps == trump) + 100 * np.int64(ps == led)


@hot
def led_after(led, form, table):
    """The led state after ``form`` is played onto a trick whose led state is ``led``."""
    return table[form, T_LEADS] if led == -1 else led


@hot
def legal_mask(hand, led, masks):
    """Cards of ``hand`` that may be played: follow the led suit if possible."""
    follow = hand & masks[led + 1]
    return (follow | (hand & masks[M_ALWAYS])) if follow != _ZERO else hand


@hot
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


@hot
def cloud_bid(bid, tricks, k, scoring, cancelled):
    """The bid after a Cloud change: +1 or -1 (0 only goes up), whichever scores more; +1 on a tie."""
    if bid == 0 or cancelled:
        return bid + 1  # cancelled bids score 10 x tricks either way: a tie
    if round_score(bid - 1, tricks, k, scoring) > round_score(bid + 1, tricks, k, scoring):
        return bid - 1
    return bid + 1


@hot
def trick_step(form, player, led, best, winner, tflags, fairy, trump, table):
    """Add one played form to a trick; return the new (led, best, winner, tflags, fairy).

    The engine's play loop and :func:`trick_result` both use this, so the
    tests of one are tests of the other.
    """
    led = led_after(led, form, table)
    pw = card_power(form, led, trump, table)
    better = pw > best
    best = pw if better else best
    winner = player if better else winner
    fl = table[form, T_FLAGS]
    if fl != 0:
        tflags |= fl
        if form == FAIRY:
            fairy = player
    return led, best, winner, tflags, fairy


@hot
def trick_end(winner, tflags, fairy, bomb_voids):
    """(winner or -1 if nobody wins, next leader) of a complete trick.

    Rule order of RULES.md 6: a Bomb voids the trick (the would-be winner
    leads next), a Fairy in the same trick as the Dragon wins, then powers.
    """
    if (tflags & FLAG_DRAGON) != 0 and (tflags & FLAG_FAIRY) != 0:
        winner = fairy
    if bomb_voids and (tflags & FLAG_BOMB) != 0:
        return -1, winner
    return winner, winner


@hot
def _close_trick(winner, tflags, fairy, bomb_voids, cancelled, cloud_taker):
    """A complete trick with special cards in it: (winner or -1, next leader, bids cancelled, Cloud taker)."""
    winner, next_leader = trick_end(winner, tflags, fairy, bomb_voids)
    if (tflags & FLAG_BOMB) != 0 and not bomb_voids:
        cancelled = True
    if (tflags & FLAG_CLOUD) != 0 and winner >= 0:
        cloud_taker = winner
    return winner, next_leader, cancelled, cloud_taker


@hot
def trick_result(forms, count, trump, table, bomb_voids):
    """(winner index or -1 if nobody wins, next leader index) of a complete trick of ``forms``."""
    led = -1
    best = -1
    winner = 0
    tflags = 0
    fairy = -1
    for i in range(count):
        led, best, winner, tflags, fairy = trick_step(forms[i], i, led, best, winner, tflags, fairy, trump, table)
    return trick_end(winner, tflags, fairy, bomb_voids)


@jit
def trick_result_checked(forms, trump, table, bomb_voids):
    """Python-callable :func:`trick_result` (for tests)."""
    return trick_result(forms, forms.shape[0], trump, table, bomb_voids)


@jit
def legal_mask_checked(hand, led, masks):
    """Python-callable :func:`legal_mask` (for tests)."""
    return legal_mask(hand, led, masks)


@jit
def led_after_checked(led, form, table):
    """Python-callable :func:`led_after` (for tests)."""
    return led_after(led, form, table)


@jit
def cloud_bid_checked(bid, tricks, k, scoring, cancelled):
    """Python-callable :func:`cloud_bid` (for tests)."""
    return cloud_bid(bid, tricks, k, scoring, cancelled)


@jit
def round_score_checked(bid, tricks, k, scoring):
    """Python-callable :func:`round_score` (for tests)."""
    return round_score(bid, tricks, k, scoring)


# --------------------------------------------------------------------------- decisions
@hot
def decider(strat, params, p, slot):
    """Who makes decision ``slot`` for seat ``p``: S_RANDOM or S_HEURISTIC (overridable per seat)."""
    kind = np.int64(params[p, slot])
    if kind == 0:
        return S_HEURISTIC if strat[p] != S_RANDOM else S_RANDOM
    return S_RANDOM if kind == 1 else S_HEURISTIC


@hot
def _suit_strength(hand):
    """The suit the hand is strongest in (count plus rank strength), and that strength."""
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
    return best_suit, best


@jit
def _heuristic_estimate(hand, cnt_row, trump, n, k, prm):
    """Expected tricks of a hand, by rule of thumb (parameters in ``prm``)."""
    est = cnt_row[WIZARD] * prm[H_WIZARD]
    special = hand >> U64(DRAGON)
    while special != _ZERO:
        i = np.int64(lowest_bit(special))
        special &= special - _ONE
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
    sure = cnt_row[WIZARD] + ((hand >> U64(DRAGON)) & _ONE)
    for s in range(4):
        if s == trump or trump < 0:
            bits = (hand >> U64(13 * s)) & U64(0x1FFF)
            r = 12
            while r >= 0 and (bits >> U64(r)) & _ONE:
                sure += 1
                r -= 1
    return max(est, np.float64(sure))


@jit
def _mono_estimate(hand, cnt_row, n):
    """Expected tricks in mono (no trump, no following, highest value wins)."""
    est = 0.8 * cnt_row[WIZARD]
    bits = hand & U64((1 << 52) - 1)
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - _ONE
        r = c % 13 + 1
        # the chance that each other player's card in the trick is lower, roughly
        est += ((r - 1) / 14.0) ** (n - 1)
    return est


@hot
def _estimate(hand, cnt_row, trump, n, k, prm, mono):
    """The heuristic's expected tricks of a hand (:func:`_mono_estimate` in mono)."""
    if mono:
        return _mono_estimate(hand, cnt_row, n)
    return _heuristic_estimate(hand, cnt_row, trump, n, k, prm)


@jit
def _clairvoyant_bid(p, n, k, dealer, trump, shown, hands, cnt, deck, table, scoring, work):
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
                if (hands[q] >> U64(c)) & _ONE:
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
            work[j] = _winning_form(own, trump)
        w, _ = trick_result(work, n, trump, table, True)
        if w >= 0 and (dealer + 1 + w) % n == p:
            wins += 1
    pw = wins / total if total > 0 else 0.0
    e0 = (1 - pw) * round_score(0, 0, 1, scoring) + pw * round_score(0, 1, 1, scoring)
    e1 = (1 - pw) * round_score(1, 0, 1, scoring) + pw * round_score(1, 1, 1, scoring)
    return 1 if e1 > e0 else 0


@hot
def _winning_form(card, trump):
    """The form a player plays ``card`` in to win: Juggler/Cloud in trump (or Blue), Shapeshifter as Wizard."""
    if card == JUGGLER:
        return JUGGLER_AS + (trump if trump >= 0 else 0)
    if card == CLOUD:
        return CLOUD_AS + (trump if trump >= 0 else 0)
    if card == SHAPESHIFTER:
        return SHAPESHIFTER_AS_WIZARD
    return card


# The heuristic's card play is a normal (not inlined) call that takes scalars
# only: array arguments would cost reference-count updates on every card, and
# inlining it would crowd the random player's loop. It reads cards by
# arithmetic (code = 13 * suit + rank - 1) and constants for the rest.


@hot
def _static_value(form, trump):
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
def _form_power(form, led, trump):
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
def _is_top(card, hand, seen):
    """True if no unseen card of its suit beats ``card`` (unseen Wizards and ruffs are a risk taken)."""
    if card == WIZARD or card == DRAGON:
        return True
    if card >= 52:
        return False
    suit = card // 13
    above = (U64(0x1FFF) << U64(13 * suit)) & ~((_ONE << U64(card + 1)) - _ONE)
    return (above & ~(hand | seen)) == _ZERO


@hot
def _forms_of(card, led, trump):
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


@jit
def _heuristic_play(hand, legal, need, led, best, n_played, n, trump, seen, tflags, mono, refine):
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
    jester = -1  # a jester-like form to lead when a trick must be lost
    lowest_trump = -1  # REFINE_LEAD_TRUMP: the lowest trump that an unseen trump beats
    lowest_trump_v = 1 << 30
    lowest_plain = -1  # REFINE_KEEP_JESTER: the least valuable side card (no trump, no Jester-like card)
    lowest_plain_v = 1 << 30
    bits = legal
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - _ONE
        if c < 52:  # a plain card (the same decisions as the general code below, with less work)
            suit = c // 13
            rank = c - 13 * suit + 1
            is_trump = suit == trump
            v = 50 + rank if is_trump else rank
            if v < lowest_v:
                lowest_v = v
                lowest = c
            if not is_trump and rank < lowest_side_v:
                lowest_side_v = rank
                lowest_side = c
            if (refine & REFINE_LEAD_TRUMP) != 0 and is_trump and rank < lowest_trump_v:
                if not _is_top(c, hand, seen):
                    lowest_trump_v = rank
                    lowest_trump = c
            if (refine & REFINE_KEEP_JESTER) != 0 and v < 50 and v < lowest_plain_v:
                lowest_plain_v = v
                lowest_plain = c
            p = 4 * rank + 200 * np.int64(is_trump) + 100 * np.int64(led == -1 or suit == led)
            if voided or (n_played > 0 and p <= best):
                if v > highest_lose_v:
                    highest_lose_v = v
                    highest_lose = c
            else:
                if v < cheapest_win_v:
                    cheapest_win_v = v
                    cheapest_win = c
                if v > highest_win_v:
                    highest_win_v = v
                    highest_win = c
                if not mono and v < cheapest_top_v and (n_played == 0 or is_trump or trump < 0):
                    if _is_top(c, hand, seen):
                        cheapest_top_v = v
                        cheapest_top_win = c
            continue
        # special cards (Wizard, Jester, Dragon, ...): the general code
        win_form, lose_form = _forms_of(c, led, trump)
        v_lose = _static_value(lose_form, trump)
        if v_lose < 0 and (jester < 0 or c == JESTER):
            jester = lose_form
        if v_lose < lowest_v:
            lowest_v = v_lose
            lowest = lose_form
        if (refine & REFINE_KEEP_JESTER) != 0 and 0 <= v_lose < 50 and v_lose < lowest_plain_v:
            lowest_plain_v = v_lose  # a Juggler or Cloud in a side suit
            lowest_plain = lose_form
        v = _static_value(win_form, trump)
        p, _ = _form_power(win_form, led, trump)
        if c == DRAGON and (tflags & FLAG_FAIRY) != 0:
            p = -3  # the Fairy already in the trick beats it
        if c == FAIRY and (tflags & FLAG_DRAGON) != 0:
            p = 5000
        if not voided and (n_played == 0 or p > best):
            if c == WIZARD or c == DRAGON or c == SHAPESHIFTER:
                if wizard < 0 or v < _static_value(wizard, trump):
                    wizard = win_form
            if v < cheapest_win_v:
                cheapest_win_v = v
                cheapest_win = win_form
            if v > highest_win_v:
                highest_win_v = v
                highest_win = win_form
        pl, _ = _form_power(lose_form, led, trump)
        if voided or n_played > 0 and (pl <= best or (c == DRAGON and (tflags & FLAG_FAIRY) != 0)):
            if c == FAIRY and (tflags & FLAG_DRAGON) != 0:
                continue  # would win
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
        if lowest_side >= 0 and not (jester >= 0 and _is_top(lowest_side, hand, seen)):
            return lowest_side
        return jester if jester >= 0 else lowest
    if highest_lose >= 0:
        return highest_lose
    # every card wins for now: dump the most dangerous if sure to take it, else the weakest
    if last:
        return highest_win
    return lowest


@hot
def _heuristic_pass(hand, need, trump):
    """The card to pass after a Juggler trick: the one that hurts the bid most to keep."""
    best = -1
    best_v = 0
    bits = hand
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - _ONE
        win_form, _ = _forms_of(c, -1, trump)
        v = _static_value(win_form, trump)
        if c == SHAPESHIFTER or c == BOMB:
            v = 40  # flexible or protective: worth keeping either way
        score = -v if need > 0 else v  # wanting tricks: pass the weakest; else the strongest
        if best < 0 or score > best_v:
            best = c
            best_v = score
    return best


@hot
def random_form(card, st):
    """The form a random player plays ``card`` in: a uniform suit or role where there is a choice."""
    if card < JUGGLER:
        return card
    if card == JUGGLER:
        return JUGGLER_AS + below(st, 4)
    if card == CLOUD:
        return CLOUD_AS + below(st, 4)
    return SHAPESHIFTER_AS_WIZARD + below(st, 2)


# --------------------------------------------------------------------------- cold paths
# Rare events live in normal (not inlined) functions. They take the random
# stream's state as a number and return the new one: if the stream's array
# were passed to a call, the compiler could no longer keep the state in a
# register in the play loop, which costs a third of the engine's speed.


@jit
def _werewolf(n, k, indicator, trump, fixed_trump, rules, strat, params, state, hands, cnt):
    """The Werewolf before the bids: (holder or -1, swapped, trump, card now face up, stream state)."""
    dec_st = np.full(1, state, dtype=np.uint64)
    wolf = -1
    swapped = 0
    shown = indicator
    for p in range(n):
        if (hands[p] >> U64(WEREWOLF)) & _ONE:
            wolf = p
    if wolf >= 0 and fixed_trump == FROM_INDICATOR:
        heur = decider(strat, params, wolf, D_WEREWOLF) == S_HEURISTIC
        if indicator >= 0:
            swapped = 1
            if rules[R_WEREWOLF] != 0 and not heur:
                swapped = below(dec_st, 2)
            if swapped:
                hands[wolf] &= ~(_ONE << U64(WEREWOLF))
                cnt[wolf, WEREWOLF] = 0
                hands[wolf] |= _ONE << U64(indicator)
                cnt[wolf, indicator] += 1
                shown = WEREWOLF
                if heur:
                    trump, strength = _suit_strength(hands[wolf])
                    if strength < 1.5 + 0.25 * k:
                        trump = NO_TRUMP  # no suit worth making trump
                else:
                    trump = below(dec_st, 5) - 1
        # no card turned up (indicator < 0): nothing to swap or name; the Werewolf plays as a Jester (RULES.md 3)
    return wolf, swapped, trump, shown, dec_st[0]


@jit
def _juggler_passes(n, trump, strat, params, state, hands, cnt, bids, won, work):
    """After a Juggler trick everyone passes one card to the left neighbour, all at once.

    ``work`` gets the passed cards; returns the new stream state.
    """
    dec_st = np.full(1, state, dtype=np.uint64)
    for q in range(n):
        if decider(strat, params, q, D_PASS) == S_HEURISTIC:
            work[q] = _heuristic_pass(hands[q], bids[q] - won[q], trump)
        else:
            work[q] = random_member(dec_st, hands[q])
    for q in range(n):
        c = work[q]
        left = cnt[q, c] - 1
        cnt[q, c] = left
        hands[q] &= ~(U64(left == 0) << U64(c))
    for q in range(n):
        c = work[q]
        r = q + 1 if q + 1 < n else 0
        hands[r] |= _ONE << U64(c)
        cnt[r, c] += 1
    return dec_st[0]


@jit
def _deal_mono(n, k, mono_decks, state, hands, cnt):
    """Mono: every seat draws k cards from its own 15; returns the new stream state."""
    deal_st = np.full(1, state, dtype=np.uint64)
    for p in range(n):
        own = mono_decks[p]
        for i in range(k):
            j = i + below(deal_st, own.shape[0] - i)
            t = own[i]
            own[i] = own[j]
            own[j] = t
            c = np.int64(own[i])
            hands[p] |= _ONE << U64(c)
            cnt[p, c] += 1
    return deal_st[0]


@jit
def _deal_preset(n, k, fixed_trump, deck, pre_info, pre_cnt, state, hands, cnt):
    """Advisor deal: the preset seat gets its given cards, the others k each from ``deck``.

    ``deck`` holds only the unseen cards. Returns the indicator (-1: none) and
    the new stream state.
    """
    deal_st = np.full(1, state, dtype=np.uint64)
    target = pre_info[PRE_SEAT]
    d = deck.shape[0]
    mo = (n - 1) * k
    draw_indicator = fixed_trump == FROM_INDICATOR and pre_info[PRE_INDICATOR] == -1 and mo < d
    for i in range(mo + 1 if draw_indicator else mo):
        j = i + below(deal_st, d - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t
    i = 0
    for p in range(n):
        if p == target:
            continue
        for _ in range(k):
            c = np.int64(deck[i])
            i += 1
            hands[p] |= _ONE << U64(c)
            cnt[p, c] += 1
    hands[target] = U64(pre_info[PRE_MASK])
    for c in range(64):
        cnt[target, c] = pre_cnt[c]
    indicator = -1
    if fixed_trump == FROM_INDICATOR:
        indicator = np.int64(deck[mo]) if draw_indicator else pre_info[PRE_INDICATOR]
    return indicator, deal_st[0]


@jit
def _record_hands(n, k, hands, cnt, out):
    """Write each seat's cards (ascending codes, copies repeated) to ``out[seat, :k]``."""
    for p in range(n):
        j = 0
        for c in range(64):
            if (hands[p] >> U64(c)) & _ONE:
                for _ in range(cnt[p, c]):
                    out[p, j] = c
                    j += 1


@jit
def _clear_hands(n, hands, cnt):
    """Empty every hand (a rejected advisor deal leaves cards that were never played)."""
    for p in range(n):
        for c in range(64):
            cnt[p, c] = 0
        hands[p] = _ZERO


@jit
def _table_bid(est, base, n, k, pos, earlier, hidden, forbidden, wizards, tab):
    """The bid with the best learned mean score among ``base - 2 .. base + 2`` (see wizsim.bid_table).

    ``tab[n - 3, k, pos, est_bin, earlier_bin, wizards, step]``: mean score of bidding
    ``base + step - 2``, NaN where the training saw too few rounds; the
    heuristic's ``base`` stands when nothing is known.
    """
    ni = n - 3
    if ni >= tab.shape[0] or k >= tab.shape[1] or pos >= tab.shape[2]:
        return base
    eb = min(max(np.int64(est * 4.0), 0), tab.shape[3] - 1)
    xb = 1
    if not hidden and pos > 0:
        excess = earlier - pos * k / n
        if excess < -0.75:
            xb = 0
        elif excess > 0.75:
            xb = 2
    best = base
    best_v = -np.inf
    for step in range(5):
        b = base + step - 2
        if b < 0 or b > k or b == forbidden:
            continue
        v = tab[ni, k, pos, eb, xb, min(wizards, tab.shape[5] - 1), step]
        if v == v and v > best_v:  # NaN: unknown
            best_v = v
            best = b
    return best


@jit
def heuristic_estimates(rec_hands, ks, trumps, n, prm):
    """The heuristic's bid estimate of every recorded hand (rows x seats), for training the bid table."""
    rows = rec_hands.shape[0]
    out = np.zeros((rows, n), dtype=np.float64)
    cnt = np.zeros(64, dtype=np.int64)
    for r in range(rows):
        k = ks[r]
        for p in range(n):
            hand = _ZERO
            for j in range(k):
                c = np.int64(rec_hands[r, p, j])
                hand |= _ONE << U64(c)
                cnt[c] += 1
            out[r, p] = _heuristic_estimate(hand, cnt, trumps[r], n, k, prm)
            for j in range(k):
                cnt[np.int64(rec_hands[r, p, j])] = 0
    return out


# --------------------------------------------------------------------------- PIMC player
# Perfect-Information Monte-Carlo: at a decision, deal the cards the player
# cannot see in K ways consistent with what it knows (its hand, the cards
# played, the face-up card, the suits others have shown out of, the hand
# sizes), play every candidate out in every deal with a fast rollout policy,
# and take the candidate with the best mean own score (the same deals for
# every candidate).


@jit
def _pimc_pool(p, full, cnt, played, shown):
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
def _copy_counts(mask, src, dst):
    """Copy the counts of the card types in ``mask`` (the others are zero in both: rollouts end with empty hands)."""
    bits = mask
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        dst[c] = src[c]
        bits &= bits - _ONE


@jit
def _sample_world(p, n, pool, sizes, void, known, hands, cnt, wh, wc, st):
    """Deal the unseen cards of ``pool`` to the other seats (``sizes`` each) into ``wh``/``wc``.

    Seats keep out of the suits they showed out of (``void`` bit masks) where
    possible: a shuffle is dealt greedily, retried a few times, and the last
    try ignores voids. ``known[q, c]`` copies of card ``c`` are known to be
    in seat ``q``'s hand (the indicator a Werewolf swapped for, the card
    ``p`` passed after a Juggler trick): they are dealt there first. Seat
    ``p`` keeps its own hand. Returns the new stream state.
    """
    unseen = np.empty(80, dtype=np.int64)
    m = _unseen_cards(pool, known, unseen)
    return _sample_world_into(p, n, unseen, m, sizes, void, known, _known_masks(known), hands, cnt, wh, wc, st,
                              np.empty(80, dtype=np.int64), np.empty(80, dtype=np.bool_), np.empty(1, dtype=np.uint64))  # fmt: skip


@jit
def _known_masks(known):
    """Bit mask of the card types ``known[q]`` places in each seat's hand."""
    out = np.zeros(known.shape[0], dtype=np.uint64)
    for q in range(known.shape[0]):
        for c in range(64):
            if known[q, c] > 0:
                out[q] |= _ONE << U64(c)
    return out


@jit
def _unseen_cards(pool, known, unseen):
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
def _sample_world_into(p, n, unseen, m, sizes, void, known, kmask, hands, cnt, wh, wc, st, cards, used, rng):
    """:func:`_sample_world` with the unseen cards listed (:func:`_unseen_cards`) and work buffers given."""
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
            while bits != _ZERO:
                wc[q, np.int64(lowest_bit(bits))] = 0
                bits &= bits - _ONE
            wh[q] = _ZERO
            if q == p:
                wh[q] = hands[p]
                _copy_counts(hands[p], cnt[p], wc[q])
                continue
            need = sizes[q]
            bits = kmask[q]
            while bits != _ZERO and need > 0:
                c = np.int64(lowest_bit(bits))
                bits &= bits - _ONE
                copies = min(known[q, c], need)
                wh[q] |= _ONE << U64(c)
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
                wh[q] |= _ONE << U64(c)
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
def _save_snapshot(i, n, t, leader, tflags, hands, cnt, won, seen, cancelled, cloud_taker, sn_h, sn_c, sn_i, sn_seen):
    """Save a rollout's state after trick ``t`` as snapshot ``i``: sn_i[i] = t, leader, Juggler pass due,
    cancelled, cloud taker, then the tricks won; only the counts of the cards in hand are copied."""
    for q in range(n):
        sn_h[i, q] = hands[q]
        _copy_counts(hands[q], cnt[q], sn_c[i, q])
        sn_i[i, 5 + q] = won[q]
    sn_i[i, 0] = t
    sn_i[i, 1] = leader
    sn_i[i, 2] = np.int64((tflags & FLAG_JUGGLER) != 0)
    sn_i[i, 3] = np.int64(cancelled)
    sn_i[i, 4] = cloud_taker
    sn_seen[i] = seen


@jit
def _rollout(n, k, t, j, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
             cancelled, cloud_taker, me, table, masks, rules, hstrat, params, policy, mono, work, st,
             snap_lo, snap_hi, sn_h, sn_c, sn_i, sn_seen):  # fmt: skip
    """Play the round out from the middle of trick ``t`` (``j`` cards down); return (``me``'s score, state).

    Everybody plays like the heuristic (``policy`` 0), at random (1) or like
    the ``table`` player (2: the heuristic with both refinements), Juggler
    passes included; the hands are the sampled world's and change.
    The state at the end of the trick where ``me``'s tricks reach ``v``,
    ``snap_lo <= v < snap_hi``, is saved to snapshot ``v`` before any Juggler
    passes (see :func:`_save_snapshot`); ``snap_hi = 0``: no snapshots.
    """
    rng = np.full(1, st, dtype=np.uint64)
    refine = REFINE_LEAD_TRUMP | REFINE_KEEP_JESTER if policy == 2 else 0
    bomb_voids = rules[R_BOMB] == 0
    start_led = FREE if mono else -1
    while t < k:
        while j < n:
            p = leader + j
            if p >= n:
                p -= n
            legal = legal_mask(hands[p], led, masks)
            if (legal & (legal - _ONE)) == _ZERO and legal < (_ONE << U64(JUGGLER)):
                f = np.int64(lowest_bit(legal))  # forced: one plain card
            elif policy != 1:
                need = bids[p] - won[p]
                if cancelled:
                    need = k
                f = _heuristic_play(hands[p], legal, need, led, best, j, n, trump, seen, tflags, mono, refine)
            else:
                f = random_member(rng, legal)
                if f >= JUGGLER:
                    f = random_form(f, rng)
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            seen |= _ONE << U64(c)
            left = cnt[p, c] - 1
            cnt[p, c] = left
            hands[p] &= ~(U64(left == 0) << U64(c))
            led, best, winner, tflags, fairy = trick_step(f, p, led, best, winner, tflags, fairy, trump, table)
            j += 1
        next_leader = winner
        if tflags != 0:
            winner, next_leader, cancelled, cloud_taker = _close_trick(
                winner, tflags, fairy, bomb_voids, cancelled, cloud_taker
            )
        if winner >= 0:
            won[winner] += 1
            if snap_hi > 0 and winner == me and snap_lo <= won[me] < snap_hi:
                _save_snapshot(won[me], n, t, next_leader, tflags, hands, cnt, won, seen, cancelled,
                               cloud_taker, sn_h, sn_c, sn_i, sn_seen)  # fmt: skip
        leader = next_leader
        if (tflags & FLAG_JUGGLER) != 0 and t < k - 1:
            rng[0] = _juggler_passes(n, trump, hstrat, params, rng[0], hands, cnt, bids, won, work)
        t += 1
        j = 0
        led = start_led
        best = -1
        winner = leader
        tflags = 0
        fairy = -1
    if snap_hi > 0:  # how the round ended (last row), for the bids never reached
        sn_i[sn_i.shape[0] - 1, 3] = np.int64(cancelled)
        sn_i[sn_i.shape[0] - 1, 4] = cloud_taker
    if cancelled:
        return 10 * won[me], rng[0]
    bid = bids[me]
    if cloud_taker == me:
        bid = cloud_bid(bid, won[me], k, rules[R_SCORING], cancelled)
    return round_score(bid, won[me], k, rules[R_SCORING]), rng[0]


@jit
def _prune(total, alive, scores, s, z):
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
def _world_bids(p, n, k, trump, wh, wc, spmask, spwiz, bids, seats, visible, sigma, mono, prm, tmp, out):
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
        e = _estimate(wh[q] | spmask[q], tmp, trump, n, k, prm, mono)
        if visible:
            d = bids[q] - e
            w *= np.exp(-d * d / (2.0 * sigma * sigma))
        else:
            out[q] = min(max(np.int64(np.floor(e + 0.5)), 0), k)
    if not visible or sigma <= 0:
        return 1
    return 1 + np.int64(w * 63.0)


@jit
def _pimc_play(p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
               cancelled, cloud_taker, full, played, void, shown, known, spmask, spwiz, table, masks, rules,
               params, mono, st):  # fmt: skip
    """The form PIMC plays at seat ``p`` (more than one legal card); returns (form, stream state).

    ``known[q, c]``: copies of card ``c`` that ``p`` knows are in seat ``q``'s
    hand; ``spmask``/``spwiz``: the cards (and Wizards) each seat has played
    this round, for :func:`_world_bids`.
    """
    samples = max(np.int64(params[p, P_SAMPLES]), 1)
    policy = np.int64(params[p, P_ROLLOUT])
    legal = legal_mask(hands[p], led, masks)
    cands = np.empty(2 * 64, dtype=np.int64)
    nc = 0
    bits = legal
    held_or_gone = hands[p] | seen
    prev = -1
    while bits != _ZERO:
        c = np.int64(lowest_bit(bits))
        bits &= bits - _ONE
        if c < 52 and prev >= 0 and prev // 13 == c // 13:
            between = ((_ONE << U64(c)) - _ONE) & ~((_ONE << U64(prev + 1)) - _ONE)
            if (between & ~held_or_gone) == _ZERO:
                prev = c  # the same as the lower card: every card between is held or gone
                continue
        prev = c if c < 52 else -1
        win_form, lose_form = _forms_of(c, led, trump)
        cands[nc] = win_form
        nc += 1
        if lose_form != win_form:
            cands[nc] = lose_form
            nc += 1
    if nc == 1:
        return cands[0], st  # the legal cards are all equivalent
    pool = _pimc_pool(p, full, cnt, played, shown)
    unseen = np.empty(80, dtype=np.int64)
    m_unseen = _unseen_cards(pool, known, unseen)
    kmask = _known_masks(known)
    cards_buf = np.empty(80, dtype=np.int64)
    used_buf = np.empty(80, dtype=np.bool_)
    rng_buf = np.empty(1, dtype=np.uint64)
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
    prune = params[p, P_PRUNE]
    alive = np.ones(nc, dtype=np.bool_)
    scores = np.zeros((nc, samples if prune > 0 else 1), dtype=np.int64)
    for s in range(samples):
        if prune > 0 and s > 0 and s % PRUNE_BATCH == 0:
            if _prune(total, alive, scores, s, prune) == 1:
                break  # the decision is made: the other candidates are significantly worse
        st = _sample_world_into(p, n, unseen, m_unseen, sizes, void, known, kmask, hands, cnt, wh, wc, st,
                                cards_buf, used_buf, rng_buf)  # fmt: skip
        weight = 1
        if model:
            weight = _world_bids(
                p, n, k, trump, wh, wc, spmask, spwiz, bids, (1 << n) - 1, visible, sigma, mono, params[p], tmp, wbids
            )
        for ci in range(nc):
            if not alive[ci]:
                continue
            f = cands[ci]
            for q in range(n):
                h2[q] = wh[q]
                won2[q] = won[q]
                _copy_counts(wh[q], wc[q], c2[q])
            c = table[f, T_CARD] if f >= JUGGLER_AS else f
            left = c2[p, c] - 1
            c2[p, c] = left
            h2[p] &= ~(U64(left == 0) << U64(c))
            l2, b2, w2, tf2, fa2 = trick_step(f, p, led, best, winner, tflags, fairy, trump, table)
            score, st = _rollout(
                n, k, t, j + 1, leader, l2, b2, w2, tf2, fa2, trump, h2, c2, wbids, won2, seen | (_ONE << U64(c)),
                cancelled, cloud_taker, p, table, masks, rules, hstrat, params, policy, mono, work, st,
                0, 0, sn_h, sn_c, sn_i, sn_seen,
            )  # fmt: skip
            score *= weight
            total[ci] += score
            if prune > 0:
                scores[ci, s] = score
    best_ci = -1
    for ci in range(nc):
        if alive[ci] and (best_ci < 0 or total[ci] > total[best_ci]):
            best_ci = ci
    return cands[best_ci], st


@jit
def _pimc_bid(p, n, k, dealer, trump, hands, cnt, bids, full, shown, known, base, forbidden,
              table, masks, rules, params, mono, st):  # fmt: skip
    """PIMC's bid: the best mean own score over sampled deals, for bids base - 2 .. base + 2; (bid, state).

    In each sampled deal the players after ``p`` (every other player under
    hidden bids) bid the heuristic's estimate of their sampled hands and
    everyone plays with the rollout policy. With ``infer`` on, the deals are
    weighted by how well they explain the earlier bids (:func:`_world_bids`).
    ``known`` as for :func:`_pimc_play`.

    With heuristic rollouts that draw no random numbers, a bid only matters
    to play once it is reached (the heuristic asks only whether it still
    needs tricks), so one rollout with the highest bid serves every lower bid
    until ``p`` has taken that many tricks: lower bids resume from a snapshot
    taken then, and bids never reached score that rollout's tricks directly.
    The results are exactly those of a separate rollout per bid.
    """
    samples = max(np.int64(params[p, P_BID_SAMPLES]), 1)
    policy = np.int64(params[p, P_ROLLOUT])
    prune = params[p, P_PRUNE]
    scoring = rules[R_SCORING]
    shared = policy != 1  # the heuristic's play, refined or not, depends on the bid only through need > 0
    for q in range(n):
        if params[q, D_PASS] == 1:
            shared = False  # a random Juggler pass draws numbers: keep one rollout per bid
    played = np.zeros(64, dtype=np.int64)
    void = np.zeros(n, dtype=np.int64)
    pool = _pimc_pool(p, full, cnt, played, shown)
    unseen = np.empty(80, dtype=np.int64)
    m_unseen = _unseen_cards(pool, known, unseen)
    kmask = _known_masks(known)
    cards_buf = np.empty(80, dtype=np.int64)
    used_buf = np.empty(80, dtype=np.bool_)
    rng_buf = np.empty(1, dtype=np.uint64)
    hidden = rules[R_HIDDEN_BIDS] != 0  # the earlier bids are not seen when bidding
    sigma = params[p, P_INFER]
    earlier = 0  # bit mask of the seats that bid before p
    q = dealer + 1 if dealer + 1 < n else 0
    while q != p:
        earlier |= 1 << q
        q = q + 1 if q + 1 < n else 0
    nothing_played = np.zeros(n, dtype=np.uint64)
    no_wizards = np.zeros(n, dtype=np.int64)
    tmp = np.zeros(64, dtype=np.int64)
    scratch = np.zeros(n, dtype=np.int64)
    sizes = np.full(n, k, dtype=np.int64)
    hstrat = np.full(n, S_HEURISTIC, dtype=np.int64)
    lo = max(base - 2, 0)
    hi = min(base + 2, k)
    nb = hi - lo + 1
    total = np.zeros(nb, dtype=np.int64)
    alive = np.ones(nb, dtype=np.bool_)
    if 0 <= forbidden - lo < nb:
        alive[forbidden - lo] = False
        total[forbidden - lo] = -(1 << 40)
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
    fin_won = 0
    fin_cancel = False
    fin_cloud = -1
    leader = dealer + 1 if dealer + 1 < n else 0
    start_led = FREE if mono else -1
    scores = np.zeros((nb, samples if prune > 0 else 1), dtype=np.int64)
    for s in range(samples):
        if prune > 0 and s > 0 and s % PRUNE_BATCH == 0:
            if _prune(total, alive, scores, s, prune) == 1:
                break  # the decision is made: the other bids are significantly worse
        st = _sample_world_into(p, n, unseen, m_unseen, sizes, void, known, kmask, hands, cnt, wh, wc, st,
                                cards_buf, used_buf, rng_buf)  # fmt: skip
        weight = 1
        if sigma > 0 and not hidden:
            weight = _world_bids(
                p,
                n,
                k,
                trump,
                wh,
                wc,
                nothing_played,
                no_wizards,
                bids,
                earlier,
                True,
                sigma,
                mono,
                params[p],
                tmp,
                scratch,
            )
        # the others' bids: as made before p; the heuristic's estimate of the sampled hand after p
        passed = not hidden
        q = dealer
        for _i in range(n):
            q = q + 1 if q + 1 < n else 0
            if q == p:
                passed = False
            elif passed:
                b2[q] = bids[q]
            else:
                # the others are modelled with the player's own heuristic parameters
                e = _estimate(wh[q], wc[q], trump, n, k, params[p], mono)
                b2[q] = min(max(np.int64(np.floor(e + 0.5)), 0), k)
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
                i = b
                if b > 0 and sn_i[i, 0] < 0:  # p never took b tricks: the top bid's play, scored for b
                    if fin_cancel:
                        score = 10 * fin_won
                    else:
                        bid = b
                        if fin_cloud == p:
                            bid = cloud_bid(bid, fin_won, k, scoring, fin_cancel)
                        score = round_score(bid, fin_won, k, scoring)
                    score *= weight
                    total[b - lo] += score
                    if prune > 0:
                        scores[b - lo, s] = score
                    continue
                if b > 0:  # resume after the trick where p took its b-th trick
                    for q in range(n):
                        h2[q] = sn_h[i, q]
                        won2[q] = sn_i[i, 5 + q]
                        _copy_counts(sn_h[i, q], sn_c[i, q], c2[q])
                    t0 = sn_i[i, 0]
                    l0 = sn_i[i, 1]
                    if sn_i[i, 2] != 0 and t0 < k - 1:
                        st = _juggler_passes(n, trump, hstrat, params, st, h2, c2, b2, won2, work)
                    score, st = _rollout(
                        n, k, t0 + 1, 0, l0, start_led, -1, l0, 0, -1, trump, h2, c2, b2, won2, sn_seen[i],
                        sn_i[i, 3] != 0, sn_i[i, 4], p, table, masks, rules, hstrat, params, policy, mono, work, st,
                        0, 0, sn_h, sn_c, sn_i, sn_seen,
                    )  # fmt: skip
                    score *= weight
                    total[b - lo] += score
                    if prune > 0:
                        scores[b - lo, s] = score
                    continue
            for q in range(n):
                h2[q] = wh[q]
                won2[q] = 0
                _copy_counts(wh[q], wc[q], c2[q])
            snap_lo = max(lo, 1)
            snap_hi = 0
            if shared and b == top:
                snap_hi = top
                for i in range(k + 1):
                    sn_i[i, 0] = -1  # not reached (yet)
            score, st = _rollout(
                n, k, 0, 0, leader, start_led, -1, leader, 0, -1, trump, h2, c2, b2, won2, _ZERO, False, -1, p,
                table, masks, rules, hstrat, params, policy, mono, work, st,
                snap_lo, snap_hi, sn_h, sn_c, sn_i, sn_seen,
            )  # fmt: skip
            score *= weight
            total[b - lo] += score
            if prune > 0:
                scores[b - lo, s] = score
            if snap_hi > 0:
                fin_won = won2[p]
                fin_cancel = sn_i[k + 1, 3] != 0
                fin_cloud = sn_i[k + 1, 4]
    best = -1
    for b in range(lo, hi + 1):
        if alive[b - lo] and (best < 0 or total[b - lo] > total[best - lo]):
            best = b
    return best, st


# --------------------------------------------------------------------------- one round
@hot
def play_round(
    n,
    k,
    dealer,
    fixed_trump,
    clairvoyant,
    deck,
    mono_decks,
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
    final_bids,
    scores,
    work,
    record,
    rec_row,
    rec_hands,
    rec_info,
    rec_plays,
    rec_legal,
    rec_pass,
    pre,
):
    """Deal, bid, play and score one round of ``n`` players (seats 0..n-1 here); return False if rejected.

    Results land in ``bids``, ``won``, ``final_bids`` and ``scores``. Dealing
    draws from ``deal_st`` and every decision from ``dec_st``, so the same seed
    deals the same cards whatever the players do (common random numbers).
    ``fixed_trump`` is the trump a variant fixes (Maximus), or FROM_INDICATOR;
    ``clairvoyant`` makes bidders see the other hands and not their own;
    with ``rules[R_MONO]`` every seat draws from its own 15 cards in
    ``mono_decks[seat]``. When ``record`` is true everything that happens is
    written to row ``rec_row`` of the ``rec_*`` arrays (histories and tests).

    ``pre`` = (info, cnt, bids, bid_table): the last is the ``table``
    strategy's learned values (:func:`_table_bid`); the others preset a round
    for the bid advisor when
    ``info[PRE_ON]`` is set: seat ``info[PRE_SEAT]`` holds the cards counted in
    ``cnt`` (mask ``info[PRE_MASK]``), the others are dealt from ``deck``
    (the unseen cards), the indicator is ``info[PRE_INDICATOR]`` (or drawn
    from ``deck`` if -1). ``bids[p] >= 0`` forces the preset seat's bid, and
    for the other seats is a bid already made: the round is rejected (False,
    nothing scored) as soon as that seat's player would bid otherwise.
    """
    pre_info, pre_cnt, pre_bids, _, played, void, full, know, spmask, spwiz = pre
    preset = pre_info[PRE_ON] != 0
    track = False
    for p in range(n):
        track |= strat[p] == S_PIMC
    mono = rules[R_MONO] != 0
    d = deck.shape[0]
    m = n * k
    for p in range(n):
        hands[p] = _ZERO
        won[p] = 0
    indicator = -1
    if preset:
        indicator, deal_st[0] = _deal_preset(n, k, fixed_trump, deck, pre_info, pre_cnt, deal_st[0], hands, cnt)
        if record:
            _record_hands(n, k, hands, cnt, rec_hands[rec_row])
    elif mono:
        deal_st[0] = _deal_mono(n, k, mono_decks, deal_st[0], hands, cnt)
        if record:
            for p in range(n):
                for i in range(k):
                    rec_hands[rec_row, p, i] = mono_decks[p, i]
    else:
        # partial Fisher-Yates over m + 1 places: m cards go round the table, the next is turned up
        for i in range(m + 1 if m < d else m):
            j = i + below(deal_st, d - i)
            t = deck[i]
            deck[i] = deck[j]
            deck[j] = t
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
    if not preset and not mono and m < d and fixed_trump == FROM_INDICATOR:
        indicator = np.int64(deck[m])
    # trump (RULES.md 3)
    trump = NO_TRUMP if fixed_trump == FROM_INDICATOR else fixed_trump
    if indicator >= 0:
        cls = table[indicator, T_CLASS]
        if cls == CLASS_SUIT:
            trump = table[indicator, T_SUIT]
        elif cls != CLASS_JESTER:
            names = cls == CLASS_SPECIAL or rules[R_WIZARD_INDICATOR] == 0
            if rules[R_PASSIVE_INDICATOR] != 0 and (indicator == FAIRY or indicator == BOMB):
                names = False
            if names:
                if decider(strat, params, dealer, D_TRUMP) == S_HEURISTIC:
                    trump, _ = _suit_strength(hands[dealer])
                else:
                    trump = below(dec_st, 4)
    # the Werewolf: its holder swaps it for the indicator and names trump
    wolf = -1
    swapped = 0
    shown = indicator
    if (rules[R_SPECIALS] >> (WEREWOLF - DRAGON)) & 1:
        wolf, swapped, trump, shown, dec_st[0] = _werewolf(
            n, k, indicator, trump, fixed_trump, rules, strat, params, dec_st[0], hands, cnt
        )
    if track:
        # PIMC's view of the round (before the bids: PIMC bids by sampling too)
        for c in range(64):
            played[c] = 0
            full[c] = 0
        for q in range(n):
            void[q] = 0
            spmask[q] = _ZERO
            spwiz[q] = 0
            for o in range(n):
                for c in range(64):
                    know[o, q, c] = 0
        if mono:  # the cards in play are the seats' own 15
            for q in range(n):
                for i in range(mono_decks.shape[1]):
                    full[np.int64(mono_decks[q, i])] += 1
        else:
            for i in range(d):
                full[np.int64(deck[i])] += 1
        if preset:  # the advisor's deck holds only the unseen cards
            for c in range(64):
                full[c] += pre_cnt[c]
            if pre_info[PRE_INDICATOR] >= 0:
                full[pre_info[PRE_INDICATOR]] += 1
        if swapped:  # everyone saw the Werewolf's holder take the indicator
            for o in range(n):
                if o != wolf:
                    know[o, wolf, indicator] += 1
    # bidding, from the dealer's left (hidden bids: nobody sees the earlier bids;
    # the built-in players never look at them, so only the Canadian rule reads bid_sum)
    bid_sum = 0
    p = dealer
    for i in range(n):
        p += 1
        if p == n:
            p = 0
        forbidden = -1
        if rules[R_CANADIAN] != 0 and i == n - 1:
            forbidden = k - bid_sum
        if strat[p] != S_RANDOM:
            if clairvoyant:
                b = _clairvoyant_bid(p, n, k, dealer, trump, shown, hands, cnt, deck, table, rules[R_SCORING], work)
                est = np.float64(b)
            else:
                est = _estimate(hands[p], cnt[p], trump, n, k, params[p], mono)
                b = np.int64(np.floor(est + 0.5))
            if b < 0:
                b = 0
            if b > k:
                b = k
            if (strat[p] == S_TABLE or strat[p] == S_PIMC) and not clairvoyant and not mono:
                if strat[p] == S_TABLE and params[p, T_EXPLORE] > 0:
                    b = min(max(b + below(dec_st, 5) - 2, 0), k)
                else:
                    b = _table_bid(
                        est, b, n, k, i, bid_sum, rules[R_HIDDEN_BIDS] != 0, forbidden, cnt[p, WIZARD], pre[3]
                    )
            if strat[p] == S_PIMC and not clairvoyant and params[p, P_BID_SAMPLES] > 0:
                b, dec_st[0] = _pimc_bid(
                    p, n, k, dealer, trump, hands, cnt, bids, full, shown, know[p], b,
                    forbidden, table, masks, rules, params, mono, dec_st[0],
                )  # fmt: skip
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
        if preset and pre_bids[p] >= 0:
            if p == pre_info[PRE_SEAT]:
                b = pre_bids[p]
            elif b != pre_bids[p]:
                _clear_hands(n, hands, cnt)
                return False
        bids[p] = b
        bid_sum += b
    # play
    leader = dealer + 1
    if leader == n:
        leader = 0
    seen = _ZERO
    bomb_voids = rules[R_BOMB] == 0
    cancelled = False  # bomb=cancel_bids and the Bomb was played
    cloud_taker = -1
    start_led = FREE if mono else -1  # mono: no suit to follow, no led-suit bonus
    for t in range(k):
        led = start_led
        best = -1
        winner = leader
        tflags = 0
        fairy = -1
        p = leader - 1
        for j in range(n):
            p += 1
            if p == n:
                p = 0
            legal = legal_mask(hands[p], led, masks)
            if strat[p] != S_RANDOM:
                need = bids[p] - won[p]
                if cancelled:
                    need = k  # bids no longer count: every trick is 10 points
                if strat[p] == S_PIMC and (legal & (legal - _ONE)) != _ZERO:
                    f, dec_st[0] = _pimc_play(
                        p, t, j, n, k, leader, led, best, winner, tflags, fairy, trump, hands, cnt, bids, won, seen,
                        cancelled, cloud_taker, full, played, void, shown, know[p], spmask, spwiz, table,
                        masks, rules, params, mono, dec_st[0],
                    )  # fmt: skip
                else:
                    refine = np.int64(params[p, T_REFINE]) if strat[p] == S_TABLE else 0
                    f = _heuristic_play(hands[p], legal, need, led, best, j, n, trump, seen, tflags, mono, refine)
                if f >= JUGGLER_AS and decider(strat, params, p, D_FORM) == S_RANDOM:
                    f = random_form(table[f, T_CARD], dec_st)
                c = f
            else:
                c = random_member(dec_st, legal)
                f = c
                if c >= JUGGLER:
                    if decider(strat, params, p, D_FORM) == S_RANDOM:
                        f = random_form(c, dec_st)
                    else:
                        f, _ = _forms_of(c, led, trump)  # heuristic choice: the winning form
            if f >= JUGGLER_AS:
                c = table[f, T_CARD]
            if record:
                rec_plays[rec_row, t, j] = f
                rec_legal[rec_row, t, j] = legal
            seen |= _ONE << U64(c)
            left = cnt[p, c] - 1
            cnt[p, c] = left
            hands[p] &= ~(U64(left == 0) << U64(c))
            if track:
                played[c] += 1
                spmask[p] |= _ONE << U64(c)
                spwiz[p] += np.int64(c == WIZARD)
                for o in range(n):
                    if know[o, p, c] > 0:
                        know[o, p, c] -= 1
                if c < 52 and 0 <= led < 4 and c // 13 != led:
                    void[p] |= np.int64(1) << led  # did not follow: out of the led suit
            led, best, winner, tflags, fairy = trick_step(f, p, led, best, winner, tflags, fairy, trump, table)
        next_leader = winner
        if tflags != 0:
            winner, next_leader, cancelled, cloud_taker = _close_trick(
                winner, tflags, fairy, bomb_voids, cancelled, cloud_taker
            )
        if record:
            rec_info[rec_row, 8 + t] = leader
            rec_info[rec_row, 8 + rec_plays.shape[1] + t] = winner
            rec_info[rec_row, 8 + 2 * rec_plays.shape[1] + t] = next_leader
        if winner >= 0:
            won[winner] += 1
        leader = next_leader
        if (tflags & FLAG_JUGGLER) != 0 and t < k - 1:
            dec_st[0] = _juggler_passes(n, trump, strat, params, dec_st[0], hands, cnt, bids, won, work)
            if track:
                # Seat q passed a card only its receiver q + 1 saw: the receiver updates exactly; the others
                # can no longer be sure of anything they knew q held (which card left is q's hidden choice).
                # Then each seat knows where its own card went. A seat may again hold a suit it showed out
                # of, so the voids are forgotten too.
                for q in range(n):
                    r = q + 1 if q + 1 < n else 0
                    for o in range(n):
                        if o == r:
                            if know[o, q, work[q]] > 0:
                                know[o, q, work[q]] -= 1
                        else:
                            for c in range(64):
                                know[o, q, c] = 0
                    void[q] = 0
                for o in range(n):
                    know[o, o + 1 if o + 1 < n else 0, work[o]] += 1
            if record:
                for q in range(n):
                    rec_pass[rec_row, t, q] = work[q]
    for p in range(n):
        final_bids[p] = bids[p]
    if cloud_taker >= 0:
        final_bids[cloud_taker] = cloud_bid(bids[cloud_taker], won[cloud_taker], k, rules[R_SCORING], cancelled)
    for p in range(n):
        if cancelled:
            scores[p] = 10 * won[p]
        else:
            scores[p] = round_score(final_bids[p], won[p], k, rules[R_SCORING])
    if record:
        rec_info[rec_row, 0] = dealer
        rec_info[rec_row, 1] = k
        rec_info[rec_row, 2] = indicator
        rec_info[rec_row, 3] = trump
        rec_info[rec_row, 4] = wolf
        rec_info[rec_row, 5] = swapped
        rec_info[rec_row, 6] = n
    return True


# --------------------------------------------------------------------------- games and chunks
@hot
def play_item(
    item,
    n,
    schedule,
    trumps,
    games_mode,
    deck,
    mono_decks,
    table,
    masks,
    rules,
    strat,
    params,
    deal_st,
    dec_st,
    ws,
    accumulate,
    acc,
    record,
    row,
    rec,
    pre,
):
    """Play item ``item``: one round (hands mode) or one game (games mode); return the next record row.

    ``ws`` is the tuple of work arrays, ``acc`` the accumulators (joint, aux,
    game_acc) and ``rec`` the record arrays (tuples keep calls under CPython's
    30-argument limit for plain calls, which Numba needs to inline them).

    Hands mode: item ``h`` is dealt by seat ``h % n``. Games mode: seat 0 deals
    first, the deal passes clockwise; with elimination the lowest total leaves
    whenever the next round could not be dealt to everyone left (ties broken
    by the decision stream), and seats keep their numbers in the counts.
    """
    ws_seats, ws_strat, ws_params, hands, cnt, bids, won, final_bids, scores, totals, work = ws
    joint, aux, game_acc = acc
    rec_hands, rec_info, rec_plays, rec_legal, rec_pass, rec_seats = rec
    na = n
    for i in range(n):
        ws_seats[i] = i
        totals[i] = 0
    # the round's strategies: the game's until an elimination makes compact copies
    cur_strat = strat
    cur_params = params
    dealer = item % n if games_mode == 0 else 0
    if pre[0][PRE_ON] != 0:
        dealer = pre[0][PRE_DEALER]
    for r in range(schedule.shape[0]):
        k = schedule[r]
        clairvoyant = rules[R_CLAIRVOYANCE] != 0 and (r == 0 or games_mode == 0)
        accepted = play_round(
            na, k, dealer, trumps[r], clairvoyant, deck, mono_decks, table, masks, rules, cur_strat, cur_params,
            deal_st, dec_st, hands, cnt, bids, won, final_bids, scores, work,
            record, row, rec_hands, rec_info, rec_plays, rec_legal, rec_pass, pre,
        )  # fmt: skip
        if not accepted:
            return row  # a preset (advisor) round whose earlier bids did not match: hands mode only
        if accumulate:
            pos = na - 1 - dealer  # position of compact seat 0: 0 = left of the dealer
            for i in range(na):
                if pos == na:
                    pos = 0
                seat = ws_seats[i]
                joint[k, seat, pos, bids[i], won[i]] += 1
                sc = scores[i]
                miss = abs(final_bids[i] - won[i])
                aux[k, seat, pos, 0] += sc
                aux[k, seat, pos, 1] += sc * sc
                aux[k, seat, pos, 2] += np.int64(miss == 0)
                aux[k, seat, pos, 3] += miss
                aux[k, seat, pos, 4] += miss * miss
                pos += 1
        for i in range(na):
            totals[ws_seats[i]] += scores[i]
        if record:
            for i in range(n):
                rec_seats[row, i] = ws_seats[i] if i < na else -1
            kmax = rec_plays.shape[1]
            base = 8 + 3 * kmax
            for i in range(na):
                rec_info[row, base + i] = bids[i]
                rec_info[row, base + n + i] = won[i]
                rec_info[row, base + 2 * n + i] = scores[i]
                rec_info[row, base + 3 * n + i] = final_bids[i]
            row += 1
        dealer += 1
        if dealer == na:
            dealer = 0
        if (
            rules[R_ELIMINATION] != 0
            and r + 1 < schedule.shape[0]
            and na > 3
            and na * schedule[r + 1] > ELIMINATION_DECK
        ):
            low = totals[ws_seats[0]]
            for i in range(1, na):
                low = min(low, totals[ws_seats[i]])
            n_low = 0
            for i in range(na):
                n_low += np.int64(totals[ws_seats[i]] == low)
            pick = below(dec_st, n_low) if n_low > 1 else 0
            out = -1
            for i in range(na):
                if totals[ws_seats[i]] == low:
                    if pick == 0:
                        out = i
                        break
                    pick -= 1
            # the deal passes on from the last dealer to the next player still in
            if out < dealer:
                dealer -= 1
            elif out == dealer and dealer == na - 1:
                dealer = 0
            for i in range(out, na - 1):
                ws_seats[i] = ws_seats[i + 1]
            na -= 1
            for i in range(na):
                ws_strat[i] = strat[ws_seats[i]]
                for j in range(params.shape[1]):
                    ws_params[i, j] = params[ws_seats[i], j]
            cur_strat = ws_strat
            cur_params = ws_params
    if games_mode != 0 and accumulate:
        # the winner: highest total among the players still in; equal totals share the win
        top = totals[ws_seats[0]]
        for i in range(1, na):
            top = max(top, totals[ws_seats[i]])
        n_top = 0
        for i in range(na):
            n_top += np.int64(totals[ws_seats[i]] == top)
        for p in range(n):
            game_acc[0, p] += totals[p]
            game_acc[1, p] += totals[p] * totals[p]
        for i in range(na):
            if totals[ws_seats[i]] == top:
                game_acc[2, ws_seats[i]] += 60 // n_top
                game_acc[3, ws_seats[i]] += (60 // n_top) * (60 // n_top)
    return row


@jit
def play_items(
    n, schedule, trumps, games_mode, first, count, state, deck0, mono0, table, masks, rules, strat, params,
    pre, accumulate, acc, record, rec,
):  # fmt: skip
    """Play items ``first .. first + count - 1`` (see :func:`play_item`) from generator ``state``.

    One call per chunk. Both kernels below call this one compiled function
    (their dummy arrays have the real ones' types), so it is compiled once;
    the round is inlined into its loop. The work arrays are allocated here, not
    passed in: the compiler then knows they do not overlap and keeps their
    values in registers across stores, which doubles the speed of the loop.
    """
    deal_st = state[0:1].copy()
    dec_st = state[1:2].copy()
    deck = deck0.copy()
    mono_decks = mono0.copy()
    ws = (
        np.zeros(n, dtype=np.int64),  # seats of the round (elimination)
        np.zeros(n, dtype=np.int64),  # their strategies
        np.zeros_like(params),  # and parameters
        np.zeros(n, dtype=np.uint64),  # hands
        np.zeros((n, 64), dtype=np.int64),  # copies of each card in hand
        np.zeros(n, dtype=np.int64),  # bids
        np.zeros(n, dtype=np.int64),  # tricks won
        np.zeros(n, dtype=np.int64),  # final bids
        np.zeros(n, dtype=np.int64),  # scores
        np.zeros(n, dtype=np.int64),  # game totals by game seat
        np.zeros(max(n, 8), dtype=np.int64),  # scratch
    )
    # PIMC's view of the round: cards played, suits each seat showed out of
    pre = (
        pre[0],
        pre[1],
        pre[2],
        pre[3],
        np.zeros(64, dtype=np.int64),  # cards played
        np.zeros(n, dtype=np.int64),  # suits shown out of
        np.zeros(64, dtype=np.int64),  # the whole deck in play, by card type
        np.zeros((n, n, 64), dtype=np.int64),  # know[o, q, c]: copies of c that seat o knows q holds
        np.zeros(n, dtype=np.uint64),  # cards each seat has played this round
        np.zeros(n, dtype=np.int64),  # Wizards each seat has played this round
    )
    row = 0
    for item in range(first, first + count):
        row = play_item(
            item, n, schedule, trumps, games_mode, deck, mono_decks, table, masks, rules, strat, params,
            deal_st, dec_st, ws, accumulate, acc, record, row, rec, pre,
        )  # fmt: skip


@jit
def simulate_chunks(
    n,
    schedule,
    trumps,
    games_mode,
    chunk_first,
    chunk_count,
    chunk_state,
    deck0,
    mono0,
    table,
    masks,
    rules,
    strat,
    params,
    pre_info,
    pre_cnt,
    pre_bids,
    bid_table,
    joint,
    aux,
    game_acc,
):
    """Play whole chunks and add their integer counts to the accumulators.

    Chunk ``c`` covers items ``chunk_first[c] .. + chunk_count[c] - 1`` (rounds
    in hands mode, games in games mode) and draws from the streams seeded by
    ``chunk_state[c]`` (dealing, decisions). Round ``r`` of an item deals
    ``schedule[r]`` cards with trump ``trumps[r]`` (FROM_INDICATOR unless a
    variant fixes it).

    ``pre_info``, ``pre_cnt``, ``pre_bids`` preset each round for the bid
    advisor (see :func:`play_round`; ``pre_info[PRE_ON] == 0``: off);
    ``bid_table`` is the ``table`` strategy's learned bid values (see
    :func:`_table_bid`; an all-ones-shape NaN array when no seat needs it).

    Accumulators: ``joint[k, seat, position, bid, tricks]`` (the bid as made);
    ``aux[k, seat, position, :]``: sum and sum of squares of scores, exact
    (final) bids, sum and sum of squares of |final bid - tricks|; in games mode
    ``game_acc[row, seat]``: sum of totals, sum of squared totals, win shares
    in 60ths (a win shared by m tied players counts 60 / m) and their squares.
    """
    acc = (joint, aux, game_acc)
    dummy_p = np.zeros((1, 1, 1), dtype=np.int64)
    dummy_i = np.zeros((1, 1), dtype=np.int64)
    rec = (
        np.zeros((1, 1, 1), dtype=np.uint8),
        dummy_i,
        dummy_p,
        np.zeros((1, 1, 1), dtype=np.uint64),
        dummy_p,
        dummy_i,
    )
    yes = n > 0  # a run-time True: a literal flag would give play_items a second signature to compile
    for c in range(chunk_first.shape[0]):
        play_items(
            n, schedule, trumps, games_mode, chunk_first[c], chunk_count[c], chunk_state[c], deck0, mono0, table,
            masks, rules, strat, params, (pre_info, pre_cnt, pre_bids, bid_table), yes, acc, not yes, rec,
        )  # fmt: skip


@jit
def record_chunk(
    n,
    schedule,
    trumps,
    games_mode,
    first,
    count,
    state,
    deck0,
    mono0,
    table,
    masks,
    rules,
    strat,
    params,
    pre_info,
    pre_cnt,
    pre_bids,
    bid_table,
    rec_hands,
    rec_info,
    rec_plays,
    rec_legal,
    rec_pass,
    rec_seats,
):
    """Play one chunk like :func:`simulate_chunks` and record every round.

    Row ``r`` of ``rec_info`` holds dealer, k, indicator, trump, Werewolf
    holder (-1 none), whether it was swapped, players in the round, then from
    8 the leader, from 8 + kmax the winner (-1: bombed) and from 8 + 2 kmax the
    next leader of each trick, then from 8 + 3 kmax bids, tricks won, scores
    and final bids of each seat of the round. ``rec_seats`` maps the round's
    seats to the game's (they differ after an elimination); ``rec_pass[r, t]``
    the card each seat passed after trick ``t`` (-1 if none).
    """
    acc = (
        np.zeros((1, 1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1, 1, 1), dtype=np.int64),
        np.zeros((1, 1), dtype=np.int64),
    )
    rec = (rec_hands, rec_info, rec_plays, rec_legal, rec_pass, rec_seats)
    yes = n > 0  # run-time flags: the same play_items signature as simulate_chunks
    play_items(
        n, schedule, trumps, games_mode, first, count, state, deck0, mono0, table, masks, rules, strat, params,
        (pre_info, pre_cnt, pre_bids, bid_table), not yes, acc, yes, rec,
    )  # fmt: skip
