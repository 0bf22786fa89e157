"""`mjsnap batch`: score a folder (or glob) of hand photos into a resumable JSONL file, with CSV, summary and report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from mjsnap.batch.scorers import DEFAULT_SCORER


def _bets(text: str | None) -> list[int] | None:
    if text is None:
        return None
    try:
        values = [int(v) for v in text.replace(" ", "").split(",")]
    except ValueError as exc:
        raise typer.BadParameter(f"{text!r}: give four whole numbers, e.g. 1,0,2,0", param_hint="--bets") from exc
    if len(values) != 4:
        raise typer.BadParameter(f"{text!r}: one bet per seat, four in all", param_hint="--bets")
    return values


def _rule_options(pairs: list[str]) -> dict[str, str]:
    from scoring.options import OptionError, RuleOptions

    try:
        RuleOptions.from_pairs(pairs)  # fail now, not once per photo
    except OptionError as exc:
        raise typer.BadParameter(str(exc), param_hint="--option") from exc
    return {key.strip(): value.strip() for key, _, value in (pair.partition("=") for pair in pairs)}


def batch(
    inputs: list[str] = typer.Argument(..., help="folders (searched recursively), photo files or glob patterns"),
    rules: str = typer.Option(..., "--rules", "-r", help="rule set: shaanxi, shaanxi108, xian or weinan"),
    out: Path = typer.Option(..., "--out", help="results file (JSON lines, one record per photo)"),
    csv: Path = typer.Option(None, "--csv", help="also write a CSV with one row per photo"),
    workers: int = typer.Option(None, "--workers", "-j", min=1, help="worker processes / Ray actors [all CPUs]"),
    resume: bool = typer.Option(False, "--resume", help="continue --out: skip photos it already records"),
    overwrite: bool = typer.Option(False, "--overwrite", help="start --out afresh if it exists"),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="with --resume: score error records again"),
    engine: str = typer.Option("local", "--engine", help="local (processes on this machine) or ray"),
    ray_address: str = typer.Option(None, "--ray-address", help="Ray cluster to join [$RAY_ADDRESS, else local]"),
    ship_bytes: bool = typer.Option(False, "--ship-bytes", help="Ray: send photo bytes (no shared filesystem)"),
    model_dir: Path = typer.Option(None, "--model", help="model folder [models/current]"),
    backend: str = typer.Option("auto", "--backend", help="openvino, onnxruntime, ultralytics or auto"),
    conf: float = typer.Option(None, "--conf", min=0.0, max=1.0, help="detection confidence threshold"),
    winner: int = typer.Option(0, "--winner", min=0, max=3, help="winner's seat (0-3)"),
    dealer: int = typer.Option(0, "--dealer", min=0, max=3, help="dealer's seat (0-3)"),
    self_draw: bool = typer.Option(None, "--self-draw/--no-self-draw", help="self-drawn win [when no --discarder]"),
    discarder: int = typer.Option(None, "--discarder", min=0, max=3, help="seat that discarded the winning tile"),
    bets: str = typer.Option(None, "--bets", help="bets per seat, e.g. 1,0,2,0 (炮子 / 注)"),
    kong_replacement: bool = typer.Option(False, "--kong-replacement", help="won on a kong replacement (杠上花)"),
    last_tile: bool = typer.Option(False, "--last-tile", help="won on the last tile (海底)"),
    heavenly: bool = typer.Option(False, "--heavenly", help="天胡"),
    earthly: bool = typer.Option(False, "--earthly", help="地胡"),
    robbing_kong: bool = typer.Option(False, "--robbing-kong", help="抢杠"),
    after_kong_discard: bool = typer.Option(False, "--after-kong-discard", help="Weinan 杠后点胡"),
    missing_suit: str = typer.Option(None, "--missing-suit", help="Weinan 定缺 suit: m, p or s"),
    option: list[str] = typer.Option([], "--option", "-o", help="rule switch KEY=VALUE (repeatable), as in mjsnap score"),
    scorer: str = typer.Option(DEFAULT_SCORER, "--scorer", help="per-photo function, module:factory"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar on stderr"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON instead of text"),
    report: bool = typer.Option(True, "--report/--no-report", help="write the HTML report <out>.report.html"),
) -> None:
    """Score every photo under INPUTS into --out; rerun with --resume after an interruption.

    Context for each photo comes from these options, overridden by a sidecar PHOTO.json beside the photo
    (golden.json's context fields: winner, dealer, self_draw, discarder, bets, flags).
    """
    from mjsnap.batch.discovery import DiscoveryError
    from mjsnap.batch.journal import JournalError
    from mjsnap.batch.progress import BatchProgress
    from mjsnap.batch.runner import BatchError, BatchSettings, run_batch
    from mjsnap.batch.scorers import ScorerSpecError
    from scoring.scorer import RULESETS

    if engine not in ("local", "ray"):
        raise typer.BadParameter(f"{engine!r}: use local or ray", param_hint="--engine")
    if rules not in RULESETS:
        raise typer.BadParameter(f"{rules!r}: use one of {', '.join(RULESETS)}", param_hint="--rules")
    context: dict[str, Any] = {"winner": winner, "dealer": dealer, "self_draw": self_draw, "discarder": discarder,
                               "kong_replacement": kong_replacement, "last_tile": last_tile, "heavenly": heavenly,
                               "earthly": earthly, "robbing_kong": robbing_kong,
                               "after_kong_discard": after_kong_discard, "missing_suit": missing_suit}
    if (parsed_bets := _bets(bets)) is not None:
        context["bets"] = parsed_bets
    settings = BatchSettings(
        inputs=inputs, out=out, ruleset=rules, rule_options=_rule_options(option), context=context,
        workers=workers, resume=resume, overwrite=overwrite, retry_errors=retry_errors,
        engine=engine, ray_address=ray_address, ship_bytes=ship_bytes, scorer=scorer,
        model_dir=str(model_dir) if model_dir else None, backend=backend, conf=conf,
    )  # fmt: skip
    bar = BatchProgress(enabled=progress)
    try:
        with bar:
            stats = run_batch(settings, on_start=bar.start, on_record=bar.advance)
    except (BatchError, DiscoveryError, JournalError, ScorerSpecError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    except KeyboardInterrupt:
        typer.echo(f"interrupted: every finished photo is in {out}; rerun with --resume to continue", err=True)
        raise typer.Exit(130) from None
    from mjsnap.batch.finish import finish_run

    summary = finish_run(settings.out, stats, csv_path=csv, report=report)
    if as_json:
        json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    from mjsnap.batch.finish import report_path, summary_path
    from mjsnap.batch.summary import summary_lines

    written = [out, summary_path(out)] + ([report_path(out)] if report else []) + ([csv] if csv else [])
    for line in summary_lines(summary) + [f"written: {', '.join(str(p) for p in written)}"]:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("batch")(batch)
