"""The rules of Wizard as wizsim plays them, and the rule options as data.

Rules in prose (the full text with its sources is ``../shared/RULES.md``;
section numbers below refer to it). This module turns the named options into
the small integer array the kernels read.

Cards (1). 52 suit cards, Blue/Red/Green/Yellow x 1..13 (13 high), 4 Wizards,
4 Jesters; 60 in all.

Players and rounds (2). 3 to 6 players in seats 0..n-1 clockwise; round ``k``
deals ``k`` cards to everyone; a standard game has 60/n rounds (20/15/12/10),
with or without special cards (``rounds=N`` sets up to deck size // n). The
last round of the standard table (and round 20 of elimination) turns up no
card and has no trump, even where cards are left over; other schedules turn
up a card whenever one is left. The dealer of round 1 is seat 0 and the deal
passes clockwise (to seat ``dealer + 1``).

Trump (3). The top card of the undealt stock is turned up. A suit card makes
its suit trump; a Jester, no card left, or the standard table's last round
means no trump;
a Wizard lets the dealer name a suit after looking at the hand
(``wizard_indicator=dealer_chooses``, the default) or means no trump
(``wizard_indicator=no_trump``).

Bidding (4). Starting left of the dealer, each player in turn bids 0..k
tricks, seeing the earlier bids. ``canadian=true``: the bids may not add up to
k, so the dealer may not make the bid that would.

Play (5). The player left of the dealer leads the first trick; the winner of a
trick leads the next. Jesters do not set the led suit; the first other card
does: a suit card leads its suit, a Wizard frees the trick (anything may be
played). A player holding the led suit must play it or a Wizard or Jester;
Wizards and Jesters may always be played; a player without the led suit may
play anything.

Winner (6). The first Wizard wins; else the highest trump; else the highest
card of the led suit; a trick of Jesters only goes to the first Jester.

Scoring (8). ``scoring=standard``: exact bid 20 + 10 x tricks, otherwise
-10 per trick of difference. ``scoring=progressive``: exact bid
10 x bid + 10 x k, a miss by d: 10 x min(bid, tricks) - 10 x (1 + ... + d).
The game's winner is the highest total; equal totals share the win.

Special cards (1, 3, 5-7; any subset may be mixed in). Dragon: wizard-like,
wins the trick unless the Fairy is in it too, then the Fairy wins. Fairy and
Bomb: jester-like, never take a trick of jesters. Bomb: nobody wins its trick;
the would-be winner leads next (``bomb=cancel_bids``: it is a Jester that
never wins, and a round in which it was played scores 10 x tricks for all).
Werewolf: before the bids its holder swaps it for the indicator and names
trump, a suit or none (``werewolf=may``: the swap may be declined); with no
card turned up there is nothing to swap: nobody names trump, there is none,
and the Werewolf plays as a Jester. Juggler (7.5) and
Cloud (9.75): played in a suit their player names, which leads if nothing was
led; after a Juggler trick (not the last) everyone passes a card to the left
at once; the taker of the Cloud trick changes their bid by one (the better
way; +1 on a tie; 0 only goes up), nobody if the trick was bombed.
Shapeshifter: played as a Wizard or as a Jester, the player's choice. A special
card turned up lets the dealer name a suit (``passive_indicator=no_trump``: a
turned-up Fairy or Bomb means no trump).

Variants (4, 9). ``hidden_bids=simultaneous|secret``: bids are made without
seeing the others' (rejected with ``canadian``). ``variant=clairvoyance``:
in round 1 bidders see the other hands, not their own. ``variant=mono``
(3-4 players, no specials): every seat owns a suit's 13 cards, a Wizard and a
Jester, draws 3 + r cards in round r for 12 rounds; no trump, no following,
the highest value wins. ``variant=maximus``: 5 rounds dealing the whole deck,
trump Blue, Red, Green, Yellow, then none. ``variant=elimination`` (4-6
players): whenever the next round could not be dealt to everyone from 60
cards (whatever specials are in), the lowest total leaves; play goes on to
round 20 with three. Clairvoyance combines with
the others: ``variant=maximus+clairvoyance``.

Choices where RULES.md is silent are listed in ``docs/decisions.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..engine.layout import (  # indices into the int64 rule array the kernels read
    BASE_DECK_SIZE,
    FROM_INDICATOR,
    N_RULE_SLOTS,
    NO_TRUMP,
    R_BOMB,
    R_CANADIAN,
    R_CLAIRVOYANCE,
    R_ELIMINATION,
    R_HIDDEN_BIDS,
    R_MONO,
    R_PASSIVE_INDICATOR,
    R_SCORING,
    R_SPECIALS,
    R_WEREWOLF,
    R_WIZARD_INDICATOR,
)
from ..errors import WizsimError
from .cards import SPECIAL_NAMES

MIN_PLAYERS = 3
MAX_PLAYERS = 6


CHOICES = {
    "scoring": ("standard", "progressive"),
    "wizard_indicator": ("dealer_chooses", "no_trump"),
    "bomb": ("void_trick", "cancel_bids"),
    "werewolf": ("must", "may"),
    "passive_indicator": ("dealer_chooses", "no_trump"),
    "hidden_bids": ("off", "simultaneous", "secret"),
}
VARIANTS = ("standard", "clairvoyance", "mono", "maximus", "elimination")
GAME_VARIANTS = ("mono", "maximus", "elimination")  # they define the whole game; at most one
MAXIMUS_TRUMPS = (0, 1, 2, 3, -1)  # Blue, Red, Green, Yellow, then no trump


@dataclass(frozen=True)
class Rules:
    """The rule options in force (RULES.md names; defaults are the majority ruling).

    Parameters
    ----------
    canadian : bool, default False
        Sum of bids may not equal the number of cards dealt (section 4).
    scoring : {"standard", "progressive"}
        The scoring (section 8).
    wizard_indicator : {"dealer_chooses", "no_trump"}
        What a Wizard turned up means (section 3).
    bomb : {"void_trick", "cancel_bids"}
        What the Bomb does (sections 6, 8).
    werewolf : {"must", "may"}
        Whether the Werewolf swap is compulsory (section 3).
    passive_indicator : {"dealer_chooses", "no_trump"}
        A turned-up Fairy or Bomb (section 3).
    hidden_bids : {"off", "simultaneous", "secret"}
        How bids are made (section 4).
    variant : str, default "standard"
        ``"standard"``, ``"clairvoyance"``, ``"mono"``, ``"maximus"``,
        ``"elimination"``, or one of the last three joined with
        clairvoyance by ``+`` (section 9).
    rounds : int, optional
        Number of rounds of a full game; None means the standard 60 / players.

    Raises
    ------
    WizsimError
        On a value a rule does not allow, variants that exclude each other, or
        hidden bids with the Canadian rule.
    """

    canadian: bool = False
    scoring: str = "standard"
    wizard_indicator: str = "dealer_chooses"
    bomb: str = "void_trick"
    werewolf: str = "must"
    passive_indicator: str = "dealer_chooses"
    hidden_bids: str = "off"
    variant: str = "standard"
    rounds: int | None = None

    def __post_init__(self) -> None:
        for key, values in CHOICES.items():
            value = getattr(self, key)
            if value not in values:
                raise WizsimError(f"rule {key}={value!r} is not allowed; use one of {', '.join(values)}")
        if not isinstance(self.variant, str) or any(not p.strip() for p in self.variant.split("+")):
            raise WizsimError(
                f"rule variant={self.variant!r} has an empty part; use one of {', '.join(VARIANTS)},"
                " or join clairvoyance to one with +, e.g. maximus+clairvoyance"
            )
        parts = self.variants
        for part in parts:
            if part not in VARIANTS:
                raise WizsimError(
                    f"rule variant={self.variant!r} is not allowed; use one of {', '.join(VARIANTS)}"
                    " (clairvoyance may be joined to another with +, e.g. maximus+clairvoyance)"
                )
        if len(set(parts) & set(GAME_VARIANTS)) > 1 or len(parts) != len(set(parts)):
            raise WizsimError(
                f"rule variant={self.variant!r} combines variants that exclude each other;"
                " mono, maximus and elimination each define the whole game (clairvoyance joins any)"
            )
        if self.rounds is not None and (not isinstance(self.rounds, int) or self.rounds < 1):
            raise WizsimError(f"rule rounds={self.rounds!r} is not allowed; use a whole number >= 1")
        if self.hidden_bids != "off" and self.canadian:
            raise WizsimError(
                "hidden bids cannot be combined with the Canadian rule (RULES.md 4): drop canadian=true or hidden_bids"
            )

    @property
    def variants(self) -> tuple[str, ...]:
        """The variant names in force (``standard`` alone when none)."""
        return tuple(p.strip() for p in self.variant.split("+") if p.strip()) or ("standard",)

    def has(self, variant: str) -> bool:
        """Whether ``variant`` is in force.

        Parameters
        ----------
        variant : str
            A variant name (``"clairvoyance"``, ``"mono"``...).

        Returns
        -------
        bool
            True when it is one of :attr:`variants`.
        """
        return variant in self.variants

    def check_table(self, players: int, specials: list[str], games_mode: bool) -> None:
        """Reject combinations RULES.md rejects, for this table (players, specials, games or hands).

        Parameters
        ----------
        players : int
            The number of players.
        specials : list of str
            The special cards in the deck.
        games_mode : bool
            True for full games, False for independent rounds (hands).

        Raises
        ------
        WizsimError
            On a combination the rules reject (e.g. mono with specials, a whole-game variant for hands).
        """
        if self.has("mono"):
            if specials:
                raise WizsimError("variant mono is played without special cards (RULES.md 9): drop --specials")
            if players > 4:
                raise WizsimError(f"variant mono is for 3 or 4 players (RULES.md 9), not {players}")
        if self.has("elimination") and players < 4:
            raise WizsimError("variant elimination needs 4 to 6 players (RULES.md 9), not 3")
        for v in GAME_VARIANTS:
            if self.has(v) and not games_mode:
                raise WizsimError(f"variant {v} is a whole game: use --games G, not --cards/--hands")
            if self.has(v) and self.rounds is not None:
                raise WizsimError(f"variant {v} fixes its own rounds: drop rounds={self.rounds}")

    def to_array(self, specials: Sequence[str] = ()) -> np.ndarray:
        """Return the int64 rule array the kernels read.

        Parameters
        ----------
        specials : sequence of str, optional
            The special cards in the deck (their bits go in the array).

        Returns
        -------
        numpy.ndarray
            The rule slots, int64.
        """
        arr = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        arr[R_CANADIAN] = int(self.canadian)
        arr[R_SCORING] = CHOICES["scoring"].index(self.scoring)
        arr[R_WIZARD_INDICATOR] = CHOICES["wizard_indicator"].index(self.wizard_indicator)
        arr[R_BOMB] = CHOICES["bomb"].index(self.bomb)
        arr[R_WEREWOLF] = CHOICES["werewolf"].index(self.werewolf)
        arr[R_PASSIVE_INDICATOR] = CHOICES["passive_indicator"].index(self.passive_indicator)
        arr[R_HIDDEN_BIDS] = CHOICES["hidden_bids"].index(self.hidden_bids)
        arr[R_ELIMINATION] = int(self.has("elimination"))
        arr[R_CLAIRVOYANCE] = int(self.has("clairvoyance"))
        arr[R_MONO] = int(self.has("mono"))
        arr[R_SPECIALS] = sum(1 << SPECIAL_NAMES.index(s) for s in specials)
        return arr

    def options(self) -> dict:
        """Return the HISTORY.md ``options`` object for these rules.

        Returns
        -------
        dict
            The rule options by name (all but ``rounds``).
        """
        return {
            "canadian": self.canadian,
            "scoring": self.scoring,
            "bomb": self.bomb,
            "wizard_indicator": self.wizard_indicator,
            "werewolf": self.werewolf,
            "variant": self.variant,
            "hidden_bids": self.hidden_bids,
            "passive_indicator": self.passive_indicator,
        }

    def as_dict(self) -> dict:
        """Return the rules as a plain dict (for provenance).

        Returns
        -------
        dict
            :meth:`options` and ``rounds``.
        """
        return dict(self.options(), rounds=self.rounds)


def _parse_bool(key: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("true", "1", "yes", "on"):
        return True
    if v in ("false", "0", "no", "off"):
        return False
    raise WizsimError(f"rule {key}={value!r} is not allowed; use {key}=true or {key}=false")


def parse_rules(items: list[str] | tuple[str, ...] | dict | Rules | None) -> Rules:
    """Build :class:`Rules` from ``KEY=VALUE`` strings (the ``--rule`` flags) or a dict.

    Parameters
    ----------
    items : list or tuple of str, dict, Rules or None
        ``KEY=VALUE`` strings, a dict of rule values (booleans allowed), a
        :class:`Rules` (returned as it is), or None for the default rules.

    Returns
    -------
    Rules
        The rules, each key given at most once.

    Raises
    ------
    WizsimError
        On an unknown key or a value the key does not allow.
    """
    if items is None:
        return Rules()
    if isinstance(items, Rules):
        return items
    pairs: list[tuple[str, str]] = []
    if isinstance(items, dict):
        for k, v in items.items():
            pairs.append((str(k).lower(), str(v).lower() if isinstance(v, bool) else str(v)))
    else:
        for item in items:
            if "=" not in item:
                raise WizsimError(f"malformed rule {item!r}: write KEY=VALUE, e.g. canadian=true")
            key, value = item.split("=", 1)
            pairs.append((key.strip().lower(), value.strip()))
    kwargs: dict = {}
    known = ("canadian", *CHOICES, "variant", "rounds")
    given = [key for key, _ in pairs]
    for key in given:
        if given.count(key) > 1:
            raise WizsimError(f"rule {key!r} is given {given.count(key)} times; give each rule once")
    for key, value in pairs:
        if key == "canadian":
            kwargs["canadian"] = _parse_bool(key, value)
        elif key in CHOICES or key == "variant":
            kwargs[key] = value.lower()
        elif key == "rounds":
            try:
                kwargs["rounds"] = int(value)
            except ValueError:
                raise WizsimError(f"rule rounds={value!r} is not allowed; use a whole number >= 1") from None
        else:
            raise WizsimError(f"unknown rule {key!r}; known rules: {', '.join(known)}")
    return Rules(**kwargs)


def check_players(players: int) -> int:
    """Validate the number of players (3 to 6)."""
    if not isinstance(players, (int, np.integer)) or not MIN_PLAYERS <= int(players) <= MAX_PLAYERS:
        raise WizsimError(f"{players} players is not allowed; Wizard is played by 3 to 6 players")
    return int(players)


def standard_schedule(players: int, deck_size: int = BASE_DECK_SIZE, rounds: int | None = None) -> list[int]:
    """Return the hand sizes of a full game: 1, 2, ..., 60/n (or ``rounds``, at most deck_size // n).

    The standard table counts the 60 base cards whatever specials are mixed in
    (RULES.md 2); ``rounds`` may go up to what the deck in play allows.
    """
    most = deck_size // players
    if rounds is None:
        return list(range(1, BASE_DECK_SIZE // players + 1))
    if rounds > most:
        raise WizsimError(
            f"rounds={rounds} is too many: {players} players can be dealt at most {most} rounds from {deck_size} cards;"
            f" use rounds=1..{most}"
        )
    return list(range(1, rounds + 1))


ELIMINATION_ROUNDS = 20  # elimination plays rounds 1..20 (RULES.md 9)


def standard_last_round(players: int) -> int:
    """Hand size of the standard table's last round (60 / n), played without trump (RULES.md 2)."""
    return BASE_DECK_SIZE // players


def game_schedule(players: int, deck_size: int, rules: Rules) -> tuple[list[int], list[int]]:
    """Hand sizes and fixed trumps (FROM_INDICATOR, -1 none, 0-3 a suit) of a full game's rounds.

    The last round of the standard table and round 20 of elimination turn up no
    card and have no trump, even where cards are left over (RULES.md 2); a game
    of ``rounds=N`` turns up a card whenever one is left.
    """
    if rules.has("mono"):
        return list(range(4, 16)), [NO_TRUMP] * 12
    if rules.has("maximus"):
        return [deck_size // players] * 5, list(MAXIMUS_TRUMPS)
    if rules.has("elimination"):
        return list(range(1, ELIMINATION_ROUNDS + 1)), [FROM_INDICATOR] * (ELIMINATION_ROUNDS - 1) + [NO_TRUMP]
    sizes = standard_schedule(players, deck_size, rules.rounds)
    trumps = [FROM_INDICATOR] * len(sizes)
    if rules.rounds is None:
        trumps[-1] = NO_TRUMP
    return sizes, trumps


def hand_trump(players: int, cards: int) -> int:
    """Fixed trump of an independent round (``--cards K --hands H``).

    A round of 60 / n cards is the standard table's last round: no card is
    turned up and there is no trump, with or without specials (RULES.md 2;
    docs/decisions.md). Every other round turns up a card when one is left.
    """
    return NO_TRUMP if cards == standard_last_round(players) else FROM_INDICATOR


def check_round_size(players: int, cards: int, deck_size: int = BASE_DECK_SIZE) -> int:
    """Validate a round size: 1 <= k and n * k <= deck size."""
    most = deck_size // players
    if not isinstance(cards, (int, np.integer)) or not 1 <= int(cards) <= most:
        raise WizsimError(
            f"{cards} cards per player is not allowed with {players} players; use 1 to {most}"
            f" ({deck_size} cards in the deck)"
        )
    return int(cards)
