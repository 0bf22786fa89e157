"""A second opinion on tiles whose face is a Chinese character, from a text recognizer that has read millions of lines.

Our crop classifier learnt tile faces from a handful of tile sets, so a set whose 萬 numerals, winds or dragons are
drawn in another hand is where it fails (2m read as 3m, N as E: benchmarks/unseen_sets.py). A general Chinese text
recognizer has seen those characters in every typeface and handwriting, and no mahjong tile set at all. It reads:

    1m-9m  the numeral above 萬: 一 二 三 四 五 六 七 八 九
    E S W N C F  東/东 南 西 北 中 發/发
    P      a framed 白, whose frame it reads as 回 or 口 (a blank 白 reads as nothing)

The recognizer is PaddleOCR's PP-OCRv4 Chinese text-line model (Apache-2.0), as ONNX in a model directory's
characters/ folder with its dictionary in the model's metadata (see that folder's NOTICE.md). It is consulted only on
tiles the classifier is unsure of (best class under ``gate``) that are likely characters (at least ``kind_mass`` of
their probability on the 15 character classes), and with ``decisive_only`` only where some reading could change the
best class, so a familiar set costs little. Its score for each reading
re-weighs the classifier's probabilities among those 16 classes, and their total is kept: the recognizer decides
which character (or 白) and moves no probability to or from the other classes.

A tile lies either way up and the recognizer reads horizontal lines, so each crop is read both ways up, whole (the
winds and dragons fill the face) and, for the numeral above 萬, as ``numeral_view`` says: in two bands across its top
("bands", six lines in all), or with the face's upper part (the numeral) set beside its lower part (萬) in one line
read as a word, "二萬" ("beside", four lines, two of them twice as wide). A character's score is its best
per-position probability over the lines.

The 萬 check (``wan_doubt`` > 0) asks a different question, whatever the numeral: is there a 萬 (or 万) on the lower
half? Every 萬 tile carries one and no other tile does, in any set. On the ground-truth crops of three sets the
recognizer sees it (score >= 0.1) on 89 % of cmd's real 萬 tiles and 71 / 79 % of gleitz's / ffalt's generated ones,
and on under 2 % of the other tiles (0 % of the generated; session 30, work notes in benchmarks/results/wan_check.md).
So a tile the classifier doubts is a 萬 tile (their total between wan_doubt and 1 - wan_doubt) moves toward the 萬
classes when 萬 is seen and away from them when it is not, which undoes the classifier's favourite mistake on an
unseen set: a bird (1s) or a flower read as 9m.

The flower check (``flower_doubt`` > 0) asks the same of a flower tile's name (春 夏 秋 冬 梅 蘭 竹 菊): seen, the tile
is a flower. Not seeing one proves nothing (a name is read on 20-48 % of flowers), so only a name seen moves
probability, toward `flower` (benchmarks/results/candidate_0.18.5/flower_seen.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scoring.tiles import CLASS_NAMES

CHARACTERS = {
    **{f"{n}m": numeral for n, numeral in enumerate("一二三四五六七八九", start=1)},
    "E": "東东", "S": "南", "W": "西", "N": "北", "C": "中", "F": "發发",
}
CHARACTER_CLASSES = np.array([CLASS_NAMES.index(name) for name in CHARACTERS])
# A framed 白 reads as 回 or 口 (double or single frame), a blank one as nothing. So 白 is re-weighed with the
# characters (a framed 白 the classifier took for 西 gets its name back) but does not make the recognizer be asked.
READINGS = {**CHARACTERS, "P": "回口"}
READ_CLASSES = np.array([CLASS_NAMES.index(name) for name in READINGS])
WAN_CLASSES = np.array([CLASS_NAMES.index(f"{n}m") for n in range(1, 10)])
FLOWER_CLASSES = np.array([CLASS_NAMES.index("flower")])


@dataclass(frozen=True, eq=False)  # eq=False: one object per mark, compared by identity (classes is an array)
class Mark:
    """Characters that tiles of some classes carry and no other tile does, and the bands of the face they lie in."""

    characters: str
    classes: np.ndarray
    bands: tuple[tuple[float, float], ...]


CROP_SIZE = 128  # the recognizer reads 48 px high lines; a numeral band of a 64 px crop is 17 px
WHOLE_FACE = (0.03, 0.97)
# two bands: a third (0.12-0.36) read 0.1-0.2 points more tiles on the proxy for a third more time (session 11)
NUMERAL_BANDS = ((0.08, 0.35), (0.05, 0.40))
COLUMNS = (0.08, 0.92)
INPUT_HEIGHT, INPUT_WIDTH = 48, 64
# The numeral beside its 萬: the face's upper part (the numeral) and lower part (萬) cut at BESIDE_SPLIT and set side by
# side, so the recognizer reads a two-character word ("二萬") at its own proportions. A numeral alone in a band, squashed
# to 64 px, is often read as nothing: on ground-truth crops of cmd's real 萬 tiles the bands name the numeral on 37 %,
# this line on 71 % (session 33, benchmarks/results/candidate_0.18.8/)
BESIDE_SPLIT, BESIDE_ROWS, BESIDE_COLUMNS, BESIDE_WIDTH = 0.45, (0.05, 0.95), (0.10, 0.90), 128
NUMERAL_VIEWS = ("bands", "beside")
FILE = "model.onnx"

# 萬 (or 万) below the numeral on every 萬 tile
WAN = Mark("萬万", WAN_CLASSES, ((0.45, 0.95), (0.40, 0.90), (0.50, 0.97)))
# a flower tile's name, in a corner or across the face: read on 42 / 20 / 48 % of cmd's / gleitz's / ffalt's flowers,
# on 0-2 % of their birds (1s) and 0.3 % of other tiles (session 30, benchmarks/results/candidate_0.18.5/flower_seen.md)
FLOWER = Mark("春夏秋冬梅蘭兰竹菊", FLOWER_CLASSES, (WHOLE_FACE, *NUMERAL_BANDS, (0.60, 0.95), (0.0, 0.30)))


@dataclass(frozen=True)
class CharacterSettings:
    """When the recognizer is asked and how much it weighs (meta.json "characters"; defaults measured in session 11)."""

    gate: float = 0.8  # asked when the classifier's best class is under this
    kind_mass: float = 0.3  # ... and at least this much of its probability is on the 15 character classes
    # a character the recognizer does not see at all keeps this weight; 0.005 and 0.002 read two unseen sets of
    # three better and one worse, by about 2 % (benchmarks/results/character_floor.md)
    floor: float = 0.02
    # true: asked only when some reading could change the tile's best class (`could_change_best`), so the
    # recognizer's time goes where it can matter and the gate can be high (benchmarks/results/character_gate.md)
    decisive_only: bool = False
    # OpenVINO on a CPU with AVX512-BF16: "bf16" reads a line in about 0.6 of f32's time (benchmarks/results/
    # recognizer_precision.md); other CPUs and ONNX Runtime run f32
    openvino_precision: str = "f32"
    # how the numeral above 萬 is read besides the whole face: "bands" (NUMERAL_BANDS, each squashed to a 64 px line)
    # or "beside" (the numeral set beside its 萬 in one 128 px line, as many pixels as the two bands)
    numeral_view: str = "bands"
    # The 萬 check (off at 0): a tile with between wan_doubt and 1 - wan_doubt of its probability on 1m-9m is read
    # for 萬 on its lower half. Seen (score >= mark_seen), every other class is weighed by wan_against; not seen, the
    # nine 萬 classes are weighed by wan_missing (萬 is read on 70-90 % of 萬 tiles, on under 2 % of the others)
    wan_doubt: float = 0.0
    wan_against: float = 0.05
    wan_missing: float = 0.3
    # The flower check (off at 0), the same for a flower tile's name; seen, it is a flower. Not seen says little
    # (a name is read on only 20-48 % of flowers), so nothing moves then
    flower_doubt: float = 0.0
    flower_against: float = 0.05
    mark_seen: float = 0.1

    def __post_init__(self) -> None:
        if not 0 < self.gate <= 1 or not 0 <= self.kind_mass <= 1 or not 0 < self.floor <= 1:
            raise ValueError(f"characters: gate in (0, 1], kind_mass in [0, 1], floor in (0, 1]; got {self}")
        if not 0 <= self.wan_doubt < 0.5 or not 0 <= self.flower_doubt < 0.5 or not all(
                0 < value <= 1 for value in (self.mark_seen, self.wan_against, self.wan_missing, self.flower_against)):
            raise ValueError("characters: wan_doubt and flower_doubt in [0, 0.5), mark_seen, wan_against, wan_missing "
                             f"and flower_against in (0, 1]; got {self}")
        if not isinstance(self.decisive_only, bool):
            raise ValueError(f"characters: decisive_only must be true or false, not {self.decisive_only!r}")
        if self.numeral_view not in NUMERAL_VIEWS:
            raise ValueError(f"characters: numeral_view must be one of {', '.join(NUMERAL_VIEWS)}, not {self.numeral_view!r}")
        from vision.detector import OPENVINO_PRECISIONS  # vision.detector imports this module

        if self.openvino_precision not in OPENVINO_PRECISIONS:
            raise ValueError(f"characters: openvino_precision must be one of {', '.join(OPENVINO_PRECISIONS)}, "
                             f"not {self.openvino_precision!r}")


def needs_reading(probs: np.ndarray, settings: CharacterSettings) -> np.ndarray:
    """(N,) which tiles of (N, 36) probabilities the recognizer is asked about."""
    probs = np.asarray(probs, np.float32)
    if not len(probs):
        return np.zeros(0, bool)
    asked = (probs.max(1) < settings.gate) & (probs[:, CHARACTER_CLASSES].sum(1) >= settings.kind_mass)
    if settings.decisive_only:
        asked &= could_change_best(probs, settings.floor)
    return asked


def could_change_best(probs: np.ndarray, floor: float) -> np.ndarray:
    """(N,) whether some scores in [0, 1] would make `weigh` give a tile of (N, 36) probabilities another best class.

    `weigh` keeps the 16 read classes' total T and shares it by p * (floor + score). So the best class b can lose
    only (a) to a read class c that scoring 1 against b's 0 lifts past it, p_c (1 + floor) > p_b floor, when b is read;
    (b) to an unread class d once b's share is cut as far as it goes (b scores 0, every other read class 1); or
    (c) when b is unread, to a read class given the largest share it can get (it scores 1, the others 0)."""
    probs = np.asarray(probs, np.float64)
    n = len(probs)
    if not n:
        return np.zeros(0, bool)
    rows = np.arange(n)
    best = probs.argmax(1)
    p_best = probs[rows, best]
    read = probs[:, READ_CLASSES]
    total = read.sum(1)
    is_read = np.isin(best, READ_CLASSES)
    unread = probs.copy()
    unread[:, READ_CLASSES] = 0
    unread[rows, best] = 0
    others_read = read.copy()
    others_read[READ_CLASSES[None, :] == best[:, None]] = 0
    lifted = others_read.max(1) * (1 + floor) >= p_best * floor  # (a); a tie counts as a change: asked
    cut = p_best * floor
    lowest_best = np.divide(total * cut, cut + (total - p_best) * (1 + floor), out=np.zeros(n), where=cut > 0)
    overtaken = unread.max(1) >= lowest_best  # (b)
    top = read * (1 + floor)
    largest = np.divide(total[:, None] * top, top + (total[:, None] - read) * floor,
                        out=np.zeros_like(read), where=top > 0).max(1)
    return np.where(is_read, lifted | overtaken, largest >= p_best)  # (c)


def weigh(probs: np.ndarray, scores: np.ndarray, floor: float) -> np.ndarray:
    """(N, 36) probabilities with the 16 classes of READINGS re-weighed by the recognizer's (N, 16) scores."""
    probs = np.array(probs, np.float32)
    if scores.shape != (len(probs), len(READ_CLASSES)):
        raise ValueError(f"scores {scores.shape} is not ({len(probs)}, {len(READ_CLASSES)})")
    mass = probs[:, READ_CLASSES].sum(1, keepdims=True)
    weighed = probs[:, READ_CLASSES] * (floor + np.clip(scores, 0, 1))
    total = weighed.sum(1, keepdims=True)
    shares = np.divide(weighed, total, out=np.zeros_like(weighed), where=total > 0)
    probs[:, READ_CLASSES] = np.where(total > 0, shares * mass, probs[:, READ_CLASSES])
    return probs


