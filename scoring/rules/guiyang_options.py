"""Options of the partial 贵阳捉鸡 rule set (seed 003's fragment); part of ``scoring.options.RuleOptions``."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class GuiyangOptions(BaseModel):
    """贵阳捉鸡 (seed 003, partial). ``honours_house_rule`` is not in the seed and says so."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=True)

    lianzhuang: int = Field(
        0, ge=0, description="连庄 count of this hand: how many times the dealer has kept the deal by winning; "
        "each adds 1 番 to the base (基础番将加一番), paid by the dealer when someone else wins",
    )
    chicken_mode: Literal["shou_shang", "nei_wai"] = Field(
        "shou_shang", description="手上鸡 (count only the player's tiles not discarded) or 内外鸡 (discards too)"
    )
    honours_house_rule: bool = Field(
        False, description="NOT IN THE SEED: accept honour tiles (a 136-tile house set) so that 混一色 can occur; "
        "the seed's 108 tiles have none",
    )
