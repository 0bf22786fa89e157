"""What the benchmarks that read changed copies of a labelled set share (orientation.py, photo_conditions.py,
tile_scale.py): their common options, one model's reading of one changed set as a row of the report, and the
report's files. Each benchmark keeps what is its own: how it changes the photos and how its table reads."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from mjsnap.paths import repo_relative
from vision import evaluate as ev

REPO = Path(__file__).resolve().parent.parent


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", action="append", type=Path, help="model directory (repeatable; default models/current)")
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--limit", type=int, help="photos per val folder")
    parser.add_argument("--conf", type=float, default=0.25)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")


def models_of(args: argparse.Namespace) -> list[Path]:
    return args.model or [REPO / "models" / "current"]


def read_row(model: Path, images: list[ev.LabelledImage], conf: float, data_name: str, zoom: bool = True,
             note: str = "", **labels) -> tuple[dict, ev.EvalReport]:
    """``model`` reads ``images`` through TileDetector, scored as `mjsnap eval`: the report's row (model, backend,
    ``labels``, READING_FIELDS) and the report; its summary is printed (with ``note``)."""
    predictor, backend = ev.detector_predictor(model, zoom=zoom)
    report = ev.evaluate(predictor, images, conf, repo_relative(model), data_name)
    print(f"{report.summary()} {note}".rstrip(), flush=True)
    return {"model": repo_relative(model), "backend": backend, **labels,
            **report.model_dump(include=ev.READING_FIELDS)}, report


def report_head(data: Path, images: list[ev.LabelledImage]) -> dict:
    """The date and the labelled set a report's rows were read from."""
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "data": repo_relative(data),
        "images": len(images),
        "tiles": int(sum(len(item.class_id) for item in images)),
    }


def write_report(out: Path, stem: str, result: dict, to_markdown: Callable[[dict], str]) -> None:
    """OUT/STEM.json and OUT/STEM.md (printed too)."""
    out.mkdir(parents=True, exist_ok=True)
    markdown = to_markdown(result)
    (out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
    (out / f"{stem}.md").write_text(markdown)
    print(markdown)
