"""The engine's layout: the only copy of every number the kernels and the Python layer share.

Plain Python integers, no Numba: the Python layer (``cards``, ``rules``,
``strategies``, ``history``, analyses, tests) imports them from here, and the
kernels read them as compile-time constants. Changing one changes the engine's
machine code; the cache fingerprint (:mod:`wizsim.engine.jit.config`) covers this
file like every other engine file.

Contents: card codes and played forms, card-table columns and trick flags,
rule slots, preset-round slots, strategy ids, per-player parameter blocks,
and the columns of recorded rounds.
"""

from __future__ import annotations

from typing import NamedTuple

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
PRE_FIXED = 5  # 1: every hand is given (``Tables.deck`` holds them seat by seat, k each, then the stock), no shuffle
N_PRE = 6

# --------------------------------------------------------------------------- decisions made outside the engine
# (engine/external.py; wizsim.env): ``Preset.script``, one int64 array: these header slots, then the actions of the
# external seats in the order the round asks for them. A replay plays the actions given; at the first decision past
# them it records what that decision is (``X_KIND``...) and finishes the round with stand-in choices, which the
# caller discards.
X_ON = 0  # 1: some seats are external (``params[seat, SEAT_EXTERNAL]``: which)
X_ASK = 1  # round seat + 1 whose own player takes the first decision past the script (0: none); it lands in X_ANSWER
X_LEN = 2  # actions given
X_CURSOR = 3  # actions read so far (the caller sets 0)
X_KIND = 4  # the pending decision's kind (DK_*), 0: none (every external decision of the replay was given)
X_SEAT = 5  # its seat
X_LEGAL = 6  # its legal actions as bits: bids 0..k, cards (types), suits, Werewolf codes, cards to pass
X_TRICK = 7  # the trick number (card and pass decisions), else -1
X_POS = 8  # the card's place in the trick (0: leads), or the bid's place in the bidding
X_TRUMP = 9  # the trump so far (NO_TRUMP before it is decided)
X_SHOWN = 10  # the face-up card (-1: none)
X_LEADER = 11  # the current trick's leader (card decisions), else -1
X_FORBIDDEN = 12  # the Canadian rule's forbidden bid, -1: none
X_CNT = 13  # + 64 * seat + card type: copies of each card in each seat's hand (seats 0..5)
X_BIDS = X_CNT + 6 * 64  # + seat: the bids made so far (-1: not yet)
X_WON = X_BIDS + 6  # + seat: tricks won so far
X_ANSWER = X_WON + 6  # the asked seat's decision (X_ASK), as the engine action of its kind
# The engine calls a function instead of stopping (a Python agent at the table, wizsim.env.seated): its address,
# 0 = replay. It takes no arguments and returns the engine action; it reads the decision from the slots above.
X_CALLBACK = X_ANSWER + 1
# Notes on the round so far, kept while no decision is pending (what an observation shows; 0-based round seats).
X_ITEM = X_CALLBACK + 1  # the item (round or game) of the run
X_ROUND = X_ITEM + 1  # the round's number in the item (0 first)
X_NA = X_ROUND + 1  # players in the round
X_CARDS = X_NA + 1  # cards dealt to each
X_DEALER = X_CARDS + 1  # the dealer (round seat)
X_INDICATOR = X_DEALER + 1  # the card turned up at the deal, -1 none
X_WOLF = X_INDICATOR + 1  # the Werewolf's holder (round seat) after the trump phase, -1 none
X_SWAPPED = X_WOLF + 1  # 1: the Werewolf was swapped for the turned-up card
X_GSEATS = X_SWAPPED + 1  # + round seat: its game seat
X_TOTALS = X_GSEATS + 6  # + game seat: its game total before this round
X_MAX_TRICKS = 24  # at least the largest round (3 players, 60 cards and every special: 22)
X_LEADERS = X_TOTALS + 6  # + trick: its leader (round seat), -1 not started
X_PLAYS = X_LEADERS + X_MAX_TRICKS  # + 6 * trick + place from the leader: the form played, -1 none
X_PASSES = X_PLAYS + 6 * X_MAX_TRICKS  # + 6 * trick + round seat: the card passed after that trick, -1 none
X_BAD = X_PASSES + 6 * X_MAX_TRICKS  # 1 + the index of the first given action that was not legal there, 0: none
X_ACTIONS = X_BAD + 1  # the actions given start here
DK_BID = 1
DK_CARD = 2  # a form (a flexible card in the suit or role it is played as)
DK_TRUMP = 3  # the dealer names trump after a Wizard or special card is turned up: a suit 0..3
DK_WEREWOLF = 4  # the Werewolf's holder: WOLF_KEEP, or WOLF_SWAP + 1 + trump (trump -1..3)
DK_PASS = 5  # the card type passed after a Juggler trick
WOLF_KEEP = 0  # decline the swap (werewolf=may)
WOLF_SWAP = 1  # swap and name trump -1 (no trump) .. 3: code WOLF_SWAP + 1 + trump

