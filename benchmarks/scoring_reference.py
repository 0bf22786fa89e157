"""The engine against an independent reference scorer on random hands: Shaanxi, Shaanxi 108, Xi'an and Weinan.

The reference below is written from ../shared/rules/SPEC.md with its recommended readings (the [A#] defaults,
RuleOptions()) and shares no scoring code with the engine: it has its own tile parsing, plain decompositions
(4 sets + a pair), waits, items and payments. The one thing it borrows is Shaanxi's special-shape check (seven pairs,
thirteen orphans, the knitted shapes) for a hand with no plain reading: scoring.shapes.find_shapes, which
`benchmarks/scoring.py --differential` checks against PyMahjongGB.

Random cases are built from random sets (chows and pungs, some declared as chow / pung / kong melds) or seven pairs,
with random seats, bets and win context (self-draw, kong replacement, heavenly, earthly, robbing a kong, last tile,
Weinan's declared missing suit and win after a kong discard). Each is scored by scoring.scorer.score_case and by the
reference; a mismatch is a different validity, different deltas for a valid win, or a different reason for a
refused one.

    .venv/bin/python benchmarks/scoring_reference.py [--cases 5000] [--seed 2026]

Writes benchmarks/results/scoring_reference.json and scoring_reference.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.scoring import machine  # noqa: E402
from scoring.hand import Hand  # noqa: E402
from scoring.scorer import score_case  # noqa: E402
from scoring.shapes import find_shapes  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"

# Tiles are kinds 0..33: 1m..9m, 1p..9p, 1s..9s, then the honours 1z..7z. Parsed here rather than with
# scoring.tiles so that the reference reads the cases on its own.
SUITS = "mps"
TILE_NAMES = [f"{rank}{suit}" for suit in SUITS for rank in range(1, 10)] + [f"{rank}z" for rank in range(1, 8)]
FIRST_HONOUR = 27
SEATS = range(4)

# A plain reading: (the pair's kind or None, sets as ("chow" | "pung", lowest kind)).
Reading = tuple[int | None, tuple[tuple[str, int], ...]]

MISMATCHES_KEPT = 50  # the result files list this many mismatching cases in full


# ---------------------------------------------------------------- tiles and cases
def tile_kind(name: str) -> int:
    return TILE_NAMES.index(name)


def parse_tiles(text: str) -> list[int]:
    """``"123m11z"`` -> kinds; digits wait for the suit letter that follows them."""
    kinds: list[int] = []
    ranks: list[str] = []
    for char in text:
        if char.isdigit():
            ranks.append(char)
        else:
            kinds += [tile_kind(rank + char) for rank in ranks]
            ranks = []
    return kinds


def tiles_text(kinds: list[int]) -> str:
    """Kinds -> compact text, sorted and grouped by suit (``"123m11z"``)."""
    text = ""
    for suit in SUITS + "z":
        ranks = "".join(TILE_NAMES[kind][0] for kind in sorted(kinds) if TILE_NAMES[kind][1] == suit)
        if ranks:
            text += ranks + suit
    return text


def can_start_chow(kind: int) -> bool:
    return kind < FIRST_HONOUR and kind % 9 <= 6


def closed_tiles(case: dict[str, Any]) -> list[int]:
    """The concealed tiles with the winning tile."""
    return parse_tiles(case["hand"]) + [tile_kind(case["win_tile"])]


def all_tiles(case: dict[str, Any]) -> list[int]:
    return closed_tiles(case) + [kind for meld in case["melds"] for kind in parse_tiles(meld["tiles"])]


def is_kong(meld: dict[str, Any]) -> bool:
    return meld["type"].startswith("kong")


def is_self_drawn(context: dict[str, Any]) -> bool:
    # heavenly and kong-replacement wins are draws; robbing a kong is a win on someone else's tile
    drawn = context.get("self_draw") or context.get("heavenly") or context.get("kong_replacement")
    return bool(drawn) and not context.get("robbing_kong")


def other_seats(winner: int) -> list[int]:
    return [seat for seat in SEATS if seat != winner]


def discarder(context: dict[str, Any]) -> int:
    """Who fed the winning tile; an earthly win is on the dealer's first discard, so the dealer by default."""
    return context.get("discarder", context.get("dealer", 0))


