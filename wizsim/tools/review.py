"""The review tool (``wizsim review FILE.jsonl``): what each card one seat played cost, by the play advisor.

Every card decision of the reviewed seat in a recorded history (HISTORY.md
format) with more than one legal card is given to :func:`.advise_play.advise_play`
as the seat saw it: its hand then, the bids, the tricks before and the cards
already in the trick (and its passes after Juggler tricks). The loss of a
decision is the advisor's expected round score of its best card minus that of
the card played (0 when the played card is the best or equivalent to it). Its
95% interval treats the two means as independent, which is conservative: both
are measured on the same deals, so their difference is more precise.

Rounds the advisor cannot rebuild are skipped and counted: a Werewolf swap
(the record's hands are those dealt before it), and the mono, maximus and
clairvoyance variants.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import WizsimError
from ..game import reference
from ..game.history_file import read_history
from ..run.header import deck_name, header_line
from .advise_play import PlayOptions, advise_play

UNSUPPORTED_VARIANTS = ("mono", "maximus", "clairvoyance")


@dataclass
class Review:
    """Every reviewed decision (``decisions``, one row each) and what was skipped.

    :func:`review` makes it; each parameter is kept as the attribute of the same name.

    Parameters
    ----------
    seat : int
        The seat reviewed.
    decisions : pandas.DataFrame
        One row per card decision with a choice: ``line``, ``round``, ``trick``, ``in_trick``,
        ``hand``, ``played``, ``best``, ``loss`` (expected points lost against the best card)
        with ``loss_lo``/``loss_hi``, ``p_make_played``, ``p_make_best`` and ``candidates``.
    rounds : int
        The rounds reviewed (not skipped).
    skipped : dict of str to int, optional
        Rounds skipped, by reason (a variant the advisor does not take, a Werewolf swap).
    run : dict, optional
        The file's configuration (:mod:`wizsim.run.header` fields) for the header line.
    """

    seat: int
    decisions: pd.DataFrame
    rounds: int
    skipped: dict[str, int] = field(default_factory=dict)
    run: dict[str, Any] = field(default_factory=dict)  # the file's configuration (wizsim.run.header fields)

    def summary(self) -> dict[str, Any]:
        """Decisions, mean loss per decision with a 95% interval, total loss, share of best plays.

        Returns
        -------
        dict
            ``seat``, ``rounds``, ``decisions``, ``mean_loss``, ``mean_loss_ci``, ``total_loss``,
            ``best_played`` and ``skipped`` (only the first three and ``skipped`` without decisions).
        """
        d = self.decisions
        count = len(d)
        if count == 0:
            return {"seat": self.seat, "rounds": self.rounds, "decisions": 0, "skipped": self.skipped}
        loss = d["loss"].to_numpy()
        se = float(loss.std(ddof=1) / math.sqrt(count)) if count > 1 else math.nan
        return {
            "seat": self.seat,
            "rounds": self.rounds,
            "decisions": count,
            "mean_loss": float(loss.mean()),
            "mean_loss_ci": [float(loss.mean()) - 1.96 * se, float(loss.mean()) + 1.96 * se],
            "total_loss": float(loss.sum()),
            "best_played": float((d["played"] == d["best"]).mean()),
            "skipped": self.skipped,
        }

    def text(self, worst: int = 10) -> str:
        """The summary and the ``worst`` costliest decisions.

        Parameters
        ----------
        worst : int, default 10
            How many of the costliest decisions to list.

        Returns
        -------
        str
            The human-readable review (what ``wizsim review`` prints).
        """
        s = self.summary()
        lines = [header_line(self.run, "review") if self.run else "review"]
        lines += [f"seat {self.seat}: {s['decisions']} decisions with a choice in {self.rounds} rounds"]
        if self.skipped:
            lines.append("skipped: " + ", ".join(f"{v} round(s) ({k})" for k, v in self.skipped.items()))
        if s["decisions"]:
            lo, hi = s["mean_loss_ci"]
            lines.append(
                f"expected points lost per decision: {s['mean_loss']:.2f} [{lo:.2f}, {hi:.2f}];"
                f" in all {s['total_loss']:.1f}; the best card played in {100 * s['best_played']:.1f}%"
            )
            lines.append("")
            lines.append(f"the {min(worst, s['decisions'])} costliest decisions:")
            cols = ["line", "round", "trick", "in_trick", "hand", "played", "best", "loss", "loss_lo", "loss_hi"]
            top = self.decisions.sort_values("loss", ascending=False, kind="stable").head(worst)[cols]
            lines.append(top.to_string(index=False, float_format=lambda x: f"{x:.2f}"))
        return "\n".join(lines)


def _read(path: str | Path) -> list[tuple[int, dict]]:
    """(line, record) of every record, refused on the first that is not HISTORY.md or breaks RULES.md."""
    out = []
    for hl in read_history(path):
        problems = reference.replay(hl.record)
        if problems:
            first = problems[0]
            section = getattr(first, "section", None)
            rule = f"RULES.md {section}" if section else "HISTORY.md"
            more = f" and {len(problems) - 1} more" if len(problems) > 1 else ""
            raise WizsimError(
                f"{path} line {hl.line} breaks the rules ({rule}): {first}{more}; the advisor reviews legal games"
                f" only (wizsim check {path} lists every violation)"
            )
        out.append((hl.line, hl.record))
    return out


def decisions_of(record: dict, seat: int) -> Iterator[tuple[int, int, str, dict[str, Any]]]:
    """(trick, cards before in it, card played, :func:`advise_play` arguments) of each of ``seat``'s plays."""
    wolf = record.get("werewolf")
    if wolf and wolf.get("swapped"):
        raise WizsimError(
            "a round with a Werewolf swap cannot be rebuilt for the advisor (its hands are the dealt ones)"
        )
    n = int(record["players"])
    dealer = int(record["dealer"])
    position = (seat - dealer - 1) % n + 1
    hand = [str(c) for c in record["hands"][seat]]
    bids = [int(record["bids"][(dealer + 1 + i) % n]) for i in range(n)]
    done: list[list[str]] = []
    passed: list[str] = []
    for t, trick in enumerate(record["tricks"]):
        leader = int(trick["leader"])
        cards = [str(c) for c in trick["cards"]]
        j = (seat - leader) % n
        played = cards[j]
        kwargs = {
            "players": n,
            "position": position,
            "hand": list(hand),
            "bids": bids,
            "tricks": [list(x) for x in done],
            "trick": cards[:j],
            "indicator": record.get("indicator"),
            "trump": record.get("trump") or "none",
            "specials": record.get("specials") or [],
            "rules": {k: v for k, v in (record.get("options") or {}).items() if v is not None},
            "passed": list(passed),
            "options": PlayOptions(cards_per_player=int(record["cards_per_player"])),
        }
        yield t, j, played, kwargs
        base = played.split(":")[0]
        hand.remove(base)
        done.append(cards)
        passes = trick.get("passes")
        if passes:
            gave, got = str(passes[seat]), str(passes[(seat - 1) % n])
            hand.remove(gave)
            hand.append(got)
            passed.append(f"{gave}/{got}")


