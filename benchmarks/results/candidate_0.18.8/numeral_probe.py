"""The text recognizer alone on ground-truth crops of character tiles, with each numeral view.

For each set, the reader's 128 px crops (vision.twostage.characters.CROP_SIZE, margin 0.06) of the labelled boxes of
1m-9m and E S W N C F in its val photos (at most LIMIT tiles), scored by the shipped recognizer
(CharacterReader.scores) with numeral_view "bands" and "beside". Reported: on 萬 tiles, how often the best of the
nine numerals is the true one and scores at least 0.1 (named) or is another (misnamed); on wind and dragon tiles, the
same among the six, and how often a numeral outscores them at 0.1 or more. Writes numeral_probe.md beside this script.

    .venv/bin/python benchmarks/results/candidate_0.18.8/numeral_probe.py [LIMIT]
"""
import sys
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.evaluate import labelled_images  # noqa: E402
from vision.imageio import read_image  # noqa: E402
from vision.twostage.characters import CROP_SIZE, NUMERAL_VIEWS, READINGS, CharacterReader  # noqa: E402
from vision.twostage.crops import cut_tile  # noqa: E402

SETS = {"cmd val (real photos)": REPO / "datasets/cmd.yaml", "gleitz (generated)": REPO / "work/s24/synth_gleitz/data.yaml",
        "ffalt (generated)": REPO / "work/s24/synth_ffalt/data.yaml"}
NUMERALS = [f"{n}m" for n in range(1, 10)]
HONOURS = ["E", "S", "W", "N", "C", "F"]
COLUMN = {name: i for i, name in enumerate(READINGS)}


def crops_of(data: Path, limit: int) -> tuple[np.ndarray, np.ndarray]:
    crops, labels = [], []
    for item in labelled_images(data, "val"):
        loaded = read_image(item.path)
        to_x, to_y = loaded.to_original
        for box, class_id in zip(item.xyxy, item.class_id):
            if CLASS_NAMES[class_id] in NUMERALS + HONOURS:
                crops.append(cut_tile(loaded.pixels, (box / [to_x, to_y, to_x, to_y]).astype(np.float32), CROP_SIZE, 0.06))
                labels.append(CLASS_NAMES[class_id])
        if len(crops) >= limit:
            break
    return np.stack(crops), np.array(labels)


def named(scores: np.ndarray, labels: np.ndarray, kinds: list[str]) -> tuple[float, float]:
    among = scores[:, [COLUMN[k] for k in kinds]]
    best, sure = np.array(kinds)[among.argmax(1)], among.max(1) >= 0.1
    return float(((best == labels) & sure).mean()), float(((best != labels) & sure).mean())


def main(limit: int) -> str:
    readers = {view: CharacterReader(REPO / "models/current/characters", numeral_view=view) for view in NUMERAL_VIEWS}
    rows = []
    for name, data in SETS.items():
        crops, labels = crops_of(data, limit)
        wan = np.isin(labels, NUMERALS)
        for view, reader in readers.items():
            scores = np.concatenate([reader.scores(crops[i : i + 32]) for i in range(0, len(crops), 32)])
            wan_named, wan_misnamed = named(scores[wan], labels[wan], NUMERALS)
            honour_named, honour_misnamed = named(scores[~wan], labels[~wan], HONOURS)
            honours = scores[~wan]
            numeral_over = (honours[:, [COLUMN[k] for k in NUMERALS]].max(1)
                            > np.maximum(honours[:, [COLUMN[k] for k in HONOURS]].max(1), 0.1)).mean()
            rows.append(f"| {name} | {view} | {wan.sum()} | {wan_named:.1%} | {wan_misnamed:.1%} | {(~wan).sum()} | "
                        f"{honour_named:.1%} | {honour_misnamed:.1%} | {numeral_over:.1%} |")
            print(rows[-1], flush=True)
    return "\n".join([
        f"# The text recognizer on ground-truth crops, by numeral view ({datetime.now(timezone.utc).isoformat(timespec='seconds')})",
        "", "`numeral_probe.py`: the shipped recognizer alone on the 128 px crops of labelled character tiles.", "",
        "| set | numeral view | 萬 tiles | numeral named | misnamed | wind / dragon tiles | named | misnamed | a numeral outscores |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|", *rows, ""])


if __name__ == "__main__":
    Path(__file__).with_name("numeral_probe.md").write_text(main(int(sys.argv[1]) if len(sys.argv) > 1 else 400),
                                                            encoding="utf-8")