# --------------------------------------------------------------------------- players
# pimc's rollout policies (``params[seat, P_ROLLOUT]``): how every seat plays in a rollout
ROLLOUT_HEURISTIC = 0
ROLLOUT_RANDOM = 1
ROLLOUT_TABLE = 2  # the heuristic with both of the table player's refinements
ROLLOUT_LEARNED = 3  # the learned player's network (the heuristic's card without the network file)
ROLLOUT_SEATS = 4  # each seat as its own strategy plays (pimc and learned seats by the network)


# The registry of built-in players, one line each (a :class:`Player`): its name; a seat's strategy id
# (``strat[seat]``, ``S_*``) is the line's position; how pimc's ROLLOUT_SEATS rollouts play its seats; the names of
# its own parameter slots. engine/players/<name>.py plays it (its ``bid`` and ``card``, called from
# engine/players/seats.py), wizsim/players/<name>.py validates its parameters (docs/architecture.md, "Add a player").
class Player(NamedTuple):
    """A registry line: a built-in player's name, its rollout policy and its own parameter slots."""

    name: str
    rollout: int
    params: tuple[str, ...] = ()


REGISTRY = (
    Player("random", ROLLOUT_RANDOM),
    Player("heuristic", ROLLOUT_HEURISTIC),  # its parameters are shared: every player but random reads them
    Player("table", ROLLOUT_TABLE, ("explore", "refine")),  # learned bid table; the heuristic's play + refinements
    Player("pimc", ROLLOUT_LEARNED, ("samples", "bid_samples", "rollout", "prune", "infer", "kind", "gen")),
    Player("learned", ROLLOUT_LEARNED, ("gen",)),  # networks fitted to pimc's values (engine/players/learned.py)
)
PLAYERS = tuple(player.name for player in REGISTRY)
ROLLOUT_OF = tuple(player.rollout for player in REGISTRY)  # by strategy id
S_RANDOM = PLAYERS.index("random")
S_HEURISTIC = PLAYERS.index("heuristic")
S_TABLE = PLAYERS.index("table")
S_PIMC = PLAYERS.index("pimc")
S_LEARNED = PLAYERS.index("learned")

# A seat's float64 parameter row (``params[seat]``) is a sequence of named blocks, numbered here and not by hand:
# the two shared blocks first (the heuristic's, which every player but random reads, and the decision overrides,
# which every player reads), then each registered player's own slots in registry order, then a user's bid rule.
HEURISTIC_SLOTS = (
    "wizard",  # expected tricks of a Wizard
    "trump_top",  # expected tricks of the trump 13
    "trump_slope",  # loss per rank below 13 for trumps
    "trump_floor",  # least value of a trump
    "side_ace",  # expected tricks of an off-suit 13 in a short round with 3 players
    "side_drop",  # value ratio per rank below 13 off-suit
    "player_decay",  # multiplicative loss per extra player for side cards
    "length_decay",  # multiplicative loss per card in the round for side cards
    "ruff",  # value of a void/singleton side suit when holding spare trumps
    "bid_shift",  # added to the estimate before rounding
    "nt_ace",  # expected tricks of a 13 in a no-trump round with 3 players
    "side_second",  # value ratio of each further card held in the same side suit
    *(name.lower() for name in SPECIAL_NAMES),  # expected tricks of special card FIRST_SPECIAL + i
)
# decision overrides: 0 the strategy's own rule, 1 random, 2 heuristic (DECIDE_*)
DECISION_SLOTS = (
    "trump",  # the dealer names trump (Wizard or special indicator)
    "swap",  # swap the Werewolf (werewolf=may) and name trump
    "form",  # Juggler/Cloud suit, Shapeshifter role
    "pass",  # the card passed after a Juggler trick
)
# a user's bid rule (wizsim.players.bid_rules): the seat bids by rule function B_RULE - 1 of the run (0: no rule)
RULE_SLOTS = (
    "rule",
    "needs",  # what the rule reads beyond the hand: NEEDS_* bits (the estimate costs a pow per card)
    "play",  # a user's play rule (wizsim.players.play_rules): play-rule function play - 1 of the run (0: none)
    "play_needs",  # what the play rule reads beyond the trick and the hand: PLAY_NEEDS_* bits
)
# the seat itself, whatever plays it: 1 = an external seat, whose decisions come from Preset.script (external.py)
SEAT_SLOTS = ("external",)
PARAM_BLOCKS = (
    ("heuristic", HEURISTIC_SLOTS),
    ("decision", DECISION_SLOTS),
    *((player.name, player.params) for player in REGISTRY if player.params),
    ("rule", RULE_SLOTS),
    ("seat", SEAT_SLOTS),
)


