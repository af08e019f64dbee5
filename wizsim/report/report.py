"""``wizsim report``: run every analysis in ``analyses/`` and write ``results/README.md``.

Each analysis is a short script exposing ``NAME``, ``QUESTION``, ``SIZES``
(``quick``, ``default``, ``full``) and ``run(size, seed, outdir, jobs) -> dict``
returning its headline, sample size, seed, files and reproducing command.

Results are cached in ``<outdir>/.cache/<name>.json``: an analysis is run
again only if its script, the wizsim package's source, the size or the
output files changed (numbers do not depend on ``jobs``, so it is not part
of the key). ``force=True`` (``wizsim report --force``) runs everything. The
cache is also how an interrupted report resumes: rerun it, and the analyses
that finished are not run again (so ``--checkpoint`` is not taken). An
analysis's files and its cache entry are moved into place together when it
finishes (``io.output_group``): an analysis killed half-way leaves its previous
files; ``README.md``, which describes them, is removed when they change and
written again at the end, so it never describes files of another run.

The main job and ``--full``: an analysis whose question is for researchers
declares ``FULL_ONLY = "why"`` (pimc's strength/time curve, pimc against each
player, the headlines re-measured under pimc). ``wizsim report`` keeps its
committed files and its section, recorded in ``<outdir>/sections.json`` (with
the report size and the SHA-256 of every file the section describes) by the
last report that ran it, and the README says so; ``wizsim report --full`` (or
``--only NAME``) runs it. A kept analysis whose section is missing, or whose
files are not the recorded bytes, is run by the main job too, so results/
never describes files it did not make.

Run options: with ``jobs >= 2`` (local processes) the analyses to run go to
``jobs`` lanes, worker processes that each run one analysis at a time with
``jobs // lanes`` workers of its own, longest first (:data:`LANE_ORDER`): a
cold main job compiles several analyses' kernels at once instead of one after
the other (:func:`_run_plan`); numbers do not depend on it. With one job, or
Dask, the analyses run one after the other with every worker. ``backend`` and
``scheduler`` go to an analysis whose ``run`` takes them (``--backend dask`` is
refused for one that does not). ``progress`` shows on stderr which analysis is
running (or how many are done), and the time since the start.

The self-play corpus: the analyses that read the same self-play games keep
them in ``<outdir>/.cache/corpus`` (:mod:`wizsim.run.corpus`); the report
deletes the games of other code when it starts.

Both entry points (:func:`run_report` and :func:`analysis_main`, the command
line of an analysis script) run analyses under
``io.csv_float_format(io.RESULTS_FLOAT_FORMAT)``: every float in a CSV they
write has 8 significant digits, so ``results/`` is byte-identical across
machines. Headlines are computed from the tables in memory, before writing.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import inspect
import json
import pickle
import re
import time
import traceback
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import WizsimError
from ..run.corpus import Corpus
from ..run.io import RESULTS_FLOAT_FORMAT, atomic_path, check_output, csv_float_format, output_group
from ..run.parallel import Progress, RunOptions, numba_cache_off, workers
from .readme import PRECISION_NOTE, write_readme

__all__ = ["PRECISION_NOTE", "analysis_main", "load_analysis", "run_report"]


def find_analyses(root: Path | None = None) -> list[Path]:
    """The analysis scripts: ``./analyses`` if it exists, else the one beside the package."""
    candidates = [root] if root else [Path.cwd() / "analyses", Path(__file__).resolve().parents[2] / "analyses"]
    for folder in candidates:
        if folder and folder.is_dir():
            scripts = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
            if scripts:
                return scripts
    raise WizsimError("no analyses/ folder found: run wizsim report from the wizsim repository's top folder")


def load_analysis(path: Path) -> ModuleType:
    """Import an analysis script as a module (not entered in ``sys.modules``: workers get its functions by value)."""
    spec = importlib.util.spec_from_file_location(f"wizsim_analysis_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise WizsimError(f"cannot import analysis {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _source_digest(script: Path) -> str:
    """A digest of what an analysis's numbers depend on: its script, the sibling analyses it runs (named in its
    ``USES = (...)`` line), the package source except :mod:`.readme` (it words the README, computes nothing), and
    the package's data files (.json, .npz: a retrained network changes the numbers)."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    uses = re.search(r"^USES = \(([^)]*)\)", script.read_text(encoding="utf-8"), re.M)
    siblings = [script.with_name(f"{name}.py") for name in re.findall(r'"(\w+)"', uses.group(1))] if uses else []
    sources = [p for p in sorted(package.rglob("*.py")) if p != Path(__file__).resolve().with_name("readme.py")]
    data = sorted(p for p in package.rglob("*") if p.suffix in (".json", ".npz"))  # e.g. a retrained network
    for path in [script, *siblings, *sources, *data]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cached(cache: Path, key: dict, outdir: Path) -> dict | None:
    try:
        saved = json.loads(cache.read_text())
    except (OSError, ValueError):
        return None
    if saved.get("key") != key:
        return None
    info = saved.get("info", {})
    if not all((outdir / f).is_file() for f in info.get("files", [])):
        return None
    return info