def context_problem(case: dict[str, Any]) -> str | None:
    """The reason a win context cannot happen, shared by the three rule sets; None when it can."""
    context = case["context"]
    dealer, winner = context.get("dealer", 0), context.get("winner", 0)
    if context.get("heavenly") and winner != dealer:
        return "heavenly_not_dealer"
    if context.get("earthly") and (winner == dealer or discarder(context) != dealer):
        return "earthly_not_on_dealer_discard"
    if context.get("kong_replacement") and not any(is_kong(meld) for meld in case["melds"]):
        return "kong_replacement_without_kong"
    return None


class Payments:
    """Zero-sum moves of points from payers to one winner."""

    def __init__(self, winner: int) -> None:
        self.winner = winner
        self.deltas = [0] * len(SEATS)

    def pay(self, payer: int, amount: int) -> None:
        self.deltas[payer] -= amount
        self.deltas[self.winner] += amount


# ---------------------------------------------------------------- plain decompositions (SPEC §1: 4 sets + 1 pair)
def readings(counts: dict[int, int], need_pair: bool = True) -> list[Reading]:
    """Every way to read ``counts`` (kind -> copies) as sets, plus one pair when ``need_pair``.

    The lowest kind left must be used by the pair, a pung or a chow starting on it, so trying those three covers
    every reading.
    """
    counts = {kind: copies for kind, copies in counts.items() if copies}
    if not counts:
        return [] if need_pair else [(None, ())]
    lowest = min(counts)
    found: list[Reading] = []
    if need_pair and counts[lowest] >= 2:
        rest = dict(counts)
        rest[lowest] -= 2
        found += [(lowest, sets) for _, sets in readings(rest, need_pair=False)]
    if counts[lowest] >= 3:
        rest = dict(counts)
        rest[lowest] -= 3
        found += [(pair, (("pung", lowest),) + sets) for pair, sets in readings(rest, need_pair)]
    if can_start_chow(lowest) and counts.get(lowest + 1) and counts.get(lowest + 2):
        rest = dict(counts)
        for kind in (lowest, lowest + 1, lowest + 2):
            rest[kind] -= 1
        found += [(pair, (("chow", lowest),) + sets) for pair, sets in readings(rest, need_pair)]
    return found


def plain_readings(closed: list[int]) -> list[Reading]:
    return readings(Counter(closed))


def is_plain(closed: list[int]) -> bool:
    return bool(plain_readings(closed))


# ---------------------------------------------------------------- Shaanxi (SPEC §2)
SHAANXI_BASE = 3  # 底分 D
SHAANXI_MAX_BET = 4  # 炮子 0..4 [A6]


def has_special_shape(case: dict[str, Any]) -> bool:
    """Seven pairs, thirteen orphans or a knitted shape, as the engine's PyMahjongGB-checked shape code finds them."""
    hand = Hand.from_case(case)
    return bool(find_shapes(hand.closed_tiles, hand.melds).shapes)


def shaanxi_reference(case: dict[str, Any], variant: int = 136) -> dict[str, Any]:
    context = case["context"]
    if variant == 108 and any(kind >= FIRST_HONOUR for kind in all_tiles(case)):
        return {"valid": False, "reason": "honor_tiles_not_in_set"}
    if not is_plain(closed_tiles(case)):
        if not has_special_shape(case):
            return {"valid": False, "reason": "not_a_winning_shape"}
        if variant == 108:  # [A2]: 七对、十三幺、全不靠和组合龙不算 in the 108 variant
            return {"valid": False, "reason": "shape_not_allowed"}
    problem = context_problem(case)
    if problem:
        return {"valid": False, "reason": problem}
    bets = context.get("bets", [0] * len(SEATS))
    if max(bets) > SHAANXI_MAX_BET:
        return {"valid": False, "reason": "bet_out_of_range"}
    winner, dealer = context.get("winner", 0), context.get("dealer", 0)
    draw_factor = 2 if is_self_drawn(context) else 1
    payments = Payments(winner)
    for payer in other_seats(winner):  # [A3]: on a discard all three pay too
        dealer_factor = 2 if dealer in (payer, winner) else 1  # the dealer doubles the hu score only [A5]
        payments.pay(payer, SHAANXI_BASE * draw_factor * dealer_factor)
        payments.pay(payer, (bets[payer] + bets[winner]) * draw_factor * SHAANXI_BASE)  # 炮子
    for meld in case["melds"]:  # kongs are paid as declared, whoever wins [A4]
        if meld["type"] == "kong_concealed":
            for payer in other_seats(winner):
                payments.pay(payer, 2 * SHAANXI_BASE)
        elif meld["type"] == "kong_added":
            for payer in other_seats(winner):
                payments.pay(payer, SHAANXI_BASE)
        elif meld["type"] == "kong_exposed":
            payments.pay(meld["from"], 2 * SHAANXI_BASE)
    return {"valid": True, "deltas": payments.deltas}


