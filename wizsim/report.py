"""``wizsim report``: run every analysis in ``analyses/`` and write ``results/README.md``.

Each analysis is a short script exposing ``NAME``, ``QUESTION``, ``SIZES``
(``quick``, ``default``, ``full``) and ``run(size, seed, outdir, jobs) -> dict``
returning its headline, sample size, seed, files and reproducing command.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

from .errors import WizsimError
from .io import atomic_path


def find_analyses(root: Path | None = None) -> list[Path]:
    """The analysis scripts: ``./analyses`` if it exists, else the one beside the package."""
    candidates = [root] if root else [Path.cwd() / "analyses", Path(__file__).resolve().parents[1] / "analyses"]
    for folder in candidates:
        if folder and folder.is_dir():
            scripts = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
            if scripts:
                return scripts
    raise WizsimError("no analyses/ folder found: run wizsim report from the wizsim repository's top folder")


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"wizsim_analysis_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_report(
    size: str = "default", outdir: Path = Path("results"), jobs: int = 1, only: list[str] | None = None
) -> Path:
    """Run the analyses at ``size`` and write ``outdir/README.md``; return its path."""
    if size not in ("quick", "default", "full"):
        raise WizsimError(f"unknown report size {size!r}; use quick, default or full")
    try:
        outdir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WizsimError(f"cannot write to {outdir}: {exc.strerror or exc}") from None
    from .io import check_output

    check_output(outdir / "README.md", (".md",))
    sections = []
    for path in find_analyses():
        module = _load(path)
        if only and module.NAME not in only:
            continue
        t0 = time.perf_counter()
        info = module.run(size=size, outdir=outdir, jobs=jobs)
        info["seconds"] = time.perf_counter() - t0
        print(f"{info['name']}: {info['headline']} ({info['seconds']:.1f} s)")
        sections.append(info)
    lines = [
        "# wizsim results",
        "",
        f"Written by `wizsim report{'' if size == 'default' else ' --' + size}`. Every estimate carries a 95% interval;",
        "every number below is reproduced by the command given with it.",
        "",
    ]
    for info in sections:
        png = next((f for f in info["files"] if f.endswith(".png")), None)
        lines += [
            f"## {info['question']}",
            "",
            info["headline"] + ".",
            "",
            f"- sample: {info['sample']}; seed {info['seed']}",
            f"- table: [{info['files'][0]}]({info['files'][0]})",
            f"- reproduce: `{info['command']}`",
            "",
        ]
        if png:
            lines += [f"![{info['name']}]({png})", ""]
    readme = outdir / "README.md"
    with atomic_path(readme) as tmp:
        tmp.write_text("\n".join(lines))
    return readme
