"""What the normalizer returns: the read hand, every detected tile with its role, and warnings as data."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter
from typing import Any, Literal

from scoring.hand import Context, Hand, HandError, Meld, MeldType
from scoring.tiles import format_compact

Role = Literal["concealed", "win", "meld", "ignored"]


@dataclass
class ReadTile:
    """One detection and where the reader put it. ``cls`` is what the tile was read as (a blank 白 next to backs
    can be read as ``back`` and the other way round, a misread tile re-read); ``detected_cls`` is what the detector
    said and ``detected_conf`` its confidence when a re-read changed ``conf``; ``choices`` the other faces the
    classifier found likely (models that give class probabilities)."""

    cls: str
    conf: float
    box: tuple[float, float, float, float]
    group: Role = "ignored"
    meld: int | None = None  # index into ReadHand.melds when group == "meld"
    row: int | None = None
    sideways: bool = False
    detected_cls: str = ""
    detected_conf: float | None = None
    choices: tuple[str, ...] = ()  # the classifier's next likeliest faces, best first: quick fixes for the user

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cls": self.cls,
            "conf": round(float(self.conf), 4),
            "box": [round(float(v), 1) for v in self.box],
            "group": self.group,
            "meld": self.meld,
            "row": self.row,
            "sideways": self.sideways,
        }
        if self.detected_cls and self.detected_cls != self.cls:
            out["detected_cls"] = self.detected_cls
        if self.detected_conf is not None and self.detected_conf != self.conf:
            out["detected_conf"] = round(float(self.detected_conf), 4)
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class ReadWarning:
    """Something the user should check. ``code`` is stable; ``tiles`` are indices into ReadHand.tiles."""

    code: str
    message: str
    tiles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "tiles": list(self.tiles)}


@dataclass
class ReadHand:
    """The hand as read. ``concealed`` excludes the winning tile (golden.json's ``hand``)."""

    concealed: list[int]
    melds: list[Meld]
    win_tile: int | None
    tiles: list[ReadTile]
    warnings: list[ReadWarning] = field(default_factory=list)
    unresolved_kongs: int = 0  # kongs shown as four backs whose kind the user has not named

    @property
    def warning_codes(self) -> list[str]:
        return [w.code for w in self.warnings]

    def to_hand(self, context: Context | None = None, meld_from: Mapping[int, int] | None = None) -> Hand:
        """The scorer's Hand; raises HandError (with its .code) when the read hand cannot be one. ``meld_from``
        gives the seat that fed meld i (what a photo cannot show: who discarded an exposed kong's 4th tile)."""
        if self.unresolved_kongs:
            raise HandError(
                f"{self.unresolved_kongs} kong(s) shown as four face-down tiles: name their kind "
                "(ReadOptions.concealed_kong_kinds, --kong-kind)",
                "kong_kind_unknown",
            )
        melds = list(self.melds)
        for index, seat in (meld_from or {}).items():
            if not 0 <= index < len(melds):
                shown = f"melds 0-{len(melds) - 1}" if melds else "no melds"
                raise HandError(f"--meld-from {index}={seat}: the photo shows {shown}", "bad_meld")
            if melds[index].type is MeldType.KONG_CONCEALED:
                raise HandError(f"--meld-from {index}={seat}: meld {index} is a concealed kong, which nobody fed",
                                "bad_meld")
            melds[index] = replace(melds[index], from_seat=seat)
        return Hand(tuple(self.concealed), tuple(melds), self.win_tile, context or Context())

    def summary(self) -> str:
        """The hand in one line (`hand_line`), meld types as codes."""
        return hand_line(self)

    def to_json(self) -> dict[str, Any]:
        """The ``mjsnap read --json`` object."""
        return {
            "concealed": format_compact(self.concealed),
            "melds": [{"type": m.type.value, "tiles": format_compact(m.tiles)} for m in self.melds],
            "win_tile": format_compact([self.win_tile]) if self.win_tile is not None else None,
            "tiles": [t.to_json() for t in self.tiles],
            "warnings": [w.to_json() for w in self.warnings],
        }


def hand_line(hand: ReadHand | Hand, meld_name: Callable[[MeldType], str] = attrgetter("value")) -> str:
    """A hand as read, or a scored one, in one line: concealed tiles, the melds in brackets (their types as
    ``meld_name`` writes them: codes by default), ``+`` the winning tile (``?``: none)."""
    melds = "".join(f" [{meld_name(m.type)} {format_compact(m.tiles)}]" for m in hand.melds)
    win = format_compact([hand.win_tile]) if hand.win_tile is not None else "?"
    return f"{format_compact(hand.concealed)}{melds} + {win}"