def review(path: str | Path, seat: int, samples: int = 2000, rollout: str = "heuristic", seed: int = 0) -> Review:
    """Score every card decision of ``seat`` in the history at ``path`` against the play advisor.

    Parameters
    ----------
    path : str or Path
        A JSON Lines history (HISTORY.md format, e.g. from ``wizsim history``).
    seat : int
        The seat reviewed (0 .. players - 1, as in the file).
    samples, rollout :
        As for :func:`.advise_play.advise_play`, per decision.
    seed : int
        Decision ``i`` of the file is advised with seed ``seed + i``: the same seed, the same review.

    Returns
    -------
    Review
        One row per decision with a choice: where it was, the card played, the advisor's best, the loss.
    """
    records = _read(path)
    rows = []
    skipped: dict[str, int] = {}
    index = 0
    reviewed = 0
    decks: list[Any] = []
    specials: list[str] = []
    rules: list[Any] = []
    players: list[Any] = []
    for line, record in records:
        n = int(record.get("players", 0))
        options = record.get("options") or {}
        cards = record.get("specials") or []
        custom = record.get("deck") if isinstance(record.get("deck"), list) else None  # HISTORY.md's custom deck
        for seen, value in ((decks, deck_name(cards, custom)), (players, n), (rules, options)):
            if value not in seen:
                seen.append(value)
        specials += [c for c in cards if c not in specials]
        if not 0 <= seat < n:
            raise WizsimError(f"seat {seat} is not at the table of {n} players in line {line}: seats run 0..{n - 1}")
        variant = options.get("variant", "standard")
        if variant in UNSUPPORTED_VARIANTS:
            skipped[f"variant {variant}"] = skipped.get(f"variant {variant}", 0) + 1
            continue
        wolf = record.get("werewolf")
        if wolf and wolf.get("swapped"):
            skipped["Werewolf swap"] = skipped.get("Werewolf swap", 0) + 1
            continue
        reviewed += 1
        for t, j, played, kwargs in decisions_of(record, seat):
            options = replace(kwargs["options"], samples=samples, rollout=rollout, seed=seed + index)
            advice = advise_play(**{**kwargs, "options": options})
            index += 1
            if len(advice.options) < 2:
                continue  # one candidate: no choice
            best = advice.options[0]
            chosen = next((o for o in advice.options if played in o["stands_for"] or played == o["card"]), None)
            if chosen is None:  # pragma: no cover - the advisor lists every legal card
                raise WizsimError(f"line {line}, trick {t + 1}: {played} is not among the legal cards")
            loss = best["expected_score"] - chosen["expected_score"]
            half_loss = math.hypot(
                (best["expected_score_ci"][1] - best["expected_score_ci"][0]) / 2,
                (chosen["expected_score_ci"][1] - chosen["expected_score_ci"][0]) / 2,
            ) if chosen is not best else 0.0  # fmt: skip
            rows.append(
                {
                    "line": line,
                    "round": record.get("round"),
                    "trick": t + 1,
                    "in_trick": j + 1,
                    "hand": " ".join(kwargs["hand"]),
                    "played": chosen["card"],
                    "best": best["card"],
                    "loss": loss,
                    "loss_lo": loss - half_loss,
                    "loss_hi": loss + half_loss,
                    "p_make_played": chosen["p_make"],
                    "p_make_best": best["p_make"],
                    "candidates": len(advice.options),
                }
            )
    run = {
        "file": str(path),
        "players": " or ".join(map(str, players)),
        "deck": " | ".join(decks),
        "specials": specials,
        "rules": rules[0] if len(rules) == 1 else {"per round": rules},
        "seed": seed,
        "sample": f"{samples:,} sampled deals per decision, {rollout} rollouts, seat {seat}, {len(records):,} rounds",
    }
    return Review(seat, pd.DataFrame(rows), reviewed, skipped, run)
