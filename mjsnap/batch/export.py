"""CSV export of a results file: one row per photo (its latest record), flat columns for spreadsheets."""

from __future__ import annotations

import csv
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from mjsnap.batch.summary import winner_points
from mjsnap.labels import FILE_MODE

CSV_COLUMNS = (
    "path", "sha256", "bytes", "status", "error_code", "error", "duplicate_of", "ruleset", "model_version",
    "width", "height", "tiles", "mean_conf", "min_conf", "hand", "melds", "win_tile", "shapes", "scored_shape",
    "fan", "winner", "winner_points", "delta_0", "delta_1", "delta_2", "delta_3", "items", "warnings",
    "sidecar", "ms",
)  # fmt: skip


def _join(values: Iterable[Any]) -> str:
    return ";".join(str(v) for v in values)


def csv_row(record: dict[str, Any]) -> dict[str, Any]:
    detections = record.get("detections") or []
    confs = [d["conf"] for d in detections]
    hand = record.get("hand") or {}
    context = record.get("context") or {}
    deltas = record.get("deltas") or [None] * 4
    row = {
        **{k: record.get(k) for k in ("path", "sha256", "bytes", "status", "error_code", "error", "duplicate_of",
                                       "ruleset", "model_version", "width", "height", "scored_shape", "fan",
                                       "sidecar", "ms")},
        "tiles": len(detections) if record["status"] in ("scored", "not_scored") else None,
        "mean_conf": round(sum(confs) / len(confs), 4) if confs else None,
        "min_conf": min(confs) if confs else None,
        "hand": hand.get("concealed"),
        "melds": _join(f"{m.get('type')}:{m.get('tiles')}" for m in hand.get("melds") or []),
        "win_tile": hand.get("win_tile"),
        "shapes": _join(record.get("shapes") or []),
        "winner": context.get("winner"),
        "winner_points": winner_points(record),
        "items": _join(f"{i.get('name')}={i.get('value')}" for i in record.get("items") or []),
        "warnings": _join(w.get("code") for w in record.get("warnings") or []),
    }
    row.update({f"delta_{seat}": deltas[seat] for seat in range(4)})
    return row


def write_csv(records: Iterable[dict[str, Any]], path: Path) -> int:
    """Write the rows; returns how many. Written to a temporary file of its own first, so a kill never leaves half a
    CSV and two runs given the same --csv never write into one file: the last one to finish is the CSV."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    try:
        with open(handle, "w", newline="", encoding="utf-8", errors="backslashreplace") as out:  # undecodable names
            os.fchmod(out.fileno(), FILE_MODE)
            count = _write_rows(records, out)
        os.replace(temporary, path)
    except BaseException:  # nor a failed one a .partial file
        Path(temporary).unlink(missing_ok=True)
        raise
    return count


def _write_rows(records: Iterable[dict[str, Any]], out: TextIO) -> int:
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS)
    writer.writeheader()
    count = 0
    for record in records:
        writer.writerow(csv_row(record))
        count += 1
    return count
