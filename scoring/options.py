"""RuleOptions: every rule choice the scorer makes, in one documented place.

The seeds leave points open or contradict themselves; SPEC.md (../shared/rules) numbers those spots [A1]..[A15]
and recommends a reading. Each one is a field here whose default IS the recommended reading, so
``RuleOptions()`` scores exactly as SPEC.md and golden.json say. Results name the switches that decided something
in ``ScoreResult.decisions`` (e.g. ``"A3 shaanxi.discard_payer=all"``).

Switches can be set from text with dotted keys (the CLI's ``--option key=value``)::

    RuleOptions().with_overrides({"shaanxi.discard_payer": "discarder", "weinan.extra_root": "once"})

| key | default | values | ambiguity |
|---|---|---|---|
| shaanxi.base_points | 3 | int > 0 | 底分 D |
| shaanxi.variant | 136 | 136, 108 | [A1]/[A2] 108 = no honours, plain hands only, chows flagged |
| shaanxi.discard_payer | all | all, discarder | [A3] who pays the hu score on a discard |
| shaanxi.paozi_discard_payer | all | all, discarder | [A3] who pays 炮子 on a discard |
| shaanxi.kong_on_draw | keep | keep, void | [A4] kongs in a drawn hand (荒庄) |
| shaanxi.dealer_doubling | hu_only | hu_only, everything | [A5] what the dealer doubling covers |
| shaanxi.max_bet | 4 | 0..4 | [A6] 炮子 per player, 0 allowed |
| xian.base_points | 1 | int > 0 | 基数 B (the seed leaves it open) |
| xian.heavenly | x3_self_draw | x3_self_draw, flat_3 | [A7] 天胡 "赢三倍" |
| xian.discard_payer | discarder | discarder, all | [A8] who pays win and bets on a discard |
| xian.kong_payer | each_other | each_other, feeder | [A9] who pays a kong made on a discard |
| xian.unique_wait_required | true | bool | [A10] 夹张/单调 only on a single-tile wait |
| xian.multiply_bets_and_kongs | false | bool | [A11] do ×2 杠后开花 / ×3 天胡 reach bets and kongs |
| weinan.point_value | 1 | int > 0 | points per 番 per payer |
| weinan.plain_robbing_kong | false | bool | [A12] may a 1番 hand rob a kong |
| weinan.extra_root | per_root | per_root, once | [A13] 双根/三根 "+2": per extra root or once |
| weinan.multi_win_three | winners_pay_discarder | winners_pay_discarder, discarder_pays | [A14] 一炮多响 with 3 winners |
| weinan.after_kong_discard_kong | winner_exempt | winner_exempt, all_pay | [A15] 杠后点胡: winner pays that kong? |
| weinan.table_overrides | {"大对子+天胡": 9} | {"item+item": fan} | table row 4 天胡大对 printed as 9 (sum 8) |
| guiyang.lianzhuang | 0 | int ≥ 0 | 贵阳捉鸡 (partial, seed 003): 连庄 count of the hand, +1 base 番 each |
| guiyang.chicken_mode | shou_shang | shou_shang, nei_wai | 手上鸡 / 内外鸡: do discarded chickens count |
| guiyang.honours_house_rule | false | bool | NOT IN THE SEED: allow honours so 混一色 can occur |

Row 52 of the Weinan table (清一海底捞七小对 11) is a typo of row 13 (same items, 12): the additive rule gives 12
and no override is shipped for it.
"""

from __future__ import annotations

import difflib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PositiveInt, ValidationError, field_validator

from scoring.rules.guiyang_options import GuiyangOptions


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, frozen=True)


class ShaanxiOptions(_Section):
    """陕西麻将 (seed 000, SPEC §2)."""

    base_points: int = Field(3, gt=0, description="底分 D: every amount is a multiple of it")
    variant: Literal[136, 108] = Field(
        136,
        description="[A1]/[A2] 136 tiles with honours and the four special shapes; 108 = suits only, plain hands "
        "only (七对/十三幺/全不靠/组合龙 不算), exposed chows flagged",
    )
    discard_payer: Literal["all", "discarder"] = Field(
        "all", description="[A3] on a discard win the hu score is paid by all three (formal text) or the discarder"
    )
    paozi_discard_payer: Literal["all", "discarder"] = Field(
        "all", description="[A3] on a discard win 炮子 is settled with all three (formal text) or the discarder"
    )
    kong_on_draw: Literal["keep", "void"] = Field(
        "keep", description="[A4] in a drawn hand (荒庄) kongs stand (立刻收取) or are voided (billee1011)"
    )
    dealer_doubling: Literal["hu_only", "everything"] = Field(
        "hu_only", description="[A5] 庄家翻倍 doubles the hu score only (formal, examples) or every payment"
    )
    max_bet: int = Field(4, ge=0, le=4, description="[A6] most 炮子 a player may set; 0 is allowed")


class XianOptions(_Section):
    """西安麻将 (seed 001, SPEC §3)."""

    base_points: int = Field(1, gt=0, description="基数 B (the seed gives no amount)")
    heavenly: Literal["x3_self_draw", "flat_3"] = Field(
        "x3_self_draw", description="[A7] 天胡 赢三倍: 3 × the self-draw base (6B each) or a flat 3B each"
    )
    discard_payer: Literal["discarder", "all"] = Field(
        "discarder", description="[A8] on a discard the discarder alone pays win and bets, or all three do"
    )
    kong_payer: Literal["each_other", "feeder"] = Field(
        "each_other", description="[A9] a kong made on a discard (明杠) is paid by each other player or the feeder"
    )
    unique_wait_required: bool = Field(
        True, description="[A10] 夹张/单调 count only when the hand waited on exactly one kind (独听)"
    )
    multiply_bets_and_kongs: bool = Field(
        False, description="[A11] the ×2 杠后开花 / ×3 天胡 multiplier also applies to bets and kongs"
    )


