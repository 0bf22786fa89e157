"""The end-of-run summary: counts, errors, score statistics per rule set, tiles and confidence (plain data)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from mjsnap.batch.runner import RunStats


def describe(values: Sequence[float]) -> dict[str, float | int | None]:
    if not values:
        return {"n": 0, "mean": None, "median": None, "min": None, "max": None}
    return {
        "n": len(values),
        "mean": round(statistics.fmean(values), 3),
        "median": statistics.median(values),
        "min": min(values),
        "max": max(values),
    }


def winner_points(record: dict[str, Any]) -> int | None:
    if record["status"] != "scored" or record.get("deltas") is None:
        return None
    return record["deltas"][(record.get("context") or {}).get("winner", 0)]


def _ruleset_summary(records: list[dict[str, Any]]) -> dict[str, Any]:
    scored = [r for r in records if r["status"] == "scored"]
    points = [p for r in scored if (p := winner_points(r)) is not None]
    return {
        "photos": len(records),
        "scored": len(scored),
        "not_scored": sum(r["status"] == "not_scored" for r in records),
        "winner_points": describe(points),
        "points_histogram": [list(pair) for pair in sorted(Counter(points).items())],  # [points, photos]
        "fan": describe([r["fan"] for r in scored if r.get("fan") is not None]),
        "scored_shapes": dict(Counter(r.get("scored_shape") or "?" for r in scored).most_common()),
        "items": dict(Counter(i["name"] for r in scored for i in r.get("items") or []).most_common()),
    }


def summarize(records: Sequence[dict[str, Any]], stats: RunStats | None = None) -> dict[str, Any]:
    """Statistics over the latest record of every photo in a results file (``stats``: this invocation)."""
    read = [r for r in records if r["status"] in ("scored", "not_scored")]
    confidences = [d["conf"] for r in read for d in r.get("detections") or []]
    summary: dict[str, Any] = {
        "photos": len(records),
        "status": {s: sum(r["status"] == s for r in records) for s in ("scored", "not_scored", "error", "duplicate")},
        "errors": dict(Counter(r.get("error_code") or "?" for r in records if r["status"] == "error").most_common()),
        "not_scored_reasons": dict(
            Counter(r.get("error_code") or "?" for r in records if r["status"] == "not_scored").most_common()
        ),
        "rulesets": {
            name: _ruleset_summary([r for r in records if r.get("ruleset") == name])
            for name in sorted({r.get("ruleset") for r in records if r.get("ruleset")})
        },
        "tiles_per_photo": describe([len(r.get("detections") or []) for r in read]),
        "confidence": describe(confidences),
        "warnings": dict(Counter(w["code"] for r in read for w in r.get("warnings") or []).most_common()),
        "model_versions": dict(Counter(r["model_version"] for r in read if r.get("model_version")).most_common()),
        "ms_per_photo": describe([r["ms"] for r in read if r.get("ms") is not None]),
    }
    if stats is not None:
        summary["run"] = {
            "discovered": stats.discovered,
            "already_recorded": stats.already_recorded,
            "written": stats.written,
            "scored_by_engine": stats.scored_by_engine,
            "seconds": round(stats.seconds, 3),
            "photos_per_second": round(stats.photos_per_second, 3),
            "torn_tail_bytes_dropped": stats.tail_repair.dropped_bytes,
        }
    return summary


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items())


def counted(count: int, noun: str) -> str:
    """``1 error``, ``2 errors``."""
    return f"{count} {noun}" + ("" if count == 1 else "s")


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary as a few lines for the terminal (the JSON file has everything)."""
    status = summary["status"]
    lines = [
        f"{counted(summary['photos'], 'photo')}: {status['scored']} scored, {status['not_scored']} not scored, "
        f"{counted(status['error'], 'error')}, {counted(status['duplicate'], 'duplicate')}"
    ]
    if summary["errors"]:
        lines.append(f"errors: {_counts(summary['errors'])}")
    if summary["not_scored_reasons"]:
        lines.append(f"not scored: {_counts(summary['not_scored_reasons'])}")
    for name, stats in summary["rulesets"].items():
        points = stats["winner_points"]
        if points["n"]:
            line = f"{name}: winner's points mean {points['mean']}, median {points['median']}, range {points['min']}..{points['max']}"
            if stats["fan"]["n"]:
                line += f"; 番 mean {stats['fan']['mean']}"
            lines.append(line)
    if summary["tiles_per_photo"]["n"]:
        lines.append(f"tiles per photo: mean {summary['tiles_per_photo']['mean']}; "
                     f"confidence: mean {summary['confidence']['mean']}, min {summary['confidence']['min']}")
    run = summary.get("run")
    if run:
        # "read", not "scored": the engine's photos include those whose hand scored nothing, and errors
        lines.append(f"this run: {counted(run['scored_by_engine'], 'photo')} read in {run['seconds']} s "
                     f"({run['photos_per_second']} photos/s), {run['already_recorded']} already recorded")
    return lines
