"""The correction draft (no Streamlit): edits, the scorer's Hand, the label boxes, and reading a ReadHand."""

from __future__ import annotations

import pytest

from mjsnap.app.draft import Draft, DraftTile, MeldProblem, from_read, from_text
from scoring.hand import HandError, Meld, MeldType
from scoring.tiles import BACK, format_compact, kind_of
from vision.normalize.result import ReadHand, ReadTile


def k(name: str) -> int:
    return kind_of(name)


def test_typed_draft_becomes_the_hand():
    draft = from_text("123m456m789m234s5s", "5s")
    hand = draft.hand()
    assert format_compact(hand.concealed) == "123456789m2345s" and hand.win_tile == k("5s")
    assert draft.summary() == "123456789m2345s +5s"


@pytest.mark.parametrize(
    ("edit", "summary"),
    [
        (lambda d: d.set_kind(13, k("2s")), "123456789m2345s +2s"),
        (lambda d: d.set_win(0), "23456789m23455s +1m"),  # the old winning tile joins the concealed row
        (lambda d: d.set_aside(13), "123456789m2345s"),
        (lambda d: d.delete(0).delete(13), "23456789m2345s"),
        (lambda d: d.add(k("E")), "123456789m2345s1z +5s"),
        (lambda d: d.add(k("E"), "win"), "123456789m23455s +E"),
        (lambda d: d.new_meld([0, 1, 2], MeldType.CHOW), "456789m2345s [chow 1m 2m 3m] +5s"),
    ],
)
def test_edits(edit, summary):
    assert edit(from_text("123m456m789m234s5s", "5s")).summary() == summary


def test_meld_moves_type_changes_and_break_up():
    draft = from_text("111m456m789m234s5s", "5s").new_meld([0], MeldType.PUNG)
    draft = draft.to_meld(1, 0).to_meld(2, 0)
    assert draft.hand().melds == (Meld(MeldType.PUNG, (0, 0, 0)),)
    with pytest.raises(HandError, match="not a chow"):
        draft.set_meld_type(0, MeldType.CHOW).hand()
    second = draft.new_meld([3], MeldType.PUNG)
    assert len(second.meld_types) == 2
    # breaking the first meld renumbers the second one to meld 0
    broken = second.break_meld(0)
    assert broken.meld_types == (MeldType.PUNG,) and broken.meld_members(0) == [3]
    # moving the last tile out of a meld removes the meld
    assert broken.to_hand(3).meld_types == ()


def test_a_meld_problem_says_which_meld_for_the_page_to_name_it():
    draft = from_text("111m456m789m234s5s", "5s").new_meld([0, 1, 2], MeldType.PUNG).new_meld([3, 4, 5], MeldType.PUNG)
    with pytest.raises(MeldProblem, match="^pung 456m is not a pung") as caught:
        draft.hand()
    assert caught.value.meld == 1 and caught.value.code == "bad_meld"


def test_a_meld_problem_is_named_by_its_number_in_chinese():
    from mjsnap.app.i18n import tr
    from mjsnap.i18n_catalogue import explain

    detail = tr("zh")("meld_problem", n=2, detail=explain("bad_meld", "zh"))
    assert detail == "副露 2：有一组副露不成吃、碰或杠"


def two_kongs() -> Draft:
    """8888s as meld 0 and EEEE as meld 1, both exposed kongs, none fed yet."""
    draft = from_text("8888s1111z123m456m5p", "5p").new_meld([0, 1, 2, 3], MeldType.KONG_EXPOSED)
    return draft.new_meld([4, 5, 6, 7], MeldType.KONG_EXPOSED)


@pytest.mark.parametrize(
    ("edit", "feeders", "meld_from"),
    [
        (lambda d: d, (None, None), (None, None)),
        (lambda d: d.set_feeder(1, 2), (None, 2), (None, 2)),
        (lambda d: d.set_feeder(1, 2).set_feeder(1, None), (None, None), (None, None)),
        (lambda d: d.set_feeder(0, 3).break_meld(0), (None,), (None,)),  # meld 1 becomes meld 0, its feeder too
        (lambda d: d.set_feeder(1, 3).break_meld(0), (3,), (3,)),
        (lambda d: d.set_feeder(0, 1).set_meld_type(0, MeldType.KONG_ADDED), (1, None), (None, None)),
        (lambda d: d.set_feeder(0, 1).set_meld_type(0, MeldType.KONG_ADDED).set_meld_type(0, MeldType.KONG_EXPOSED),
         (1, None), (1, None)),  # a feeder named before a change of type waits for the exposed kong
        (lambda d: d.new_meld([8, 9, 10], MeldType.CHOW), (None, None, None), (None, None, None)),
    ],
)
def test_an_exposed_kong_takes_the_seat_that_fed_it(edit, feeders, meld_from):
    draft = edit(two_kongs())
    assert draft.meld_feeders == feeders
    assert tuple(draft.meld(m).from_seat for m in range(len(draft.meld_types))) == meld_from


def test_the_hand_of_a_draft_carries_its_feeders():
    assert [m.from_seat for m in two_kongs().set_feeder(0, 2).hand().melds] == [2, None]


