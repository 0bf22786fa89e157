"""`mjsnap train-two-stage crops|detector|classifier|export|quantize`: design (b), a tile detector + a crop classifier.

Needs the `train` extra (torch, ultralytics). Runs write under work/twostage/ and resume from RUN/weights/last.pt.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import typer

from mjsnap.commands.number_options import finite, positive

two_stage_app = typer.Typer(help="Design (b): class-agnostic tile detector + crop classifier (vision.twostage).", no_args_is_help=True)


@two_stage_app.command("crops")
def crops(
    data: Path = typer.Option(..., help="dataset folder (its data.yaml) or datasets/*.yaml config: its train folders give training crops, val folders val crops"),
    out: Path = typer.Option(None, help="crop dataset folder (default work/twostage/crops)"),
    extra_val: Path = typer.Option(None, help="another dataset folder or config whose val folders add val crops (e.g. synthetic, for 'back')"),
    per_class_limit: int = typer.Option(700, min=1, help="most training crops per class from one folder"),
    extra_val_limit: int = typer.Option(40, min=1, help="most val crops per class from each extra-val folder"),
    size: int = typer.Option(64, min=16, max=1024, help="crop side in pixels (= classifier imgsz)"),
    jitter: float = typer.Option(0.08, min=0.0, max=0.3, callback=finite,
                                 help="training box jitter, share of the box size"),
    seed: int = typer.Option(0, help="seed of the crops' jitter and sampling: the same seed cuts the same crops"),
    level_with: Path = typer.Option(
        None, help="two-stage model directory (e.g. models/current) whose tile detector boxes the tiles of slanted rows "
                   "in a view turned level, where they are cut as inference cuts them (vision.twostage.deskew)"),
    allow_missing_classes: bool = typer.Option(
        False, "--allow-missing-classes",
        help="keep a split that lacks some classes (crops to merge with others that have them, e.g. real photos "
             "without face-down tiles); a classifier needs every class in each split"),
) -> None:
    """Cut upright square tile crops from labelled photos into an ImageFolder (train/ and val/ by class)."""
    import json
    import shutil

    from mjsnap.commands.output_paths import require_output_dir
    from vision.compare import resolve_data
    from vision.evaluate import val_folders
    from vision.twostage.crops import CropSettings, CropSource, Leveller, build_crop_dataset
    from vision.twostage.training import TWO_STAGE_DIR

    out = out or TWO_STAGE_DIR / "crops"
    require_output_dir("--out", out)
    if level_with is not None and not level_with.is_dir():  # the detector would say "pass --model DIR", not ours
        _refuse("crops", f"--level-with {level_with}: no such model directory")
    staging = out.with_name(out.name + ".partial")  # cut here, moved into --out once every check has passed
    train_settings = CropSettings(size=size, jitter=jitter, per_class_limit=per_class_limit)
    exact = CropSettings(size=size, jitter=0.0, upside_down=0.0)
    try:
        config = resolve_data(data)  # a dataset folder means its data.yaml, as for `mjsnap train`
        sources = [CropSource(f, "train", train_settings) for f in val_folders(config, "train")]
        sources += [CropSource(f, "val", exact) for f in val_folders(config, "val")]
        if extra_val is not None:
            limited = CropSettings(size=size, jitter=0.0, upside_down=0.0, per_class_limit=extra_val_limit)
            sources += [CropSource(f, "val", limited) for f in val_folders(resolve_data(extra_val), "val")]
        leveller = Leveller.from_model(level_with) if level_with is not None else None
        shutil.rmtree(staging, ignore_errors=True)
        counts = build_crop_dataset(sources, staging, seed, every_class=not allow_missing_classes, leveller=leveller)
        _move_into(staging, out)
    except (OSError, ValueError) as exc:  # OSError: also a photo that cannot be read (PIL's UnidentifiedImageError)
        _refuse("crops", str(exc))
    finally:
        shutil.rmtree(staging, ignore_errors=True)  # a refusal or an interruption leaves --out as it was
    for n, source in enumerate(sources):  # the prefixes --val-prefix of the classifier command picks from
        typer.echo(f"s{n}_ {source.split}: {source.folder}")
    typer.echo(json.dumps({split: sum(c.values()) for split, c in counts.items()}))


def _move_into(staging: Path, out: Path) -> None:
    """Every file and folder of ``staging`` into the same place under ``out``, replacing files of the same name (as
    cutting into ``out`` directly did). Empty class folders too: a class's index is its folder's sort position."""
    import os

    for path in sorted(staging.rglob("*")):
        target = out / path.relative_to(staging)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)


@two_stage_app.command("detector")
def detector(
    data: Path = typer.Option(None, help="dataset folder (its data.yaml) or datasets/*.yaml config; labels of any "
                                         "class count as 'tile'"),
    epochs: int = typer.Option(4, min=1, help="fixed number of epochs"),
    imgsz: int = typer.Option(480, min=32, help="training image size; inference uses the same (meta.json)"),
    batch: int = typer.Option(16, min=1, help="images per training step"),
    pretrained: str = typer.Option("mahjong-detector", help="'mahjong-detector', a local .pt, or 'none' for scratch"),
    lr0: float = typer.Option(0.001, callback=positive,
                              help="initial learning rate (lower it to fine-tune a trained detector)"),
    hours: float = typer.Option(None, callback=positive,
                                help="wall-time budget; ultralytics then sets the epochs to fit it"),
    blur: float = typer.Option(0.0, min=0.0, max=1.0, callback=finite,
                               help="share of training photos blurred, half out of focus and half smeared by a moving "
                                    "phone, so that soft photos still get tight boxes"),
    name: str = typer.Option("detector", help="run folder name under work/twostage/runs"),
    resume: Path = typer.Option(None, help="continue from RUN/weights/last.pt"),
) -> None:
    """Train the class-agnostic (1-class) tile detector. From a local .pt (a trained detector) the run is a fine-tune:
    its biases warm up from 0, as its other weights do."""
    from mjsnap.commands.train import PRETRAINED_MAHJONG_DETECTOR, _pretrained_start
    from vision.train import FINETUNE_WARMUP_BIAS_LR, TrainSettings
    from vision.twostage.training import train_tile_detector

    if resume is not None:
        folder = _resume("detector", resume)
    elif data is None:
        raise typer.BadParameter("give --data or --resume", param_hint="--data")
    else:
        config = _data_config("detector", data)
        command = f"mjsnap train-two-stage detector --data {data} --epochs {epochs} --imgsz {imgsz} --pretrained {pretrained}"
        command += f" --lr0 {lr0}" + (f" --hours {hours}" if hours else "") + (f" --blur {blur}" if blur else "")
        finetune = pretrained not in (PRETRAINED_MAHJONG_DETECTOR, "none")
        folder = train_tile_detector(config, epochs, imgsz=imgsz, batch=batch, pretrained=_pretrained_start(pretrained),
                                     lr0=lr0, hours=hours, name=name, command=command, blur=blur,
                                     warmup_bias_lr=FINETUNE_WARMUP_BIAS_LR if finetune else TrainSettings.warmup_bias_lr)
    typer.echo(f"run folder: {folder}")


def _data_config(command: str, data: Path) -> Path:
    """The YAML behind --data (a dataset folder means its data.yaml), checked as `mjsnap train` checks it: a wrong
    path or config is one line and exit 2 before a run folder is made."""
    from vision.compare import resolve_data
    from vision.train import data_folders

    try:
        config = resolve_data(data)
    except FileNotFoundError as exc:
        _refuse(command, f"--data {exc}")
    try:
        data_folders(config)
    except (ValueError, FileNotFoundError) as exc:
        _refuse(command, f"--data {config}: {exc}")
    return config


def _resume(command: str, checkpoint: Path) -> Path:
    """Continue a run from its last.pt; a path that is no checkpoint is one line and exit 2."""
    from vision.train import resume

    try:
        return resume(checkpoint)
    except (ValueError, FileNotFoundError) as exc:
        _refuse(command, f"--resume {exc}")


def _refuse(command: str, message: str) -> NoReturn:
    typer.echo(f"mjsnap train-two-stage {command}: {message}", err=True)
    raise typer.Exit(2)


@two_stage_app.command("classifier")
def classifier(
    crops: Path = typer.Option(None, help="crop dataset folder (mjsnap train-two-stage crops)"),
    trainer: str = typer.Option("fast", help="'fast' (in-memory crops, batch augmentation; vision.twostage.fastcls) or 'ultralytics'"),
    minutes: float = typer.Option(16.0, min=0.1, callback=finite,
                                  help="fast trainer: wall-time budget (the cosine schedule fits it)"),
    epochs: int = typer.Option(30, min=1, help="most epochs (the ultralytics trainer runs exactly this many)"),
    imgsz: int = typer.Option(64, min=32, help="must equal the crop size"),
    batch: int = typer.Option(128, min=1, help="crops per training step"),
    pretrained: str = typer.Option("mahjong-detector", help="backbone start: 'mahjong-detector', a local .pt, or 'none'"),
    name: str = typer.Option("classifier", help="run folder name under work/twostage/runs"),
    val_prefix: str = typer.Option(None, help="fast trainer: report val accuracy only on crops whose name starts so (a source prefix of CROPS/sources.json, e.g. s4_)"),
    augment: str = typer.Option("photo", help="fast trainer: 'photo' (affine, light and colour jitter), 'style' (photo, plus other ink colours, blur and hidden patches), 'warp' (photo, plus a smooth random bend of the strokes, as calligraphy differs between makers; benchmarks/unseen_sets.py compares them on tile sets not in the crops, where neither beat 'photo'), 'blur' (photo, plus a moving phone's smear or soft focus on 30 % of the crops) or 'blur_dim' (blur, plus a dim room's darkening and sensor noise on 25 % of the crops)"),
    scale: str = typer.Option("n", help="fast trainer: network size, 'n' (yolo11n-cls, shipped) or 's' (yolo11s-cls)"),
    device: str = typer.Option("cpu", help="fast trainer: 'cpu', or 'cuda' to hold, augment and train the crops on a GPU"),
    resume: Path = typer.Option(None, help="ultralytics trainer: continue from RUN/weights/last.pt"),
) -> None:
    """Train the crop classifier (yolo11n-cls, 36 classes)."""
    from mjsnap.commands.train import _pretrained_start
    from vision.twostage.training import TWO_STAGE_DIR, train_crop_classifier

    crops = crops or TWO_STAGE_DIR / "crops"
    if resume is not None:
        folder = _resume("classifier", resume)
    elif not all((crops / split).is_dir() for split in ("train", "val")):  # for either trainer, before its run folder
        _refuse("classifier", f"--crops {crops} is not a crop dataset: it needs train/ and val/ class folders "
                              "(mjsnap train-two-stage crops)")
    elif trainer == "fast":
        from vision.twostage.fastcls import train_fast_classifier

        try:
            folder = train_fast_classifier(crops, TWO_STAGE_DIR / "runs" / name, minutes=minutes, max_epochs=epochs,
                                           batch=batch, pretrained=_pretrained_start(pretrained), val_name_prefix=val_prefix,
                                           augmentation=augment, scale=scale, device=device)
        except (ValueError, FileNotFoundError) as exc:
            typer.echo(f"mjsnap train-two-stage classifier: {exc}", err=True)
            raise typer.Exit(2) from None
    elif trainer == "ultralytics":
        folder = train_crop_classifier(crops, epochs, imgsz=imgsz, batch=batch, pretrained=_pretrained_start(pretrained), name=name)
    else:
        raise typer.BadParameter("choose 'fast' or 'ultralytics'", param_hint="--trainer")
    typer.echo(f"run folder: {folder}")


@two_stage_app.command("export")
def export(
    detector_weights: Path = typer.Option(..., "--detector", help="detector checkpoint (RUN/weights/best.pt)"),
    classifier_weights: Path = typer.Option(..., "--classifier", help="classifier checkpoint (RUN/weights/best.pt)"),
    out: Path = typer.Option(None, help="model directory (default work/twostage/model; promote it with mjsnap promote)"),
    detector_imgsz: int = typer.Option(480, help="the image size the detector was trained at"),
    classifier_imgsz: int = typer.Option(64, help="the crop size the classifier was trained at"),
    version: str = typer.Option(..., help="model version recorded in meta.json"),
    train_command: str = typer.Option(..., help="the commands that produced both checkpoints"),
    data: str = typer.Option(..., help="what they were trained on"),
    characters_from: Path = typer.Option(
        None, help="model directory whose character recognizer (characters/) to carry over, e.g. models/current"),
    extra_classifier: list[Path] = typer.Option(
        None, help="another classifier checkpoint whose probabilities are averaged with --classifier's (classifier_2/, ...; repeatable)"),
) -> None:
    """Write detector/ and classifier/ (model.pt, model.onnx, model_openvino/) and meta.json with design two_stage."""
    from mjsnap.commands.output_paths import require_output_dir
    from mjsnap.commands.train import _check_imgsz
    from vision.twostage.export import export_two_stage
    from vision.twostage.training import TWO_STAGE_DIR

    out = out or TWO_STAGE_DIR / "model"
    require_output_dir("--out", out)
    _check_imgsz("--detector-imgsz", detector_imgsz)
    _check_imgsz("--classifier-imgsz", classifier_imgsz)
    try:
        folder = export_two_stage(detector_weights, classifier_weights, out,
                                  detector_imgsz=detector_imgsz, classifier_imgsz=classifier_imgsz, version=version,
                                  train_command=train_command, data=data, characters_from=characters_from,
                                  extra_classifiers=extra_classifier or ())
    except (FileNotFoundError, ValueError) as exc:
        typer.echo(f"mjsnap train-two-stage export: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"model directory: {folder}")


@two_stage_app.command("quantize")
def quantize(
    model: Path = typer.Argument(..., help="two-stage model directory to quantize, e.g. models/current"),
    photos: list[Path] = typer.Option(..., "--photos", help="calibration photos: a folder (searched recursively), a file "
                                      "or a glob, like those the model will read (repeatable)"),
    out: Path = typer.Option(..., help="the new model directory (must not exist); compare and promote it as any candidate"),
    stage: list[str] = typer.Option(["detector"], help="stage to run in INT8: detector, classifier (repeatable; in "
                                    "INT8 the classifiers read real photos of a set they never saw 6 % worse, so by "
                                    "default only the detector)"),
    limit: int = typer.Option(None, min=1, help="read at most this many of the photos (the first in name order)"),
    samples: int = typer.Option(600, min=1, help="most calibration inputs per network"),
    version: str = typer.Option(None, help="the new model's version (default: MODEL's version + '+int8')"),
) -> None:
    """Write a copy of MODEL whose tile detector (and, if asked, classifiers) run in INT8 (OpenVINO, NNCF
    post-training quantization calibrated on the photos): about 1.5x faster networks on a CPU without bf16."""
    from mjsnap.batch.discovery import discover
    from mjsnap.commands.output_paths import require_output_dir
    from vision.twostage.quantize import quantize_two_stage

    if not model.is_dir():  # the detector's own message would say "pass --model DIR", an option this command lacks
        typer.echo(f"mjsnap train-two-stage quantize: MODEL {model}: no such model directory", err=True)
        raise typer.Exit(2)
    require_output_dir("--out", out)  # now, not after every calibration photo has been read
    try:
        found = discover(photos)[:limit]
        folder = quantize_two_stage(model, out, found, stages=stage, max_samples=samples, version=version,
                                    progress=lambda done, total: typer.echo(f"read {done}/{total}", err=True)
                                    if done == total or done % 50 == 0 else None)
    except (FileNotFoundError, FileExistsError, ImportError, ValueError) as exc:  # a bad photo, folder or model
        typer.echo(f"mjsnap train-two-stage quantize: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"model directory: {folder}")


def register(app: typer.Typer) -> None:
    app.add_typer(two_stage_app, name="train-two-stage")
