"""RuleOptions: defaults are SPEC.md's recommended readings, every switch is documented in one table, and text
overrides are parsed or refused with a message that names the key."""

from __future__ import annotations

import pytest

import scoring.options as options_module
from scoring.options import OptionError, RuleOptions, option_keys

SPEC_DEFAULTS = {
    "shaanxi.base_points": 3,
    "shaanxi.variant": 136,
    "shaanxi.discard_payer": "all",
    "shaanxi.kong_on_draw": "keep",
    "shaanxi.dealer_doubling": "hu_only",
    "shaanxi.max_bet": 4,
    "xian.base_points": 1,
    "xian.discard_payer": "discarder",
    "xian.kong_payer": "each_other",
    "xian.unique_wait_required": True,
    "xian.heavenly": "x3_self_draw",
    "xian.multiply_bets_and_kongs": False,
    "weinan.extra_root": "per_root",
    "weinan.plain_robbing_kong": False,
    "weinan.table_overrides": {"大对子+天胡": 9},
}


@pytest.mark.parametrize(("key", "value"), SPEC_DEFAULTS.items())
def test_defaults_are_the_recommended_readings(key, value):
    section, field = key.split(".")
    assert getattr(getattr(RuleOptions(), section), field) == value


@pytest.mark.parametrize("key", option_keys())
def test_every_option_is_documented_in_the_module_table(key):
    assert f"| {key} |" in options_module.__doc__


@pytest.mark.parametrize(
    ("pair", "key", "value"),
    [
        ("shaanxi.variant=108", "shaanxi.variant", 108),
        ("xian.unique_wait_required=false", "xian.unique_wait_required", False),
        ("weinan.extra_root=once", "weinan.extra_root", "once"),
        ('weinan.table_overrides={"大对子+天胡": 8}', "weinan.table_overrides", {"大对子+天胡": 8}),
        ("shaanxi.base_points = 5", "shaanxi.base_points", 5),
    ],
)
def test_from_pairs(pair, key, value):
    section, field = key.split(".")
    assert getattr(getattr(RuleOptions.from_pairs([pair]), section), field) == value


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        ("shaanxi.variant=100", "shaanxi.variant"),
        ("shaanxi.colour=red", "unknown option 'shaanxi.colour'"),
        ("weinan.pointvalue=2", "unknown option 'weinan.pointvalue'; did you mean weinan.point_value"),
        ("max_bet=2", "unknown option 'max_bet'; did you mean shaanxi.max_bet"),
        ("nonsense", "not key=value"),
        ("shaanxi.max_bet=9", "shaanxi.max_bet"),
        ("weinan.table_overrides={bad", "not valid JSON"),
        # a misspelt item made its row silently never match
        ('weinan.table_overrides={"大对+天胡": 9}', "'大对' is no Weinan 番 item; did you mean 大对子?"),
        ('weinan.table_overrides={"清一+天胡+ 胡": 9}', "'胡' is no Weinan 番 item"),
        ('weinan.table_overrides={"": 9}', "'' is no Weinan 番 item"),
    ],
)
def test_bad_options_are_refused_with_the_key(pair, message):
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        RuleOptions.from_pairs([pair])


@pytest.mark.parametrize(
    "key", ["大对子+天胡", " 天胡 + 大对子 ", "清一+七小对+extra根", "自摸+根", "杠后点胡+海底捞+地胡+杠上花+平胡+豪华七小对+金钩钓"]
)
def test_every_fan_item_may_be_joined_in_an_override(key):
    assert RuleOptions.from_pairs([f'weinan.table_overrides={{"{key}": 9}}']).weinan.table_overrides == {key: 9}


def test_options_are_immutable_values():
    opts = RuleOptions()
    assert opts.with_overrides({"shaanxi.variant": 108}).shaanxi.variant == 108
    assert opts.shaanxi.variant == 136
    with pytest.raises(Exception):
        opts.shaanxi.variant = 108