def number_slots(blocks: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, int]:
    """Number the parameter slots of ``blocks`` in order: ``{"block.slot": column, ..., "block.end": next}``."""
    slots: dict[str, int] = {}
    column = 0
    for block, names in blocks:
        for name in names:
            slots[f"{block}.{name}"] = column
            column += 1
        slots[f"{block}.end"] = column
    return slots


SLOT = number_slots(PARAM_BLOCKS)
H_WIZARD = SLOT["heuristic.wizard"]
H_TRUMP_TOP = SLOT["heuristic.trump_top"]
H_TRUMP_SLOPE = SLOT["heuristic.trump_slope"]
H_TRUMP_FLOOR = SLOT["heuristic.trump_floor"]
H_SIDE_ACE = SLOT["heuristic.side_ace"]
H_SIDE_DROP = SLOT["heuristic.side_drop"]
H_PLAYER_DECAY = SLOT["heuristic.player_decay"]
H_LENGTH_DECAY = SLOT["heuristic.length_decay"]
H_RUFF = SLOT["heuristic.ruff"]
H_BID_SHIFT = SLOT["heuristic.bid_shift"]
H_NT_ACE = SLOT["heuristic.nt_ace"]
H_SIDE_SECOND = SLOT["heuristic.side_second"]
H_SPECIAL = SLOT[f"heuristic.{SPECIAL_NAMES[0].lower()}"]  # H_SPECIAL + i: special card FIRST_SPECIAL + i
H_END = SLOT["heuristic.end"]
D_TRUMP = SLOT["decision.trump"]
D_WEREWOLF = SLOT["decision.swap"]
D_FORM = SLOT["decision.form"]
D_PASS = SLOT["decision.pass"]
D_END = SLOT["decision.end"]
DECIDE_OWN = 0  # decision kinds (engine/players/decisions.py)
DECIDE_RANDOM = 1
DECIDE_HEURISTIC = 2
# table player (TP_*; the card table's columns are T_*)
TP_EXPLORE = SLOT["table.explore"]  # 1 = bid the heuristic's bid plus a random step of -2..2 (training)
TP_REFINE = SLOT["table.refine"]  # bit set of refinements to the heuristic's play (REFINE_*)
TP_END = SLOT["table.end"]
REFINE_LEAD_TRUMP = 1  # bid made, on lead: lead the lowest trump that can still lose
REFINE_KEEP_JESTER = 2  # tricks needed, this one lost anyway: shed the lowest side card, keep Jesters
# pimc player
P_SAMPLES = SLOT["pimc.samples"]  # sampled deals per card decision
P_BID_SAMPLES = SLOT["pimc.bid_samples"]  # sampled deals per bid decision
P_ROLLOUT = SLOT["pimc.rollout"]  # rollout policy: ROLLOUT_* above
P_PRUNE = SLOT["pimc.prune"]  # drop a candidate this many standard errors worse than the best (0 = never)
P_INFER = SLOT["pimc.infer"]  # weight sampled deals by how well they explain the bids (sigma in tricks; 0 = off)
P_KIND = SLOT["pimc.kind"]  # every seat: its strategy id (S_*), written by Strategy.param_row (pimc's rollout=4)
P_GEN = SLOT["pimc.gen"]  # the network generation its learned rollouts play (index into Models' stacks)
P_END = SLOT["pimc.end"]
# learned player
LG_GEN = SLOT["learned.gen"]  # its network generation: index into the Models bundle's stacked networks
B_RULE = SLOT["rule.rule"]
B_NEEDS = SLOT["rule.needs"]
B_PLAY = SLOT["rule.play"]
B_PLAY_NEEDS = SLOT["rule.play_needs"]
B_END = SLOT["rule.end"]
PLAY_NEEDS_VIEW = 1  # boss: the cards played and the voids shown (the round keeps the view for the seat)
PLAY_NEEDS_FALLBACK = 2  # fallback: the seat's player chooses its card first, then the rule sees that choice
NEEDS_ESTIMATE = 1  # estimate, heuristic_bid
NEEDS_TABLE = 2  # table_bid (and the estimate it starts from)
SEAT_EXTERNAL = SLOT["seat.external"]
N_PARAMS = SLOT["seat.end"]
N_BID_RULES = 6  # bid-rule functions a run passes (one per seat at most; unused slots repeat the first)
N_PLAY_RULES = 6  # play-rule functions a run passes (unused slots repeat the first)
PRUNE_BATCH = 8  # pimc: samples between pruning checks

