"""The app as a player uses it on a phone: what a tap shows where the thumb is, what is said in the page's language,
and what keeps a hand from going into the ledger twice, checked with AppTest; what only a browser shows (a table as
wide as the phone, the tapped tile's panel beside it) is in tests/test_browser.py."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app_texts import APP, assert_no_english, run  # noqa: E402

from mjsnap.app.result_view import ITEMS_WIDTHS  # noqa: E402
from mjsnap.app.tables import WRAPPED_ROW_HEIGHT  # noqa: E402
from scoring.tiles import BACK  # noqa: E402

HAND, WIN = "123m456m789m234s5s", "5s"  # 东 wins 5s on a discard: +18 under Shaanxi


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    return run(AppTest.from_file(APP, default_timeout=60))


def type_hand(at: AppTest, tiles: str = HAND, win: str = WIN) -> AppTest:
    at.text_input(key="typed_tiles").set_value(tiles)
    at.text_input(key="typed_win").set_value(win)
    at.button(key="use_typed").click()
    return run(at)


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run(at)


def button_keys(at: AppTest) -> list[str]:
    return [b.key for b in at.button]


# --- a hand goes into the ledger once ---------------------------------------------------------------------------------


def test_a_recorded_hand_says_so_where_its_button_was_and_cannot_go_in_twice(app):
    """The notice was drawn at the top of the page, a few screens above the button on a phone; the button stayed,
    under a score recomputed for the next hand's dealer (南 +12 became +18), and a second tap recorded that."""
    type_hand(app)
    app.selectbox(key="ctx-winner").set_value(1)
    run(app)
    assert [s.value for s in app.success] == ["南 得 +12 分"]
    click(app, "add-to-ledger")
    assert len(app.session_state["ledger"].hands) == 1
    assert [s.value for s in app.success] == ["已记入第 1 局", "这手牌已记入记分表（第 1 局）"]
    assert "add-to-ledger" not in button_keys(app)
    assert not any("得 +18 分" in s.value for s in app.success)  # no score for a dealer who did not deal it
    assert any("撤销上一局" in c.value for c in app.caption)
    assert app.selectbox(key="ctx-dealer").value == 1  # the next hand's context is ready all the same
    assert_no_english(app)

    run(app)  # the page's notice goes on the next run; the hand's stays
    assert [s.value for s in app.success] == ["这手牌已记入记分表（第 1 局）"]


def test_new_tiles_or_an_undone_hand_are_scored_again(app):
    type_hand(app)
    click(app, "add-to-ledger")
    assert "add-to-ledger" not in button_keys(app)
    type_hand(app)  # the next hand, typed alike
    assert "add-to-ledger" in button_keys(app)
    assert [s.value for s in app.success] == ["东 得 +18 分"]

    click(app, "add-to-ledger")
    app.radio(key="page").set_value("ledger")
    run(app)
    click(app, "undo")
    app.radio(key="page").set_value("score")
    run(app)
    assert len(app.session_state["ledger"].hands) == 1
    assert "add-to-ledger" in button_keys(app)  # undone: the hand on the page can go in again


def test_the_english_page_says_the_hand_is_recorded_in_english(app):
    app.radio(key="lang").set_value("en")
    run(app)
    type_hand(app)
    click(app, "add-to-ledger")
    assert "This hand is in the ledger (hand 1)" in [s.value for s in app.success]


# --- the tapped tile's panel is where the tap was --------------------------------------------------------------------


def test_the_tapped_tiles_panel_is_drawn_under_its_row(app):
    """Below the whole hand the panel was a screen or two under the tile tapped, out of a phone's sight."""
    type_hand(app)
    click(app, "tile-0")  # a concealed tile: the panel comes before the "add a tile" button
    keys = button_keys(app)
    assert keys.index("tile-12") < keys.index("act-done") < keys.index("pick-0") < keys.index("add-tile")
    assert keys.index("add-tile") < keys.index("tile-13")
    assert any("修改第 1 张" in m.value for m in app.markdown)

    click(app, "act-done")
    click(app, "tile-13")  # the winning tile: its panel comes after its row, before the hand's own buttons
    keys = button_keys(app)
    assert keys.index("add-tile") < keys.index("tile-13") < keys.index("act-done") < keys.index("clear-win")
    assert keys.count("act-done") == 1

    click(app, "act-done")
    click(app, "add-tile")  # adding: the picker comes right under the button tapped
    keys = button_keys(app)
    assert keys.index("add-tile") < keys.index("pick-0") < keys.index("add-done") < keys.index("tile-13")


