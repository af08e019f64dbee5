"""The rules of Wizard as wizsim plays them, and the rule options as data.

Rules in prose (the full text with its sources is ``../shared/RULES.md``;
section numbers below refer to it). This module turns the named options into
the small integer array the kernels read.

Cards (1). 52 suit cards, Blue/Red/Green/Yellow x 1..13 (13 high), 4 Wizards,
4 Jesters; 60 in all.

Players and rounds (2). 3 to 6 players in seats 0..n-1 clockwise; round ``k``
deals ``k`` cards to everyone; a standard game has 60/n rounds. The dealer of
round 1 is seat 0 and the deal passes clockwise (to seat ``dealer + 1``).

Trump (3). The top card of the undealt stock is turned up. A suit card makes
its suit trump; a Jester, or no card left (the last round), means no trump;
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

Choices where RULES.md is silent are listed in ``docs/decisions.md``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np

from .cards import BASE_DECK_SIZE
from .errors import WizsimError

MIN_PLAYERS = 3
MAX_PLAYERS = 6

# Indices into the int64 rule array the kernels read.
R_CANADIAN = 0
R_SCORING = 1  # 0 standard, 1 progressive
R_WIZARD_INDICATOR = 2  # 0 dealer_chooses, 1 no_trump
N_RULE_SLOTS = 8

SCORING_VALUES = ("standard", "progressive")
WIZARD_INDICATOR_VALUES = ("dealer_chooses", "no_trump")

#: HISTORY.md option keys that later work (special cards, variants) will open up;
#: today only their default value is accepted.
_FIXED_OPTIONS = {
    "bomb": ("void_trick", ("void_trick", "cancel_bids")),
    "werewolf": ("must", ("must", "may")),
    "passive_indicator": ("dealer_chooses", ("dealer_chooses", "no_trump")),
    "variant": ("standard", ("standard", "clairvoyance", "mono", "maximus", "elimination")),
    "hidden_bids": ("off", ("off", "simultaneous", "secret")),
}


@dataclass(frozen=True)
class Rules:
    """The rule options in force (RULES.md names; defaults are the majority ruling).

    Parameters
    ----------
    canadian
        Sum of bids may not equal the number of cards dealt (section 4).
    scoring
        ``"standard"`` or ``"progressive"`` (section 8).
    wizard_indicator
        ``"dealer_chooses"`` or ``"no_trump"``: what a Wizard turned up means (section 3).
    rounds
        Number of rounds of a full game; None means the standard 60 / players.
    """

    canadian: bool = False
    scoring: str = "standard"
    wizard_indicator: str = "dealer_chooses"
    rounds: int | None = None
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.scoring not in SCORING_VALUES:
            raise WizsimError(f"rule scoring={self.scoring!r} is not allowed; use one of {', '.join(SCORING_VALUES)}")
        if self.wizard_indicator not in WIZARD_INDICATOR_VALUES:
            raise WizsimError(
                f"rule wizard_indicator={self.wizard_indicator!r} is not allowed;"
                f" use one of {', '.join(WIZARD_INDICATOR_VALUES)}"
            )
        if self.rounds is not None and (not isinstance(self.rounds, int) or self.rounds < 1):
            raise WizsimError(f"rule rounds={self.rounds!r} is not allowed; use a whole number >= 1")

    def to_array(self) -> np.ndarray:
        """Return the int64 rule array the kernels read."""
        arr = np.zeros(N_RULE_SLOTS, dtype=np.int64)
        arr[R_CANADIAN] = int(self.canadian)
        arr[R_SCORING] = SCORING_VALUES.index(self.scoring)
        arr[R_WIZARD_INDICATOR] = WIZARD_INDICATOR_VALUES.index(self.wizard_indicator)
        return arr

    def options(self) -> dict:
        """Return the HISTORY.md ``options`` object for these rules."""
        out = {
            "canadian": self.canadian,
            "scoring": self.scoring,
            "wizard_indicator": self.wizard_indicator,
        }
        out.update({key: default for key, (default, _) in _FIXED_OPTIONS.items()})
        return out

    def as_dict(self) -> dict:
        """Return the rules as a plain dict (for provenance)."""
        d = asdict(self)
        d.pop("extra", None)
        d.update({key: default for key, (default, _) in _FIXED_OPTIONS.items()})
        return d


def _parse_bool(key: str, value: str) -> bool:
    v = value.strip().lower()
    if v in ("true", "1", "yes", "on"):
        return True
    if v in ("false", "0", "no", "off"):
        return False
    raise WizsimError(f"rule {key}={value!r} is not allowed; use {key}=true or {key}=false")


def parse_rules(items: list[str] | tuple[str, ...] | dict | None) -> Rules:
    """Build :class:`Rules` from ``KEY=VALUE`` strings (the ``--rule`` flags) or a dict.

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
        pairs = [
            (str(k), v if isinstance(v, str) else str(v).lower() if isinstance(v, bool) else str(v))
            for k, v in items.items()
        ]
    else:
        for item in items:
            if "=" not in item:
                raise WizsimError(f"malformed rule {item!r}: write KEY=VALUE, e.g. canadian=true")
            key, value = item.split("=", 1)
            pairs.append((key.strip().lower(), value.strip()))
    kwargs: dict = {}
    known = ("canadian", "scoring", "wizard_indicator", "rounds", *_FIXED_OPTIONS)
    for key, value in pairs:
        if key == "canadian":
            kwargs["canadian"] = _parse_bool(key, value)
        elif key in ("scoring", "wizard_indicator"):
            kwargs[key] = value.lower()
        elif key == "rounds":
            try:
                kwargs["rounds"] = int(value)
            except ValueError:
                raise WizsimError(f"rule rounds={value!r} is not allowed; use a whole number >= 1") from None
        elif key in _FIXED_OPTIONS:
            default, values = _FIXED_OPTIONS[key]
            if value.lower() not in values:
                raise WizsimError(f"rule {key}={value!r} is not allowed; use one of {', '.join(values)}")
            if value.lower() != default:
                raise WizsimError(
                    f"rule {key}={value} is not supported by this version of wizsim yet;"
                    f" only {key}={default} is (special cards and variants come later)"
                )
        else:
            raise WizsimError(f"unknown rule {key!r}; known rules: {', '.join(known)}")
    return Rules(**kwargs)


def check_players(players: int) -> int:
    """Validate the number of players (3 to 6)."""
    if not isinstance(players, (int, np.integer)) or not MIN_PLAYERS <= int(players) <= MAX_PLAYERS:
        raise WizsimError(f"{players} players is not allowed; Wizard is played by 3 to 6 players")
    return int(players)


def standard_schedule(players: int, deck_size: int = BASE_DECK_SIZE, rounds: int | None = None) -> list[int]:
    """Return the hand sizes of a full game: 1, 2, ..., 60/n (or ``rounds``)."""
    most = deck_size // players
    if rounds is None:
        rounds = most
    if rounds > most:
        raise WizsimError(
            f"rounds={rounds} is too many: {players} players can be dealt at most {most} rounds from {deck_size} cards"
        )
    return list(range(1, rounds + 1))


def check_round_size(players: int, cards: int, deck_size: int = BASE_DECK_SIZE) -> int:
    """Validate a round size: 1 <= k and n * k <= deck size."""
    most = deck_size // players
    if not isinstance(cards, (int, np.integer)) or not 1 <= int(cards) <= most:
        raise WizsimError(
            f"{cards} cards per player is not allowed with {players} players; use 1 to {most}"
            f" ({deck_size} cards in the deck)"
        )
    return int(cards)
