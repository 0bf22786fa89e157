"""Two-stage inference: the 1-class tile detector finds boxes, the crop classifier names each one.

A two-stage model directory holds meta.json with "design": "two_stage" and two sub-directories laid out like a
one-stage model directory (model_openvino/, model.onnx, model.pt), so vision.detector's network loaders run both:

    meta.json   {"design": "two_stage", "classes": [36], "imgsz": <detector imgsz>,
                 "detector": {"imgsz", "files"}, "classifier": {"imgsz", "batch", "margin", "half_turn_average", "files"}, ...}
    detector/   1-class YOLO11n (output (1, 5, anchors))
    classifier/ yolo11n-cls over the 36 classes (output (batch, 36) probabilities)

With classifier.half_turn_average (models from 0.5.0 on), each crop is classified upright and turned 180 degrees and
the two probability vectors are averaged: the classifier learnt both ways up (tiles lie either way in a photo), and
the average reads more tiles right on cmd val (0.5.0: 96.1 -> 96.3 %, tile errors 386 -> 350) for one more
classifier batch per 16 tiles.

With a characters/ folder (meta "characters", since 0.11.0), a tile the classifier is unsure of and likely shows a
Chinese character (a 萬 numeral, wind or dragon) is also read by a general text recognizer, which re-weighs the
classifier's probabilities among those classes (vision.twostage.characters).

A detection's class is the classifier's best class and its confidence is detector confidence x classifier
probability; the whole probability vector goes along as ``class_probs`` for the hand reader. Only boxes whose
detector confidence reaches `conf` are classified (at most MAX_CROPS per photo).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from scoring.tiles import CLASS_NAMES
from vision.detections import Detections
from vision.imageio import LoadedImage
from vision.twostage.characters import CROP_SIZE, READ_CLASSES, CharacterReader, CharacterSettings, needs_reading, weigh
from vision.twostage.crops import cut_tile
from vision.twostage.zoom import ZOOM_CONF, outside, zoom_region

DESIGN = "two_stage"
STAGES = ("detector", "classifier")
MAX_CROPS = 100  # a photo of one hand with melds and discards holds far fewer tiles


def check_two_stage_meta(meta: dict, model_dir: Path) -> None:
    for stage in STAGES:
        part = meta.get(stage)
        if not isinstance(part, dict) or not isinstance(part.get("imgsz"), int) or part["imgsz"] % 32:
            raise ValueError(f"{model_dir}/meta.json: '{stage}' needs an integer imgsz, a multiple of 32")
    if not isinstance(meta["classifier"].get("batch"), int) or meta["classifier"]["batch"] < 1:
        raise ValueError(f"{model_dir}/meta.json: classifier.batch must be a positive integer")
    characters = meta.get("characters")
    if characters is not None and not isinstance(characters, dict):
        raise ValueError(f"{model_dir}/meta.json: 'characters' must be an object (gate, kind_mass, floor)")


class TwoStageNetworks:
    """Both networks of a two-stage model directory in one backend; `detect` gives the facade's Detections."""

    characters: CharacterSettings | None = None  # the character recognizer's settings, when it is used

    def __init__(
        self, model_dir: Path, meta: dict, backend: str, conf: float, iou: float, zoom: bool = True, characters: bool = True
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
        self.conf, self.iou, self.zoom = conf, iou, zoom
        self._detector = _LOADERS[self.backend](self.model_dir / "detector")
        self._classifier = _LOADERS[self.backend](self.model_dir / "classifier")
        if characters and meta.get("characters") is not None:
            try:
                self.characters = CharacterSettings(**meta["characters"])
            except TypeError as exc:
                raise ValueError(f"{model_dir}/meta.json: characters: {exc}") from None
            runtime = "openvino" if self.backend == "openvino" else "onnxruntime"
            self.reader = CharacterReader(self.model_dir / "characters", runtime, _THREADS)

    def find_tiles(self, loaded: LoadedImage) -> tuple[np.ndarray, np.ndarray]:
        """Tile boxes (xyxy, working-image pixels) and detector confidences, best first.

        With ``zoom``, a hand that is small in the photo is looked at again (vision.twostage.zoom): the boxes found
        in the region around it are replaced by those of a second pass on that region alone.
        """
        rgb = loaded.pixels
        height, width = rgb.shape[:2]
        boxes, confidence = self._boxes(rgb, min(self.conf, ZOOM_CONF) if self.zoom else self.conf)
        region = zoom_region(boxes[confidence >= ZOOM_CONF], width, height, self.detector_imgsz) if self.zoom else None
        if region is not None:
            x1, y1, x2, y2 = region
            zoomed, zoomed_confidence = self._boxes(rgb[y1:y2, x1:x2], self.conf)
            beyond = outside(boxes, region)
            boxes = np.concatenate([zoomed + np.array([x1, y1, x1, y1], np.float32), boxes[beyond]])
            confidence = np.concatenate([zoomed_confidence, confidence[beyond]])
            order = np.argsort(-confidence, kind="stable")[:MAX_CROPS]
            boxes, confidence = boxes[order], confidence[order]
        keep = confidence >= self.conf
        return boxes[keep], confidence[keep]

    def _boxes(self, rgb: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray]:
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
        can keep (detector confidence x the classifier's total on the character classes under ``conf``)."""
        if not len(boxes):
            return np.zeros((0, len(CLASS_NAMES)), np.float32)
        crops = np.stack([cut_tile(rgb, box, self.classifier_imgsz, self.margin) for box in boxes])
        if not self.half_turn_average:
            probs = self._classify_crops(crops)
        else:
            both = self._classify_crops(np.concatenate([crops, crops[:, ::-1, ::-1]]))
            probs = (both[: len(boxes)] + both[len(boxes) :]) / 2
        if self.characters is None:
            return probs
        asked = needs_reading(probs, self.characters)
        if detector_conf is not None:
            asked &= detector_conf * probs[:, READ_CLASSES].sum(1) >= self.conf
        if asked.any():
            sharp = np.stack([cut_tile(rgb, box, CROP_SIZE, self.margin) for box in boxes[asked]])
            probs[asked] = weigh(probs[asked], self.reader.scores(sharp), self.characters.floor)
        return probs

    def _classify_crops(self, crops: np.ndarray) -> np.ndarray:
        out = np.zeros((len(crops), len(CLASS_NAMES)), np.float32)
        for start in range(0, len(crops), self.batch):
            chunk = crops[start : start + self.batch]
            batch = np.zeros((self.batch, *chunk.shape[1:]), np.uint8)  # exports have a fixed batch size
            batch[: len(chunk)] = chunk
            tensor = np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / np.float32(255)
            probs = np.asarray(self._classifier(tensor), dtype=np.float32)
            if probs.shape != (self.batch, len(CLASS_NAMES)):
                raise ValueError(f"{self.model_dir}/classifier ({self.backend}): output {probs.shape} is not ({self.batch}, 36)")
            out[start : start + len(chunk)] = probs[: len(chunk)]
        return out

    def detect(self, loaded: LoadedImage) -> Detections:
        boxes, det_conf = self.find_tiles(loaded)
        probs = self.classify(loaded.pixels, boxes, det_conf)
        class_id = probs.argmax(1) if len(boxes) else np.zeros(0, np.int64)
        confidence = det_conf * probs[np.arange(len(boxes)), class_id]
        keep = confidence >= self.conf
        to_x, to_y = loaded.to_original
        scaled = boxes * [to_x, to_y, to_x, to_y]
        scaled = np.clip(scaled, 0, [loaded.width, loaded.height, loaded.width, loaded.height])
        return Detections(scaled[keep], confidence[keep], class_id[keep], probs[keep])