# --------------------------------------------------------------------------- a bid rule's features
# The float64 vector a user's bid rule reads (wizsim.players.bid_rules names and documents each slot).
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

# --------------------------------------------------------------------------- a play rule's situation
# The int64 context a play-rule function reads (engine/players/play_rule.py writes it, the generated wrapper of
# wizsim.players.play_rules reads its features from it; wizsim.players.play_rules names and documents them).
PC_P = 0  # the seat
PC_T = 1  # tricks played before this one
PC_J = 2  # cards already in this trick
PC_N = 3
PC_K = 4
PC_TRUMP = 5  # -1: no trump
PC_LED = 6  # the trick's led state (-1 nothing led yet or colourless so far, FREE in mono)
PC_LEADER = 7
PC_BEST = 8  # the trick as it stands (bundles.Trick): best power, winner, flags, the Fairy's seat
PC_WINNER = 9
PC_FLAGS = 10
PC_FAIRY = 11
PC_HAND = 12  # the seat's hand (card-type mask)
PC_LEGAL = 13  # its legal cards (mask)
PC_BID = 14
PC_WON = 15
PC_CANCELLED = 16  # the bids were cancelled by the Bomb (bomb=cancel_bids)
PC_BOMB_VOIDS = 17  # 1: a Bomb voids its trick (the standard Bomb rule)
PC_UNSEEN = 18  # card types with a copy the seat has not seen (PLAY_NEEDS_VIEW; else 0)
PC_LATER_VOID = 19  # suits every seat after this one in the trick has shown out of (PLAY_NEEDS_VIEW; else 0)
PC_MONO = 20
PC_SEEN = 21  # card types played this round before this card (mask; what the heuristic reads)
PC_HEURISTIC = 22  # the heuristic's form here, -2 until a rule's ``heuristic`` feature first asks for it
PC_FALLBACK = 23  # the fallback player's form here (PLAY_NEEDS_FALLBACK; else -1)
N_PLAY_CTX = 24

# --------------------------------------------------------------------------- the learned player (engine/players/learned.py)
# The state row of a card decision (ST_*), its one-hot features (LF_* state, LC_* per candidate form), the
# scratch layout (W_*), the training logs (LOG_*), and the same for bids (BS_*, LB_*, LOG_B_*): learned.py, the
# training code and the network file all read these sizes from here.
ST_N = 0
ST_K = 1
ST_T = 2  # tricks played before this one
ST_J = 3  # cards already in this trick
ST_LED = 4
ST_BEST = 5  # the power to beat (-1: nothing played)
ST_WINNER = 6  # the seat winning the trick so far, relative to the player (0: none yet)
ST_TFLAGS = 7
ST_TRUMP = 8
ST_MONO = 9
ST_NEED = 10  # own bid minus tricks won (k - tricks won when a Bomb cancelled the bids)
ST_HAND = 11  # bit masks, stored as int64
ST_SEEN = 12
ST_LEGAL = 13
ST_MY_WIZ = 14  # Wizards in hand
ST_UNSEEN_WIZ = 15  # Wizards the player has not seen (in other hands or undealt)
ST_SPECIALS = 16  # bit i: special card DRAGON + i is in the deck
ST_BOMB_RULE = 17  # 0 the Bomb voids the trick, 1 it cancels the bids
ST_CANCELLED = 18
ST_BIDS = 19  # 6 columns: bid of the seat i places to the left (-1: not known)
ST_WON = 25  # 6 columns: tricks won, same order
ST_VOID = 31  # 6 columns: suits shown out of (bit mask), same order
ST_UNSEEN = 37  # 4 columns: suit cards of each suit the player has not seen
ST_SCORING = 41  # 0 standard, 1 progressive
ST_HIDDEN = 42  # hidden bids: 0 off, 1 simultaneous, 2 secret
ST_SURE = (
    43  # Wizards, the Dragon and top trumps in hand (top cards without trump): no unseen card of the suit beats them
)
ST_STRONG = 44  # cards in hand at most one unseen card of their suit beats, Wizards and the Dragon included
ST_WIDTH = 45

