"""The game ledger: totals, dealer rotation as the seeds say, bets carried over, CSV round trip and bad CSVs."""

from __future__ import annotations

import pytest

from mjsnap.app.ledger import CSV_COLUMNS, Ledger, LedgerError, next_dealer


@pytest.mark.parametrize(
    ("dealer", "winner", "expected"),
    [
        (0, 0, 0),  # 庄家胡继续坐庄
        (2, 2, 2),
        (0, None, 0),  # 荒庄: the dealer stays
        (3, None, 3),
        (0, 1, 1),  # 庄没胡则由庄家下家坐庄
        (0, 2, 1),
        (0, 3, 1),
        (3, 1, 0),  # wraps around to seat 0
    ],
)
def test_dealer_rotation(dealer, winner, expected):
    assert next_dealer(dealer, winner) == expected


def test_a_sitting_of_hands():
    ledger = Ledger(players=("A", "B", "C", "D"), first_dealer=2)
    assert ledger.dealer() == 2 and ledger.next_bets() == (0, 0, 0, 0)
    ledger = ledger.record(ruleset="shaanxi", winner=2, deltas=(-18, -18, 54, -18), self_draw=True, bets=(1, 0, 2, 0))
    assert ledger.dealer() == 2  # the dealer won
    assert ledger.next_bets() == (1, 0, 2, 0)
    ledger = ledger.record(ruleset="shaanxi", winner=0, discarder=3, deltas=(12, 0, 0, -12))
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
    ("kwargs", "message"),
    [
        (dict(winner=0, deltas=(1, 0, 0, 0)), "sum to 0"),
        (dict(winner=0, discarder=0, deltas=(0, 0, 0, 0)), "discarder cannot be the winner"),
        (dict(winner=None, self_draw=True, deltas=(0, 0, 0, 0)), "drawn hand"),
        (dict(winner=5, deltas=(0, 0, 0, 0)), "winner"),
        (dict(winner=0, deltas=(0, 0, 0, 0), bets=(0, -1, 0, 0)), "bets"),
        (dict(winner=0, deltas=(0, 0, 0)), "deltas"),
    ],
)
def test_bad_hands_are_refused(kwargs, message):
    with pytest.raises(LedgerError, match=message):
        Ledger().record(ruleset="xian", **kwargs)


def test_csv_round_trip_keeps_everything():
    ledger = (
        Ledger(players=("老王", "Li, Jr.", "C", "D"), first_dealer=1)
        .record(ruleset="weinan", winner=1, discarder=0, deltas=(-6, 6, 0, 0), tiles='123m "x"', note="清一")
        .record_draw(ruleset="weinan")
        .record(ruleset="weinan", winner=3, self_draw=True, deltas=(-2, -2, -2, 6), bets=(1, 1, 1, 1))
    )
    text = ledger.to_csv()
    assert text.splitlines()[0].split(",") == CSV_COLUMNS
    back = Ledger.from_csv(text)
    assert back == ledger
    assert back.dealer() == ledger.dealer() == 2


def test_csv_with_a_byte_order_mark_from_a_spreadsheet_is_read():
    ledger = Ledger().record(ruleset="xian", winner=0, discarder=1, deltas=(3, -3, 0, 0))
    assert Ledger.from_csv("\ufeff" + ledger.to_csv()) == ledger


def _csv_with(row_changes: dict[str, str]) -> str:
    ledger = Ledger().record(ruleset="xian", winner=0, discarder=1, deltas=(3, -3, 0, 0))
    header, row = ledger.to_csv().splitlines()
    values = dict(zip(header.split(","), row.split(",")))
    values.update(row_changes)
    return header + "\n" + ",".join(values[c] for c in CSV_COLUMNS) + "\n"


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"delta_0": "4"}, "line 2: .*sum to 0"),
        ({"dealer": "x"}, "line 2: dealer 'x' is not a whole number"),
        ({"winner": "7"}, "line 2: winner"),
        ({"self_draw": "maybe"}, "line 2: self_draw"),
        ({"hand": "3"}, "line 2: hand number 3, expected 1"),
    ],
)
def test_bad_csv_rows_name_the_line(changes, message):
    with pytest.raises(LedgerError, match=message):
        Ledger.from_csv(_csv_with(changes))


def test_a_csv_that_is_not_a_ledger_is_refused():
    with pytest.raises(LedgerError, match="missing column"):
        Ledger.from_csv("name,score\nA,3\n")


def test_player_names_must_be_present_and_distinct():
    with pytest.raises(LedgerError, match="differ"):
        Ledger().rename(["A", "A", "B", "C"])
    with pytest.raises(LedgerError, match="name"):
        Ledger().rename(["A", " ", "B", "C"])
    assert Ledger().rename([" A ", "B", "C", "D"]).players == ("A", "B", "C", "D")
