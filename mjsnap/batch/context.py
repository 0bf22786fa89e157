"""Per-photo table context: command-line defaults, overridden by an optional sidecar JSON beside the photo.

The sidecar of ``IMG_0001.jpg`` is ``IMG_0001.json`` (or ``IMG_0001.jpg.json``). It holds a context object in
the schema of ../shared/rules/golden.json (``winner``, ``dealer``, ``self_draw``, ``discarder``, ``bets`` and the
flags), either bare or as ``{"context": {...}}``. Keys it names replace the defaults; the rest are kept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.hand import Context, HandError

CONTEXT_FIELDS = tuple(Context.__dataclass_fields__)
FLAG_FIELDS = frozenset(
    ("self_draw", "kong_replacement", "last_tile", "heavenly", "earthly", "robbing_kong", "after_kong_discard")
)


class ContextError(ValueError):
    """A sidecar or merged context that cannot be used; ``code`` goes into the error record."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.code = code


def sidecar_for(photo: Path) -> Path | None:
    for candidate in (photo.with_suffix(".json"), photo.with_name(photo.name + ".json")):
        if candidate.is_file():
            return candidate
    return None


def read_sidecar(path: Path) -> dict[str, Any]:
    """The context overrides a sidecar holds; ContextError (code ``bad_sidecar``) when it is unusable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ContextError(f"sidecar {path.name}: not readable JSON ({exc})", "bad_sidecar") from exc
    if isinstance(data, dict) and set(data) == {"context"}:
        data = data["context"]
    if not isinstance(data, dict):
        raise ContextError(f"sidecar {path.name}: expected a JSON object of context fields", "bad_sidecar")
    unknown = sorted(set(data) - set(CONTEXT_FIELDS))
    if unknown:
        raise ContextError(
            f"sidecar {path.name}: unknown context field(s) {', '.join(unknown)}; "
            f"known: {', '.join(CONTEXT_FIELDS)}",
            "bad_sidecar",
        )
    for name, value in data.items():
        if name in FLAG_FIELDS and not isinstance(value, bool):
            raise ContextError(f"sidecar {path.name}: {name} must be true or false, got {value!r}", "bad_sidecar")
    return data


def merge_context(defaults: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Defaults with the overrides applied, validated as a scoring Context (the JSON-ready dict form).

    How the hand was won is one decision: an override that says self-drawn drops a default discarder, and one
    that names a discarder drops a default self-draw, so a sidecar never has to undo the command line.
    """
    merged = {**defaults, **overrides}
    if overrides.get("self_draw") and "discarder" not in overrides:
        merged["discarder"] = None
    if overrides.get("discarder") is not None and "self_draw" not in overrides:
        merged["self_draw"] = False
    try:
        return Context.from_dict(merged).to_dict()
    except (HandError, TypeError) as exc:
        raise ContextError(f"context: {exc}", getattr(exc, "code", "bad_context")) from exc


def photo_context(photo: Path, defaults: dict[str, Any]) -> tuple[dict[str, Any], Path | None]:
    """The context to score ``photo`` with and the sidecar it came from (None: command-line defaults)."""
    sidecar = sidecar_for(photo)
    overrides = read_sidecar(sidecar) if sidecar is not None else {}
    try:
        return merge_context(defaults, overrides), sidecar
    except ContextError as exc:
        if sidecar is None:
            raise
        raise ContextError(f"sidecar {sidecar.name}: {exc}", "bad_sidecar") from exc