def mark_checks(settings: CharacterSettings) -> list[tuple[Mark, float, float, float]]:
    """The checks switched on: (mark, doubt band, weight of the other classes when seen, of its classes when not)."""
    checks = [(WAN, settings.wan_doubt, settings.wan_against, settings.wan_missing),
              (FLOWER, settings.flower_doubt, settings.flower_against, 1.0)]
    return [check for check in checks if check[1] > 0]


def in_doubt(probs: np.ndarray, classes: np.ndarray, band: float) -> np.ndarray:
    """(N,) the tiles of (N, 36) probabilities with between band and 1 - band of their probability on `classes`."""
    if band <= 0 or not len(probs):
        return np.zeros(len(probs), bool)
    mass = np.asarray(probs, np.float32)[:, classes].sum(1)
    return (mass >= band) & (mass <= 1 - band)


def weigh_seen(probs: np.ndarray, seen: np.ndarray, classes: np.ndarray, against: float, missing: float) -> np.ndarray:
    """(N, 36) probabilities, their total kept, where a mark of `classes` was seen (N,) or not: seen, every other
    class is weighed by `against`; not seen, `classes` are weighed by `missing`."""
    probs = np.array(probs, np.float32)
    seen = np.asarray(seen, bool)
    weights = np.ones_like(probs)
    weights[seen] = against
    weights[np.ix_(seen, classes)] = 1
    weights[np.ix_(~seen, classes)] = missing
    weighed = probs * weights
    return weighed * (probs.sum(1, keepdims=True) / weighed.sum(1, keepdims=True))


