"""`mjsnap adapt`: teach the model a tile set from unlabelled photos of it (vision.twostage.adapt; `train` extra)."""

from __future__ import annotations

import shlex
from pathlib import Path

import typer

from vision.twostage.adapt import CLASSIFIER_EPOCHS, REPLAY_PHOTOS, PseudoLabelSettings

FEW_PHOTOS = 30  # below this a set's sure tiles teach the classifier little


def adapt(
    ctx: typer.Context,
    photos: list[str] = typer.Argument(None, help="photos of the tile set: folders (searched recursively), files or "
                                                   "glob patterns; no labels needed"),
    base: Path = typer.Option(None, help="the two-stage model to adapt (default models/current)"),
    name: str = typer.Option("adapt", help="run folder name under --project"),
    project: Path = typer.Option(None, help="runs folder (default work/runs)"),
    min_prob: float = typer.Option(PseudoLabelSettings.min_prob, min=0.05, max=1.0,
                                   help="a tile becomes a label when its class probability is at least this"),
    min_conf: float = typer.Option(PseudoLabelSettings.min_conf, min=0.0, max=1.0, help="... and the tile detector's confidence at least this"),
    classifier_minutes: float = typer.Option(10.0, min=0.1, help="the classifier's wall-time budget"),
    classifier_epochs: int = typer.Option(CLASSIFIER_EPOCHS, min=1, help="most classifier epochs"),
    replay: int = typer.Option(
        REPLAY_PHOTOS, min=0, help="synthetic photos trained on beside yours (their crops keep the base's readings), so the "
                         "model keeps the other tile sets and face-down tiles; 0: none"),
    seed: int = typer.Option(0, help="which photo sessions become the fine-tune's val"),
    resume: Path = typer.Option(None, help="continue an interrupted run (its folder, RUN)"),
) -> None:
    """Teach the model your tile set from unlabelled photos: the tiles it reads surely become labels of a crop
    classifier fine-tune. Writes a candidate model; `mjsnap compare` / `mjsnap promote` it on labelled photos."""
    from mjsnap.batch.discovery import DiscoveryError, discover
    from mjsnap.paths import MODELS_DIR
    from vision.twostage import adapt as adaptation

    try:
        if resume is not None:
            if photos:
                raise typer.BadParameter("give photos or --resume RUN, not both", param_hint="PHOTOS")
            model = adaptation.resume(resume)
        else:
            if not photos:
                raise typer.BadParameter("give the photos of your tile set (or --resume RUN)", param_hint="PHOTOS")
            found = discover(photos)
            if len(found) < FEW_PHOTOS:
                typer.echo(f"note: {len(found)} photos; a few dozen of the set give the classifier more to learn from",
                           err=True)
            job = adaptation.Adaptation(
                photos=found, base=base or MODELS_DIR / "current",
                settings=adaptation.PseudoLabelSettings(min_prob=min_prob, min_conf=min_conf),
                classifier_minutes=classifier_minutes, classifier_epochs=classifier_epochs, replay=replay, name=name,
                project=project, seed=seed, command=_command_line(ctx.params))
            model = adaptation.start(job)
    except (DiscoveryError, ValueError, FileExistsError, FileNotFoundError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"candidate model: {model}")
    typer.echo(f"next: mjsnap compare --candidate {model} --data YOUR_LABELLED/data.yaml (a few labelled photos of the "
               "set), then mjsnap promote")


def _command_line(params: dict) -> str:
    parts = ["mjsnap", "adapt", *(params.get("photos") or [])]
    for key, value in params.items():
        if key != "photos" and value is not None:
            parts += [f"--{key.replace('_', '-')}", str(value)]
    return shlex.join(parts)


def register(app: typer.Typer) -> None:
    app.command("adapt")(adapt)
