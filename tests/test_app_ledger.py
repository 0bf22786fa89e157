"""The ledger flow in the app: scored hands go in, the dealer rotates, bets carry over, draws, undo, CSV in/out."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import APP, assert_no_english, run  # noqa: E402
from mjsnap.app.ledger import Ledger  # noqa: E402



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


def test_the_dice_page_follows_the_dealers_rotation(app):
    app.radio(key="page").set_value("dice")
    run(app)
    assert app.selectbox(key="dice-dealer").value == 0
    app.radio(key="page").set_value("score")
    run(app)
    score_typed(app, winner=1, discarder=0)
    app.button(key="add-to-ledger").click()
    run(app)
    app.radio(key="page").set_value("dice")
    run(app)
    assert app.selectbox(key="dice-dealer").value == 1


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


def _csv_with_bad_dealer() -> bytes:
    ledger = Ledger().record(ruleset="xian", winners=[0], discarder=1, deltas=(3, -3, 0, 0))
    header, row = ledger.to_csv().splitlines()
    return (header + "\n" + row.replace("1,xian,0,", "1,xian,x,", 1) + "\n").encode()


def _csv_with_huge_field() -> bytes:
    """A field past the csv module's size limit (131072 characters): it refuses the file before any row."""
    return (Ledger().to_csv() + "1," + "x" * 200_000 + "\n").encode()


@pytest.mark.parametrize(
    ("lang", "csv_bytes", "expected"),
    [
        ("zh", b"hand,ruleset\n1,xian\n", "CSV 不能导入：这不是记分表导出的 CSV（缺少列）"),
        ("en", b"hand,ruleset\n1,xian\n", "The CSV cannot be imported: not a ledger CSV: missing column(s) dealer"),
        ("zh", _csv_with_bad_dealer(), "CSV 不能导入：第 2 行：应该是整数的地方写了别的"),
        ("en", _csv_with_bad_dealer(), "The CSV cannot be imported: line 2: dealer 'x' is not a whole number"),
        ("zh", "hand,赢家\n".encode("utf-16"), "CSV 不能导入：文件不是 UTF-8 文本"),
        ("zh", _csv_with_huge_field(), "CSV 不能导入：文件不是记分表导出的 CSV 格式"),
        ("en", _csv_with_huge_field(), "The CSV cannot be imported: not a ledger CSV (field larger than field limit"),
    ],
)
def test_a_bad_csv_is_refused_in_the_page_language(app, lang, csv_bytes, expected):
    app.radio(key="lang").set_value(lang)
    app.radio(key="page").set_value("ledger")
    run(app)
    app.file_uploader(key="ledger-csv").set_value(("ledger.csv", csv_bytes, "text/csv"))
    run(app)
    assert app.error[0].value.startswith(expected)
    if lang == "zh":
        assert not re.search(r"[A-Za-z]{2,}", app.error[0].value.replace("CSV", "").replace("UTF-8", ""))
    assert app.session_state["ledger"].hands == ()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("zh", "不能记入：玩家名字不能重复"), ("en", "Cannot record: players: player names must differ, got ['东', '东', '西', '北']")],
)
def test_a_refused_rename_says_why_in_the_page_language(app, lang, expected):
    app.radio(key="lang").set_value(lang)
    app.radio(key="page").set_value("ledger")
    run(app)
    app.text_input(key="player-1").set_value("东")
    app.button(key="rename").click()
    run(app)
    assert [e.value for e in app.error] == [expected]


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
    # the settlement previews the whole discard: each winner's own, then together as it goes into the ledger
    preview = app.dataframe[1].value
    assert list(preview.columns[-3:]) == ["南 胡", "西 胡", "合计"]
    assert [list(preview[c]) for c in preview.columns[-3:]] == [[-2, 2, 0, 0], [-2, 0, 2, 0], [-4, 2, 2, 0]]
    assert list(preview.iloc[:, 2]) == ["庄 点炮", "胡", "胡", ""]
    assert any("一炮多响合计结算（2 家胡这张牌）" in m.value for m in app.markdown)
    assert app.button(key="add-to-ledger").label == "记入记分表（一炮多响，共 2 家）"
    app.button(key="add-to-ledger").click()
    run(app)
    hand = app.session_state["ledger"].hands[0]
    assert hand.winners == (1, 2) and hand.discarder == 0 and list(hand.deltas) == [-4, 2, 2, 0]
    assert app.session_state["pending_wins"] == ()
    assert app.selectbox(key="ctx-dealer").value == 0  # the discarder deals next (下局点胡的玩家坐庄)
    app.radio(key="page").set_value("ledger")
    run(app)
    assert list(app.dataframe[0].value["赢家"]) == ["南、西"]


