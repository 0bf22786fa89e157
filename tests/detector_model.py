"""A tiny 36-class YOLO11n model directory built offline for detector tests (needs the train extra).

Its weights are random, but batch-norm statistics are recalibrated and the class head is scaled so confidences
spread over (0, 1) instead of all sitting near 0 or 1: the decoding and NMS then have real work to do, and
ultralytics' own predict on the same input is the reference.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np

from scoring.tiles import CLASS_NAMES
from vision.detector import letterbox

TINY_IMGSZ = 320


def tile_scene(width: int, height: int, seed: int = 0) -> np.ndarray:
    """An RGB picture of light rounded rectangles with dark marks on a green cloth: tile-like edges and texture."""
    import cv2

    rng = np.random.default_rng(seed)
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = (40, 110, 60)
    image = np.clip(image + rng.normal(0, 8, image.shape), 0, 255).astype(np.uint8)
    tile_w = max(width // 16, 4)
    tile_h = max(tile_w * 4 // 3, 5)
    for row in range(2):
        top = height // 3 + row * (tile_h + tile_h // 2)
        for col in range(13 - 9 * row):
            left = width // 20 + col * (tile_w + 2)
            cv2.rectangle(image, (left, top), (left + tile_w, top + tile_h), (235, 232, 220), -1)
            colour = tuple(int(c) for c in rng.integers(0, 160, 3))
            cv2.circle(image, (left + tile_w // 2, top + tile_h // 2), max(tile_w // 4, 1), colour, -1)
    return image


def _spread_class_scores(model, scenes) -> None:
    """Rescale each level's class logits to within +-6 with about 1 anchor in 200 scoring above 0.5."""
    import torch

    logits = {}
    hooks = [
        branch[-1].register_forward_hook(lambda module, args, out, level=level: logits.__setitem__(level, out))
        for level, branch in enumerate(model.model[-1].cv3)
    ]
    with torch.no_grad():
        model(scenes)
        for hook in hooks:
            hook.remove()
        for level, branch in enumerate(model.model[-1].cv3):
            centred = logits[level] - branch[-1].bias.view(1, -1, 1, 1)
            factor = 6.0 / float(centred.abs().max())  # random features are heavy-tailed: bound the extremes
            best = (centred * factor).amax(1).flatten()
            branch[-1].weight.mul_(factor)
            branch[-1].bias.fill_(-float(torch.quantile(best, 0.995)))


def calibrated_network(imgsz: int, names: list[str]):
    """An untrained YOLO11n DetectionModel for ``names`` whose confidences spread over (0, 1) (see the module doc)."""
    import torch
    from ultralytics.nn.tasks import DetectionModel

    torch.manual_seed(0)
    model = DetectionModel("yolo11n.yaml", nc=len(names), verbose=False)
    model.names = dict(enumerate(names))
    # Batch-norm statistics from real activations (random init leaves them at 0/1, which saturates the head).
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.reset_running_stats()
            module.momentum = None
    # Letterboxed scenes of several shapes, so the grey padding is part of what the statistics saw.
    shapes = [(imgsz, imgsz), (2 * imgsz, imgsz + imgsz // 2), (imgsz, 2 * imgsz), (3 * imgsz, imgsz)]
    boxed = [letterbox(tile_scene(w, h, seed), imgsz)[0] for seed, (w, h) in enumerate(shapes)]
    scenes = torch.from_numpy(np.stack(boxed)).permute(0, 3, 1, 2) / 255
    model.train()
    with torch.no_grad():
        model(scenes.float())
    model.eval()
    _spread_class_scores(model, scenes.float())
    return model


def save_network(model, checkpoint: Path, imgsz: int) -> Path:
    """``model`` as a checkpoint ultralytics loads (and exports)."""
    import torch

    Path(checkpoint).parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"imgsz": imgsz, "task": "detect"}, "epoch": -1}, checkpoint)
    return Path(checkpoint)


def build_tiny_model(out_dir: Path, imgsz: int = TINY_IMGSZ) -> Path:
    """model.pt, model.onnx, model_openvino/ and meta.json in ``out_dir`` (reused when already built)."""
    out_dir = Path(out_dir)
    if (out_dir / "meta.json").is_file():
        return out_dir
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    from ultralytics import YOLO

    checkpoint = save_network(calibrated_network(imgsz, list(CLASS_NAMES)), out_dir / "model.pt", imgsz)
    yolo = YOLO(str(checkpoint))
    yolo.export(format="onnx", imgsz=imgsz, simplify=False, verbose=False)
    openvino_dir = Path(yolo.export(format="openvino", imgsz=imgsz, verbose=False))
    shutil.move(openvino_dir, out_dir / "model_openvino")
    meta = {"version": "tiny-test", "classes": list(CLASS_NAMES), "imgsz": imgsz}
    (out_dir / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return out_dir
