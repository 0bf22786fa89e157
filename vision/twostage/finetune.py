"""Fine-tuning a two-stage model (`mjsnap train --data D --base DIR` when DIR's meta.json says "two_stage").

Each stage writes into its own folder of the run folder RUN (work/runs/NAME), and RUN/finetune.json records the
settings and every stage that has finished, so an interrupted run continues where it stopped (`--resume`):

    RUN/replay/      synthetic photos (vision.synth; --replay N, by default as many as D's train photos, at most
                     MAX_DEFAULT_REPLAY) trained on beside D's train photos, and RUN/data.yaml listing both, so the
                     fine-tune keeps what the club's photos do not show (--replay 0: none)
    RUN/detector/    the 1-class tile detector, fine-tuned from DIR/detector/model.pt (ultralytics; resumable)
    RUN/crops/       tile crops of D's train and val labels at the classifier's input size
    RUN/classifier/  the crop classifier, fine-tuned from DIR/classifier/model.pt for a wall-time budget
    RUN/model/       the candidate two-stage model directory: what `mjsnap compare` and `mjsnap promote` take;
                     where DIR runs stages in INT8 (vision.twostage.quantize), the candidate's are quantized alike,
                     calibrated on at most CALIBRATION_PHOTOS of the photos it trained on

The crops need not hold every class: a club's photos rarely show all 36, and the classifier starts out knowing them.
Classes without training crops are recorded in finetune.json (and printed), since fine-tuning can weaken them.
Measured (benchmarks/new_set.py, the same run): a fine-tune on 60 cmd photos, which label no face-down tile, took
`back` recall on generated photos from 0.83 to 0.03 and their tile accuracy from 91 % to 68 %; with 60 replay
photos (which label every tile) 0.77 and 88 %, for 96.1 -> 95.4 % on other photos of the club's own set (a second
draw: 0.81 and 87 %, 94.1 -> 93.8 %).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from mjsnap.labels import write_atomic
from scoring.tiles import CLASS_NAMES
from vision.train import FINETUNE_WARMUP_BIAS_LR, TRAIN_THREADS, WORK_DIR
from vision.twostage.backend import DESIGN, STAGES, openvino_precision
from vision.twostage.crops import class_folder

RECORD = "finetune.json"
CLASSIFIER_SHARE = 0.25  # of --hours, when no classifier budget is given: crops train far faster than photos
DEFAULT_CLASSIFIER_MINUTES = 10.0  # without --hours
CALIBRATION_PHOTOS = 200  # INT8 calibration of a candidate: a couple of thousand crops, under two minutes here
CLASSIFIER_LR = 0.0005  # a quarter of the from-scratch rate: the base classifier is already good
PER_CLASS_LIMIT = 700  # training crops kept per class and folder, as `mjsnap train-two-stage crops`
MAX_DEFAULT_REPLAY = 300  # replay photos when --replay is not given: as many as the train photos, at most this


def is_two_stage(model_dir: Path) -> bool:
    meta = Path(model_dir) / "meta.json"
    return Path(model_dir).is_dir() and meta.is_file() and json.loads(meta.read_text(encoding="utf-8")).get("design") == DESIGN


@dataclass
class TwoStageFinetune:
    """One fine-tuning run of a two-stage base. ``imgsz`` None means the base detector's."""

    data: Path
    base: Path
    epochs: int = 10
    imgsz: int | None = None
    batch: int = 16
    lr0: float = 0.001
    fraction: float = 1.0
    hours: float | None = None  # the whole run's training budget; the classifier gets CLASSIFIER_SHARE of it
    classifier_minutes: float | None = None
    classifier_epochs: int = 30
    classifier_batch: int = 128
    classifier_lr: float = CLASSIFIER_LR
    replay: int | None = None  # synthetic photos trained on beside the data's (see above); None: as many, at most
    # MAX_DEFAULT_REPLAY
    name: str = "run"
    project: Path = WORK_DIR / "runs"
    command: str = ""
    seed: int = 0
    stages: dict[str, Any] = field(default_factory=dict)  # what each finished stage produced

    @property
    def run(self) -> Path:
        return Path(self.project).resolve() / self.name

    def budgets(self) -> tuple[float | None, float]:
        """(detector hours or None for --epochs only, classifier minutes)."""
        minutes = self.classifier_minutes
        if minutes is None:
            minutes = self.hours * 60 * CLASSIFIER_SHARE if self.hours else DEFAULT_CLASSIFIER_MINUTES
        detector_hours = None if self.hours is None else max(self.hours - minutes / 60, 0.01)
        return detector_hours, minutes

    def save(self) -> None:
        self.run.mkdir(parents=True, exist_ok=True)
        write_atomic(self.run / RECORD, (json.dumps(asdict(self), default=str, indent=1) + "\n").encode())

    @classmethod
    def load(cls, run: Path) -> TwoStageFinetune:
        record = json.loads((Path(run) / RECORD).read_text(encoding="utf-8"))
        return cls(**{**record, "data": Path(record["data"]), "base": Path(record["base"]),
                      "project": Path(record["project"])})