# --------------------------------------------------------------------------- feature index space
LF_NEED_LEFT = 0  # need (-3..5) x tricks left (1..10)
LF_POS = LF_NEED_LEFT + 90  # cards in the trick (0..5) x players (3..6)
LF_TRUMP = LF_POS + 24  # no trump, a trump suit, mono
LF_SURPLUS = LF_TRUMP + 3  # tricks left minus everyone's open need (-5..5)
LF_WINNER = LF_SURPLUS + 11  # the trick's current winner: none, needs tricks, made it, over, bid unknown
LF_AFTER = LF_WINNER + 5  # players after this one (0..5) x of them needing tricks (0..5)
LF_BEST = LF_AFTER + 36  # what leads the trick: nothing, off-suit/jester, led suit, trump, wizard-like, dragon
LF_UNSEEN_WIZ = LF_BEST + 6
LF_UNSEEN_TRUMP = LF_UNSEEN_WIZ + 5  # buckets
LF_MY_TRUMP = LF_UNSEEN_TRUMP + 7
LF_K = LF_MY_TRUMP + 6  # round size buckets
LF_SPECIAL = LF_K + 8  # each special card in the deck
LF_TFLAGS = LF_SPECIAL + N_SPECIALS  # Dragon, Fairy, Bomb, Juggler, Cloud already in the trick
LF_MY_WIZ = LF_TFLAGS + 5
LF_CANCELLED = LF_MY_WIZ + 4
LF_BID_SUM = LF_CANCELLED + 1  # sum of the bids minus the round size (-4..4), or unknown
LF_BOMB_RULE = LF_BID_SUM + 10
LF_RULES = LF_BOMB_RULE + 1  # progressive scoring, hidden bids simultaneous, secret
LF_SURE_NEED = LF_RULES + 3  # sure winners in hand minus need (-3..3)
LF_STRONG_NEED = LF_SURE_NEED + 7  # strong cards in hand minus need (-3..3)
LF_STATE_END = LF_STRONG_NEED + 7
# per candidate form
LC_FORM = LF_STATE_END  # 39 plain (trump / led suit / other side x rank) + 14 special forms
LC_WIN = LC_FORM + 53  # loses, wins for now, wins surely
LC_CROSS = LC_WIN + 3  # need sign x LC_WIN x lead/middle/last
LC_HIGHER = LC_CROSS + 27  # unseen higher cards of its suit (0..4) x trump or side
LC_LENGTH = LC_HIGHER + 10  # own cards of its suit (1..5) x trump or side
LC_SUIT_LEFT = LC_LENGTH + 10  # unseen cards of its suit (buckets) x leading or not
LC_VOID_AFTER = LC_SUIT_LEFT + 10  # players after this one known void in its suit (0..3)
LC_EXTREME = LC_VOID_AFTER + 4  # its suit's lowest / highest / only card in hand
LC_COARSE = LC_EXTREME + 3  # coarse class (9) x need sign (3) x leading or not (2)
N_CARD_FEATURES = LC_COARSE + 54
MAX_STATE_FEATURES = (
    32  # at most 30 (19 one-hot groups, 7 specials, 5 trick flags; surplus and cancelled exclude each other)
)
MAX_FORM_FEATURES = 12
MAX_CANDIDATES = 32
HIDDEN = 16  # hidden units of both networks (fixed: the sums of hidden_sum are named variables)
# the scratch arrays in the view (pimc_view.new_view): int64 row | candidates | feature indices, float64 sums | scores
W_ROW = 0
W_CANDS = 64
W_IDX = W_CANDS + MAX_CANDIDATES
WORK_I = W_IDX + 64
W_BASE = 0
W_ACC = HIDDEN
W_SCORES = 2 * HIDDEN
WORK_F = W_SCORES + MAX_CANDIDATES

LOG_NC = ST_WIDTH  # then the candidates' forms, total scores and deals played
LOG_FORMS = LOG_NC + 1
LOG_TOTALS = LOG_FORMS + MAX_CANDIDATES
LOG_DEALS = LOG_TOTALS + MAX_CANDIDATES
LOG_WIDTH = LOG_DEALS + MAX_CANDIDATES