@pytest.mark.parametrize(("meld", "seat", "error"), [(2, 1, IndexError), (0, 4, ValueError), (0, -1, ValueError)])
def test_a_feeder_names_a_meld_and_a_seat_that_exist(meld, seat, error):
    with pytest.raises(error):
        two_kongs().set_feeder(meld, seat)


def test_concealed_kong_backs_take_the_face_kind():
    kong = [DraftTile(BACK, "meld", 0), DraftTile(k("C"), "meld", 0), DraftTile(k("C"), "meld", 0),
            DraftTile(BACK, "meld", 0)]
    rest = [DraftTile(x, "hand") for x in [k(n) for n in "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s".split()]]
    draft = Draft(tuple(kong + rest + [DraftTile(k("1s"), "win")]), (MeldType.KONG_CONCEALED,))
    hand = draft.hand()
    assert hand.melds[0].tiles == (k("C"),) * 4
    with pytest.raises(HandError, match="only a concealed kong"):
        draft.set_meld_type(0, MeldType.KONG_EXPOSED).hand()
    four_backs = draft.set_kind(1, BACK).set_kind(2, BACK)
    with pytest.raises(HandError) as info:
        four_backs.hand()
    assert info.value.code == "kong_kind_unknown"


def test_face_down_tile_in_the_concealed_row_is_explained():
    with pytest.raises(HandError, match="pick its face"):
        from_text("123m456m789m234s5s", "5s").set_kind(0, BACK).hand()


def test_bad_edits_raise_clear_errors():
    draft = from_text("123m", "")
    with pytest.raises(IndexError, match="no tile 10"):
        draft.set_kind(9, 0)
    with pytest.raises(IndexError, match="no meld 0"):
        draft.to_meld(0, 0)
    with pytest.raises(ValueError, match="0..34"):
        draft.set_kind(0, 40)


def _read() -> ReadHand:
    box = lambda x: (x, 100.0, x + 30.0, 140.0)  # noqa: E731
    tiles = [
        ReadTile("2m", 0.95, box(40), "concealed", row=0, detected_cls="2m"),
        ReadTile("1m", 0.40, box(10), "concealed", row=0, detected_cls="1m", choices=("7m", "back")),
        ReadTile("C", 0.9, box(300), "meld", 0, row=1, detected_cls="C"),
        ReadTile("C", 0.9, box(330), "meld", 0, row=1, detected_cls="C"),
        ReadTile("C", 0.9, box(360), "meld", 0, row=1, detected_cls="C"),
        ReadTile("back", 0.9, box(500), "meld", None, row=1, detected_cls="back"),
        ReadTile("back", 0.9, box(530), "meld", None, row=1, detected_cls="back"),
        ReadTile("back", 0.9, box(560), "meld", None, row=1, detected_cls="back"),
        ReadTile("back", 0.9, box(590), "meld", None, row=1, detected_cls="back"),
        ReadTile("5p", 0.8, box(700), "win", row=0, detected_cls="5p"),
        ReadTile("9s", 0.3, box(900), "ignored", row=None, detected_cls="9s"),
    ]
    return ReadHand([0, 1], [Meld(MeldType.PUNG, (31, 31, 31))], 13, tiles, [], unresolved_kongs=1)


def test_from_read_places_every_detection():
    draft = from_read(_read())
    assert [draft.tiles[i].name for i in draft.concealed] == ["1m", "2m"]  # photo order, left to right
    assert draft.tiles[draft.win].name == "5p"
    # hand tiles are numbered first: concealed #1-2, winning tile #3, melds #4-10, the ignored tile last
    assert (draft.concealed, draft.win, draft.meld_members(0), draft.indices("aside")) == ([0, 1], 2, [3, 4, 5], [10])
    assert draft.meld_types == (MeldType.PUNG, MeldType.KONG_CONCEALED)  # the unnamed four-back kong
    assert [draft.tiles[i].name for i in draft.meld_members(1)] == ["back"] * 4
    assert [draft.tiles[i].name for i in draft.indices("aside")] == ["9s"]
    assert draft.tiles[0].choices == (6, 34) and draft.tiles[1].choices == ()  # the classifier's next guesses
    with pytest.raises(HandError) as info:
        draft.hand()
    assert info.value.code == "kong_kind_unknown"


def test_label_boxes_follow_the_corrections():
    origin = from_read(_read())
    boxes, review = origin.label_boxes()
    assert len(boxes) == 11 and not review  # every detection, ignored tiles included: they are real tiles
    fixed = origin.set_kind(0, k("3m")).delete(len(origin.tiles) - 1)
    boxes, review = fixed.label_boxes()
    assert len(boxes) == 10 and boxes[0][0] == k("3m")
    added = fixed.add(k("7p"))
    assert added.label_boxes()[1] is True  # the added tile has no box: the photo needs review
    assert added.unboxed == [len(added.tiles) - 1]
    assert added.set_aside(len(added.tiles) - 1).unboxed == []  # out of the hand, it is no longer in the label
