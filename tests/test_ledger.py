"""The game ledger: totals, dealer rotation as the seeds say, bets carried over, several winners on one discard
(Weinan 一炮多响), CSV round trip and bad CSVs."""

from __future__ import annotations

import pytest

from mjsnap.app.ledger import CSV_COLUMNS, Ledger, LedgerError, next_dealer
from mjsnap.app.wins import ScoredWin, combined_deltas, record_wins
from scoring.options import RuleOptions
from scoring.scorer import parse_hand, score


@pytest.mark.parametrize(
    ("dealer", "winners", "discarder", "expected"),
    [
        (0, (0,), None, 0),  # 庄家胡继续坐庄
        (2, (2,), 1, 2),
        (0, (), None, 0),  # 荒庄: the dealer stays
        (3, (), None, 3),
        (0, (1,), 0, 1),  # 庄没胡则由庄家下家坐庄
        (0, (2,), None, 1),
        (0, (3,), 2, 1),
        (3, (1,), None, 0),  # wraps around to seat 0
        (0, (1, 2), 3, 3),  # 一炮多响: 下局点胡的玩家坐庄 (seed 004)
        (0, (0, 2), 1, 1),  # ... even when the dealer is one of the winners
        (2, (0, 1, 3), 2, 2),
    ],
)
def test_dealer_rotation(dealer, winners, discarder, expected):
    assert next_dealer(dealer, winners, discarder) == expected


def test_a_sitting_of_hands():
    ledger = Ledger(players=("A", "B", "C", "D"), first_dealer=2)
    assert ledger.dealer() == 2 and ledger.next_bets() == (0, 0, 0, 0)
    ledger = ledger.record(ruleset="shaanxi", winners=[2], deltas=(-18, -18, 54, -18), self_draw=True, bets=(1, 0, 2, 0))
    assert ledger.dealer() == 2  # the dealer won
    assert ledger.next_bets() == (1, 0, 2, 0)
    ledger = ledger.record(ruleset="shaanxi", winners=[0], discarder=3, deltas=(12, 0, 0, -12))
    assert ledger.hands[-1].bets == (1, 0, 2, 0)  # defaulted to the last hand's
    assert ledger.hands[-1].dealer == 2
    assert ledger.dealer() == 3  # a non-dealer won: 下家 of seat 2
    ledger = ledger.record_draw(ruleset="shaanxi", deltas=(2, 2, 2, -6), note="暗杠 kept")
    assert ledger.dealer() == 3  # drawn: stays
    assert ledger.totals() == [-18 + 12 + 2, -18 + 2, 54 + 2, -18 - 12 - 6]
    assert ledger.running()[0] == [-18, -18, 54, -18]
    assert [h.number for h in ledger.hands] == [1, 2, 3]
    assert ledger.undo().totals() == [-6, -18, 54, -30] and ledger.undo().dealer() == 3


@pytest.mark.parametrize(
    ("kwargs", "message", "code"),
    [
        (dict(winners=[0], deltas=(1, 0, 0, 0)), "sum to 0", "points_not_balanced"),
        (dict(winners=[0], discarder=0, deltas=(0, 0, 0, 0)), "discarder cannot be the winner", "bad_seat"),
        (dict(winners=[], self_draw=True, deltas=(0, 0, 0, 0)), "drawn hand", "drawn_hand_with_win"),
        (dict(winners=[5], deltas=(0, 0, 0, 0)), "winner seats are 0-3", "bad_seat"),
        (dict(winners=[0], deltas=(0, 0, 0, 0), bets=(0, -1, 0, 0)), "bets", "bad_bets"),
        (dict(winners=[0], deltas=(0, 0, 0)), "deltas", "bad_ledger_value"),
        (dict(winners=[0], deltas=(0, 0, 0, 0), dealer=4), "dealer", "bad_ledger_value"),
        (dict(winners=[1, 2], discarder=0, deltas=(-4, 2, 2, 0)), "Weinan rule; in xian only the seat nearest",
         "multi_win_not_weinan"),
        (dict(winners=[1, 2], discarder=0, deltas=(-4, 2, 2, 0), ruleset="shaanxi"), "截和", "multi_win_not_weinan"),
        (dict(winners=[1, 2], self_draw=True, deltas=(-4, 2, 2, 0), ruleset="weinan"), "one discard",
         "multi_win_not_on_discard"),
        (dict(winners=[1, 1], discarder=0, deltas=(-4, 4, 0, 0), ruleset="weinan"), "once", "winner_twice"),
        (dict(winners=[1, 2], discarder=2, deltas=(-4, 2, 2, 0), ruleset="weinan"), "discarder cannot be", "bad_seat"),
    ],
)
def test_bad_hands_are_refused_with_a_code(kwargs, message, code):
    kwargs = {"ruleset": "xian", **kwargs}
    with pytest.raises(LedgerError, match=message) as refused:
        Ledger().record(**kwargs)
    assert refused.value.code == code and refused.value.line is None


