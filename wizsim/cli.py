"""The ``wizsim`` command line: simulate, history, advise, review, check, tournament, report, bench.

Bad input prints one line on stderr (``wizsim: error: ...``) and exits with
status 2, leaving no output file behind. The long commands (simulate,
history, tournament, report) take the same run options
(:func:`wizsim.run.parallel.add_run_arguments`), carried into the run by one
:class:`wizsim.run.parallel.RunOptions`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .errors import WizsimError
from .run.header import header_line
from .run.parallel import RunOptions, add_run_arguments, run_counts
from .run.stats import format_pct as _pct
from .run.stats import format_pm as _pm
from .version import __version__

if TYPE_CHECKING:
    import pandas as pd


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        raise WizsimError(f"{message} (see '{self.prog} --help')")


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--players", type=int, required=True, help="number of players, 3 to 6")
    p.add_argument("--cards", type=int, help="cards per player in each independent round (with --hands)")
    p.add_argument("--hands", type=int, help="number of independent rounds (with --cards)")
    p.add_argument("--games", type=int, help="number of full games (60/players rounds each, with or without specials)")
    p.add_argument("--schedule", help="hand sizes of each game's rounds, e.g. 1,3,5,7 (with --games)")
    p.add_argument("--seed", type=int, required=True, help="seed: the same seed gives the same numbers")
    p.add_argument(
        "--strategy",
        default="random",
        help="strategy for every seat, or one per seat: heuristic,random,random,random "
        "(known: random, heuristic, table, pimc, learned; parameters in brackets, e.g. pimc(samples=16); "
        "your own bid rule: rule(path/to/file.py:function) or rule(file.py:function,play=heuristic), "
        "features: wizsim features; your own card play: play(path/to/file.py:function,bid=learned), "
        "features: wizsim features --play)",
    )
    p.add_argument(
        "--specials",
        help="special cards to mix in: any of dragon,fairy,bomb,werewolf,juggler,cloud,shapeshifter, or all",
    )
    p.add_argument(
        "--rule",
        action="extend",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="rule options: canadian=true|false, scoring=standard|progressive, "
        "wizard_indicator=dealer_chooses|no_trump, bomb=void_trick|cancel_bids, werewolf=must|may, "
        "passive_indicator=dealer_chooses|no_trump, hidden_bids=off|simultaneous|secret, "
        "variant=standard|clairvoyance|mono|maximus|elimination (clairvoyance joins others with +), "
        "rounds=N (1 to deck size // players; a card is turned up whenever one is left)",
    )


RESUMES = "keep finished work in DIR; rerunning the same command after an interruption resumes the run"


def _spec_from(args: argparse.Namespace):
    from .run.simulate import make_spec

    return make_spec(
        players=args.players,
        cards=args.cards,
        hands=args.hands,
        games=args.games,
        schedule=args.schedule,
        seed=args.seed,
        strategy=args.strategy,
        rules=args.rule,
        specials=args.specials,
    )


def build_parser() -> argparse.ArgumentParser:
    """The ``wizsim`` command line: one subcommand per job, each added by its own function below."""
    parser = _Parser(prog="wizsim", description="Monte-Carlo simulation of the card game Wizard.")
    parser.add_argument("--version", action="version", version=f"wizsim {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    _add_simulate(sub)
    _add_history(sub)
    _add_report(sub)
    _add_advise(sub)
    _add_review(sub)
    _add_check(sub)
    _add_tournament(sub)
    _add_bench(sub)
    return parser


def _add_simulate(sub: Any) -> None:
    """Add the ``simulate`` command: play many rounds or games and print the table."""
    sim = sub.add_parser("simulate", help="play many rounds or games and print the table")
    _add_selection(sim)
    add_run_arguments(sim, checkpoint_help=RESUMES)
    sim.add_argument("--out", help="also write the table to FILE.csv or FILE.parquet (games: also FILE_games.*)")
    sim.add_argument(
        "--precision",
        metavar="HALF_WIDTH",
        help="run fixed chunks in order until every strategy's hit rate has a 95%% interval of at most "
        "+- HALF_WIDTH (e.g. 0.002), the same numbers for any --jobs; --hands (default 4,194,304) or --games "
        "is then the cap",
    )


def _add_history(sub: Any) -> None:
    """Add the ``history`` command: every simulated round as a JSON line."""
    his = sub.add_parser("history", help="write every simulated round as a JSON line (HISTORY.md format)")
    _add_selection(his)
    his.add_argument("--out", required=True, help="output FILE.jsonl")
    his.add_argument("--legal", action="store_true", help="also record the legal cards at every play (for audits)")
    add_run_arguments(his, checkpoint_help="refused: a history is one file written in order (rerun instead)")


def _add_report(sub: Any) -> None:
    """Add the ``report`` command: run the analyses and write results/."""
    rep = sub.add_parser("report", help="run every analysis in analyses/ and write results/ (the main job)")
    size = rep.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="tiny sizes (for tests)")
    size.add_argument(
        "--full",
        action="store_true",
        help="also the researchers' analyses (those that declare FULL_ONLY: pimc's strength/time curve, the headlines "
        "under pimc), which plain wizsim report keeps from their last --full run",
    )
    rep.add_argument("--out", default="results", help="output folder (default: results)")
    rep.add_argument("--force", action="store_true", help="rerun every analysis, even those cached in OUT/.cache")
    rep.add_argument("--only", help="comma-separated analysis names (default: all in analyses/)")
    add_run_arguments(
        rep,
        default_jobs=os.cpu_count() or 1,
        checkpoint_help="refused: finished analyses are kept in OUT/.cache, so a rerun resumes anyway",
    )


def _add_advise(sub: Any) -> None:
    """Add the ``advise`` command: the bid advisor, and with ``--play`` the card-play advisor."""
    adv = sub.add_parser("advise", help="trick probabilities and the best bid for one hand")
    adv.add_argument("--players", type=int, required=True, help="number of players, 3 to 6")
    adv.add_argument(
        "--position", type=int, required=True, help="1 = left of the dealer (bids and leads first) ... N = dealer"
    )
    adv.add_argument("--hand", required=True, help="your cards, e.g. W,B13,R7,J (the round size is their number)")
    adv.add_argument("--indicator", help="the turned-up card, e.g. B5 (neither this nor --trump: drawn at random)")
    adv.add_argument(
        "--trump", help="the trump suit B, R, G, Y, or none (bids: instead of --indicator; --play: also with it)"
    )
    adv.add_argument("--bids", help="bids already made before you, in order, e.g. 1,0")
    adv.add_argument(
        "--specials", help="special cards in the deck: any of dragon,fairy,bomb,werewolf,juggler,cloud,shapeshifter"
    )
    adv.add_argument("--rule", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help="rule options")
    adv.add_argument(
        "--strategy",
        default=None,
        help="everyone's strategy, or one per position 1..N (default: learned, the strongest; not with --play)",
    )
    adv.add_argument("--samples", type=int, default=None, help="deals to play out (default 100000; with --play 20000)")
    adv.add_argument("--seed", type=int, default=0, help="seed (default 0): the same seed gives the same advice")
    adv.add_argument(
        "--method",
        choices=("auto", "own", "per-bid"),
        default="auto",
        help="own: one play-out per deal, scores from P(tricks); per-bid: every deal played to make each bid "
        "(k+1 times the work); auto: per-bid only when a Cloud or cancel_bids makes the score depend on more",
    )
    adv.add_argument("--jobs", type=int, default=1, help="local worker processes (same numbers for any value)")
    adv.add_argument("--json", action="store_true", help="print the advice as one JSON object")
    play = adv.add_argument_group("card play (--play): which card to play now")
    play.add_argument(
        "--play",
        action="store_true",
        help="advise the card to play: --bids then gives everyone's bids by position, --hand the cards held now",
    )
    play.add_argument(
        "--tricks", help='the finished tricks, each from its leader, ";" between: "B3 B9 B1 R2; W J G4 G5"'
    )
    play.add_argument("--trick", help='the cards already in the current trick, from its leader: "R4 R11"')
    play.add_argument("--cards", type=int, help="the round's size, checked against the hand and the tricks played")
    play.add_argument("--passed", help="after each Juggler trick, your pass as GAVE/GOT, e.g. B3/R7")
    play.add_argument(
        "--rollout",
        choices=("heuristic", "table", "random", "learned"),
        default="heuristic",
        help="how the deals are played out",
    )


def _add_review(sub: Any) -> None:
    """Add the ``review`` command: score one seat's card play in a history file."""
    rev = sub.add_parser("review", help="what each card one seat played cost, by the play advisor")
    rev.add_argument("file", help="a history file (JSON Lines, HISTORY.md format), e.g. from wizsim history")
    rev.add_argument("--seat", type=int, required=True, help="the seat to review, 0 .. players - 1 as in the file")
    rev.add_argument("--samples", type=int, default=2000, help="sampled deals per decision (default 2000)")
    rev.add_argument("--rollout", choices=("heuristic", "table", "random", "learned"), default="heuristic")
    rev.add_argument("--seed", type=int, default=0, help="seed (default 0): the same seed gives the same review")
    rev.add_argument("--worst", type=int, default=10, help="list this many costliest decisions (default 10)")
    rev.add_argument("--out", help="also write every decision to this .csv")
    rev.add_argument("--json", action="store_true", help="print the summary and the decisions as one JSON object")


