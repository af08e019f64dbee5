"""The Numba engine: deal, bid, play and score rounds and games on flat integer arrays.

Private to wizsim: the public API (``wizsim.simulate``) validates input, fixes
dtypes, seeds chunks and turns the integer counts returned here into tables.
See ``docs/architecture.md`` for the map and the data flow.

Modules, from the bottom up:

* :mod:`.layout`: every shared number (card codes, table columns, rule slots,
  parameter blocks, record columns); plain Python.
* :mod:`.jit.config`: Numba options and the cache fingerprint; :mod:`.jit.compile_time`:
  a fix for Numba's inliner that cuts the first compile by about a third.
* :mod:`.jit.bits`, :mod:`.jit.rng`: bit tricks on 64-bit hand masks; SplitMix64 streams.
* :mod:`.game.trick`: legal cards and the trick's winner; :mod:`.game.score`: points.
* :mod:`.game.deal`: dealing; :mod:`.game.events`: trump naming, the Werewolf, the Juggler's passes.
* :mod:`.players`: one module per registered player (``random``, ``heuristic``, ``table``,
  ``pimc``, ``learned``) with its ``bid`` and ``card`` entry points, a user's bid ``rule``,
  and :mod:`.players.seats`, the one switch on player ids.
* :mod:`.round`: a round as phases; :mod:`.run`: games, chunks, counts and records.

Representation: a card is its type code, a played card its *form* (a Juggler
or Cloud with its named suit, a Shapeshifter with its role); a hand is a
``uint64`` mask of the types it holds plus ``cnt[seat, type]`` copies. Card
properties come from ``table[form, column]``, suit masks from ``masks``; rules
from the int64 ``rules`` array; strategies from ``strat[seat]`` ids and
``params[seat, :]`` rows. A special card is a row of the table plus, where a
rule looks at the whole trick, a trick flag.

Importing this package first checks the on-disk cache against the engine's
fingerprint (:func:`.jit.config.check_cache`), then defines the kernels.
"""

from __future__ import annotations

from .jit import compile_time
from .jit.config import check_cache

check_cache()  # before any kernel module below is imported (and could load stale machine code)
compile_time.apply()  # Numba's inliner without its quadratic IR copies (compile time only)

from . import layout  # noqa: E402
from .run import record_chunk, simulate_chunks  # noqa: E402

__all__ = ["layout", "record_chunk", "simulate_chunks"]