def base_meta(base: Path) -> dict:
    if not is_two_stage(base):
        raise ValueError(f"{base} is not a two-stage model directory (meta.json design {DESIGN!r})")
    meta = json.loads((Path(base) / "meta.json").read_text(encoding="utf-8"))
    for stage in STAGES:
        if not (Path(base) / stage / "model.pt").is_file():
            raise FileNotFoundError(f"{base}/{stage}/model.pt is missing: fine-tuning starts from the PyTorch weights")
    return meta


def last_epoch_finished(last: Path) -> bool:
    """True when an ultralytics run's last.pt is the final one (ultralytics strips it and sets epoch to -1)."""
    import torch

    return torch.load(last, map_location="cpu", weights_only=False).get("epoch", -1) == -1


def count_photos(data: Path, split: str) -> int:
    from vision.evaluate import val_folders
    from vision.imageio import DATASET_SUFFIXES

    return sum(1 for folder in val_folders(data, split) for p in Path(folder).iterdir() if p.suffix.lower() in DATASET_SUFFIXES)


def replay_data(data: Path, run: Path, photos: int, seed: int) -> Path:
    """Write ``photos`` synthetic photos into run/replay and run/data.yaml: D's train folders plus run/replay's
    photos to train on, D's val folders to validate on. Returns run/data.yaml."""
    import yaml

    from mjsnap.paths import shared_tileart
    from vision.evaluate import val_folders
    from vision.synth.scene import SynthOptions
    from vision.synth.writer import write_dataset

    options = SynthOptions(tileart=shared_tileart())
    staging = Path(run) / "replay.partial"
    shutil.rmtree(staging, ignore_errors=True)
    for _ in write_dataset(staging, photos, seed, val_fraction=0.0, options=options):
        pass
    shutil.rmtree(Path(run) / "replay", ignore_errors=True)
    staging.rename(Path(run) / "replay")
    config = {"train": [str(p) for p in val_folders(data, "train")] + [str(Path(run).resolve() / "replay" / "images" / "train")],
              "val": [str(p) for p in val_folders(data, "val")],
              "names": dict(enumerate(CLASS_NAMES))}
    write_atomic(Path(run) / "data.yaml", yaml.safe_dump(config, sort_keys=False).encode())
    return Path(run) / "data.yaml"


def finetune_detector(data: Path, run: Path, start: Path | None, epochs: int, *, imgsz: int, batch: int = 16,
                      lr0: float = 0.001, hours: float | None = None, fraction: float = 1.0, command: str = "") -> Path:
    """Train (or continue) the 1-class detector in run/detector from ``start``; returns that folder."""
    from vision.train import resume
    from vision.twostage.training import train_tile_detector

    last = Path(run) / "detector" / "weights" / "last.pt"
    if last.is_file():
        return last.parent.parent if last_epoch_finished(last) else resume(last)
    return train_tile_detector(data, epochs, imgsz=imgsz, batch=batch, pretrained=start, name="detector",
                               project=Path(run), fraction=fraction, lr0=lr0, hours=hours, command=command,
                               warmup_bias_lr=FINETUNE_WARMUP_BIAS_LR)


