"""Two-stage inference: the 1-class tile detector finds boxes, the crop classifier names each one.

A two-stage model directory holds meta.json with "design": "two_stage" and two sub-directories laid out like a
one-stage model directory (model_openvino/, model.onnx, model.pt), so vision.detector's network loaders run both:

    meta.json   {"design": "two_stage", "classes": [36], "imgsz": <detector imgsz>,
                 "detector": {"imgsz", "files", "openvino_precision"},
                 "classifier": {"imgsz", "batch", "margin", "half_turn_average", "half_turn_below", "face_floor",
                                "extra_looks", "twins", "files",
                                "ensemble", "ensemble_below", "openvino_precision"},
                 ...}
    detector/   1-class YOLO11n (output (1, 5, anchors))
    classifier/ yolo11n-cls over the 36 classes (output (batch, 36) probabilities)
    classifier_2/ ...  more classifiers of the same input and output, when classifier.ensemble names them

With classifier.ensemble (since 0.14.0: ["classifier_2"]), a crop is classified by each classifier and their
probabilities are averaged (since 0.14.1 only for the tiles the first classifier doubts, see below). Classifiers
trained apart disagree most where a tile set is new to them, each in its own way: on the hold-out proxy
(classifiers that never saw cmd, cmd val's real photos) two of them averaged made 706 tile errors where each alone
made 787 and 820 (benchmarks/results/gpu_classifier/), at one more classifier run per batch.
With classifier.ensemble_below (since 0.14.1: 0.9), the other classifiers read only the tiles whose best class the
first classifier gives less than that, and are averaged in for those alone: on cmd val's photos at the product's
confidence (benchmarks/results/ensemble_gate.md) that keeps 275 tile errors against 274 for every classifier on
every tile (277 for the first alone) at 5.7 classifier batches a photo against 8.8 (4.3 alone); on the hold-out pair
710 against 706 (788 alone), on generated photos (seed 3) 171 against 166 (186 alone). Absent, every tile.

With classifier.half_turn_average (models from 0.5.0 on), each crop is classified upright and turned 180 degrees and
the two probability vectors are averaged: the classifier learnt both ways up (tiles lie either way in a photo), and
the average reads more tiles right on cmd val (0.5.0: 96.1 -> 96.3 %, tile errors 386 -> 350) for one more
classifier batch per 16 tiles. With classifier.half_turn_below (absent: 1, every tile), the first look reads a crop
turned 180 degrees only for the tiles whose best class it gives under that when read upright.

With classifier.extra_looks (since 0.12.0: {"below": 0.9, "margins": [0.0, 0.12]}), a tile whose best class is
under "below" is classified again from crops cut with each of "margins" (the box's context, as a fraction of its
size; the first look uses "margin"), and the looks are averaged: a tile set the classifier has not learnt reads
better seen a little closer and a little wider (hold-out proxy, tile errors 1,061 -> 1,010 gleitz, 1,082 -> 1,036
ffalt, 707 -> 679 cmd fold; cmd val 292 -> 284), while a tile it knows is rarely unsure (about one a photo on cmd).

With classifier.twins (since 0.18.6: {"below": 0.9, "likeness": 0.93}), a tile still under "below" after those
looks is read together with its twins, the tiles of the photo whose face matches its own (vision.twostage.twins).

When the rows of tiles slant in the photo, each tile is classified from a view of the hand turned level
(``level``, vision.twostage.deskew); the boxes reported are still the first pass's.

With a characters/ folder (meta "characters", since 0.11.0), a tile the classifier is unsure of and likely shows a
Chinese character (a 萬 numeral, wind or dragon) is also read by a general text recognizer, which re-weighs the
classifier's probabilities among those classes (vision.twostage.characters). Before that, with characters.wan_doubt
above 0 (since 0.18.4), a tile the classifier cannot tell to be a 萬 tile or not is read for 萬 on its lower half:
seen, it is a 萬 tile; not seen, likely not (a bird or a flower the classifier took for 9m). With
characters.flower_doubt above 0 (since 0.18.5), a tile that may be a flower is read for a flower's name: seen, it is
one.

A detection's class is the classifier's best class and its confidence is detector confidence x classifier
probability, that probability counted as at least classifier.face_floor (0.35 since 0.12.0; 0 when meta has none).
The floor keeps a tile the detector is sure of (confidence >= conf / face_floor, 0.71 at conf 0.25) when the
classifier doubts its face, as it does on tile sets it has not learnt: dropped, such a tile is lost to the hand; kept,
it is usually right, and the whole probability vector goes along as ``class_probs`` for the hand reader to re-read
it. On the hold-out proxies (classifier folds that never saw the set) tile errors fell 1,082 -> 1,061 (gleitz),
1,112 -> 1,082 (ffalt) and 768 -> 707 (cmd's real photos); on cmd val with the shipped classifier 291 -> 292.
Only boxes whose detector confidence reaches `conf` are classified (at most MAX_CROPS per photo).

With OpenVINO, detector.openvino_precision and classifier.openvino_precision (since 0.14.2: "bf16" and "f32"; "f32"
when absent) name the precision each stage runs at on a CPU with AVX512-BF16 (others run f32). bf16 made the tile
detector about 1.7x faster and found as many tiles. 64 px classifiers misread more tiles of a set they never saw in
bf16 (3.6 % more on the hold-out proxy, session 19), so `train-two-stage export` writes f32 for them
(OPENVINO_PRECISION); 0.18.3's 96 px classifiers read it alike in bf16 (0.16 % more, session 29) and run so. The
character recognizer's precision is characters.openvino_precision (vision.twostage.characters.CharacterSettings; "f32"
when absent). A stage may also name "int8" (since 0.18.7): its folders' model_openvino_int8/, quantized with NNCF by
`mjsnap train-two-stage quantize` (vision.twostage.quantize), on every CPU; the ONNX Runtime and ultralytics backends
run the f32 networks whatever meta names.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from scoring.tiles import CLASS_NAMES
from vision.detections import Detections
from vision.imageio import LoadedImage
from vision.imgsz import STRIDE, is_model_imgsz
from vision.twostage.characters import (CROP_SIZE, READ_CLASSES, CharacterReader, CharacterSettings, in_doubt,
                                        mark_checks, needs_reading, weigh, weigh_seen)
from vision.twostage.crops import cut_tile
from vision.twostage.deskew import MAX_GROWTH, level_view
from vision.twostage.light import LightSettings, balanced
from vision.twostage.twins import faces, pool_twins
from vision.twostage.zoom import ZOOM_CONF, outside, zoom_region

DESIGN = "two_stage"
STAGES = ("detector", "classifier")
ENSEMBLE_FOLDER = re.compile(r"classifier_[2-9]")  # more classifiers beside classifier/ (meta classifier.ensemble)
MAX_CROPS = 100  # a photo of one hand with melds and discards holds far fewer tiles
# What exports write (see above). face_floor 0.3-0.45 all did about as well; extra looks at margins 0.03 and 0.10
# gained less, two more looks for every tile (0.0, 0.06, 0.12) about the same at about twice the cost.
FACE_FLOOR = 0.35
EXTRA_LOOKS = {"below": 0.9, "margins": [0.0, 0.12]}
# ... and with an ensemble; 0.5-0.9 kept the same share of the ensemble's gain on real photos, 0.9 the most on
# generated ones, for half a classifier batch a photo more than 0.5 (benchmarks/results/ensemble_gate.md)
ENSEMBLE_BELOW = 0.9
# ... and since 0.14.2 OpenVINO's precision per stage: bf16 runs the tile detector about 1.7x faster on a CPU with
# AVX512-BF16 and it found as many tiles (cmd val, generated photos, the hold-out proxy); the classifiers in bf16
# misread more tiles of a set they never saw (64 px, hold-out proxy 807 errors against 787), so an export writes f32
# (benchmarks/results/candidate_0.14.2/); 0.18.3's 96 px classifiers read alike in bf16 and its meta names it
# (benchmarks/results/candidate_0.18.3/)
OPENVINO_PRECISION = {"detector": "bf16", "classifier": "f32"}
STAGE_PRECISIONS = ("f32", "bf16", "int8")  # what meta may name per stage: vision.detector's OPENVINO_PRECISIONS + int8


def openvino_precision(meta: dict, stage: str) -> str:
    """The precision meta names for a stage's OpenVINO networks; f32 for models from before 0.14.2 (and one-stage)."""
    return meta.get(stage, {}).get("openvino_precision", "f32")


