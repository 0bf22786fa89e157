"""`mjsnap turn --data DATASET --split train --out DIR --seed S`: each labelled photo of a dataset config, turned by a
random quarter, half or three-quarter turn with its labels (vision.turned), for training a detector on photos taken in
every orientation. Deterministic by seed."""

from __future__ import annotations

import time
from pathlib import Path

import typer


def turn(
    data: Path = typer.Option(..., "--data", help="dataset folder (its data.yaml) or datasets/*.yaml config"),
    split: str = typer.Option("train", "--split", help="which split of --data to turn"),
    out: Path = typer.Option(..., "--out", help="output folder: images/<split>/ and labels/<split>/ (created; must not "
                                                  "hold that split already)"),
    seed: int = typer.Option(0, "--seed", min=0, help="photo i of seed S always gets the same turn"),
) -> None:
    """Write turned copies of a labelled photo set."""
    from collections import Counter

    from rich.console import Console

    from mjsnap.commands.output_paths import require_output_dir
    from vision.compare import labelled_images
    from vision.turned import write_turned

    require_output_dir("--out", out)
    console = Console(stderr=True)
    existing = [p for p in (out / "images" / split).glob("*") if p.is_file()]
    if existing:  # turned copies of another seed or set would mix with these in training
        console.print(f"[red]mjsnap turn: {out / 'images' / split} already holds {len(existing)} files; choose an empty "
                      "folder or remove it first[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2)
    try:
        images = labelled_images(data, split)
    except (FileNotFoundError, ValueError) as exc:
        console.print(f"[red]mjsnap turn: {exc}[/red]", highlight=False, soft_wrap=True)
        raise typer.Exit(2) from None
    console.print(f"turn: {len(images)} photos of {data} ({split}) -> {out} (seed {seed})", highlight=False)
    start, turns = time.perf_counter(), Counter()
    for done, (_, quarter_turns) in enumerate(write_turned(images, out, split, seed), start=1):
        turns[90 * quarter_turns] += 1
        if done % 200 == 0 or done == len(images):
            console.print(f"  {done}/{len(images)} photos", highlight=False)
    summary = ", ".join(f"{turns[d]} by {d} degrees" for d in sorted(turns))
    console.print(f"done in {time.perf_counter() - start:.1f} s: {summary}", highlight=False)


def register(app: typer.Typer) -> None:
    app.command("turn")(turn)
