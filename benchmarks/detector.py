"""Our shipped detector against the PyPI package mahjong-detector on the same labelled real photos, in one run.

Accuracy (vision.evaluate: mAP50, mAP50-95, tile accuracy, tile errors, exact-match) and latency per image for our
OpenVINO and ONNX Runtime backends, each measured on its own and for mahjong-detector's ONNX with its
own preprocessing (grayscale, autocontrast, letterbox to 640) and its own decoding. Its 34 class names are mapped to ours by name; it has no
`back`/`flower` classes, so those true tiles count as misses for it (the figures without flowers are given too).

    .venv/bin/python benchmarks/detector.py [--model models/current] [--data datasets/cmd.yaml] [--limit N]

Writes benchmarks/results/detector.json and detector.md.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision import evaluate as ev  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
# mahjong-detector's honour names (Japanese readings) -> ours; the suited names (1m..9s) are already the same.
THEIR_HONOURS = {"tou": "E", "nan": "S", "sha": "W", "pe": "N", "chun": "C", "hatsu": "F", "haku": "P"}
THEIR_CONF = 0.5  # the package's own operating threshold
THEIR_IOU = 0.5  # the package's (class-agnostic) NMS threshold


def their_class_map() -> np.ndarray:
    from vision.pretrained import source_class_names

    return np.array([CLASS_NAMES.index(THEIR_HONOURS.get(name, name)) for name in source_class_names()])


def their_predictor(conf: float) -> ev.Predictor:
    """mahjong-detector exactly as the package runs it (its preprocessing, ONNX session and postprocess)."""
    import onnxruntime as ort
    from mahjong_detector.predict import create_input_tensor, postprocess
    from mahjong_detector.preprocess import preprocess_image
    from PIL import Image, ImageOps

    from vision.pretrained import source_onnx_path

    session = ort.InferenceSession(str(source_onnx_path()), providers=["CPUExecutionProvider"])
    input_name = session.get_inputs()[0].name
    mapping = their_class_map()

    def predict(path: Path) -> ev.Prediction:
        with Image.open(path) as im:
            image = ImageOps.exif_transpose(im)
            padded, padding = preprocess_image(image)
        output = session.run(None, {input_name: create_input_tensor(padded)})[0][0]
        found = postprocess(output, padding, num_classes=len(mapping), conf_threshold=conf, iou_threshold=THEIR_IOU)
        if not found:
            return ev.Prediction(np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=np.int64))
        return ev.Prediction(
            np.array([[d.x1, d.y1, d.x2, d.y2] for d in found], dtype=np.float32),
            np.array([d.confidence for d in found], dtype=np.float32),
            mapping[[d.class_id for d in found]],
        )

    return predict


def latency_ms(predictor: ev.Predictor, paths: list[Path], warmup: int = 3) -> dict[str, float]:
    """Median and mean ms per photo over two passes of `paths` after `warmup` photos: the second pass ("warm", the
    headline) is what a running app or batch worker spends; the first also pays OpenVINO's first run of each batch
    size our networks meet (12-80 ms each, session 29), which a static-shape network like mahjong-detector's does not."""
    for path in paths[:warmup]:
        predictor(path)
    passes = []
    for _ in range(2):
        times = []
        for path in paths:
            start = time.perf_counter()
            predictor(path)
            times.append(1000 * (time.perf_counter() - start))
        passes.append(times)
    first, warm = passes
    return {"median": round(statistics.median(warm), 2), "mean": round(statistics.fmean(warm), 2),
            "first_pass_median": round(statistics.median(first), 2), "first_pass_mean": round(statistics.fmean(first), 2)}


def without_flowers(images: list[ev.LabelledImage]) -> list[ev.LabelledImage]:
    flower = CLASS_NAMES.index("flower")
    return [replace(i, xyxy=i.xyxy[i.class_id != flower], class_id=i.class_id[i.class_id != flower]) for i in images]


