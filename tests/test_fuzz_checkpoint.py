"""Property-based tests (hypothesis) of checkpoint manifests and block files (issue 29).

A checkpoint folder (``--checkpoint DIR``) holds ``manifest.json``, the run's
identity, and one ``block-LO-HI.npz`` per finished block. Inputs: mutations of
a valid manifest (a field deleted, renamed, retyped, out of range, huge,
duplicated; a list shortened or lengthened; white space and key order), the
manifest truncated at every byte, invalid UTF-8, any bytes; mutations of a
valid block (an array deleted, renamed, added, retyped, reshaped, a count
changed, the checksum changed or dropped), a block truncated at every byte and
with any byte replaced. Properties:

* a manifest is accepted only when it is the very manifest of this run (as JSON:
  white space and key order aside), else refused with one WizsimError line that
  names the field and ends "use another folder or delete it";
* a block is either read as exactly the arrays written, or (damaged) not read,
  with a warning, and run again: the run's result is that of an uninterrupted run.

Nothing here compiles a kernel except the end-to-end checks at the bottom, which
run the random player's 3-player rounds that other tests compile too.

Generated cases per test:

=====================================================  =============================
test                                                    cases
=====================================================  =============================
manifest mutations                                      200
manifest: any bytes                                     100
manifest: invalid UTF-8 inserted                        100
manifest truncated at every byte                        every byte (733 files)
simulate block mutations (arrays rewritten)             150
tournament block mutations (arrays rewritten)           100
block with one byte replaced                            150
simulate and tournament blocks truncated at every byte  every byte (7,394 + 4,218 files)
=====================================================  =============================
"""

from __future__ import annotations

import io
import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizsim.errors import WizsimError
from wizsim.run.parallel import BLOCK_DIGEST, Checkpoint, _load_counts, run_counts
from wizsim.run.spec import Counts, make_spec
from wizsim.tools.tournament import N_Q, Q_SEATS, _load_chunk

SPEC = make_spec(players=3, cards=3, hands=200, seed=1)  # one chunk, one block: what the CLI tests below run
RUN = SPEC.provenance()
SETTINGS = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
FIX = "use another folder or delete it"


def new_folder(tmp_path: Path) -> Path:
    """A fresh folder below ``tmp_path`` (hypothesis runs many examples in one test's ``tmp_path``)."""
    n = len(list(tmp_path.iterdir()))
    folder = tmp_path / f"ck{n}"
    Checkpoint(folder, RUN, SPEC.n_chunks)
    return folder


def valid_manifest(tmp_path: Path) -> tuple[Path, bytes]:
    folder = new_folder(tmp_path)
    return folder, (folder / "manifest.json").read_bytes()


def opened_or_refused(folder: Path) -> str | None:
    """None if the checkpoint opens; the refusal's message (one line, saying how to fix it) otherwise."""
    try:
        Checkpoint(folder, RUN, SPEC.n_chunks)
    except WizsimError as exc:
        msg = str(exc)
        assert msg and "\n" not in msg, msg
        assert msg.startswith(f"checkpoint {folder} ") and msg.endswith(FIX), msg
        return msg
    return None


# --------------------------------------------------------------------------- manifests

FIELDS = ["format", "wizsim_version", "run", "n_chunks", "block_chunks"]


HOW = ["delete", "rename", "retype", "range", "huge", "shorten", "lengthen", "duplicate", "spaces", "order"]


def mutate_manifest(text: str, key: str, how: str, inner: bool, draw) -> tuple[str, bool]:
    """Mutate the valid manifest ``text`` at ``key`` (of ``run`` if ``inner``); True if the meaning is kept."""
    manifest = json.loads(text)
    where = manifest["run"] if inner else manifest
    value = where[key]
    same = False
    if how == "delete":
        del where[key]
    elif how == "rename":
        where[key + draw(st.sampled_from(["s", "_", "X", "\n"]))] = where.pop(key)
    elif how == "retype":
        where[key] = draw(
            JSON_VALUES.filter(lambda v: json.dumps(v, sort_keys=True) != json.dumps(value, sort_keys=True))
        )
    elif how == "range":
        new = draw(st.sampled_from([-1, 0, 1, 2, 3, 7, 64, 99, 2**63, -(2**63), 1.0, 3.0, 64.0, True, False]))
        same = json.dumps(new) == json.dumps(value)
        where[key] = new
    elif how == "huge":
        where[key] = "@@HUGE@@"
        return json.dumps(manifest).replace('"@@HUGE@@"', "1" + "0" * 5000), False
    elif how in ("shorten", "lengthen") and isinstance(value, (list, str)) and value:
        where[key] = value[:-1] if how == "shorten" else value + value[-1:]
    elif how in ("shorten", "lengthen"):
        return json.dumps(manifest), True  # nothing to shorten: the manifest as it was
    elif how == "duplicate":
        where["@@DUP@@"] = 0
        return json.dumps(manifest).replace('"@@DUP@@": 0', f"{json.dumps(key)}: {json.dumps(value)}"), False
    elif how == "spaces":
        return json.dumps(manifest, indent=draw(st.sampled_from([None, 0, 1, 4, "\t"]))) + "\n \n", True
    elif how == "order":
        return json.dumps(manifest, sort_keys=True), True
    return json.dumps(manifest), same


