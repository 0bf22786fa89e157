"""The dice/wall helper: from the throws, whose wall the deal starts from and at which stack.

Regional conventions come from the seeds (../shared/seeds):

* 000 Shaanxi: the dealer throws; the sum, counted counterclockwise from the dealer (1-5-9 self, 2-6-10 right,
  3-7-11 opposite, 4-8-12 left), names the second thrower, and the deal starts from that player's wall
  (``第一个摇到谁从谁门前抓牌``). After the second throw, ``两次掷骰点数之和`` stacks are left in place and the dealer
  takes from the next one, two stacks at a time, clockwise. 17 stacks a wall, so the stacks left in that wall are
  ``17 - sum`` (the 抓牌口诀 ``五八十三，两把抓干`` etc. counts exactly these).
* 001 Xi'an: the same two throws; the start is "after stack s1 + s2" of that wall, running into the next wall
  when the sum passes its 17 stacks (``依次向下位选手门前的牌顺延``); four tiles (two stacks) a grab.
* 004 Weinan: one throw; the sum names the wall, the smaller die is the number of stacks left in place
  (``留2墩，从第3墩开始拿牌，顺时针拿牌``).
* 003 (国标 text): 掷大拿小 — one throw, the sum names the wall, the smaller die the stacks skipped; and 开牌 —
  the sum names the wall and is also the stack count. 18 stacks a wall there.

Seats are counted relative to the dealer (the first thrower): 0 self, 1 right (下家), 2 opposite (对家),
3 left (上家); play runs counterclockwise. Stacks are counted clockwise, i.e. from the wall owner's right hand to
their left hand, so a count that runs past the end of a wall continues in the wall of the owner's left neighbour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

N_SEATS = 4
DIE_FACES = range(1, 7)
STACK_TILES = 2  # a stack (墩) is two tiles, one on the other
SkipRule = Literal["both_throws", "smaller_die", "sum"]


class DiceError(ValueError):
    """Bad dice input (a face outside 1-6, a missing second throw, an unknown convention)."""


@dataclass(frozen=True)
class Convention:
    key: str
    seed: str  # which seed file states it
    throws: int  # how many throws of the two dice
    skip: SkipRule  # how many stacks stay in place before the first grab
    stacks_per_wall: int | None  # None where the seed does not say (a 108-tile wall is 13½ stacks)
    grab_stacks: int = 2  # stacks a player takes per grab


CONVENTIONS: dict[str, Convention] = {
    "shaanxi": Convention("shaanxi", "000", throws=2, skip="both_throws", stacks_per_wall=17),
    "xian": Convention("xian", "001", throws=2, skip="both_throws", stacks_per_wall=17),
    "weinan": Convention("weinan", "004", throws=1, skip="smaller_die", stacks_per_wall=None),
    "smaller_die": Convention("smaller_die", "003", throws=1, skip="smaller_die", stacks_per_wall=18),
    "guobiao": Convention("guobiao", "003", throws=1, skip="sum", stacks_per_wall=18),
}

#: The rule set a scoring page uses -> the dice convention of the same seed.
CONVENTION_FOR_RULESET = {"shaanxi": "shaanxi", "shaanxi108": "shaanxi", "xian": "xian", "weinan": "weinan"}


@dataclass(frozen=True)
class WallStart:
    """Where the deal starts. Seats are relative to the dealer (0 self, 1 right, 2 opposite, 3 left)."""

    convention: str
    throws: tuple[tuple[int, int], ...]
    second_thrower: int | None  # who throws the second time (two-throw conventions)
    wall_owner: int  # whose wall the count starts in
    skipped: int  # stacks left in place, counted from the wall owner's right end
    start_wall: int  # the wall holding the first stack taken (the next wall clockwise when the count runs over)
    start_stack: int  # 1-based position of that stack in start_wall, from its owner's right end
    stacks_left_in_wall: int | None  # stacks of start_wall from the first one taken to its end; None if unknown
    grabs_in_wall: int | None  # whole grabs the start wall still gives
    split_grab: bool | None  # the grab after those takes one stack here and one from the next wall

    def absolute(self, seat: int, dealer: int) -> int:
        """A relative seat of this plan as a table seat, given the dealer's table seat."""
        return (dealer + seat) % N_SEATS


def seat_counted(total: int) -> int:
    """The seat a dice total lands on, counting counterclockwise from the thrower (1-5-9 is the thrower)."""
    if total < 1:
        raise DiceError(f"a dice total must be at least 1, got {total}")
    return (total - 1) % N_SEATS


def left_neighbour(seat: int) -> int:
    """The seat whose wall continues a clockwise stack count past the end of ``seat``'s wall."""
    return (seat - 1) % N_SEATS


def _check_throw(throw: tuple[int, int], which: str) -> tuple[int, int]:
    if len(throw) != 2:
        raise DiceError(f"{which} throw needs two dice, got {len(throw)}")
    for face in throw:
        if not isinstance(face, int) or face not in DIE_FACES:
            raise DiceError(f"{which} throw: a die shows 1-6, got {face!r}")
    return (throw[0], throw[1])


def wall_start(convention: str, first: tuple[int, int], second: tuple[int, int] | None = None) -> WallStart:
    """Apply ``convention`` to the dealer's throw (and the second thrower's, where the convention has one)."""
    if convention not in CONVENTIONS:
        raise DiceError(f"unknown dice convention {convention!r}; use one of {', '.join(CONVENTIONS)}")
    conv = CONVENTIONS[convention]
    first = _check_throw(first, "first")
    owner = seat_counted(sum(first))
    if conv.throws == 2:
        if second is None:
            raise DiceError(f"the {convention} convention has a second throw by the player the first one names")
        second = _check_throw(second, "second")
        throws: tuple[tuple[int, int], ...] = (first, second)
        skipped = sum(first) + sum(second)
        second_thrower: int | None = owner
    else:
        if second is not None:
            raise DiceError(f"the {convention} convention has one throw only")
        throws = (first,)
        skipped = min(first) if conv.skip == "smaller_die" else sum(first)
        second_thrower = None

    start_wall, start_stack = owner, skipped + 1
    per_wall = conv.stacks_per_wall
    if per_wall is not None:
        while start_stack > per_wall:  # the count runs on into the next wall clockwise
            start_stack -= per_wall
            start_wall = left_neighbour(start_wall)
        left = per_wall - start_stack + 1
        grabs, split = left // conv.grab_stacks, left % conv.grab_stacks != 0
    else:
        left, grabs, split = None, None, None
    return WallStart(
        convention=convention,
        throws=throws,
        second_thrower=second_thrower,
        wall_owner=owner,
        skipped=skipped,
        start_wall=start_wall,
        start_stack=start_stack,
        stacks_left_in_wall=left,
        grabs_in_wall=grabs,
        split_grab=split,
    )
