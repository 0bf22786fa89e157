"""A top view of the four walls with the stacks left in place and the first grab marked (dealer at the bottom).

Stacks are numbered from each wall owner's right hand, so on screen: the bottom wall runs right to left, the right
wall top to bottom, the top wall left to right, the left wall bottom to top — all clockwise, as the count goes.
"""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from mjsnap.dice import CONVENTIONS, N_SEATS, WallStart, left_neighbour

SIZE = 360
MARGIN = 34
FREE, SKIPPED, FIRST_GRAB = (236, 226, 200), (170, 170, 170), (220, 50, 40)
OUTLINE = (90, 80, 60)
DEFAULT_STACKS = 13  # a 108-tile wall is 13 stacks and a tile; the seeds leave it open


def stack_sequence(plan: WallStart, per_wall: int) -> list[tuple[int, int]]:
    """(wall, 1-based stack) in counting order from the owner's first stack, around all four walls."""
    order, wall = [], plan.wall_owner
    for _ in range(N_SEATS):
        order += [(wall, s) for s in range(1, per_wall + 1)]
        wall = left_neighbour(wall)
    return order


def _cell(wall: int, stack: int, per_wall: int) -> tuple[float, float, float, float]:
    """Screen rectangle of a stack; ``wall`` is the seat relative to the dealer (0 bottom, 1 right, 2 top, 3 left)."""
    inner = SIZE - 2 * MARGIN
    step = inner / per_wall
    depth = step * 1.3
    k = stack - 1
    if wall == 0:  # bottom, from the right end leftwards
        x2 = SIZE - MARGIN - k * step
        return (x2 - step, SIZE - MARGIN - depth, x2, SIZE - MARGIN)
    if wall == 1:  # right, from the top downwards
        y1 = MARGIN + k * step
        return (SIZE - MARGIN - depth, y1, SIZE - MARGIN, y1 + step)
    if wall == 2:  # top, from the left end rightwards
        x1 = MARGIN + k * step
        return (x1, MARGIN, x1 + step, MARGIN + depth)
    y2 = SIZE - MARGIN - k * step  # left, from the bottom upwards
    return (MARGIN, y2 - step, MARGIN + depth, y2)


def draw_walls(plan: WallStart, dealer: int) -> Image.Image:
    """The diagram; seat numbers are the table seats (``dealer`` is the dealer's), the dealer sits at the bottom."""
    per_wall = CONVENTIONS[plan.convention].stacks_per_wall or DEFAULT_STACKS
    image = Image.new("RGB", (SIZE, SIZE), (40, 110, 70))
    draw = ImageDraw.Draw(image)
    order = stack_sequence(plan, per_wall)
    skipped = set(order[: plan.skipped])
    first = set(order[plan.skipped : plan.skipped + 2])
    for wall in range(N_SEATS):
        for stack in range(1, per_wall + 1):
            colour = FIRST_GRAB if (wall, stack) in first else SKIPPED if (wall, stack) in skipped else FREE
            x1, y1, x2, y2 = _cell(wall, stack, per_wall)
            draw.rectangle((x1 + 1, y1 + 1, x2 - 1, y2 - 1), fill=colour, outline=OUTLINE)
    font = ImageFont.load_default(size=16)
    centre = SIZE / 2
    spots = {0: (centre, SIZE - 12), 1: (SIZE - 12, centre), 2: (centre, 12), 3: (12, centre)}
    for wall, (x, y) in spots.items():
        seat = (dealer + wall) % N_SEATS
        label = f"{seat}*" if wall == 0 else str(seat)
        draw.text((x, y), label, fill=(255, 255, 255), font=font, anchor="mm")
    return image