@SETTINGS
@given(st.data())
def test_a_mutated_manifest_is_refused_naming_the_field(tmp_path, data):
    folder, valid = valid_manifest(tmp_path)
    inner = data.draw(st.booleans(), label="inside run")
    key = data.draw(st.sampled_from(sorted(RUN) if inner else FIELDS), label="field")
    how = data.draw(st.sampled_from(HOW), label="mutation")
    text, same = mutate_manifest(valid.decode(), key, how, inner, data.draw)
    (folder / "manifest.json").write_text(text, encoding="utf-8")
    msg = opened_or_refused(folder)
    if same:
        assert msg is None, (key, how, msg)
        return
    assert msg is not None, (key, how, text)  # only this run's very manifest opens
    name = "wizsim" if key == "wizsim_version" and not inner else key
    if how == "duplicate":
        assert f"key {json.dumps(key)} is given twice" in msg, msg
    elif how == "huge":
        assert f"{name} a number of 5001 digits" in msg, msg
    elif inner or key != "run":  # a retyped run object shows the run's fields that differ
        assert f"{name} " in msg, msg


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.binary(max_size=200), JSON_VALUES.map(lambda v: json.dumps(v).encode())))
def test_any_bytes_as_a_manifest_are_refused(tmp_path, data):
    folder, _ = valid_manifest(tmp_path)
    (folder / "manifest.json").write_bytes(data)
    assert opened_or_refused(folder) is not None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data(), st.sampled_from([b"\xff", b"\xc3", b"\xe9", b"\x80\x80", b"\xed\xa0\x80"]))
def test_invalid_utf8_in_a_manifest_is_refused_with_its_byte(tmp_path, data, junk):
    folder, valid = valid_manifest(tmp_path)
    at = data.draw(st.integers(0, len(valid)))
    (folder / "manifest.json").write_bytes(valid[:at] + junk + valid[at:])
    msg = opened_or_refused(folder)
    assert msg is not None and f"not UTF-8 text (byte {at})" in msg, msg


def test_a_manifest_truncated_at_every_byte_is_refused(tmp_path):
    folder, valid = valid_manifest(tmp_path)
    path = folder / "manifest.json"
    kept = 0
    for cut in range(len(valid) + 1):
        path.write_bytes(valid[:cut])
        if opened_or_refused(folder) is None:
            assert not valid[cut:].strip(), cut  # only white space may be lost
            kept += 1
    assert kept == len(valid) - len(valid.rstrip()) + 1


def test_manifest_refusals_name_the_field(tmp_path):
    folder, valid = valid_manifest(tmp_path)
    manifest = json.loads(valid)
    path = folder / "manifest.json"
    cases = {
        "[]": "has a manifest.json that is not a JSON object but []",
        json.dumps({**manifest, "n_chunks": 1.0}): "n_chunks 1.0 (this run: 1)",
        json.dumps({**manifest, "run": {**RUN, "seed": True}}): "seed true (this run: 1)",
        json.dumps({k: v for k, v in manifest.items() if k != "block_chunks"}): "block_chunks missing (this run: 64)",
        json.dumps({**manifest, "note\nx": 1}): 'field "note\\nx" 1 (this run: missing)',
        json.dumps({**manifest, "run": [1]}): "run [1] (this run: an object of",
        "[" * 100_000 + "]" * 100_000: "nested too deeply",
    }
    for text, fragment in cases.items():
        path.write_text(text)
        msg = opened_or_refused(folder)
        assert msg is not None and fragment in msg, (fragment, msg)


# --------------------------------------------------------------------------- blocks

TOURNEY_DIMS, TOURNEY_HELD = 2 * N_Q, 12  # two strategies; every strategy's seats-held sum of the chunk


def simulate_arrays(seed: int = 0) -> dict[str, np.ndarray]:
    """Counts of a block of SPEC that pass every check of a loaded block."""
    rng = np.random.default_rng(seed)
    c = Counts.zeros(SPEC.players, max(SPEC.schedule))
    flat = c.joint.reshape(-1)
    for cell in rng.integers(0, flat.size, SPEC.rounds * SPEC.players):
        flat[cell] += 1
    c.aux[...] = rng.integers(0, 50, c.aux.shape)
    c.game_acc[...] = rng.integers(0, 5, c.game_acc.shape)
    return {"joint": c.joint, "aux": c.aux, "game_acc": c.game_acc}


