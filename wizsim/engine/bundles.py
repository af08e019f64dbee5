"""The bundles the kernels pass around, each a named tuple defined once here.

Numba compiles a named tuple as it compiles a plain tuple: a field is read by
name at compile time (``view.played``), which costs nothing at run time, and
a bundle of arrays can be borrowed as a whole (:func:`.jit.borrow.borrow`). So no
engine code reads a bundle by position, and each bundle is built in one place:

* :class:`Schedule`, :class:`Chunks` by :class:`wizsim.run.spec.RunSpec`;
* :class:`Setup`, :class:`Players` and :class:`Tables` by
  :meth:`wizsim.run.spec.RunSpec.kernel_args` (the chunk's own copy in :func:`.run.play_items`);
* :class:`Streams` and :class:`Outputs` in :mod:`.run`;
* :class:`Seats` and :class:`GameSeats` in :func:`.run.play_items`;
* :class:`Preset`, :class:`Models` and :class:`Switches` by ``kernel_args``;
* :class:`View` (or :class:`NoView`) in :func:`.players.pimc_view.new_view`;
* :class:`Net` by :func:`new_net` (the engine and a direct call of pimc alike);
* :class:`Records` and :class:`Accumulators` in :mod:`.run`;
* :class:`Trick` by :func:`.game.trick.open_trick` and :func:`.game.trick.trick_step`;
* :class:`Turn` where a seat decides (the round, pimc, the play advisor); :class:`Snapshots` in pimc's bids.

docs/architecture.md lists every bundle with its fields; tests/test_bundles.py
checks that list against the classes below.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .jit.config import hot

#: a run's rounds: the hand size of each round of an item, its trump (``FROM_INDICATOR`` or fixed by the variant or
#: the standard table's last round), and 1 for whole games (0: every item is one round)
Schedule = namedtuple("Schedule", "sizes trumps games")
#: a run's chunks: the first item of each, how many items, and the two stream states (dealing, decisions) it starts from
Chunks = namedtuple("Chunks", "first count state")
#: what every round of a run reads and none changes: the :class:`Tables`, the :class:`Preset`, the :class:`Models`
#: and the :class:`Switches`
Setup = namedtuple("Setup", "tables pre models feats")
#: who sits where: each seat's strategy id (``S_*``, the registry's position) and float64 parameter row (blocks in
#: :mod:`.layout`)
Players = namedtuple("Players", "strat params")
#: the random streams of a chunk, one-element arrays on the stack: dealing, and every decision (so the same seed deals
#: the same cards whatever the players do)
Streams = namedtuple("Streams", "deal dec")
#: what a chunk writes: whether it adds counts to ``acc`` (:class:`Accumulators`), whether it records every round in
#: ``rec`` (:class:`Records`)
Outputs = namedtuple("Outputs", "accumulate acc record rec")
#: what every round reads: the deck in play (shuffled in place), mono's own decks (one row per seat), the card
#: table (``C_*`` columns, one row per form), the suit masks (``M_*``) and the rule array (``R_*`` slots)
Tables = namedtuple("Tables", "deck mono_decks table masks rules")
#: the round's state per seat: hands (64-bit masks of card types), copies of each card held (``cnt[p, c]``),
#: bids, tricks won, final bids (after the Cloud), scores, and a scratch array (Juggler passes)
Seats = namedtuple("Seats", "hands cnt bids won final_bids scores work")
#: a game's seats: each round seat's game seat (they differ after an elimination), the round seats' strategies
#: and parameter rows (compact copies after an elimination), the game totals by game seat, and the :class:`Seats`
GameSeats = namedtuple("GameSeats", "game_seat strat params totals seats")
#: a preset round (the bid advisor): ``info`` (``PRE_*`` slots; ``info[PRE_ON] == 0``: off), the copies of each
#: unseen card, the bids given for the seats before the advised one (-1: free); ``script``: the decisions of
#: external seats (``X_*`` slots, then their actions; ``script[X_ON] == 0``: none, :mod:`.external`)
Preset = namedtuple("Preset", "info cnt bids script")
#: the learned parts of the players: the ``table`` player's bid values, the learned player's card network
#: (``card_w1``, ``card_b1``, ``card_w2``) and bid network (``bid_w1``...), each stacked over the network generations
#: (first axis: generation g at g - 1; a seat reads the slice its ``gen`` slot names), and the logs of pimc's card and bid
#: decisions for training it (zero rows: off) with their counters
Models = namedtuple(
    "Models", "bid_table card_w1 card_b1 card_w2 card_log card_log_n bid_w1 bid_b1 bid_w2 bid_log bid_log_n"
)
#: compile-time switches (:mod:`.players.switches`): one-element arrays, bool (that part is not compiled) or int8;
#: ``rules``: the run's bid-rule functions and their feature buffer, or a bool array without rule seats;
#: ``external``: some seats decide outside the engine (:mod:`.external`)
Switches = namedtuple("Switches", "pimc heuristic specials learned view_kept rules external")
#: the run's user rules: ``N_BID_RULES`` compiled bid-rule functions and their feature buffer (:mod:`.players.rule`),
#: ``N_PLAY_RULES`` compiled play-rule functions and their situation buffer (:mod:`.players.play_rule`)
BidRules = namedtuple("BidRules", "functions features play_functions play_ctx")
#: what pimc and learned seats know of the round (:mod:`.players.pimc_view`): copies of each card played, the
#: suits each seat showed out of (bit masks), the deck in play by card type, ``know[o, q, c]`` (copies of card c
#: that seat o knows seat q holds), the cards and Wizards each seat played, and the learned player's scratch
View = namedtuple("View", "played void full know spmask spwiz work_i work_f")
#: the stand-in for :class:`View` when no seat plays pimc or learned: the view hooks compile to nothing
NoView = namedtuple("NoView", "off")
#: what the learned card player reads (``w1``, ``b1``, ``w2``: one generation's network; the round's own Net holds
#: every generation stacked and each decision slices its seat's) (:func:`.players.learned.learned_play`; pimc's learned rollouts keep their own
#: copies of the cards played and the voids here): the card network, its scratch, cards played, voids, the deck
Net = namedtuple("Net", "w1 b1 w2 work_i work_f played void full")
#: the recorded rounds (rows; columns in :mod:`.layout`): dealt hands, ``info`` (``I_*``), forms played, legal
#: masks, the cards passed after Juggler tricks, and the game seat of each round seat
Records = namedtuple("Records", "hands info plays legal passes seats")
#: the integer counts a run adds up (:mod:`.run`): ``joint[k, seat, position, bid, tricks]``,
#: ``aux[k, seat, position, A_*]`` and ``games[G_*, seat]``
Accumulators = namedtuple("Accumulators", "joint aux games")
#: a trick in play: the seat that led it, the led state (a suit, ``FREE``, or -1 before the first card), the best
#: power so far, the seat that has it, the ``FLAG_*`` bits raised by the cards, the seat that played the Fairy
#: (-1: none)
Trick = namedtuple("Trick", "leader led best winner flags fairy")
#: a card decision's place in the round, as every seat sees it: the seat to play, the trick number, the cards
#: already in the trick, the players, the round size, trump (-1: none), the face-up card (-1: none), the cards
#: played so far this round (a mask), whether a Bomb cancelled the bids, and the Cloud's taker (-1: none)
Turn = namedtuple("Turn", "p t j n k trump shown seen cancelled cloud_taker")
#: a bid's place in the round: the seat to bid, how many bid before it, the players, the round size, the dealer,
#: trump (-1: none), the face-up card (-1: none), the sum of the earlier bids, the Canadian rule's forbidden bid
#: (-1: none)
BidTurn = namedtuple("BidTurn", "p i n k dealer trump shown bid_sum forbidden")
#: a network's weights (the learned player's training, :mod:`.players.learned_fit`): input rows, hidden biases,
#: output weights; also Adagrad's sums of squared gradients of each
Weights = namedtuple("Weights", "w1 b1 w2")
#: the decisions a network is fitted to: each decision's state feature indices and their count, where its
#: candidates start, each candidate's feature indices and their count, and each candidate's target advantage
FitData = namedtuple("FitData", "sidx sn cstart cidx cn adv")
#: pimc's deal sampler at a decision (:func:`.players.pimc.new_sampler`): the unseen cards listed, how many, the
#: cards each seat is known to hold (masks), and the work buffers of a shuffle (cards, used flags, the stream)
Sampler = namedtuple("Sampler", "unseen m kmask cards used rng")
#: pimc's bid rollouts: the state at the end of the trick where the bidder reaches v tricks, for
#: ``lo <= v < hi`` (hands, counts, ``info`` rows, cards seen; :func:`.players.pimc.save_snapshot`), ``hi = 0``: none
Snapshots = namedtuple("Snapshots", "hands cnt info seen lo hi")

#: the tables of ``wizsim.env.VecWizardEnv`` between two steps (:mod:`.vec`), row ``i`` for table ``i``: its script
#: header (``X_*``: notes and the pending decision), the seats' hands, copies, bids, tricks, final bids, scores and
#: scratch, its deck, its random streams and masks (``S_*``), its phase and round values (``V_*``), the trick in
#: play (:class:`Trick`'s fields), the hands kept before Juggler passes, and the round's game seats, totals and
#: (unused) outputs that the round's functions take
VecState = namedtuple(
    "VecState",
    "hdr hands cnt bids won final_bids scores work decks streams ints trick snap_hands snap_cnt gseats totals out",
)

BUNDLES = (Schedule, Chunks, Setup, Players, Streams, Outputs, Tables, Seats, GameSeats, Preset, Models, Switches, BidRules, View, NoView, Net, Records, Accumulators, Trick, Turn,
           BidTurn, Sampler, Snapshots, Weights, FitData, VecState)  # fmt: skip


def is_no_view(view) -> bool:
    """True for the Numba type of :class:`NoView` (the view hooks' overloads compile to nothing for it)."""
    return getattr(view, "instance_class", None) is NoView


@hot
def new_net(w1, b1, w2, work_i, work_f, full, n):
    """The :class:`Net` of a decision: the card network, the learned player's scratch, fresh copies of the cards
    played and the voids (a rollout's own), the deck in play. The engine and a direct call from Python (through
    ``new_net.py_func``) build it here alike."""
    return Net(w1, b1, w2, work_i, work_f, np.zeros(64, dtype=np.int64), np.zeros(n, dtype=np.int64), full)
