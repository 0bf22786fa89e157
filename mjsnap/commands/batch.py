"""`mjsnap batch`: score a folder (or glob) of hand photos into a resumable JSONL file, with CSV, summary and report."""

from __future__ import annotations

import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path

import typer

from mjsnap.batch.scorers import DEFAULT_SCORER
from mjsnap.commands import context_options as co
from mjsnap.commands import detector_options
from mjsnap.commands import photo_options as po
from mjsnap.commands.output_paths import require_output_files


def batch(
    inputs: list[str] = typer.Argument(..., help="folders (searched recursively), photo files or glob patterns"),
    rules: str = typer.Option(..., "--rules", "-r", help="rule set: shaanxi, shaanxi108, xian or weinan"),
    out: Path = typer.Option(..., "--out", help="results file (JSON lines, one record per photo)"),
    csv: Path = typer.Option(None, "--csv", help="also write a CSV with one row per photo"),
    workers: int = typer.Option(None, "--workers", "-j", min=1,
                                help="worker processes / Ray actors (default: all CPUs)"),
    resume: bool = typer.Option(False, "--resume", help="continue --out: skip photos it already records"),
    overwrite: bool = typer.Option(False, "--overwrite", help="start --out afresh if it exists"),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="with --resume: score error records again"),
    engine: str = typer.Option("local", "--engine", help="local (processes on this machine) or ray"),
    ray_address: str = typer.Option(None, "--ray-address", help="Ray cluster to join [$RAY_ADDRESS, else local]"),
    ship_bytes: bool = typer.Option(False, "--ship-bytes", help="Ray: send photo bytes (no shared filesystem)"),
    model_dir: Path = typer.Option(None, "--model", help="model folder (default: models/current)"),
    backend: str = typer.Option("auto", "--backend", help="openvino, onnxruntime, ultralytics or auto"),
    conf: float = detector_options.confidence(None),
    winner: int = co.WINNER,
    dealer: int = co.DEALER,
    self_draw: bool = co.SELF_DRAW,
    discarder: int = co.DISCARDER,
    bets: str = co.BETS,
    kong_replacement: bool = co.KONG_REPLACEMENT,
    last_tile: bool = co.LAST_TILE,
    heavenly: bool = co.HEAVENLY,
    earthly: bool = co.EARTHLY,
    robbing_kong: bool = co.ROBBING_KONG,
    after_kong_discard: bool = co.AFTER_KONG_DISCARD,
    missing_suit: str = co.MISSING_SUIT,
    option: list[str] = co.RULE_OPTION,
    list_options: bool = co.LIST_RULE_OPTIONS,
    win_tile: str = po.WIN_TILE,
    face_up_kong: str = po.FACE_UP_KONG,
    kong_kind: list[str] = po.KONG_KIND,
    meld_type: list[str] = po.MELD_TYPE,
    reread_tiles: int = po.REREAD_TILES,
    meld_from: list[str] = po.MELD_FROM,
    scorer: str = typer.Option(DEFAULT_SCORER, "--scorer", help="per-photo function, module:factory"),
    progress: bool = typer.Option(True, "--progress/--no-progress", help="show a progress bar on stderr"),
    as_json: bool = typer.Option(False, "--json", help="print the summary as JSON instead of text"),
    report: bool = typer.Option(True, "--report/--no-report", help="write the HTML report <out>.report.html"),
) -> None:
    """Score every photo under INPUTS into --out; rerun with --resume after an interruption.

    Context for each photo comes from these options, overridden by a sidecar PHOTO.json beside the photo
    (golden.json's context fields: winner, dealer, self_draw, discarder, bets, flags; and meld_from).
    The reading options are those of `mjsnap read`, for every photo; a sidecar may name them too (win_tile,
    face_up_kong, kong_kind, meld_type, reread_tiles).
    """
    from mjsnap.batch.context import meld_from_field
    from mjsnap.batch.discovery import DiscoveryError
    from mjsnap.batch.finish import finish_run, output_files
    from mjsnap.batch.journal import JournalError
    from mjsnap.batch.progress import BatchProgress
    from mjsnap.batch.runner import BatchError, BatchSettings, batch_run
    from mjsnap.batch.scorers import ScorerSpecError
    from scoring.hand import HandError
    from scoring.scorer import RULESETS
    from vision.detector import BACKENDS

    if engine not in ("local", "ray"):
        raise typer.BadParameter(f"{engine!r}: use local or ray", param_hint="--engine")
    if rules not in RULESETS:
        raise typer.BadParameter(f"{rules!r}: use one of {', '.join(RULESETS)}", param_hint="--rules")
    if backend != "auto" and backend not in BACKENDS:  # else refused by the workers, after --out got records
        raise typer.BadParameter(f"{backend!r}: use one of auto, {', '.join(BACKENDS)}", param_hint="--backend")
    ray_only = [name for name, given in (("--ray-address", ray_address), ("--ship-bytes", ship_bytes)) if given]
    if engine == "local" and ray_only:  # else silently ignored: the user meant the run to go to a cluster
        typer.echo(f"error: {' and '.join(ray_only)} {'are' if len(ray_only) > 1 else 'is'} for --engine ray", err=True)
        raise typer.Exit(2)
    outputs = output_files(out, csv, report)
    require_output_files(outputs)  # now: a path found bad after the run would cost the run its summary
    try:  # the checks of `mjsnap score`: a contradiction on the command line would fail every photo
        context = co.context(
            winner=winner, dealer=dealer, discarder=discarder, self_draw=self_draw, bets=bets,
            kong_replacement=kong_replacement, last_tile=last_tile, heavenly=heavenly, earthly=earthly,
            robbing_kong=robbing_kong, after_kong_discard=after_kong_discard, missing_suit=missing_suit,
        )
        read_options = po.read_options(win_tile=win_tile, face_up_kong=face_up_kong, kong_kind=kong_kind,
                                       meld_type=meld_type, reread_tiles=reread_tiles)
        context.update(meld_from_field(po.meld_feeders(meld_from)))
        context.update(po.reading_fields(read_options))  # in the form a sidecar overrides them with
    except (HandError, po.PhotoOptionError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    co.rule_options(option)  # fail now, not once per photo
    rule_options = {key.strip(): value.strip() for key, _, value in (pair.partition("=") for pair in option)}
    settings = BatchSettings(
        inputs=inputs, out=out, ruleset=rules, rule_options=rule_options, context=context,
        workers=workers, resume=resume, overwrite=overwrite, retry_errors=retry_errors,
        engine=engine, ray_address=ray_address, ship_bytes=ship_bytes, scorer=scorer,
        model_dir=str(model_dir) if model_dir else None, backend=backend, conf=conf,
    )  # fmt: skip
    _note_oversubscription(engine, workers)
    bar = BatchProgress(enabled=progress)
    try:
        with ExitStack() as run:
            with bar:
                stats = run.enter_context(batch_run(settings, on_start=bar.start, on_record=bar.advance))
            # the bar is gone, --out still locked: another run let in now would change the records summarised
            summary = finish_run(settings.out, stats, csv_path=csv, report=report)
    except (BatchError, DiscoveryError, JournalError, ScorerSpecError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    except KeyboardInterrupt:
        typer.echo(f"interrupted: every finished photo is in {out}; rerun with --resume to continue", err=True)
        raise typer.Exit(130) from None
    if as_json:
        json.dump(summary, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return
    from mjsnap.batch.summary import summary_lines

    for line in summary_lines(summary) + [f"written: {', '.join(str(p) for p in outputs.values())}"]:
        typer.echo(line)


def register(app: typer.Typer) -> None:
    app.command("batch")(batch)


def _note_oversubscription(engine: str, workers: int | None) -> None:
    """More local workers than CPUs share the cores all the same: measured on 2 cores, 16 workers took twice as
    long as 2, with eight times the memory (about 400 MB a worker). Said, not refused: the user may know better."""
    cpus = os.cpu_count() or 1
    if engine == "local" and workers is not None and workers > cpus:
        from mjsnap.batch.summary import counted

        typer.echo(f"note: --workers {workers} is more than this machine's {counted(cpus, 'CPU')}: the workers share "
                   f"the cores, so more of them only add memory (about 400 MB each) and switching; --workers {cpus} is "
                   "as fast", err=True)
