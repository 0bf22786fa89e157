"""The ledger flow in the app: scored hands go in, the dealer rotates, bets carry over, draws, undo, CSV in/out."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    return run(AppTest.from_file(APP, default_timeout=60))


def score_typed(at: AppTest, winner: int, discarder: int | None) -> None:
    at.text_input(key="typed_tiles").set_value("123m456m789m234s5s")
    at.text_input(key="typed_win").set_value("5s")
    at.button(key="use_typed").click()
    run(at)
    at.selectbox(key="ctx-winner").set_value(winner)
    run(at)
    if discarder is None:
        at.toggle(key="ctx-self-draw").set_value(True)
    else:
        at.toggle(key="ctx-self-draw").set_value(False)
        run(at)
        at.selectbox(key="ctx-discarder").set_value(discarder)
    run(at)


def test_hands_go_into_the_ledger_and_the_dealer_rotates(app):
    score_typed(app, winner=1, discarder=0)
    app.number_input(key="ctx-bet-1").set_value(2)
    run(app)
    deltas = list(app.dataframe[1].value.iloc[:, -1])
    app.button(key="add-to-ledger").click()
    run(app)
    assert [s.value for s in app.success][0] == "已记入第 1 局"
    ledger = app.session_state["ledger"]
    assert list(ledger.hands[0].deltas) == deltas and ledger.hands[0].bets == (0, 2, 0, 0)
    # a non-dealer won: seat 1 deals next; the bets stay as last hand's
    assert app.selectbox(key="ctx-dealer").value == 1
    assert app.number_input(key="ctx-bet-1").value == 2

    app.radio(key="page").set_value("ledger")
    run(app)
    assert any("下一局庄家：南" in i.value for i in app.info)
    assert [m.value for m in app.metric] == [str(d) for d in deltas]
    app.button(key="record-draw").click()
    run(app)
    assert len(app.session_state["ledger"].hands) == 2
    assert any("下一局庄家：南" in i.value for i in app.info)  # 荒庄: the dealer stays
    app.button(key="undo").click()
    run(app)
    assert len(app.session_state["ledger"].hands) == 1


def test_dealer_win_keeps_the_dealer(app):
    score_typed(app, winner=0, discarder=None)
    app.button(key="add-to-ledger").click()
    run(app)
    assert app.selectbox(key="ctx-dealer").value == 0


def test_csv_export_imports_back_into_a_new_session(app, tmp_path, monkeypatch):
    score_typed(app, winner=2, discarder=None)
    app.button(key="add-to-ledger").click()
    run(app)
    csv_text = app.session_state["ledger"].to_csv()
    other = run(AppTest.from_file(APP, default_timeout=60))
    other.radio(key="page").set_value("ledger")
    run(other)
    other.file_uploader(key="ledger-csv").set_value(("ledger.csv", csv_text.encode(), "text/csv"))
    run(other)
    assert [s.value for s in other.success] == ["已导入 1 局"]
    assert other.session_state["ledger"] == app.session_state["ledger"]
    assert any("下一局庄家：南" in i.value for i in other.info)  # seat 2 won on seat 0's deal: seat 1 deals


def test_a_bad_csv_is_refused_with_the_line(app):
    app.radio(key="page").set_value("ledger")
    run(app)
    bad = "hand,ruleset\n1,xian\n"
    app.file_uploader(key="ledger-csv").set_value(("ledger.csv", bad.encode(), "text/csv"))
    run(app)
    assert "CSV 不能导入" in app.error[0].value and "missing column" in app.error[0].value
    assert app.session_state["ledger"].hands == ()


def type_all_pungs(at: AppTest) -> None:
    at.text_input(key="typed_tiles").set_value("111m555m999s22s33s")  # Weinan 大对子 2番, missing 筒
    at.text_input(key="typed_win").set_value("3s")
    at.button(key="use_typed").click()
    run(at)


def test_two_winners_on_one_discard_go_in_as_one_hand(app):
    """Weinan 一炮多响: the first winner's hand is kept, the second one's is scored, both go in as one hand."""
    type_all_pungs(app)
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    app.selectbox(key="ctx-winner").set_value(1)
    run(app)
    app.selectbox(key="ctx-discarder").set_value(0)
    run(app)
    assert app.button(key="add-to-ledger").label == "记入记分表"
    app.button(key="another-winner").click()
    run(app)
    assert "已记下 南 的胡牌" in app.success[0].value
    assert any("一炮多响：已记 南，点炮 东" in i.value for i in app.info)

    type_all_pungs(app)  # the second winner's hand
    assert app.selectbox(key="ctx-winner").value == 2  # pre-selected: neither the kept winner nor the discarder
    assert app.selectbox(key="ctx-discarder").value == 0
    assert app.button(key="add-to-ledger").label == "记入记分表（一炮多响，共 2 家）"
    app.button(key="add-to-ledger").click()
    run(app)
    hand = app.session_state["ledger"].hands[0]
    assert hand.winners == (1, 2) and hand.discarder == 0 and list(hand.deltas) == [-4, 2, 2, 0]
    assert app.session_state["pending_wins"] == ()
    assert app.selectbox(key="ctx-dealer").value == 0  # the discarder deals next (下局点胡的玩家坐庄)
    app.radio(key="page").set_value("ledger")
    run(app)
    assert list(app.dataframe[0].value.iloc[:, 3]) == ["南、西"]


def test_a_kept_winner_can_be_dropped(app):
    type_all_pungs(app)
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    run(app)
    app.button(key="another-winner").click()
    run(app)
    app.button(key="multi-win-cancel").click()
    run(app)
    assert app.session_state["pending_wins"] == () and not app.info


def test_no_second_winner_outside_weinan(app):
    score_typed(app, winner=1, discarder=0)  # Shaanxi: 截和, one winner only
    assert not [b for b in app.button if b.key == "another-winner"]
