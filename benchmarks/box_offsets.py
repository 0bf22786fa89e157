"""Where the tile detector's boxes fall, and whether the crop classifier minds.

The classifier learns from crops cut around labelled boxes, jittered (vision.twostage.crops.CropSettings.jitter: each
side moved by up to that share of the box, 8 %), and at inference reads crops cut around the tile detector's boxes. Per model
directory, on labelled photos:

- how far each side of the detector's box lies from the label's (OpenVINO, with the detector in bf16 where the CPU
  has it, and ONNX Runtime, all f32), and from each other: as a share of the label's (or the f32 box's) width or
  height, boxes paired at IoU over 0.5;
- the product's classification (`TwoStageNetworks.classify`: every reading step) of the same tiles cut from the
  label's box and from the detector's (OpenVINO).

    .venv/bin/python benchmarks/box_offsets.py --model models/current [--model work/model_X] [--data datasets/cmd.yaml]

Writes box_offsets.json and box_offsets.md to --out (benchmarks/results).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from mjsnap.paths import repo_relative  # noqa: E402
from vision import evaluate as ev  # noqa: E402
from vision.twostage.crops import CropSettings, read_rgb  # noqa: E402

PAIRED_IOU = 0.5
SIDES = ("x1", "y1", "x2", "y2")
JITTER = CropSettings().jitter  # how far training crops move each side


def side_offsets(reference: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(K, 4) signed offsets of each side of a box from the reference box it is paired with, as a share of the
    reference's width (x1, x2) or height (y1, y2); and the (K,) indices of the paired reference boxes and boxes."""
    pairs = ev.greedy_match(ev.box_iou(reference, boxes), PAIRED_IOU)
    if not pairs:
        return np.zeros((0, 4)), np.zeros(0, np.int64), np.zeros(0, np.int64)
    ref_index, box_index = (np.array(side, np.int64) for side in zip(*pairs))
    ref = reference[ref_index]
    size = np.stack([ref[:, 2] - ref[:, 0], ref[:, 3] - ref[:, 1]] * 2, 1)
    return (boxes[box_index] - ref) / size, ref_index, box_index


def summarize(offsets: np.ndarray) -> dict:
    """Size of the offsets over all sides, and each side's signed mean (negative: left of / above the reference)."""
    size = np.abs(offsets).ravel()
    if not len(size):
        return {"boxes": 0}
    return {"boxes": len(offsets), "mean": float(size.mean()), "median": float(np.median(size)),
            "p90": float(np.quantile(size, 0.9)), "p99": float(np.quantile(size, 0.99)),
            "over_jitter": float((size > JITTER).mean()),
            "signed_mean": dict(zip(SIDES, (float(v) for v in offsets.mean(0)))),
            "width_change": float((offsets[:, 2] - offsets[:, 0]).mean()),
            "height_change": float((offsets[:, 3] - offsets[:, 1]).mean())}


def measure(model: Path, images: list[ev.LabelledImage]) -> dict:
    from vision.detector import TileDetector

    stages = {backend: TileDetector(model, backend=backend).stages for backend in ("openvino", "onnxruntime")}
    if stages["openvino"] is None:
        raise SystemExit(f"{model} is not a two-stage model (no tile detector stage)")
    label_bf16, label_f32, f32_bf16 = [], [], []
    read_right = {"label": 0, "detector": 0}
    tiles = 0
    for image in images:
        rgb = read_rgb(image.path)
        truth = image.xyxy.astype(np.float32)
        boxes = {backend: networks.box_tiles(rgb, networks.conf)[0] for backend, networks in stages.items()}
        offsets, labelled, found = side_offsets(truth, boxes["openvino"])
        label_bf16.append(offsets)
        label_f32.append(side_offsets(truth, boxes["onnxruntime"])[0])
        f32_bf16.append(side_offsets(boxes["onnxruntime"], boxes["openvino"])[0])
        if len(labelled):
            for source, cut in (("label", truth[labelled]), ("detector", boxes["openvino"][found])):
                probs = stages["openvino"].classify(rgb, cut)
                read_right[source] += int((probs.argmax(1) == image.class_id[labelled]).sum())
            tiles += len(labelled)
    return {"model": repo_relative(model), "photos": len(images), "openvino_backend": stages["openvino"].backend,
            "offsets": {"label_to_openvino": summarize(np.concatenate(label_bf16)),
                        "label_to_onnxruntime": summarize(np.concatenate(label_f32)),
                        "onnxruntime_to_openvino": summarize(np.concatenate(f32_bf16))},
            "classified": {"tiles": tiles, **{f"{source}_box_wrong": tiles - right for source, right in read_right.items()}}}


def markdown(result: dict) -> str:
    lines = [f"# Where the tile detector's boxes fall ({result['date']})", "",
             f"`benchmarks/box_offsets.py` on the {result['split']} photos of `{result['data']}`, {result['machine']}. "
             "Offsets per side, as a share of the reference box's width or height, boxes paired at IoU over "
             f"{PAIRED_IOU}; training crops jitter each side by up to {JITTER:g}.", "",
             f"| model | from -> to | boxes | mean | median | p90 | p99 | over {JITTER:g} | mean x1 / y1 / x2 / y2 | width / height |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
    names = {"label_to_openvino": "label -> OpenVINO (bf16 detector)", "label_to_onnxruntime": "label -> ONNX Runtime (f32)",
             "onnxruntime_to_openvino": "ONNX Runtime -> OpenVINO"}
    for row in result["models"]:
        for key, name in names.items():
            o = row["offsets"][key]
            if not o["boxes"]:
                lines.append(f"| `{row['model']}` | {name} | 0 | | | | | | | |")
                continue
            signed = " / ".join(f"{v:+.4f}" for v in o["signed_mean"].values())
            lines.append(f"| `{row['model']}` | {name} | {o['boxes']:,} | {o['mean']:.4f} | {o['median']:.4f} | "
                         f"{o['p90']:.4f} | {o['p99']:.4f} | {o['over_jitter']:.1%} | {signed} | "
                         f"{o['width_change']:+.4f} / {o['height_change']:+.4f} |")
    lines += ["", "The same tiles (labelled, paired with an OpenVINO box) classified by the product's reading from the "
              "label's box and from the detector's:", "",
              "| model | tiles | wrong from the label's box | wrong from the detector's box |", "|---|---:|---:|---:|"]
    for row in result["models"]:
        c = row["classified"]
        lines.append(f"| `{row['model']}` | {c['tiles']:,} | {c['label_box_wrong']} | {c['detector_box_wrong']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", type=Path, action="append", required=True, help="a two-stage model directory, repeated")
    parser.add_argument("--data", type=Path, default=REPO / "datasets" / "cmd.yaml")
    parser.add_argument("--split", default="val")
    parser.add_argument("--limit", type=int, default=None, help="at most this many photos per folder")
    parser.add_argument("--out", type=Path, default=REPO / "benchmarks" / "results")
    args = parser.parse_args()
    for model in args.model:
        if not (model / "meta.json").is_file():
            raise SystemExit(f"--model {model}: no meta.json there (a model directory)")
    images = ev.labelled_images(args.data, args.split, args.limit)
    if not images:
        raise SystemExit(f"{args.data} has no labelled {args.split} photos")
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "data": repo_relative(args.data),
              "split": args.split, "models": [measure(model, images) for model in args.model]}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "box_offsets.json").write_text(json.dumps(result, indent=1))
    (args.out / "box_offsets.md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
