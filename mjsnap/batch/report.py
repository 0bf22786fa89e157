"""A small self-contained HTML report of a results file: the summary tables and three plots as inline SVG."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjsnap.batch.summary import winner_points


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # drop the XML prolog: the SVG sits inside HTML


def _histogram(values: Sequence[float], title: str, xlabel: str, bins: Any = "auto") -> str:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    figure, axes = plt.subplots(figsize=(5.5, 3.2))
    if values:
        axes.hist(values, bins=bins, color="#3b7dd8", edgecolor="white")
    else:
        axes.text(0.5, 0.5, "no data", ha="center", va="center", transform=axes.transAxes)
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("photos" if "confidence" not in title else "tiles")
    try:
        return _svg(figure)
    finally:
        plt.close(figure)


def _table(rows: dict[str, Any], heading: str) -> str:
    if not rows:
        return ""
    body = "".join(f"<tr><td>{html.escape(str(k))}</td><td>{html.escape(str(v))}</td></tr>" for k, v in rows.items())
    return f"<h2>{html.escape(heading)}</h2><table>{body}</table>"


def _error_examples(records: Sequence[dict[str, Any]], limit: int = 20) -> str:
    failed = [r for r in records if r["status"] == "error"][:limit]
    if not failed:
        return ""
    rows = "".join(
        f"<tr><td>{html.escape(r['path'])}</td><td>{html.escape(str(r.get('error_code')))}</td>"
        f"<td>{html.escape(str(r.get('error')))}</td></tr>"
        for r in failed
    )
    return f"<h2>Errors (first {len(failed)})</h2><table><tr><th>photo</th><th>code</th><th>message</th></tr>{rows}</table>"


def render_report(records: Sequence[dict[str, Any]], summary: dict[str, Any], title: str) -> str:
    read = [r for r in records if r["status"] in ("scored", "not_scored")]
    points = [p for r in records if (p := winner_points(r)) is not None]
    tiles = [len(r.get("detections") or []) for r in read]
    confidences = [d["conf"] for r in read for d in r.get("detections") or []]
    plots = [
        _histogram(points, "Score distribution (winner's points)", "points"),
        _histogram(tiles, "Tiles detected per photo", "tiles", bins=range(0, max(tiles, default=0) + 2)),
        _histogram(confidences, "Detection confidence", "confidence", bins=20),
    ]
    sections = [
        _table(summary["status"], "Photos"),
        _table(summary["errors"], "Errors by code"),
        _table(summary["not_scored_reasons"], "Not scored: why"),
    ]
    for name, stats in summary["rulesets"].items():
        flat = {"scored": stats["scored"], "not scored": stats["not_scored"],
                **{f"points {k}": v for k, v in stats["winner_points"].items()},
                **{f"fan {k}": v for k, v in stats["fan"].items() if stats["fan"]["n"]}}
        sections.append(_table(flat, f"Rule set {name}"))
    if "run" in summary:
        sections.append(_table(summary["run"], "This run"))
    style = ("body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse;margin-bottom:1em}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}.plots{display:flex;flex-wrap:wrap;gap:1em}")
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body><h1>{html.escape(title)}</h1>"
        f"<div class='plots'>{''.join(plots)}</div>{''.join(sections)}{_error_examples(records)}"
        f"<details><summary>summary.json</summary><pre>{html.escape(json.dumps(summary, indent=1, ensure_ascii=False))}"
        f"</pre></details></body></html>"
    )


def write_report(records: Sequence[dict[str, Any]], summary: dict[str, Any], path: Path, title: str) -> None:
    path.write_text(render_report(records, summary, title), encoding="utf-8", errors="backslashreplace")
