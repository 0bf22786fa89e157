"""How far to trust the character recognizer: whole photos read at several values of one of its settings (meta
`characters`: `floor`, `gate`, `kind_mass`, or the 萬 check's `wan_doubt` and `wan_missing`), on tile sets the
classifier never saw.

The recognizer (vision.twostage.characters) re-weighs the classifier's probabilities among the character classes by
floor + its score: a character it does not see keeps `floor` of its weight, so a lower floor trusts it more. It is
asked about a tile whose best class is under `gate` and whose probability lies at least `kind_mass` on the character
classes, so a higher gate asks it about more tiles. Each reading here is a hold-out pair: photos of one tile set and a
classifier that never saw that set, put in place of the --proxy model directory's classifier/ (its tile detector,
reading steps and recognizer stay; --proxy-settings changes its meta.json first, e.g. the classifier's input size).
Every photo set is read at every value with the same classifier, so the values compare paired.

    .venv/bin/python benchmarks/character_floor.py --proxy work/model_cpu_fold_n --values 0.02,0.005,0.002 \\
        --reading cmd_100=datasets/cmd.yaml:work/cursive_fonts/100_today.pt \\
        --reading gleitz=work/s24/synth_gleitz/data.yaml:work/s24/folds/gleitz_photo.pt ...
    .venv/bin/python benchmarks/character_floor.py --setting gate --values 0.8,0.9,0.97 \\
        --proxy-settings '{"classifier": {"imgsz": 96, "half_turn_below": 0.8}}' --reading ...

Each reading at each value is kept in WORK/character_SETTING/NAME_SETTINGVALUE.json, so an interrupted run continues
(another --proxy-settings needs another --work). Writes benchmarks/results/character_SETTING.json and .md (--out: another
name).
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


SETTINGS = {"floor": "the recognizer's floor", "gate": "the recognizer's gate",
            "kind_mass": "the recognizer's least probability on the character classes",
            "wan_doubt": "the 萬 check's doubt band (0: off)",
            "wan_missing": "the 萬 check's weight on 1m-9m when no 萬 is read",
            "wan_against": "the 萬 check's weight on the other classes when 萬 is read",
            "flower_doubt": "the flower check's doubt band (0: off)"}


def read(reading: Reading, value: float, proxy: Path, kept: Path, setting: str = "floor",
         proxy_settings: dict | None = None) -> dict:
    """Tile errors of the reading's photos with the recognizer's `setting` at `value` (kept in `kept` once read)."""
    if setting not in SETTINGS:
        raise ValueError(f"setting {setting!r} is not one of {', '.join(SETTINGS)}")
    if "characters" not in json.loads((proxy / "meta.json").read_text()):
        raise SystemExit(f"{proxy} has no character recognizer (meta 'characters')")
    settings = dict(proxy_settings or {})
    settings["characters"] = {**settings.get("characters", {}), setting: value}
    return read_photos(reading.classifier, proxy, reading.data, kept, settings)


def markdown(result: dict) -> str:
    setting, values = result["setting"], result["values"]
    changed = f" (meta.json changed first: `{json.dumps(result['proxy_settings'])}`)" if result.get("proxy_settings") else ""
    lines = [f"# {SETTINGS[setting][0].upper()}{SETTINGS[setting][1:]} on tile sets the classifier never saw "
             f"({result['date']})", "",
             f"`benchmarks/character_floor.py --setting {setting}`: each row is a hold-out pair, photos of one tile set "
             f"read by `{result['proxy']}`{changed} (its tile detector, reading steps and recognizer) with a classifier "
             f"that never saw that set in place of its own; tile errors at confidence 0.25 with {SETTINGS[setting]} "
             f"(`characters.{setting}`) at each value. {result['machine']}.", "",
             "| reading | photos / tiles | " + " | ".join(f"{setting} {v:g}" for v in values) + " |",
             "|---|---|" + "---:|" * len(values)]
    for name, row in result["readings"].items():
        first = row[str(values[0])]
        lines.append(f"| {name} | {first['photos']} / {first['tiles']:,} | "
                     + " | ".join(str(row[str(v)]["tile_errors"]) for v in values) + " |")
    totals = [sum(row[str(v)]["tile_errors"] for row in result["readings"].values()) for v in values]
    lines.append("| all | | " + " | ".join(f"{t:,}" for t in totals) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--proxy", type=Path, required=True, help="a two-stage model directory with characters/")
    parser.add_argument("--setting", default="floor", choices=sorted(SETTINGS), help="the meta `characters` setting read")
    parser.add_argument("--values", "--floors", default="0.02,0.005,0.002", help="comma-separated values of --setting")
    parser.add_argument("--proxy-settings", type=json.loads, default=None,
                        help="JSON of meta.json sections to change in the proxy's copy first")
    parser.add_argument("--reading", action="append", required=True, type=Reading.parse,
                        help="NAME=DATA_YAML:CLASSIFIER_PT, repeated")
    parser.add_argument("--work", type=Path, default=REPO / "work")
    parser.add_argument("--out", default=None, help="results name under benchmarks/results (default character_SETTING)")
    args = parser.parse_args()
    values = [float(v) for v in args.values.split(",")]
    if not (args.proxy / "meta.json").is_file():
        raise SystemExit(f"--proxy {args.proxy}: no meta.json there (a two-stage model directory)")
    for reading in args.reading:
        for path in (reading.data, reading.classifier):
            if not path.is_file():
                raise SystemExit(f"--reading {reading.name}: {path} does not exist")
    os.environ.setdefault("YOLO_CONFIG_DIR", tempfile.mkdtemp(prefix="mjsnap-yolo-"))
    work = args.work / f"character_{args.setting}"
    work.mkdir(parents=True, exist_ok=True)
    readings = {}
    for reading in args.reading:
        readings[reading.name] = {str(v): read(reading, v, args.proxy, work / f"{reading.name}_{args.setting}{v}.json",
                                               args.setting, args.proxy_settings) for v in values}
        print(json.dumps({reading.name: {v: r["tile_errors"] for v, r in readings[reading.name].items()}}), flush=True)
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores", "proxy": os.path.relpath(args.proxy, REPO),
              "setting": args.setting, "values": values, "proxy_settings": args.proxy_settings, "readings": readings,
              "sources": {r.name: {"data": os.path.relpath(r.data, REPO), "classifier": os.path.relpath(r.classifier, REPO)}
                          for r in args.reading}}
    folder = REPO / "benchmarks" / "results"
    name = args.out or f"character_{args.setting}"
    (folder / f"{name}.json").write_text(json.dumps(result, indent=1))
    (folder / f"{name}.md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()
