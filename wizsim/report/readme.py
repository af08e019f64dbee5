"""results/README.md: one section per analysis, with what the player-robustness check found beside each headline.

The README is written from the analyses' returned headlines (kept in the
report's cache) and, when present, ``player_robustness.csv``: under every
section whose headlines the robustness analysis re-measured under pimc, a line
says how many agree and names each that disagrees, with both values, the
difference's interval and which value the README trusts. Nothing here computes
a number, so this module is not part of the report's cache key
(:func:`.report._source_digest`): changing the wording reruns no analysis.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ..run.io import atomic_path

PRECISION_NOTE = (
    "CSV files give floats to 8 significant digits, enough for every figure reported here "
    "and the same on every machine."
)
ROBUSTNESS = "player_robustness"


def robustness_flags(outdir: Path, trust: str) -> dict[str, str]:
    """analysis name -> the line that says how its headlines fared under pimc (empty without the robustness table).

    A headline disagrees when the 95% interval of pimc - learned misses 0 (the table's ``agree``); ``trust``
    (the robustness analysis's own words) says which value stands there, and why."""
    path = outdir / f"{ROBUSTNESS}.csv"
    if not path.is_file():
        return {}
    table = pd.read_csv(path)
    if "analysis" not in table.columns:  # a table of an older robustness analysis: no mapping to sections
        return {}
    flags = {}
    for name, rows in table.groupby("analysis", sort=True):
        bad = rows[~rows.agree.astype(bool)]
        text = f"checked under pimc ([{ROBUSTNESS}]({ROBUSTNESS}.csv)): {len(rows) - len(bad)} of {len(rows)} agree"
        if len(bad):
            items = []
            for r in bad.itertuples():
                ci = "" if math.isnan(r.diff_lo) else f", 95% CI {r.diff_lo:+.2f} to {r.diff_hi:+.2f}"
                items.append(
                    f"**{r.headline}** ({r.unit}): learned {r.learned:.2f}, pimc {r.pimc:.2f} "
                    f"(pimc - learned {r.diff:+.2f}{ci})"
                )
            text += f"; **disagree**: {'; '.join(items)}. {trust}"
        flags[str(name)] = text + "."
    return flags


def write_readme(outdir: Path, size: str, sections: list[dict]) -> Path:
    """Write ``outdir/README.md`` from the analyses' returned ``sections`` (in order); return its path.

    A section with ``full_only`` (why it is a researchers' question) says that ``wizsim report --full``
    regenerates it and the main job keeps its files."""
    full_only = {info["name"]: info["full_only"] for info in sections if info.get("full_only")}
    check = next((info for info in sections if info["name"] == ROBUSTNESS), None)
    flags = robustness_flags(outdir, check.get("trust", "")) if check is not None else {}
    lines = [
        "# wizsim results",
        "",
        f"Written by `wizsim report{'' if size == 'default' else ' --' + size}`. Every estimate carries a 95% interval;",
        "every number below is reproduced by the command given with it.",
        PRECISION_NOTE,
        "",
    ]
    for info in sections:
        png = next((f for f in info["files"] if f.endswith(".png")), None)
        lines += [f"## {info['question']}", "", info["headline"].rstrip(".") + ".", ""]
        lines += [
            f"- sample: {info['sample']}; seed {info['seed']}",
            f"- table: [{info['files'][0]}]({info['files'][0]})",
            f"- reproduce: `{info['command']}`",
        ]
        if info["name"] in full_only:
            lines.append(
                f"- a researchers' analysis ({full_only[info['name']]}): `wizsim report --full` regenerates it,"
                " `wizsim report` keeps these files"
            )
        if info["name"] in flags:
            lines.append(f"- {flags[info['name']]}")
        lines.append("")
        if png:
            lines += [f"![{info['name']}]({png})", ""]
    readme = outdir / "README.md"
    with atomic_path(readme) as tmp:
        tmp.write_text("\n".join(lines))
    return readme
