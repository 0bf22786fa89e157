"""TileDetector: the shipped YOLO model run on one photo, boxes returned in pixels of the original photo.

A model directory holds ``meta.json`` ({"version", "classes", "imgsz", ...}) and at least one of ``model_openvino/``
(OpenVINO IR, fastest on a CPU), ``model.onnx`` (ONNX Runtime) or ``model.pt`` (ultralytics/torch, optional). Every
backend only runs the network; letterboxing, decoding of the YOLO output and class-wise NMS are done here once, the
same way ultralytics does them, so the backends give the same detections.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from mjsnap.locks import file_stamp
from mjsnap.paths import MODELS_DIR
from scoring.tiles import CLASS_NAMES
from vision.detections import Detections
from vision.imageio import ImageSource, LoadedImage, from_pil, read_image
from vision.imgsz import STRIDE, is_model_imgsz
from vision.twostage.backend import DESIGN, STAGES, TwoStageNetworks, ensemble_folders

BACKENDS = ("openvino", "onnxruntime", "ultralytics")
_PAD_VALUE = 114  # ultralytics' letterbox grey
_MAX_CANDIDATES = 30000  # boxes entering NMS, as ultralytics
_MAX_DETECTIONS = 300
# Inference is the only work while it runs: use every core, unless several processes share them (mjsnap batch
# sets MJSNAP_INFERENCE_THREADS in each worker).
_THREADS = int(os.environ.get("MJSNAP_INFERENCE_THREADS") or 0) or os.cpu_count() or 1

# (1, 3, S, S) float32 in [0, 1] -> (1, 4 + classes, anchors); a classifier: (batch, 3, S, S) -> (batch, classes),
# where a network with the attribute any_batch takes fewer rows than its export's batch too
Network = Callable[[np.ndarray], np.ndarray]


class ModelNotFoundError(FileNotFoundError):
    """The model directory or the file a backend needs is missing; the message says what to do."""


@dataclass(frozen=True)
class Letterbox:
    """How a working image was placed into the square network input."""

    gain_x: float  # network pixels per working pixel
    gain_y: float
    pad_x: int
    pad_y: int


def letterbox(rgb: np.ndarray, size: int) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping the aspect ratio and pad to ``size`` x ``size`` exactly as ultralytics' LetterBox (centered)."""
    height, width = rgb.shape[:2]
    ratio = min(size / height, size / width)
    new_w, new_h = max(round(width * ratio), 1), max(round(height * ratio), 1)
    if (new_w, new_h) != (width, height):
        rgb = cv2.resize(rgb, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    pad_w, pad_h = (size - new_w) / 2, (size - new_h) / 2
    top, bottom = round(pad_h - 0.1), round(pad_h + 0.1)
    left, right = round(pad_w - 0.1), round(pad_w + 0.1)
    boxed = cv2.copyMakeBorder(rgb, top, bottom, left, right, cv2.BORDER_CONSTANT, value=(_PAD_VALUE,) * 3)
    return boxed, Letterbox(new_w / width, new_h / height, left, top)


def to_tensor(boxed: np.ndarray) -> np.ndarray:
    """HWC uint8 RGB -> (1, 3, H, W) float32 in [0, 1]."""
    return np.ascontiguousarray(boxed.transpose(2, 0, 1)[None], dtype=np.float32) / np.float32(255)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Greedy NMS (indices kept, best first); a box is dropped when its IoU with a kept one is above ``iou``."""
    order = np.argsort(-scores, kind="stable")
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    keep = []
    while order.size:
        best, rest = order[0], order[1:]
        keep.append(best)
        inter_w = np.clip(np.minimum(boxes[best, 2], boxes[rest, 2]) - np.maximum(boxes[best, 0], boxes[rest, 0]), 0, None)
        inter_h = np.clip(np.minimum(boxes[best, 3], boxes[rest, 3]) - np.maximum(boxes[best, 1], boxes[rest, 1]), 0, None)
        inter = inter_w * inter_h
        overlap = inter / (areas[best] + areas[rest] - inter + 1e-9)
        order = rest[overlap <= iou]
    return np.array(keep, dtype=np.int64)


def decode(
    output: np.ndarray, conf: float, iou: float, max_detections: int = _MAX_DETECTIONS
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """YOLO11 head output (1, 4 + C, A) -> boxes xyxy in network pixels, confidences, class ids after class-wise NMS.

    Each anchor keeps its best class (as ultralytics' default, multi_label=False).
    """
    rows = output[0].T  # (A, 4 + C): cx, cy, w, h, class scores (already sigmoid)
    scores = rows[:, 4:]
    class_id = scores.argmax(1)
    confidence = scores[np.arange(len(rows)), class_id]
    candidates = np.flatnonzero(confidence > conf)
    if candidates.size > _MAX_CANDIDATES:
        candidates = candidates[np.argsort(-confidence[candidates], kind="stable")[:_MAX_CANDIDATES]]
    cx, cy, w, h = rows[candidates, :4].T
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    confidence, class_id = confidence[candidates], class_id[candidates]
    # Offsetting each class far apart makes one NMS pass class-wise (ultralytics' max_wh trick).
    keep = nms(boxes + class_id[:, None] * 7680.0, confidence, iou)[:max_detections]
    return boxes[keep], confidence[keep], class_id[keep]


OPENVINO_PRECISIONS = ("f32", "bf16")


def openvino_config(core, precision: str, threads: int) -> dict[str, object]:
    """OpenVINO CPU settings for one network (every network mjsnap runs: tile detector, classifiers, text recognizer):
    latency first, on `threads` threads, at `precision`.

    f32 unless asked: on CPUs with AVX512-BF16 OpenVINO defaults to bf16, about twice as fast, but it shifted class
    scores by up to 0.03 on the shipped model (and boxes by tens of pixels on a random test model); f32 keeps
    OpenVINO in agreement with ONNX Runtime and PyTorch. A model whose meta asks for bf16 for a network was measured
    with it; a CPU without bf16 runs that network in f32."""
    if precision not in OPENVINO_PRECISIONS:
        raise ValueError(f"unknown OpenVINO precision {precision!r}; expected one of {OPENVINO_PRECISIONS}")
    if precision == "bf16" and "BF16" not in core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"):
        precision = "f32"
    return {"PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": threads, "INFERENCE_PRECISION_HINT": precision}


def _openvino_network(model_dir: Path, precision: str = "f32") -> Network:
    """A network's OpenVINO IR at `precision`: f32 or bf16 (OPENVINO_PRECISIONS) from model_openvino/, or "int8", the
    quantized copy in model_openvino_int8/ (vision.twostage.quantize) with whatever it left in float run in f32."""
    import openvino as ov

    core = ov.Core()
    folder = model_dir / (QUANTIZED_FOLDER if precision == "int8" else _FILES["openvino"])
    config = openvino_config(core, "f32" if precision == "int8" else precision, _THREADS)
    xml_files = sorted(folder.glob("*.xml"))
    if not xml_files:
        hint = "; make it with mjsnap train-two-stage quantize" if precision == "int8" else ""
        raise ModelNotFoundError(f"{folder}: no OpenVINO model (*.xml) found{hint}")
    model = core.read_model(xml_files[0])
    exported = model.inputs[0].partial_shape
    if exported.rank.is_static and exported[0].is_static and exported[0].get_length() > 1:
        # a batch of 1 to the exported size: a classifier asked about 2 tiles runs 4 crops, not 16 (the same
        # numbers, in a quarter of the time)
        exported[0] = ov.Dimension(1, exported[0].get_length())
        model.reshape({model.inputs[0]: exported})
    run = openvino_runner(core.compile_model(model, "CPU", config))
    run.any_batch = True
    return run


def openvino_runner(compiled) -> Network:
    """A compiled OpenVINO model as a function of its one input. One infer request serves every thread in turn: a
    request runs one inference at a time (another thread's call fails with "Infer Request is busy"), and the app's
    sessions share one model. Outputs are copied out of the request (infer's default) before the next may run."""
    request, output, lock = compiled.create_infer_request(), compiled.output(0), threading.Lock()

    def run(tensor: np.ndarray) -> np.ndarray:
        with lock:
            return request.infer({0: tensor})[output]

    return run


def _onnxruntime_network(model_dir: Path) -> Network:
    import onnxruntime as ort

    path = model_dir / "model.onnx"
    if not path.is_file():
        raise ModelNotFoundError(f"{path}: no ONNX model found")
    options = ort.SessionOptions()
    options.intra_op_num_threads = _THREADS
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    input_name = session.get_inputs()[0].name

    def run(tensor: np.ndarray) -> np.ndarray:
        return session.run(None, {input_name: tensor})[0]

    return run


def _ultralytics_network(model_dir: Path) -> Network:
    path = model_dir / "model.pt"
    if not path.is_file():
        raise ModelNotFoundError(f"{path}: no PyTorch model found")
    from vision.train import configure_offline

    configure_offline()  # before ultralytics is imported: it would look for the network and write into $HOME
    try:
        import torch
        from ultralytics import YOLO
    except ImportError as exc:
        raise ModelNotFoundError(f"the ultralytics backend needs the train extra (pip install -e .[train]): {exc}") from None
    torch.set_num_threads(_THREADS)
    model = YOLO(str(path)).model.float().fuse(verbose=False).eval()  # shipped weights are FP16

    def run(tensor: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            prediction = model(torch.from_numpy(tensor))
        return (prediction[0] if isinstance(prediction, (list, tuple)) else prediction).numpy()

    run.any_batch = True
    return run


_LOADERS: dict[str, Callable[[Path], Network]] = {
    "openvino": _openvino_network,
    "onnxruntime": _onnxruntime_network,
    "ultralytics": _ultralytics_network,
}
_FILES = {"openvino": "model_openvino", "onnxruntime": "model.onnx", "ultralytics": "model.pt"}
QUANTIZED_FOLDER = "model_openvino_int8"  # a network's INT8 copy beside model_openvino/ (vision.twostage.quantize)


def _network_folders(model_dir: Path) -> list[Path]:
    """The folders holding a model's network files: detector/, classifier/ and any classifier_N/ of a two-stage
    model, else itself."""
    stages = [Path(model_dir) / stage for stage in STAGES]
    if not all(folder.is_dir() for folder in stages):
        return [Path(model_dir)]
    return stages + ensemble_folders(model_dir)


def available_backends(model_dir: Path) -> list[str]:
    """Backends whose model files exist in ``model_dir`` (in both detector/ and classifier/ of a two-stage model),
    fastest first."""
    folders = _network_folders(model_dir)
    return [name for name in BACKENDS if all((folder / _FILES[name]).exists() for folder in folders)]


def choose_backend(model_dir: Path, requested: str = "auto") -> str:
    """``requested``, checked, or for "auto" the fastest backend ``model_dir`` has (both stages, for two-stage)."""
    if requested != "auto":
        if requested not in BACKENDS:
            raise ValueError(f"unknown backend {requested!r}; choose one of auto, {', '.join(BACKENDS)}")
        return requested
    present = available_backends(model_dir)
    if not present:
        two_stage = len(_network_folders(model_dir)) > 1
        what = "detector/ and classifier/ share no model format" if two_stage else f"none of {', '.join(_FILES.values())} is present"
        raise ModelNotFoundError(f"{model_dir}: {what}")
    return present[0]


_LOAD_TRIES = 3  # loads of a model folder that keeps changing under them, before giving up


def model_stamp(model_dir: Path) -> tuple[int, int] | None:
    """Which model the folder holds now: its meta.json's stamp (a swapped-in model has its own meta.json, and
    promote writes it anew); None where there is none."""
    return file_stamp(Path(model_dir) / "meta.json")


def read_meta(model_dir: Path) -> dict:
    """meta.json of a model directory, checked against the class list mjsnap uses."""
    model_dir = Path(model_dir)
    if not model_dir.is_dir():
        raise ModelNotFoundError(
            f"no model directory at {model_dir}; train and ship one (mjsnap train) or pass --model DIR"
        )
    meta_path = model_dir / "meta.json"
    if not meta_path.is_file():
        raise ModelNotFoundError(f"{meta_path} is missing; a model directory needs meta.json with classes and imgsz")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except ValueError as exc:  # not JSON (or not UTF-8): name the file, which json's message does not
        raise ValueError(f"{meta_path} is not JSON: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{meta_path}: a model's meta.json is a JSON object, not {type(meta).__name__}")
    if meta.get("classes") != list(CLASS_NAMES):
        raise ValueError(f"{meta_path}: classes must be the {len(CLASS_NAMES)} names of classes.txt in order")
    if not is_model_imgsz(meta.get("imgsz")):
        raise ValueError(f"{meta_path}: imgsz must be a positive integer multiple of {STRIDE}, got {meta.get('imgsz')!r}")
    return meta


class TileDetector:
    """Load a model once, then ``detect`` photos. ``backend="auto"`` picks the fastest one present.

    ``zoom`` (two-stage models): when the tiles found are small in the photo, the tile detector looks again at the
    region around them (vision.twostage.zoom), so a hand photographed from afar reads as well as a close one.
    ``characters`` (two-stage models with a characters/ folder): a tile the classifier is unsure of that likely shows a
    萬 numeral, wind or dragon is also read by a general Chinese text recognizer (vision.twostage.characters).
    ``level`` (two-stage models): when the rows of tiles slant in the photo, the tiles are classified from a view of
    the hand turned level (vision.twostage.deskew).
    """

    def __init__(
        self,
        model_dir: Path = MODELS_DIR / "current",
        backend: str = "auto",
        conf: float = 0.25,
        iou: float = 0.5,
        zoom: bool = True,
        characters: bool = True,
        level: bool = True,
    ) -> None:
        if not 0 <= conf < 1 or not 0 < iou <= 1:
            raise ValueError(f"conf must be in [0, 1) and iou in (0, 1], got conf={conf} iou={iou}")
        self.model_dir = Path(model_dir)
        self.conf, self.iou = conf, iou
        # `mjsnap promote` and `rollback` swap another model into the folder, maybe while it loads (a batch starting,
        # the app after a promotion): a load the folder changed under is done again, so that meta.json and every
        # network come from one model, never some from each
        for attempt in range(1, _LOAD_TRIES + 1):
            stamp = model_stamp(self.model_dir)
            try:
                self._load(backend, zoom, characters, level)
            except Exception:  # noqa: BLE001 - a folder half swapped fails in many ways; unchanged, it is the error
                if attempt == _LOAD_TRIES or model_stamp(self.model_dir) == stamp:
                    raise
                continue
            if model_stamp(self.model_dir) == stamp:
                return
        raise ModelNotFoundError(f"{self.model_dir} held another model after each of {_LOAD_TRIES} loads: load it "
                                 "again once nothing is swapping models into it")

    def _load(self, backend: str, zoom: bool, characters: bool, level: bool) -> None:
        meta = read_meta(self.model_dir)
        self.version: str = str(meta.get("version", self.model_dir.name))
        self.classes: list[str] = list(meta["classes"])
        self.imgsz: int = meta["imgsz"]
        self._two_stage = None
        if meta.get("design") == DESIGN:  # design (b): tile detector + crop classifier (vision.twostage)
            self._two_stage = TwoStageNetworks(self.model_dir, meta, backend, self.conf, self.iou, zoom, characters,
                                               level)
            self.backend = self._two_stage.backend
            return
        self.backend = choose_backend(self.model_dir, backend)
        self._network = _LOADERS[self.backend](self.model_dir)

    @property
    def stages(self):
        """A two-stage model's networks (vision.twostage.backend.TwoStageNetworks: find_tiles, classify); else None."""
        return self._two_stage

    def raw_output(self, tensor: np.ndarray) -> np.ndarray:
        """The network's head output for a (1, 3, imgsz, imgsz) input, checked against the class count."""
        if self._two_stage is not None:
            raise ValueError(f"{self.model_dir} is a two-stage model: time or call its stages (TileDetector.stages)")
        output = np.asarray(self._network(tensor), dtype=np.float32)
        if output.ndim != 3 or output.shape[1] != 4 + len(self.classes):
            raise ValueError(
                f"{self.model_dir} ({self.backend}): output shape {output.shape} is not (1, {4 + len(self.classes)}, N)"
            )
        return output

    def detect(self, image: np.ndarray | Image.Image | LoadedImage | ImageSource) -> Detections:
        """Tiles in ``image`` (an RGB array, a Pillow image, a loaded image, or a file path / bytes to read).

        Boxes are in pixels of the original photo after EXIF orientation. A file that cannot be read raises
        ``vision.imageio.ImageReadError``.
        """
        loaded = self._as_loaded(image)
        if self._two_stage is not None:
            return self._two_stage.detect(loaded)
        boxed, placement = letterbox(loaded.pixels, self.imgsz)
        boxes, confidence, class_id = decode(self.raw_output(to_tensor(boxed)), self.conf, self.iou)
        to_x, to_y = loaded.to_original
        boxes = (boxes - [placement.pad_x, placement.pad_y, placement.pad_x, placement.pad_y]) / [
            placement.gain_x / to_x,
            placement.gain_y / to_y,
            placement.gain_x / to_x,
            placement.gain_y / to_y,
        ]
        boxes = np.clip(boxes, 0, [loaded.width, loaded.height, loaded.width, loaded.height])
        return Detections(boxes, confidence, class_id)

    @staticmethod
    def _as_loaded(image: np.ndarray | Image.Image | LoadedImage | ImageSource) -> LoadedImage:
        if isinstance(image, LoadedImage):
            return image
        if isinstance(image, np.ndarray):
            return LoadedImage.from_array(image)
        if isinstance(image, Image.Image):
            return from_pil(image)
        return read_image(image)
