"""The engine's layout: the only copy of every number the kernels and the Python layer share.

Plain Python integers, no Numba: the Python layer (``cards``, ``rules``,
``strategies``, ``history``, analyses, tests) imports them from here, and the
kernels read them as compile-time constants. Changing one changes the engine's
machine code; the cache fingerprint (:mod:`wizsim.engine.config`) covers this
file like every other engine file.

Contents: card codes and played forms, card-table columns and trick flags,
rule slots, preset-round slots, strategy ids, per-player parameter blocks,
and the columns of recorded rounds.
"""

from __future__ import annotations

# --------------------------------------------------------------------------- cards and forms
# 0-51 suit cards (13 * suit + rank - 1; suits Blue, Red, Green, Yellow), then:
WIZARD = 52
JESTER = 53
DRAGON = 54
FAIRY = 55
BOMB = 56
WEREWOLF = 57
JUGGLER = 58
CLOUD = 59
SHAPESHIFTER = 60
SPECIAL_NAMES: tuple[str, ...] = ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter")
FIRST_SPECIAL = DRAGON
N_SPECIALS = len(SPECIAL_NAMES)
N_TYPES = FIRST_SPECIAL + N_SPECIALS  # 61 card types; a hand is a 64-bit mask of them
# played forms: below 64 a form is its card; a Juggler/Cloud carries its named suit, a Shapeshifter its role
JUGGLER_AS = 64  # + suit
CLOUD_AS = 68  # + suit
SHAPESHIFTER_AS_WIZARD = 72
SHAPESHIFTER_AS_JESTER = 73
N_FORMS = 80
BASE_DECK_SIZE = 60  # 52 suit cards, 4 Wizards, 4 Jesters

# --------------------------------------------------------------------------- card table (cards.kernel_tables)
T_SUIT = 0  # suit 0-3, -1 colourless
T_RANK = 1
T_CLASS = 2  # CLASS_*
T_PSUIT = 3  # suit a form counts in for trump/led comparisons (NO_SUIT: none)
T_BASE_POWER = 4  # power before the trump (+200) and led-suit (+100) bonuses
T_LEADS = 5  # led state the form sets on an open trick
T_FLAGS = 6  # FLAG_* bits the form raises
T_CARD = 7  # the hand card a form comes from
N_TABLE_COLUMNS = 8
M_ALWAYS = 6  # masks[M_ALWAYS]: always playable; masks[led + 1]: cards that follow ``led``
CLASS_SUIT = 0
CLASS_WIZARD = 1
CLASS_JESTER = 2
CLASS_SPECIAL = 3
NO_SUIT = 5
FREE = 4  # led state after a leading wizard-like card: nothing to follow
FLAG_DRAGON = 1
FLAG_FAIRY = 2
FLAG_BOMB = 4
FLAG_JUGGLER = 8
FLAG_CLOUD = 16

# --------------------------------------------------------------------------- trump of a round
NO_TRUMP = -1  # also: a round fixed without trump (no card turned up)
FROM_INDICATOR = -2  # the round's trump comes from the turned-up card

# --------------------------------------------------------------------------- rule slots (rules.Rules.to_array)
R_CANADIAN = 0
R_SCORING = 1  # 0 standard, 1 progressive
R_WIZARD_INDICATOR = 2  # 0 dealer_chooses, 1 no_trump
R_BOMB = 3  # 0 void_trick, 1 cancel_bids
R_WEREWOLF = 4  # 0 must, 1 may
R_PASSIVE_INDICATOR = 5  # 0 dealer_chooses, 1 no_trump
R_HIDDEN_BIDS = 6  # 0 off, 1 simultaneous, 2 secret
R_ELIMINATION = 7
R_CLAIRVOYANCE = 8
R_MONO = 9
R_SPECIALS = 10  # bit i: special card FIRST_SPECIAL + i is in the deck
N_RULE_SLOTS = 12
ELIMINATION_DECK = 60  # elimination counts from the 60 base cards, whatever specials are in (RULES.md 9)

