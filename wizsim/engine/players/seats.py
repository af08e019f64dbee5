"""What a seat does on its turn: the one switch on player ids, for bids and for card play, made from the registry.

Every registered player (:data:`..layout.REGISTRY`) has a module in this
package, ``engine/players/<name>.py``, with two entry points of one fixed
signature each:

* ``bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)``
  returns (bid, estimate) before the Canadian rule's step;
* ``card(turn, trick, legal, setup, players, dec_st, seats, view, net)``
  returns the form played, before a flexible card's form is settled;

and ``NEEDS``, what its seats need from the round (``"view"``: the round
keeps the view of the table that it reads).

``turn`` is a :class:`..bundles.BidTurn` or :class:`..bundles.Turn`,
``trick`` a :class:`..bundles.Trick`, ``legal`` the legal cards' mask,
``dec_st`` the decision stream, ``view``/``net`` what pimc and learned read
(:class:`..bundles.NoView` and placeholders when no seat reads them). The
entry points are inlined, so a real call inside them receives only the
arrays it reads (the measured lesson: passing the whole bundles to a
per-decision call made the learned player 3x slower). A user's bid rule
(:mod:`.rule`) is laid over any player's card play and comes first.

The switches are written from the registry when this module is imported
(:func:`switch_source`): one ``if kind == <id>`` branch per registered player,
in registry order, the last player the fall-through (the Python layer admits
registered ids only). That is the same code as branches written by hand, so it
runs at the same speed; dispatching through a tuple of entry points with
Numba's ``literal_unroll`` (first-class functions, experimental) ran 1.4x
slower on a toy loop of 10^8 decisions. A new player therefore needs no edit
here. The generated functions are inlined into the cached kernels that call
them, and the registry they are made from is part of the engine's cache
fingerprint (``layout.py``). The kernels do not use this module's full switch:
:func:`..run.play_items_seated` compiles the round with the switch of the
players its run can seat (:func:`compile_switch`), so that a run of random
players does not compile the other players' decisions.

The round looks at a seat's strategy id once itself, for random play's fast
path (:func:`.random.random_card` drawn in the loop: through this switch
random play with all special cards ran 2-7% slower, best of 7).
"""

from __future__ import annotations

import importlib
import linecache

from ..external import answered, asking, decide_external, is_external
from ..jit.bits import ZERO
from ..jit.config import hot, inline_generated
from ..layout import DK_BID, REGISTRY
from . import rule

#: each registered player's engine module, by strategy id
PLAYER_MODULES = tuple(importlib.import_module(f"{__package__}.{player.name}") for player in REGISTRY)
#: strategy ids whose seats read the view of the table (``"view"`` in their module's ``NEEDS``)
VIEW_IDS = tuple(i for i, module in enumerate(PLAYER_MODULES) if "view" in module.NEEDS)

BID_ARGS = "turn, named, clairvoyant, setup, players, dec_st, seats, view"
CARD_ARGS = "turn, trick, legal, setup, players, dec_st, seats, view, net"


def switch_source(names: tuple[str, ...], view_ids: tuple[int, ...], ids: tuple[int, ...] | None = None) -> str:
    """The source of ``keeps_view``, ``player_bid`` and ``player_card`` for the players ``names`` (by id).

    One branch per player in ``ids`` (default: all), calling ``player_<id>.bid``/``.card``, the last of them the
    fall-through; ``view_ids``: the ids whose seats read the view.
    """
    ids = tuple(range(len(names))) if ids is None else ids
    last = ids[-1]
    view_test = " or ".join(f"strat[p] == {i}" for i in view_ids) or "False"
    lines = [
        "def keeps_view(n, strat):",
        '    """Whether a seat reads the view of the table (pimc, learned): then the round keeps it."""',
        "    track = False",
        "    for p in range(n):",
        f"        track |= {view_test}",
        "    return track",
        "",
    ]
    for entry, args, out in (("bid", BID_ARGS, "(bid, estimate)"), ("card", CARD_ARGS, "form")):
        lines += [
            f"def player_{entry}({args}):",
            f'    """The {out} of seat ``turn.p`` as its registered player decides it."""',
            "    kind = players.strat[turn.p]",
        ]
        for i in ids[:-1]:
            lines += [f"    if kind == {i}:  # {names[i]}", f"        return player_{i}.{entry}({args})"]
        lines += [f"    return player_{last}.{entry}({args})  # {names[last]}", ""]
    return "\n".join(lines)


def compile_switch(ids: tuple[int, ...]) -> dict:
    """``keeps_view``, ``player_bid`` and ``player_card`` with branches for the registered players ``ids`` only.

    Executes :func:`switch_source` (kept in ``linecache``, so ``inspect.getsource`` shows it) and makes each
    function inlinable. A branch keeps its player's registry id; the last of ``ids`` is the fall-through.
    """
    names = tuple(player.name for player in REGISTRY)
    source = switch_source(names, tuple(i for i in VIEW_IDS if i in ids), ids)
    label = ",".join(REGISTRY[i].name for i in ids)
    filename = f"<wizsim.engine.players.seats: switch made from the registered players {label}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    namespace: dict = {f"player_{i}": module for i, module in enumerate(PLAYER_MODULES)}
    namespace["__name__"] = __name__  # the functions' __module__: this module
    exec(compile(source, filename, "exec"), namespace)  # noqa: S102 - our own source, made from the registry
    return {name: inline_generated(namespace[name]) for name in ("keeps_view", "player_bid", "player_card")}


#: the generated switch of every registered player: compiled only into its callers, so it has no on-disk cache of
#: its own (Numba's NullCache); :mod:`..variants` makes the kernels' switches for the players a run can seat
_SWITCH = compile_switch(tuple(range(len(REGISTRY))))
keeps_view = _SWITCH["keeps_view"]
player_bid = _SWITCH["player_bid"]
player_card = _SWITCH["player_card"]


@hot
def seat_bid(turn, named, clairvoyant, setup, players, dec_st, seats, view):
    """Seat ``turn.p``'s bid, the Canadian rule's step included (towards the player's estimate).

    An external seat's bid comes from the script (:mod:`..external`), legal as given, unless its own player is
    asked for it.
    """
    script, on = setup.pre.script, setup.feats.external
    ext = is_external(on, script, players.params, turn.p)
    asked = ext and asking(script, turn.p)
    if ext and not asked:
        return decide_external(on, script, DK_BID, turn.p, -1, turn.i, turn.n, turn.k, turn.dealer, turn.trump,
                               turn.shown, turn.forbidden, -1, ZERO, seats.cnt, seats.bids, seats.won, seats.work)  # fmt: skip
    if rule.has_rule(turn, clairvoyant, players):
        b, est = rule.bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    else:
        b, est = player_bid(turn, named, clairvoyant, setup, players, dec_st, seats, view)
    b = canadian_step(b, est, turn.k, turn.forbidden)
    if asked:
        answered(script, DK_BID, turn.p, b)
    return b


@hot
def seat_card(turn, trick, legal, setup, players, dec_st, seats, view, net):
    """The form seat ``turn.p`` plays, ``legal`` its legal cards (the round draws a random seat's card itself;
    an external seat's comes from the script, see ``round.trick_phase``)."""
    return player_card(turn, trick, legal, setup, players, dec_st, seats, view, net)


@hot
def canadian_step(b, est, k, forbidden):
    """Step off the Canadian rule's forbidden bid towards the side of the estimate (docs/decisions.md)."""
    if b == forbidden:
        if (est >= b and b < k) or b == 0:
            return b + 1
        return b - 1
    return b
