"""Detector latency on this CPU: per backend at the model's imgsz, and a 12 MP JPEG end to end (decode included).

With OpenVINO, each network alone is also timed at each precision (f32, bf16), whichever meta ships.

    .venv/bin/python benchmarks/latency.py [--model models/current] [--repeats 30]

Writes benchmarks/results/latency.json and latency.md. The photo is a synthetic hand (vision.synth) so the numbers
do not depend on ../shared. The machine may be shared with training: the load average is recorded with the figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.paths import MODELS_DIR  # noqa: E402
from vision.detector import TileDetector, available_backends, letterbox, to_tensor  # noqa: E402
from vision.imageio import LoadedImage, read_image  # noqa: E402
from vision.synth.scene import make_sample  # noqa: E402
from vision.twostage.characters import CROP_SIZE as CHARACTER_CROP  # noqa: E402
from vision.twostage.crops import cut_tile  # noqa: E402

TWELVE_MP = (4032, 3024)
ORIENTATION_TAG = 0x0112


def timed(function, repeats: int) -> dict[str, float]:
    """Wall-clock median / p90 / min, plus the median CPU time of this process (all its threads): on a machine
    shared with training the wall time is inflated, while CPU time stays close to the work done."""
    function()  # warm-up: first calls allocate and compile
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    wall.sort()
    return {
        "median_ms": round(statistics.median(wall), 2),
        "p90_ms": round(wall[int(0.9 * (len(wall) - 1))], 2),
        "min_ms": round(wall[0], 2),
        "cpu_median_ms": round(statistics.median(cpu), 2),
    }


def photo_12mp(seed: int) -> tuple[np.ndarray, bytes]:
    """A synthetic hand enlarged to 12 MP, written as a phone would: portrait scene stored sideways + EXIF 6."""
    scene = make_sample(seed, 0).image
    width, height = TWELVE_MP
    portrait = cv2.resize(scene, (height, width) if scene.shape[0] > scene.shape[1] else (width, height),
                          interpolation=cv2.INTER_CUBIC)
    exif = Image.Exif()
    exif[ORIENTATION_TAG] = 6
    buffer = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(np.rot90(portrait, 1))).save(buffer, "JPEG", quality=92, exif=exif.tobytes())
    return scene, buffer.getvalue()


def openvino_precisions(model_dir: Path, meta: dict, tensor: np.ndarray, repeats: int) -> list[dict]:
    """Each OpenVINO network alone at each precision (vision.twostage.backend.STAGE_PRECISIONS; int8 where the model
    has its quantized copy), whatever meta ships: the tile detector on the letterboxed photo, a classifier on a full
    batch of crops (or a one-stage network)."""
    from vision.detector import QUANTIZED_FOLDER, _openvino_network
    from vision.twostage.backend import STAGE_PRECISIONS, openvino_precision

    if meta.get("design") == "two_stage":
        part = meta["classifier"]
        crops = np.random.default_rng(0).random((part["batch"], 3, part["imgsz"], part["imgsz"]), dtype=np.float32)
        inputs = {"detector": (model_dir / "detector", tensor), "classifier": (model_dir / "classifier", crops)}
    else:
        inputs = {"network": (model_dir, tensor)}
    rows = []
    for stage, (folder, batch) in inputs.items():
        shipped = openvino_precision(meta, stage)
        for precision in STAGE_PRECISIONS:
            if precision == "int8" and not (folder / QUANTIZED_FOLDER).is_dir():
                continue
            network = _openvino_network(folder, precision)
            rows.append({"stage": stage, "precision": precision, "shipped": precision == shipped,
                         "input": list(batch.shape), **timed(lambda: network(batch), repeats)})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=MODELS_DIR / "current")
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    parser.add_argument("--backends", nargs="*", help="default: every backend the model directory has")
    args = parser.parse_args()

    meta = json.loads((args.model / "meta.json").read_text(encoding="utf-8"))
    scene, jpeg = photo_12mp(args.seed)
    load_before = os.getloadavg()
    rows, precisions = [], []
    for backend in args.backends or available_backends(args.model):
        detector = TileDetector(args.model, backend=backend)
        at_imgsz = cv2.resize(scene, (detector.imgsz, detector.imgsz * scene.shape[0] // scene.shape[1]))
        tensor = to_tensor(letterbox(at_imgsz, detector.imgsz)[0])
        row = {"backend": backend, "imgsz": detector.imgsz}
        if detector.stages is None:
            row["network"] = timed(lambda: detector.raw_output(tensor), args.repeats)
        else:  # two-stage: the tile detector on the letterboxed photo, then the classifier on one batch of crops
            loaded = LoadedImage.from_array(at_imgsz)
            boxes = detector.stages.find_tiles(loaded)[0][: meta["classifier"]["batch"]]
            row["tile_detector"] = timed(lambda: detector.stages.find_tiles(loaded), args.repeats)
            # one look at one batch of boxes: the network's cost (classify adds extra looks and character reads
            # for the tiles it is unsure of; detect() below includes them, and the level view of slanted rows)
            margin = (detector.stages.margin,)
            row["classifier_batch"] = timed(lambda: detector.stages.look(at_imgsz, boxes, margin), args.repeats)
            row["crops_in_batch"] = len(boxes)
            if detector.stages.characters is not None and len(boxes):  # asked only about unsure character tiles
                sharp = cut_tile(at_imgsz, boxes[0], CHARACTER_CROP, detector.stages.margin)[None]
                row["character_reader_tile"] = timed(lambda: detector.stages.reader.scores(sharp), args.repeats)
        row |= {
            "detect_at_imgsz": timed(lambda: detector.detect(at_imgsz), args.repeats),
            "jpeg_12mp_end_to_end": timed(lambda: detector.detect(read_image(jpeg)), max(args.repeats // 3, 5)),
            "detections_on_12mp": len(detector.detect(read_image(jpeg))),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
        if backend == "openvino":
            precisions = openvino_precisions(args.model, meta, tensor, args.repeats)
    decode_only = timed(lambda: read_image(jpeg), max(args.repeats // 3, 5))

    result = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "model": str(args.model),
        "model_version": meta.get("version"),
        "cpu": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "load_average_before_after": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "repeats": args.repeats,
        "jpeg_12mp_bytes": len(jpeg),
        "jpeg_12mp_decode_only": decode_only,
        "backends": rows,
        "openvino_precisions": precisions,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "latency.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (args.out / "latency.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))


def markdown(result: dict) -> str:
    lines = [
        f"# Detector latency ({result['created']})",
        "",
        f"Model `{result['model']}` version {result['model_version']}; {result['cpu_count']} CPU cores; "
        f"load average before/after {result['load_average_before_after']} (the machine may be shared). "
        f"Wall-clock medians of {result['repeats']} runs, p90 and the process's CPU time (both threads) in brackets.",
        "",
        "A two-stage model's network time is split into its tile detector and its classifier on one batch of boxes "
        "(each box classified upright and turned 180 degrees when meta says half_turn_average: two batches of crops). "
        "With a character recognizer (meta \"characters\"), the last column but two is the time it takes to read one "
        "tile (6 lines), paid only for each tile the classifier is unsure of that likely shows a character. Since "
        "0.12.0 an unsure tile (best class under extra_looks.below) also costs its extra looks (two more crops each "
        "way up, batched with the others), and a photo whose rows slant a second tile-detector pass (the level view); "
        "*detect at imgsz* includes all of it. With an ensemble (meta classifier.ensemble, since 0.14.0) the "
        "classifier column is every classifier on the batch; in detect() the others read only the tiles the first "
        "doubts (classifier.ensemble_below, since 0.14.1). Since session 17 OpenVINO classifiers run a short batch "
        "short; ONNX Runtime pads it to the export's 16.",
        "",
        "| backend | imgsz | network ms | tile detector ms | classifier, one batch of boxes ms | character reader, one tile ms | detect at imgsz ms | 12 MP JPEG end to end ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    keys = ("network", "tile_detector", "classifier_batch", "character_reader_tile", "detect_at_imgsz", "jpeg_12mp_end_to_end")
    for row in result["backends"]:
        text = [f"{c['median_ms']} (p90 {c['p90_ms']}, cpu {c['cpu_median_ms']})" if c else "-" for c in map(row.get, keys)]
        lines.append(f"| {row['backend']} | {row['imgsz']} | " + " | ".join(text) + " |")
    decode = result["jpeg_12mp_decode_only"]
    lines += [
        "",
        f"Decoding the 12 MP JPEG alone (EXIF rotation, reduced to the working size): {decode['median_ms']} ms "
        f"(p90 {decode['p90_ms']}, cpu {decode['cpu_median_ms']}).",
        "",
    ]
    if result.get("openvino_precisions"):
        lines += [
            "OpenVINO networks alone at each precision (meta detector/classifier.openvino_precision picks one per "
            "stage; bf16 only where the CPU has AVX512-BF16, else it runs f32):",
            "",
            "| stage | input | precision | shipped | ms |",
            "|---|---|---|---|---|",
        ]
        for row in result["openvino_precisions"]:
            lines.append(f"| {row['stage']} | {'x'.join(map(str, row['input']))} | {row['precision']} | "
                         f"{'yes' if row['shipped'] else ''} | {row['median_ms']} (p90 {row['p90_ms']}, "
                         f"cpu {row['cpu_median_ms']}) |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
