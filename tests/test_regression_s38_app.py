"""Regressions found by the session-38 audit of issue 4 (the normalizer: detections -> hand, `mjsnap read`) and
issue 5 (the app), each failing before its fix:

- a concealed kong whose two backs the detector took for blank 白 (P 9s 9s P) was no meld, so the hand lost it;
- a row of discards off to the side of the melds, well clear of the hand, drew a slanted row line through part of
  the melds, which then fit nowhere in the hand;
- a winning tile named with --win-tile that the row does not hold crashed the reader when the row's last tile read
  as a back (issue 4: "never a crash");
- the browser camera's button and its request for the camera were English on a 中文 page;
- a photo in which no tile was found showed a hand of 0 tiles "too short", the reason hidden in a closed section.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from normalize_layouts import TILE_H, TILE_W, FixedDetector, detections, photograph, tile_polygons
from scoring.tiles import BACK, CLASS_NAMES, format_compact, kind_of
from vision.detections import Detections
from vision.normalize import ReadOptions, read_hand
from vision.normalize.melds import type_group

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")


def melds_of(hand) -> list[tuple[str, str]]:
    return sorted((m.type.value, format_compact(m.tiles)) for m in hand.melds)


def classes_of(tiles: str) -> list[int]:
    return [BACK if t == "#" else kind_of(t) for t in tiles.split()]


# --- issue 4: 白 where a concealed kong's backs lie ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("tiles", "meld_type", "kind"),
    [
        ("P 9s 9s P", "kong_concealed", "9s"),  # both end backs read as 白
        ("9s P P 9s", "kong_concealed", "9s"),  # both middle backs read as 白
        ("P C C P", "kong_concealed", "C"),
        ("P P P P", "kong_exposed", "P"),  # four 白 stay a kong of 白
        ("P 5m P 5m", None, None),  # 白 where no back lies: no kong
        ("P P 5m 5m", None, None),
    ],
)
def test_blanks_where_a_concealed_kongs_backs_lie_are_backs(tiles, meld_type, kind):
    reading = type_group(classes_of(tiles), "kong_exposed")
    if meld_type is None:
        assert reading.meld is None and reading.code == "not_a_meld"
    else:
        assert (reading.meld.type.value, reading.meld.kind) == (meld_type, kind_of(kind))


@pytest.mark.parametrize("kong", ["P 9s 9s P", "9s P P 9s"])
def test_a_kong_shown_with_blanks_for_backs_is_read_into_the_hand(kong):
    hand = read_hand(detections([kong, "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p | 1p"], rotate_deg=10, tilt_deg=20), (1000, 800))
    assert melds_of(hand) == [("kong_concealed", "9999s")]
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("123456789m1p", "1p")
    assert not {"not_in_hand", "wrong_tile_count"} & set(hand.warning_codes)
    kong_tiles = [t for t in hand.tiles if t.group == "meld"]
    assert sorted(t.cls for t in kong_tiles) == ["9s", "9s", "back", "back"]  # what the label should have said
    assert sorted(t.detected_cls for t in kong_tiles) == ["9s", "9s", "P", "P"]


# --- issue 4: discards in line with the melds, well away from them -------------------------------------------------
@pytest.mark.parametrize(
    "camera",
    [{}, {"rotate_deg": 20, "tilt_deg": 30}, {"rotate_deg": 90, "tilt_deg": 20}, {"rotate_deg": 170, "tilt_deg": 25}],
    ids=["flat", "turned-tilted", "quarter-turn", "upside-down"],
)
def test_discards_beyond_the_melds_do_not_take_them_out_of_the_hand(camera):
    corners, classes = tile_polygons(["^2p 2p 2p | 4s ^5s 6s", "1m 2m 3m 4m 5m 6m 7m | 9p"])
    # six discards a tile and a half beyond the melds' row, starting four tiles past its end: clear of the hand
    discards, discard_classes = tile_polygons(["E 7s 3p 9m W 1p"])
    discards = discards + [12 * TILE_W, -2.5 * TILE_H]
    boxes = photograph(np.concatenate([corners, discards]), **camera)
    all_classes = np.concatenate([classes, discard_classes])
    hand = read_hand(Detections(boxes, np.full(len(all_classes), 0.95), all_classes), (2000, 2000))
    assert melds_of(hand) == [("chow", "456s"), ("pung", "222p")]
    assert (format_compact(hand.concealed), format_compact([hand.win_tile])) == ("1234567m", "9p")
    assert "wrong_tile_count" not in hand.warning_codes
    assert all(hand.tiles[i].group == "ignored" for i in range(len(classes), len(all_classes)))


# --- issue 4: never a crash ----------------------------------------------------------------------------------------
def test_a_named_winning_tile_not_in_a_row_ending_in_a_back_is_a_warning_not_a_crash():
    seen = detections(["1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 5s 5s #"])  # the last tile (a 白?) read as a back
    probs = np.full((len(seen), len(CLASS_NAMES)), 0.001)
    probs[np.arange(len(seen)), seen.class_id] = 0.96
    probs[-1, kind_of("P")] = 0.03  # models that give class probabilities try re-reading a back in the row
    probs /= probs.sum(axis=1, keepdims=True)
    dets = Detections(seen.xyxy, seen.confidence, seen.class_id, class_probs=probs)
    hand = read_hand(dets, (1000, 800), ReadOptions(win_tile_kind="5p"))
    assert {"face_down_outside_kong", "win_tile_not_found"} <= set(hand.warning_codes)
    assert "no winning tile was taken" in next(w.message for w in hand.warnings if w.code == "win_tile_not_found")
    assert hand.win_tile is None and format_compact(hand.concealed) == "123456789m11p55s"


# --- issue 5: the camera input in the page's language --------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("zh", ['"拍照"', '"正在上传…"', '"清除照片"', '"这个网页要用相机：请在浏览器里允许。"', '"怎样允许"']),
        ("en", ['"Take the photo"', '"Uploading…"', '"Clear the photo"',
                '"This page needs the camera: allow it in the browser."', '"How to allow it"']),
    ],
)
def test_the_camera_rule_puts_the_pages_words_on_its_own_camera(lang, words):
    from mjsnap.app.camera import camera_words
    from mjsnap.app.i18n import tr

    rule = camera_words(tr(lang), "camera")
    assert all(f"content: {word}" in rule for word in words)
    selectors = [part.split("{")[0] for part in rule.removeprefix("<style>").split("}") if "{" in part]
    assert selectors and all(one.strip().startswith(".st-key-camera ") for s in selectors for one in s.split(","))


def _app(monkeypatch, tmp_path):
    from streamlit.testing.v1 import AppTest

    monkeypatch.setenv("MJSNAP_LABELS_DIR", str(tmp_path / "labels"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_score_pages_camera_carries_the_rule(monkeypatch, tmp_path):
    at = _app(monkeypatch, tmp_path)
    at.toggle(key="camera_on").set_value(True).run()
    assert not at.exception, at.exception
    assert at.get("camera_input")[0].label == "拍照"
    assert any(".st-key-camera " in html.proto.body and '"清除照片"' in html.proto.body for html in at.get("html"))


# --- issue 5: a photo without tiles says so ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "said"),
    [("zh", "照片里没有找到牌：把牌拍近一些、拍清楚再试，或在上面手动输入牌"),
     ("en", "No tiles were found in the photo: take it closer and sharper, or type the tiles above")],
)
def test_a_photo_without_tiles_says_so_under_the_photo(monkeypatch, tmp_path, lang, said):
    import io

    from PIL import Image

    from mjsnap.app import recognize

    monkeypatch.setattr(recognize, "load_detector", lambda path, stamp=None: FixedDetector([]))  # a detector that finds nothing
    at = _app(monkeypatch, tmp_path)
    if lang == "en":
        at.radio(key="lang").set_value("en").run()
    photo = io.BytesIO()
    Image.new("RGB", (640, 480), (40, 110, 60)).save(photo, format="JPEG")
    at.file_uploader(key="uploader").set_value(("table.jpg", photo.getvalue(), "image/jpeg")).run()
    assert not at.exception, at.exception
    assert [w.value for w in at.warning] == [said]


# --- issue 5: the camera in a real browser -------------------------------------------------------------------------
def _bare_table_video(folder: Path) -> Path:
    """What the fake camera films: a bare green table (Y4M, the format Chromium's fake camera reads), so the photo
    it takes holds no tile. Chromium's own test pattern shows a running clock, whose digits a tile detector may box."""
    width, height = 640, 480
    luma, blue, red = 89, 112, 93  # felt green, RGB (40, 120, 60), in full-range BT.601 YCbCr
    frame = b"FRAME\n" + bytes([luma]) * (width * height) + bytes([blue]) * (width * height // 4) \
        + bytes([red]) * (width * height // 4)
    path = folder / "bare_table.y4m"
    path.write_bytes(f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\n".encode() + frame * 30)
    return path


@pytest.fixture(scope="module")
def camera_page(tmp_path_factory):
    """A 中文 page of `streamlit run app.py` in Chromium with a fake camera, the camera switched on."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (scripts/setup.sh full)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = dict(os.environ, MJSNAP_LABELS_DIR=str(tmp_path_factory.mktemp("labels")))
    log = tmp_path_factory.mktemp("server") / "streamlit.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"streamlit did not start: {log.read_text()[-2000:]}")
                time.sleep(0.5)
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM),
                args=["--no-sandbox", "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                      f"--use-file-for-fake-video-capture={_bare_table_video(tmp_path_factory.mktemp('camera'))}"])
            context = browser.new_context(viewport={"width": 390, "height": 1600}, locale="zh-CN",
                                          permissions=["camera"])
            page = context.new_page()
            page.set_default_timeout(180_000)
            page.goto(url)
            page.get_by_text("麻将拍照算分").wait_for(timeout=120_000)
            page.locator(".st-key-camera_on label").click()
            yield page
            browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


def _drawn(page, selector: str) -> dict:
    # waited for rather than read once: Streamlit may re-render the button between a locator's wait and this read,
    # and for that moment the selector finds nothing (a CI run read null there)
    return page.wait_for_function(
        """(s) => { const e = document.querySelector(s);
            return e && {size: getComputedStyle(e).fontSize, words: getComputedStyle(e, '::after').content,
                         height: e.getBoundingClientRect().height}; }""",
        arg=selector, timeout=60_000,
    ).json_value()


@pytest.mark.slow
def test_in_a_browser_the_camera_button_speaks_the_pages_language_before_and_after_the_photo(camera_page):
    button = '.st-key-camera [data-testid="stCameraInputButton"]'
    camera_page.locator(button).wait_for(timeout=60_000)
    # st.html inserts the style rule a moment after the camera appears
    camera_page.wait_for_function("(s) => getComputedStyle(document.querySelector(s)).fontSize === '0px'",
                                  arg=button, timeout=60_000)
    before = _drawn(camera_page, button)
    assert (before["size"], before["words"]) == ("0px", '"拍照"')
    # a tap before the camera's first frame takes no photo
    camera_page.wait_for_function("() => document.querySelector('.st-key-camera video')?.videoWidth > 0",
                                  timeout=60_000)
    camera_page.wait_for_function("(s) => !document.querySelector(s).disabled", arg=button, timeout=60_000)
    camera_page.locator(button).click()
    cleared = f"{button} > span"
    camera_page.locator(cleared).wait_for(timeout=120_000)
    after = _drawn(camera_page, cleared)
    assert (after["size"], after["words"]) == ("0px", '"清除照片"')
    assert camera_page.locator(button).bounding_box()["height"] < 44  # icon and words on one line
    # the photo taken is read like an upload (the bare table holds no tile)
    camera_page.get_by_text("照片里没有找到牌：把牌拍近一些、拍清楚再试，或在上面手动输入牌").wait_for(timeout=120_000)