# ---------------------------------------------------------------- Xi'an (SPEC §3, B = 1)
XIAN_HEAVENLY_BASE = 6  # 天胡 赢三倍 of the self-draw base [A7]


def xian_waits(concealed: list[int], melds: list[dict[str, Any]]) -> list[int]:
    """Kinds that complete a plain hand, leaving out kinds whose four copies the player already holds."""
    held = Counter(concealed)
    for meld in melds:
        held.update(parse_tiles(meld["tiles"]))
    return [kind for kind in range(len(TILE_NAMES)) if held[kind] < 4 and is_plain(concealed + [kind])]


def xian_reference(case: dict[str, Any]) -> dict[str, Any]:
    context = case["context"]
    concealed = parse_tiles(case["hand"])
    win = tile_kind(case["win_tile"])
    hand_readings = plain_readings(concealed + [win])
    if not hand_readings:  # Xi'an has no special shapes
        return {"valid": False, "reason": "not_a_winning_shape"}
    problem = context_problem(case)
    if problem:
        return {"valid": False, "reason": problem}
    winner = context.get("winner", 0)
    self_drawn = is_self_drawn(context)
    if context.get("heavenly"):  # no winning tile, so no 夹张 / 单调
        base = XIAN_HEAVENLY_BASE
    else:
        base = 2 if self_drawn else 1
        middle_of_chow = any(kind == "chow" and lowest + 1 == win for _, sets in hand_readings for kind, lowest in sets)
        completes_pair = any(pair == win for pair, _ in hand_readings)
        # [A10]: 夹张 / 单调 earn +1 only when the hand waited on that one kind alone
        if (middle_of_chow or completes_pair) and xian_waits(concealed, case["melds"]) == [win]:
            base += 1
        if context.get("kong_replacement") and self_drawn:  # 杠后开花 doubles the win only [A11]
            base *= 2
    bets = context.get("bets", [0] * len(SEATS))
    payers = other_seats(winner) if self_drawn else [discarder(context)]  # [A8]
    payments = Payments(winner)
    for payer in payers:
        payments.pay(payer, base)
        payments.pay(payer, (bets[winner] + bets[payer]) * (2 if self_drawn else 1))
    for meld in case["melds"]:  # [A9]: every other player pays for every kong
        if is_kong(meld):
            for payer in other_seats(winner):
                payments.pay(payer, 2 if meld["type"] == "kong_concealed" else 1)
    return {"valid": True, "deltas": payments.deltas, "base": base}


# ---------------------------------------------------------------- Weinan (SPEC §4)
def weinan_shape_fan(closed: list[int], melds: list[dict[str, Any]]) -> tuple[int, set[str]] | None:
    """The best shape reading's fan (roots included) and item names, or None when the hand does not win."""
    closed_counts = Counter(closed)
    options: list[tuple[int, set[str]]] = []
    if not melds and all(copies % 2 == 0 for copies in closed_counts.values()):
        quads = sum(1 for copies in closed_counts.values() if copies == 4)
        if quads:  # 豪华七小对 includes its first quad; each further one is an extra 根 [A13]
            options.append((5 + 2 * (quads - 1), {"豪华七小对"} | ({"extra根"} if quads > 1 else set())))
        else:
            options.append((3, {"七小对"}))
    hand_readings = plain_readings(closed)
    if hand_readings:
        # a 根 is four copies held without declaring a kong: in the closed tiles or a pung plus the fourth
        held = Counter(closed)
        for meld in melds:
            if not is_kong(meld):
                held.update(parse_tiles(meld["tiles"]))
        roots = sum(1 for copies in held.values() if copies == 4)
        for _, sets in hand_readings:
            set_kinds = [kind for kind, _ in sets] + ["chow" if meld["type"] == "chow" else "pung" for meld in melds]
            if len(melds) == 4:  # 金钩钓 replaces 大对子
                fan, items = 3, {"金钩钓"}
            elif all(kind == "pung" for kind in set_kinds):
                fan, items = 2, {"大对子"}
            else:
                fan, items = 0, set()
            if roots:
                items |= {"根"} | ({"extra根"} if roots > 1 else set())
            options.append((fan + 2 * roots, items))
    # a hand with several readings scores its best one (SPEC §1, both-shape hands)
    return max(options, key=lambda option: option[0]) if options else None