ALL_PUNGS = "111m555m999s22s33s"  # 大对子 2番 in Weinan, won on 3s


def weinan_win(winner: int, discarder: int | None, dealer: int = 0, options: RuleOptions | None = None) -> ScoredWin:
    context = {"winner": winner, "dealer": dealer, "discarder": discarder, "self_draw": discarder is None,
               "missing_suit": "p"}
    hand = parse_hand(ALL_PUNGS, "3s", context=context)
    result = score(hand, "weinan", options)
    assert result.valid, result.error
    return ScoredWin("weinan", options or RuleOptions(), hand.context, result, f"{ALL_PUNGS}+3s")


@pytest.mark.parametrize(
    ("winners", "multi_win_three", "deltas"),
    [
        ((1,), "winners_pay_discarder", [-2, 2, 0, 0]),
        ((1, 2), "winners_pay_discarder", [-4, 2, 2, 0]),  # the discarder pays both
        ((1, 2, 3), "winners_pay_discarder", [6, -2, -2, -2]),  # [A14] the seed: the three pay the discarder
        ((1, 2, 3), "discarder_pays", [-6, 2, 2, 2]),
    ],
)
def test_several_winners_on_one_discard_go_in_as_one_hand(winners, multi_win_three, deltas):
    options = RuleOptions().with_overrides({"weinan.multi_win_three": multi_win_three})
    wins = [weinan_win(w, discarder=0, options=options) for w in winners]
    ledger = record_wins(Ledger(), wins)
    hand = ledger.hands[0]
    assert hand.winners == winners and hand.discarder == 0 and list(hand.deltas) == deltas
    assert hand.tiles.count("|") == len(winners) - 1
    assert ledger.dealer() == (0 if len(winners) > 1 else 1)  # several winners: the discarder (seat 0) deals


@pytest.mark.parametrize(
    ("wins", "message", "code"),
    [
        (lambda: [weinan_win(1, 0), weinan_win(2, 3)], "share the rule set, the discarder", "multi_win_mismatch"),
        (lambda: [weinan_win(1, 0), weinan_win(2, 0, dealer=2)], "the dealer", "multi_win_mismatch"),
        (lambda: [weinan_win(1, 0), weinan_win(2, None)], "on a discard", "cannot_share_discard"),
        (lambda: [weinan_win(1, 0), weinan_win(1, 0)], "once", "winner_twice"),
        (lambda: [weinan_win(w, 0) for w in (1, 2, 3, 1)], "at most 3", "too_many_winners"),
        (lambda: [], "no win", "no_win_to_record"),
    ],
)
def test_wins_that_cannot_share_a_discard_are_refused(wins, message, code):
    with pytest.raises(LedgerError, match=message) as refused:
        record_wins(Ledger(), wins())
    assert refused.value.code == code


def test_the_combined_settlement_of_one_discard():
    wins = [weinan_win(1, 0), weinan_win(2, 0)]
    assert combined_deltas(wins) == (-4, 2, 2, 0) == record_wins(Ledger(), wins).hands[0].deltas
    assert combined_deltas(wins[:1]) == (-2, 2, 0, 0)


