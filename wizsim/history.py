"""Hand histories: every simulated round as one JSON line (``../shared/HISTORY.md``).

The same seed and selection give the same rounds as :func:`wizsim.simulate`:
both draw from the same chunk streams, so a history is an audit trail of the
very rounds behind a table.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import numpy as np

from . import _kernels as K
from . import cards as C
from .io import atomic_path
from .simulate import RunSpec, _strategy_label, make_spec


def _names(codes) -> list[str]:
    return [C.card_name(int(c)) for c in codes]


def _distinct_names(mask: int) -> list[str]:
    return [C.card_name(b) for b in range(64) if (mask >> b) & 1]


def iter_history(spec: RunSpec, include_legal: bool = False, jobs: int = 1) -> Iterator[dict]:
    """Yield one HISTORY.md record (a dict) per simulated round of ``spec``, in order.

    With ``include_legal`` each record also has ``legal``: per trick, per card
    played, the sorted distinct card names the player could legally play.
    In elimination games a record also has ``seats``: the game seat of each of
    the round's seats (the round numbers its players 0..players-1). With
    ``jobs > 1`` chunks are recorded by local worker processes; the records
    and their order are the same.
    """
    if jobs <= 1 or spec.n_chunks == 1:
        for chunk in range(spec.n_chunks):
            yield from _chunk_records(spec, chunk, include_legal)
        return
    from joblib import Parallel, delayed

    from .parallel import _LokyWithEnv, worker_env

    par = Parallel(
        n_jobs=min(jobs, spec.n_chunks),
        backend=_LokyWithEnv(env=worker_env(), inner_max_num_threads=1),
        batch_size=1,
        return_as="generator",  # in chunk order, a few chunks ahead at most
    )
    for records in par(delayed(_chunk_records)(spec, c, include_legal) for c in range(spec.n_chunks)):
        yield from records


def _chunk_records(spec: RunSpec, chunk: int, include_legal: bool) -> list[dict]:
    """The records of one chunk."""
    return list(_iter_chunk(spec, chunk, include_legal))


def record_chunk_arrays(spec: RunSpec, chunk: int) -> tuple[int, dict[str, np.ndarray]]:
    """Run chunk ``chunk`` of ``spec`` through the recording kernel.

    Returns the chunk's first item and the raw per-round arrays: ``hands``
    [rows, n, kmax] dealt cards by seat, ``info`` [rows, ...] (see
    ``_kernels.record_chunk``), ``plays`` [rows, kmax, n] forms in play order,
    ``legal`` [rows, kmax, n] legal masks, ``passes`` [rows, kmax, n] cards
    passed after a Juggler trick (-1 none), ``seats`` [rows, n].
    """
    n, kmax = spec.players, max(spec.schedule)
    schedule, trumps = spec.schedule_arrays()
    first, count, state = spec.chunk_range(chunk, chunk + 1)
    rows = int(count[0]) * len(schedule)
    arrays = {
        "hands": np.zeros((rows, n, kmax), dtype=np.uint8),
        "info": np.zeros((rows, 8 + 3 * kmax + 4 * n), dtype=np.int64),
        "plays": np.zeros((rows, kmax, n), dtype=np.int64),
        "legal": np.zeros((rows, kmax, n), dtype=np.uint64),
        "passes": np.full((rows, kmax, n), -1, dtype=np.int64),
        "seats": np.zeros((rows, n), dtype=np.int64),
    }
    K.record_chunk(
        n, schedule, trumps, int(spec.games_mode), int(first[0]), int(count[0]), state[0], *spec.kernel_args(),
        *arrays.values(),
    )  # fmt: skip
    return int(first[0]), arrays


def _iter_chunk(spec: RunSpec, chunk: int, include_legal: bool) -> Iterator[dict]:
    n = spec.players
    kmax = max(spec.schedule)
    per_item = len(spec.schedule)
    options = spec.options()
    strategies = [_strategy_label(s) for s in spec.strategies]
    elimination = spec.rules.has("elimination")
    first, arrays = record_chunk_arrays(spec, chunk)
    rec_hands, rec_info, rec_plays = arrays["hands"], arrays["info"], arrays["plays"]
    rec_legal, rec_pass, rec_seats = arrays["legal"], arrays["passes"], arrays["seats"]
    for row in range(rec_info.shape[0]):
        item = first + row // per_item
        info = rec_info[row]
        dealer, k, indicator, trump, wolf, swapped, na = (int(x) for x in info[:7])
        base = 8 + 3 * kmax
        bids = [int(x) for x in info[base : base + na]]
        won = [int(x) for x in info[base + n : base + n + na]]
        scores = [int(x) for x in info[base + 2 * n : base + 2 * n + na]]
        final_bids = [int(x) for x in info[base + 3 * n : base + 3 * n + na]]
        tricks = []
        for t in range(k):
            winner = int(info[8 + kmax + t])
            trick = {
                "leader": int(info[8 + t]),
                "cards": _names(rec_plays[row, t, :na]),
                "winner": winner if winner >= 0 else None,
                "next_leader": int(info[8 + 2 * kmax + t]),
            }
            if rec_pass[row, t, 0] >= 0:
                trick["passes"] = _names(rec_pass[row, t, :na])
            tricks.append(trick)
        record = {
            "seed": spec.seed,
            "game": item if spec.games_mode else 0,
            "players": na,
            "round": (row % per_item) + 1 if spec.games_mode else item + 1,
            "cards_per_player": k,
            "dealer": dealer,
            "specials": list(spec.specials),
            "options": options,
            "strategies": [strategies[int(s)] for s in rec_seats[row, :na]],
            "hands": [_names(sorted(rec_hands[row, p, :k])) for p in range(na)],
            "indicator": C.card_name(indicator) if indicator >= 0 else None,
            "werewolf": {"seat": wolf, "swapped": bool(swapped)} if wolf >= 0 else None,
            "trump": C.suit_name(trump),
            "bids": bids,
            "tricks": tricks,
            "tricks_won": won,
            "final_bids": final_bids,
            "scores": scores,
        }
        if elimination:
            record["seats"] = [int(s) for s in rec_seats[row, :na]]
        if spec.custom_deck:
            record["deck"] = _names(spec.deck)
        if include_legal:
            record["legal"] = [[_distinct_names(int(rec_legal[row, t, j])) for j in range(na)] for t in range(k)]
        yield record


def history(include_legal: bool = False, **selection) -> list[dict]:
    """Return the records of a (small) run as a list; ``selection`` as for :func:`wizsim.simulate`."""
    return list(iter_history(make_spec(**selection), include_legal))


def write_history(
    path: str | os.PathLike, spec: RunSpec, include_legal: bool = False, jobs: int = 1, progress: bool = False
) -> int:
    """Write ``spec``'s rounds as JSON lines to ``path`` atomically; return the number of lines.

    ``progress`` shows a bar on stderr (rounds, rounds/s, time left) for runs longer than 2 s.
    """
    from .parallel import chunks_done, progress_bar

    lines = 0
    with (
        atomic_path(path) as tmp,
        open(tmp, "w", encoding="utf-8") as f,
        progress_bar(spec, progress) as bar,
    ):
        for record in iter_history(spec, include_legal, jobs):
            f.write(json.dumps(record, separators=(", ", ": ")))
            f.write("\n")
            lines += 1
            bar.update(1)
            if lines % (spec.chunk_size * len(spec.schedule)) == 0:
                bar.set_description_str(chunks_done(lines // (spec.chunk_size * len(spec.schedule)), spec.n_chunks))
    return lines
