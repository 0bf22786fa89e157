"""ReadOptions: every default the normalizer applies when a photo cannot decide, in one validated place."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from scoring.tiles import TileParseError, kind_of

KongType = Literal["kong_exposed", "kong_added", "kong_concealed"]
MeldTypeName = Literal["chow", "pung", "kong_exposed", "kong_added", "kong_concealed"]


def _check_tile(name: str) -> str:
    try:
        kind_of(name)
    except TileParseError as exc:
        raise ValueError(str(exc)) from exc
    return name


class ReadOptions(BaseModel):
    """How the photo is read. Every field has the documented default; the user switches what the photo cannot tell."""

    model_config = ConfigDict(extra="forbid")

    min_confidence: float = Field(0.25, ge=0, le=1, description="detections below this are dropped")
    low_confidence: float = Field(0.5, ge=0, le=1, description="hand tiles below this get a low_confidence warning")
    face_up_kong: Literal["kong_exposed", "kong_added"] = Field(
        "kong_exposed",
        description="four face-up tiles of one kind look the same for 明杠 and 补杠: the type to assume",
    )
    win_tile: Literal["set_apart", "last", "none"] = Field(
        "set_apart",
        description="set_apart: the tile set apart at the right end of the concealed row (else the last tile when "
        "the count says one is there); last: the right-most tile of the concealed row; none: a 13-tile hand",
    )
    win_tile_kind: str | None = Field(None, description="name the winning tile ('5p'); one copy leaves the concealed")
    concealed_kong_kinds: list[str] = Field(
        default_factory=list, description="kinds of the kongs shown as four backs, in reading order ('C', '9s')"
    )
    meld_types: dict[int, MeldTypeName] = Field(
        default_factory=dict, description="switch the type of meld i (0-based, reading order), e.g. {0: 'kong_added'}"
    )
    reread_tiles: int = Field(
        3,
        ge=0,
        le=3,
        description="a group of 3-4 tiles that is no meld, or a hand that does not win: re-read at most this many "
        "tiles (or pung/kong kinds) as the classifier's next choices when that makes a meld or a winning hand, with a "
        "meld_reread or reread_to_win warning; 0 turns it off",
    )
    duplicate_iou: float = Field(0.7, gt=0, le=1, description="two boxes overlapping more than this are one tile")
    gap_ratio: float = Field(
        0.25, gt=0, description="a space wider than this share of a tile width splits a row into groups"
    )
    hand_distance: float = Field(
        3.5, gt=0, description="groups further than this many tile sizes from the hand are not part of it"
    )
    small_ratio: float = Field(0.6, gt=0, lt=1, description="tiles smaller than this share of the hand's are ignored")

    @field_validator("win_tile_kind")
    @classmethod
    def _win_tile_is_a_tile(cls, value: str | None) -> str | None:
        return None if value is None else _check_tile(value)

    @field_validator("concealed_kong_kinds")
    @classmethod
    def _kong_kinds_are_tiles(cls, value: list[str]) -> list[str]:
        return [_check_tile(v) for v in value]
