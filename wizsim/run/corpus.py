"""The self-play corpus: games simulated once per report, kept as named records and read by every analysis.

Several analyses need the same games: ``learned`` self-play of full games with
the standard rules and the standard deck or all specials, 3-6 players, the
report's seed (expected_tricks, special_cards, strategies_by_round_size,
variant_balance; player_robustness under ``wizsim report --full``). Each used
to simulate them itself. A :class:`Corpus` plays
each chunk of such a run once and keeps its rounds in a Parquet file; any later
request for the same chunk reads the file. :func:`shared` says which runs are
kept (about 0.75 MB per 1,000 four-player games): the others are read by one
analysis only, and the corpus plays them with the counting kernel and keeps
nothing (the same numbers: the counts of a chunk's records are the kernel's).

What a file is. One chunk of one run: ``<root>/<code>/<key>/chunk-<i>-<count>.parquet``
with one row per recorded round and named columns (:data:`ROUND_COLUMNS`,
:data:`TRICK_COLUMNS`, :data:`SEAT_COLUMNS`, ``hands``). The key is the SHA-256
of the code fingerprint (every source and data file of the package: any edit
makes new keys, so a file never outlives the code that made it), the run's
configuration (players, seats' strategies, deck, rules, schedule, chunk size)
and its seed; the number of games or rounds is not in the key. The file's
metadata repeats key, chunk and count and holds the SHA-256 of the records; a
file whose metadata, length or digest does not match, or that cannot be read,
is played again (with a warning) and replaced.

Why a larger run serves a smaller one. Chunk ``i`` is seeded by
``SeedSequence(seed, spawn_key=(i,))`` whatever the run's length, and its items
are played one after the other from that seed, so the first ``c`` items of a
chunk of ``c' > c`` items are the chunk of ``c`` items. A request reads the file
of its chunk with its count or, failing that, the first rows of one with more.
``tests/test_corpus.py`` checks both (and that every count computed from the
records equals the counting kernel's).

Files sit in ``<root>/<code fingerprint>/<key>/``; :meth:`Corpus.prune` (run by
``wizsim report`` when it starts) deletes the folders of other code, so the
corpus does not grow with every edit.

What is kept. What the analyses read: the deal, the bids, the tricks' leaders
and winners, the scores and the seats. Not the cards played, their legal
masks or the Juggler's passes (``wizsim history`` writes those): records read
back from a corpus have empty ``plays``, ``legal`` and ``passes`` arrays
(shape ``[rows, 0, players]``).

Files are written to a temporary name and moved into place: a killed report
never leaves a half-written one, and a rerun reads the finished files. Two
processes that make the same chunk at the same moment (two report lanes) both
play it and write the same bytes: correct, only the work is done twice.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..engine import layout as L
from ..game.records import RoundRecords
from .spec import Counts, RunSpec, run_block

CORPUS_FORMAT = "wizsim-corpus/1"
META_KEY = b"wizsim-corpus"
#: per round: the columns of ``RoundRecords.info`` (layout.I_*) kept under their names
ROUND_COLUMNS = {
    "dealer": L.I_DEALER,
    "cards": L.I_CARDS,
    "indicator": L.I_INDICATOR,
    "trump": L.I_TRUMP,
    "werewolf": L.I_WEREWOLF,
    "swapped": L.I_SWAPPED,
    "players": L.I_PLAYERS,
}
#: per round and trick (``kmax`` values each): leader, winner (-1: bombed), next leader
TRICK_COLUMNS = ("leaders", "winners", "next_leaders")
#: per round and seat (``players`` values each): the blocks of ``info`` from ``layout.info_seats``, then the game seats
SEAT_COLUMNS = ("bids", "tricks_won", "scores", "final_bids")
INT16 = np.iinfo(np.int16)
CHUNK_FILE = re.compile(r"chunk-(\d+)-(\d+)\.parquet")
STALE_TMP_SECONDS = 900  # a temporary file older than this belongs to a writer that died
BLOCK_CHUNKS = 8  # chunks per worker task of :meth:`Corpus.result`


@functools.cache
def code_fingerprint() -> str:
    """SHA-256 of every source and data file of the wizsim package (what a simulation's numbers are made of)."""
    package = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.suffix in (".py", ".npz", ".json") and p.is_file()):
        h.update(path.relative_to(package).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def shared(spec: RunSpec) -> bool:
    """Whether the corpus keeps ``spec``'s chunks: full games of ``learned`` self-play (the strongest player fast
    enough for the analyses' samples), standard rules, the standard deck or all seven specials, its own network."""
    from ..game.cards import SPECIAL_NAMES
    from ..game.rules import parse_rules
    from .spec import strategy_label

    return (
        spec.games_mode
        and not spec.custom_deck
        and not spec.custom_schedule
        and spec.preset is None
        and spec.log is None
        and spec.learned_path is None
        and all(strategy_label(s) == "learned" for s in spec.strategies)
        and spec.rules.as_dict() == parse_rules(None).as_dict()
        and list(spec.specials) in ([], list(SPECIAL_NAMES))
    )


def run_identity(spec: RunSpec) -> dict:
    """What a run's rounds depend on, except its length: the provenance without the counts of games and rounds."""
    if spec.preset is not None or spec.log is not None:
        raise ValueError("the corpus keeps self-play runs: not advisor rounds (preset) or training logs")
    ident = {k: v for k, v in spec.provenance().items() if k not in ("games", "hands", "rounds", "wizsim_version")}
    ident["learned_path"] = spec.learned_path
    return ident


def run_key(spec: RunSpec) -> str:
    """The folder name of a run's chunks: SHA-256 of the format, the code fingerprint, the run and its seed."""
    text = json.dumps({"format": CORPUS_FORMAT, "code": code_fingerprint(), "run": run_identity(spec)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# --------------------------------------------------------------------------- records <-> Parquet


def _fixed(values: np.ndarray, width: int):
    import pyarrow as pa

    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1)), width)