def test_csv_round_trip_keeps_everything():
    ledger = (
        Ledger(players=("老王", "Li, Jr.", "C", "D"), first_dealer=1)
        .record(ruleset="weinan", winners=[1], discarder=0, deltas=(-6, 6, 0, 0), tiles='123m "x"', note="清一")
        .record_draw(ruleset="weinan")
        .record(ruleset="weinan", winners=[3], self_draw=True, deltas=(-2, -2, -2, 6), bets=(1, 1, 1, 1))
        .record(ruleset="weinan", winners=[0, 3], discarder=1, deltas=(2, -4, 0, 2), tiles="a | b")
    )
    text = ledger.to_csv()
    assert text.splitlines()[0].split(",") == CSV_COLUMNS
    assert text.splitlines()[-1].startswith("4,weinan,2,0 3,0,1,")
    back = Ledger.from_csv(text)
    assert back == ledger
    assert back.hands[-1].winners == (0, 3)
    assert back.dealer() == ledger.dealer() == 1  # the discarder of the 一炮多响 deals


def test_csv_with_a_byte_order_mark_from_a_spreadsheet_is_read():
    ledger = Ledger().record(ruleset="xian", winners=[0], discarder=1, deltas=(3, -3, 0, 0))
    assert Ledger.from_csv("\ufeff" + ledger.to_csv()) == ledger


def _csv_with(row_changes: dict[str, str]) -> str:
    ledger = Ledger().record(ruleset="xian", winners=[0], discarder=1, deltas=(3, -3, 0, 0))
    header, row = ledger.to_csv().splitlines()
    values = dict(zip(header.split(","), row.split(",")))
    values.update(row_changes)
    return header + "\n" + ",".join(values[c] for c in CSV_COLUMNS) + "\n"


@pytest.mark.parametrize(
    ("changes", "message", "code"),
    [
        ({"delta_0": "4"}, "line 2: .*sum to 0", "points_not_balanced"),
        ({"dealer": "x"}, "line 2: dealer 'x' is not a whole number", "not_a_whole_number"),
        ({"dealer": "9"}, "line 2: dealer", "bad_ledger_value"),
        ({"winner": "7"}, "line 2: winner", "bad_seat"),
        ({"winner": "0 x"}, "line 2: winner 'x' is not a whole number", "not_a_whole_number"),
        ({"winner": "0 2"}, "line 2: .*Weinan rule", "multi_win_not_weinan"),
        ({"self_draw": "maybe"}, "line 2: self_draw", "bad_self_draw"),
        ({"hand": "3"}, "line 2: hand number 3, expected 1", "hand_out_of_order"),
        ({"player_1": "东"}, "line 2: .*player names must differ", "player_names_same"),
    ],
)
def test_bad_csv_rows_name_the_line_and_the_code(changes, message, code):
    with pytest.raises(LedgerError, match=message) as refused:
        Ledger.from_csv(_csv_with(changes))
    assert (refused.value.code, refused.value.line) == (code, 2)


def test_a_csv_that_is_not_a_ledger_is_refused():
    with pytest.raises(LedgerError, match="missing column") as refused:
        Ledger.from_csv("name,score\nA,3\n")
    assert refused.value.code == "not_a_ledger_csv"


def test_rows_with_other_players_are_refused():
    ledger = Ledger().record(ruleset="xian", winners=[0], discarder=1, deltas=(3, -3, 0, 0)).record_draw(ruleset="xian")
    text = ledger.to_csv().replace("\n2,xian,0,,0,,0,0,0,0,0,0,0,0,东,南", "\n2,xian,0,,0,,0,0,0,0,0,0,0,0,东,X")
    with pytest.raises(LedgerError, match="differ from line 2") as refused:
        Ledger.from_csv(text)
    assert (refused.value.code, refused.value.line) == ("players_differ", 3)


def test_player_names_must_be_present_and_distinct():
    with pytest.raises(LedgerError, match="differ") as refused:
        Ledger().rename(["A", "A", "B", "C"])
    assert refused.value.code == "player_names_same"
    with pytest.raises(LedgerError, match="name") as refused:
        Ledger().rename(["A", " ", "B", "C"])
    assert refused.value.code == "player_name_missing"
    assert Ledger().rename([" A ", "B", "C", "D"]).players == ("A", "B", "C", "D")
