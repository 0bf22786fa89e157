"""The dice/wall helper against the seeds' own examples and mnemonics."""

from __future__ import annotations

import pytest

from mjsnap.dice import CONVENTION_FOR_RULESET, CONVENTIONS, DiceError, seat_counted, wall_start

SELF, RIGHT, OPPOSITE, LEFT = 0, 1, 2, 3


@pytest.mark.parametrize(
    ("total", "seat"),
    [(1, SELF), (5, SELF), (9, SELF), (2, RIGHT), (6, RIGHT), (10, RIGHT), (3, OPPOSITE), (7, OPPOSITE),
     (11, OPPOSITE), (4, LEFT), (8, LEFT), (12, LEFT)],
)
def test_seat_counting_rhyme(total, seat):
    # seeds 000/003: 1、5、9自守；2、6、10右手方；3、7、11是对门；4、8、12左手方
    assert seat_counted(total) == seat


def test_weinan_seed_example():
    # seed 004: 6 and 2 = 8 -> the player on my left; keep 2 stacks (the smaller die), start at the 3rd
    plan = wall_start("weinan", (6, 2))
    assert (plan.wall_owner, plan.skipped, plan.start_wall, plan.start_stack) == (LEFT, 2, LEFT, 3)
    assert plan.second_thrower is None and plan.stacks_left_in_wall is None


def test_seed003_smaller_die_example():
    # seed 003: 5 and 6 -> opposite's wall, count 5 stacks from their right hand, then take
    plan = wall_start("smaller_die", (5, 6))
    assert (plan.wall_owner, plan.skipped, plan.start_stack) == (OPPOSITE, 5, 6)
    assert plan.stacks_left_in_wall == 18 - 5


def test_xian_seed_example():
    # seed 001: the dealer throws 10 -> 下家; 下家 throws 5 -> start after stack 10 + 5 = 15 of 下家's wall
    plan = wall_start("xian", (4, 6), (2, 3))
    assert plan.second_thrower == RIGHT and plan.wall_owner == RIGHT
    assert (plan.skipped, plan.start_wall, plan.start_stack, plan.stacks_left_in_wall) == (15, RIGHT, 16, 2)


def test_shaanxi_seed_example_opposite_wall():
    # seed 000: first throw 1+2 -> 对家 throws second, 2+4; 9 stacks of 对家's wall are moved past
    plan = wall_start("shaanxi", (1, 2), (2, 4))
    assert (plan.second_thrower, plan.wall_owner, plan.skipped, plan.start_stack) == (OPPOSITE, OPPOSITE, 9, 10)


@pytest.mark.parametrize(
    ("first", "second", "left", "grabs", "split"),
    [
        ((2, 3), (4, 4), 4, 2, False),  # 五八十三，两把抓干
        ((3, 4), (3, 3), 4, 2, False),  # (七六)十三
        ((3, 4), (4, 5), 1, 0, True),  # 七九十六，两头凑
        ((1, 4), (3, 4), 5, 2, True),  # 五七十二，两把一带
        ((1, 3), (2, 3), 8, 4, False),  # 四五九，一家一手 (four players, one grab each)
        ((1, 2), (3, 3), 8, 4, False),  # (三六)九
        ((3, 4), (1, 3), 6, 3, False),  # 七四十一，三手齐
    ],
)
def test_shaanxi_grab_mnemonic(first, second, left, grabs, split):
    plan = wall_start("shaanxi", first, second)
    assert (plan.stacks_left_in_wall, plan.grabs_in_wall, plan.split_grab) == (left, grabs, split)


@pytest.mark.parametrize(
    ("first", "second", "owner", "start_wall", "start_stack"),
    [
        ((6, 6), (2, 3), LEFT, OPPOSITE, 1),  # 12 + 5 = 17 skips the left wall whole: stack 1 of the next wall
        ((6, 6), (6, 6), LEFT, OPPOSITE, 8),  # 24 = 17 in the left wall + 7 more in the next one clockwise
        ((1, 1), (6, 6), RIGHT, RIGHT, 15),  # 2 + 12 = 14 stays inside the right wall
    ],
)
def test_count_runs_into_next_wall_clockwise(first, second, owner, start_wall, start_stack):
    plan = wall_start("shaanxi", first, second)
    assert (plan.wall_owner, plan.start_wall, plan.start_stack) == (owner, start_wall, start_stack)


def test_overflow_goes_to_owners_left_neighbour():
    plan = wall_start("xian", (6, 6), (6, 6))  # 12 -> left seat 3; 24 stacks
    assert plan.wall_owner == LEFT
    assert plan.start_wall == OPPOSITE and plan.start_stack == 24 - 17 + 1
    assert plan.stacks_left_in_wall == 17 - 7


def test_guobiao_skips_the_sum():
    plan = wall_start("guobiao", (3, 4))
    assert (plan.wall_owner, plan.skipped, plan.start_stack) == (OPPOSITE, 7, 8)


def test_absolute_seats_follow_the_dealer():
    plan = wall_start("weinan", (6, 2))  # left of the dealer
    assert plan.absolute(plan.wall_owner, dealer=0) == 3
    assert plan.absolute(plan.wall_owner, dealer=2) == 1


@pytest.mark.parametrize(
    ("convention", "first", "second", "message"),
    [
        ("shaanxi", (3, 4), None, "second throw"),
        ("weinan", (3, 4), (1, 1), "one throw only"),
        ("weinan", (0, 4), None, "1-6"),
        ("weinan", (3, 7), None, "1-6"),
        ("xian", (3, 4), (3,), "two dice"),
        ("mars", (3, 4), None, "unknown dice convention"),
    ],
)
def test_bad_input_is_explained(convention, first, second, message):
    with pytest.raises(DiceError, match=message):
        wall_start(convention, first, second)


def test_every_ruleset_has_a_convention():
    assert set(CONVENTION_FOR_RULESET) == {"shaanxi", "shaanxi108", "xian", "weinan"}
    assert set(CONVENTION_FOR_RULESET.values()) <= set(CONVENTIONS)