def stage_folders(meta: dict) -> dict[str, list[str]]:
    """Each stage's network folders: detector/; classifier/ and the classifier_N/ of its ensemble."""
    return {"detector": ["detector"], "classifier": ["classifier", *meta["classifier"].get("ensemble", [])]}


def ensemble_folders(model_dir: Path) -> list[Path]:
    """The classifier_N/ folders on disk beside classifier/, in name order (what meta classifier.ensemble may name)."""
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        return []
    return sorted(p for p in model_dir.iterdir() if p.is_dir() and ENSEMBLE_FOLDER.fullmatch(p.name))


def check_two_stage_meta(meta: dict, model_dir: Path) -> None:
    for stage in STAGES:
        part = meta.get(stage)
        if not isinstance(part, dict) or not is_model_imgsz(part.get("imgsz")):
            raise ValueError(f"{model_dir}/meta.json: '{stage}' needs an imgsz that is a positive multiple of {STRIDE}")
    if not isinstance(meta["classifier"].get("batch"), int) or meta["classifier"]["batch"] < 1:
        raise ValueError(f"{model_dir}/meta.json: classifier.batch must be a positive integer")
    floor = meta["classifier"].get("face_floor", 0.0)
    if not (_is_number(floor, 1) and floor < 1):
        raise ValueError(f"{model_dir}/meta.json: classifier.face_floor must be a number in [0, 1), not {floor!r}")
    half_turn_below = meta["classifier"].get("half_turn_below", 1.0)
    if not _is_number(half_turn_below, 1):
        raise ValueError(f"{model_dir}/meta.json: classifier.half_turn_below must be a number in [0, 1], not {half_turn_below!r}")
    extra_looks = meta["classifier"].get("extra_looks")
    if extra_looks is not None and not _is_extra_looks(extra_looks):
        raise ValueError(
            f"{model_dir}/meta.json: classifier.extra_looks must be {{\"below\": a number in [0, 1], "
            f"\"margins\": a list of numbers in [0, 0.5]}}, not {extra_looks!r}"
        )
    twins = meta["classifier"].get("twins")
    if twins is not None and not (isinstance(twins, dict) and set(twins) == {"below", "likeness"}
                                  and _is_number(twins["below"], 1) and _is_number(twins["likeness"], 1)):
        raise ValueError(f"{model_dir}/meta.json: classifier.twins must be {{\"below\": a number in [0, 1], "
                         f"\"likeness\": a number in [0, 1]}}, not {twins!r}")
    below = meta["classifier"].get("ensemble_below", 1.0)
    if not _is_number(below, 1):
        raise ValueError(f"{model_dir}/meta.json: classifier.ensemble_below must be a number in [0, 1], not {below!r}")
    ensemble = meta["classifier"].get("ensemble", [])
    if not isinstance(ensemble, list) or not all(isinstance(n, str) and ENSEMBLE_FOLDER.fullmatch(n) for n in ensemble):
        raise ValueError(f"{model_dir}/meta.json: classifier.ensemble must be a list of folder names classifier_2, "
                         f"classifier_3, ..., not {ensemble!r}")
    missing = [name for name in ensemble if not (Path(model_dir) / name).is_dir()]
    if missing:
        raise ValueError(f"{model_dir}/meta.json: classifier.ensemble names {', '.join(missing)}, which is not there")
    for stage in STAGES:
        precision = openvino_precision(meta, stage)
        if precision not in STAGE_PRECISIONS:
            raise ValueError(f"{model_dir}/meta.json: {stage}.openvino_precision must be one of "
                             f"{', '.join(STAGE_PRECISIONS)}, not {precision!r}")
    characters = meta.get("characters")
    if characters is not None and not isinstance(characters, dict):
        raise ValueError(f"{model_dir}/meta.json: 'characters' must be an object (gate, kind_mass, floor)")