def cut_crops(data: Path, out: Path, size: int, seed: int = 0) -> dict[str, dict[str, int]]:
    """out/{train,val}/NN_name/*.png from the labels of the train and val folders of ``data``; counts per split.

    Unlike `mjsnap train-two-stage crops` a class may be absent (the fine-tuned classifier already knows every class)."""
    from vision.evaluate import val_folders
    from vision.twostage.crops import CropSettings, CropSource, build_crop_dataset

    settings = {"train": CropSettings(size=size, per_class_limit=PER_CLASS_LIMIT),
                "val": CropSettings(size=size, jitter=0.0, upside_down=0.0)}
    sources = [CropSource(folder, split, crop_settings) for split, crop_settings in settings.items()
               for folder in val_folders(data, split)]
    staging = Path(out).with_name(Path(out).name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    totals = build_crop_dataset(sources, staging, seed, every_class=False)
    for split in settings:
        if not sum(totals.get(split, {}).values()):
            raise ValueError(f"{data}: the {split} labels hold no tiles to cut crops from")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return totals


def finetune_classifier(crops: Path, out: Path, start: Path | None, *, minutes: float, max_epochs: int = 30,
                        batch: int = 128, lr: float = CLASSIFIER_LR, seed: int = 0) -> Path:
    """Train the crop classifier from ``start`` into ``out`` (a fresh run: this trainer does not resume)."""
    from vision.twostage.fastcls import train_fast_classifier

    shutil.rmtree(out, ignore_errors=True)
    return train_fast_classifier(crops, out, minutes=minutes, max_epochs=max_epochs, batch=batch, lr=lr,
                                 pretrained=start, threads=TRAIN_THREADS, seed=seed)


def _progress(folder: Path) -> list[dict]:
    path = Path(folder) / "progress.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.is_file() else []


def _say(text: str) -> None:
    print(f"[mjsnap two-stage fine-tune] {text}", flush=True)


def run_finetune(job: TwoStageFinetune) -> Path:
    """Run (or continue) every stage not yet finished; returns the candidate model directory RUN/model."""
    from vision.twostage.export import export_two_stage

    meta = base_meta(job.base)
    base = Path(job.base).resolve()
    run = job.run
    detector_hours, classifier_minutes = job.budgets()
    detector_imgsz = job.imgsz or int(meta["detector"]["imgsz"])
    classifier_imgsz = int(meta["classifier"]["imgsz"])
    job.save()

    def finish(stage: str, result: Any) -> None:
        job.stages[stage] = result
        job.save()

    data = job.data
    if job.replay is None:  # the default; a run resumed from before replay existed keeps going without it
        job.replay = 0 if job.stages else min(count_photos(job.data, "train"), MAX_DEFAULT_REPLAY)
        job.save()
    if job.replay:
        if "replay" not in job.stages:
            _say(f"0/4 {job.replay} synthetic photos to train on beside {job.data}")
            finish("replay", {"photos": job.replay, "data": str(replay_data(job.data, run, job.replay, job.seed))})
        data = Path(job.stages["replay"]["data"])
    if "detector" not in job.stages:
        _say(f"1/4 tile detector from {base / 'detector' / 'model.pt'}, imgsz {detector_imgsz}")
        folder = finetune_detector(data, run, base / "detector" / "model.pt", job.epochs, imgsz=detector_imgsz,
                                   batch=job.batch, lr0=job.lr0, hours=detector_hours, fraction=job.fraction,
                                   command=job.command)
        epochs = [p for p in _progress(folder) if not p.get("final_best")]
        finish("detector", {"weights": str(folder / "weights" / "best.pt"), "epochs": len(epochs),
                            "val_map50": epochs[-1]["mAP50"] if epochs else None})
    if "crops" not in job.stages:
        _say(f"2/4 crops of {data} at {classifier_imgsz} px")
        counts = cut_crops(data, run / "crops", classifier_imgsz, job.seed)
        absent = [name for i, name in enumerate(CLASS_NAMES) if not counts["train"][class_folder(i)]]
        if absent:
            _say(f"no training crops of {', '.join(absent)}: the classifier keeps what the base knew of them")
        finish("crops", {split: sum(c.values()) for split, c in counts.items()} | {"classes_without_train_crops": absent})
    if "classifier" not in job.stages:
        _say(f"3/4 crop classifier from {base / 'classifier' / 'model.pt'}, {classifier_minutes:.1f} min at most")
        folder = finetune_classifier(run / "crops", run / "classifier", base / "classifier" / "model.pt",
                                     minutes=classifier_minutes, max_epochs=job.classifier_epochs,
                                     batch=job.classifier_batch, lr=job.classifier_lr, seed=job.seed)
        epochs = _progress(folder)
        finish("classifier", {"weights": str(folder / "weights" / "best.pt"), "epochs": len(epochs),
                              "val_top1": max((p["val_top1"] for p in epochs), default=None)})
    if "model" not in job.stages:
        _say("4/4 export of the candidate model")
        if meta["classifier"].get("ensemble"):
            # the others never saw the club's photos, and averaged with it they would pull its readings back
            _say(f"the base's other classifiers ({', '.join(meta['classifier']['ensemble'])}) are not fine-tuned: "
                 "the candidate reads with the fine-tuned classifier alone")
        version = f"{job.name}-{datetime.now(timezone.utc).strftime('%Y%m%d%H%M')}"
        in_int8 = [stage for stage in STAGES if openvino_precision(meta, stage) == "int8"]
        exported = run / ("model_float" if in_int8 else "model")
        export_two_stage(Path(job.stages["detector"]["weights"]), Path(job.stages["classifier"]["weights"]),
                         exported, detector_imgsz=detector_imgsz, classifier_imgsz=classifier_imgsz,
                         version=version, train_command=job.command,
                         data=f"{job.data}" + (f" + {job.replay} synthetic photos (replay)" if job.replay else ""),
                         characters_from=base if meta.get("characters") is not None else None, reading_from=base)
        if in_int8:  # the candidate runs as its base does, and is compared with it so
            quantize_like_base(exported, run / "model", data, in_int8)
        finish("model", str(run / "model"))
    return Path(job.stages["model"])


def quantize_like_base(exported: Path, model: Path, data: Path, stages: list[str]) -> None:
    """`model`: the `exported` candidate with `stages` in INT8, calibrated on (at most CALIBRATION_PHOTOS of) the
    train photos of `data`; `exported` is removed once it is done."""
    from vision.evaluate import val_folders
    from vision.imageio import DATASET_SUFFIXES
    from vision.twostage.quantize import quantize_two_stage

    photos = sorted(p for folder in val_folders(data, "train") for p in Path(folder).iterdir()
                    if p.suffix.lower() in DATASET_SUFFIXES)
    step = max(1, len(photos) // CALIBRATION_PHOTOS)  # spread over every folder (the club's and the replay)
    _say(f"4/4 INT8 copies of the {' and '.join(stages)}, as the base runs them, calibrated on "
         f"{len(photos[::step][:CALIBRATION_PHOTOS])} train photos")
    if model.exists():  # a quantization cut short
        shutil.rmtree(model)
    version = json.loads((exported / "meta.json").read_text(encoding="utf-8"))["version"]  # the candidate's own
    quantize_two_stage(exported, model, photos[::step][:CALIBRATION_PHOTOS], stages=stages, version=version)
    shutil.rmtree(exported)


def start(job: TwoStageFinetune) -> Path:
    """A new run; refuses a run folder that already holds one (continue that one with `resume`)."""
    if (job.run / RECORD).is_file():
        raise FileExistsError(f"{job.run} already holds a two-stage fine-tune: continue it with "
                              f"--resume {job.run} or choose another --name")
    require_photos(job.data)
    return run_finetune(job)


def require_photos(data: Path) -> None:
    """ValueError unless the train and val folders of ``data`` hold photos. Checked before the run folder is made:
    a run that cannot start would otherwise be left behind, and the same --name refused on the next try."""
    for split, remedy in (("train", "label some photos first (the app's Label page or `mjsnap label import`)"),
                          ("val", f"run `mjsnap label split {Path(data).parent}` to move some into val")):
        if not count_photos(data, split):
            raise ValueError(f"{data}: no photos in its {split} folders: {remedy}")


def run_folder_of(path: Path) -> Path | None:
    """The two-stage run a --resume path belongs to (RUN, or RUN/detector/weights/last.pt), else None."""
    path = Path(path).resolve()
    for folder in (path, *path.parents[:3]):
        if (folder / RECORD).is_file():
            return folder
    return None


def resume(run: Path) -> Path:
    return run_finetune(TwoStageFinetune.load(run))
