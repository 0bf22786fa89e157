"""Teaching a two-stage model a tile set from unlabelled photos of it (`mjsnap adapt PHOTOS --base DIR`).

Self-training: the base model reads every photo, and the tiles it reads surely become the labels of a fine-tune of
the crop classifier (vision.twostage.finetune, beside synthetic replay photos so it forgets no other set). A tile is
sure when the tile detector's confidence is at least ``min_conf`` and the class's probability at least
``min_prob``; the others stay unlabelled. They are left out of the crops rather than taught as background, which is
why the tile detector is kept as it is: trained on these labels it would learn that an unsure tile is no tile.

Measured on the hold-out proxy (a classifier that never saw cmd's real photos; benchmarks/adapt.py): see the
README's results table. The sure tiles of an unknown set are mostly the ones already read right, so the gain is
smaller than from labelled photos of the set (docs/retrain.md), but it costs nobody any labelling.

RUN (work/runs/NAME) holds:

    RUN/adapt.json   the settings, the photos given, and the pseudo-labelling's counts once it has finished
    RUN/pseudo/      images/{train,val} (links to the photos; HEIC/WebP written as JPEG), labels/{train,val} (the
                     sure tiles only), data.yaml: the fine-tune's data, split by photo session
    RUN/...          the fine-tune's folders and RUN/model, the candidate (vision.twostage.finetune)

An interrupted run continues with `mjsnap adapt --resume RUN`.
"""

from __future__ import annotations

import json
import random
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mjsnap.labels import data_yaml_text, write_atomic
from scoring.tiles import CLASS_NAMES

RECORD = "adapt.json"
LINKABLE_SUFFIXES = {".jpg", ".jpeg", ".png"}  # read by the crop cutter as they are; other formats become JPEG
MIN_PHOTOS = 4  # fewer cannot give both a train and a val side
# Training crops per class from each folder (the sure tiles', the replay photos'). The fine-tune's 700 let the replay
# photos' many face-down tiles outweigh the set's few sure blank 白 tiles, and the hold-out proxy's classifier then read
# real 白 as face-down (benchmarks/results/adapt/).
CROPS_PER_CLASS = 100
# A short fine-tune on many replay photos: the labelled fine-tune's 30 epochs beside as many replay photos as the
# set's moved the hold-out proxy further from its base (benchmarks/results/adapt/).
CLASSIFIER_EPOCHS = 8
REPLAY_PHOTOS = 300


@dataclass(frozen=True)
class PseudoLabelSettings:
    """Which tiles of the base's reading become labels, and how the photos are split."""

    min_prob: float = 0.8  # the class's probability (the classifier's, after the reading steps)
    min_conf: float = 0.5  # the tile detector's confidence that the box is a tile
    val_share: float = 0.15  # of the photo sessions: the fine-tune's val, to choose its epoch

    def __post_init__(self) -> None:
        if not 0 < self.min_prob <= 1 or not 0 <= self.min_conf <= 1:
            raise ValueError(f"min_prob must be in (0, 1] and min_conf in [0, 1], got {self.min_prob}, {self.min_conf}")
        if not 0 < self.val_share < 1:
            raise ValueError(f"val_share must be in (0, 1), got {self.val_share}")


def sure_tiles(detections, settings: PseudoLabelSettings) -> np.ndarray:
    """Boolean mask of the detections that become labels."""
    if detections.class_probs is None:
        raise ValueError("the model gives no class probabilities: adaptation needs a two-stage model")
    prob = detections.class_probs[np.arange(len(detections)), detections.class_id]
    return (detections.confidence >= settings.min_conf) & (prob >= settings.min_prob)