def tournament_arrays(seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    sums = [int(x) for x in rng.integers(-(10**6), 10**6, TOURNEY_DIMS)]
    for s in range(0, TOURNEY_DIMS, N_Q):
        sums[s + Q_SEATS] = TOURNEY_HELD
    sums[0] = 10**30 + 7  # exact integers of any size: the reason they are kept as text
    gram = [str(int(x)) for x in rng.integers(0, 10**3, TOURNEY_DIMS**2)]
    return {"sums": np.array([str(x) for x in sums]), "gram": np.array(gram)}


def block_folder(tmp_path: Path, arrays: dict[str, np.ndarray], n_chunks: int = 1) -> Checkpoint:
    n = len(list(tmp_path.iterdir()))
    ckpt = Checkpoint(tmp_path / f"ck{n}", RUN, n_chunks, block_chunks=1 if n_chunks > 1 else 64)
    ckpt.save(0, 1, arrays)
    return ckpt


def loaded(kind: str, ckpt: Checkpoint):
    """The loaded block (None: damaged) and whether a warning said so."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        if kind == "simulate":
            got = _load_counts(ckpt, SPEC, 0, 1)
            out = None if got is None else {"joint": got.joint, "aux": got.aux, "game_acc": got.game_acc}
        else:
            kept = _load_chunk(ckpt, 0, TOURNEY_DIMS, TOURNEY_HELD)
            out = None if kept is None else {"sums": kept[0], "gram": kept[1]}
    warned = [str(w.message) for w in seen]
    assert len(warned) <= 1 and all("\n" not in w for w in warned), warned
    if out is None:
        assert warned and warned[0].startswith(f"checkpoint {ckpt.folder}: block-0-1.npz is damaged ("), warned
        assert warned[0].endswith("); running it again")
    else:
        assert not warned, warned
    return out


def same_as_written(kind: str, got: dict, arrays: dict) -> bool:
    if kind == "simulate":
        return all(got[k].dtype == arrays[k].dtype and np.array_equal(got[k], arrays[k]) for k in arrays)
    return [int(x) for x in arrays["sums"]] == list(got["sums"]) and [int(x) for x in arrays["gram"]] == list(
        got["gram"].ravel()
    )


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    buf = io.BytesIO()
    np.savez(buf, allow_pickle=False, **arrays)
    path.write_bytes(buf.getvalue())


@st.composite
def block_mutation(draw, make):
    """Arrays of a valid block (with its checksum), mutated as a user or a bad disk might."""
    arrays = make(draw(st.integers(0, 3)))
    names = sorted(arrays)
    how = draw(
        st.sampled_from(
            ["delete", "rename", "add", "retype", "reshape", "value", "huge", "negative", "digest", "nodigest", "same"]
        )
    )
    return arrays, names, how, draw


def mutate_block(path: Path, names: list[str], how: str, draw) -> bool:
    """Rewrite the block file ``path`` mutated by ``how``; True if its arrays are unchanged."""
    with np.load(path, allow_pickle=False) as z:
        stored = {n: z[n] for n in z.files}
    name = draw(st.sampled_from(names))
    a = stored[name]
    flat = a.reshape(-1).copy()
    i = draw(st.integers(0, flat.size - 1))
    if how == "delete":
        del stored[name]
    elif how == "rename":
        stored[name + draw(st.sampled_from(["s", "_", "X"]))] = stored.pop(name)
    elif how == "add":
        stored[draw(st.sampled_from(["extra", "joint2", "gram_"]))] = a
    elif how == "retype":
        dtype = draw(st.sampled_from(["int32", "float64", "uint64", "<U8", "int8"]))
        stored[name] = a.astype(dtype) if a.dtype.kind != "U" or dtype[0] == "<" else np.zeros(a.shape, dtype)
    elif how == "reshape":
        shorter = draw(st.booleans())
        stored[name] = flat[:-1] if shorter else np.concatenate([flat, flat[:1]])
    elif how in ("value", "huge", "negative"):
        new = {"value": draw(st.integers(1, 5)), "huge": 2**62, "negative": -1}[how]
        if a.dtype.kind == "U":
            flat[i] = str(int(flat[i]) + new) if how == "value" else str(new)
        else:
            flat[i] = flat[i] + new if how == "value" else new
            if how == "value":  # the total kept: another cell gives the count back
                flat[(i + 1) % flat.size] -= new
        stored[name] = flat.reshape(a.shape)
    elif how == "digest":
        stored[BLOCK_DIGEST] = np.array(draw(st.sampled_from(["", "0" * 64, str(stored[BLOCK_DIGEST])[::-1]])))
    elif how == "nodigest":
        del stored[BLOCK_DIGEST]
    write_npz(path, stored)
    return how == "same"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(block_mutation(simulate_arrays))
def test_a_mutated_simulate_block_is_read_as_written_or_run_again(tmp_path, case):
    arrays, names, how, draw = case
    ckpt = block_folder(tmp_path, arrays)
    unchanged = mutate_block(ckpt.block_path(0, 1), names, how, draw)
    got = loaded("simulate", ckpt)
    assert (got is not None) == unchanged, how
    if got is not None:
        assert same_as_written("simulate", got, arrays)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(block_mutation(tournament_arrays))
def test_a_mutated_tournament_block_is_read_as_written_or_run_again(tmp_path, case):
    arrays, names, how, draw = case
    ckpt = block_folder(tmp_path, arrays, n_chunks=3)
    unchanged = mutate_block(ckpt.block_path(0, 1), names, how, draw)
    got = loaded("tournament", ckpt)
    assert (got is not None) == unchanged, how
    if got is not None:
        assert same_as_written("tournament", got, arrays)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["simulate", "tournament"]), st.data())
def test_a_block_with_any_byte_replaced_is_read_as_written_or_run_again(tmp_path, kind, data):
    arrays = simulate_arrays() if kind == "simulate" else tournament_arrays()
    ckpt = block_folder(tmp_path, arrays, n_chunks=1 if kind == "simulate" else 3)
    path = ckpt.block_path(0, 1)
    raw = bytearray(path.read_bytes())
    at = data.draw(st.integers(0, len(raw) - 1))
    raw[at] = (raw[at] + data.draw(st.integers(1, 255))) % 256  # another byte
    path.write_bytes(bytes(raw))
    got = loaded(kind, ckpt)
    if got is not None:  # a byte of zip metadata that does not matter (a time stamp, a version number)
        assert same_as_written(kind, got, arrays)


@pytest.mark.parametrize("kind", ["simulate", "tournament"])
def test_a_block_truncated_at_every_byte_is_run_again(tmp_path, kind):
    arrays = simulate_arrays() if kind == "simulate" else tournament_arrays()
    ckpt = block_folder(tmp_path, arrays, n_chunks=1 if kind == "simulate" else 3)
    path = ckpt.block_path(0, 1)
    whole = path.read_bytes()
    for cut in range(len(whole)):
        path.write_bytes(whole[:cut])
        assert loaded(kind, ckpt) is None, cut
    path.write_bytes(whole)
    assert same_as_written(kind, loaded(kind, ckpt), arrays)


# --------------------------------------------------------------------------- end to end (random 3-player rounds)


def test_a_tampered_block_is_run_again_to_the_uninterrupted_result(tmp_path):
    """A count moved between two cells keeps the block's total: before the checksum it was read as it stood."""
    ref = run_counts(SPEC)
    ck = tmp_path / "ck"
    run_counts(SPEC, checkpoint=ck)
    block = ck / "block-0-1.npz"
    with np.load(block, allow_pickle=False) as z:
        stored = {n: z[n] for n in z.files}
    joint = stored["joint"].reshape(-1)
    full = int(np.flatnonzero(joint)[0])
    joint[full] -= 1
    joint[(full + 1) % joint.size] += 1
    write_npz(block, stored)
    with pytest.warns(UserWarning, match=r"block-0-1\.npz is damaged \(its arrays do not match the checksum"):
        again = run_counts(SPEC, checkpoint=ck)
    for name in ("joint", "aux", "game_acc"):
        np.testing.assert_array_equal(getattr(again, name), getattr(ref, name))


def test_cli_refuses_a_bad_manifest_in_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    from wizsim.cli import main

    monkeypatch.chdir(tmp_path)
    args = ["simulate", "--players", "3", "--cards", "3", "--hands", "200", "--seed", "1", "--quiet"]
    assert main([*args, "--checkpoint", "ck"]) == 0
    capsys.readouterr()
    manifest = json.loads((tmp_path / "ck" / "manifest.json").read_text())
    bad = {
        "[]": "not a JSON object",
        json.dumps({**manifest, "n_chunks": "1"}): 'n_chunks "1" (this run: 1)',
        json.dumps(manifest)[:-20]: "unreadable manifest.json",
        "\ufeff" + json.dumps(manifest): "unreadable manifest.json",
    }
    for text, fragment in bad.items():
        (tmp_path / "ck" / "manifest.json").write_text(text, encoding="utf-8")
        status = main([*args, "--checkpoint", "ck", "--out", "a.csv"])
        out, err = capsys.readouterr()
        assert status == 2 and out == "", err
        assert err.count("\n") == 1 and err.startswith("wizsim: error: checkpoint ck ") and fragment in err, err
        assert err.rstrip().endswith(FIX)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["ck"]
