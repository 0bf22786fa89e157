"""Speed of the synthetic photo generator on one core: CPU seconds per photo (process time, so a busy machine does
not inflate it), the wall time beside it, and what the photos hold (tiles, sizes, styles).

    .venv/bin/python benchmarks/synth.py [--photos 60] [--seed 0] [--no-art]

Writes benchmarks/results/synth.json and synth.md. The first photos of a process draw the tile faces they need and
read the art sets; they are timed apart ("warm-up") from the steady rate a long run sees.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.paths import shared_tileart  # noqa: E402
from vision.synth.scene import SynthOptions, make_sample  # noqa: E402
from vision.synth.writer import encode_jpeg, jpeg_quality  # noqa: E402

WARM_UP = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-art", action="store_true", help="drawn faces only, even when ../shared exists")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    options = SynthOptions(tileart=None if args.no_art else shared_tileart())

    warm_cpu = time.process_time()
    for i in range(WARM_UP):
        encode_jpeg(make_sample(args.seed, 10_000 + i, options), 90)
    warm_cpu = time.process_time() - warm_cpu

    cpu, wall, tiles, sides, styles = [], [], [], [], Counter()
    for i in range(args.photos):
        c0, w0 = time.process_time(), time.perf_counter()
        sample = make_sample(args.seed, i, options)
        encode_jpeg(sample, jpeg_quality(args.seed, i))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
        tiles.append(len(sample.tiles))
        sides.append(max(sample.image.shape[:2]))
        styles["drawn" if sample.scene["style"].startswith("drawn:") else sample.scene["style"]] += 1

    result = {
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores",
        "load_average": os.getloadavg()[0],
        "photos": args.photos,
        "art_sets": options.tileart is not None,
        "cpu_s_per_photo_mean": statistics.mean(cpu),
        "cpu_s_per_photo_p90": sorted(cpu)[int(0.9 * (len(cpu) - 1))],
        "wall_s_per_photo_mean": statistics.mean(wall),
        "warm_up_cpu_s": warm_cpu,
        "photos_per_cpu_minute": 60 / statistics.mean(cpu),
        "tiles_per_photo_mean": statistics.mean(tiles),
        "long_side_px_mean": statistics.mean(sides),
        "styles": dict(styles),
    }
    out = REPO / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "synth.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        "# Synthetic generator speed",
        "",
        f"{args.photos} photos (seed {args.seed}, long side 640-1280, JPEG encoding included), one thread; "
        f"{result['date']}; {result['machine']}; load average {result['load_average']:.1f}.",
        "",
        "| figure | value |",
        "| --- | --- |",
        f"| CPU s per photo (mean) | {result['cpu_s_per_photo_mean']:.3f} |",
        f"| CPU s per photo (p90) | {result['cpu_s_per_photo_p90']:.3f} |",
        f"| photos per CPU minute | {result['photos_per_cpu_minute']:.0f} |",
        f"| wall s per photo (mean, shared machine) | {result['wall_s_per_photo_mean']:.3f} |",
        f"| warm-up CPU s ({WARM_UP} photos: faces drawn, art read) | {result['warm_up_cpu_s']:.1f} |",
        f"| labelled tiles per photo | {result['tiles_per_photo_mean']:.1f} |",
        f"| art sets used | {'yes' if result['art_sets'] else 'no'}: {dict(styles)} |",
        "",
    ]
    (out / "synth.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
