"""Ship a trained checkpoint: a small model.pt, model.onnx, model_openvino/ and meta.json in one model directory.

The directory is what `vision.detector.TileDetector` loads (contracts.md). Exports run offline (YOLO_AUTOINSTALL=0).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scoring.tiles import CLASS_NAMES
from vision.train import configure_offline, read_checkpoint, use_all_cores


TWO_STAGE_EXPORT = "`mjsnap train-two-stage export` exports a one-class tile detector with its crop classifier"


def check_checkpoint_classes(checkpoint: Path, names: dict[int, str] | list[str], task: str = "detect") -> None:
    """ValueError unless a checkpoint is a one-stage tile detector (the 36 classes of classes.txt); a network of the
    two-stage design is told which command exports it."""
    listed = [names[i] for i in range(len(names))] if isinstance(names, dict) else list(names)
    if task != "detect":
        raise ValueError(f"{checkpoint}: the checkpoint is a {task} network, not a tile detector; {TWO_STAGE_EXPORT}")
    if listed != list(CLASS_NAMES):
        hint = f"; {TWO_STAGE_EXPORT}" if len(listed) == 1 else ""
        raise ValueError(f"{checkpoint}: the checkpoint's classes {listed[:6]}... are not the {len(CLASS_NAMES)} "
                         f"names of classes.txt{hint}")


def check_detector_checkpoint(checkpoint: Path) -> None:
    """ValueError unless ``checkpoint`` is an ultralytics checkpoint of a one-stage tile detector."""
    from ultralytics.nn.tasks import guess_model_task

    loaded = read_checkpoint(checkpoint)
    model = loaded.get("ema") or loaded["model"]  # a training run keeps its weights in "ema"
    check_checkpoint_classes(checkpoint, model.names, guess_model_task(model))


def stage_checkpoint(checkpoint: Path, staged: Path):
    """``checkpoint`` without its optimizer at ``staged``, loaded as an ultralytics YOLO model; FileNotFoundError or
    ValueError unless it is an ultralytics checkpoint."""
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    checkpoint = Path(checkpoint)
    if not checkpoint.is_file():
        raise FileNotFoundError(f"{checkpoint} does not exist")
    if not strip_optimizer(checkpoint, str(staged)):  # {}, with a warning only, for a file that is none
        raise ValueError(f"{checkpoint} is not an ultralytics checkpoint (.pt)")
    return YOLO(str(staged))


def exported(model, **kwargs) -> Path:
    """``model.export(**kwargs)``'s output path. Ctrl-C (or SIGTERM, which mjsnap turns into one) that lands inside
    OpenVINO's converter comes out of its C++ as a RuntimeError naming KeyboardInterrupt: it is raised as the
    KeyboardInterrupt it was, so the command stops as on any other Ctrl-C instead of with a traceback."""
    try:
        return Path(model.export(**kwargs))
    except RuntimeError as exc:
        if "KeyboardInterrupt" in str(exc):
            raise KeyboardInterrupt from None
        raise


def write_meta(model_dir: Path, *, version: str, imgsz: int, train_command: str, data: Any, metrics: dict) -> Path:
    meta = {
        "version": version,
        "classes": list(CLASS_NAMES),
        "imgsz": imgsz,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "train_command": train_command,
        "data": data,
        "metrics": metrics,
    }
    path = Path(model_dir) / "meta.json"
    path.write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def export_model_dir(
    checkpoint: Path,
    model_dir: Path,
    *,
    imgsz: int,
    version: str,
    train_command: str,
    data: Any,
    metrics: dict | None = None,
    formats: tuple[str, ...] = ("onnx", "openvino"),
) -> Path:
    """Write model.pt (optimizer stripped, FP16), the exports and meta.json into model_dir (replacing what was there)."""
    configure_offline()
    use_all_cores()
    from ultralytics import YOLO

    model_dir = Path(model_dir)
    with tempfile.TemporaryDirectory(prefix="mjsnap-export-") as tmp:
        staged = Path(tmp) / "model.pt"
        model = stage_checkpoint(checkpoint, staged)
        check_checkpoint_classes(checkpoint, model.names, model.task)
        outputs: dict[str, Path] = {}
        for fmt in formats:
            # Fixed imgsz (the detector letterboxes to meta.json's imgsz); OpenVINO stores FP16 weights, runs FP32 on a CPU.
            kwargs = {"simplify": True} if fmt == "onnx" else {"half": True}  # FP16 weights: half the size
            outputs[fmt] = exported(YOLO(str(staged)), format=fmt, imgsz=imgsz, device="cpu", **kwargs)
        model_dir.mkdir(parents=True, exist_ok=True)
        for old in ("model.pt", "model.onnx", "model_openvino"):
            target = model_dir / old
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        shutil.copy2(staged, model_dir / "model.pt")
        if "onnx" in outputs:
            shutil.copy2(outputs["onnx"], model_dir / "model.onnx")
        if "openvino" in outputs:
            shutil.copytree(outputs["openvino"], model_dir / "model_openvino")
    write_meta(model_dir, version=version, imgsz=imgsz, train_command=train_command, data=data, metrics=metrics or {})
    return model_dir
