"""Twins: tiles of one photo that look alike, and what reading them together does (vision.twostage.twins).

`probe` needs no classifier. Every labelled tile of a photo set is matched against every other tile of its photo
(ground-truth boxes, vision.twostage.twins.likenesses); per likeness threshold, the share of tiles whose best match
reaches it and how often that match has the tile's own class. Face-down tiles are left out (they all look alike).

`proxy` reads hold-out pairs (photos of one tile set, read by the --proxy model directory with a classifier that never
saw that set; benchmarks/holdout_proxy.py) with meta classifier.twins off and at each --variant BELOW:LIKENESS.

    .venv/bin/python benchmarks/twins.py probe --set cmd=datasets/cmd.yaml --set gleitz=work/s24/synth_gleitz/data.yaml
    .venv/bin/python benchmarks/twins.py proxy --proxy work/model_cpu_fold_n --work work/exp31/twins \\
        --reading gleitz=work/s24/synth_gleitz/data.yaml:work/s24/folds96/gleitz_photo.pt --variant 0.9:0.95 ...

Writes benchmarks/results/twins_probe.{json,md} or twins_proxy.{json,md} (--out: another name). A proxy reading is
kept in WORK/NAME_VARIANT.json, so an interrupted run goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.character_floor import Reading  # noqa: E402
from benchmarks.holdout_proxy import read_photos  # noqa: E402
from scoring.tiles import CLASS_NAMES  # noqa: E402
from vision.evaluate import labelled_images  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.twostage.twins import faces, likenesses  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"
BACK = CLASS_NAMES.index("back")
THRESHOLDS = (0.9, 0.93, 0.95, 0.97)


def best_matches(data: Path, split: str) -> list[tuple[int, int, float, bool]]:
    """(class, class of its best match, likeness, whether the photo holds another tile of its class) per tile."""
    rows = []
    for item in labelled_images(data, split):
        classes = item.class_id.astype(int)
        if len(classes) < 2:
            continue
        alike = likenesses(faces(load_image(item.path), item.xyxy), range(len(classes)))
        np.fill_diagonal(alike, -1.0)
        for i in np.flatnonzero(classes != BACK):
            j = int(alike[i].argmax())
            partner = bool(np.delete(classes == classes[i], i).any())
            rows.append((int(classes[i]), int(classes[j]), float(alike[i, j]), partner))
    return rows


def probe_summary(rows: list[tuple[int, int, float, bool]]) -> dict:
    cls, match, alike, partner = (np.array(column) for column in zip(*rows))
    out = {"tiles": len(rows), "with_partner": round(float(partner.mean()), 3), "thresholds": {}}
    for threshold in THRESHOLDS:
        taken = alike >= threshold
        wrong = taken & (cls != match)
        out["thresholds"][str(threshold)] = {
            "matched": round(float(taken.mean()), 3),
            "same_class": round(float((taken & (cls == match)).sum() / max(taken.sum(), 1)), 4),
            "wrong": int(wrong.sum()),
            "found_of_partnered": round(float((taken & (cls == match)).sum() / max(partner.sum(), 1)), 3),
            "wrong_pairs": [[f"{CLASS_NAMES[a]}~{CLASS_NAMES[b]}", n] for (a, b), n in
                            Counter(zip(cls[wrong].tolist(), match[wrong].tolist())).most_common(6)],
        }
    return out


def probe_markdown(result: dict) -> str:
    lines = [f"# Twins in a photo: does a tile's best match share its class? ({result['date']})", "",
             "`benchmarks/twins.py probe`: every labelled tile (face-down ones left out) matched against every other "
             "tile of its photo on ground-truth boxes (`vision.twostage.twins.likenesses`); per threshold, the share of "
             "tiles whose best match reaches it, how often that match has the tile's class, and the share of tiles "
             f"with another of their class in the photo that find it. No classifier. {result['machine']}.", ""]
    for name, row in result["sets"].items():
        lines += [f"## {name}: {row['tiles']:,} tiles, {row['with_partner']:.1%} with another of their class in the "
                  "photo", "", "| likeness >= | tiles matched | match of the same class | wrong | partnered tiles found "
                  "| wrong pairs |", "|---:|---:|---:|---:|---:|---|"]
        for threshold, cell in row["thresholds"].items():
            pairs = ", ".join(f"{p} {n}" for p, n in cell["wrong_pairs"])
            lines.append(f"| {threshold} | {cell['matched']:.1%} | {cell['same_class']:.2%} | {cell['wrong']} | "
                         f"{cell['found_of_partnered']:.1%} | {pairs} |")
        lines.append("")
    return "\n".join(lines)


def parse_variant(text: str) -> tuple[float, float]:
    below, _, alike = text.partition(":")
    return float(below), float(alike)


def variant_name(variant: tuple[float, float] | None) -> str:
    return "off" if variant is None else f"below {variant[0]:g}, likeness {variant[1]:g}"


def proxy_markdown(result: dict) -> str:
    names = list(result["variants"])
    lines = [f"# Twins read together on tile sets the classifier never saw ({result['date']})", "",
             "`benchmarks/twins.py proxy`: each row a hold-out pair, photos of one tile set read by "
             f"`{result['proxy']}` with a classifier that never saw that set; tile errors at confidence 0.25 with "
             f"meta classifier.twins off and at each variant. {result['machine']}.", "",
             "| reading | photos / tiles | " + " | ".join(names) + " |", "|---|---|" + "---:|" * len(names)]
    totals = Counter()
    for reading, cells in result["readings"].items():
        first = next(iter(cells.values()))
        lines.append(f"| {reading} | {first['photos']} / {first['tiles']:,} | "
                     + " | ".join(f"{cells[n]['tile_errors']:,}" for n in names) + " |")
        totals.update({n: cells[n]["tile_errors"] for n in names})
    lines.append("| all | | " + " | ".join(f"{totals[n]:,}" for n in names) + " |")
    lines += ["", "Top confusions per reading (off, then each variant):", ""]
    for reading, cells in result["readings"].items():
        for n in names:
            confusions = ", ".join(f"{c} {k}" for c, k in cells[n]["top_confusions"][:6])
            lines.append(f"- {reading}, {n}: {confusions}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("probe", "proxy"))
    parser.add_argument("--set", action="append", default=[], help="probe: NAME=DATA_YAML, repeated")
    parser.add_argument("--split", default="val")
    parser.add_argument("--reading", action="append", default=[], type=Reading.parse,
                        help="proxy: NAME=DATA_YAML:CLASSIFIER_PT, repeated")
    parser.add_argument("--variant", action="append", default=[], type=parse_variant, help="proxy: BELOW:LIKENESS")
    parser.add_argument("--proxy", type=Path, default=REPO / "work" / "model_cpu_fold_n")
    parser.add_argument("--work", type=Path, default=REPO / "work" / "twins")
    parser.add_argument("--out")
    args = parser.parse_args()
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": f"{platform.machine()}, {os.cpu_count()} cores"}
    if args.mode == "probe":
        result["sets"] = {}
        for item in args.set:
            name, _, data = item.partition("=")
            result["sets"][name] = probe_summary(best_matches(Path(data), args.split))
            print(name, json.dumps(result["sets"][name]["thresholds"]["0.95"]), flush=True)
        text = probe_markdown(result)
    else:
        args.work.mkdir(parents=True, exist_ok=True)
        variants = [None, *args.variant]
        result.update(proxy=str(args.proxy), variants={variant_name(v): v for v in variants}, readings={})
        for reading in args.reading:
            cells = {}
            for variant in variants:
                settings = {} if variant is None else {"classifier": {"twins": {"below": variant[0],
                                                                                "likeness": variant[1]}}}
                tag = "off" if variant is None else f"{variant[0]:g}_{variant[1]:g}"
                cells[variant_name(variant)] = read_photos(reading.classifier, args.proxy, reading.data,
                                                           args.work / f"{reading.name}_{tag}.json", settings)
                print(reading.name, variant_name(variant), cells[variant_name(variant)]["tile_errors"], flush=True)
            result["readings"][reading.name] = cells
        text = proxy_markdown(result)
    out = RESULTS / (args.out or f"twins_{args.mode}")
    out.with_suffix(".json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
