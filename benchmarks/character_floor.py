"""How far to trust the character recognizer: whole photos read at several of its floors, on tile sets the
classifier never saw.

The recognizer (vision.twostage.characters) re-weighs the classifier's probabilities among the character classes by
floor + its score: a character it does not see keeps `floor` of its weight. A lower floor trusts it more. Each
reading here is a hold-out pair: photos of one tile set and a classifier that never saw that set, put in place of
the --proxy model directory's classifier/ (its tile detector, reading steps and recognizer stay). Every photo set is
read at every floor with the same classifier, so the floors compare paired.

    .venv/bin/python benchmarks/character_floor.py --proxy work/model_cpu_fold_n --floors 0.02,0.005,0.002 \\
        --reading cmd_100=datasets/cmd.yaml:work/cursive_fonts/100_today.pt \\
        --reading gleitz=work/s24/synth_gleitz/data.yaml:work/s24/folds/gleitz_photo.pt ...

Each reading at each floor is kept in WORK/character_floor/NAME_floorF.json, so an interrupted run continues.
Writes benchmarks/results/character_floor.json and .md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.holdout_proxy import read_photos  # noqa: E402


@dataclass(frozen=True)
class Reading:
    name: str
    data: Path  # a datasets/*.yaml config: its val photos are read
    classifier: Path  # a checkpoint of a classifier that never saw those photos' tile set

    @classmethod
    def parse(cls, text: str) -> Reading:
        name, sep, rest = text.partition("=")
        data, sep2, classifier = rest.rpartition(":")
        if not (sep and sep2 and name and data and classifier):
            raise ValueError(f"--reading {text!r}: expected NAME=DATA_YAML:CLASSIFIER_PT")
        return cls(name, Path(data), Path(classifier))


def read(reading: Reading, floor: float, proxy: Path, kept: Path) -> dict:
    """Tile errors of the reading's photos at one floor (kept in `kept` once read)."""
    if "characters" not in json.loads((proxy / "meta.json").read_text()):
        raise SystemExit(f"{proxy} has no character recognizer (meta 'characters')")
    return read_photos(reading.classifier, proxy, reading.data, kept, {"characters": {"floor": floor}})


def markdown(result: dict) -> str:
    floors = result["floors"]
    lines = [f"# The character recognizer's floor on tile sets the classifier never saw ({result['date']})", "",
             f"`benchmarks/character_floor.py`: each row is a hold-out pair, photos of one tile set read by "
             f"`{result['proxy']}` (its tile detector, reading steps and recognizer) with a classifier that never saw "
             f"that set in place of its own; tile errors at confidence 0.25 with the recognizer's floor at each value. "
             f"{result['machine']}.", "",
             "| reading | photos / tiles | " + " | ".join(f"floor {f:g}" for f in floors) + " |",
             "|---|---|" + "---:|" * len(floors)]
    for name, row in result["readings"].items():
        first = row[str(floors[0])]
        lines.append(f"| {name} | {first['photos']} / {first['tiles']:,} | "
                     + " | ".join(str(row[str(f)]["tile_errors"]) for f in floors) + " |")
    totals = [sum(row[str(f)]["tile_errors"] for row in result["readings"].values()) for f in floors]
    lines.append("| all | | " + " | ".join(f"{t:,}" for t in totals) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", type=Path, required=True, help="a two-stage model directory with characters/")
    parser.add_argument("--floors", default="0.02,0.005,0.002")
    parser.add_argument("--reading", action="append", required=True, type=Reading.parse,
                        help="NAME=DATA_YAML:CLASSIFIER_PT, repeated")
    parser.add_argument("--work", type=Path, default=REPO / "work")
    args = parser.parse_args()
    floors = [float(f) for f in args.floors.split(",")]
    if not (args.proxy / "meta.json").is_file():
        raise SystemExit(f"--proxy {args.proxy}: no meta.json there (a two-stage model directory)")
    for reading in args.reading:
        for path in (reading.data, reading.classifier):
            if not path.is_file():
                raise SystemExit(f"--reading {reading.name}: {path} does not exist")
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    work = args.work / "character_floor"
    work.mkdir(parents=True, exist_ok=True)
    readings = {}
    for reading in args.reading:
        readings[reading.name] = {str(f): read(reading, f, args.proxy, work / f"{reading.name}_floor{f}.json")
                                  for f in floors}
        print(json.dumps({reading.name: {f: r["tile_errors"] for f, r in readings[reading.name].items()}}), flush=True)
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "proxy": os.path.relpath(args.proxy, REPO),
              "floors": floors, "readings": readings,
              "sources": {r.name: {"data": os.path.relpath(r.data, REPO), "classifier": os.path.relpath(r.classifier, REPO)}
                          for r in args.reading}}
    folder = REPO / "benchmarks" / "results"
    (folder / "character_floor.json").write_text(json.dumps(result, indent=1))
    (folder / "character_floor.md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