def records_table(rec: RoundRecords, meta: dict):
    """The rounds of ``rec`` as a pyarrow Table of named columns (module docstring), ``meta`` in its metadata."""
    import pyarrow as pa

    info = rec.info
    if info.size and (info.min() < INT16.min or info.max() > INT16.max):
        raise ValueError("a recorded value does not fit the corpus's 16-bit columns")
    n, kmax = rec.players, rec.kmax
    cols = {name: pa.array(info[:, col].astype(np.int16)) for name, col in ROUND_COLUMNS.items()}
    for t, name in enumerate(TRICK_COLUMNS):
        cols[name] = _fixed(info[:, L.I_TRICKS + t * kmax : L.I_TRICKS + (t + 1) * kmax].astype(np.int16), kmax)
    base = L.info_seats(kmax)
    for b, name in enumerate(SEAT_COLUMNS):
        cols[name] = _fixed(info[:, base + b * n : base + (b + 1) * n].astype(np.int16), n)
    cols["seats"] = _fixed(rec.seats.astype(np.int16), n)
    cols["hands"] = _fixed(np.ascontiguousarray(rec.hands), n * kmax)
    table = pa.table(cols)
    return table.replace_schema_metadata({META_KEY: json.dumps(meta, sort_keys=True).encode()})


def records_digest(rec: RoundRecords) -> str:
    """SHA-256 of what a corpus file keeps of ``rec`` (hands, round info, seats): written with it, checked on read."""
    h = hashlib.sha256()
    for arr in (rec.hands, rec.info, rec.seats):
        h.update(str(arr.shape).encode())
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def _column(table, name: str, width: int) -> np.ndarray:
    """Column ``name`` as a NumPy array: [rows] (``width`` 0) or [rows, width] (a fixed-size list column)."""
    arr = table.column(name).combine_chunks()
    if width:
        return np.asarray(arr.flatten()).reshape(len(table), width)  # flatten: respects a slice's offset
    return np.asarray(arr)


def table_records(table, players: int, kmax: int) -> RoundRecords:
    """The :class:`RoundRecords` of a corpus table (without plays, legal masks and passes: module docstring)."""
    rows = len(table)
    rec = RoundRecords(
        players,
        kmax,
        _column(table, "hands", players * kmax).astype(np.uint8).reshape(rows, players, kmax),
        np.zeros((rows, L.info_width(players, kmax)), dtype=np.int64),
        np.zeros((rows, 0, players), dtype=np.int64),
        np.zeros((rows, 0, players), dtype=np.uint64),
        np.zeros((rows, 0, players), dtype=np.int64),
        _column(table, "seats", players).astype(np.int64),
    )
    for name, col in ROUND_COLUMNS.items():
        rec.info[:, col] = _column(table, name, 0)
    for t, name in enumerate(TRICK_COLUMNS):
        rec.info[:, L.I_TRICKS + t * kmax : L.I_TRICKS + (t + 1) * kmax] = _column(table, name, kmax)
    base = L.info_seats(kmax)
    for b, name in enumerate(SEAT_COLUMNS):
        rec.info[:, base + b * players : base + (b + 1) * players] = _column(table, name, players)
    return rec