def test_a_correction_from_the_panel_under_the_row_scores_the_hand(app):
    type_hand(app, HAND, "4s")  # misread winning tile
    assert app.error and "点第 2 步里的那张牌改正" in app.error[0].value
    click(app, "tile-13")
    click(app, "pick-22")  # 5s
    assert not app.error
    assert [s.value for s in app.success] == ["东 得 +18 分"]
    assert "act-done" not in button_keys(app)  # the panel closes once the face is picked


def test_a_meld_tiles_panel_is_drawn_under_its_meld(app):
    type_hand(app)
    click(app, "tile-0")
    click(app, "act-new-meld")  # tile 1 becomes a meld of its own
    draft = app.session_state["draft"]
    member = draft.meld_members(0)[0]
    click(app, f"tile-{member}")
    keys = button_keys(app)
    assert keys.index(f"tile-{member}") < keys.index("act-done") < keys.index("break-0")


# --- the page's language ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "labels"),
    [("zh", ["1m", "5p", "9s", "东", "南", "西", "北", "中", "发", "白", "牌背"]),
     ("en", ["1m", "5p", "9s", "E", "S", "W", "N", "C", "F", "P", "back"])],
)
def test_the_face_pickers_honours_and_back_are_named_in_the_pages_language(app, lang, labels):
    """The 中文 page wrote E, S, W, N, C, F, P and "back" under the honours' pictures."""
    app.radio(key="lang").set_value(lang)
    run(app)
    type_hand(app)
    click(app, "tile-0")
    kinds = [0, 13, 26, *range(27, BACK + 1)]
    assert [app.button(key=f"pick-{kind}").label for kind in kinds] == labels
    if lang == "zh":
        assert_no_english(app)


@pytest.mark.parametrize(
    ("lang", "hint"),
    [("zh", "如果有牌认错了，点第 2 步里的那张牌改正；少了牌就点“＋ 加一张牌”。"),
     ("en", "If a tile was misread, tap it in step 2 to fix it; if one is missing, use “+ Add a tile”.")],
)
def test_a_hand_with_no_waits_says_what_to_do(app, lang, hint):
    app.radio(key="lang").set_value(lang)
    run(app)
    type_hand(app, "12m128p35z888m222z", "")  # 13 tiles that wait on nothing
    assert len(app.info) == 1 and app.info[0].value.endswith(hint)


def test_the_label_page_asks_for_a_folder_before_saying_it_is_empty(app, tmp_path):
    """With no folder typed yet it said "no photos in this folder"."""
    app.radio(key="page").set_value("label")
    run(app)
    assert [i.value for i in app.info] == [
        "在上面填写照片所在的文件夹（运行本程序的电脑上的路径），如 /home/me/photos"]
    (tmp_path / "empty").mkdir()
    app.text_input(key="lp_folder").set_value(str(tmp_path / "empty"))
    run(app)
    assert [i.value for i in app.info] == ["这个文件夹里没有照片"]


# --- what fits a phone's width ---------------------------------------------------------------------------------------


def test_the_breakdowns_reasons_wrap_in_a_table_as_wide_as_a_phone(app):
    type_hand(app)
    table = app.dataframe[0]
    assert table.proto.row_height == WRAPPED_ROW_HEIGHT > 64  # Streamlit wraps a cell's text only past 4rem
    widths = [column["width"] for name, column in json.loads(table.proto.columns).items() if name != "_index"]
    assert widths == list(ITEMS_WIDTHS) and sum(widths) <= 390 - 2 * 16  # a 390 px phone less the page's padding
    assert list(table.value.iloc[:, 1]) == [18, 0]  # the table itself as before


def test_the_weimaque_hand_line_wraps(app):
    app.radio(key="page").set_value("weimaque")
    run(app)
    assert app.code[0].proto.wrap_lines  # the one line of the hand was cut off at a phone's width


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_weimaque_table_fits_a_phone_in_either_language(app, lang):
    """The English items and reasons made the 息 table 624 px wide in a 358 px column; the 中文 ones fit."""
    from mjsnap.app.weimaque_page import EN_WIDTHS

    app.radio(key="lang").set_value(lang)
    app.radio(key="page").set_value("weimaque")
    run(app)
    table = app.dataframe[0]
    columns = {name: column for name, column in json.loads(table.proto.columns or "{}").items() if name != "_index"}
    if lang == "en":
        assert table.proto.row_height == WRAPPED_ROW_HEIGHT > 64
        assert [column["width"] for column in columns.values()] == list(EN_WIDTHS)
        assert sum(EN_WIDTHS) <= 390 - 2 * 16
    else:
        assert not table.proto.row_height and not any("width" in column for column in columns.values())
    assert len(table.value) == 9  # the sample hand's items, as before