def weinan_reference(case: dict[str, Any]) -> dict[str, Any]:
    context = case["context"]
    tiles = all_tiles(case)
    if any(kind >= FIRST_HONOUR for kind in tiles):
        return {"valid": False, "reason": "honor_tiles_not_in_set"}
    melds = case["melds"]
    shape = weinan_shape_fan(closed_tiles(case), melds)
    if shape is None:
        return {"valid": False, "reason": "not_a_winning_shape"}
    suits = {kind // 9 for kind in tiles}
    missing_suit = context.get("missing_suit")
    if missing_suit is not None and SUITS.index(missing_suit) in suits:
        return {"valid": False, "reason": "holds_declared_missing_suit"}
    if len(suits) > 2:
        return {"valid": False, "reason": "not_missing_a_suit"}
    problem = context_problem(case)
    if problem:
        return {"valid": False, "reason": problem}
    self_drawn = is_self_drawn(context)
    fan, items = shape[0], set(shape[1])
    for item, value, applies in (
        ("清一", 6, len(suits) == 1),
        ("杠上花", 2, context.get("kong_replacement") and self_drawn),
        ("天胡", 6, context.get("heavenly")),
        ("地胡", 5, context.get("earthly")),
        ("海底捞", 3, context.get("last_tile") and self_drawn),  # no bonus for a last-tile discard
        ("杠后点胡", 2, context.get("after_kong_discard") and not self_drawn),
    ):
        if applies:
            fan += value
            items.add(item)
    if fan == 0:  # a plain hand is worth 1 (自摸) and may not win on a discard (robbing a kong included) [A12]
        if not self_drawn:
            return {"valid": False, "reason": "one_fan_cannot_win_on_discard"}
        fan = 1
    if items == {"大对子", "天胡"}:  # the table's 天胡大对 9番 against the sum's 8 (weinan.table_overrides)
        fan = 9
    winner = context.get("winner", 0)
    payments = Payments(winner)
    for payer in other_seats(winner) if self_drawn else [discarder(context)]:
        payments.pay(payer, fan)
    for meld in melds:  # 明杠 1 from the feeder; 续杠 and 暗杠 1 from each of the other three
        if meld["type"] == "kong_exposed":
            payments.pay(meld["from"], 1)
        elif is_kong(meld):
            for payer in other_seats(winner):
                payments.pay(payer, 1)
    return {"valid": True, "deltas": payments.deltas, "fan": fan, "items": sorted(items)}


REFERENCES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "shaanxi": shaanxi_reference,
    "shaanxi108": partial(shaanxi_reference, variant=108),
    "xian": xian_reference,
    "weinan": weinan_reference,
}
RULESETS = tuple(REFERENCES)


def reference_score(case: dict[str, Any]) -> dict[str, Any]:
    """The reference's verdict: ``valid`` with ``deltas`` per seat, or ``valid=False`` with the engine's reason code."""
    return REFERENCES[case["ruleset"]](case)


# ---------------------------------------------------------------- random cases
ATTEMPTS = 200  # a draw that needs a fifth copy of some kind is thrown away and drawn again


