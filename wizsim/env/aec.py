"""``WizardEnv``: Wizard as a PettingZoo AEC environment, played by the wizsim engine.

Every seat not given to a built-in opponent is an agent (``player_<seat>``).
A step takes one decision of the agent whose turn it is: a bid, a card in its
form, naming trump, the Werewolf's choice or a Juggler pass (the action blocks
of :mod:`.encoding`). Hidden and simultaneous decisions (hidden bids, Juggler
passes) are taken one seat at a time, and no observation shows another seat's
choice before the rules reveal it. Built-in opponents decide inside the
engine between the agents' turns. The reward of a round is its score, given
to every agent when the round is scored; an episode is one round, or a whole
game with ``cards=None``.

The rules are the engine's (:mod:`.replay`): legality, trick winners, events
and scores come from the same code as every simulation, and with the same
seed and seats the environment deals and plays the rounds of ``wizsim history``.
"""

from __future__ import annotations

import dataclasses
import warnings
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from ..engine import layout as L
from ..errors import WizsimError
from ..game import cards as C
from ..run.history import round_records
from ..run.spec import strategy_label
from .encoding import KIND_NAMES, Encoder
from .replay import Replay


class WizardEnv(AECEnv):
    """Wizard for ``players`` (3-6) seats: one round of ``cards`` cards, or a whole game (``cards=None``).

    Parameters
    ----------
    players
        Seats at the table, 3 to 6.
    cards
        Cards dealt per player for a one-round episode; None plays a whole game
        (its schedule from the rules: the standard table, mono, Maximus...).
    specials
        Special cards mixed into the deck: names, ``"dragon,fairy"`` or ``"all"``.
    rules
        Rule options as for ``wizsim simulate --rule``: a dict (``{"canadian": True}``)
        or a list of ``name=value`` strings.
    opponents
        ``{seat: strategy}``: seats played inside the engine by a built-in
        player (``"heuristic"``, ``"learned"``, ``"pimc(samples=50)"``...). The
        other seats are the agents.
    seed
        Seed of the episode seeds when :meth:`reset` is called without one.
    render_mode
        ``"ansi"``: :meth:`render` returns the table as text.
    """

    metadata = {"name": "wizsim_wizard_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        players: int = 4,
        cards: int | None = 10,
        specials: str | list[str] | None = None,
        rules: dict | list[str] | None = None,
        opponents: dict[int, str] | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        opponents = dict(opponents or {})
        for seat in opponents:
            if not isinstance(seat, (int, np.integer)) or not 0 <= seat < int(players):
                raise WizsimError(f"opponent seat {seat!r} is not a seat of the table: give 0..{int(players) - 1}")
        seats = [opponents.get(p) for p in range(int(players))]
        if all(s is not None for s in seats):
            raise WizsimError("every seat is a built-in opponent: leave at least one seat to an agent")
        if render_mode is not None and render_mode != "ansi":
            raise WizsimError(f"render_mode {render_mode!r} is not offered: use 'ansi' or None")
        self.render_mode = render_mode
        self.table = Replay(int(players), cards, seats, specials=specials, rules=rules)
        spec = self.table.spec
        self.encoder = Encoder(spec.players, self.table.kmax, spec.rules.to_array(spec.specials), self.table.rounds)
        self.possible_agents = [f"player_{p}" for p in range(spec.players) if seats[p] is None]
        self._seat = {agent: int(agent.split("_")[1]) for agent in self.possible_agents}
        self._agent_of = {seat: agent for agent, seat in self._seat.items()}
        fields: dict[str, gymnasium.spaces.Space] = {
            name: gymnasium.spaces.Box(low, high, shape, dtype)
            for name, (shape, low, high, dtype) in self.encoder.fields.items()
        }
        fields["vector"] = gymnasium.spaces.Box(-np.inf, np.inf, (self.encoder.vector_size,), np.float32)
        fields["action_mask"] = gymnasium.spaces.Box(0, 1, (self.encoder.n_actions,), np.int8)
        self._observation_space = gymnasium.spaces.Dict(fields)
        self._action_space = gymnasium.spaces.Discrete(self.encoder.n_actions)
        self._seeds = np.random.default_rng(seed)
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The observation space of ``agent`` (the same for every agent).

        Parameters
        ----------
        agent : str
            An agent's name, ``"player_<seat>"``.

        Returns
        -------
        gymnasium.spaces.Dict
            One ``Box`` per field of :mod:`wizsim.env.encoding`, the float32 ``vector`` of them
            all, and the int8 ``action_mask``.
        """
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """The action space of ``agent`` (the same for every agent).

        Parameters
        ----------
        agent : str
            An agent's name, ``"player_<seat>"``.

        Returns
        -------
        gymnasium.spaces.Discrete
            Every action of every decision, in blocks (:mod:`wizsim.env.encoding`).
        """
        return self._action_space

    # ------------------------------------------------------------------ episodes
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new episode: seed ``seed``'s round or game (the rounds of ``wizsim history --seed``), or the next
        seed drawn from the environment's own seed.

        Parameters
        ----------
        seed : int, optional
            The episode's seed (>= 0); it also reseeds the seeds drawn for later episodes.
        options : dict, optional
            ``{"dealer": seat}``: who deals a one-round episode (default 0,
            as in ``wizsim history``; the seed's deck, dealt from the dealer's left).
            Other keys are ignored with a warning.

        Raises
        ------
        WizsimError
            On a seed or dealer that is not a whole number in range.
        """
        options = dict(options or {})
        unknown = set(options) - {"dealer"}
        if unknown:  # PettingZoo's api_test passes an option of its own: a warning, not an error
            warnings.warn(f"reset option {sorted(unknown)[0]!r} is not used: the options are 'dealer'", stacklevel=2)
        dealer = options.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)):
            raise WizsimError(f"dealer must be a seat number, got {dealer!r}")
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise WizsimError(f"seed must be a whole number >= 0, got {seed!r}")
            self._seeds = np.random.default_rng(seed)
            episode = int(seed)
        else:
            episode = int(self._seeds.integers(0, 2**63 - 1))
        self.table.start(episode, int(dealer))  # first: a bad dealer leaves the episode as it was
        self.episode_seed = episode
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection: str | None = None
        self._row = 0
        self._settle()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent`` now, from its seat (seat 0 is the observer).

        Parameters
        ----------
        agent : str
            An agent's name, ``"player_<seat>"``.

        Returns
        -------
        dict of str to numpy.ndarray
            The fields of :mod:`wizsim.env.encoding`, ``vector`` and ``action_mask``.

        Raises
        ------
        WizsimError
            For an unknown agent, or before :meth:`reset`.
        """
        seat = self._seat_checked(agent)
        if not hasattr(self, "episode_seed"):
            raise WizsimError("no episode yet: call reset() first")
        return self.encoder.observe(self.table.script, seat)

    def step(self, action: Any) -> None:
        """Take the current agent's (:attr:`agent_selection`) action and play on to the next agent's decision.

        Parameters
        ----------
        action : int or None
            A legal action of the pending decision (``obs["action_mask"]``), or None for an agent
            whose round or game is over.

        Raises
        ------
        WizsimError
            For an illegal action (naming the seat, the decision and the legal actions), an action
            of a finished agent, or a step after the episode is over.
        """
        if not self.agents:
            raise WizsimError("the episode is over: call reset() to deal a new one")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise WizsimError(f"{agent} is done (its round or game is over): its only step is step(None)")
            self._was_dead_step(action)
            return
        pend = self.table.pending
        assert pend is not None and self._agent_of[pend.seat] == agent
        code = self._action_checked(agent, pend, action)
        self._cumulative_rewards[agent] = 0
        self.table.act(self.encoder.engine_action(pend.kind, code))
        self._settle()
        self._accumulate_rewards()

    def _action_checked(self, agent: str, pend: Any, action: Any) -> int:
        """``action`` as an int if it is legal for the pending decision, else a WizsimError naming what is wrong."""
        what = f"{agent} (seat {pend.seat}), {KIND_NAMES[pend.kind]} decision"
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise WizsimError(f"{what}: the action must be an integer 0..{self.encoder.n_actions - 1}, got {action!r}")
        code = int(action)
        legal = [self.encoder.action(pend.kind, a) for a in pend.legal]
        if code not in legal:
            names = ", ".join(f"{a} ({self.encoder.action_name(a)})" for a in legal)
            raise WizsimError(f"{what}: action {code} ({self.encoder.action_name(code)}) is not legal; legal: {names}")
        return code

    def _settle(self) -> None:
        """Score the rounds the last step finished, mark who is out, and pass the turn to the next decision."""
        rec, pend = self.table.records, self.table.pending
        done_rows = self.table.rows if pend is None else pend.row
        self.rewards = {a: 0 for a in self.agents}
        for row in range(self._row, done_rows):
            for q in range(int(rec.round_players[row])):
                agent = self._agent_of.get(int(rec.seats[row, q]))
                if agent in self.rewards:
                    self.rewards[agent] += int(rec.scores[row, q])
        self._row = done_rows
        if pend is None:
            for a in self.agents:
                self.terminations[a] = True
            return
        seated = {int(s) for s in rec.seats[pend.row, : int(rec.round_players[pend.row])]}
        newly_out = [a for a in self.agents if self._seat[a] not in seated and not self.terminations[a]]
        for a in newly_out:
            self.terminations[a] = True
        nxt = self._agent_of[pend.seat]
        if newly_out:  # the eliminated agents take their last (None) steps first
            self._skip_agent_selection = nxt
            self.agent_selection = newly_out[0]
        else:
            self.agent_selection = nxt
        for a in self.agents:
            self.infos[a] = {"decision": KIND_NAMES[pend.kind] if a == nxt else ""}

    def _seat_checked(self, agent: str) -> int:
        if agent not in self._seat:
            raise WizsimError(f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return self._seat[agent]

    # ------------------------------------------------------------------ records
    def history(self, labels: dict[int, str] | None = None, include_legal: bool = False) -> list[dict]:
        """The episode's finished rounds as ``wizsim history`` records (HISTORY.md), one dict per round.

        Parameters
        ----------
        labels : dict of int to str, optional
            ``{seat: label}`` for the agents' seats in ``strategies``
            (default ``"agent"``); the opponents keep their strategy's label.
        include_legal : bool, default False
            Give each record ``legal`` too, as ``wizsim history --legal`` does.

        Returns
        -------
        list of dict
            One HISTORY.md record per finished round of the episode.
        """
        done = self.table.rows if self.table.pending is None else self.table.pending.row
        spec = dataclasses.replace(self.table.spec, seed=self.episode_seed)
        names = [strategy_label(s) for s in spec.strategies]
        for seat in self._seat.values():
            names[seat] = (labels or {}).get(seat, "agent")
        rec = self.table.records.select(slice(0, done))
        return list(round_records(spec, 0, rec, include_legal, strategies=names))

    # ------------------------------------------------------------------ text
    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): the round, the bids, the tricks so far, whose turn it is.

        Returns
        -------
        str or None
            The text, or None without a render mode.
        """
        if self.render_mode is None:
            return None
        rec, pend = self.table.records, self.table.pending
        row = self.table.rows - 1
        na = int(rec.round_players[row])
        k = int(rec.cards[row])
        lines = [f"round {row + 1} of {self.table.rounds}: {na} players, {k} cards, dealer seat {int(rec.dealer[row])}"]
        if pend is None:
            lines.append(f"bids {list(rec.bids[row, :na])}, tricks {list(rec.tricks_won[row, :na])}, "
                         f"scores {list(rec.scores[row, :na])}")  # fmt: skip
            return "\n".join(lines)
        if pend.kind in (L.DK_CARD, L.DK_PASS):
            lines.append(f"bids {list(pend.bids)}, tricks won {list(pend.won)}")
            last = pend.trick + (1 if pend.kind == L.DK_PASS else 0)
            for t in range(last + (1 if pend.kind == L.DK_CARD else 0)):
                count = pend.position if t == pend.trick and pend.kind == L.DK_CARD else na
                cards = [C.card_name(int(f)) for f in rec.plays[row, t, :count]]
                lines.append(f"  trick {t + 1}, led by seat {int(rec.leaders[row, t])}: {' '.join(cards)}")
        hand = [C.card_name(c) for c in range(L.N_TYPES) for _ in range(int(pend.hands[pend.round_seat, c]))]
        lines.append(f"seat {pend.seat} to decide ({KIND_NAMES[pend.kind]}), hand {' '.join(hand)}")
        return "\n".join(lines)

    def close(self) -> None:
        """Close the environment (nothing to release)."""
        pass
