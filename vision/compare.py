"""Candidate against current model on the same labelled images: metrics side by side, per-class recall, confusion
pairs, and a PNG plot. Both models run through the same `vision.evaluate` code and the same backend, so a
difference is the models' and not the measurement's."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from vision import evaluate as ev

# metric name -> True when higher is better (the choices of `mjsnap promote --metric`)
METRICS = {"map50": True, "map50_95": True, "tile_accuracy": True, "exact_match": True, "tile_errors": False,
           "hands_read_right": True, "name_errors": False}


class MetricRow(BaseModel):
    metric: str
    current: float
    candidate: float
    delta: float
    better: str  # "candidate", "current" or "same"


class ClassRow(BaseModel):
    name: str
    true_tiles: int
    current_recall: float
    candidate_recall: float


class ConfusionRow(BaseModel):
    true: str
    predicted: str
    current: int
    candidate: int


class Comparison(BaseModel):
    data: str
    images: int
    current: ev.EvalReport
    candidate: ev.EvalReport
    metrics: list[MetricRow]
    per_class: list[ClassRow]
    confusions: list[ConfusionRow]

    def table(self) -> str:
        lines = [f"{'metric':<17}{'current':>10}{'candidate':>11}{'delta':>9}  better",
                 *(f"{r.metric:<17}{r.current:>10.4f}{r.candidate:>11.4f}{r.delta:>+9.4f}  {r.better}"
                   for r in self.metrics)]
        return "\n".join(lines)


def resolve_data(data: Path) -> Path:
    """A dataset folder means its data.yaml; a YAML file is used as it is. FileNotFoundError names what is missing."""
    data = Path(data)
    if data.is_dir():
        if not (data / "data.yaml").is_file():
            raise FileNotFoundError(f"{data} is not a dataset folder: it has no data.yaml")
        return data / "data.yaml"
    if not data.is_file():
        raise FileNotFoundError(f"{data}: no such dataset folder or datasets/*.yaml config")
    return data


def labelled_images(data: Path, split: str = "val", limit: int | None = None) -> list[ev.LabelledImage]:
    """The labelled images of one split of a datasets/*.yaml config or a dataset folder."""
    return ev.labelled_images(resolve_data(data), split, limit)


def model_backends(model_dir: Path) -> list[str]:
    """Backends a model directory can run, fastest first (for a two-stage model: those both stages have)."""
    from vision.detector import available_backends, read_meta

    read_meta(model_dir)  # a clear error for a folder that is no model directory
    return available_backends(model_dir)


def common_backend(current: Path, candidate: Path, requested: str = "auto") -> str:
    """The backend both model directories can run (the fastest one, when 'auto')."""
    both = [b for b in model_backends(current) if b in set(model_backends(candidate))]
    if requested != "auto":
        if requested not in both:
            raise ValueError(f"backend {requested!r} is not available for both models (both have: {both})")
        return requested
    if not both:
        raise ValueError(f"{current} and {candidate} have no backend in common")
    return both[0]


def _metric_value(report: ev.EvalReport, metric: str) -> float:
    return float(getattr(report, metric))


def build_comparison(current: ev.EvalReport, candidate: ev.EvalReport) -> Comparison:
    """The side-by-side tables of two reports on the same images."""
    if (current.data, current.images, current.true_tiles) != (candidate.data, candidate.images, candidate.true_tiles):
        raise ValueError(f"the reports are not on the same data: {current.data} ({current.images} images) vs "
                         f"{candidate.data} ({candidate.images} images)")
    rows = []
    for metric, higher in METRICS.items():
        if getattr(current, metric) is None or getattr(candidate, metric) is None:
            continue  # a report written before the metric was measured (EvalReport's name figures)
        a, b = _metric_value(current, metric), _metric_value(candidate, metric)
        gain = (b - a) if higher else (a - b)
        rows.append(MetricRow(metric=metric, current=a, candidate=b, delta=round(b - a, 4),
                              better="same" if gain == 0 else ("candidate" if gain > 0 else "current")))
    cur_classes = {c.name: c for c in current.per_class}
    per_class = [ClassRow(name=c.name, true_tiles=c.true_tiles, current_recall=cur_classes[c.name].recall,
                          candidate_recall=c.recall) for c in candidate.per_class]
    pairs: dict[tuple[str, str], list[int]] = {}
    for index, report in enumerate((current, candidate)):
        for confusion in report.top_confusions:
            pairs.setdefault((confusion.true, confusion.predicted), [0, 0])[index] = confusion.count
    confusions = [ConfusionRow(true=t, predicted=p, current=c[0], candidate=c[1])
                  for (t, p), c in sorted(pairs.items(), key=lambda kv: -max(kv[1]))]
    return Comparison(data=current.data, images=current.images, current=current, candidate=candidate,
                      metrics=rows, per_class=per_class, confusions=confusions)


def compare_models(
    current: Path, candidate: Path, data: Path, split: str = "val", conf: float = 0.25, backend: str = "auto",
    limit: int | None = None,
) -> Comparison:
    """Evaluate both model directories on the same images with the same backend."""
    images = labelled_images(data, split, limit)
    chosen = common_backend(Path(current), Path(candidate), backend)
    reports = [_evaluate(Path(model_dir), chosen, images, conf, label, f"{data}:{split}")
               for label, model_dir in (("current", current), ("candidate", candidate))]
    return build_comparison(*reports)


def measure_model(
    model: Path, data: Path, split: str = "val", conf: float = 0.25, backend: str = "auto", limit: int | None = None,
) -> ev.EvalReport:
    """One model directory's report on one split: what promote records for a model it has nothing to compare with."""
    images = labelled_images(data, split, limit)
    backends = model_backends(Path(model))
    if backend != "auto" and backend not in backends:
        raise ValueError(f"backend {backend!r} is not available for {model} (it has: {backends})")
    return _evaluate(Path(model), backends[0] if backend == "auto" else backend, images, conf, "candidate",
                     f"{data}:{split}")


def _evaluate(model_dir: Path, backend: str, images: list[ev.LabelledImage], conf: float, label: str,
              data: str) -> ev.EvalReport:
    predictor, _ = ev.detector_predictor(model_dir, backend)
    return ev.evaluate(predictor, images, conf, f"{label}: {model_dir} ({backend})", data)


def plot(comparison: Comparison, out: Path) -> Path:
    """Headline metrics and per-class recall of both models, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    shown = [r for r in comparison.metrics if r.metric != "tile_errors"]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(12, 7), gridspec_kw={"height_ratios": [1, 1.4]})
    x = np.arange(len(shown))
    top.bar(x - 0.2, [r.current for r in shown], 0.4, label="current")
    top.bar(x + 0.2, [r.candidate for r in shown], 0.4, label="candidate")
    top.set_xticks(x, [r.metric for r in shown])
    top.set_ylim(0, 1.05)
    top.set_title(f"{comparison.data}: {comparison.images} images")
    top.legend(loc="lower right")
    x = np.arange(len(comparison.per_class))
    bottom.bar(x - 0.2, [c.current_recall for c in comparison.per_class], 0.4, label="current")
    bottom.bar(x + 0.2, [c.candidate_recall for c in comparison.per_class], 0.4, label="candidate")
    bottom.set_xticks(x, [c.name for c in comparison.per_class], rotation=90)
    bottom.set_ylim(0, 1.05)
    bottom.set_ylabel("recall per class")
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)
    return out