def _add_check(sub: Any) -> None:
    """Add the ``check`` command: does a recorded history obey RULES.md?"""
    chk = sub.add_parser(
        "check",
        help="check a history file against RULES.md (exit 0 clean, 1 violations found, 2 unreadable)",
    )
    chk.add_argument("file", help="a history file (JSON Lines, HISTORY.md format)")
    chk.add_argument(
        "--mode",
        choices=("auto", "games", "hands"),
        default="auto",
        help="games: whole games (schedule, dealers, elimination); hands: independent rounds;"
        " auto (default): decide from the records",
    )


def _add_tournament(sub: Any) -> None:
    """Add the ``tournament`` command: a duplicate tournament of strategies."""
    tou = sub.add_parser("tournament", help="duplicate tournament: strategies on the same deals, every seating")
    tou.add_argument("--players", type=int, required=True, help="number of players, 3 to 6")
    tou.add_argument(
        "--strategies",
        required=True,
        help="two or more strategies (at most one per player), e.g. heuristic,random or heuristic(pass=random),random"
        " or rule(my_rule.py:bid),table",
    )
    tou.add_argument("--cards", type=int, help="cards per player in each independent deal (with --deals)")
    tou.add_argument("--deals", type=int, help="number of independent deals (with --cards)")
    tou.add_argument("--games", type=int, help="number of full games instead (60/players rounds each)")
    tou.add_argument("--schedule", help="hand sizes of each game's rounds, e.g. 1,3,5,7 (with --games)")
    tou.add_argument(
        "--specials",
        help="special cards to mix in: any of dragon,fairy,bomb,werewolf,juggler,cloud,shapeshifter, or all",
    )
    tou.add_argument("--rule", action="extend", nargs="+", default=[], metavar="KEY=VALUE", help="rule options")
    tou.add_argument("--seed", type=int, default=0, help="seed (default 0): the same seed deals the same cards")
    tou.add_argument("--json", action="store_true", help="print JSON: the run header ('run') and one object per strategy ('strategies')")
    add_run_arguments(tou, checkpoint_help=RESUMES)