#: every section of the last report (the analyses' returned headlines, samples, files and commands), kept in the
#: output folder: the main job writes the sections of the analyses it keeps (``FULL_ONLY``) from it
RECORD = "sections.json"
NO_CHECKPOINT = (
    "the report keeps every finished analysis in OUT/.cache and runs only the others: rerun the same command to resume"
)


def _run_kwargs(module: ModuleType, options: RunOptions) -> dict[str, Any]:
    """The run options an analysis's ``run`` takes: ``jobs``, and ``backend``/``scheduler`` where it names them."""
    params = inspect.signature(module.run).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kwargs: dict[str, Any] = {"jobs": options.jobs}
    if takes_any or "backend" in params:
        kwargs.update(backend=options.backend, scheduler=options.scheduler)
    elif options.backend != "loky":
        raise WizsimError(
            f"analysis {module.NAME} runs on local processes only (its run() takes no backend): "
            "leave out --backend dask, or pick other analyses with --only"
        )
    return kwargs


def _read_record(path: Path) -> dict[str, dict]:
    """The sections of the last report (:data:`RECORD`), by analysis name; empty when missing or unreadable."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _digests(outdir: Path, files: list[str]) -> dict[str, str]:
    """SHA-256 of each of a section's files: the record says which bytes its section describes."""
    return {f: hashlib.sha256((outdir / f).read_bytes()).hexdigest() for f in files}


def _intact(entry: dict, outdir: Path) -> bool:
    """Whether a recorded section still describes the files there: all present, with the recorded bytes (a later
    run of the analysis, e.g. an interrupted ``--full`` or ``python analyses/NAME.py``, changes them)."""
    files, digests = entry.get("files", []), entry.get("digests", {})
    if not files or set(digests) != set(files) or not all((outdir / f).is_file() for f in files):
        return False
    return _digests(outdir, files) == digests


