"""Training of the two stages. Both run offline through ultralytics on the CPU and resume from their last.pt.

The detector learns boxes only (`single_cls`: every face, `back` and `flower` is "tile"), started from the
mahjong-detector weights (vision.pretrained); all but its class head carry over. The classifier is yolo11n-cls on
an ImageFolder of crops (vision.twostage.crops); its backbone layers 0-8 are the same as yolo11n's, so they are
started from the same mahjong-detector weights. No left-right flips anywhere: mirrored glyphs are not tiles.
"""

from __future__ import annotations

from pathlib import Path

from vision.train import WORK_DIR, TrainSettings, configure_offline, keep_last_good, train, use_all_cores

TWO_STAGE_DIR = WORK_DIR / "twostage"
CLASSIFIER_YAML = "yolo11n-cls.yaml"


def train_tile_detector(
    data: Path,
    epochs: int,
    *,
    imgsz: int = 480,
    batch: int = 16,
    pretrained: Path | None = None,
    name: str = "detector",
    project: Path = TWO_STAGE_DIR / "runs",
    fraction: float = 1.0,
    lr0: float = 0.001,
    hours: float | None = None,
    command: str = "",
    warmup_bias_lr: float = TrainSettings.warmup_bias_lr,
    blur: float = 0.0,
) -> Path:
    """The 1-class tile detector; returns its run folder (weights/best.pt). A fine-tune passes
    FINETUNE_WARMUP_BIAS_LR (vision.train); `blur` is the share of photos blurred (vision.train.blur_augmentations)."""
    settings = TrainSettings(
        data=data,
        epochs=epochs,
        imgsz=imgsz,
        batch=batch,
        pretrained=pretrained,
        name=name,
        project=project,
        close_mosaic=1,
        cache_ram=True,
        fraction=fraction,
        lr0=lr0,
        warmup_bias_lr=warmup_bias_lr,
        blur=blur,
        hours=hours,
        command=command,
        extra={"single_cls": True},
    )
    return train(settings)


def _classifier_progress(progress_file: Path):
    import json
    import time

    started = time.time()

    def on_fit_epoch_end(trainer) -> None:
        metrics = {k: round(float(v), 4) for k, v in (trainer.metrics or {}).items()}
        record = {
            "epoch": min(trainer.epoch + 1, trainer.epochs),
            "epochs": trainer.epochs,
            "elapsed_s": round(time.time() - started),
            "top1": metrics.get("metrics/accuracy_top1"),
            "top5": metrics.get("metrics/accuracy_top5"),
            "time": time.strftime("%H:%M:%S", time.gmtime()),
        }
        print(f"[mjsnap two-stage classifier] {json.dumps(record)}", flush=True)
        with progress_file.open("a") as fh:
            fh.write(json.dumps(record) + "\n")

    return on_fit_epoch_end


def train_crop_classifier(
    crops: Path,
    epochs: int,
    *,
    imgsz: int = 64,
    batch: int = 128,
    pretrained: Path | None = None,
    name: str = "classifier",
    project: Path = TWO_STAGE_DIR / "runs",
    lr0: float = 0.002,
    fraction: float = 1.0,
) -> Path:
    """yolo11n-cls on crops/{train,val}/NN_name (vision.twostage.crops); returns its run folder (weights/best.pt)."""
    configure_offline()
    crops = Path(crops).resolve()
    if not (crops / "train").is_dir() or not (crops / "val").is_dir():
        raise FileNotFoundError(f"{crops} needs train/ and val/ class folders (vision.twostage.crops)")
    use_all_cores()
    from ultralytics import YOLO

    folder = Path(project).resolve() / name
    folder.mkdir(parents=True, exist_ok=True)
    model = YOLO(CLASSIFIER_YAML)
    model.add_callback("on_fit_epoch_end", _classifier_progress(folder / "progress.jsonl"))
    keep_last_good(model)
    args = {
        "data": str(crops),
        "epochs": epochs,
        "imgsz": imgsz,
        "batch": batch,
        "project": str(Path(project).resolve()),
        "name": name,
        "exist_ok": True,
        "device": "cpu",
        "workers": 0,
        "amp": False,
        "patience": 0,
        "optimizer": "AdamW",
        "lr0": lr0,
        "warmup_epochs": 0.5,
        "fliplr": 0.0,  # mirrored glyphs are not tiles; 180-degree turns are in the crops already
        "flipud": 0.0,
        "scale": 0.2,  # random crops keep 80-100 % of the area: the tile's face stays whole
        "erasing": 0.1,
        "fraction": fraction,
        "cache": "ram",
        "plots": False,
        "verbose": False,
        "save_period": -1,
    }
    if pretrained is not None:
        args["pretrained"] = str(Path(pretrained).resolve())
    model.train(**args)
    return folder
