"""Ship a two-stage model: detector/ and classifier/ (each model.pt, model.onnx, model_openvino/) and meta.json.

The character recognizer (characters/, vision.twostage.characters) is not trained here: it is carried over, with its
settings, from the model directory given as ``characters_from`` (the base of a fine-tune, or the shipped model)."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scoring.tiles import CLASS_NAMES
from vision.export import exported, stage_checkpoint
from vision.train import configure_offline, use_all_cores
from vision.twostage.backend import DESIGN, ENSEMBLE_BELOW, EXTRA_LOOKS, FACE_FLOOR, OPENVINO_PRECISION, ensemble_folders
from vision.twostage.characters import FILE as CHARACTER_FILE
from vision.twostage.characters import CharacterSettings
from vision.twostage.crops import MARGIN, class_folder

CLASSIFIER_BATCH = 16  # crops per classifier call; the exports have this fixed batch size
FORMATS = ("onnx", "openvino")


def _export_stage(staged: Path, out: Path, imgsz: int, batch: int) -> dict[str, str]:
    """A staged checkpoint (``_stage_checkpoint``) as the stage folder ``out``: model.pt, model.onnx, model_openvino/."""
    from ultralytics import YOLO

    _name_classes(staged)
    outputs = {}
    for fmt in FORMATS:
        kwargs = {"simplify": True} if fmt == "onnx" else {"half": False}
        outputs[fmt] = exported(YOLO(str(staged)), format=fmt, imgsz=imgsz, batch=batch, device="cpu", **kwargs)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copy2(staged, out / "model.pt")
    shutil.copy2(outputs["onnx"], out / "model.onnx")
    shutil.copytree(outputs["openvino"], out / "model_openvino")
    return {"pt": "model.pt", "onnx": "model.onnx", "openvino": "model_openvino"}


def _stage_checkpoint(checkpoint: Path, staged: Path, check_names) -> Path:
    """``checkpoint`` staged as vision.export.stage_checkpoint stages it; ValueError unless ``check_names`` accepts
    its classes."""
    staged.parent.mkdir(parents=True, exist_ok=True)
    check_names(stage_checkpoint(checkpoint, staged).names, checkpoint)
    return staged


def _name_classes(staged: Path) -> None:
    """Give a classifier checkpoint the names of classes.txt (its crop folders are "00_1m", ...), so model.pt and
    the exports carry the same names a one-stage model does. The detector's single class stays "tile"."""
    import torch

    checkpoint = torch.load(staged, map_location="cpu", weights_only=False)
    model = checkpoint["model"]
    if len(model.names) == len(CLASS_NAMES):
        model.names = dict(enumerate(CLASS_NAMES))
        torch.save(checkpoint, staged)


def _check_detector_names(names: dict[int, str], checkpoint: Path) -> None:
    if len(names) != 1:
        raise ValueError(f"{checkpoint}: a tile detector has one class, this one has {len(names)}")


def _check_classifier_names(names: dict[int, str], checkpoint: Path) -> None:
    expected = [class_folder(i) for i in range(len(CLASS_NAMES))]
    if [names[i] for i in range(len(names))] not in (expected, list(CLASS_NAMES)):
        raise ValueError(f"{checkpoint}: classifier classes must be the crop folders {expected[:3]}... in order")


