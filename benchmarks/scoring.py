"""Scoring speed on a fixed seeded hand set, beside PyMahjongGB in the same run; optional full differential run.

Speed: hands per second for our shape check (`is_complete`), the full shape report (`find_shapes`), wait lists
(`waiting_tiles` on the same hands cut to 13 tiles), a full `score` per rule set, and PyMahjongGB's
`MahjongShanten` (all shapes, one C++ call) and `MahjongFanCalculator` on the same hands. Each figure is the best
of --repeat timed passes (the machine is shared, the best pass is the least disturbed one).

Differential (--differential N): N complete-size hands (half spoiled by one swapped tile) checked against
PyMahjongGB's shanten functions and fan calculator, and N one-tile-short hands checked wait list by wait list
(scoring.shapes.crosscheck); the agreement figures and the first disagreements are written out.

    .venv/bin/python benchmarks/scoring.py [--n 10000] [--seed 2026] [--repeat 3] [--differential 20000]

Writes benchmarks/results/scoring.json and scoring.md (and scoring_differential.json/.md with --differential).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.hand import Context, Hand  # noqa: E402
from scoring.shapes import find_shapes, is_complete  # noqa: E402
from scoring.shapes.samples import SampleHand, cut, random_hands  # noqa: E402
from scoring.tiles import format_compact  # noqa: E402
from scoring.waits import waiting_tiles  # noqa: E402

RESULTS = REPO / "benchmarks" / "results"


def best_rate(run: Callable[[], None], n: int, repeat: int) -> float:
    """Hands per second of the fastest of ``repeat`` passes over ``n`` hands."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return n / best


def as_hand(sample: SampleHand) -> Hand:
    """A self-drawn win on the last closed tile by seat 1 (dealer 0); 定缺 names a suit the hand lacks, if any."""
    own = set(sample.closed) | {k for m in sample.melds for k in m.tiles}
    missing = next((s for i, s in enumerate("mps") if not any(i * 9 <= k < i * 9 + 9 for k in own)), None)
    context = Context(winner=1, dealer=0, self_draw=True, missing_suit=missing)
    return Hand(sample.closed[:-1], sample.melds, sample.closed[-1], context)


def speed(n: int, seed: int, repeat: int) -> dict[str, Any]:
    hands = random_hands(seed, n)
    rng = random.Random(seed + 1)
    waiting = [cut(rng, h) for h in hands]
    wins = sum(is_complete(h.closed, h.melds) for h in hands)
    rates: dict[str, float] = {}
    rates["is_complete"] = best_rate(lambda: [is_complete(h.closed, h.melds) for h in hands], n, repeat)
    rates["find_shapes"] = best_rate(lambda: [find_shapes(h.closed, h.melds) for h in hands], n, repeat)
    rates["waiting_tiles"] = best_rate(lambda: [waiting_tiles(h.closed, h.melds) for h in waiting], n, repeat)
    valid: dict[str, int] = {}
    try:
        from scoring.scorer import RULESETS, score
    except ImportError as exc:  # the rule sets are a separate part of the engine
        print(f"full score skipped: {exc}", file=sys.stderr)
    else:
        scored = [as_hand(h) for h in hands]
        for ruleset in RULESETS:
            rates[f"score_{ruleset}"] = best_rate(lambda r=ruleset: [score(h, r) for h in scored], n, repeat)
            valid[ruleset] = sum(score(h, ruleset).valid for h in scored)
    rates.update(gb_speed(hands, repeat))
    return {"n_hands": n, "seed": seed, "complete_hands": wins, "valid_scores": valid, "hands_per_second": rates}


def gb_speed(hands: Sequence[SampleHand], repeat: int) -> dict[str, float]:
    """PyMahjongGB on the same hands: shanten of the 13 tiles before the last one, and the fan calculator."""
    try:
        import MahjongGB
    except ImportError:
        print("PyMahjongGB not installed: its figures are skipped", file=sys.stderr)
        return {}
    from scoring.shapes.crosscheck import GB_NAMES, gb_pack

    prepared = [
        (tuple(gb_pack(m) for m in h.melds), tuple(GB_NAMES[k] for k in h.closed[:-1]), GB_NAMES[h.closed[-1]])
        for h in hands
    ]

    def fan(packs: tuple, standing: tuple, win: str) -> None:
        try:
            MahjongGB.MahjongFanCalculator(packs, standing, win, 0, True, False, False, False, 0, 0)
        except TypeError:
            pass  # ERROR_NOT_WIN

    n = len(hands)
    return {
        "pymahjonggb_MahjongShanten": best_rate(
            lambda: [MahjongGB.MahjongShanten(p, s) for p, s, _ in prepared], n, repeat
        ),
        "pymahjonggb_MahjongFanCalculator": best_rate(lambda: [fan(*x) for x in prepared], n, repeat),
    }