def _add_bench(sub: Any) -> None:
    """Add the ``bench`` and ``features`` commands."""
    ben = sub.add_parser("bench", help="print throughput (rounds/s, card plays/s)")
    ben.add_argument("--json", action="store_true", help="print the results as JSON")
    ben.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test, not a measurement)")
    ben.add_argument("--repeats", type=int, default=3, help="timed repeats per case (median reported)")
    ben.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel baseline")
    ben.add_argument(
        "--pimc-curve",
        action="store_true",
        help="only pimc's speed at each setting of analyses/pimc_tradeoff.py (samples x rollout policy)",
    )
    fea = sub.add_parser("features", help="the features a bid rule may read (--strategy 'rule(file.py:function)')")
    fea.add_argument("--play", action="store_true",
                     help="the features a play rule may read (--strategy 'play(file.py:function,bid=learned)')")  # fmt: skip


def format_table(df: pd.DataFrame) -> str:
    """The simulate table as text: each mean with the half-width of its 95% interval."""
    import pandas as pd

    shown = pd.DataFrame(
        {
            "strategy": df["strategy"],
            "cards": df["cards"],
            "pos": df["position"],
            "rounds": df["rounds"],
            "bid": [_pm(*x, 3) for x in zip(df.mean_bid, df.mean_bid_lo, df.mean_bid_hi, strict=True)],
            "tricks": [_pm(*x, 3) for x in zip(df.mean_tricks, df.mean_tricks_lo, df.mean_tricks_hi, strict=True)],
            "hit % [95% CI]": [_pct(*x) for x in zip(df.hit_rate, df.hit_rate_lo, df.hit_rate_hi, strict=True)],
            "|bid-tricks|": [
                _pm(*x, 3) for x in zip(df.mean_abs_diff, df.mean_abs_diff_lo, df.mean_abs_diff_hi, strict=True)
            ],
            "score": [_pm(*x, 2) for x in zip(df.mean_score, df.mean_score_lo, df.mean_score_hi, strict=True)],
        }
    )
    return shown.to_string(index=False)


