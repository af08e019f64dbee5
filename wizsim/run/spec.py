"""What a run is: the validated request, its chunks and seeds, and the integer counts it adds up.

A run is cut into chunks of a fixed size (``CHUNK_ROUNDS`` rounds or
``CHUNK_GAMES`` games); chunk ``i`` draws from streams seeded by
``np.random.SeedSequence(seed, spawn_key=(i,))`` and adds integer counts to
the accumulators (:class:`Counts`). Sums of integers do not depend on the
order or on the worker that computed them, so a result is identical for
every number of workers and every backend (:mod:`wizsim.run.parallel`).

This module imports no other module that runs simulations: the run layer
(:mod:`wizsim.run.parallel`), :mod:`wizsim.run.simulate`, :mod:`wizsim.run.history`,
:mod:`wizsim.tools.tournament`, :mod:`wizsim.tools.advise` and :mod:`wizsim.training.bid_table`
build on it.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import layout as L
from ..engine import simulate_chunks
from ..engine.bundles import Accumulators, Chunks, Models, Players, Preset, Schedule, Setup, Switches, Tables
from ..engine.layout import AUX_HIT, AUX_MISS, AUX_MISS_SQ, AUX_SCORE, AUX_SCORE_SQ, N_AUX  # noqa: F401  # Counts.aux columns
from ..errors import WizsimError
from ..game import cards as C
from ..game.notation import parse_whole_list
from ..game.rules import FROM_INDICATOR, Rules, check_players, check_round_size, game_schedule, hand_trump, parse_rules
from ..players import bid_data, learned_data
from ..players.bid_rules import BidRule, kernel_rules, rule_errors
from ..players.play_rules import PlayRule
from ..players.strategies import (  # strategy_label: importable from here too
    PlayRuleStrategy,
    RuleStrategy,
    Strategy,
    seat_strategies,
    strategy_arrays,
    strategy_label,
)
from ..version import __version__
from .header import deck_name

CHUNK_ROUNDS = 1 << 14
CHUNK_GAMES = 256
MAX_ITEMS = 10**12  # hands or games in one run: about a week on one core; more is surely a typo


def version() -> str:
    """The wizsim version (recorded in provenance and checkpoints)."""
    return __version__


def _bidder(s: Strategy) -> Strategy:
    """Who bids for seat strategy ``s``: itself, or a play-rule strategy's bidder (a bid rule may be combined)."""
    return s.bid if isinstance(s, PlayRuleStrategy) and s.bid is not None else s


