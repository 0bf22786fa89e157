"""App latency: a 12 MP phone photo in -> the score on the page, with the model warm.

Two measurements, both on the real app.py:

* ``apptest`` (default): Streamlit's AppTest runs the whole script in this process: upload -> decode -> detect ->
  read -> draft -> overlay -> hand view -> score -> every element built. Timed per upload, plus the app's own
  decode/detect/arrange split.
* ``browser``: `streamlit run app.py` on localhost and Debian's Chromium through Playwright: from handing the file to
  the page until the result heading is visible (upload over HTTP, the script run, websocket, rendering).

Each photo is a bundled sample scaled to 4000x3000 (12 MP) and saved as a phone-quality JPEG; a fresh photo per
run (a flipped copy, so no cached reading is reused). Results: benchmarks/results/app_latency.json.

    .venv/bin/python benchmarks/app_latency.py --runs 5 [--mode both] [--model-dir models/current]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

from PIL import Image, ImageOps

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SAMPLES = ROOT / "mjsnap" / "app" / "samples"
RESULTS = ROOT / "benchmarks" / "results" / "app_latency.json"
SIZE_12MP = (4000, 3000)
TARGET_S = 1.0
CHROMIUM = Path("/usr/bin/chromium")
# The page shows the score (or the message why there is none) or the waits of a 13-tile hand.
SHOWN_JS = """() => {
  const text = document.body.innerText;
  return (text.includes('4 · 结果') && (text.includes(' 得 ') || text.includes('不能胡') || text.includes('还不完整')))
      || text.includes('听牌：胡哪张');
}"""


def photo_12mp(sample: Path, variant: int) -> bytes:
    """The sample at 4000x3000 as a q90 JPEG; ``variant`` flips/tints it so every run is a new photo."""
    image = Image.open(sample).convert("RGB").resize(SIZE_12MP, Image.Resampling.BICUBIC)
    if variant % 2:
        image = ImageOps.mirror(image)
    image.putpixel((variant % SIZE_12MP[0], 0), (variant % 256, 0, 0))  # a different file each run
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=90)
    return out.getvalue()


def result_shown(at) -> str:
    """What the page ended with: 'score', 'waits', 'not_a_win' or 'incomplete' (the latter two are messages)."""
    if at.success and any("得" in s.value or "gets" in s.value for s in at.success):
        return "score"
    if any("听牌" in s.value for s in at.subheader):
        return "waits"
    if at.error and "不能胡" in at.error[0].value:
        return "not_a_win"
    if at.error:
        return "incomplete: " + at.error[0].value[:80]
    return "nothing"


def bench_apptest(photos: list[bytes], warm: bytes) -> dict:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.file_uploader(key="uploader").set_value(("warm.jpg", warm, "image/jpeg"))
    at.run()  # loads the model and every import once
    if at.exception:
        raise RuntimeError(f"the app failed on the warm-up photo: {at.exception}")
    runs = []
    for number, data in enumerate(photos):
        at.file_uploader(key="uploader").set_value((f"photo{number}.jpg", data, "image/jpeg"))
        start = time.perf_counter()
        at.run()
        seconds = time.perf_counter() - start
        if at.exception:
            raise RuntimeError(f"the app failed on photo {number}: {at.exception}")
        reading = at.session_state["reading"]
        runs.append(
            {
                "seconds": round(seconds, 3),
                "app_ms": {k: round(v, 1) for k, v in reading.ms.items()},
                "tiles_read": sum(t.box is not None for t in at.session_state["draft"].tiles),
                "shown": result_shown(at),
            }
        )
    return summarise(runs) | {"model_version": reading.model_version}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bench_browser(photos: list[bytes], warm: bytes) -> dict:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        return {"skipped": "no /usr/bin/chromium"}
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
         "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        runs = []
        with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            for number, data in enumerate([warm] + photos):
                path = Path(folder) / f"photo{number}.jpg"
                path.write_bytes(data)
                page.goto(url, timeout=180_000)  # a fresh session per photo; the model stays warm in the server
                page.get_by_text("麻将拍照算分").wait_for(timeout=120_000)
                start = time.perf_counter()
                page.locator("input[type='file']").first.set_input_files(str(path))
                page.wait_for_function(SHOWN_JS, timeout=300_000)
                seconds = time.perf_counter() - start
                if number:  # the first photo only warms the model up
                    runs.append({"seconds": round(seconds, 3)})
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
    return summarise(runs)


def summarise(runs: list[dict]) -> dict:
    seconds = sorted(r["seconds"] for r in runs)
    p90 = seconds[min(len(seconds) - 1, round(0.9 * (len(seconds) - 1)))]
    return {
        "median_s": round(statistics.median(seconds), 3),
        "p90_s": p90,
        "min_s": seconds[0],
        "meets_target": statistics.median(seconds) < TARGET_S,
        "runs": runs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mode", choices=("apptest", "browser", "both"), default="apptest")
    parser.add_argument("--model-dir", type=Path, default=None, help="default: models/current ($MJSNAP_MODEL_DIR)")
    parser.add_argument("--sample", default="plain_win.jpg")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()
    if args.model_dir is not None:
        os.environ["MJSNAP_MODEL_DIR"] = str(args.model_dir.resolve())
    os.environ.setdefault("MJSNAP_LABELS_DIR", tempfile.mkdtemp(prefix="mjsnap-bench-labels-"))
    from mjsnap.app.recognize import model_dir

    sample = SAMPLES / args.sample
    warm = photo_12mp(sample, 10_001)
    photos = [photo_12mp(sample, i) for i in range(args.runs)]
    report = {
        "benchmark": "app_latency",
        "what": "12 MP JPEG uploaded -> score (or its message) on the page, model warm",
        "target_s": TARGET_S,
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_1m_at_start": round(os.getloadavg()[0], 2),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "model_dir": str(model_dir()),
        "photo": {"sample": args.sample, "size": list(SIZE_12MP), "jpeg_bytes": len(photos[0])},
    }
    if args.mode in ("apptest", "both"):
        report["apptest"] = bench_apptest(photos, warm)
        print(f"apptest: median {report['apptest']['median_s']} s, p90 {report['apptest']['p90_s']} s")
    if args.mode in ("browser", "both"):
        report["browser"] = bench_browser(photos, warm)
        print(f"browser: {({k: v for k, v in report['browser'].items() if k != 'runs'})}")
    report["machine"]["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