def format_games(df: pd.DataFrame) -> str:
    import pandas as pd

    shown = pd.DataFrame(
        {
            "seat": df["seat"],
            "strategy": df["strategy"],
            "games": df["games"],
            "mean total": [_pm(*x, 1) for x in zip(df.mean_total, df.mean_total_lo, df.mean_total_hi, strict=True)],
            "win % [95% CI]": [_pct(*x) for x in zip(df.win_rate, df.win_rate_lo, df.win_rate_hi, strict=True)],
        }
    )
    return shown.to_string(index=False)


def _games_path(out: str) -> Path:
    p = Path(out)
    return p.with_name(f"{p.stem}_games{p.suffix}")


def cmd_simulate(args: argparse.Namespace) -> int:
    from .run.io import check_output, write_table
    from .run.simulate import SimulationResult

    options = RunOptions.from_args(args)
    precision = None
    if args.precision is not None:
        from .run.precision import capped_hands, check_precision

        precision = check_precision(args.precision)
        args.hands = capped_hands(args.cards, args.hands, args.games)
    spec = _spec_from(args)
    if args.out:
        check_output(args.out, (".csv", ".parquet"))
    if precision is None:
        result = SimulationResult(spec, run_counts(spec, options), spec.provenance())
    else:
        from .run.simulate import precise_result

        result = precise_result(spec, precision, options, what="--precision")
    prov = result.attrs
    table = result.table()
    print(header_line(prov))
    print(format_table(table))
    print()
    print("per strategy over all rounds:")
    summ = result.summary()
    print(
        "\n".join(
            f"  {r.strategy} (seats {r.seats}): hit % {_pct(r.hit_rate, r.hit_rate_lo, r.hit_rate_hi)}, "
            f"{_pm(r.mean_score, r.mean_score_lo, r.mean_score_hi, 2)} points per round"
            for r in summ.itertuples()
        )
    )
    games = result.games_table() if spec.games_mode else None
    if games is not None:
        print()
        print(format_games(games))
    if args.out:
        from .run.io import atomic_path, output_group

        for df in (table, games):
            if df is not None:
                df.attrs = dict(prov)
        meta = Path(args.out).with_suffix(Path(args.out).suffix + ".json")
        # the tables and their provenance appear together, the provenance last (io.output_group)
        with output_group():
            write_table(table, args.out)
            if games is not None:
                write_table(games, _games_path(args.out))
            with atomic_path(meta) as tmp:
                tmp.write_text(json.dumps(prov, indent=2) + "\n")
        print(
            f"\nwrote {args.out}" + (f" and {_games_path(args.out)}" if games is not None else "") + f" ({meta.name})"
        )
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from .run.history import write_history
    from .run.io import check_output

    options = RunOptions.from_args(args)
    spec = _spec_from(args)
    check_output(args.out, (".jsonl",))
    lines = write_history(args.out, spec, include_legal=args.legal, **options.kwargs())
    print(f"{header_line(spec.provenance(), 'history')}; wrote {lines:,} rounds to {args.out}")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from .report.report import run_report

    size = "quick" if args.quick else "default"
    options = RunOptions.from_args(args)
    only = [x.strip() for x in args.only.split(",") if x.strip()] if args.only else None
    readme = run_report(size, Path(args.out), only=only, force=args.force, full=args.full, **options.kwargs())
    print(f"wrote {readme}")
    return 0


def cmd_advise(args: argparse.Namespace) -> int:
    from .tools.advise import BidOptions, advise

    if args.jobs < 1:
        raise WizsimError(f"--jobs must be >= 1, got {args.jobs}")
    if args.play:
        return _advise_play(args)
    for name in ("tricks", "trick", "passed", "cards"):
        if getattr(args, name) is not None:
            raise WizsimError(f"--{name} describes a position for card play: add --play")
    advice = advise(
        players=args.players,
        position=args.position,
        hand=args.hand,
        indicator=args.indicator,
        trump=args.trump,
        bids=args.bids,
        specials=args.specials,
        rules=args.rule,
        strategy=args.strategy or "learned",
        options=BidOptions(
            samples=100_000 if args.samples is None else args.samples,
            seed=args.seed,
            method=args.method,
            jobs=args.jobs,
        ),
    )
    print(json.dumps(advice.to_dict()) if args.json else advice.format())
    return 0


