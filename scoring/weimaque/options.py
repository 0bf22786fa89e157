"""WeimaqueOptions: every choice the 偎麻雀 text (seed 003) leaves open, in one documented model.

N is the 名堂 multiplier (对子胡 6, 乌对 8, 乌胡 4, 点胡 3: 总息等于硬息的N倍), A the additive 名堂息. The defaults
follow the seed's own wording; a result names each switch that decided something in its
``decisions`` (e.g. ``"weimaque.multiplier_order=multiply_then_add"``). Set them from text with dotted keys
(the CLI's ``--option key=value``)::

    WeimaqueOptions.from_pairs(["weimaque.erqishi_sets=true", "weimaque.multiplier_order=add_then_multiply"])

At most one multiplier ever applies, so their combination needs no switch: 乌对 ×8 is the name for 对子胡 with no red
card (it replaces 对子胡 ×6 and 乌胡 ×4), and 点胡 ×3 (exactly one red card) cannot meet 对子胡, whose 句 and 麻雀 are
all triplets and pairs (so 0 or at least 2 red cards).

| key | default | values | what the seed leaves open |
|---|---|---|---|
| weimaque.multiplier_order | multiply_then_add | …, add_then_multiply | 总息 = N × 硬息 + A, or (硬息 + A) × N |
| weimaque.erqishi_sets | false | bool | is 二七十 / 贰柒拾 a valid 句 (the seed shows only runs such as 柒捌玖) |
| weimaque.mixed_sets | false | bool | is a 绞 句 of one number in both cases (一一壹, 壹壹一) valid (the seed: 大字和小字…不能相互混合) |
| weimaque.shou_qian_shou_xi | none | none, int ≥ 0 | 21. 手牵手 "暂不明": a house value for a hand marked 手牵手 |
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PREFIX = "weimaque."


class WeimaqueOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    multiplier_order: Literal["multiply_then_add", "add_then_multiply"] = Field(
        "multiply_then_add",
        description="multipliers apply to 硬息 only and the additive 名堂息 come after (总息等于硬息的N倍), or the "
        "additions are multiplied too",
    )
    erqishi_sets: bool = Field(False, description="二七十 / 贰柒拾 counts as a 句")
    mixed_sets: bool = Field(False, description="a 绞 句 (一一壹, 壹壹一: one number in both cases) counts as a 句")
    shou_qian_shou_xi: int | None = Field(
        None, ge=0, description="house value of 手牵手 (the seed: 暂不明); None = not scored"
    )

    def with_overrides(self, overrides: dict[str, Any]) -> WeimaqueOptions:
        """A copy with ``weimaque.KEY`` (or bare ``KEY``) set; raises WeimaqueOptionError naming the bad key."""
        data = self.model_dump()
        for key, value in overrides.items():
            field = key.removeprefix(PREFIX)
            if field not in data:
                raise WeimaqueOptionError(f"unknown option {key!r}; known: {', '.join(option_keys())}")
            data[field] = None if isinstance(value, str) and value.strip().lower() in ("none", "null", "") else value
        try:
            return WeimaqueOptions.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(f"{PREFIX}{err['loc'][0]}: {err['msg']}" for err in exc.errors(include_url=False))
            raise WeimaqueOptionError(f"bad option value: {problems}") from exc

    @classmethod
    def from_pairs(cls, pairs: list[str]) -> WeimaqueOptions:
        """Options from ``key=value`` strings as the CLI takes them."""
        overrides: dict[str, Any] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise WeimaqueOptionError(f"option {pair!r} is not key=value (e.g. weimaque.erqishi_sets=true)")
            overrides[key.strip()] = value.strip()
        return cls().with_overrides(overrides)

    def describe(self, field: str) -> str:
        """``weimaque.KEY=VALUE`` as written in a result's ``decisions``."""
        value = getattr(self, field)
        text = "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)
        return f"{PREFIX}{field}={text}"


class WeimaqueOptionError(ValueError):
    """An option that does not exist or a value it cannot take."""


def option_keys() -> list[str]:
    return [PREFIX + name for name in WeimaqueOptions.model_fields]