# --------------------------------------------------------------------------- counts from records


def counts_of_records(spec: RunSpec, rec: RoundRecords) -> Counts:
    """The integer counts the counting kernel adds for these rounds (``engine.run.accumulate_round``, ``award_game``).

    ``rec`` holds whole items of ``spec`` (games in games mode) in play order.
    Round seat ``i`` of a round of ``m`` players dealt by ``d`` sits at position
    ``(i - d - 1) mod m`` (0: left of the dealer); its counts go to its game seat.
    """
    n, kmax = spec.players, max(spec.schedule)
    acc = Counts.zeros(n, kmax)
    rows = len(rec)
    if rows == 0:
        return acc
    m = rec.round_players
    seat_idx = np.arange(n)[None, :]
    valid = seat_idx < m[:, None]
    pos = (seat_idx + m[:, None] - 1 - rec.dealer[:, None]) % np.maximum(m[:, None], 1)
    k = np.broadcast_to(rec.cards[:, None], (rows, n))[valid]
    seat, pos = rec.seats[valid], pos[valid]
    bid, won, final, score = rec.bids[valid], rec.tricks_won[valid], rec.final_bids[valid], rec.scores[valid]
    cell = (k * n + seat) * n + pos
    np.add.at(acc.joint.reshape(-1), (cell * (kmax + 1) + bid) * (kmax + 1) + won, 1)
    miss = np.abs(final - won)
    aux = acc.aux.reshape(-1, L.N_AUX)
    for col, value in ((L.AUX_SCORE, score), (L.AUX_SCORE_SQ, score * score), (L.AUX_HIT, (miss == 0).astype(np.int64)),
                       (L.AUX_MISS, miss), (L.AUX_MISS_SQ, miss * miss)):  # fmt: skip
        np.add.at(aux[:, col], cell, value)
    if spec.games_mode:
        per_game = len(spec.schedule)
        games = rows // per_game
        game = np.broadcast_to((np.arange(rows) // per_game)[:, None], (rows, n))[valid]
        totals = np.zeros((games, n), dtype=np.int64)
        np.add.at(totals, (game, seat), score)
        acc.game_acc[L.G_TOTAL] += totals.sum(axis=0)
        acc.game_acc[L.G_TOTAL_SQ] += (totals * totals).sum(axis=0)
        last = np.arange(per_game - 1, rows, per_game)  # the last round: the players still in take part in it
        still_in = np.zeros((games, n), dtype=bool)
        last_valid = valid[last]
        still_in[np.nonzero(last_valid)[0], rec.seats[last][last_valid]] = True
        top = np.where(still_in, totals, np.iinfo(np.int64).min).max(axis=1)
        winner = still_in & (totals == top[:, None])
        share = L.WIN_SHARE // winner.sum(axis=1)
        acc.game_acc[L.G_WINS] += (winner * share[:, None]).sum(axis=0)
        acc.game_acc[L.G_WINS_SQ] += (winner * (share * share)[:, None]).sum(axis=0)
    return acc


# --------------------------------------------------------------------------- the corpus


@dataclass(frozen=True)
class Corpus:
    """Chunks of self-play runs kept as Parquet files under ``root`` (module docstring).

    ``root=None`` keeps nothing: every request plays its chunk (what an analysis
    does alone; the numbers are the same either way). ``keep`` says which runs
    are kept (default :func:`shared`).
    """

    root: Path | None
    keep: Callable[[RunSpec], bool] = shared

    @classmethod
    def beside(cls, outdir: Path) -> Corpus:
        """The corpus of a results folder: ``<outdir>/.cache/corpus`` (beside the report's cache)."""
        return cls(Path(outdir).resolve() / ".cache" / "corpus")  # absolute: workers may run elsewhere

    def _folder(self, key: str) -> Path:
        assert self.root is not None
        return self.root / code_fingerprint()[:16] / key

    def prune(self) -> int:
        """Delete the files of other code (their keys can never be asked for again); return the folders deleted."""
        if self.root is None or not self.root.is_dir():
            return 0
        gone = [d for d in self.root.iterdir() if d.is_dir() and d.name != code_fingerprint()[:16]]
        for d in gone:
            shutil.rmtree(d, ignore_errors=True)
        # temporaries of writers killed mid-write (a lane ended by another's error): none is younger than a chunk
        old = time.time() - STALE_TMP_SECONDS
        for tmp in self.root.glob("*/*/.*.tmp"):
            with contextlib.suppress(OSError):
                if tmp.stat().st_mtime < old:
                    tmp.unlink()
        return len(gone)

    def records(self, spec: RunSpec, chunk: int) -> tuple[int, RoundRecords]:
        """Chunk ``chunk`` of ``spec``: its first item and its rounds (what ``history.record_chunk_arrays`` returns,
        without plays, legal masks and passes), read from the corpus or played and kept."""
        first, count, _ = spec.chunk_range(chunk, chunk + 1)
        first_item, count_items = int(first[0]), int(count[0])
        per_item = len(spec.schedule) if spec.games_mode else 1
        kmax = max(spec.schedule)
        keep = self.root is not None and self.keep(spec)
        key = run_key(spec) if keep else None  # once per chunk, and only for a kept run
        meta = {"format": CORPUS_FORMAT, "key": key, "chunk": chunk, "first": first_item}
        if key is not None:
            found = self._read(spec, key, chunk, count_items, meta)
            if found is not None:
                return first_item, found.select(slice(0, count_items * per_item))
        from .history import record_chunk_arrays

        _, rec = record_chunk_arrays(spec, chunk)
        table = records_table(rec, meta | {"count": count_items})
        kept = table_records(table, spec.players, kmax)  # what a reader gets back, and its digest
        if key is not None:
            table = table.replace_schema_metadata(
                {META_KEY: json.dumps(meta | {"count": count_items, "sha256": records_digest(kept)}).encode()}
            )
            self._write(table, self._folder(key) / f"chunk-{chunk}-{count_items}.parquet")
        return first_item, kept

    def _read(self, spec: RunSpec, key: str, chunk: int, count: int, meta: dict) -> RoundRecords | None:
        """The records of the chunk's file with ``count`` items or, failing that, of one with more; None if none.

        A file is used only if its metadata is this chunk's and the records read back have the SHA-256 written
        with them (a flipped bit anywhere in the data is caught); any other file is played again, with a warning.
        """
        import pyarrow.parquet as pq

        folder = self._folder(key)
        if not folder.is_dir():
            return None
        names = (CHUNK_FILE.fullmatch(p.name) for p in folder.glob(f"chunk-{chunk}-*.parquet"))
        counts = sorted(int(m.group(2)) for m in names if m and int(m.group(1)) == chunk)
        per_item = len(spec.schedule) if spec.games_mode else 1
        for c in [c for c in counts if c == count] + [c for c in counts if c > count]:
            path = folder / f"chunk-{chunk}-{c}.parquet"
            try:
                table = pq.read_table(path)
                saved = json.loads((table.schema.metadata or {}).get(META_KEY, b"{}"))
                digest = saved.pop("sha256", None)
                rec = table_records(table, spec.players, max(spec.schedule))
                ok = saved == meta | {"count": c} and len(rec) == c * per_item and digest == records_digest(rec)
            except Exception as exc:  # noqa: BLE001 - any unreadable file is played again
                ok, rec = False, None
                reason = f"{type(exc).__name__}: {exc}"
            else:
                reason = "its metadata, length or SHA-256 is not this chunk's"
            if ok:
                return rec
            warnings.warn(f"corpus file {path} cannot be used ({reason}): playing the chunk again", stacklevel=3)
        return None

    @staticmethod
    def _write(table, path: Path) -> None:
        import pyarrow.parquet as pq

        path.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")  # unique per writer
        os.close(fd)
        tmp = Path(name)
        try:
            pq.write_table(table, tmp, compression="zstd")
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)

    def counts(self, spec: RunSpec, lo: int, hi: int) -> Counts:
        """The summed counts of chunks ``lo .. hi - 1``: ``spec.run_block``'s, from their records if kept."""
        if self.root is None or not self.keep(spec):
            return run_block(spec, lo, hi)
        acc = Counts.zeros(spec.players, max(spec.schedule))
        for chunk in range(lo, hi):
            acc += counts_of_records(spec, self.records(spec, chunk)[1])
        return acc

    def result(self, spec: RunSpec, jobs: int = 1):
        """:func:`wizsim.simulate_result` of ``spec`` from the corpus (the same counts, tables and provenance)."""
        from .parallel import map_tasks
        from .simulate import SimulationResult

        tasks = [(spec, lo, min(lo + BLOCK_CHUNKS, spec.n_chunks)) for lo in range(0, spec.n_chunks, BLOCK_CHUNKS)]
        acc = Counts.zeros(spec.players, max(spec.schedule))
        for part in map_tasks(self.counts, tasks, jobs):
            acc += part
        return SimulationResult(spec, acc, spec.provenance())


#: the corpus that keeps nothing: every request plays its chunk (an analysis's default outside a report)
PLAYED = Corpus(None)
