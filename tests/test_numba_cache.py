"""The engine's cache fingerprint: an edit to a helper in one engine file reaches a cached kernel in another.

Numba keys a cached function by its own source file only. ``deal.deal_mono``
inlines ``rng.below``; after an edit to ``rng.py`` a fresh process would load
``deal_mono``'s stale machine code from the cache, were it not for
``engine.jit.config.check_cache``, which drops the cache when the hash of the
engine's sources (and baked-in switches) changes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PROBE = """
import numpy as np
from wizsim.engine.game.deal import deal_mono
decks = np.array([list(range(13 * s, 13 * s + 13)) + [52, 53] for s in range(3)], dtype=np.uint8)
hands = np.zeros(3, dtype=np.uint64)
cnt = np.zeros((3, 64), dtype=np.int64)
deal_mono(3, 5, decks, np.uint64(12345), hands, cnt)
print(",".join(str(int(h)) for h in hands))
"""


def _run(root: Path, env: dict) -> str:
    res = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_editing_a_helper_in_one_engine_file_changes_a_cached_kernel_in_another(tmp_path):
    pkg = Path(__file__).resolve().parents[1] / "wizsim"
    shutil.copytree(pkg, tmp_path / "wizsim", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
    env.update(PYTHONPATH=str(tmp_path), WIZSIM_NUMBA_CACHE="1")
    engine = tmp_path / "wizsim" / "engine"

    before = _run(tmp_path, env)
    assert list(engine.glob("game/__pycache__/deal.deal_mono*.nbi")), "the kernel was not cached"
    assert _run(tmp_path, env) == before  # same sources: loaded from the cache, same result

    rng = engine / "jit" / "rng.py"
    text = rng.read_text()
    edited = text.replace("    return np.int64(m >> U64(32))", "    return np.int64(m >> U64(32)) // 2")
    assert edited != text
    rng.write_text(edited)
    after = _run(tmp_path, env)
    assert after != before, "a stale cached kernel was loaded after its helper changed"

    # the check is what makes the difference: with the fingerprint forced to match, the stale code loads
    rng.write_text(text)
    assert _run(tmp_path, env) == before  # cache rebuilt for the original sources
    rng.write_text(edited)
    sys.path.insert(0, str(tmp_path))
    try:
        stamp = engine / "game" / "__pycache__" / "wizsim-engine.fingerprint"
        fingerprint = subprocess.run(
            [sys.executable, "-c", "from wizsim.engine.jit.config import fingerprint; print(fingerprint())"],
            cwd=tmp_path, env=dict(env, WIZSIM_NUMBA_CACHE="0"), capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        stamp.write_text(fingerprint)
    finally:
        sys.path.remove(str(tmp_path))
    assert _run(tmp_path, env) == before  # stale: what Numba alone would have done


def test_fingerprint_covers_baked_switches(monkeypatch):
    from wizsim.engine.jit import config

    a = config.fingerprint()
    monkeypatch.setenv("WIZSIM_NO_PDEP", "1")
    assert config.fingerprint() != a


def test_the_fingerprint_finds_the_cache_numba_writes_under_numba_cache_dir(tmp_path):
    """With NUMBA_CACHE_DIR the check must look where Numba really writes (0.68: <folder>_<sha1>), or stale
    engine code would never be dropped there: compile a cached engine kernel into an empty folder, then every
    folder holding engine cache files must be one of config.cache_dirs()."""
    import json
    import os
    import subprocess
    import sys

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), WIZSIM_NUMBA_CACHE="1")
    code = (
        "import json, numpy as np\n"
        "from wizsim.engine.jit import config\n"
        "from wizsim.engine.game.trick import legal_mask_checked\n"
        "legal_mask_checked(np.uint64(3), -1, np.zeros(7, dtype=np.uint64))\n"
        "print(json.dumps([str(d) for d in config.cache_dirs()]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    listed = {os.path.realpath(d) for d in json.loads(out.stdout.strip().splitlines()[-1])}
    written = {os.path.realpath(p.parent) for p in tmp_path.rglob("*.nbi")}
    assert written, "nothing was cached"
    assert written <= listed, (written, listed)