BS_N = 0
BS_K = 1
BS_POS = 2  # bidding position: 0 = the dealer's left
BS_TRUMP = 3
BS_MONO = 4
BS_HAND = 5
BS_WIZ = 6  # Wizards in hand
BS_JES = 7  # Jesters in hand
BS_EARLIER = 8  # sum of the earlier bids (-1: not seen, hidden bids)
BS_FORBIDDEN = 9  # the Canadian rule's forbidden bid (-1: none)
BS_SCORING = 10
BS_HIDDEN = 11
BS_SPECIALS = 12  # bit i: special card DRAGON + i is in the deck
BS_EST = 13  # the heuristic's estimate of the hand, in thousandths of a trick
BS_BASE = 14  # the table player's bid (the candidates are base - 2 .. base + 2)
BS_WIDTH = 15

LB_OFFSET = 0  # bid minus the rounded estimate (-3..3) x round size bucket (8)
LB_BID = LB_OFFSET + 56  # the bid (0..12)
LB_EST = LB_BID + 13  # estimate in quarter tricks minus 4 x bid (-8..8)
LB_POS = LB_EST + 17  # position (0..5) x players (3..6)
LB_TOTAL = LB_POS + 24  # earlier bids + this bid - expected share, by position (-4..4), or unknown
LB_LAST = LB_TOTAL + 10  # last bidder: earlier bids + this bid - round size (-4..4)
LB_WIZ = LB_LAST + 9  # Wizards held (0..4) x bid (0..3+)
LB_TRUMP = LB_WIZ + 20  # trumps held (0..6) x no trump / trump
LB_TOP = LB_TRUMP + 14  # trumps of rank 11 up held (0..3) x bid minus estimate sign
LB_ACES = LB_TOP + 12  # side aces held (0..3)
LB_SHORT = LB_ACES + 4  # side suits void or singleton (0..3)
LB_SPECIAL_HELD = LB_SHORT + 4  # each special card held
LB_SPECIAL_DECK = LB_SPECIAL_HELD + N_SPECIALS
LB_RULES = LB_SPECIAL_DECK + N_SPECIALS  # progressive scoring, hidden bids simultaneous, secret, mono
LB_K = LB_RULES + 4  # round size bucket (8) x bid/size share bucket (4)
N_BID_FEATURES = LB_K + 32
MAX_BID_FEATURES = 32  # at most 29: 12 one-hot groups, 7 specials held, 7 in the deck, 3 rules
MAX_BIDS = 5

LOG_B_NB = BS_WIDTH  # then the candidate bids, their total scores and deals played
LOG_B_BIDS = LOG_B_NB + 1
LOG_B_TOTALS = LOG_B_BIDS + MAX_BIDS
LOG_B_DEALS = LOG_B_TOTALS + MAX_BIDS
LOG_B_WIDTH = LOG_B_DEALS + MAX_BIDS

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
# ``info[row]`` of a recorded round (see wizsim.game.records.RoundRecords, which names these for the Python layer):
I_DEALER = 0
I_CARDS = 1  # k
I_INDICATOR = 2  # -1: none
I_TRUMP = 3  # -1: no trump
I_WEREWOLF = 4  # the Werewolf's holder, -1: not dealt
I_SWAPPED = 5
I_PLAYERS = 6  # players in the round (elimination: fewer than the game's)
I_TRICKS = 8  # then per trick t < kmax: leader at I_TRICKS + t, winner (-1 bombed) + kmax, next leader + 2 kmax


INFO_PER_TRICK = 3  # leader, winner, next leader


def info_seats(kmax: int) -> int:
    """First per-seat column of ``info``: bids, tricks won, scores, final bids, ``n`` columns each."""
    return I_TRICKS + INFO_PER_TRICK * kmax


def info_width(players: int, kmax: int) -> int:
    """Columns of ``info`` for a game of ``players`` and rounds of at most ``kmax`` cards."""
    return info_seats(kmax) + 4 * players


# the learned bid reuses the card decision's scratch (learned_model.learned_bid): its row, candidates and features fit
assert BS_WIDTH <= W_CANDS - W_ROW and MAX_BIDS <= MAX_CANDIDATES and MAX_BID_FEATURES <= WORK_I - W_IDX
assert ST_WIDTH <= W_CANDS - W_ROW and MAX_STATE_FEATURES + MAX_FORM_FEATURES <= WORK_I - W_IDX