# --------------------------------------------------------------------------- preset rounds (the bid advisor)
PRE_ON = 0
PRE_SEAT = 1
PRE_DEALER = 2
PRE_INDICATOR = 3  # the turned-up card, -1: drawn from the unseen cards
PRE_MASK = 4  # the preset hand's card types as a bit mask
N_PRE = 5

# --------------------------------------------------------------------------- players
S_RANDOM = 0
S_HEURISTIC = 1
S_TABLE = 2  # bids from the learned table, plays like the heuristic (plus T_REFINE)
S_PIMC = 3  # Perfect-Information Monte-Carlo card play and bids
S_LEARNED = 4  # card play by a network fitted to pimc's values (players/learned.py); bids like S_TABLE

# A seat's float64 parameter row is a sequence of blocks; each block's slots
# follow the previous block's, so a block can grow without moving another.
# heuristic (every strategy but random reads it)
H_WIZARD = 0  # expected tricks of a Wizard
H_TRUMP_TOP = 1  # expected tricks of the trump 13
H_TRUMP_SLOPE = 2  # loss per rank below 13 for trumps
H_TRUMP_FLOOR = 3  # least value of a trump
H_SIDE_ACE = 4  # expected tricks of an off-suit 13 in a short round with 3 players
H_SIDE_DROP = 5  # value ratio per rank below 13 off-suit
H_PLAYER_DECAY = 6  # multiplicative loss per extra player for side cards
H_LENGTH_DECAY = 7  # multiplicative loss per card in the round for side cards
H_RUFF = 8  # value of a void/singleton side suit when holding spare trumps
H_BID_SHIFT = 9  # added to the estimate before rounding
H_NT_ACE = 10  # expected tricks of a 13 in a no-trump round with 3 players
H_SIDE_SECOND = 11  # value ratio of each further card held in the same side suit
H_SPECIAL = 12  # H_SPECIAL + i: expected tricks of special card FIRST_SPECIAL + i
H_END = H_SPECIAL + N_SPECIALS
# decision overrides (every strategy): 0 the strategy's own rule, 1 random, 2 heuristic
D_TRUMP = H_END + 0  # the dealer names trump (Wizard or special indicator)
D_WEREWOLF = H_END + 1  # swap the Werewolf (werewolf=may) and name trump
D_FORM = H_END + 2  # Juggler/Cloud suit, Shapeshifter role
D_PASS = H_END + 3  # the card passed after a Juggler trick
D_END = H_END + 4
DECIDE_OWN = 0  # decision kinds (engine/players/decisions.py)
DECIDE_RANDOM = 1
DECIDE_HEURISTIC = 2
# table player
T_EXPLORE = D_END + 0  # 1 = bid the heuristic's bid plus a random step of -2..2 (training)
T_REFINE = D_END + 1  # bit set of refinements to the heuristic's play (REFINE_*)
T_END = D_END + 2
REFINE_LEAD_TRUMP = 1  # bid made, on lead: lead the lowest trump that can still lose
REFINE_KEEP_JESTER = 2  # tricks needed, this one lost anyway: shed the lowest side card, keep Jesters
# pimc player
P_SAMPLES = T_END + 0  # sampled deals per card decision
P_BID_SAMPLES = T_END + 1  # sampled deals per bid decision
P_ROLLOUT = T_END + 2  # rollout policy: ROLLOUT_* below
P_PRUNE = T_END + 3  # drop a candidate this many standard errors worse than the best (0 = never)
P_INFER = T_END + 4  # weight sampled deals by how well they explain the bids (sigma in tricks; 0 = off)
P_KIND = T_END + 5  # every seat: its strategy id (S_*), written by Strategy.param_row (pimc's rollout=4)
P_END = T_END + 6
# a user's bid rule (wizsim.bid_rules): the seat bids by rule function B_RULE - 1 of the run (0: no rule)
B_RULE = P_END + 0
B_NEEDS = P_END + 1  # what the rule reads beyond the hand: NEEDS_* bits (the estimate costs a pow per card)
B_END = P_END + 2
NEEDS_ESTIMATE = 1  # estimate, heuristic_bid
NEEDS_TABLE = 2  # table_bid (and the estimate it starts from)
N_PARAMS = B_END
N_BID_RULES = 6  # bid-rule functions a run passes (one per seat at most; unused slots repeat the first)
PRUNE_BATCH = 8  # pimc: samples between pruning checks
# pimc's rollout policies (``params[seat, P_ROLLOUT]``): how every seat plays in a rollout
ROLLOUT_HEURISTIC = 0
ROLLOUT_RANDOM = 1
ROLLOUT_TABLE = 2  # the heuristic with both of the table player's refinements
ROLLOUT_LEARNED = 3  # the learned player's network (the heuristic's card without the network file)
ROLLOUT_SEATS = 4  # each seat as its own strategy plays (pimc and learned seats by the network)

