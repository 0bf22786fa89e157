"""A candidate model read beside others on the three sets every candidate since 0.17.0 has been judged on: cmd val
(243 real photos) and the generated val sets of seeds 31 (100 photos, 512-800 px) and 39 (40 photos, 1100-1600 px).

    .venv/bin/python benchmarks/candidate_eval.py --out candidate_0.20.0 current=models/current \\
        0.20.0=work/exp27/model_0.20.0 [--sets cmd,val31,val39]

Each model reads each set as `mjsnap eval` does (backend auto, confidence 0.25) and its report is written to
benchmarks/results/OUT/eval_SET_MODEL.json; a report already there is read instead, so a run cut short goes on.
OUT/summary.md and summary.json then hold tile errors (missed / misclassified / extra), exact match and name errors
(vision.evaluate: what the scorer gets) per set and model. The generated sets live in work/exp23 (drawn in session 23 and kept, so the numbers of candidates of
different sessions compare); on a machine without them they are drawn there again first, by today's generator, so
not as session 23's photos (print beside the hand and two more cloths came in session 44, for one).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.evaluate import EvalReport  # noqa: E402

GENERATED = REPO / "work" / "exp23"
CONF = 0.25  # mjsnap eval's operating confidence


@dataclass(frozen=True)
class EvalSet:
    name: str
    data: Path
    synth: tuple[str, ...] = ()  # `mjsnap synth` options that draw it, () for a set that is not generated

    def ensure(self) -> Path:
        """The set's data.yaml, drawn first when it is a generated set this machine lacks."""
        if not self.data.is_file():
            if not self.synth:
                raise SystemExit(f"{self.name}: {self.data} not found (cmd val needs ../shared/datasets/cmd)")
            command = [str(REPO / ".venv" / "bin" / "mjsnap"), "synth", "--out", str(self.data.parent), *self.synth]
            subprocess.run(command, check=True, cwd=REPO)
        return self.data


SETS = {
    "cmd": EvalSet("cmd", REPO / "datasets" / "cmd.yaml"),
    "val31": EvalSet("val31", GENERATED / "val31" / "data.yaml",
                     ("--n", "100", "--seed", "31", "--val-fraction", "0.99", "--imgsz-min", "512", "--imgsz-max", "800",
                      "--workers", "2")),
    "val39": EvalSet("val39", GENERATED / "val39" / "data.yaml",
                     ("--n", "40", "--seed", "39", "--val-fraction", "0.99", "--imgsz-min", "1100", "--imgsz-max",
                      "1600", "--workers", "2")),
}


def parse_model(text: str) -> tuple[str, Path]:
    """NAME=MODEL_DIR; the name becomes part of a file name, so it is letters, digits, '.', '-' and '_' only."""
    name, sep, folder = text.partition("=")
    if not (sep and name and folder) or not all(c.isalnum() or c in "._-" for c in name):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=MODEL_DIR, NAME of letters, digits, '.', '-', '_'")
    path = Path(folder)
    if not (path / "meta.json").is_file():
        raise argparse.ArgumentTypeError(f"{text!r}: {path} is not a model directory (no meta.json)")
    return name, path


def out_folder(text: str) -> Path:
    """A folder under benchmarks/results/, named from there (candidate_0.20.0) or from the repository root
    (benchmarks/results/candidate_0.20.0); one that leaves it is refused before anything is read."""
    results = (REPO / "benchmarks" / "results").resolve()
    given = Path(text)
    folder = ((REPO if given.is_absolute() or given.parts[:1] == ("benchmarks",) else results) / given).resolve()
    if not text or not folder.is_relative_to(results) or folder == results:
        raise SystemExit(f"--out {text!r}: a folder under benchmarks/results/ is expected")
    return folder


def run_eval(model: Path, data: Path) -> EvalReport:
    from vision import evaluate as ev

    predictor, backend = ev.detector_predictor(model)
    return ev.evaluate(predictor, ev.labelled_images(data), CONF, f"{model} ({backend})", f"{data}:val")


def collect(models: Sequence[tuple[str, Path]], sets: Sequence[EvalSet], out: Path,
            evaluate: Callable[[Path, Path], EvalReport] = run_eval) -> dict[str, dict[str, EvalReport]]:
    """Every model's report on every set, {set: {model: report}}, each read from OUT or made and written there."""
    out.mkdir(parents=True, exist_ok=True)
    reports: dict[str, dict[str, EvalReport]] = {}
    for eval_set in sets:
        for name, model in models:
            path = out / f"eval_{eval_set.name}_{name}.json"
            if path.is_file():
                report = EvalReport.model_validate_json(path.read_text())
            else:
                report = evaluate(model, eval_set.ensure())
                path.write_text(report.model_dump_json(indent=1) + "\n")
            print(f"{eval_set.name:>6} {name:>10}: {report.tile_errors} tile errors ({report.missed} missed, "
                  f"{report.misclassified} misclassified, {report.extra} extra), exact match {report.exact_match:.3f}",
                  flush=True)
            reports.setdefault(eval_set.name, {})[name] = report
    return reports


def summary_table(reports: dict[str, dict[str, EvalReport]]) -> str:
    """Markdown: a row per set, a column per model, each cell 'errors (missed / misclassified / extra), exact, name
    errors' (the last left out for a report written before evaluate counted them)."""
    names = list(next(iter(reports.values())))
    lines = ["| set | " + " | ".join(names) + " |", "|---|" + "---:|" * len(names)]
    for set_name, by_model in reports.items():
        cells = [f"{r.tile_errors} ({r.missed} / {r.misclassified} / {r.extra}), {r.exact_match:.3f}"
                 + ("" if r.name_errors is None else f", {r.name_errors}") for r in (by_model[n] for n in names)]
        lines.append(f"| {set_name} ({by_model[names[0]].images} photos) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("models", nargs="+", type=parse_model, help="NAME=MODEL_DIR, the first one the baseline")
    parser.add_argument("--out", required=True, help="a folder under benchmarks/results/, e.g. candidate_0.20.0")
    parser.add_argument("--sets", default=",".join(SETS), help=f"comma-separated, of {', '.join(SETS)}")
    args = parser.parse_args(argv)
    unknown = [s for s in args.sets.split(",") if s not in SETS]
    if unknown:
        parser.error(f"--sets: unknown {', '.join(unknown)} (known: {', '.join(SETS)})")
    if len({name for name, _ in args.models}) != len(args.models):
        parser.error("each model needs its own NAME")
    out = out_folder(args.out)
    reports = collect(args.models, [SETS[s] for s in args.sets.split(",")], out)
    table = summary_table(reports)
    (out / "summary.md").write_text(
        "Tile errors (missed / misclassified / extra), whole photos read without an error (exact match) and name "
        "errors (the fewest one-tile changes that make the names read the labelled ones, wherever the boxes lie), "
        f"confidence {CONF}; written by benchmarks/candidate_eval.py.\n\n{table}\n")
    fields = {"tile_errors", "missed", "misclassified", "extra", "exact_match", "name_errors", "hands_read_right",
              "images"}
    (out / "summary.json").write_text(json.dumps(
        {s: {n: r.model_dump(include=fields) for n, r in by_model.items()} for s, by_model in reports.items()},
        indent=1) + "\n")
    print(table)


if __name__ == "__main__":
    main()