def _is_number(value, high: float) -> bool:
    """A number (not a bool) in [0, high]."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= high


def _is_extra_looks(entry) -> bool:
    return (
        isinstance(entry, dict)
        and set(entry) == {"below", "margins"}
        and _is_number(entry["below"], 1)
        and isinstance(entry["margins"], list)
        and all(_is_number(margin, 0.5) for margin in entry["margins"])
    )


class TwoStageNetworks:
    """Both networks of a two-stage model directory in one backend; `detect` gives the facade's Detections."""

    characters: CharacterSettings | None = None  # the character recognizer's settings, when it is used
    face_floor = 0.0  # models before 0.12.0: a detection's confidence is the plain product
    extra_looks_below, extra_looks_margins = 0.0, ()  # ... and each tile is looked at once
    ensemble_below = 1.0  # ... and every classifier of an ensemble reads every tile
    half_turn_below = 1.0  # ... and, with half_turn_average, every tile is read both ways up
    twins_below, twins_likeness = 0.0, 1.0  # ... and each tile is read on its own (vision.twostage.twins)
    level_max_growth = MAX_GROWTH  # a level box over this many times the tile's own is not its box (deskew)
    light: LightSettings | None = None  # ... and its tiles are classified in the photo's own colours

    def __init__(
        self,
        model_dir: Path,
        meta: dict,
        backend: str,
        conf: float,
        iou: float,
        zoom: bool = True,
        characters: bool = True,
        level: bool = True,
    ) -> None:
        from vision.detector import _LOADERS, _THREADS, choose_backend

        check_two_stage_meta(meta, model_dir)
        self.model_dir = Path(model_dir)
        self.backend = choose_backend(self.model_dir, backend)
        self.detector_imgsz = meta["detector"]["imgsz"]
        self.classifier_imgsz = meta["classifier"]["imgsz"]
        self.batch = meta["classifier"]["batch"]
        self.margin = float(meta["classifier"].get("margin", 0.06))
        self.half_turn_average = bool(meta["classifier"].get("half_turn_average", False))
        self.half_turn_below = float(meta["classifier"].get("half_turn_below", 1.0))
        self.face_floor = float(meta["classifier"].get("face_floor", 0.0))
        extra_looks = meta["classifier"].get("extra_looks") or {"below": 0.0, "margins": []}
        self.extra_looks_below, self.extra_looks_margins = float(extra_looks["below"]), tuple(extra_looks["margins"])
        twins = meta["classifier"].get("twins") or {}
        self.twins_below = float(twins.get("below", self.twins_below))
        self.twins_likeness = float(twins.get("likeness", self.twins_likeness))
        self.conf, self.iou, self.zoom, self.level = conf, iou, zoom, level
        try:  # the tile faces' colour cast taken off before classifying (vision.twostage.light); none without it
            self.light = LightSettings.from_meta(meta["light"]) if meta.get("light") is not None else None
        except ValueError as exc:
            raise ValueError(f"{model_dir}/meta.json: {exc}") from None
        self._detector = self._load("detector", openvino_precision(meta, "detector"))
        self._classifiers = [self._load(folder, openvino_precision(meta, "classifier"))
                             for folder in stage_folders(meta)["classifier"]]
        self.ensemble_below = float(meta["classifier"].get("ensemble_below", self.ensemble_below))
        if characters and meta.get("characters") is not None:
            try:
                self.characters = CharacterSettings(**meta["characters"])
            except TypeError as exc:
                raise ValueError(f"{model_dir}/meta.json: characters: {exc}") from None
            runtime = "openvino" if self.backend == "openvino" else "onnxruntime"
            self.reader = CharacterReader(self.model_dir / "characters", runtime, _THREADS,
                                          self.characters.openvino_precision, self.characters.numeral_view)

    def _load(self, folder: str, precision: str):
        from vision.detector import _LOADERS, _openvino_network

        if self.backend == "openvino":
            return _openvino_network(self.model_dir / folder, precision)
        return _LOADERS[self.backend](self.model_dir / folder)

    def find_tiles(self, loaded: LoadedImage) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (xyxy, working-image pixels) and detector confidences, best first.

        With ``zoom``, a hand that is small in the photo is looked at again (vision.twostage.zoom): the boxes found
        in the region around it are replaced by those of a second pass on that region alone.
        """
        rgb = loaded.pixels
        height, width = rgb.shape[:2]
        boxes, confidence = self.box_tiles(rgb, min(self.conf, ZOOM_CONF) if self.zoom else self.conf)
        region = zoom_region(boxes[confidence >= ZOOM_CONF], width, height, self.detector_imgsz) if self.zoom else None
        if region is not None:
            x1, y1, x2, y2 = region
            zoomed, zoomed_confidence = self.box_tiles(rgb[y1:y2, x1:x2], self.conf)
            beyond = outside(boxes, region)
            boxes = np.concatenate([zoomed + np.array([x1, y1, x1, y1], np.float32), boxes[beyond]])
            confidence = np.concatenate([zoomed_confidence, confidence[beyond]])
            order = np.argsort(-confidence, kind="stable")[:MAX_CROPS]
            boxes, confidence = boxes[order], confidence[order]
        keep = confidence >= self.conf
        return boxes[keep], confidence[keep]

    def box_tiles(self, rgb: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray]:
        """One detector pass over ``rgb``: boxes (xyxy, pixels of rgb) and confidences, best first."""
        from vision.detector import decode, letterbox, to_tensor

        boxed, placement = letterbox(rgb, self.detector_imgsz)
        output = np.asarray(self._detector(to_tensor(boxed)), dtype=np.float32)
        if output.ndim != 3 or output.shape[1] != 5:
            raise ValueError(f"{self.model_dir}/detector ({self.backend}): output {output.shape} is not (1, 5, N)")
        boxes, confidence, _ = decode(output, conf, self.iou, MAX_CROPS)
        pad = np.array([placement.pad_x, placement.pad_y, placement.pad_x, placement.pad_y], np.float32)
        gain = np.array([placement.gain_x, placement.gain_y, placement.gain_x, placement.gain_y], np.float32)
        boxes = (boxes - pad) / gain
        height, width = rgb.shape[:2]
        return np.clip(boxes, 0, [width, height, width, height]).astype(np.float32), confidence

    def classify(self, rgb: np.ndarray, boxes: np.ndarray, detector_conf: np.ndarray | None = None) -> np.ndarray:
        """(N, 36) class probabilities of the tiles in boxes (pixels of rgb).

        With the boxes' detector confidences, the character recognizer is not asked about a box that no reading
        can keep (detector confidence x the classifier's total on the character classes, floored as in `detect`,
        under ``conf``)."""
        if not len(boxes):
            return np.zeros((0, len(CLASS_NAMES)), np.float32)
        probs = self.first_look(rgb, boxes)
        unsure = probs.max(1) < self.extra_looks_below
        if self.extra_looks_margins and unsure.any():
            again = self.look(rgb, boxes[unsure], self.extra_looks_margins)
            looks = 1 + len(self.extra_looks_margins)
            probs[unsure] = (probs[unsure] + (looks - 1) * again) / looks
        if len(boxes) > 1 and (probs.max(1) < self.twins_below).any():
            # twins are boxes the reader keeps: an evaluation keeps boxes down to 0.001, often part of a tile
            sure = np.ones(len(boxes), bool) if detector_conf is None else detector_conf >= ZOOM_CONF
            probs = pool_twins(probs, faces(rgb, boxes), boxes, sure, self.twins_below, self.twins_likeness)
        if self.characters is None:
            return probs
        for mark, band, against, missing in mark_checks(self.characters):  # the 萬 and flower checks
            doubted = in_doubt(probs, mark.classes, band)
            if doubted.any():
                scores = self.reader.mark_scores(self._reader_crops(rgb, boxes[doubted]), mark)
                seen = scores >= self.characters.mark_seen
                probs[doubted] = weigh_seen(probs[doubted], seen, mark.classes, against, missing)
        asked = self.asks_reader(probs, detector_conf)
        if asked.any():
            probs[asked] = weigh(probs[asked], self.reader.scores(self._reader_crops(rgb, boxes[asked])),
                                 self.characters.floor)
        return probs

    def _reader_crops(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, CROP_SIZE, CROP_SIZE, 3) crops of the boxes for the text recognizer (larger than the classifier's)."""
        return np.stack([cut_tile(rgb, box, CROP_SIZE, self.margin) for box in boxes])

    def asks_reader(self, probs: np.ndarray, detector_conf: np.ndarray | None = None) -> np.ndarray:
        """Mask of the tiles (rows of the classifier's probabilities) the character recognizer is asked about: those
        `needs_reading` picks that a reading could still keep (see `classify`)."""
        asked = needs_reading(probs, self.characters)
        if detector_conf is not None:
            asked &= detector_conf * np.maximum(probs[:, READ_CLASSES].sum(1), self.face_floor) >= self.conf
        return asked

    def classify_tiles(self, rgb: np.ndarray, boxes: np.ndarray, detector_conf: np.ndarray) -> np.ndarray:
        """(N, 36) class probabilities of the tiles found in rgb; with ``level``, the tiles of rows that slant are
        classified from a view turned level (vision.twostage.deskew), each from the box the detector gives it there.
        A tile with no box in that view is classified as it lies."""
        view = level_view(rgb, boxes[detector_conf >= ZOOM_CONF], self.detector_imgsz) if self.level else None
        if view is None:
            return self.classify(rgb, boxes, detector_conf)
        level_boxes, levelled = view.boxes_of(boxes, lambda image: self.box_tiles(image, self.conf)[0], self.level_max_growth)
        probs = np.empty((len(boxes), len(CLASS_NAMES)), np.float32)
        probs[levelled] = self.classify(view.image, level_boxes[levelled], detector_conf[levelled])
        probs[~levelled] = self.classify(rgb, boxes[~levelled], detector_conf[~levelled])
        return probs

    def first_look(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 36) probabilities of every classifier averaged, at the box's margin. With classifier.ensemble_below
        under 1, the other classifiers read only the tiles whose best class the first gives under it (the extra
        looks, for the tiles still unsure, are read by every classifier)."""
        alone = len(self._classifiers) == 1 or self.ensemble_below >= 1
        first = self._classifiers if alone else self._classifiers[:1]
        gated = self.half_turn_average and self.half_turn_below < 1
        crops = self.cut(rgb, boxes, (self.margin,))  # cut once: the turned look and the other classifiers read subsets
        probs = self.read(crops, first, (0,) if gated else None)
        if gated:
            unsure = probs.max(1) < self.half_turn_below
            if unsure.any():
                probs[unsure] = (probs[unsure] + self.read(crops[:, unsure], first, (2,))) / 2
        if alone:
            return probs
        doubted = probs.max(1) < self.ensemble_below
        if doubted.any():
            others = self.read(crops[:, doubted], self._classifiers[1:])
            members = len(self._classifiers)
            probs[doubted] = (probs[doubted] + (members - 1) * others) / members
        return probs

    def look(self, rgb: np.ndarray, boxes: np.ndarray, margins: tuple[float, ...], classifiers: list | None = None,
             half_turns: tuple[int, ...] | None = None) -> np.ndarray:
        """(N, 36) probabilities averaged over crops cut with each margin, each turned by each of `half_turns` (0:
        upright, 2: 180 degrees; both when half_turn_average, unless given) and over the classifiers (all of them
        unless given), all classified in one run of batches."""
        return self.read(self.cut(rgb, boxes, margins), classifiers, half_turns)

    def cut(self, rgb: np.ndarray, boxes: np.ndarray, margins: tuple[float, ...]) -> np.ndarray:
        """(margins, N, imgsz, imgsz, 3) crops of the boxes, cut with each margin."""
        return np.stack([[cut_tile(rgb, box, self.classifier_imgsz, margin) for box in boxes] for margin in margins])

    def read(self, crops: np.ndarray, classifiers: list | None = None, half_turns: tuple[int, ...] | None = None) -> np.ndarray:
        """(N, 36) probabilities of `cut`'s crops, as `look` reads them."""
        tiles = crops.shape[1]
        crops = crops.reshape(-1, *crops.shape[2:])
        half_turns = half_turns if half_turns is not None else (0, 2) if self.half_turn_average else (0,)
        crops = np.concatenate([crops if turns == 0 else crops[:, ::-1, ::-1] for turns in half_turns])
        classified = self._classify_crops(crops, classifiers or self._classifiers)
        return classified.reshape(-1, tiles, len(CLASS_NAMES)).mean(0)

    def _classify_crops(self, crops: np.ndarray, classifiers: list) -> np.ndarray:
        # ONNX exports take their fixed batch size only, so the last batch is padded; OpenVINO and PyTorch networks
        # (vision.detector, `any_batch`) take the crops there are
        padded = not all(getattr(classifier, "any_batch", False) for classifier in classifiers)
        out = np.zeros((len(crops), len(CLASS_NAMES)), np.float32)
        for start in range(0, len(crops), self.batch):
            chunk = crops[start : start + self.batch]
            batch = np.zeros((self.batch if padded else len(chunk), *chunk.shape[1:]), np.uint8)
            batch[: len(chunk)] = chunk
            tensor = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)
            probs = [np.asarray(classifier(tensor), dtype=np.float32) for classifier in classifiers]
            if any(p.shape != (len(batch), len(CLASS_NAMES)) for p in probs):
                shapes = ", ".join(str(p.shape) for p in probs)
                raise ValueError(f"{self.model_dir}/classifier ({self.backend}): output {shapes} is not ({len(batch)}, 36)")
            out[start : start + len(chunk)] = np.mean(probs, axis=0)[: len(chunk)]
        return out

    def detect(self, loaded: LoadedImage) -> Detections:
        boxes, det_conf = self.find_tiles(loaded)
        rgb = loaded.pixels if self.light is None else balanced(loaded.pixels, boxes[det_conf >= ZOOM_CONF], self.light)
        probs = self.classify_tiles(rgb, boxes, det_conf)
        class_id = probs.argmax(1) if len(boxes) else np.zeros(0, np.int64)
        confidence = det_conf * np.maximum(probs[np.arange(len(boxes)), class_id], self.face_floor)
        keep = confidence >= self.conf
        to_x, to_y = loaded.to_original
        scaled = boxes * [to_x, to_y, to_x, to_y]
        scaled = np.clip(scaled, 0, [loaded.width, loaded.height, loaded.width, loaded.height])
        return Detections(scaled[keep], confidence[keep], class_id[keep], probs[keep])
