"""`mjsnap batch` killed with SIGKILL at random moments, resumed each time, ends with exactly the records of an
uninterrupted run: none missing, none twice, the same content apart from timing. Also the command's own
contract: exit codes, the JSONL / CSV / summary files it writes."""

from __future__ import annotations

import csv
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from batch_archive import make_archive

from mjsnap.batch.export import CSV_COLUMNS
from mjsnap.batch.journal import iter_records, latest_by_path
from mjsnap.batch.records import content_of
from mjsnap.batch.runner import BatchSettings, run_batch

TESTS_DIR = Path(__file__).resolve().parent
FAKE = "batch_fakes:pixel_scorer"


# The batch as a terminal starts the console script, with Ctrl-C live: a runner that launched the tests in the
# background hands its children SIGINT ignored, and Python then leaves it ignored.
LAUNCH = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); from mjsnap.cli import main; main()"


def batch_command(archive: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-c", LAUNCH, "batch", str(archive), "--rules", "weinan",
            "--out", str(out), "--scorer", FAKE, "--no-progress", *extra]  # fmt: skip


def environment(delay: float) -> dict[str, str]:
    env = dict(os.environ, MJSNAP_FAKE_DELAY=str(delay))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(TESTS_DIR), env.get("PYTHONPATH")) if p)
    return env