def differential(n: int, seed: int) -> dict[str, Any]:
    from scoring.shapes.crosscheck import complete_disagreements, waiting_disagreements

    def describe(h: SampleHand) -> str:
        melds = "".join(f" [{m.type.value} {format_compact(m.tiles)}]" for m in h.melds)
        return format_compact(h.closed, sort=False) + melds

    out: dict[str, Any] = {"seed": seed}
    for label, hands, check in (
        ("complete", random_hands(seed, n), complete_disagreements),
        ("waiting", random_hands(seed + 1, n, waiting=True), waiting_disagreements),
    ):
        start = time.perf_counter()
        examples: list[str] = []
        disagreeing = with_melds = 0
        for h in hands:
            with_melds += bool(h.melds)
            problems = check(h.closed, h.melds)
            if problems:
                disagreeing += 1
                if len(examples) < 20:
                    examples.append(f"{describe(h)}: {'; '.join(problems)}")
        out[label] = {
            "hands": n,
            "with_melds": with_melds,
            "agreeing": n - disagreeing,
            "agreement": (n - disagreeing) / n if n else None,
            "seconds": round(time.perf_counter() - start, 1),
            "examples": examples,
        }
    complete_shapes: dict[str, int] = {}
    for h in random_hands(seed, n):
        for shape in find_shapes(h.closed, h.melds).shapes or ("none",):
            complete_shapes[shape] = complete_shapes.get(shape, 0) + 1
    out["complete"]["our_shapes"] = complete_shapes
    return out


def machine() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_1m": os.getloadavg()[0],
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }


def speed_markdown(result: dict[str, Any]) -> str:
    s = result["speed"]
    rows = "\n".join(f"| `{name}` | {rate:,.0f} |" for name, rate in s["hands_per_second"].items())
    valid = ", ".join(f"{r}: {v}" for r, v in s["valid_scores"].items()) or "n/a"
    m = result["machine"]
    return (
        f"# Scoring speed\n\n{s['n_hands']:,} seeded hands (seed {s['seed']}, built from random shapes, half spoiled "
        f"by one swapped tile; {s['complete_hands']:,} complete). Best of {result['repeat']} passes, pure Python "
        f"{m['python']} on {m['cpus']} CPUs (load {m['load_average_1m']:.1f}), {m['date']}.\n\n"
        f"| check | hands/s |\n|---|---:|\n{rows}\n\n"
        f"Valid full scores (self-drawn win, seat 1): {valid}.\n\n"
        f"`waiting_tiles` runs on the same hands cut to 13 tiles (34 candidate tiles each). PyMahjongGB is C++: "
        f"`MahjongShanten` takes the 13 tiles before the last one.\n"
    )


def differential_markdown(result: dict[str, Any]) -> str:
    d = result["differential"]
    lines = ["# Differential run against PyMahjongGB\n", f"Seed {d['seed']}, {result['machine']['date']}.\n",
             "| hands | count | with melds | agreeing | agreement |", "|---|---:|---:|---:|---:|"]
    for label in ("complete", "waiting"):
        x = d[label]
        lines.append(f"| {label} | {x['hands']:,} | {x['with_melds']:,} | {x['agreeing']:,} | {x['agreement']:.4%} |")
    shapes = ", ".join(f"{k}: {v:,}" for k, v in sorted(d["complete"]["our_shapes"].items()))
    lines += ["", f"Shapes among the complete-size hands: {shapes}.", "",
              "Complete-size: per shape, our find_shapes vs PyMahjongGB's shanten function (tenpai on the last tile)"
              ", plus win/not-win and the special shapes its fan calculator names. Waiting: our waiting_tiles per "
              "shape and over all shapes vs its tenpai tiles (minus kinds the player holds all 4 of)."]
    examples = d["complete"]["examples"] + d["waiting"]["examples"]
    if examples:
        lines += ["", "First disagreements:", ""] + [f"- `{e}`" for e in examples]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="hands in the speed set")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per figure (best is kept)")
    parser.add_argument("--differential", type=int, default=0, metavar="N", help="also run the differential on N+N hands")
    parser.add_argument("--skip-speed", action="store_true", help="only the differential run")
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    if not args.skip_speed:
        result = {"machine": machine(), "repeat": args.repeat, "speed": speed(args.n, args.seed, args.repeat)}
        (RESULTS / "scoring.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        (RESULTS / "scoring.md").write_text(speed_markdown(result), encoding="utf-8")
        print(speed_markdown(result))
    if args.differential:
        result = {"machine": machine(), "differential": differential(args.differential, args.seed + 1)}
        (RESULTS / "scoring_differential.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n",
                                                           encoding="utf-8")
        (RESULTS / "scoring_differential.md").write_text(differential_markdown(result), encoding="utf-8")
        print(differential_markdown(result))


if __name__ == "__main__":
    main()
