"""Hand histories: every simulated round as one JSON line (``../shared/HISTORY.md``).

The same seed and selection give the same rounds as :func:`wizsim.simulate`:
both draw from the same chunk streams, so a history is an audit trail of the
very rounds behind a table.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from ..engine import record_chunk
from ..game import cards as C
from ..game.records import RoundRecords
from ..players.bid_rules import rule_errors
from .io import atomic_path
from .parallel import Progress, RunOptions, chunks_done, workers
from .spec import RunSpec, make_spec, strategy_label


def _names(codes) -> list[str]:
    return [C.card_name(int(c)) for c in codes]


def _distinct_names(mask: int) -> list[str]:
    return [C.card_name(b) for b in range(64) if (mask >> b) & 1]


NO_CHECKPOINT = (
    "a history is written in order into one file, which is complete only at the end; "
    "rerun the command instead (the same seed writes the same file)"
)


def iter_history(spec: RunSpec, include_legal: bool = False, jobs: int = 1, **run_options: Any) -> Iterator[dict]:
    """Yield one HISTORY.md record (a dict) per simulated round of ``spec``, in order.

    With ``include_legal`` each record also has ``legal``: per trick, per card
    played, the sorted distinct card names the player could legally play.
    In elimination games a record also has ``seats``: the game seat of each of
    the round's seats (the round numbers its players 0..players-1). With
    ``jobs > 1`` (or ``backend="dask"``, ``scheduler``: see
    :class:`wizsim.run.parallel.RunOptions`; no ``checkpoint``) chunks are recorded
    by worker processes; the records and their order are the same.
    """
    for _, records in _chunks(spec, include_legal, RunOptions(jobs=jobs, **run_options)):
        yield from records


def _chunks(spec: RunSpec, include_legal: bool, options: RunOptions) -> Iterator[tuple[int, list[dict]]]:
    """``(chunk, its records)`` of every chunk, in chunk order (a few chunks ahead at most)."""
    options.refuse_checkpoint("history", NO_CHECKPOINT)
    tasks = [(spec, chunk, include_legal) for chunk in range(spec.n_chunks)]
    with workers(options, resumable=False) as pool:
        for (_, chunk, _), records in pool.map(_chunk_records, tasks, ordered=True):
            yield chunk, records


def _chunk_records(spec: RunSpec, chunk: int, include_legal: bool) -> list[dict]:
    """The records of one chunk."""
    return list(_iter_chunk(spec, chunk, include_legal))


def record_chunk_arrays(spec: RunSpec, chunk: int) -> tuple[int, RoundRecords]:
    """Run chunk ``chunk`` of ``spec`` through the recording kernel.

    Returns the chunk's first item and its rounds as :class:`wizsim.game.records.RoundRecords`
    (one row per round, in play order).
    """
    n, kmax = spec.players, max(spec.schedule)
    schedule = spec.schedule_arrays()
    first, count, state = spec.chunk_range(chunk, chunk + 1)
    rec = RoundRecords.empty(int(count[0]) * len(spec.schedule), n, kmax)
    from ..env.seated import seated  # Python agents at the table (imports the run layer)

    with seated(spec) as run, rule_errors(spec.bid_rules(), spec.play_rules()):
        record_chunk(
            n, schedule, int(first[0]), int(count[0]), state[0], *run.kernel_args(), rec.kernel_arrays(),
        )  # fmt: skip
    return int(first[0]), rec


def _iter_chunk(spec: RunSpec, chunk: int, include_legal: bool) -> Iterator[dict]:
    first, rec = record_chunk_arrays(spec, chunk)
    yield from round_records(spec, first, rec, include_legal)


def round_records(
    spec: RunSpec, first: int, rec: RoundRecords, include_legal: bool = False, strategies: list[str] | None = None
) -> Iterator[dict]:
    """The HISTORY.md records of recorded rounds ``rec`` of ``spec``, whose first item is ``first``.

    ``strategies``: the seats' labels (default: the spec's strategies; the
    environment names its agents' seats itself).
    """
    per_item = len(spec.schedule)
    options = spec.options()
    if strategies is None:
        strategies = [strategy_label(s) for s in spec.strategies]
    elimination = spec.rules.has("elimination")
    for row in range(len(rec)):
        item = first + row // per_item
        na = int(rec.round_players[row])
        k = int(rec.cards[row])
        indicator, wolf = int(rec.indicator[row]), int(rec.werewolf[row])
        bids = [int(x) for x in rec.bids[row, :na]]
        won = [int(x) for x in rec.tricks_won[row, :na]]
        scores = [int(x) for x in rec.scores[row, :na]]
        final_bids = [int(x) for x in rec.final_bids[row, :na]]
        tricks = []
        for t in range(k):
            winner = int(rec.winners[row, t])
            trick = {
                "leader": int(rec.leaders[row, t]),
                "cards": _names(rec.plays[row, t, :na]),
                "winner": winner if winner >= 0 else None,
                "next_leader": int(rec.next_leaders[row, t]),
            }
            if rec.passes[row, t, 0] >= 0:
                trick["passes"] = _names(rec.passes[row, t, :na])
            tricks.append(trick)
        record = {
            "seed": spec.seed,
            "game": item if spec.games_mode else 0,
            "players": na,
            "round": (row % per_item) + 1 if spec.games_mode else item + 1,
            "cards_per_player": k,
            "dealer": int(rec.dealer[row]),
            "specials": list(spec.specials),
            "options": options,
            "strategies": [strategies[int(s)] for s in rec.seats[row, :na]],
            "hands": [_names(sorted(rec.hands[row, p, :k])) for p in range(na)],
            "indicator": C.card_name(indicator) if indicator >= 0 else None,
            "werewolf": {"seat": wolf, "swapped": bool(rec.swapped[row])} if wolf >= 0 else None,
            "trump": C.suit_name(int(rec.trump[row])),
            "bids": bids,
            "tricks": tricks,
            "tricks_won": won,
            "final_bids": final_bids,
            "scores": scores,
        }
        if elimination:
            record["seats"] = [int(s) for s in rec.seats[row, :na]]
        if spec.custom_deck:
            record["deck"] = _names(spec.deck)
        if include_legal:
            record["legal"] = [[_distinct_names(int(rec.legal[row, t, j])) for j in range(na)] for t in range(k)]
        yield record


def history(include_legal: bool = False, **selection) -> list[dict]:
    """Return the records of a (small) run as a list; ``selection`` as for :func:`wizsim.simulate`.

    Parameters
    ----------
    include_legal : bool, default False
        Give each record ``legal`` too: per trick, per card played, the sorted distinct card
        names the player could legally play.
    **selection
        The run, as the arguments of :func:`wizsim.simulate` of the same names: ``players``,
        ``cards``, ``hands``, ``games``, ``schedule``, ``seed``, ``strategy``, ``rules``,
        ``deck`` and ``specials`` (no ``jobs`` or run options: the run is played here).

    Returns
    -------
    list of dict
        One HISTORY.md record per round, in order (the lines ``wizsim history`` writes).
    """
    return list(iter_history(make_spec(**selection), include_legal))


def write_history(
    path: str | os.PathLike, spec: RunSpec, include_legal: bool = False, jobs: int = 1, **run_options: Any
) -> int:
    """Write ``spec``'s rounds as JSON lines to ``path`` atomically; return the number of lines.

    Parameters
    ----------
    path : str or path-like
        The file written (replaced only once it is complete).
    spec : RunSpec
        The run (:func:`wizsim.run.spec.make_spec`).
    include_legal : bool, default False
        Give each record ``legal`` too: per trick, per card played, the sorted distinct card
        names the player could legally play.
    jobs : int, default 1
        Local worker processes; the file is the same for any number.
    **run_options
        ``backend``, ``scheduler``, ``progress`` and ``numba_cache`` as for
        :class:`wizsim.run.parallel.RunOptions` (no ``checkpoint``); ``progress=True``
        shows a bar on stderr (rounds, rounds/s, time left) for runs longer than 2 s.
        The file is the same for any of them.

    Returns
    -------
    int
        The number of lines (rounds) written.

    Raises
    ------
    WizsimError
        When a ``checkpoint`` is given (a history cannot resume).
    """
    options = RunOptions(jobs=jobs, **run_options)
    options.refuse_checkpoint("history", NO_CHECKPOINT)
    lines = 0
    with (
        atomic_path(path) as tmp,
        open(tmp, "w", encoding="utf-8") as f,
        Progress(spec.rounds, " hands", options.progress, desc=chunks_done(0, spec.n_chunks)) as bar,
    ):
        for chunk, records in _chunks(spec, include_legal, options):
            for record in records:
                f.write(json.dumps(record, separators=(", ", ": ")))
                f.write("\n")
            lines += len(records)
            bar.update(len(records), desc=chunks_done(chunk + 1, spec.n_chunks))
    return lines
