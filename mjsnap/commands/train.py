"""`mjsnap train`, `mjsnap eval`, `mjsnap export`: the model's life cycle (needs the `train` extra: torch, ultralytics)."""

from __future__ import annotations

from pathlib import Path

import typer

PRETRAINED_MAHJONG_DETECTOR = "mahjong-detector"


def _pretrained_start(choice: str | None) -> Path | None:
    """`mahjong-detector` builds the converted checkpoint (vision.pretrained); anything else is a .pt path."""
    if choice is None or choice == "none":
        return None
    if choice != PRETRAINED_MAHJONG_DETECTOR:
        path = Path(choice)
        if not path.is_file():
            raise typer.BadParameter(f"{path} does not exist", param_hint="--pretrained")
        return path
    from vision.pretrained import build_pretrained_checkpoint
    from vision.train import WORK_DIR

    out = WORK_DIR / "pretrained" / "mahjong_detector_yolo11n.pt"
    if not out.is_file():
        build_pretrained_checkpoint(out)
    return out


def train(
    data: Path = typer.Option(None, help="dataset config (datasets/*.yaml)"),
    epochs: int = typer.Option(10, min=1, help="fixed number of epochs (no early stopping)"),
    imgsz: int = typer.Option(480, min=32, help="training image size; inference must use the same"),
    batch: int = typer.Option(16, min=1),
    model: str = typer.Option("yolo11n.yaml", help="model YAML (never a hub name) or a local .pt to fine-tune"),
    pretrained: str = typer.Option(
        None, help="'mahjong-detector' (converted from the PyPI package), a local .pt, or omit for scratch"
    ),
    name: str = typer.Option("run", help="run folder name under --project"),
    project: Path = typer.Option(None, help="runs folder (default work/runs)"),
    optimizer: str = typer.Option("AdamW", help="AdamW, SGD, ... (auto would ignore --lr0)"),
    lr0: float = typer.Option(0.001, help="initial learning rate"),
    warmup_epochs: float = typer.Option(1.0),
    close_mosaic: int = typer.Option(2, help="last epochs without mosaic"),
    fraction: float = typer.Option(1.0, min=0.0, max=1.0, help="fraction of the training images to use"),
    resume: Path = typer.Option(None, help="continue an interrupted run from RUN/weights/last.pt"),
) -> None:
    """Train a YOLO tile detector offline; progress lines go to stdout and RUN/progress.jsonl."""
    from vision import train as training

    if resume is not None:
        folder = training.resume(resume)
    else:
        if data is None:
            raise typer.BadParameter("give --data (a datasets/*.yaml config) or --resume", param_hint="--data")
        settings = training.TrainSettings(
            data=data,
            epochs=epochs,
            imgsz=imgsz,
            batch=batch,
            model=model,
            pretrained=_pretrained_start(pretrained),
            name=name,
            project=project or training.WORK_DIR / "runs",
            optimizer=optimizer,
            lr0=lr0,
            warmup_epochs=warmup_epochs,
            close_mosaic=close_mosaic,
            fraction=fraction,
        )
        folder = training.train(settings)
    typer.echo(f"run folder: {folder}")


def register(app: typer.Typer) -> None:
    app.command("train")(train)
