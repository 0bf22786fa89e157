"""Training facade: dataset configs, an offline ultralytics run with a readable progress log, and resume.

Dataset configs (`datasets/*.yaml`) list image folders with two placeholders, `{shared}` (../shared, or $MJSNAP_SHARED)
and `{work}` (the git-ignored `work/` folder where generated data lives); a relative path is relative to the config.
`resolve_data_config` turns one into an ultralytics data YAML with absolute paths and the 36 class names.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mjsnap.labels import write_atomic
from mjsnap.paths import REPO_ROOT, shared_dir
from scoring.tiles import CLASS_NAMES

WORK_DIR = REPO_ROOT / "work"
MODEL_YAML = "yolo11n.yaml"
TRAIN_THREADS = 2  # ultralytics would use cpu_count - 1 = ONE thread on this 2-core machine
# A fine-tune's biases warm up from 0 like its other weights (see TrainSettings.warmup_bias_lr). Measured on 10
# labelled cmd photos (benchmarks/new_set.py): from 0.1 the tile detector came out boxing table edges and felt,
# 563 extra boxes in 112 other photos against the base's 51; from 0, 77.
FINETUNE_WARMUP_BIAS_LR = 0.0
# Photo blur the tile detector learns to see through (TrainSettings.blur), in pixels at the training size: a
# Gaussian soft focus, or a phone's straight smear of this many pixels in any direction, centred on the tile so
# that its box stays where the label puts it.
BLUR_SIGMA = (0.4, 2.4)
SMEAR_PIXELS = (3, 11)


def blur_augmentations(share: float) -> list:
    """Albumentations transforms (ultralytics' `augmentations`) that blur `share` of the training photos, after
    mosaic and perspective: half out of focus, half smeared. Without them, a soft photo's tiles came out with boxes
    1.2x too wide and a ninth of cmd val's tiles missed (benchmarks/results/candidate_0.23.0/)."""
    import albumentations as A

    return [
        A.OneOf(
            [
                A.GaussianBlur(blur_limit=0, sigma_limit=BLUR_SIGMA, p=1.0),  # kernel size follows sigma
                A.MotionBlur(blur_limit=SMEAR_PIXELS, allow_shifted=False, direction_range=(0.0, 0.0), p=1.0),
            ],
            p=share,
        )
    ]


def configure_offline(config_dir: Path | None = None) -> None:
    """Keep ultralytics off the network and out of $HOME (must run before ultralytics is imported)."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "0")
    if "YOLO_CONFIG_DIR" not in os.environ:
        path = config_dir or Path(tempfile.gettempdir()) / "mjsnap-yolo-config"
        path.mkdir(parents=True, exist_ok=True)
        os.environ["YOLO_CONFIG_DIR"] = str(path)


def use_all_cores() -> None:
    """ultralytics resets torch to NUM_THREADS threads when it selects the CPU; make that both cores."""
    import ultralytics.utils.torch_utils as torch_utils

    torch_utils.NUM_THREADS = max(TRAIN_THREADS, torch_utils.NUM_THREADS)


def read_checkpoint(path: Path) -> dict:
    """An ultralytics checkpoint (.pt) as torch loads it; ValueError for a file that is none (a photo or text renamed
    .pt, a truncated download), before ultralytics would fail on it with a traceback."""
    import pickle

    import torch

    configure_offline()  # unpickling imports ultralytics
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
    except (RuntimeError, EOFError, pickle.UnpicklingError):  # how torch fails on such files (as ultralytics sorts them)
        checkpoint = None
    if not isinstance(checkpoint, dict) or "model" not in checkpoint:
        raise ValueError(f"{path} is not an ultralytics checkpoint (.pt)")
    return checkpoint


def _expand(entry: str, base: Path) -> str:
    if "{shared}" in entry:
        shared = shared_dir()
        if shared is None:
            raise FileNotFoundError(f"{entry!r} needs ../shared, which is absent (set MJSNAP_SHARED)")
        entry = entry.replace("{shared}", str(shared))
    entry = entry.replace("{work}", str(WORK_DIR))
    path = Path(entry)
    path = path if path.is_absolute() else (base / path)
    path = path.resolve()
    if not path.exists():
        raise FileNotFoundError(f"dataset folder {path} does not exist")
    return str(path)


def data_folders(config: Path) -> dict[str, list[str]]:
    """The folders of each split of a `datasets/*.yaml` config, as absolute paths; ValueError when it is no dataset
    config, FileNotFoundError naming a folder that is not there (checked before a run starts)."""
    config = Path(config)
    try:
        raw = yaml.safe_load(config.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:  # a photo or a broken file given as the config
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        where = f" (YAML error at line {line + 1})" if line is not None else ""
        raise ValueError(f"{config}: not a dataset config: it does not read as YAML{where}") from None
    if not isinstance(raw, dict) or "train" not in raw or "val" not in raw:
        raise ValueError(f"{config}: a dataset config needs 'train' and 'val' (a folder or a list of folders)")
    folders: dict[str, list[str]] = {}
    for split in ("train", "val", "test"):
        if split not in raw:
            continue
        entries = raw[split] if isinstance(raw[split], list) else [raw[split]]
        folders[split] = [_expand(str(e), config.parent) for e in entries]
    return folders


def resolve_data_config(config: Path, out_dir: Path) -> Path:
    """Write the ultralytics data YAML for a `datasets/*.yaml` config (absolute paths, 36 names) into ``out_dir``
    (a run's own folder); returns its path."""
    config = Path(config)
    resolved: dict[str, Any] = {**data_folders(config), "names": dict(enumerate(CLASS_NAMES))}
    out_dir.mkdir(parents=True, exist_ok=True)
    out = out_dir / f"{config.stem}.resolved.yaml"
    out.write_text(yaml.safe_dump(resolved, sort_keys=False))
    return out


@dataclass
class TrainSettings:
    """One training run. Augmentation defaults: no flips (mirrored glyphs are not tiles), rotation/perspective/HSV/scale on."""

    data: Path
    epochs: int
    imgsz: int = 480
    batch: int = 16
    model: str = MODEL_YAML
    pretrained: Path | None = None
    name: str = "run"
    project: Path = WORK_DIR / "runs"
    optimizer: str = "AdamW"  # explicit: "auto" would ignore lr0 and pick a tiny rate for short runs
    lr0: float = 0.001
    warmup_epochs: float = 1.0
    # ultralytics starts the biases' learning rate at 0.1 and lowers it to lr0 over the warmup (others rise from 0):
    # right from scratch, but with AdamW every bias of a trained model moves by about 0.1 in the first step (Adam's
    # first step is about lr whatever the gradient). Fine-tuning sets FINETUNE_WARMUP_BIAS_LR.
    warmup_bias_lr: float = 0.1
    close_mosaic: int = 2
    degrees: float = 10.0
    perspective: float = 0.0005
    shear: float = 2.0
    scale: float = 0.5
    translate: float = 0.1
    hsv_h: float = 0.015
    hsv_s: float = 0.6
    hsv_v: float = 0.4
    mosaic: float = 1.0
    blur: float = 0.0  # share of training photos blurred (blur_augmentations); 0 keeps ultralytics' defaults
    fraction: float = 1.0
    plots: bool = False
    command: str = ""  # the command line that started the run, kept for the model card
    hours: float | None = None  # wall-time budget: ultralytics re-plans the epochs after the first one
    # Keep the photos decoded and resized in RAM: on CPU ultralytics loads data in the training process
    # (workers=0), and mosaic decodes four large phone photos per sample (ultralytics skips the cache when
    # memory is short).
    cache_ram: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def ultralytics_args(self, data_yaml: Path) -> dict[str, Any]:
        args = {
            "data": str(data_yaml),
            "epochs": self.epochs,
            "imgsz": self.imgsz,
            "batch": self.batch,
            "project": str(Path(self.project).resolve()),
            "name": self.name,
            "exist_ok": True,
            "device": "cpu",
            "workers": 0,
            "cache": "ram" if self.cache_ram else False,
            "amp": False,
            "patience": 0,  # 0 disables early stopping: the epoch budget is fixed
            "fliplr": 0.0,
            "flipud": 0.0,
            "degrees": self.degrees,
            "perspective": self.perspective,
            "shear": self.shear,
            "scale": self.scale,
            "translate": self.translate,
            "hsv_h": self.hsv_h,
            "hsv_s": self.hsv_s,
            "hsv_v": self.hsv_v,
            "mosaic": self.mosaic,
            "close_mosaic": self.close_mosaic,
            "optimizer": self.optimizer,
            "lr0": self.lr0,
            "warmup_epochs": self.warmup_epochs,
            "warmup_bias_lr": self.warmup_bias_lr,
            "fraction": self.fraction,
            "plots": self.plots,
            "save_period": -1,  # last.pt is rewritten every epoch anyway: that is what resume uses
            "verbose": False,
        }
        if self.hours is not None:
            args["time"] = self.hours
        if self.pretrained is not None:
            args["pretrained"] = str(Path(self.pretrained).resolve())
        if self.blur > 0:
            args["augmentations"] = blur_augmentations(self.blur)
        args.update(self.extra)
        return args


def _progress_callback(progress_file: Path | None):
    started = time.time()

    def on_fit_epoch_end(trainer) -> None:
        # ultralytics calls this once more after training, with epoch = epochs + 1, for its final check of best.pt.
        final = trainer.epoch + 1 > trainer.epochs
        epoch = min(trainer.epoch + 1, trainer.epochs)
        elapsed = time.time() - started
        eta = 0.0 if final else elapsed / max(epoch - trainer.start_epoch, 1) * (trainer.epochs - epoch)
        metrics = {k: round(float(v), 4) for k, v in (trainer.metrics or {}).items()}
        record = {
            "epoch": epoch,
            "epochs": trainer.epochs,
            "final_best": final,
            "elapsed_s": round(elapsed),
            "eta_s": round(eta),
            "mAP50": metrics.get("metrics/mAP50(B)"),
            "mAP50-95": metrics.get("metrics/mAP50-95(B)"),
            "time": time.strftime("%H:%M:%S", time.gmtime()),
        }
        what = "final check of best.pt" if final else f"epoch {epoch}/{trainer.epochs}"
        line = (
            f"[mjsnap train] {what} done at {record['time']} UTC, elapsed {elapsed / 60:.1f} min, "
            f"ETA {eta / 60:.1f} min, val mAP50 {record['mAP50']} mAP50-95 {record['mAP50-95']}"
        )
        print(line, flush=True)
        if progress_file is not None:
            with progress_file.open("a") as fh:
                fh.write(json.dumps(record) + "\n")

    return on_fit_epoch_end


LAST_GOOD = "last_good.pt"  # beside last.pt: last.pt as it was after the latest whole save


def keep_last_good(model) -> None:
    """ultralytics writes weights/last.pt in place: a kill while it writes leaves a cut-off file, and a run that
    cannot be resumed. After each save a copy goes to weights/last_good.pt through a temporary file, for `resume`."""
    def on_model_save(trainer) -> None:
        last = Path(trainer.last)
        write_atomic(last.with_name(LAST_GOOD), last.read_bytes())

    model.add_callback("on_model_save", on_model_save)


def run_dir(settings: TrainSettings) -> Path:
    return Path(settings.project).resolve() / settings.name


def train(settings: TrainSettings) -> Path:
    """Run training; returns the run folder (weights/best.pt, weights/last.pt, results.csv, progress.jsonl)."""
    configure_offline()
    folder = run_dir(settings)
    # into the run folder, not a shared one: --resume reads the path kept in last.pt, and every dataset folder's
    # config is a data.yaml, so another run would have overwritten it with its own photos
    data_yaml = resolve_data_config(settings.data, folder)
    use_all_cores()
    from ultralytics import YOLO

    (folder / "mjsnap_settings.json").write_text(json.dumps(asdict(settings), default=str, indent=1))
    model = YOLO(settings.model)
    model.add_callback("on_fit_epoch_end", _progress_callback(folder / "progress.jsonl"))
    keep_last_good(model)
    model.train(**settings.ultralytics_args(data_yaml))
    return folder


def resume(last_checkpoint: Path) -> Path:
    """Continue an interrupted run from its weights/last.pt (same arguments, same folder). A last.pt cut off by a kill
    while it was written is replaced by last_good.pt, the copy kept after the save before (`keep_last_good`)."""
    configure_offline()
    last_checkpoint = Path(last_checkpoint)
    if not last_checkpoint.is_file():
        raise FileNotFoundError(f"{last_checkpoint} does not exist (expected RUN/weights/last.pt)")
    try:
        read_checkpoint(last_checkpoint)
    except ValueError:
        good = last_checkpoint.with_name(LAST_GOOD)
        try:
            read_checkpoint(good)
        except (ValueError, FileNotFoundError):
            raise ValueError(f"{last_checkpoint} is not an ultralytics checkpoint (.pt)") from None
        print(f"[mjsnap train] {last_checkpoint} is cut off (the run was stopped while saving it): resuming from "
              f"{good}, saved one epoch earlier", file=sys.stderr, flush=True)
        write_atomic(last_checkpoint, good.read_bytes())  # ultralytics resumes from the path it is given, and saves back there
    use_all_cores()
    from ultralytics import YOLO

    folder = last_checkpoint.parent.parent
    model = YOLO(str(last_checkpoint))
    model.add_callback("on_fit_epoch_end", _progress_callback(folder / "progress.jsonl"))
    keep_last_good(model)
    model.train(resume=True)
    return folder