@dataclass
class RunSpec:
    """A validated simulation request (what to deal, how many, who plays, which rules)."""

    players: int
    schedule: list[int]
    games_mode: bool
    items: int  # rounds in hands mode, games in games mode
    seed: int
    strategies: list[Strategy]
    rules: Rules
    deck: np.ndarray
    custom_deck: bool = False
    specials: list[str] = field(default_factory=list)
    trumps: list[int] = field(default_factory=list)  # per round: FROM_INDICATOR or a fixed trump
    preset: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # advisor rounds (see wizsim.tools.advise)
    custom_schedule: bool = False  # hand sizes from --schedule (a card is turned up whenever one is left)
    log: tuple | None = None  # pimc's card and bid decisions logged for training `learned` (learned_data.no_log)
    learned_path: str | None = None  # another network file for `learned` seats (training and tests)
    script: np.ndarray | None = None  # decisions of external seats (engine/external.py; wizsim.env)
    external_seats: tuple[int, ...] = ()  # the seats whose decisions the script holds

    def kernel_args(self) -> tuple[Setup, Players]:
        """What every kernel call takes after the chunk arguments: the :class:`~wizsim.engine.bundles.Setup` (tables,
        preset, models, switches) and the :class:`~wizsim.engine.bundles.Players` (strategy ids, parameter rows),
        the bundles of :mod:`wizsim.engine.bundles` (built here, nowhere else)."""
        table, masks = C.kernel_tables()
        ids, params = strategy_arrays(self.strategies)
        for p in self.external_seats:
            params[p, L.SEAT_EXTERNAL] = 1
        rules = self.bid_rules()
        plays = self.play_rules()
        for p, s in enumerate(self.strategies):
            if isinstance(s, PlayRuleStrategy) and s.rule is not None:
                params[p, L.B_PLAY] = plays.index(s.rule) + 1
                params[p, L.B_PLAY_NEEDS] = s.rule.needs()
            b = _bidder(s)
            if isinstance(b, RuleStrategy) and b.rule is not None:
                params[p, L.B_RULE] = rules.index(b.rule) + 1
                params[p, L.B_NEEDS] = b.rule.needs()
        mono = C.mono_decks(self.players) if self.rules.has("mono") else np.zeros((self.players, 1), dtype=np.uint8)
        pre = Preset(*(self.preset or (
            np.zeros(L.N_PRE, dtype=np.int64),
            np.zeros(64, dtype=np.int64),
            np.full(self.players, -1, dtype=np.int64),
        )), self.script if self.script is not None else np.zeros(L.X_ACTIONS, dtype=np.int64))  # fmt: skip
        # what the seats need (Strategy.needs) decides what the run loads and compiles
        need: set[str] = set().union(*(s.needs() for s in self.strategies))
        tab = bid_data.kernel_table("bid_table" in need)  # the learned bids (not for exploring table seats)
        # pimc's learned rollouts read the card network without making the seat a learned one. Every
        # pimc run gets it when the file is there, whatever its rollout: one compiled variant of the
        # pimc kernels instead of two (float64 weights or float32 placeholders), half the compile time
        # (loaded even without the file when a rollout needs it, to name the missing file)
        network = "network" in need or ("pimc" in need and learned_data.available(self.learned_path))
        w1, b1, w2, bw1, bb1, bw2 = learned_data.kernel_models(network, self.learned_path)
        if self.learned_path:  # another network file: the only generation there is, for seats that name none
            named = [p for p, s in enumerate(self.strategies) if "gen=" in strategy_label(s)]
            if named:
                raise WizsimError(
                    f"seat {named[0]} names a network generation (gen=...) and the run gives its own network file"
                    f" {self.learned_path}: drop one of the two"
                )
            params[:, L.LG_GEN] = 0
            params[:, L.P_GEN] = 0
        log, log_n, bid_log, bid_log_n = self.log or learned_data.no_log()
        models = Models(tab, w1, b1, w2, log, log_n, bw1, bb1, bw2, bid_log, bid_log_n)
        # compile-time switches (engine/players/switches.py): bool = that part of the engine is not compiled
        has_specials = bool(self.specials) or bool((np.asarray(self.deck) >= L.DRAGON).any())

        def switch(on: bool) -> np.ndarray:
            return np.zeros(1, dtype=np.int8 if on else np.bool_)

        feats = Switches(switch("pimc" in need), switch("heuristic" in need), switch(has_specials),
                         switch("learned" in need), switch("view" in need), kernel_rules(rules, plays),
                         switch(bool(self.external_seats)))  # fmt: skip
        tables = Tables(self.deck, mono, table, masks, self.rules.to_array(self.specials))
        return Setup(tables, pre, models, feats), Players(ids, params)

    def bid_rules(self) -> list[BidRule]:
        """The distinct bid rules of the rule seats, in seat order (rule ``i`` is the kernels' slot ``i``)."""
        out: list[BidRule] = []
        for s in self.strategies:
            b = _bidder(s)
            if isinstance(b, RuleStrategy) and b.rule is not None and b.rule not in out:
                out.append(b.rule)
        return out

    def play_rules(self) -> list[PlayRule]:
        """The distinct play rules of the play-rule seats, in seat order (rule ``i`` is the kernels' play slot ``i``)."""
        out: list[PlayRule] = []
        for s in self.strategies:
            if isinstance(s, PlayRuleStrategy) and s.rule is not None and s.rule not in out:
                out.append(s.rule)
        return out

    def schedule_arrays(self) -> Schedule:
        """The :class:`~wizsim.engine.bundles.Schedule` the kernels read: hand sizes, trumps, games or rounds."""
        trumps = self.trumps or [FROM_INDICATOR] * len(self.schedule)
        sizes = np.asarray(self.schedule, dtype=np.int64)
        return Schedule(sizes, np.asarray(trumps, dtype=np.int64), int(self.games_mode))

    @property
    def rounds(self) -> int:
        return self.items * len(self.schedule)

    @property
    def chunk_size(self) -> int:
        return CHUNK_GAMES if self.games_mode else CHUNK_ROUNDS

    @property
    def n_chunks(self) -> int:
        return -(-self.items // self.chunk_size)

    def chunk_range(self, lo: int, hi: int) -> Chunks:
        """The :class:`~wizsim.engine.bundles.Chunks` ``lo .. hi - 1``: first item, item count and generator
        states [chunk, 2] of each.

        Chunk ``i`` always gets the same two streams (dealing, decisions) from
        ``SeedSequence(seed, spawn_key=(i,))``, whoever computes it.
        """
        size = self.chunk_size
        first = np.arange(lo, hi, dtype=np.int64) * size
        count = np.minimum(size, self.items - first).astype(np.int64)
        state = np.array(
            [
                np.random.SeedSequence(self.seed, spawn_key=(i,)).generate_state(2, dtype=np.uint64)
                for i in range(lo, hi)
            ],
            dtype=np.uint64,
        ).reshape(hi - lo, 2)
        return Chunks(first, count, state)

    def chunks(self) -> Chunks:
        """(first item, item count, generator states) of every chunk (for small runs and histories)."""
        return self.chunk_range(0, self.n_chunks)

    def options(self) -> dict[str, Any]:
        """The HISTORY.md ``options`` of this run: the rules, plus ``rounds`` / ``schedule`` when set."""
        out = self.rules.options()
        if self.rules.rounds is not None:
            out["rounds"] = self.rules.rounds
        if self.custom_schedule:
            out["schedule"] = list(self.schedule)
        return out

    @property
    def deck_name(self) -> str:
        """The deck in words (:func:`wizsim.run.header.deck_name`): the provenance's and every header's ``deck``."""
        return deck_name(self.specials, [C.card_name(c) for c in self.deck] if self.custom_deck else None)

    def provenance(self) -> dict[str, Any]:
        """Everything needed to reproduce the run."""
        out: dict[str, Any] = {
            "wizsim_version": version(),
            "seed": self.seed,
            "players": self.players,
            "mode": "games" if self.games_mode else "hands",
            "schedule": list(self.schedule),
            "rules": self.rules.as_dict(),
            "strategies": [strategy_label(s) for s in self.strategies],
            "specials": list(self.specials),
            "deck": self.deck_name,
            "rounds": self.rounds,
            "chunk_size": self.chunk_size,
        }
        rules = self.bid_rules()
        if rules:  # each rule's code fingerprint: a checkpoint of an edited rule is refused
            out["bid_rules"] = {r.label: r.digest() for r in rules}
        if self.games_mode:
            out["games"] = self.items
        else:
            out["hands"] = self.items
            out["cards"] = self.schedule[0]
        if self.custom_deck:
            out["custom_deck"] = [C.card_name(c) for c in self.deck]
        return out


def as_int(name: str, value: Any) -> int:
    """``value`` as an int (an int, a NumPy integer or a string of digits), else a WizsimError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        try:
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                return int(value)
        except ValueError:
            pass
        raise WizsimError(f"{name} must be a whole number, got {value!r}")
    return int(value)


def make_spec(
    players: int,
    cards: int | None = None,
    hands: int | None = None,
    games: int | None = None,
    schedule: list[int] | str | None = None,
    seed: int = 0,
    strategy: str | list | None = "random",
    rules: Rules | dict | list[str] | None = None,
    deck: list[str] | None = None,
    specials: str | list[str] | None = None,
) -> RunSpec:
    """Validate a simulation request and return its :class:`RunSpec`.

    Exactly one of ``cards``/``hands`` (independent rounds) or ``games`` (full
    games, optionally with a custom ``schedule`` of hand sizes) must be given.
    ``specials`` (names, ``"dragon,fairy"`` or ``"all"``) are mixed into the
    base deck; ``deck`` replaces the whole deck (reduced decks for tests).
    """
    players = check_players(as_int("players", players))
    seed = as_int("seed", seed)
    if seed < 0:
        raise WizsimError(f"seed must be >= 0, got {seed}")
    rules_obj = parse_rules(rules)
    special_names = C.parse_specials(specials)
    if deck is not None:
        if special_names:
            raise WizsimError("give either a custom deck or specials, not both")
        deck_arr = C.build_deck(cards=deck)
        special_names = [C.card_name(c) for c in sorted(set(int(x) for x in deck_arr)) if c >= C.FIRST_SPECIAL]
    else:
        deck_arr = C.build_deck(special_names)
    deck_size = len(deck_arr)
    if ("Dragon" in special_names) != ("Fairy" in special_names):
        one, other = ("Dragon", "Fairy") if "Dragon" in special_names else ("Fairy", "Dragon")
        warnings.warn(f"{one} without {other}: the two are meant to be used together (RULES.md 1)", stacklevel=2)
    strategies = seat_strategies(strategy, players)
    games_mode = games is not None
    rules_obj.check_table(players, special_names, games_mode)
    if games_mode:
        if cards is not None or hands is not None:
            raise WizsimError("give either --games G or --cards K --hands H, not both")
        games = as_int("games", games)
        if not 1 <= games <= MAX_ITEMS:
            raise WizsimError(f"games must be between 1 and {MAX_ITEMS:.0e}, got {games}")
        if schedule is not None:
            if isinstance(schedule, np.ndarray):
                schedule = schedule.tolist()
            if isinstance(schedule, str):
                schedule = parse_whole_list(schedule, "--schedule", "1,3,5,7")
            if not schedule:
                raise WizsimError("the schedule is empty: give hand sizes like 1,3,5,7")
            if rules_obj.rounds is not None:
                raise WizsimError("give either --schedule or --rule rounds=N, not both")
            if any(rules_obj.has(v) for v in ("mono", "maximus", "elimination")):
                raise WizsimError(f"variant {rules_obj.variant} fixes its own rounds: drop --schedule")
            sched = [check_round_size(players, as_int("schedule entry", k), deck_size) for k in schedule]
            trumps = [FROM_INDICATOR] * len(sched)
        else:
            sched, trumps = game_schedule(players, deck_size, rules_obj)
        return RunSpec(
            players, sched, True, games, seed, strategies, rules_obj, deck_arr, deck is not None, special_names, trumps,
            custom_schedule=schedule is not None,
        )  # fmt: skip
    if schedule is not None:
        raise WizsimError("--schedule goes with --games")
    if cards is None or hands is None:
        raise WizsimError("give --cards K --hands H (independent rounds) or --games G (full games)")
    if rules_obj.rounds is not None:
        raise WizsimError("rule rounds=N sets the length of full games: use it with --games")
    cards = check_round_size(players, as_int("cards", cards), deck_size)
    hands = as_int("hands", hands)
    if not 1 <= hands <= MAX_ITEMS:
        raise WizsimError(f"hands must be between 1 and {MAX_ITEMS:.0e}, got {hands}")
    return RunSpec(
        players, [cards], False, hands, seed, strategies, rules_obj, deck_arr, deck is not None, special_names,
        [hand_trump(players, cards)],
    )  # fmt: skip



@dataclass
class Counts:
    """Integer accumulators of a run (they add up across chunks and workers)."""

    joint: np.ndarray  # [k, seat, position, bid as made, tricks]
    aux: np.ndarray  # [k, seat, position, AUX_*]
    game_acc: np.ndarray  # [G_*, seat] (engine/layout.py)

    @classmethod
    def zeros(cls, players: int, kmax: int) -> Counts:
        return cls(
            np.zeros((kmax + 1, players, players, kmax + 1, kmax + 1), dtype=np.int64),
            np.zeros((kmax + 1, players, players, N_AUX), dtype=np.int64),
            np.zeros((L.N_GAME_COLUMNS, players), dtype=np.int64),
        )

    def __iadd__(self, other: Counts) -> Counts:
        self.joint += other.joint
        self.aux += other.aux
        self.game_acc += other.game_acc
        return self


BATCH_CHUNKS = 1024  # chunks seeded and run per kernel call: bounded memory for any run length


def run_block(spec: RunSpec, lo: int, hi: int) -> Counts:
    """Run chunks ``lo .. hi - 1`` in this process with the serial kernel."""
    from ..env.seated import seated  # Python agents at the table (imports this module)

    acc = Counts.zeros(spec.players, max(spec.schedule))
    schedule = spec.schedule_arrays()
    with seated(spec) as run, rule_errors(spec.bid_rules(), spec.play_rules()):
        setup, players = run.kernel_args()
        for start in range(lo, hi, BATCH_CHUNKS):
            chunks = run.chunk_range(start, min(start + BATCH_CHUNKS, hi))
            simulate_chunks(spec.players, schedule, chunks, setup, players, Accumulators(acc.joint, acc.aux, acc.game_acc))
    return acc