def drop_flower_predictions(predictor: ev.Predictor) -> ev.Predictor:
    flower = CLASS_NAMES.index("flower")

    def predict(path: Path) -> ev.Prediction:
        p = predictor(path)
        keep = p.class_id != flower
        return ev.Prediction(p.xyxy[keep], p.confidence[keep], p.class_id[keep])

    return predict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=REPO / "models" / "current")
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--conf", type=float, default=0.25, help="our operating confidence")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--latency-images", type=int, default=50)
    parser.add_argument("--out", default="detector", help="results file stem under benchmarks/results/")
    args = parser.parse_args()

    from vision.detector import TileDetector, available_backends

    data_name = str(args.data.resolve().relative_to(REPO)) if args.data.resolve().is_relative_to(REPO) else str(args.data)
    images = ev.labelled_images(args.data, limit=args.limit)
    paths = [i.path for i in images][: args.latency_images]
    meta = json.loads((args.model / "meta.json").read_text())
    rows = []
    # Accuracy and latency per backend: since 0.14.2 meta may run OpenVINO's tile detector in bf16, which finds
    # nearly but not exactly the boxes ONNX Runtime's f32 finds.
    for backend in [b for b in ("openvino", "onnxruntime") if b in available_backends(args.model)]:
        predictor, _ = ev.detector_predictor(args.model, backend)
        name = f"mjsnap {meta['version']} ({backend})"
        report = ev.evaluate(predictor, images, args.conf, name, data_name)
        flowerless = ev.evaluate(drop_flower_predictions(predictor), without_flowers(images), args.conf, name, data_name)
        detector = TileDetector(args.model, backend=backend, conf=args.conf)
        timing = latency_ms(lambda p, d=detector: d.detect(p), paths)
        rows.append({"name": name, "imgsz": meta["imgsz"], "report": report, "no_flowers": flowerless, "ms": timing})
        print(name, report.summary(), f"| latency {timing}", flush=True)

    theirs_full = their_predictor(ev.MAP_CONF)
    theirs_op = their_predictor(THEIR_CONF)
    report = ev.evaluate(theirs_full, images, THEIR_CONF, "mahjong-detector 0.0.6 (onnxruntime)", data_name)
    flowerless = ev.evaluate(theirs_full, without_flowers(images), THEIR_CONF, report.model, data_name)
    timing = latency_ms(theirs_op, paths)
    rows.append({"name": report.model, "imgsz": 640, "report": report, "no_flowers": flowerless, "ms": timing})
    print(report.summary(), f"| latency {timing}", flush=True)

    RESULTS.mkdir(parents=True, exist_ok=True)
    payload = {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": f"{platform.processor() or platform.machine()}, {__import__('os').cpu_count()} cores",
        "data": data_name,
        "images": len(images),
        "latency_images": len(paths),
        "rows": [
            {"name": r["name"], "imgsz": r["imgsz"], "latency_ms": r["ms"], "all_tiles": r["report"].model_dump(),
             "without_flowers": r["no_flowers"].model_dump()}
            for r in rows
        ],
    }
    (RESULTS / f"{args.out}.json").write_text(json.dumps(payload, indent=1) + "\n")
    lines = [
        f"# Detector benchmark ({payload['created']})",
        "",
        f"{len(images)} labelled images from `{data_name}` (val split); latency: median over {len(paths)} images, one at "
        f"a time, image decoding included, on {payload['machine']} (shared with other work while measured), in a "
        "second pass over them (warm); the first pass, in brackets, also pays each network's first run of each batch "
        "size it meets.",
        "Tile errors = missed + misclassified + extra detections at each model's operating confidence "
        f"(ours {args.conf}, mahjong-detector {THEIR_CONF}).",
        "",
        "| model | imgsz | mAP50 | mAP50-95 | tile acc. | tile errors | exact-match | tile acc. w/o flowers | "
        "errors w/o flowers | ms/image, warm (first pass) |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        a, b = r["report"], r["no_flowers"]
        lines.append(
            f"| {r['name']} | {r['imgsz']} | {a.map50:.3f} | {a.map50_95:.3f} | {a.tile_accuracy:.3f} | {a.tile_errors} | "
            f"{a.exact_match:.3f} | {b.tile_accuracy:.3f} | {b.tile_errors} | {r['ms']['median']:.1f} "
            f"({r['ms']['first_pass_median']:.1f}) |"
        )
    (RESULTS / f"{args.out}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