def views(crop: np.ndarray, bands=(WHOLE_FACE, *NUMERAL_BANDS)) -> list[np.ndarray]:
    """The lines the recognizer reads from one square upright crop, both ways up: by default the whole face and the
    numeral bands."""
    size = crop.shape[0]
    left, right = (int(round(f * size)) for f in COLUMNS)
    lines = []
    for turned in (crop, crop[::-1, ::-1]):
        for top, bottom in bands:
            lines.append(np.ascontiguousarray(turned[int(round(top * size)) : int(round(bottom * size)), left:right]))
    return lines


def beside_views(crop: np.ndarray) -> list[np.ndarray]:
    """The numeral-beside-萬 line of one square upright crop, both ways up (see BESIDE_SPLIT)."""
    size = crop.shape[0]
    left, right = (int(round(f * size)) for f in BESIDE_COLUMNS)
    top, split, bottom = (int(round(f * size)) for f in (BESIDE_ROWS[0], BESIDE_SPLIT, BESIDE_ROWS[1]))
    height = min(split - top, bottom - split)
    return [np.concatenate([turned[top : top + height, left:right], turned[split : split + height, left:right]], 1)
            for turned in (crop, crop[::-1, ::-1])]


def squashed(line: np.ndarray) -> np.ndarray:
    """A view resized to the recognizer's 48 x 64 input, whatever its proportions (the bands' way since session 11)."""
    import cv2

    return cv2.resize(line, (INPUT_WIDTH, INPUT_HEIGHT), interpolation=cv2.INTER_AREA)