def line_count(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def is_running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for_new_records(process: subprocess.Popen, out: Path, before: int, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while process.poll() is None and line_count(out) <= before:
        assert time.monotonic() < deadline, "the batch wrote nothing new"
        time.sleep(0.02)


def _semaphores_in_use() -> set[str]:
    """The /dev/shm semaphores some process has mapped (as /proc/PID/maps lists them)."""
    used = set()
    for maps in Path("/proc").glob("[0-9]*/maps"):
        try:
            used.update(line.rsplit("/", 1)[1] for line in maps.read_text().splitlines() if "/dev/shm/sem." in line)
        except (OSError, IndexError):
            continue
    return used


@pytest.fixture()
def orphaned_semaphores_removed():
    """A batch killed with its whole process group takes its resource tracker along, which would have unlinked the
    workers' semaphores (spawned workers' are named, in /dev/shm): this test removes those it orphaned, so that runs
    of the suite do not pile them up on the machine (about 15 a run). The product cannot: nothing of it survives."""
    shm = Path("/dev/shm")
    before = {p.name for p in shm.glob("sem.mp-*")} if shm.is_dir() else set()
    yield
    if shm.is_dir():
        in_use = _semaphores_in_use()
        for path in shm.glob("sem.mp-*"):
            if path.name not in before and path.name not in in_use:
                path.unlink(missing_ok=True)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.usefixtures("orphaned_semaphores_removed")
def test_sigkill_at_random_points_then_resume_equals_an_uninterrupted_run(tmp_path: Path) -> None:
    archive = make_archive(tmp_path / "photos", n_extra=13)
    reference = tmp_path / "reference.jsonl"
    run_batch(BatchSettings(inputs=[str(archive)], out=reference, ruleset="weinan", scorer=FAKE))
    expected = {path: content_of(record) for path, record in latest_by_path(reference).items()}

    out = tmp_path / "results.jsonl"
    rng = random.Random(20261202)
    env = environment(delay=0.15)
    killed_mid_run = 0
    for attempt in range(5):
        before = line_count(out)
        process = subprocess.Popen(batch_command(archive, out, "--resume", "--workers", "2", "--no-report"),
                                   env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   start_new_session=True)  # fmt: skip
        wait_for_new_records(process, out, before)
        time.sleep(rng.uniform(0.0, 0.5))
        if process.poll() is not None:
            assert process.returncode == 0, process.stderr.read().decode()
            break
        workers = children_of(process.pid)
        whole_group = attempt % 2 == 0
        if whole_group:  # as a power cut or the OOM killer would
            os.killpg(process.pid, signal.SIGKILL)
        else:  # the batch alone: its workers notice they are orphaned and leave
            os.kill(process.pid, signal.SIGKILL)
        process.wait()
        process.stderr.close()
        killed_mid_run += 1
        if not whole_group:
            deadline = time.monotonic() + 10
            while any(is_running(pid) for pid in workers):
                assert time.monotonic() < deadline, f"orphaned workers still running: {workers}"
                time.sleep(0.1)
        records = list(iter_records(out))
        assert len({r["path"] for r in records}) == len(records), "a photo was recorded twice"
    assert killed_mid_run >= 3, "the kills all came too late to test anything"

    final = subprocess.run(batch_command(archive, out, "--resume", "--workers", "2", "--no-report", "--json"),
                           env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert final.returncode == 0, final.stderr
    records = list(iter_records(out))
    assert len(records) == len({r["path"] for r in records}) == len(expected)
    assert {r["path"]: content_of(r) for r in records} == expected
    summary = json.loads(final.stdout)
    assert summary["photos"] == len(expected) and summary["run"]["written"] == len(expected) - summary["run"][
        "already_recorded"
    ]


def ctrl_c(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGINT)  # as Ctrl-C in a terminal: the batch and its workers


def kill(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGTERM)  # as `kill PID`, `timeout` or a service manager: the batch alone


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("stop", [ctrl_c, kill])
def test_ctrl_c_or_sigterm_stops_cleanly_and_resume_completes(tmp_path: Path, stop) -> None:
    archive = make_archive(tmp_path / "photos", n_extra=8)
    reference = tmp_path / "reference.jsonl"
    run_batch(BatchSettings(inputs=[str(archive)], out=reference, ruleset="weinan", scorer=FAKE))
    out = tmp_path / "results.jsonl"
    env = environment(delay=0.3)
    process = subprocess.Popen(batch_command(archive, out, "--workers", "2"), env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    wait_for_new_records(process, out, before=0)
    workers = children_of(process.pid)
    stop(process)
    stdout, stderr = process.communicate(timeout=120)
    deadline = time.monotonic() + 20  # the pool's helper processes leave once they see the batch gone
    while any(is_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers and not any(is_running(pid) for pid in workers)
    assert process.returncode == 130 and "--resume" in stderr and stdout == ""
    partial = list(iter_records(out))
    assert 0 < len(partial) < len(latest_by_path(reference)) and out.read_bytes().endswith(b"\n")
    final = subprocess.run(batch_command(archive, out, "--resume", "--workers", "2", "--no-report"), env=env,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert final.returncode == 0, final.stderr
    records = list(iter_records(out))
    assert len(records) == len({r["path"] for r in records})
    assert {r["path"]: content_of(r) for r in records} == {
        p: content_of(r) for p, r in latest_by_path(reference).items()
    }


def test_command_writes_jsonl_csv_summary_and_report(tmp_path: Path) -> None:
    archive = make_archive(tmp_path / "photos")
    out = tmp_path / "out" / "results.jsonl"
    result = subprocess.run(
        batch_command(archive, out, "--csv", str(tmp_path / "results.csv"), "--workers", "1", "--winner", "3",
                      "--bets", "1,0,0,2", "--option", "weinan.point_value=2", "--json"),
        env=environment(delay=0), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    records = list(iter_records(out))
    assert summary["photos"] == len(records) > 0
    assert json.loads((tmp_path / "out" / "results.summary.json").read_text()) == summary
    assert "<svg" in (tmp_path / "out" / "results.report.html").read_text()
    with (tmp_path / "results.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == len(records)
    a = next(r for r in records if r["path"].endswith("/a.jpg"))
    assert a["context"]["winner"] == 3 and a["context"]["bets"] == [1, 0, 0, 2]


def test_command_prints_a_text_summary(tmp_path: Path) -> None:
    archive = make_archive(tmp_path / "photos")
    result = subprocess.run(batch_command(archive, tmp_path / "r.jsonl", "--workers", "1", "--no-report"),
                            env=environment(0), capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("11 photos: ") and "1 duplicate" in lines[0] and "duplicates" not in lines[0]
    assert "errors: unreadable_image 3, bad_sidecar 1" in lines
    assert lines[-1] == f"written: {tmp_path / 'r.jsonl'}, {tmp_path / 'r.summary.json'}"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--rules", "mahjong"), "use one of"),
        (("--bets", "1,2"), "four whole numbers"),
        (("--option", "weinan.no_such=1"), "unknown option"),
        (("--engine", "spark"), "use local or ray"),
    ],
)
def test_command_rejects_bad_arguments(tmp_path: Path, extra: tuple[str, ...], message: str) -> None:
    archive = make_archive(tmp_path / "photos")
    result = subprocess.run(batch_command(archive, tmp_path / "r.jsonl", *extra), env=environment(0),
                            capture_output=True, text=True, timeout=120)  # fmt: skip
    assert result.returncode == 2 and message in result.stderr
    assert not (tmp_path / "r.jsonl").exists()


def test_command_refuses_to_clobber_results(tmp_path: Path) -> None:
    archive = make_archive(tmp_path / "photos")
    out = tmp_path / "r.jsonl"
    out.write_text('{"path": "/x.jpg", "status": "scored", "ruleset": "weinan"}\n')
    result = subprocess.run(batch_command(archive, out), env=environment(0), capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.returncode == 2 and "--resume" in result.stderr
    assert line_count(out) == 1


@pytest.mark.parametrize(
    ("csv_name", "message"),
    [
        ("r.jsonl", "--csv: {tmp}/r.jsonl is already --out"),
        ("r.summary.json", "--csv: {tmp}/r.summary.json is already --out's summary"),
        ("sub/../r.report.html", "--csv: {tmp}/sub/../r.report.html is already --out's report"),
    ],
)
def test_command_refuses_a_csv_that_is_another_output(tmp_path: Path, csv_name: str, message: str) -> None:
    from typer.testing import CliRunner

    from mjsnap.cli import app

    archive = make_archive(tmp_path / "photos")
    (tmp_path / "sub").mkdir()
    out = tmp_path / "r.jsonl"
    out.write_text('{"path": "/x.jpg", "status": "scored", "ruleset": "xian"}\n')
    result = CliRunner().invoke(app, ["batch", str(archive), "--rules", "xian", "--out", str(out), "--resume",
                                      "--csv", str(tmp_path / csv_name), "--scorer", FAKE, "--no-progress"])  # fmt: skip
    assert result.exit_code == 2 and message.format(tmp=tmp_path) in result.output
    assert line_count(out) == 1 and not (tmp_path / "r.summary.json").exists()


@pytest.mark.parametrize(
    ("out", "extra", "made", "message"),
    [
        ("adir", ("--resume",), (), "--out: {tmp}/adir is a folder, not a file"),
        ("adir", ("--overwrite",), (), "--out: {tmp}/adir is a folder, not a file"),
        ("afile/r.jsonl", (), (), "--out: {tmp}/afile/r.jsonl cannot be made: {tmp}/afile is a file"),
        ("r.jsonl", ("--csv", "{tmp}/adir"), (), "--csv: {tmp}/adir is a folder, not a file"),
        ("r.jsonl", ("--csv", "{tmp}/afile/r.csv"), (), "--csv: {tmp}/afile/r.csv cannot be made"),
        ("r.jsonl", (), ("r.summary.json",), "--out's summary: {tmp}/r.summary.json is a folder"),
        ("r.jsonl", (), ("r.report.html",), "--out's report: {tmp}/r.report.html is a folder"),
        ("r.jsonl", ("--retry-errors",), (), "--retry-errors scores the error records of --out again: it needs --resume"),
        ("r.jsonl", ("--conf", "1"), (), "0 <= conf < 1"),
    ],
)
def test_command_refuses_outputs_and_options_before_the_run(tmp_path: Path, out: str, extra: tuple[str, ...],
                                                            made: tuple[str, ...], message: str) -> None:
    from typer.testing import CliRunner

    from mjsnap.cli import app

    archive = make_archive(tmp_path / "photos")
    (tmp_path / "afile").write_text("kept")
    for name in ("adir", *made):
        (tmp_path / name).mkdir()
    before = sorted(tmp_path.rglob("*"))
    args = ["batch", str(archive), "--rules", "xian", "--out", str(tmp_path / out), "--scorer", FAKE, "--no-progress",
            *(part.format(tmp=tmp_path) for part in extra)]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message.format(tmp=tmp_path) in result.output and "Traceback" not in result.output
    assert sorted(tmp_path.rglob("*")) == before and (tmp_path / "afile").read_text() == "kept"


def test_command_refuses_an_empty_folder_as_an_empty_pattern(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from mjsnap.cli import app

    (tmp_path / "empty").mkdir()
    for given in (tmp_path / "empty", tmp_path / "empty" / "*.jpg"):
        result = CliRunner().invoke(app, ["batch", str(given), "--rules", "xian", "--out", str(tmp_path / "r.jsonl"),
                                          "--scorer", FAKE, "--no-progress"])  # fmt: skip
        assert result.exit_code == 2 and f"error: {given}: " in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["empty"]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ctrl_c_while_workers_start_prints_no_traceback(tmp_path: Path) -> None:
    # A worker still importing when Ctrl-C reached the process group printed part of its KeyboardInterrupt
    # traceback (three tries in four before the fix); three tries make a pass by luck unlikely.
    archive = make_archive(tmp_path / "photos", n_extra=4)
    for attempt in range(3):
        out = tmp_path / f"results{attempt}.jsonl"
        process = subprocess.Popen(batch_command(archive, out, "--workers", "2"), env=environment(delay=0.3),
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   start_new_session=True)  # fmt: skip
        deadline = time.monotonic() + 60
        while not (workers := children_of(process.pid)):
            assert process.poll() is None and time.monotonic() < deadline, "no worker started"
            time.sleep(0.005)
        time.sleep(0.05)  # the workers are importing
        ctrl_c(process)
        _, stderr = process.communicate(timeout=120)
        assert process.returncode == 130 and "--resume" in stderr
        assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
        deadline = time.monotonic() + 20
        while any(is_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(is_running(pid) for pid in workers)