def run_report(
    size: str = "default",
    outdir: Path = Path("results"),
    jobs: int = 1,
    only: list[str] | None = None,
    force: bool = False,
    analyses: Path | None = None,
    full: bool = False,
    **run_options: Any,
) -> Path:
    """Run the analyses at ``size`` and write ``outdir/README.md``; return its path.

    An analysis whose script, package source and size are unchanged since its
    last run here (and whose files are all present) is not run again unless
    ``force``. An analysis that declares ``FULL_ONLY`` (why it is a researchers'
    question) runs only with ``full`` (``wizsim report --full``) or at ``quick``
    size, or when ``only`` names it: the main job keeps its files and its section
    from the last report that ran it (:data:`RECORD`), and runs it only when they
    are missing.

    Parameters
    ----------
    size : {"default", "quick", "full"}
        The size every analysis runs at (its sample sizes).
    outdir : Path, default Path("results")
        The folder of the tables, charts and ``README.md``.
    jobs : int, default 1
        Local worker processes.
    only : list of str, optional
        The names of the analyses to run (default: all).
    force : bool, default False
        Run every analysis again, cached or not.
    analyses : Path, optional
        The folder of the analyses (default: see :func:`find_analyses`).
    full : bool, default False
        Run the ``FULL_ONLY`` analyses too (``wizsim report --full``).
    **run_options
        ``backend``, ``scheduler``, ``progress`` and ``numba_cache`` as for
        :class:`wizsim.run.parallel.RunOptions` (no ``checkpoint``); see the module docstring.

    Returns
    -------
    Path
        The path of ``outdir/README.md``.

    Raises
    ------
    WizsimError
        On an unknown size or analysis name, a checkpoint, or an ``outdir`` that cannot be written.
    """
    if size not in ("quick", "default", "full"):
        raise WizsimError(f"unknown report size {size!r}; use quick, default or full")
    options = RunOptions(jobs=jobs, **run_options)
    options.refuse_checkpoint("report", NO_CHECKPOINT)
    scripts = find_analyses(analyses)
    if only:
        unknown = sorted(set(only) - {p.stem for p in scripts})
        if unknown:
            known = ", ".join(p.stem for p in scripts)
            raise WizsimError(f"unknown analysis {', '.join(unknown)}; known: {known}")
    calls = []  # (script, module, keyword arguments of its run)
    for path in scripts:
        if not only or path.stem in only:
            module = load_analysis(path)
            calls.append((path, module, _run_kwargs(module, options)))
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WizsimError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    check_output(outdir / "README.md", (".md",))
    sections = []
    previous = _read_record(outdir / RECORD)
    Corpus.beside(outdir).prune()  # self-play games of other code: never read again
    plan = []  # the analyses to run: (script, module, run keyword arguments, cache key, cache entry)
    with contextlib.ExitStack() as stack:
        if options.numba_cache is False:
            stack.enter_context(numba_cache_off())
        bar = stack.enter_context(Progress(len(calls), " analyses", options.progress, bar_format="{desc} [{elapsed}]"))
        for path, module, kwargs in calls:
            kept = previous.get(module.NAME)
            named = module.NAME in (only or [])  # ``--only NAME`` asks for it by name: it runs
            # kept only from a report of this size (a --quick run into the same folder records quick sections)
            kept = kept if kept and kept.get("report_size") == size else None
            if getattr(module, "FULL_ONLY", None) and size == "default" and not full and not named and kept:
                if _intact(kept, outdir):
                    bar.write(f"{module.NAME}: kept from the last report that ran it")
                    sections.append(kept)
                    bar.update(1)
                    continue
            key = {"size": size, "source": _source_digest(path)}
            cache = outdir / ".cache" / f"{module.NAME}.json"
            info = None if force else _cached(cache, key, outdir)
            if info is not None:
                bar.write(f"{info['name']}: {info['headline']} (cached)")
                sections.append(info)
                bar.update(1)
                continue
            plan.append((path, module, kwargs, key, cache))
        for info, seconds in _run_plan(plan, size, outdir, options, bar):
            bar.write(f"{info['name']}: {info['headline']} ({seconds:.1f} s)")
            sections.append(info)
            bar.update(1)
    # the record, in script order: this report's sections, and (``only``) the last ones of the other analyses whose
    # files are still those they describe; the README describes the same sections
    this = {info["name"]: info for info in sections}
    full_only = {module.NAME: module.FULL_ONLY for _, module, _ in calls if getattr(module, "FULL_ONLY", None)}
    record = {}
    for name in (p.stem for p in scripts):
        if name in this:
            entry = {k: v for k, v in this[name].items() if k != "full_only"}
            # a kept section's digests were checked just now (_intact); the others' files were just written or found
            digests = entry.get("digests") or _digests(outdir, entry["files"])
            entry |= {"report_size": entry.get("report_size", size), "digests": digests}
            record[name] = entry | ({"full_only": full_only[name]} if name in full_only else {})
        elif name in previous and _intact(previous[name], outdir):
            record[name] = previous[name]
    with atomic_path(outdir / RECORD) as tmp:
        tmp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
    return write_readme(outdir, size, list(record.values()))


def _run_one(script: Path | ModuleType, size: str, outdir: Path, kwargs: dict, key: dict, cache: Path):
    """Run one analysis (a loaded module, or its script in a lane's worker); return its info and seconds.

    The analysis's files and its cache entry appear together, the entry last; README.md, which describes the
    files, goes when they change (written again at the end): ``io.output_group``.
    """
    module = script if isinstance(script, ModuleType) else load_analysis(script)
    t0 = time.perf_counter()
    with output_group(stale=[outdir / "README.md"]):
        with csv_float_format(RESULTS_FLOAT_FORMAT):
            info = module.run(size=size, outdir=outdir, **kwargs)
        seconds = time.perf_counter() - t0
        try:
            cache.parent.mkdir(exist_ok=True)
        except OSError as exc:
            raise WizsimError(f"cannot write {cache}: {exc.strerror or exc}") from None
        with atomic_path(cache) as tmp:
            tmp.write_text(json.dumps({"key": key, "info": info, "seconds": round(seconds, 1)}, indent=1))
    return info, seconds