def fitted(line: np.ndarray, width: int = BESIDE_WIDTH) -> np.ndarray:
    """A view resized to 48 px high at its own proportions (at most ``width`` wide) and padded on the right to
    ``width`` with its median colour, as PP-OCR pads a text line."""
    import cv2

    height, length = line.shape[:2]
    length = max(1, min(width, int(round(length * INPUT_HEIGHT / height))))
    resized = cv2.resize(line, (length, INPUT_HEIGHT), interpolation=cv2.INTER_AREA)
    padded = np.empty((INPUT_HEIGHT, width, 3), np.uint8)
    padded[:] = np.median(resized.reshape(-1, 3), 0)
    padded[:, :length] = resized
    return padded


def _onnxruntime(path: Path, threads: int, precision: str = "f32"):
    """ONNX Runtime (f32 whatever is asked): the function that runs a batch of lines, and the model's dictionary."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    dictionary = session.get_modelmeta().custom_metadata_map.get("character")
    return (lambda tensor: session.run(None, {name: tensor})[0]), dictionary


def _openvino(path: Path, threads: int, precision: str = "f32"):
    """OpenVINO (0.8 ms a line against ONNX Runtime's 1.3, session 11, 2 cores): the same, from one read of the file.
    bf16 only where the CPU has it (else f32), as vision.detector's networks."""
    import openvino as ov

    from vision.detector import openvino_config, openvino_runner  # vision.detector imports this module

    core = ov.Core()
    model = core.read_model(str(path))
    key = ["framework", "character"]  # ONNX metadata lands in the model's runtime info
    dictionary = model.get_rt_info(key).astype(str) if model.has_rt_info(key) else None
    model.reshape({model.inputs[0]: ov.PartialShape([-1, 3, INPUT_HEIGHT, -1])})  # lines of 64 and 128 px
    return openvino_runner(core.compile_model(model, "CPU", openvino_config(core, precision, threads))), dictionary


RUNTIMES = {"openvino": _openvino, "onnxruntime": _onnxruntime}


class CharacterReader:
    """The recognizer of a model directory's characters/ folder; ``scores`` of square crops for the 16 READINGS."""

    def __init__(self, folder: Path, backend: str = "openvino", threads: int | None = None,
                 precision: str = "f32", numeral_view: str = "bands") -> None:
        if numeral_view not in NUMERAL_VIEWS:
            raise ValueError(f"numeral view {numeral_view!r} is not one of {', '.join(NUMERAL_VIEWS)}")
        path = Path(folder) / FILE
        if not path.is_file():
            raise FileNotFoundError(f"{path}: the character recognizer is missing")
        if backend not in RUNTIMES:
            raise ValueError(f"character recognizer backend {backend!r} is not one of {', '.join(RUNTIMES)}")
        from vision.detector import OPENVINO_PRECISIONS

        if precision not in OPENVINO_PRECISIONS:
            raise ValueError(f"character recognizer precision {precision!r} is not one of {', '.join(OPENVINO_PRECISIONS)}")
        self.backend, self.numeral_view = backend, numeral_view
        self._run, dictionary = RUNTIMES[backend](path, threads or os.cpu_count() or 1, precision)
        if not dictionary:
            raise ValueError(f"{path}: no 'character' dictionary in the model's metadata (a PP-OCR rec export has one)")
        index = {char: i + 1 for i, char in enumerate(dictionary.splitlines())}  # 0 is CTC's blank
        missing = [char for chars in READINGS.values() for char in chars[:1] if char not in index]
        if missing:
            raise ValueError(f"{path}: its dictionary lacks {''.join(missing)}")
        def columns(chars: str) -> list[int]:  # the dictionary's columns of those of chars it has
            return [index[c] for c in chars if c in index]

        self._columns = [columns(chars) for chars in READINGS.values()]
        self._marks = {mark: columns(mark.characters) for mark in (WAN, FLOWER)}

    def scores(self, crops: np.ndarray) -> np.ndarray:
        """(N, 16) how surely each (N, S, S, 3) RGB crop shows each reading, 0-1, in READINGS order."""
        if not len(crops):
            return np.zeros((0, len(READINGS)), np.float32)
        if self.numeral_view == "bands":
            peaks = self._peaks(crops, (WHOLE_FACE, *NUMERAL_BANDS))
        else:
            beside = self._best([fitted(line) for crop in crops for line in beside_views(crop)], len(crops))
            peaks = np.maximum(self._peaks(crops, (WHOLE_FACE,)), beside)
        return np.stack([peaks[:, columns].max(1) for columns in self._columns], 1)

    def mark_scores(self, crops: np.ndarray, mark: Mark) -> np.ndarray:
        """(N,) how surely each (N, S, S, 3) RGB crop shows one of the mark's characters in its bands, 0-1."""
        if not len(crops):
            return np.zeros(0, np.float32)
        return self._peaks(crops, mark.bands)[:, self._marks[mark]].max(1)

    def _peaks(self, crops: np.ndarray, bands) -> np.ndarray:
        """(N, dictionary) each character's best probability at any position of any of the crops' band lines."""
        return self._best([squashed(view) for crop in crops for view in views(crop, bands)], len(crops))

    def _best(self, lines: list[np.ndarray], crops: int) -> np.ndarray:
        """(crops, dictionary) each character's best probability at any position of any line, the lines of each crop
        together and in order (all of one width)."""
        tensor = (np.stack(lines).astype(np.float32) / 127.5 - 1).transpose(0, 3, 1, 2)  # PP-OCR's (x - 0.5) / 0.5
        output = np.asarray(self._run(np.ascontiguousarray(tensor)), np.float32)
        return output.max(1).reshape(crops, -1, output.shape[-1]).max(1)  # best position, best view