def export_two_stage(
    detector: Path,
    classifier: Path,
    model_dir: Path,
    *,
    detector_imgsz: int,
    classifier_imgsz: int,
    version: str,
    train_command: str,
    data: Any,
    metrics: dict | None = None,
    characters_from: Path | None = None,
    extra_classifiers: Sequence[Path] = (),
    reading_from: Path | None = None,
) -> Path:
    """Write the two-stage model directory (replacing its stages) that TileDetector loads when meta says two_stage.
    Each of `extra_classifiers` is exported beside the classifier (classifier_2/, ...) and averaged with it on the
    tiles the classifier doubts (meta classifier.ensemble and ensemble_below). `reading_from`, a model directory
    (the base of a fine-tune), gives its reading settings that hold for any networks (READING_CARRIED)."""
    configure_offline()
    use_all_cores()
    if len(extra_classifiers) > 8:
        raise ValueError(f"at most 8 extra classifiers, not {len(extra_classifiers)}")
    model_dir = Path(model_dir)
    with tempfile.TemporaryDirectory(prefix="mjsnap-export-") as tmp:
        # every checkpoint staged and checked before anything is written (each as model.pt in a folder of its own,
        # so its exports are named model.onnx and model.xml); a bad recognizer source fails before the exports
        staged_detector = _stage_checkpoint(detector, Path(tmp) / "detector" / "model.pt", _check_detector_names)
        staged_classifiers = [_stage_checkpoint(c, Path(tmp) / f"classifier_{n}" / "model.pt", _check_classifier_names)
                              for n, c in enumerate((classifier, *extra_classifiers), start=1)]
        characters = _carry_characters(characters_from, model_dir)
        carried = _carried_reading(reading_from)
        model_dir.mkdir(parents=True, exist_ok=True)
        detector_files = _export_stage(staged_detector, model_dir / "detector", detector_imgsz, 1)
        classifier_files = _export_stage(staged_classifiers[0], model_dir / "classifier", classifier_imgsz,
                                         CLASSIFIER_BATCH)
        ensemble = _export_ensemble(staged_classifiers[1:], model_dir, classifier_imgsz)
    meta = {
        "design": DESIGN,
        "version": version,
        "classes": list(CLASS_NAMES),
        "imgsz": detector_imgsz,
        "detector": {
            "imgsz": detector_imgsz,
            "files": detector_files,
            "openvino_precision": OPENVINO_PRECISION["detector"],
        },
        "classifier": {
            "imgsz": classifier_imgsz,
            "batch": CLASSIFIER_BATCH,
            "margin": MARGIN,
            # its crops were cut both ways up (crops.py), so averaging the 180-degree turn is sound (backend.py)
            "half_turn_average": True,
            "face_floor": FACE_FLOOR,
            "extra_looks": EXTRA_LOOKS,
            "openvino_precision": OPENVINO_PRECISION["classifier"],
            "files": classifier_files,
            **ensemble,
            **carried.pop("classifier", {}),
        },
        **characters,
        **carried,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "train_command": train_command,
        "data": data,
        "metrics": metrics or {},
    }
    (model_dir / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return model_dir


def export_detector(checkpoint: Path, out: Path, imgsz: int) -> dict[str, str]:
    """One tile detector checkpoint as a model directory's detector folder `out` (model.pt, ONNX, OpenVINO in float;
    `mjsnap train-two-stage quantize` adds the INT8 copy)."""
    with tempfile.TemporaryDirectory(prefix="mjsnap-export-") as tmp:
        staged = _stage_checkpoint(checkpoint, Path(tmp) / "model.pt", _check_detector_names)
        return _export_stage(staged, out, imgsz, 1)


def export_classifier(checkpoint: Path, out: Path, imgsz: int) -> dict[str, str]:
    """One crop classifier checkpoint as a model directory's classifier folder `out` (model.pt, ONNX, OpenVINO)."""
    with tempfile.TemporaryDirectory(prefix="mjsnap-export-") as tmp:
        staged = _stage_checkpoint(checkpoint, Path(tmp) / "model.pt", _check_classifier_names)
        return _export_stage(staged, out, imgsz, CLASSIFIER_BATCH)


def _export_ensemble(staged: Sequence[Path], model_dir: Path, imgsz: int) -> dict:
    """classifier_2/, classifier_3/, ... of the staged checkpoints (stale ones of an earlier export removed); their
    meta entry."""
    for stale in ensemble_folders(model_dir):
        shutil.rmtree(stale)
    names = [f"classifier_{n}" for n in range(2, len(staged) + 2)]
    for name, checkpoint in zip(names, staged):
        _export_stage(checkpoint, model_dir / name, imgsz, CLASSIFIER_BATCH)
    return {"ensemble": names, "ensemble_below": ENSEMBLE_BELOW} if names else {}


# meta sections (and keys of them) that say how a model reads, not what its networks are: a model fine-tuned from a
# base keeps them, so that it is compared with the base, and promoted, reading as the base reads
READING_CARRIED = {"classifier": ("half_turn_below", "twins"), "light": None}  # None: the whole section


def _carried_reading(source: Path | None) -> dict:
    """The READING_CARRIED settings of the model directory `source` that it has, as meta sections."""
    if source is None:
        return {}
    meta = json.loads((Path(source) / "meta.json").read_text(encoding="utf-8"))
    carried: dict = {}
    for section, keys in READING_CARRIED.items():
        if meta.get(section) is None:
            continue
        if keys is None:
            carried[section] = meta[section]
        elif picked := {key: meta[section][key] for key in keys if key in meta[section]}:
            carried[section] = picked
    return carried


def _carry_characters(source: Path | None, model_dir: Path) -> dict:
    """Copy source's characters/ into model_dir; its meta entry, or {} when there is no source."""
    target = model_dir / "characters"
    if source is None:
        if target.exists():
            shutil.rmtree(target)
        return {}
    source = Path(source)
    meta_path = source / "meta.json"
    settings = json.loads(meta_path.read_text(encoding="utf-8")).get("characters") if meta_path.is_file() else None
    if settings is None or not (source / "characters" / CHARACTER_FILE).is_file():
        raise FileNotFoundError(f"{source} has no character recognizer (characters/{CHARACTER_FILE} and meta 'characters')")
    try:
        CharacterSettings(**settings)  # refuse settings the backend would refuse
    except TypeError as exc:
        raise ValueError(f"{meta_path}: characters: {exc}") from None
    if source.resolve() != model_dir.resolve():
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source / "characters", target)
    return {"characters": settings}