def random_tiles(rng: random.Random, ruleset: str, kinds: list[int]) -> tuple[list[int], list[dict]] | None:
    """Fourteen closed-or-melded tiles of a winning hand drawn from ``kinds``: (closed tiles, melds), or None
    when the draw needed more than four copies of a kind."""
    counts: Counter[int] = Counter()
    if ruleset != "xian" and rng.random() < 0.15:  # seven pairs; Xi'an has no such shape
        for _ in range(7):
            counts[rng.choice(kinds)] += 2
        if max(counts.values()) > 4:
            return None
        return list(counts.elements()), []
    chow_starts = [kind for kind in kinds if can_start_chow(kind)]
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        if rng.random() < 0.5:
            kind = rng.choice(kinds)
            sets.append(("pung", kind))
            counts[kind] += 3
        else:
            lowest = rng.choice(chow_starts)
            sets.append(("chow", lowest))
            counts.update((lowest, lowest + 1, lowest + 2))
    counts[rng.choice(kinds)] += 2  # the pair
    melds: list[dict] = []
    rng.shuffle(sets)
    for set_kind, lowest in sets[:rng.choice([0, 0, 1, 2, 3, 4])]:
        if set_kind == "chow":
            # Weinan and Shaanxi 108 have no 吃; a few melded chows are left in to check that they are accepted
            if ruleset in ("weinan", "shaanxi108") and rng.random() < 0.9:
                continue
            melds.append({"type": "chow", "tiles": tiles_text([lowest, lowest + 1, lowest + 2])})
        else:
            meld_type = rng.choice(["pung", "pung", "kong_exposed", "kong_added", "kong_concealed"])
            copies = 4 if meld_type.startswith("kong") else 3
            counts[lowest] += copies - 3
            melds.append({"type": meld_type, "tiles": tiles_text([lowest] * copies)})
    if max(counts.values()) > 4:
        return None
    closed = counts.copy()
    for meld in melds:
        closed.subtract(parse_tiles(meld["tiles"]))
    return list(closed.elements()), melds


