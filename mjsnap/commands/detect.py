"""`mjsnap detect IMAGE...`: run the tile detector on photos.

With --json, one object per line and per image (the stable public contract, see README):
``{"image", "width", "height", "ms", "detections": [{"cls", "conf", "box": [x1, y1, x2, y2]}]}``, or
``{"image", "error"}`` for a file that cannot be read. Sizes and boxes are pixels of the photo after EXIF
orientation; ``ms`` covers reading, decoding and detecting that image. Exit code 1 when any image failed.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from mjsnap import jsontext
from mjsnap.commands import detector_options
from mjsnap.paths import MODELS_DIR


def detect(
    # readable=False: an unreadable photo is reported in its own line, not refused with the whole command
    images: list[Path] = typer.Argument(..., help="photos to read (JPEG, PNG, WebP, HEIC, AVIF, GIF, TIFF, BMP)",
                                        show_default=False, readable=False),
    as_json: bool = typer.Option(False, "--json", help="one JSON object per line and image"),
    model: Path = typer.Option(MODELS_DIR / "current", "--model", help="model directory (meta.json + model files)"),
    conf: float = detector_options.confidence(),
    backend: str = typer.Option("auto", "--backend", help="auto, openvino, onnxruntime or ultralytics"),
) -> None:
    """Detect tiles in each photo; an unreadable file is reported and the others still run."""
    from rich.console import Console

    from vision.detector import ModelNotFoundError, TileDetector
    from vision.imageio import ImageReadError, read_image

    console = Console(stderr=True)  # messages are printed with soft_wrap so a path is never broken across lines
    try:
        detector = TileDetector(model, backend=backend, conf=conf)
    except (ModelNotFoundError, ValueError) as exc:
        console.print(f"[red]mjsnap detect: {exc}[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None

    failed = 0
    for path in images:
        start = time.perf_counter()
        try:
            loaded = read_image(path)
            detections = detector.detect(loaded)
        except ImageReadError as exc:
            failed += 1
            if as_json:
                typer.echo(jsontext.dumps({"image": str(path), "error": str(exc)}))
            else:
                console.print(f"[red]{exc}[/red]", highlight=False, soft_wrap=True)
            continue
        record = {
            "image": str(path),
            "width": loaded.width,
            "height": loaded.height,
            "ms": round((time.perf_counter() - start) * 1000, 1),
            "detections": detections.to_list(),
        }
        if as_json:
            typer.echo(jsontext.dumps(record))
        else:
            _print_table(record)
    raise typer.Exit(1 if failed else 0)


def _print_table(record: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{record['image']}  {record['width']}x{record['height']}  "
        f"{len(record['detections'])} tiles  {record['ms']} ms",
        title_justify="left",
    )
    for column in ("cls", "conf", "x1", "y1", "x2", "y2"):
        table.add_column(column, justify="left" if column == "cls" else "right")
    # Left to right, as the tiles lie in a row.
    for item in sorted(record["detections"], key=lambda d: (d["box"][0], d["box"][1])):
        table.add_row(item["cls"], f"{item['conf']:.2f}", *(f"{v:.0f}" for v in item["box"]))
    Console().print(table)


def register(app: typer.Typer) -> None:
    app.command("detect")(detect)
