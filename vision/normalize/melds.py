"""Meld typing: which meld a run of 3 or 4 tiles (in row order) is, face-down tiles and blank 白 included.

A concealed kong is shown with its two end tiles (or all four) face down. A blank 白 (``P``) and a tile back
look alike to a detector, so inside a kong the position decides: a ``P`` at an end next to face-up tiles of
another kind is a back, a ``back`` in the middle of a kong whose faces are ``P`` is a 白.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.hand import HandError, Meld, MeldType
from scoring.tiles import BACK, CLASS_NAMES, format_compact

WHITE = CLASS_NAMES.index("P")


@dataclass(frozen=True)
class MeldReading:
    """The outcome for one group: a meld, or None with a warning code and message."""

    meld: Meld | None
    classes: tuple[int, ...]  # the group's classes after the P/back position rule
    code: str | None = None  # warning code, also set for an accepted meld the photo could not fully decide
    message: str = ""
    needs_kind: bool = False  # four backs: a concealed kong of unknown kind


_FACE_DOWN_PATTERNS = ((0, 3), (1, 2), (0, 1, 2, 3))  # how a concealed kong is shown


def _resolve_white(classes: list[int]) -> list[int]:
    """Turn ``P``/``back`` readings into the closest way a concealed kong is shown (fewest changes); unchanged
    when no pattern fits."""
    faces = [c for c in classes if c not in (BACK, WHITE)]
    kind = max(set(faces), key=faces.count) if faces else WHITE
    best: tuple[int, list[int]] | None = None
    for down in _FACE_DOWN_PATTERNS:
        wanted = [BACK if i in down else kind for i in range(len(classes))]
        changes = 0
        for got, want in zip(classes, wanted):
            if got == want:
                continue
            if {got, want} != {BACK, WHITE}:
                break
            changes += 1
        else:
            if best is None or changes < best[0]:
                best = (changes, wanted)
    return classes if best is None else best[1]


def _whites_where_backs_lie(classes: list[int]) -> bool:
    """Four tiles of one kind but for 白 where a concealed kong's backs lie (P 9s 9s P, 9s P P 9s): both backs
    were read as blanks. Four 白 are a kong of 白, and 白 anywhere else is no kong."""
    return WHITE in classes and len(set(classes) - {WHITE}) == 1 and BACK in _resolve_white(list(classes))


def type_group(classes: list[int], face_up_kong: str, named_kind: int | None = None) -> MeldReading:
    """Type one group of tiles given in row order. ``named_kind`` is the user's kind for a four-back kong."""
    n = len(classes)
    label = " ".join(CLASS_NAMES[c] for c in classes)
    if n == 4 and (BACK in classes or _whites_where_backs_lie(classes)):
        return _concealed_kong(_resolve_white(list(classes)), named_kind, label)
    if BACK in classes:
        return MeldReading(None, tuple(classes), "face_down_outside_kong", f"{label}: face-down tiles only belong in a kong")
    if n == 3:
        for meld_type in (MeldType.PUNG, MeldType.CHOW):
            try:
                return MeldReading(Meld(meld_type, tuple(classes)), tuple(classes))
            except HandError:
                continue
    if n == 4 and len(set(classes)) == 1:
        meld = Meld(MeldType(face_up_kong), tuple(classes))
        other = MeldType.KONG_ADDED if meld.type == MeldType.KONG_EXPOSED else MeldType.KONG_EXPOSED
        return MeldReading(
            meld,
            tuple(classes),
            "kong_type_assumed",
            f"kong {format_compact(classes)}: four face-up tiles can be an exposed or an added kong; read as "
            f"{face_up_kong} (switch it with --meld-type I={other.value}, I the meld's number from 0, or in the app)",
        )
    return MeldReading(None, tuple(classes), "not_a_meld", f"{label} is no pung, chow or kong")


def _concealed_kong(classes: list[int], named_kind: int | None, label: str) -> MeldReading:
    faces = {c for c in classes if c != BACK}
    backs = classes.count(BACK)
    if not faces:
        if named_kind is None:
            return MeldReading(
                None,
                tuple(classes),
                "kong_kind_unknown",
                "a kong shown as four face-down tiles: name its kind (concealed kong kinds option)",
                needs_kind=True,
            )
        return MeldReading(Meld(MeldType.KONG_CONCEALED, (named_kind,) * 4), tuple(classes))
    if len(faces) != 1:
        return MeldReading(None, tuple(classes), "not_a_meld", f"{label}: the face-up tiles of a kong must match")
    kind = faces.pop()
    meld = Meld(MeldType.KONG_CONCEALED, (kind,) * 4)
    if backs != 2:
        return MeldReading(
            meld,
            tuple(classes),
            "kong_face_down_count",
            f"{label}: read as a concealed kong of {CLASS_NAMES[kind]}, but it shows {backs} face-down tile(s) "
            "where a concealed kong shows 2 or 4",
        )
    return MeldReading(meld, tuple(classes))


def split_into_melds(classes: list[int], face_up_kong: str) -> list[tuple[int, int]] | None:
    """Cut a run that holds several touching melds into (start, stop) pieces of 3 or 4 that all type as melds.

    Prefers cuts whose melds raise no warning; None when no cut works.
    """
    best: tuple[int, list[tuple[int, int]]] | None = None

    def search(start: int, pieces: list[tuple[int, int]], doubts: int) -> None:
        nonlocal best
        if start == len(classes):
            if best is None or doubts < best[0]:
                best = (doubts, list(pieces))
            return
        for size in (3, 4):
            stop = start + size
            if stop > len(classes):
                continue
            reading = type_group(classes[start:stop], face_up_kong)
            if reading.meld is None and not reading.needs_kind:
                continue
            pieces.append((start, stop))
            search(stop, pieces, doubts + (reading.code is not None))
            pieces.pop()

    search(0, [], 0)
    return None if best is None else best[1]
