"""benchmarks/reread.py: hands that do not win, made from winning ones by moving one tile's class probabilities."""

import importlib.util
from pathlib import Path

from test_reread import probs_for, with_probs

from normalize_layouts import detections
from scoring.tiles import kind_of

SPEC = importlib.util.spec_from_file_location("reread_benchmark", Path(__file__).parent.parent / "benchmarks" / "reread.py")
reread_benchmark = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(reread_benchmark)

ROW = ["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s | 5s"]


def test_a_moved_tile_makes_a_non_winning_hand_and_a_doubted_one_can_be_re_read_to_a_win():
    # each of 2m..9m is doubted as the tile below it (2m as 1m, ...): a tile's row moved onto its left neighbour
    # breaks the hand, and re-reading the neighbour as its second choice makes it win again
    doubted = {i: probs_for(kind_of(f"{i + 1}m"), {kind_of(f"{i}m"): 0.3}, top=0.6) for i in range(1, 9)}
    hand = with_probs(detections(ROW), doubted)
    result = reread_benchmark.false_wins([(hand, (1000, 800))], trials=200, seed=0)
    assert result["winning_hands"] == 1
    assert 0 < result["non_winning"] <= 200
    assert result["warned"] >= result["reread_to_a_win"] > 0


def test_hands_that_do_not_win_as_read_are_not_used():
    broken = with_probs(detections(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 5s 5s | 5s"]), {})
    assert reread_benchmark.false_wins([(broken, (1000, 800))], trials=5, seed=0) == {}
