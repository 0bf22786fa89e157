"""Turn the PyPI package mahjong-detector's ONNX model into a YOLO11n `.pt` usable as `pretrained=` for training.

mahjong-detector (MIT) ships `model.onnx`, a YOLO11n for 34 tile classes exported by ultralytics with its batch-norm
layers fused into the convolutions. Its initializer names match ultralytics' layer names, so the weights go into a
34-class YOLO11n built from `yolo11n.yaml`: each fused conv keeps its weight, its bias becomes the batch-norm bias and
the batch norm is made an identity (scale 1, mean 0, variance 1 - eps). The result reproduces the package's outputs
(checked by `verify_reproduction`), and a 36-class run started from it inherits everything but the class head.
"""

from __future__ import annotations

import importlib.util
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

N_SOURCE_CLASSES = 34


def source_onnx_path() -> Path:
    """The model.onnx inside the installed mahjong-detector package."""
    spec = importlib.util.find_spec("mahjong_detector")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("the mahjong-detector package is not installed (pip install mahjong-detector)")
    path = Path(spec.origin).parent / "model.onnx"
    if not path.is_file():
        raise FileNotFoundError(f"{path} is missing from the mahjong-detector package")
    return path


def source_class_names() -> list[str]:
    """mahjong-detector's 34 class names in its output order (Japanese honour names: tou nan sha pe haku hatsu chun)."""
    from mahjong_detector.predict import CLASS_NAMES

    return list(CLASS_NAMES)


def _onnx_weights(onnx_path: Path) -> dict[str, np.ndarray]:
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    return {init.name: numpy_helper.to_array(init) for init in graph.initializer if init.name.startswith("model.")}


def build_source_model(onnx_path: Path | None = None):
    """A 34-class ultralytics DetectionModel holding mahjong-detector's weights (unfused, identity batch norms)."""
    import torch
    from ultralytics.nn.tasks import DetectionModel

    weights = _onnx_weights(onnx_path or source_onnx_path())
    model = DetectionModel("yolo11n.yaml", nc=N_SOURCE_CLASSES, verbose=False)
    state = model.state_dict()
    modules = dict(model.named_modules())
    loaded: set[str] = set()
    for name, array in weights.items():
        tensor = torch.from_numpy(array.copy()).float()
        prefix, _, leaf = name.rpartition(".")
        if prefix.endswith(".conv") and prefix[: -len(".conv")] + ".bn" in modules:
            # A fused Conv+BN: weight -> conv, bias -> bn.bias with an identity batch norm.
            block = prefix[: -len(".conv")]
            if leaf == "weight":
                _assign(state, f"{block}.conv.weight", tensor, loaded)
            else:
                bn = modules[f"{block}.bn"]
                _assign(state, f"{block}.bn.bias", tensor, loaded)
                _assign(state, f"{block}.bn.weight", torch.ones_like(tensor), loaded)
                _assign(state, f"{block}.bn.running_mean", torch.zeros_like(tensor), loaded)
                _assign(state, f"{block}.bn.running_var", torch.full_like(tensor, 1.0 - bn.eps), loaded)
        else:
            _assign(state, name, tensor, loaded)
    missing = [k for k in state if k not in loaded and not k.endswith("num_batches_tracked")]
    if missing:
        raise ValueError(f"mahjong-detector's ONNX does not cover {len(missing)} tensors, e.g. {missing[:5]}")
    model.load_state_dict(state)
    model.names = dict(enumerate(source_class_names()))
    return model.eval()


def _assign(state: dict, key: str, tensor, loaded: set[str]) -> None:
    if key not in state:
        raise KeyError(f"ONNX tensor {key!r} has no counterpart in yolo11n.yaml")
    if tuple(state[key].shape) != tuple(tensor.shape):
        raise ValueError(f"{key}: ONNX shape {tuple(tensor.shape)} != model shape {tuple(state[key].shape)}")
    state[key] = tensor
    loaded.add(key)


def package_input(image) -> np.ndarray:
    """The package's own preprocessing (grayscale, autocontrast, letterbox to 640) as a 1x3x640x640 float array."""
    from mahjong_detector.predict import create_input_tensor
    from mahjong_detector.preprocess import preprocess_image

    padded, _ = preprocess_image(image)
    return create_input_tensor(padded)


def verify_reproduction(model, image, onnx_path: Path | None = None) -> float:
    """Largest absolute difference between the ONNX output and the rebuilt model on one image (class scores and boxes)."""
    import onnxruntime as ort
    import torch

    batch = package_input(image)
    session = ort.InferenceSession(str(onnx_path or source_onnx_path()), providers=["CPUExecutionProvider"])
    expected = session.run(None, {session.get_inputs()[0].name: batch})[0]
    with torch.no_grad():
        got = model(torch.from_numpy(batch))
    got = (got[0] if isinstance(got, (list, tuple)) else got).numpy()
    if got.shape != expected.shape:
        raise ValueError(f"output shape {got.shape} != ONNX output shape {expected.shape}")
    return float(np.abs(got - expected).max())


def save_checkpoint(model, path: Path) -> Path:
    """Save in ultralytics' checkpoint layout so `pretrained=path` and `YOLO(path)` accept it."""
    import ultralytics
    import torch

    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(
        {
            "model": model,
            "train_args": {},
            "date": datetime.now(timezone.utc).isoformat(),
            "version": ultralytics.__version__,
            "source": f"mahjong-detector model.onnx ({source_onnx_path().name}), converted by vision.pretrained",
        },
        path,
    )
    return path


def build_pretrained_checkpoint(out: Path, check_image: Path | None = None, tolerance: float = 1e-2) -> tuple[Path, float | None]:
    """Build and save the 34-class start; when check_image is given, fail unless the ONNX outputs are reproduced."""
    from PIL import Image

    model = build_source_model()
    diff = None
    if check_image is not None:
        diff = verify_reproduction(model, Image.open(check_image))
        if diff > tolerance:
            raise ValueError(f"rebuilt model differs from mahjong-detector's ONNX by {diff:.4g} (> {tolerance})")
    return save_checkpoint(model, out), diff