def test_a_second_winner_who_cannot_share_the_discard_is_told_before_adding(app):
    type_all_pungs(app)
    app.selectbox(key="ctx-ruleset").set_value("weinan")
    app.selectbox(key="ctx-winner").set_value(1)
    run(app)
    app.button(key="another-winner").click()
    run(app)
    type_all_pungs(app)
    app.toggle(key="ctx-self-draw").set_value(True)  # a self-draw cannot share the kept winner's discard
    run(app)
    assert app.warning[0].value == "不能记入：一炮多响只算渭南胡点炮的牌"
    assert list(app.dataframe[1].value.columns)[-1] == "得分"  # the winner's own settlement, not a combined one


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


def test_the_chinese_ledger_page_says_nothing_in_english(app):
    score_typed(app, winner=1, discarder=0)
    app.button(key="add-to-ledger").click()
    run(app)
    app.radio(key="page").set_value("ledger")
    run(app)
    app.button(key="record-draw").click()
    run(app)
    assert len(app.dataframe[0].value) == 2
    assert_no_english(app)


@pytest.mark.parametrize(("lang", "players", "columns"), [
    ("zh", ("庄家", "赢家", "丙", "丁"), ["局", "庄家", "赢家", "庄家 (座位 0)", "赢家 (座位 1)", "丙", "丁"]),
    ("en", ("Hand", "B", "C", "D"), ["Hand", "Dealer", "Winner", "Hand (Seat 0)", "B", "C", "D"]),
    ("zh", ("规则", "乙", "丙", "丁"), ["局", "规则", "庄家", "赢家", "规则 (座位 0)", "乙", "丙", "丁"]),
])
def test_a_player_named_like_a_column_keeps_their_own_column(lang, players, columns):
    """The rule set has a column only when the hands mix rule sets (the third case); else it is named above."""
    from mjsnap.app.i18n import tr
    from mjsnap.app.ledger_page import hands_table

    ledger = Ledger().rename(players).record(ruleset="xian", winners=[0], discarder=1, deltas=(3, -3, 0, 0))
    if "规则" in columns:
        ledger = ledger.record(ruleset="weinan", winners=[0], discarder=1, deltas=(2, -2, 0, 0))
    table = hands_table(ledger, tr(lang), lang)
    assert list(table.columns) == columns
    dealer, points = columns.index(tr(lang)("dealer")), 4 if "规则" in columns else 3
    assert table.iloc[0][columns[dealer]] == players[0] and table.iloc[0][columns[points]] == "+3 → 3"


def test_a_cleared_or_replaced_ledger_can_be_switched_back(app):
    """Clear, or an imported CSV, replace a whole evening's hands with one tap: the replaced ledger is kept aside, and
    switching back keeps the other aside in turn, so neither is lost."""
    score_typed(app, winner=2, discarder=None)
    app.button(key="add-to-ledger").click()
    run(app)
    evening = app.session_state["ledger"]
    app.radio(key="page").set_value("ledger")
    run(app)
    assert not any(b.key == "swap-back-ledger" for b in app.button)  # nothing replaced yet
    app.button(key="clear-ledger").click()
    run(app)
    assert not app.session_state["ledger"].hands
    app.button(key="swap-back-ledger").click()
    run(app)
    assert app.session_state["ledger"] == evening
    assert not any(b.key == "swap-back-ledger" for b in app.button)  # the empty ledger is not worth keeping

    imported = Ledger(players=["甲", "乙", "丙", "丁"]).record(ruleset="xian", winners=[0], discarder=1,
                                                              deltas=(3, -3, 0, 0))
    app.file_uploader(key="ledger-csv").set_value(("other.csv", imported.to_csv().encode(), "text/csv"))
    run(app)
    assert app.session_state["ledger"] == imported
    assert app.button(key="swap-back-ledger").label == "换回另一份记分表（1 局）"
    app.button(key="swap-back-ledger").click()
    run(app)
    assert app.session_state["ledger"] == evening and app.text_input(key="player-0").value == evening.players[0]
    app.button(key="swap-back-ledger").click()  # and back again: the imported one was kept aside in turn
    run(app)
    assert app.session_state["ledger"] == imported and app.text_input(key="player-0").value == "甲"