def _advise_play(args: argparse.Namespace) -> int:
    from .tools.advise_play import PlayOptions, advise_play

    if args.strategy is not None:
        raise WizsimError("--play evaluates every card by pimc's sampled deals: drop --strategy (see --rollout)")
    if args.bids is None:
        raise WizsimError("--play needs everyone's bids by position: --bids 1,0,2,1")
    advice = advise_play(
        players=args.players,
        position=args.position,
        hand=args.hand,
        bids=args.bids,
        tricks=args.tricks,
        trick=args.trick,
        indicator=args.indicator,
        trump=args.trump,
        specials=args.specials,
        rules=args.rule,
        passed=args.passed,
        options=PlayOptions(
            samples=20_000 if args.samples is None else args.samples,
            rollout=args.rollout,
            seed=args.seed,
            cards_per_player=args.cards,
        ),
    )
    print(json.dumps(advice.to_dict()) if args.json else advice.text())
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from .run.io import check_output, write_table
    from .tools.review import review

    out = check_output(args.out, (".csv",)) if args.out else None
    if args.worst < 0:
        raise WizsimError(f"--worst must be >= 0, got {args.worst}")
    result = review(args.file, args.seat, samples=args.samples, rollout=args.rollout, seed=args.seed)
    if out is not None:
        write_table(result.decisions, out)
    if args.json:
        decisions = result.decisions.to_dict(orient="records")
        print(json.dumps({"run": result.run, "summary": result.summary(), "decisions": decisions}))
    else:
        print(result.text(args.worst))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from .tools.check import check

    result = check(args.file, mode=args.mode)
    print(result.text())
    return 1 if result.violations else 0


def cmd_tournament(args: argparse.Namespace) -> int:
    from .tools.tournament import format_result, tournament

    options = RunOptions.from_args(args)
    res = tournament(
        args.players,
        args.strategies,
        cards=args.cards,
        deals=args.deals,
        games=args.games,
        schedule=args.schedule,
        seed=args.seed,
        rules=args.rule,
        specials=args.specials,
        **options.kwargs(),
    )
    print(res.to_json() if args.json else format_result(res))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .tools.bench import format_bench, run_bench

    if args.repeats < 1:
        raise WizsimError(f"--repeats must be >= 1, got {args.repeats}")
    if args.pimc_curve:
        from .tools.bench import format_pimc_curve, time_pimc_curve

        curve = time_pimc_curve(0.2 if args.quick else 2.0, args.repeats)
        print(json.dumps(curve, indent=2) if args.json else format_pimc_curve(curve))
        return 0
    res = run_bench(quick=args.quick, repeats=args.repeats, openspiel=not args.no_openspiel)
    if args.json:
        print(json.dumps(res, indent=2))
    else:
        print(format_bench(res))
    return 0


def cmd_features(args: argparse.Namespace) -> int:
    if getattr(args, "play", False):
        from .players.play_rules import feature_rows as play_rows

        rows = play_rows()
        heading = ("Features a play rule may read (its parameters; it returns the score of one legal card and form;"
                   " ABSTAIN = -inf leaves the card to the fallback). See README 'Your own card play'.")  # fmt: skip
    else:
        from .players.bid_rules import feature_rows

        rows = feature_rows()
        heading = "Features a bid rule may read (its parameters; it returns the bid). See README 'Your own rule of thumb'."
    width, kinds = max(len(r.name) for r in rows), max(len(r.kind) for r in rows)
    print(heading)
    for r in rows:
        print(f"  {r.name:<{width}}  {r.kind:<{kinds}}  {r.meaning}")
    return 0


COMMANDS = {
    "simulate": cmd_simulate,
    "history": cmd_history,
    "report": cmd_report,
    "advise": cmd_advise,
    "review": cmd_review,
    "check": cmd_check,
    "tournament": cmd_tournament,
    "bench": cmd_bench,
    "features": cmd_features,
}


def _warn_line(message, category, filename, lineno, file=None, line=None):
    """Warnings on the command line: one line, no source location."""
    print(f"wizsim: warning: {message}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``wizsim`` command; returns the exit status."""
    import warnings

    warnings.showwarning = _warn_line
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except WizsimError as exc:
        print(f"wizsim: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("wizsim: interrupted; output being written was discarded", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (wizsim ... | head): stop quietly
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0


if __name__ == "__main__":
    sys.exit(main())
