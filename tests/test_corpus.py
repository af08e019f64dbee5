"""The self-play corpus (wizsim.run.corpus): counts from its records equal the counting kernel's; its files are
read back exactly, serve shorter runs, are keyed by code, configuration and seed, and a bad one is played again."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import wizsim
from wizsim.run.corpus import Corpus, counts_of_records, run_key, shared
from wizsim.run.history import record_chunk_arrays
from wizsim.run.spec import make_spec, run_block

# every rule that changes who plays, deals, scores or wins: elimination (players leave), Canadian and Maximus
# (schedules and trumps), hidden bids, progressive scoring; specials (Cloud changes final bids, Bomb voids tricks)
CASES = {
    "standard": dict(players=4, games=300),
    "specials 3p": dict(players=3, games=300, specials="all"),
    "elimination 5p": dict(players=5, games=300, rules=["variant=elimination"]),
    "canadian": dict(players=4, games=300, rules=["canadian=true"]),
    "maximus 6p, mixed seats": dict(
        players=6, games=300, rules=["variant=maximus"], strategy="random,heuristic,random,random,heuristic,random"
    ),  # fmt: skip
    "hidden + progressive": dict(players=4, games=300, rules=["hidden_bids=simultaneous", "scoring=progressive"]),
    "hands mode": dict(players=4, cards=7, hands=20_000, specials="all"),
}


def _spec(case: dict, seed: int = 5):
    return make_spec(**({"strategy": "random"} | case), seed=seed)


def _every(spec) -> bool:  # keep every run (the default keeps learned self-play only): random players are quick
    return True


def _kept(root) -> Corpus:
    return Corpus(root, keep=_every)


def _same_counts(a, b) -> bool:
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ("joint", "aux", "game_acc"))


@pytest.mark.parametrize("name", list(CASES))
def test_counts_of_records_equal_the_counting_kernel(name, tmp_path):
    spec = _spec(CASES[name])
    ref = run_block(spec, 0, spec.n_chunks)
    assert ref.joint.sum() > 0
    assert _same_counts(counts_of_records(spec, record_chunk_arrays(spec, 0)[1]), run_block(spec, 0, 1))
    kept = _kept(tmp_path)
    assert _same_counts(kept.counts(spec, 0, spec.n_chunks), ref)  # played and written
    assert len(list(tmp_path.rglob("*.parquet"))) == spec.n_chunks
    assert _same_counts(kept.counts(spec, 0, spec.n_chunks), ref)  # read back
    assert _same_counts(Corpus(None).counts(spec, 0, spec.n_chunks), ref)  # nothing kept


def test_counts_of_records_are_not_blind():
    """A changed score or seat changes the counts: the comparison above can fail."""
    spec = _spec(CASES["standard"])
    _, rec = record_chunk_arrays(spec, 0)
    ref = counts_of_records(spec, rec)
    rec.scores[3, 1] += 10
    assert not _same_counts(counts_of_records(spec, rec), ref)


@pytest.mark.parametrize("name", ["specials 3p", "elimination 5p"])
def test_records_read_back_exactly(name, tmp_path):
    spec = _spec(CASES[name])
    kept = _kept(tmp_path)
    for chunk in (0, 1):
        first, direct = record_chunk_arrays(spec, chunk)
        for _ in range(2):  # played, then read
            got_first, got = kept.records(spec, chunk)
            assert got_first == first
            np.testing.assert_array_equal(got.hands, direct.hands)
            np.testing.assert_array_equal(got.info, direct.info)
            np.testing.assert_array_equal(got.seats, direct.seats)
            assert got.plays.shape == (len(direct), 0, spec.players)  # not kept


def test_a_longer_run_serves_a_shorter_one(tmp_path):
    """Chunk 1 of a 300-game run (44 games) is the start of chunk 1 of a 512-game run (256 games)."""
    long, short = _spec(dict(players=4, games=512)), _spec(dict(players=4, games=300))
    assert run_key(long) == run_key(short)
    kept = _kept(tmp_path)
    kept.counts(long, 0, long.n_chunks)
    assert sorted(p.name for p in tmp_path.rglob("*.parquet")) == ["chunk-0-256.parquet", "chunk-1-256.parquet"]
    _, direct = record_chunk_arrays(short, 1)
    _, got = kept.records(short, 1)
    np.testing.assert_array_equal(got.info, direct.info)
    np.testing.assert_array_equal(got.hands, direct.hands)
    assert len(list(tmp_path.rglob("*.parquet"))) == 2  # read, not played
    assert _same_counts(kept.counts(short, 0, short.n_chunks), run_block(short, 0, short.n_chunks))


def test_the_key_is_the_configuration_and_seed_not_the_length():
    base = _spec(CASES["standard"])
    assert run_key(base) == run_key(_spec(dict(players=4, games=7)))
    assert run_key(base) != run_key(_spec(CASES["standard"], seed=6))
    assert run_key(base) != run_key(_spec(dict(players=4, games=300, specials="bomb")))
    assert run_key(base) != run_key(_spec(dict(players=4, games=300, rules=["canadian=true"])))
    assert run_key(base) != run_key(_spec(dict(players=4, games=300, strategy="heuristic")))
    assert run_key(base) != run_key(_spec(dict(players=5, games=300)))


def test_the_key_follows_the_code(monkeypatch):
    import wizsim.run.corpus as corpus

    spec = _spec(CASES["standard"])
    before = run_key(spec)
    monkeypatch.setattr(corpus, "code_fingerprint", lambda: "another build")
    assert run_key(spec) != before


def test_a_bad_file_is_played_again(tmp_path):
    spec = _spec(CASES["standard"])
    kept = _kept(tmp_path)
    ref = kept.counts(spec, 0, 1)
    path = next(tmp_path.rglob("chunk-0-256.parquet"))
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])  # cut short
    with pytest.warns(UserWarning, match="cannot be used"):
        assert _same_counts(kept.counts(spec, 0, 1), ref)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _same_counts(kept.counts(spec, 0, 1), ref)  # replaced by a good one
    # a file of another chunk under this name: its metadata says so
    other = next(tmp_path.rglob("chunk-0-256.parquet"))
    kept.counts(spec, 1, 2)
    other.write_bytes(next(tmp_path.rglob("chunk-1-44.parquet")).read_bytes())
    with pytest.warns(UserWarning, match="metadata, length or SHA-256"):
        assert _same_counts(kept.counts(spec, 0, 1), ref)
    assert not list(Path(tmp_path).rglob("*.tmp"))


def test_corpus_result_is_simulate_result_for_any_jobs(tmp_path):
    spec = _spec(dict(players=4, games=600), seed=11)
    ref = wizsim.simulate_result(4, games=600, seed=11, strategy="random")
    for jobs in (1, 2):
        got = _kept(tmp_path).result(spec, jobs=jobs)
        assert _same_counts(got.counts, ref.counts)
        assert got.attrs == ref.attrs
        assert got.table().equals(ref.table())


def test_the_corpus_keeps_the_shared_self_play_only(tmp_path):
    """learned self-play with the standard rules and the standard deck or all specials is kept; other runs are
    played with the counting kernel and leave no file (the same counts)."""
    learned = make_spec(4, games=40, seed=3, strategy="learned")
    assert shared(learned) and shared(make_spec(3, games=40, seed=3, strategy="learned", specials="all"))
    others = [
        make_spec(4, games=40, seed=3, strategy="random"),
        make_spec(4, games=40, seed=3, strategy="learned", specials="bomb"),
        make_spec(4, games=40, seed=3, strategy="learned", rules=["canadian=true"]),
        make_spec(4, games=40, seed=3, strategy="learned,random,learned,random"),
        make_spec(4, cards=5, hands=40, seed=3, strategy="learned"),
    ]
    assert not any(shared(s) for s in others)
    corpus = Corpus(tmp_path)
    for spec in others:
        assert _same_counts(corpus.counts(spec, 0, 1), run_block(spec, 0, 1))
    assert not list(tmp_path.rglob("*.parquet"))
    assert _same_counts(corpus.counts(learned, 0, 1), run_block(learned, 0, 1))
    assert len(list(tmp_path.rglob("*.parquet"))) == 1
    specials = make_spec(3, games=40, seed=3, strategy="learned", specials="all")  # the games the analyses read
    for _ in range(2):  # played and kept, then read
        assert _same_counts(corpus.counts(specials, 0, 1), run_block(specials, 0, 1))
    assert len(list(tmp_path.rglob("*.parquet"))) == 2


def test_prune_deletes_the_files_of_other_code(tmp_path, monkeypatch):
    import wizsim.run.corpus as corpus

    spec = _spec(dict(players=4, games=40))
    _kept(tmp_path).counts(spec, 0, 1)
    assert _kept(tmp_path).prune() == 0 and len(list(tmp_path.rglob("*.parquet"))) == 1
    monkeypatch.setattr(corpus, "code_fingerprint", lambda: "f" * 64)
    assert _kept(tmp_path).prune() == 1
    assert not list(tmp_path.rglob("*.parquet"))


def test_a_file_with_changed_records_is_played_again(tmp_path):
    """A file whose data changed (one card of one hand) but whose metadata did not: its SHA-256 catches it."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    spec = _spec(CASES["standard"])
    kept = _kept(tmp_path)
    _, ref = kept.records(spec, 0)
    path = next(tmp_path.rglob("chunk-0-256.parquet"))
    table = pq.read_table(path)
    hands = table.column("hands").combine_chunks()
    values = np.asarray(hands.flatten()).copy()
    values[5] = (values[5] + 1) % 60
    changed = table.set_column(table.schema.get_field_index("hands"), "hands",
                               pa.FixedSizeListArray.from_arrays(pa.array(values), hands.type.list_size))  # fmt: skip
    pq.write_table(changed.replace_schema_metadata(table.schema.metadata), path)
    with pytest.warns(UserWarning, match="SHA-256"):
        _, got = kept.records(spec, 0)
    np.testing.assert_array_equal(got.hands, ref.hands)


def test_the_corpus_root_is_absolute(tmp_path, monkeypatch):
    """Workers (report lanes, joblib's reused processes) may run in another folder: the root must not be relative."""
    monkeypatch.chdir(tmp_path)
    root = Corpus.beside(Path("results")).root
    assert root is not None and root.is_absolute() and root == tmp_path / "results" / ".cache" / "corpus"


def test_prune_removes_temporaries_of_dead_writers(tmp_path):
    import os
    import time

    spec = _spec(dict(players=4, games=40))
    _kept(tmp_path).counts(spec, 0, 1)
    folder = next(tmp_path.rglob("chunk-0-40.parquet")).parent
    stale, fresh = folder / ".chunk-0-40.parquet.dead.tmp", folder / ".chunk-1-40.parquet.busy.tmp"
    for f in (stale, fresh):
        f.write_bytes(b"half")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    _kept(tmp_path).prune()
    assert not stale.exists() and fresh.exists()  # a writer may still be busy with a recent one