class WeinanOptions(_Section):
    """渭南麻将 (seed 004, SPEC §4)."""

    point_value: int = Field(1, gt=0, description="points per 番 per payer (底分)")
    plain_robbing_kong: bool = Field(
        False, description="[A12] a 1番 (plain) hand may rob a kong; by default 抢杠 counts as a discard"
    )
    extra_root: Literal["per_root", "once"] = Field(
        "per_root", description="[A13] 双根/三根 add 2 for each root after the first, or 2 once"
    )
    multi_win_three: Literal["winners_pay_discarder", "discarder_pays"] = Field(
        "winners_pay_discarder",
        description="[A14] 一炮多响 with three winners: the seed's reading (the three winners pay the discarder) "
        "or the usual one (the discarder pays each)",
    )
    after_kong_discard_kong: Literal["winner_exempt", "all_pay"] = Field(
        "winner_exempt",
        description="[A15] 杠后点胡: the winner does not pay for the discarder's kong (对胡牌的玩家来说杠不算), "
        "or every other player pays it as usual",
    )
    # a printed total is a win's fan: 0 or less would make the winner pay
    table_overrides: dict[str, PositiveInt] = Field(
        default_factory=lambda: {"大对子+天胡": 9},
        description="fan totals printed in the 组合牌型 table that the additive rule does not give; key = the "
        "item names joined by '+' in any order. Default: row 4 天胡大对 = 9 (the sum is 8)",
    )

    @field_validator("table_overrides")
    @classmethod
    def _known_items(cls, overrides: dict[str, int]) -> dict[str, int]:
        # a misspelt item would make its row silently never match; imported here, as the rule set imports options
        from scoring.rules.weinan import FAN_ITEM_NAMES

        for key in overrides:
            unknown = [part.strip() for part in key.split("+") if part.strip() not in FAN_ITEM_NAMES]
            if unknown:
                close = difflib.get_close_matches(unknown[0], FAN_ITEM_NAMES, n=1)
                guess = f"; did you mean {close[0]}?" if close else ""
                raise ValueError(f"{key!r}: {', '.join(map(repr, unknown))} is no Weinan 番 item{guess} (items: "
                                 f"{' '.join(sorted(FAN_ITEM_NAMES))})")
        return overrides


class RuleOptions(BaseModel):
    """All rule choices for the three rule sets; ``RuleOptions()`` is SPEC.md's recommended reading."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    shaanxi: ShaanxiOptions = Field(default_factory=ShaanxiOptions)
    xian: XianOptions = Field(default_factory=XianOptions)
    weinan: WeinanOptions = Field(default_factory=WeinanOptions)
    guiyang: GuiyangOptions = Field(default_factory=GuiyangOptions)

    def with_overrides(self, overrides: dict[str, Any]) -> RuleOptions:
        """A copy with dotted keys set (``{"shaanxi.variant": "108"}``); raises OptionError naming the bad key."""
        data = self.model_dump()
        for key, value in overrides.items():
            section, _, field = key.partition(".")
            if section not in data or field not in data[section]:
                raise OptionError(_unknown_key(key))
            data[section][field] = _coerce(value)
        try:
            return RuleOptions.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors(include_url=False)
            )
            raise OptionError(f"bad option value: {problems}") from exc

    @classmethod
    def from_pairs(cls, pairs: list[str]) -> RuleOptions:
        """Options from ``key=value`` strings as the CLI takes them."""
        return cls().with_overrides(overrides_of(pairs))


def overrides_of(pairs: list[str]) -> dict[str, str]:
    """``key=value`` strings as the CLI takes them -> {key: value}, the last of a repeated key winning."""
    overrides: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"option {pair!r} is not key=value (e.g. shaanxi.variant=108)")
        overrides[key.strip()] = value.strip()
    return overrides


class OptionError(ValueError):
    """A rule option that does not exist or has a value it cannot take."""


def option_keys() -> list[str]:
    """Every dotted option key, e.g. ``shaanxi.variant``."""
    sections = {"shaanxi": ShaanxiOptions, "xian": XianOptions, "weinan": WeinanOptions, "guiyang": GuiyangOptions}
    return [f"{name}.{field}" for name, model in sections.items() for field in model.model_fields]


def options_table() -> list[tuple[str, ...]]:
    """The table of this module's docstring, the one documented list of switches: (key, default, values, ambiguity)
    rows, the heading row first."""
    rows = [line.strip().strip("|").split(" | ") for line in __doc__.splitlines() if line.startswith("| ")]
    return [tuple(cell.strip() for cell in row) for row in rows]


def _unknown_key(key: str) -> str:
    """The refusal of a key: the nearest keys (a typo, or a name without its section) and where every key is."""
    close = difflib.get_close_matches(key, option_keys())
    guess = f"; did you mean {', '.join(close)}?" if close else ""
    return f"unknown option {key!r}{guess} (every key, its default and values: --list-options)"


def _coerce(value: Any) -> Any:
    """Text from the command line: JSON-ish literals become numbers, booleans and dicts; the rest stays text."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if text.lower() in ("true", "yes", "on"):
        return True
    if text.lower() in ("false", "no", "off"):
        return False
    if text.lstrip("-").isdecimal():
        return int(text)
    if text.startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise OptionError(f"option value {text!r} is not valid JSON: {exc}") from exc
    return text