def random_context(rng: random.Random, ruleset: str, tiles: list[int], melds: list[dict]) -> dict[str, Any]:
    """Seats, bets and one way of winning; only contexts that can happen (the dealer wins a heavenly hand, ...)."""
    winner, dealer = rng.randrange(4), rng.randrange(4)
    for meld in melds:
        if meld["type"] in ("chow", "pung", "kong_exposed"):  # claimed from another player's discard
            meld["from"] = rng.choice(other_seats(winner))
    bets = [rng.choice([0, 0, 1, 2, 3, 4]) for _ in SEATS] if ruleset != "weinan" else [0] * len(SEATS)
    context: dict[str, Any] = {"dealer": dealer, "winner": winner, "bets": bets}
    how = rng.random()
    if how < 0.35:
        context["self_draw"] = True
    elif how < 0.45 and any(is_kong(meld) for meld in melds):
        context["kong_replacement"] = True
    elif how < 0.5 and not melds:
        context["heavenly"] = True
        context["winner"] = dealer
    elif how < 0.55 and winner != dealer:
        context["earthly"] = True  # on the dealer's discard, the default discarder
    elif how < 0.62:
        context["robbing_kong"] = True
        context["discarder"] = rng.choice(other_seats(winner))
    else:
        context["discarder"] = rng.choice(other_seats(winner))
    if rng.random() < 0.15:
        context["last_tile"] = True
    if ruleset == "weinan":
        if "discarder" in context and rng.random() < 0.2:
            context["after_kong_discard"] = True
        if rng.random() < 0.6:
            missing = [suit for index, suit in enumerate(SUITS) if all(kind // 9 != index for kind in tiles)]
            if missing:
                context["missing_suit"] = rng.choice(missing)
    return context


def random_case(rng: random.Random, ruleset: str, case_id: str) -> dict[str, Any]:
    """A winning-shape hand in golden.json's case schema; it may still be refused by the rules (a 108 special shape,
    a one-fan Weinan win on a discard, ...)."""
    honours = list(range(FIRST_HONOUR, len(TILE_NAMES))) if ruleset in ("shaanxi", "xian") else []
    # Weinan hands mostly keep to two suits so that most of them are 缺一门 and can win
    suits = rng.sample(range(3), rng.choice([1, 2, 2, 2])) if ruleset == "weinan" else range(3)
    kinds = [suit * 9 + rank for suit in suits for rank in range(9)] + honours
    for _ in range(ATTEMPTS):
        drawn = random_tiles(rng, ruleset, kinds)
        if drawn is None:
            continue
        closed, melds = drawn
        win = rng.choice(closed)
        concealed = list(closed)
        concealed.remove(win)
        all_kinds = closed + [kind for meld in melds for kind in parse_tiles(meld["tiles"])]
        context = random_context(rng, ruleset, all_kinds, melds)
        return {"id": case_id, "ruleset": ruleset, "hand": tiles_text(concealed), "win_tile": TILE_NAMES[win],
                "melds": melds, "context": context}
    raise RuntimeError(f"no {ruleset} hand without a fifth copy in {ATTEMPTS} draws")


# ---------------------------------------------------------------- comparison
def engine_verdict(case: dict[str, Any]) -> dict[str, Any]:
    result = score_case(case)
    return {"valid": result.valid, "reason": result.reason, "deltas": result.deltas,
            "items": [[item.name, item.value] for item in result.items]}


def agrees(engine: dict[str, Any], reference: dict[str, Any]) -> bool:
    if engine["valid"] != reference["valid"]:
        return False
    if reference["valid"]:
        return engine["deltas"] == reference["deltas"]
    return engine["reason"] == reference["reason"]


def compare(cases: int, seed: int) -> dict[str, Any]:
    """Score ``cases`` random cases per rule set with both scorers; per-rule-set tallies and the first mismatches."""
    per_ruleset: dict[str, dict[str, Any]] = {}
    mismatches: list[dict[str, Any]] = []
    start = time.perf_counter()
    for ruleset in RULESETS:
        # one random stream per rule set, so a rule set's cases depend only on the seed and --cases
        rng = random.Random(f"{seed}:{ruleset}")
        outcomes: Counter[str] = Counter()
        disagreeing = 0
        for index in range(cases):
            case = random_case(rng, ruleset, f"{ruleset}-{index}")
            reference = reference_score(case)
            engine = engine_verdict(case)
            outcomes["valid" if reference["valid"] else reference["reason"]] += 1
            if not agrees(engine, reference):
                disagreeing += 1
                if len(mismatches) < MISMATCHES_KEPT:
                    mismatches.append({"case": case, "reference": reference, "engine": engine})
        per_ruleset[ruleset] = {"cases": cases, "valid": outcomes.pop("valid", 0), "refused": dict(outcomes),
                                "mismatches": disagreeing}
    return {"seed": seed, "cases_per_ruleset": cases, "seconds": round(time.perf_counter() - start, 1),
            "rulesets": per_ruleset, "mismatches": mismatches}


def markdown(result: dict[str, Any]) -> str:
    compared = result["comparison"]
    host = result["machine"]
    lines = [
        "# Engine against the reference scorer\n",
        f"{host['date']}, Python {host['python']} on {host['cpus']} CPUs ({host['platform']}). Seed "
        f"{compared['seed']}, {compared['cases_per_ruleset']:,} random cases per rule set, {compared['seconds']} s.\n",
        "| rule set | cases | valid wins | refused (reference's reason) | mismatches |",
        "|---|---:|---:|---|---:|",
    ]
    for ruleset, tally in compared["rulesets"].items():
        refused = ", ".join(f"{reason} {count:,}" for reason, count in sorted(tally["refused"].items())) or "none"
        lines.append(f"| {ruleset} | {tally['cases']:,} | {tally['valid']:,} | {refused} | {tally['mismatches']:,} |")
    lines += [
        "",
        "The reference (benchmarks/scoring_reference.py) is written from SPEC.md's recommended readings and shares no "
        "scoring code with the engine except Shaanxi's special-shape check (scoring.shapes, checked against "
        "PyMahjongGB). A mismatch is a different validity, different deltas for a valid win, or a different reason "
        "for a refused one.",
        "",
    ]
    if compared["mismatches"]:
        lines += [f"First {len(compared['mismatches'])} mismatches (all in the JSON):", ""]
        for mismatch in compared["mismatches"]:
            case, reference, engine = mismatch["case"], mismatch["reference"], mismatch["engine"]
            melds = "".join(f" [{meld['type']} {meld['tiles']}]" for meld in case["melds"])
            lines.append(f"- `{case['id']}` `{case['hand']}`{melds} wins on `{case['win_tile']}`: reference "
                         f"{reference.get('deltas') or reference.get('reason')}, engine "
                         f"{engine['deltas'] if engine['valid'] else engine['reason']}")
        lines.append("")
    else:
        lines += ["No mismatches.", ""]
    lines.append(f"Command: `{result['command']}`")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5_000, help="random cases per rule set")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    result = {
        "machine": machine(),
        "command": f".venv/bin/python benchmarks/scoring_reference.py --cases {args.cases} --seed {args.seed}",
        "comparison": compare(args.cases, args.seed),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "scoring_reference.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n",
                                                    encoding="utf-8")
    (RESULTS / "scoring_reference.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))


if __name__ == "__main__":
    main()
