"""How the tile reader holds up on photos that arrive turned (an orientation tag lost on the way).

Each labelled photo is turned by 0, 90, 180 and 270 degrees in its pixels (vision.turned: counter-clockwise, labels
turned with it, JPEG quality 95), and each model reads every turned set through `TileDetector`, as the product does,
scored by `vision.evaluate` as `mjsnap eval`.

    .venv/bin/python benchmarks/orientation.py --model models/current [--model work/model_X] \
        [--data datasets/cmd.yaml] [--limit N] [--out benchmarks/results]

Writes orientation.json and orientation.md to --out.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.derived_sets import add_common_arguments, models_of, read_row, report_head, write_report  # noqa: E402
from vision import evaluate as ev  # noqa: E402
from vision.turned import turn_photo, write_derived  # noqa: E402

def write_turned_set(images: list[ev.LabelledImage], quarter_turns: int, folder: Path) -> list[ev.LabelledImage]:
    """Every photo turned by the same number of quarter turns, in an ultralytics layout under ``folder``."""
    return write_derived(images, lambda rgb, xyxy: turn_photo(rgb, xyxy, quarter_turns), folder)


def to_markdown(report: dict) -> str:
    lines = [
        "# Tile reading on photos turned in their pixels",
        "",
        f"{report['date']}: {report['data']} ({report['images']} photos, {report['tiles']} tiles), each turned "
        "counter-clockwise in its pixels and re-saved as JPEG (quality 95); `benchmarks/orientation.py`.",
        "",
        "| model | turn " + ev.READING_COLUMNS[0],
        "|---|---:" + ev.READING_COLUMNS[1],
        *[f"| {row['model']} | {row['degrees']} | {ev.reading_cells(row)} |" for row in report["rows"]],
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_arguments(parser)
    args = parser.parse_args(argv)
    images = ev.labelled_images(args.data, "val", args.limit)
    rows = []
    with tempfile.TemporaryDirectory(prefix="mjsnap-turned-") as tmp:
        for quarter_turns in range(4):
            turned = write_turned_set(images, quarter_turns, Path(tmp) / f"r{90 * quarter_turns}")
            for model in models_of(args):
                row, _ = read_row(model, turned, args.conf, f"turned {90 * quarter_turns}", degrees=90 * quarter_turns)
                rows.append(row)
    write_report(args.out, "orientation", {**report_head(args.data, images), "rows": rows}, to_markdown)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
