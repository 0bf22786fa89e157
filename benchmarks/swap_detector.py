"""A model folder with another tile detector: a copy of BASE whose detector is exported from a training run's
checkpoint, in f32 and named VERSION-f32, ready for `mjsnap train-two-stage quantize` to add its INT8 copy. The
candidate recipes that train the detector alone (0.24.0 on) end with it.

    .venv/bin/python benchmarks/swap_detector.py BASE CHECKPOINT OUT VERSION [--imgsz 480]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from vision.twostage.export import export_detector  # noqa: E402


def swap_detector(base: Path, checkpoint: Path, out: Path, version: str, imgsz: int) -> Path:
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(base, out, ignore=lambda folder, names: ["detector"] if Path(folder) == base else [])
    files = export_detector(checkpoint, out / "detector", imgsz)
    meta = json.loads((out / "meta.json").read_text())
    meta["detector"].update(files=files, openvino_precision="f32")
    meta.pop("quantized", None)  # that told of BASE's detector; quantize writes the new one's
    meta["version"] = f"{version}-f32"
    (out / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, help="model folder to copy (its classifiers and settings are kept)")
    parser.add_argument("checkpoint", type=Path, help="the tile detector's .pt (a run's weights/last.pt)")
    parser.add_argument("out", type=Path, help="new model folder (replaced when it exists)")
    parser.add_argument("version", help="the new model's version; the folder is named VERSION-f32 until quantized")
    parser.add_argument("--imgsz", type=int, default=480)
    args = parser.parse_args(argv)
    if not (args.base / "meta.json").is_file():
        parser.error(f"{args.base} is not a model folder (no meta.json)")
    if not args.checkpoint.is_file():
        parser.error(f"{args.checkpoint} does not exist")
    print(swap_detector(args.base, args.checkpoint, args.out, args.version, args.imgsz))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