def _run_plan(plan: list, size: str, outdir: Path, options: RunOptions, bar: Progress):
    """Run the analyses of ``plan``; yield ``(info, seconds)`` of each as it finishes.

    With ``jobs >= 2`` on local processes and two analyses or more, the analyses run side by side in lanes (worker
    processes), ``jobs // lanes`` worker processes each, in :data:`LANE_ORDER`: a cold run compiles the
    Numba kernels of several analyses at once (a compile takes one core, and one analysis's own workers would
    otherwise compile the same kernel twice at once), and one analysis's serial parts (tables, charts) overlap
    another's simulation. Numbers do not depend on ``jobs``, so the files are the same either way. An analysis
    that fails does not stop the other lanes: they finish (and are cached), then its error is raised.
    """
    lanes = min(options.jobs, len(plan)) if options.backend == "loky" and options.scheduler is None else 1
    if lanes < 2:
        for n, (_, module, kwargs, key, cache) in enumerate(plan, start=1):
            bar.describe(f"analysis {n}/{len(plan)}: {module.NAME}")
            yield _run_one(module, size, outdir, kwargs, key, cache)
        return
    inner = max(1, options.jobs // lanes)
    rank = {name: i for i, name in enumerate(LANE_ORDER)}
    plan = sorted(plan, key=lambda p: rank.get(p[1].NAME, len(rank)))
    # absolute paths: joblib reuses its workers, which keep the folder they started in (an earlier chdir)
    tasks = [
        (path.resolve(), size, outdir.resolve(), dict(kwargs, jobs=inner), key, cache.resolve())
        for path, _, kwargs, key, cache in plan
    ]
    bar.describe(f"{len(plan)} analyses in {lanes} lanes")
    failed: dict[int, BaseException] = {}
    with workers(replace(options, jobs=lanes), resumable=False) as pool:
        for done, (task, outcome) in enumerate(pool.map(_run_one_caught, tasks, ordered=False), start=1):
            bar.describe(f"{len(plan)} analyses in {lanes} lanes, {done} done")
            if isinstance(outcome, BaseException):
                failed[tasks.index(task)] = outcome
            else:
                yield outcome
    if failed:  # the other lanes finished (and are cached: a rerun runs only what failed); the first error, as it is
        raise failed[min(failed)]


def _run_one_caught(*task) -> tuple[dict, float] | BaseException:
    """:func:`_run_one` in a lane: an analysis's error comes back as a value, so the other lanes can finish.

    An error that cannot travel back (not picklable) comes back as a RuntimeError with its text and traceback.
    """
    try:
        return _run_one(*task)
    except Exception as exc:  # noqa: BLE001 - handed to the caller, which raises it when the lanes are done
        try:
            pickle.dumps(exc)
            return exc
        except Exception:  # noqa: BLE001
            return RuntimeError("".join(traceback.format_exception(exc)))


#: the order in which lanes take analyses: the longest first, so that no long one starts last. The FULL_ONLY ones
#: (``--full``: pimc, 10 minutes and more each) lead; then the main job's (seconds in two lanes, cold, 2026-12-04:
#: variant_balance 129, rules_of_thumb 120, players_compared 81, special_cards 74, bid_probabilities 46,
#: expected_tricks 36, strategies_by_round_size 16; play_habits 58 s alone with 2 jobs, 2026-12-06); analyses not
#: named follow in script order
LANE_ORDER = (
    "player_robustness",
    "pimc_tradeoff",
    "pimc_compared",
    "variant_balance",
    "rules_of_thumb",
    "players_compared",
    "special_cards",
    "play_habits",
    "bid_probabilities",
    "expected_tricks",
    "strategies_by_round_size",
)


def analysis_main(run, question: str, sizes: dict) -> None:
    """The command line of an analysis script: ``python analyses/NAME.py [--size] [--seed] [--out] [--jobs]``."""
    import argparse

    ap = argparse.ArgumentParser(description=question)
    ap.add_argument("--size", choices=list(sizes), default="default")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--out", default="results")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    with csv_float_format(RESULTS_FLOAT_FORMAT):
        info = run(a.size, a.seed, Path(a.out), a.jobs)
    print(info["headline"])
    for what, reason in info.get("skipped", {}).items():
        print(f"skipped {what}: {reason}")
