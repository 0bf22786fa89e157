"""`mjsnap batch` throughput: photos/s for 12 MP JPEGs with N worker processes (target: >= 8 photos/s on 2 cores).

Makes synthetic hand photos (vision.synth), enlarged to 4032x3024 and saved as JPEG (quality 92, ~3-5 MB each,
every file different), then runs the batch with the real pipeline and the shipped model and times it:
- ``steady``: photos/s from the first record to the last (workers up, models loaded);
- ``overall``: photos/s including starting the workers and loading the model in each;
- ``cpu_bound``: cores / CPU time per photo: what the cores allow when nothing else runs on the machine (wall
  figures measured on a busy machine fall short of it; the load average is reported with them).

    .venv/bin/python benchmarks/batch.py [--photos 48] [--workers 2] [--engine local] [--model models/current]

Writes benchmarks/results/batch.json and batch.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.batch.journal import iter_records  # noqa: E402
from mjsnap.batch.runner import BatchSettings, run_batch  # noqa: E402
from mjsnap.batch.scorers import DEFAULT_SCORER  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
PHOTO_SIZE = (4032, 3024)  # a 12 MP phone photo
SCENES = 8  # distinct synthetic scenes; the rest are variants of them (different bytes, so no duplicates)


def make_photos(folder: Path, count: int, seed: int = 7) -> list[Path]:
    from vision.synth.scene import SynthOptions, make_sample

    options = SynthOptions(imgsz_min=1280, imgsz_max=1280)
    scenes = []
    for index in range(min(SCENES, count)):
        sample = make_sample(seed, index, options)
        scenes.append(cv2.resize(sample.image, PHOTO_SIZE, interpolation=cv2.INTER_CUBIC))
    rng = np.random.default_rng(seed)
    paths = []
    for index in range(count):
        image = scenes[index % len(scenes)].copy()
        image[rng.integers(0, PHOTO_SIZE[1]), rng.integers(0, PHOTO_SIZE[0])] = rng.integers(0, 256, 3)
        path = folder / f"photo_{index:04d}.jpg"
        cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 92])
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=48)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--engine", default="local", choices=("local", "ray"))
    parser.add_argument("--rules", default="weinan")
    parser.add_argument("--model", default=None, help="model folder [models/current]")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--scorer", default=DEFAULT_SCORER, help="per-photo function (module:factory)")
    parser.add_argument("--out", type=Path, default=RESULTS / "batch", help="results stem (.json and .md)")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="mjsnap-batch-bench-"))
    try:
        started = time.perf_counter()
        (work / "photos").mkdir()
        photos = make_photos(work / "photos", args.photos)
        made_s = time.perf_counter() - started
        out = work / "results.jsonl"
        settings = BatchSettings(inputs=[str(work / "photos")], out=out, ruleset=args.rules, workers=args.workers,
                                 engine=args.engine, scorer=args.scorer, model_dir=args.model, backend=args.backend)
        main_cpu_before = time.process_time()
        first_record: list[float] = []
        load_before = os.getloadavg()[0]  # other work on the machine slows the figure down: it is reported
        run_started = time.perf_counter()
        stats = run_batch(settings, on_record=lambda _: first_record or first_record.append(time.perf_counter()))
        run_s = time.perf_counter() - run_started
        main_cpu_ms = (time.process_time() - main_cpu_before) * 1000 / max(len(photos), 1)
        records = list(iter_records(out))
        finished = [datetime.fromisoformat(r["finished_at"]).timestamp() for r in records]
        steady_s = max(finished) - min(finished)
        result = {
            "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                        "load_average_1min_before_after": [round(load_before, 1), round(os.getloadavg()[0], 1)]},
            "photos": len(photos),
            "photo_size": list(PHOTO_SIZE),
            "mean_photo_mb": round(statistics.fmean(p.stat().st_size for p in photos) / 1e6, 2),
            "workers": args.workers,
            "engine": args.engine,
            "scorer": args.scorer,
            "model_version": next((r["model_version"] for r in records if r.get("model_version")), None),
            "status": {s: sum(r["status"] == s for r in records) for s in ("scored", "not_scored", "error")},
            "errors": sorted({r["error"] for r in records if r["status"] == "error"})[:5],
            "seconds_to_make_photos": round(made_s, 1),
            "seconds_total": round(run_s, 2),
            "seconds_to_first_record": round(first_record[0] - run_started, 2) if first_record else None,
            "photos_per_second_overall": round(len(records) / run_s, 2),
            "photos_per_second_steady": round((len(records) - 1) / steady_s, 2) if steady_s > 0 else None,
            "ms_per_photo_in_worker": statistics.median(r["ms"] for r in records),
            "cpu_ms_per_photo_in_worker": statistics.median(r["cpu_ms"] for r in records),
            "cpu_ms_per_photo_in_batch_process": round(main_cpu_ms, 1),
            "target_photos_per_second": 8,
        }
        # What the CPUs alone allow when nothing else runs: cores / CPU time per photo (workers and batch process).
        cpu_per_photo_s = (result["cpu_ms_per_photo_in_worker"] + main_cpu_ms) / 1000
        result["photos_per_second_cpu_bound"] = round(min(args.workers, os.cpu_count() or 1) / cpu_per_photo_s, 2)
        assert stats.scored_by_engine == len(photos), "every photo must be scored once"
    finally:
        shutil.rmtree(work, ignore_errors=True)
    RESULTS.mkdir(parents=True, exist_ok=True)
    Path(f"{args.out}.json").write_text(json.dumps(result, indent=1) + "\n")
    lines = [
        "# mjsnap batch throughput",
        "",
        f"{result['photos']} JPEGs of {PHOTO_SIZE[0]}x{PHOTO_SIZE[1]} (12 MP, {result['mean_photo_mb']} MB on average), "
        f"{args.workers} worker(s), engine {args.engine}, scorer `{args.scorer}`, model {result['model_version']}, "
        f"{result['machine']['cpus']} CPUs (1-min load average before/after: "
        f"{result['machine']['load_average_1min_before_after']}), {result['date']}.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| photos/s, steady (first to last record) | **{result['photos_per_second_steady']}** (target >= 8) |",
        f"| photos/s, overall (with worker start and model load) | {result['photos_per_second_overall']} |",
        f"| seconds to the first record | {result['seconds_to_first_record']} |",
        f"| photos/s the CPUs allow (cores / CPU time per photo) | {result['photos_per_second_cpu_bound']} |",
        f"| median ms per photo inside a worker: wall / CPU | {round(result['ms_per_photo_in_worker'])} / "
        f"{round(result['cpu_ms_per_photo_in_worker'])} |",
        f"| CPU ms per photo in the batch process (hash, plan, write) | {result['cpu_ms_per_photo_in_batch_process']} |",
        f"| records | {result['status']} |",
        "",
        "Run: `.venv/bin/python benchmarks/batch.py " + " ".join(sys.argv[1:]) + "`",
    ]
    Path(f"{args.out}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