# --------------------------------------------------------------------------- a bid rule's features
# The float64 vector a user's bid rule reads (wizsim.bid_rules names and documents each slot).
F_CARDS = 0
F_PLAYERS = 1
F_POSITION = 2  # 0 = first bidder (the dealer's left), players - 1 = the dealer
F_FIRST = 3
F_LAST = 4
F_BIDS_BEFORE = 5  # sum of the earlier bids (0 under hidden bids)
F_BIDS_SEEN = 6
F_FORBIDDEN = 7  # the Canadian rule's forbidden bid, -1: none
F_NO_TRUMP = 8
F_TRUMP_NAMED = 9  # the trump suit was named (Wizard or special indicator, Werewolf), not turned up
F_WIZARDS = 10
F_JESTERS = 11
F_TRUMPS = 12
F_SIDE_ACES = 13
F_SIDE_KINGS = 14
F_SIDE_QUEENS = 15
F_LONGEST_SIDE = 16
F_SHORTEST_SIDE = 17
F_SIDE_VOIDS = 18
F_SIDE_SINGLETONS = 19
F_SIDE_DOUBLETONS = 20
F_ESTIMATE = 21
F_HEURISTIC_BID = 22
F_TABLE_BID = 23
F_SPECIAL = 24  # + i: copies of special card FIRST_SPECIAL + i held
F_TRUMPS_ABOVE = F_SPECIAL + N_SPECIALS - 1  # + r (1..12): trumps of rank above r
F_SIDE_ABOVE = F_TRUMPS_ABOVE + 12  # + r (1..12): side-suit cards of rank above r
N_FEATURES = F_SIDE_ABOVE + 13

# --------------------------------------------------------------------------- the counts a run adds up (engine/run.py)
# ``aux[k, seat, position, AUX_*]``: sums over the rounds of round size k played at that seat and position
AUX_SCORE = 0
AUX_SCORE_SQ = 1
AUX_HIT = 2  # final bid made exactly
AUX_MISS = 3  # |final bid - tricks|
AUX_MISS_SQ = 4
N_AUX = 5
# ``games[G_*, seat]``: sums over the games
G_TOTAL = 0
G_TOTAL_SQ = 1
G_WINS = 2  # win shares in units of WIN_SHARE (a win shared by m tied players counts WIN_SHARE // m)
G_WINS_SQ = 3
N_GAME_COLUMNS = 4
WIN_SHARE = 60  # divisible by every tie of 1..6 players

# --------------------------------------------------------------------------- recorded rounds
# ``info[row]`` of a recorded round (see wizsim.records.RoundRecords, which names these for the Python layer):
I_DEALER = 0
I_CARDS = 1  # k
I_INDICATOR = 2  # -1: none
I_TRUMP = 3  # -1: no trump
I_WEREWOLF = 4  # the Werewolf's holder, -1: not dealt
I_SWAPPED = 5
I_PLAYERS = 6  # players in the round (elimination: fewer than the game's)
I_TRICKS = 8  # then per trick t < kmax: leader at I_TRICKS + t, winner (-1 bombed) + kmax, next leader + 2 kmax


def info_seats(kmax: int) -> int:
    """First per-seat column of ``info``: bids, tricks won, scores, final bids, ``n`` columns each."""
    return I_TRICKS + 3 * kmax


def info_width(players: int, kmax: int) -> int:
    """Columns of ``info`` for a game of ``players`` and rounds of at most ``kmax`` cards."""
    return info_seats(kmax) + 4 * players
