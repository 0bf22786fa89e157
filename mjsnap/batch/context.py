"""Per-photo table context: command-line defaults, overridden by an optional sidecar JSON beside the photo.

The sidecar of ``IMG_0001.jpg`` is ``IMG_0001.json`` (or ``IMG_0001.jpg.json``). It holds a context object in
the schema of ../shared/rules/golden.json (``winner``, ``dealer``, ``self_draw``, ``discarder``, ``bets`` and the
flags), either bare or as ``{"context": {...}}`` (the fields below then beside it), and may add ``meld_from``: the
seat that fed meld I of the hand as read (``{"0": 2}``; an exposed kong needs it), what golden.json writes as a
meld's ``from``; and how to read the photo, the reading options of `mjsnap read` written as fields
(``{"win_tile": "5p", "meld_type": {"1": "kong_added"}}``, mjsnap.commands.photo_options). Keys it names replace
the defaults; the rest are kept.

The merged context is the record's: it says how the photo was read and scored, so a copy of the same bytes is a
duplicate only when its context is the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mjsnap import jsontext
from mjsnap.commands import photo_options
from scoring.hand import N_SEATS, Context, HandError

CONTEXT_FIELDS = tuple(Context.__dataclass_fields__)
MELD_FROM = "meld_from"  # beside the context fields: {"I": SEAT}, the seat that fed meld I of the photo
READING_FIELDS = photo_options.READING  # beside them too: how to read the photo, as `mjsnap read`'s options say it
SIDECAR_FIELDS = (*CONTEXT_FIELDS, MELD_FROM, *READING_FIELDS)
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
        data = jsontext.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ContextError(f"sidecar {path.name}: not readable JSON ({exc})", "bad_sidecar") from exc
    if isinstance(data, dict) and isinstance(data.get("context"), dict):  # golden.json's wrapping; the rest beside
        inner, beside = data["context"], {name: value for name, value in data.items() if name != "context"}
        twice = sorted(set(inner) & set(beside))
        if twice:
            raise ContextError(f"sidecar {path.name}: {', '.join(twice)} both in and beside \"context\"", "bad_sidecar")
        data = {**beside, **inner}
    if not isinstance(data, dict):
        raise ContextError(f"sidecar {path.name}: expected a JSON object of context fields", "bad_sidecar")
    unknown = sorted(set(data) - set(SIDECAR_FIELDS))
    if unknown:
        raise ContextError(
            f"sidecar {path.name}: unknown context field(s) {', '.join(unknown)}; "
            f"known: {', '.join(SIDECAR_FIELDS)}",
            "bad_sidecar",
        )
    for name, value in data.items():
        if name in FLAG_FIELDS and not isinstance(value, bool):
            raise ContextError(f"sidecar {path.name}: {name} must be true or false, got {value!r}", "bad_sidecar")
    if MELD_FROM in data and not _is_meld_from(data[MELD_FROM]):
        raise ContextError(f"sidecar {path.name}: {MELD_FROM} must map meld numbers to seats, e.g. "
                           f'{{"0": 2}}; got {data[MELD_FROM]!r}', "bad_sidecar")
    return data


def _is_meld_from(value: Any) -> bool:
    return isinstance(value, dict) and all(
        meld.isdecimal() and type(seat) is int and 0 <= seat < N_SEATS for meld, seat in value.items()
    )


def meld_from_field(feeders: dict[int, int]) -> dict[str, Any]:
    """The context entry for the seats that fed the photo's melds, as a sidecar writes it ({} for none)."""
    return {MELD_FROM: {str(meld): seat for meld, seat in sorted(feeders.items())}} if feeders else {}


def feeders_of(context: dict[str, Any]) -> dict[int, int]:
    """The seats that fed the photo's melds, as mjsnap.pipeline takes them ({meld index: seat})."""
    return {int(meld): seat for meld, seat in context.get(MELD_FROM, {}).items()}


def reading_of(context: dict[str, Any]):
    """The vision.normalize.ReadOptions to read the photo of this context with (its reading fields)."""
    return photo_options.reading_of({name: context[name] for name in READING_FIELDS if name in context})


def merge_context(defaults: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    """Defaults with the overrides applied, validated as a scoring Context and a reading (the JSON-ready dict form;
    of the reading fields, those that differ from the defaults).

    How the hand was won is one decision: an override that says self-drawn drops a default discarder, and one
    that names a discarder drops a default self-draw, so a sidecar never has to undo the command line.
    """
    merged = {**defaults, **overrides}
    feeders = merged.pop(MELD_FROM, {})  # a sidecar's replaces the command line's, as every field does
    written = {name: merged.pop(name) for name in READING_FIELDS if name in merged}  # its meld_type, kong_kind too
    if overrides.get("self_draw") and "discarder" not in overrides:
        merged["discarder"] = None
    if overrides.get("discarder") is not None and "self_draw" not in overrides:
        merged["self_draw"] = False
    try:
        context = Context.from_dict(merged).to_dict()
    except (HandError, TypeError) as exc:
        raise ContextError(f"context: {exc}", getattr(exc, "code", "bad_context")) from exc
    fed = {MELD_FROM: feeders} if feeders else {}
    return {**context, **fed, **_reading_fields(written)}


def _reading_fields(written: dict[str, Any]) -> dict[str, Any]:
    """The reading fields, checked, that differ from the defaults: one reading, however written, compares equal."""
    try:
        return photo_options.reading_fields(photo_options.reading_of(written))
    except photo_options.PhotoOptionError as exc:  # its message names the field, as the command line's the option
        raise ContextError(str(exc), "bad_context") from exc


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
