"""`mjsnap synth --n N --out DIR --seed S`: write a synthetic photo set (images, YOLO labels, layout JSON,
data.yaml; see vision/synth/writer.py). Deterministic by seed; ../shared/tileart art is used when present."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from mjsnap.commands.number_options import finite


def synth(
    n: int = typer.Option(..., "--n", min=1, help="number of photos"),
    out: Path = typer.Option(..., "--out", help="output folder (created; files of the same names are replaced)"),
    seed: int = typer.Option(0, "--seed", min=0, help="photo i of seed S is always the same"),
    val_fraction: float = typer.Option(0.1, "--val-fraction", min=0.0, max=0.99, callback=finite,
                                       help="share written to val"),
    workers: int = typer.Option(1, "--workers", min=1, help="worker processes"),
    imgsz_min: int | None = typer.Option(None, "--imgsz-min", min=64,
                                         help="smallest long side of a photo (default: 640, or --imgsz-max if less)"),
    imgsz_max: int = typer.Option(1280, "--imgsz-max", min=64, help="largest long side of a photo"),
    max_tilt: float = typer.Option(50.0, "--max-tilt", min=0.0, max=70.0, callback=finite,
                                   help="largest camera tilt, degrees"),
    no_art: bool = typer.Option(False, "--no-art", help="only our own drawn faces, even when ../shared exists"),
    layout: str = typer.Option("any", "--layout",
                               help="any (spacing as loose as real photos) or conventional (every hand laid out as "
                                    "docs/photo-layout.md asks)"),
    art_style: str | None = typer.Option(None, "--art-style",
                                         help="draw every photo's faces from this art set of ../shared/tileart "
                                              "(fluffy_regular, fluffy_black, gleitz, ffalt_uni, ffalt_unib): a "
                                              "test set of one tile set"),
) -> None:
    """Generate synthetic mahjong hand photos with exact labels and meld ground truth."""
    from rich.console import Console

    from mjsnap.commands.output_paths import require_output_dir
    from mjsnap.paths import shared_tileart
    from vision.synth.scene import SynthOptions
    from vision.synth.writer import write_dataset

    require_output_dir("--out", out)
    console = Console(stderr=True)
    if no_art and art_style is not None:  # else the art sets would be reported missing, as if ../shared were
        console.print("[red]mjsnap synth: --art-style draws from the tile art that --no-art leaves out: give one[/red]",
                      highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    tileart = None if no_art else shared_tileart()
    try:
        low = min(640, imgsz_max) if imgsz_min is None else imgsz_min
        options = SynthOptions(imgsz_min=low, imgsz_max=imgsz_max, max_tilt=max_tilt, tileart=tileart,
                               layout=layout, art_style=art_style)
    except ValueError as exc:
        console.print(f"[red]mjsnap synth: {exc}[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    console.print(f"synth: {n} photos -> {out} (seed {seed}, layout {layout}, art sets: {'yes' if tileart else 'no'})")
    start = time.perf_counter()
    tiles = done = 0
    try:
        for done, photo in enumerate(write_dataset(out, n, seed, val_fraction, workers, options), start=1):
            tiles += photo.tiles
            if done % 100 == 0 or done == n:
                rate = done / (time.perf_counter() - start)
                console.print(f"  {done}/{n} photos, {tiles} tiles, {rate:.1f} photos/s", highlight=False)
    except KeyboardInterrupt:
        # Photos are drawn from the seed alone, so the same command writes the same set again
        console.print(f"interrupted after {done} of {n} photos in {out}; the same command (same --seed) writes "
                      "the same photos again", highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None
    console.print(f"done in {time.perf_counter() - start:.1f} s: {out / 'data.yaml'}")


def register(app: typer.Typer) -> None:
    app.command("synth")(synth)
