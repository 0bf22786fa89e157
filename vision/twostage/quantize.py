"""INT8 copies of a two-stage model's OpenVINO networks: post-training quantization (NNCF), calibrated on what the
reader itself feeds each network while it reads photos.

On a CPU without AVX512-BF16 every network runs in f32, and the tile detector takes a third or more of a photo's time.
Its INT8 copy runs about 1.5x faster on such a CPU (session 32, AMD EPYC, AVX2). The crop classifiers can be
quantized too (`stages`), about 1.5x as well, but they then misread more tiles of sets they never saw, so by default
they stay in float; the text recognizer (characters/) is left as it is (INT8 gained it under 10 %).

`quantize_two_stage` writes a copy of the model directory in which each quantized stage's folders (detector/; the
classifier/ and every classifier_N/ of its ensemble) gain a ``model_openvino_int8/`` beside ``model_openvino/``, and
meta.json names precision "int8" for those stages (vision.twostage.backend.openvino_precision), so every CPU runs
them in INT8. The calibration inputs are the tensors the reader gives each network on the photos: the detector's
letterboxed photos (and its zoomed and levelled views), the classifiers' crops (every look, both ways up), so the
activation ranges are those of real readings. NNCF is in the `train` extra; reading an INT8 model needs OpenVINO only.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from vision.detector import QUANTIZED_FOLDER
from vision.twostage.backend import DESIGN, STAGES, stage_folders

# The classifiers stay in float unless asked: in INT8 they read crops of a set they never saw worse (hold-out proxy,
# session 32: ffalt 336 tile errors against 276), for about 1.5x on a third of a photo's time
DEFAULT_STAGES = ("detector",)
MAX_SAMPLES = 600  # calibration inputs per network: NNCF's default is 300; 600 crops cover every class many times


def quantize_two_stage(
    model_dir: Path,
    out: Path,
    photos: Sequence[Path],
    *,
    stages: Sequence[str] = DEFAULT_STAGES,
    max_samples: int = MAX_SAMPLES,
    version: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Write `out`: a copy of the two-stage `model_dir` whose `stages` run in INT8, calibrated on `photos`, as model
    `version` (default: the base's version + "+int8"; the registry tells models apart by version).

    `out` must not exist; it appears only once every network is quantized. `progress(done, total)` is called after
    each photo is read."""
    try:
        import nncf
    except ImportError:
        raise ImportError("quantizing needs NNCF: install the train extra (pip install -e '.[train]')") from None
    import openvino as ov

    from vision.detector import TileDetector, read_meta
    from vision.imageio import read_image

    model_dir, out = Path(model_dir), Path(out)
    meta = read_meta(model_dir)
    if meta.get("design") != DESIGN:
        raise ValueError(f"{model_dir} is not a two-stage model (meta design {meta.get('design')!r})")
    unknown = [stage for stage in stages if stage not in STAGES]
    if unknown or not stages:
        raise ValueError(f"stages must be some of {', '.join(STAGES)}, not {', '.join(stages) or 'none'}")
    if out.exists():
        raise FileExistsError(f"{out} already exists; name a new folder")
    if not photos:
        raise ValueError("no calibration photos: give a folder of photos like those the model will read")
    if max_samples < 1:
        raise ValueError(f"max_samples must be at least 1, not {max_samples}")

    reader = TileDetector(model_dir, backend="openvino")
    networks = reader.stages
    folders = stage_folders(meta)
    seen = {folder: Reservoir(max_samples, seed) for seed, folder in
            enumerate(folder for stage in stages for folder in folders[stage])}
    if "detector" in seen:
        networks._detector = _recording(networks._detector, seen["detector"], per_row=False)
    networks._classifiers = [
        _recording(network, seen[folder], per_row=True) if folder in seen else network
        for folder, network in zip(folders["classifier"], networks._classifiers)
    ]
    for done, photo in enumerate(photos, start=1):
        reader.detect(read_image(photo))
        if progress:
            progress(done, len(photos))

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out.name}-", dir=out.parent) as tmp:
        staged = Path(tmp) / out.name
        shutil.copytree(model_dir, staged)
        core = ov.Core()
        samples = {}
        for folder, reservoir in seen.items():
            inputs = reservoir.items
            if not inputs:
                raise ValueError(f"the photos gave {folder}/ nothing to read (no tiles found?); give photos of hands")
            model = core.read_model(next((staged / folder / "model_openvino").glob("*.xml")))
            if folder != "detector":  # a classifier reads 1 to batch crops at a time (vision.detector)
                model.reshape({model.inputs[0]: ov.PartialShape([ov.Dimension(1, meta["classifier"]["batch"]),
                                                                 *inputs[0].shape[1:]])})
            quantized = nncf.quantize(model, nncf.Dataset(inputs), subset_size=len(inputs),
                                      **_nncf_settings(nncf, model, classifier=folder != "detector"))
            ov.save_model(quantized, staged / folder / QUANTIZED_FOLDER / "model.xml", compress_to_fp16=False)
            samples[folder] = len(inputs)
        for stage in stages:
            meta[stage]["openvino_precision"] = "int8"
            meta[stage].setdefault("files", {})["openvino_int8"] = QUANTIZED_FOLDER
        earlier = {"before": meta["quantized"]} if "quantized" in meta else {}  # a base's own INT8 networks stay told
        meta["quantized"] = {"tool": f"nncf {nncf.__version__}", "from": str(meta.get("version")),
                             "photos": len(photos), "samples": samples, **earlier}
        meta["version"] = version or f"{meta.get('version')}+int8"
        (staged / "meta.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        staged.rename(out)
    return out


def _nncf_settings(nncf, model, classifier: bool) -> dict:
    """NNCF's settings for one network (session 32, work/s32 notes in benchmarks/results/candidate_0.18.7/).

    The overflow fix on every layer quantizes weights to 7 bits: on a CPU without VNNI (AVX2), products of 8-bit
    weights and activations overflow OpenVINO's 16-bit sums (with NNCF's default, the fix on the first layer only, the
    shipped classifier kept its best class on 65 % of cmd val's crops), and with it every CPU computes the same
    numbers. Activations are quantized asymmetrically (MIXED: a network's activations are not centred on 0). The
    tile detector's head (its box and score branches, the box decoding and the sigmoid) stays in float, as
    ultralytics' own INT8 export keeps it: quantized, boxes moved (mean IoU with f32's 0.915, 0.979 with the head in
    float, on cmd val at conf 0.25) and the classifiers, reading crops cut from them, misread more. A classifier's
    biases are corrected on the whole calibration set rather than NNCF's fast estimate (98.7 % of crops kept their
    best class against 98.2 %). A classifier's first layer and its head (convolution, pooling, linear layer,
    softmax) stay in float: quantized whole, a classifier that never saw a tile set misread more of its faint faces
    (hold-out proxy, ffalt: 336 tile errors against 276 in float); with those two in float, 259 against 267, at about
    1.5x f32's speed. It still read real photos of a set it never saw worse (proxy cmd 551 against 519), so the
    classifiers stay in float unless asked (session 34, benchmarks/results/speed_s34/)."""
    from nncf.quantization.advanced_parameters import AdvancedQuantizationParameters, OverflowFix

    settings = {"preset": nncf.QuantizationPreset.MIXED,
                "advanced_parameters": AdvancedQuantizationParameters(overflow_fix=OverflowFix.ENABLE)}
    operations = model.get_ordered_ops()
    if classifier:
        softmaxes = [op.get_friendly_name() for op in operations if op.get_type_name() == "Softmax"]
        head = softmaxes[-1].split("/", 1)[0]  # the Classify module, e.g. __module.model.10 (not its attention's)
        first = head.rsplit(".", 1)[0] + ".0."  # its first layer, __module.model.0.conv
        return settings | {"fast_bias_correction": False, "ignored_scope": nncf.IgnoredScope(names=[
            op.get_friendly_name() for op in operations
            if op.get_friendly_name().startswith((first, f"{head}/", f"{head}."))])}
    sigmoids = [op.get_friendly_name() for op in operations if op.get_type_name() == "Sigmoid"]
    head = sigmoids[-1].split("/", 1)[0]  # the Detect module, e.g. __module.model.23
    return settings | {"ignored_scope": nncf.IgnoredScope(names=[
        op.get_friendly_name() for op in operations
        if op.get_type_name() == "Sigmoid" or op.get_friendly_name().startswith((f"{head}/", f"{head}.dfl"))])}


class Reservoir:
    """A uniform random sample of at most `size` of the items offered (reservoir sampling, seeded): a folder of
    thousands of photos is calibrated on in bounded memory."""

    def __init__(self, size: int, seed: int) -> None:
        self.size, self.items, self.offered = size, [], 0
        self._random = random.Random(seed)

    def offer(self, item: np.ndarray) -> None:
        self.offered += 1
        if len(self.items) < self.size:
            self.items.append(item)
        elif (slot := self._random.randrange(self.offered)) < self.size:
            self.items[slot] = item


def _recording(network: Callable[[np.ndarray], np.ndarray], into: Reservoir, per_row: bool):
    """`network`, offering a copy of each input it is given to `into` (each row on its own when `per_row`)."""
    def run(tensor: np.ndarray) -> np.ndarray:
        for row in (tensor[i:i + 1] for i in range(len(tensor))) if per_row else [tensor]:
            into.offer(np.array(row))
        return network(tensor)

    run.__dict__.update(network.__dict__)  # any_batch
    return run