def yolo_lines(detections, width: int, height: int) -> list[str]:
    """Label lines (class cx cy w h, normalised) of boxes in original-photo pixels."""
    lines = []
    for (x1, y1, x2, y2), cls in zip(detections.xyxy, detections.class_id):
        lines.append(f"{int(cls)} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
                     f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
    return lines


def split_sessions(hashes: Sequence, val_share: float, seed: int) -> tuple[set[str], set[str]]:
    """(train names, val names): whole photo sessions on one side, about val_share of the photos in val, at least
    one photo on each side. A single session is split photo by photo (it is all there is)."""
    from mjsnap.dataset.phash import cluster

    groups = cluster(hashes)
    if len(groups) == 1:
        groups = [[name] for name in groups[0]]
    random.Random(seed).shuffle(groups)
    total = sum(len(g) for g in groups)
    val: list[str] = []
    for group in groups[:-1]:  # the last session always trains
        if val and len(val) + len(group) > val_share * total:
            break
        val += group
    return {name for group in groups for name in group} - set(val), set(val)


def pseudo_label(detector, photos: Sequence[Path], out: Path, settings: PseudoLabelSettings, seed: int = 0,
                 say: Callable[[str], None] = print) -> dict[str, Any]:
    """Read ``photos`` with ``detector`` (a TileDetector of a two-stage model) and write the dataset of their sure
    tiles into ``out`` (written beside it and moved in place when whole). Unreadable photos are reported, not fatal.
    Returns the counts recorded in adapt.json."""
    from PIL import Image

    from mjsnap.dataset.phash import PhotoHash, dhash, phash
    from vision.imageio import ImageReadError, read_image

    staging = Path(out).with_name(Path(out).name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    pending = staging / "pending"  # written as read, then moved to train or val once the sessions are known
    pending.mkdir(parents=True)
    unreadable: dict[str, str] = {}
    hashes, kept = [], {}
    read_tiles, per_class = 0, Counter()
    for number, photo in enumerate(photos, 1):
        try:
            loaded = read_image(photo)
        except ImageReadError as exc:
            unreadable[str(photo)] = str(exc)
            loaded = None
        if loaded is not None:
            detections = detector.detect(loaded)
            sure = detections[sure_tiles(detections, settings)]
            read_tiles += len(detections)
            name = f"{number:06d}_{Path(photo).stem}"
            thumbnail = Image.fromarray(loaded.pixels)
            hashes.append(PhotoHash(name, dhash(thumbnail), phash(thumbnail)))
            if len(sure):
                per_class.update(sure.class_names)
                kept[name] = _place_photo(Path(photo), pending / name)
                (pending / f"{name}.txt").write_text("\n".join(yolo_lines(sure, loaded.width, loaded.height)) + "\n")
        if number % 50 == 0 or number == len(photos):
            say(f"read {number}/{len(photos)} photos: {sum(per_class.values())} of {read_tiles} tiles sure")
    if len(hashes) < MIN_PHOTOS:
        shutil.rmtree(staging)
        raise ValueError(f"{len(hashes)} readable photos: adaptation needs at least {MIN_PHOTOS}")
    train, val = split_sessions(hashes, settings.val_share, seed)
    missing = [split for split, names in (("train", train), ("val", val)) if not names & kept.keys()]
    if missing:
        shutil.rmtree(staging)
        raise ValueError(f"no tile of the {' or '.join(missing)} photos was read surely (class probability >= "
                         f"{settings.min_prob}): nothing to learn from; try more photos or a lower --min-prob")
    for split, names in (("train", train), ("val", val)):
        for directory in ("images", "labels"):
            (staging / directory / split).mkdir(parents=True)
        for name in sorted(names & kept.keys()):
            (pending / kept[name]).rename(staging / "images" / split / kept[name])
            (pending / f"{name}.txt").rename(staging / "labels" / split / f"{name}.txt")
    pending.rmdir()
    (staging / "data.yaml").write_text(data_yaml_text())
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return {"photos": len(photos), "readable": len(hashes), "unreadable": unreadable,
            "train_photos": len(train & kept.keys()), "val_photos": len(val & kept.keys()),
            "photos_without_sure_tiles": len(hashes) - len(kept), "tiles_read": read_tiles,
            "sure_tiles": sum(per_class.values()), "sure_per_class": {c: per_class[c] for c in CLASS_NAMES if per_class[c]}}


def _place_photo(photo: Path, stem_path: Path) -> str:
    """A link to the photo when the crop cutter reads its format (it applies EXIF as read_image did), else a JPEG of
    the whole upright photo (the boxes are in its pixels); returns the file name written."""
    from PIL import Image

    from vision.imageio import load_image

    if photo.suffix.lower() in LINKABLE_SUFFIXES:
        target = stem_path.with_name(stem_path.name + photo.suffix.lower())  # a stem may hold dots
        target.symlink_to(photo.resolve())
    else:
        target = stem_path.with_name(stem_path.name + ".jpg")
        Image.fromarray(load_image(photo)).save(target, quality=95)
    return target.name


@dataclass
class Adaptation:
    """One adaptation run: pseudo-labels from ``base``'s reading of ``photos``, then a classifier-only fine-tune."""

    photos: list[Path]
    base: Path
    settings: PseudoLabelSettings = field(default_factory=PseudoLabelSettings)
    classifier_minutes: float = 10.0
    classifier_epochs: int = CLASSIFIER_EPOCHS
    replay: int = REPLAY_PHOTOS  # synthetic photos beside the sure tiles' photos
    crops_per_class: int = CROPS_PER_CLASS
    replay_soft: bool = True  # the replay photos' crops keep the base's readings (vision.twostage.fastcls.soft_targets)
    name: str = "adapt"
    project: Path | None = None
    command: str = ""
    seed: int = 0
    pseudo: dict[str, Any] | None = None  # the pseudo-labelling's counts, once finished

    @property
    def run(self) -> Path:
        from vision.train import WORK_DIR

        return Path(self.project or WORK_DIR / "runs").resolve() / self.name

    def save(self) -> None:
        self.run.mkdir(parents=True, exist_ok=True)
        record = asdict(self) | {"photos": [str(p) for p in self.photos], "base": str(self.base),
                                 "project": str(self.project) if self.project else None}
        write_atomic(self.run / RECORD, (json.dumps(record, indent=1, ensure_ascii=False) + "\n").encode())

    @classmethod
    def load(cls, run: Path) -> Adaptation:
        record = json.loads((Path(run) / RECORD).read_text(encoding="utf-8"))
        return cls(**{**record, "photos": [Path(p) for p in record["photos"]], "base": Path(record["base"]),
                      "settings": PseudoLabelSettings(**record["settings"]),
                      "project": Path(record["project"]) if record["project"] else None})


def run_adaptation(job: Adaptation, say: Callable[[str], None] | None = None) -> Path:
    """Run (or continue) the adaptation; returns the candidate model directory RUN/model."""
    from vision.detector import TileDetector
    from vision.twostage import finetune

    say = say or (lambda text: print(f"[mjsnap adapt] {text}", flush=True))
    finetune.base_meta(job.base)  # a base that cannot be fine-tuned fails before the photos are read
    job.save()
    if job.pseudo is None:
        say(f"reading {len(job.photos)} photos with {job.base}: tiles with class probability >= "
            f"{job.settings.min_prob} become labels")
        detector = TileDetector(job.base)
        job.pseudo = pseudo_label(detector, job.photos, job.run / "pseudo", job.settings, job.seed, say)
        job.save()
        for photo, reason in job.pseudo["unreadable"].items():
            say(f"skipped {reason}")
    if (job.run / finetune.RECORD).is_file():
        return finetune.resume(job.run)
    tune = finetune.TwoStageFinetune(
        data=job.run / "pseudo" / "data.yaml", base=Path(job.base).resolve(), tune_detector=False,
        classifier_minutes=job.classifier_minutes, classifier_epochs=job.classifier_epochs, replay=job.replay,
        crops_per_class=job.crops_per_class, replay_soft=job.replay_soft, name=job.name, project=job.run.parent, command=job.command, seed=job.seed)
    return finetune.run_finetune(tune)


def start(job: Adaptation) -> Path:
    """A new run; refuses a run folder that already holds one (continue that one with `resume`)."""
    if (job.run / RECORD).is_file():
        raise FileExistsError(f"{job.run} already holds an adaptation: continue it with --resume {job.run} "
                              "or choose another --name")
    return run_adaptation(job)


def resume(run: Path) -> Path:
    if not (Path(run) / RECORD).is_file():
        raise FileNotFoundError(f"{run} holds no adaptation ({RECORD})")
    return run_adaptation(Adaptation.load(run))
