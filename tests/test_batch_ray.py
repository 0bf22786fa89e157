"""`--engine ray` on a local Ray (2 CPUs): the same records as the local engine, resume, and --ship-bytes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from batch_archive import make_archive

from mjsnap.batch.errors import BatchError
from mjsnap.batch.journal import iter_records, latest_by_path
from mjsnap.batch.records import content_of
from mjsnap.batch.runner import BatchSettings, run_batch

ray = pytest.importorskip("ray", reason="the `ray` extra is not installed")
TESTS_DIR = Path(__file__).resolve().parent
FAKE = "batch_fakes:pixel_scorer"


@pytest.fixture(scope="module")
def local_ray():
    # Workers import batch_fakes, which lives in tests/, so they get tests/ on their path.
    path = os.pathsep.join(p for p in (str(TESTS_DIR), os.environ.get("PYTHONPATH")) if p)
    for attempt in (1, 2):  # Ray gives its node 30 s to come up, which a busy 2-core machine can miss once
        try:
            ray.init(num_cpus=2, include_dashboard=False, runtime_env={"env_vars": {"PYTHONPATH": path}},
                     log_to_driver=False)  # fmt: skip
            break
        except Exception:
            ray.shutdown()
            if attempt == 2:
                raise
    yield
    ray.shutdown()


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ray_engine_matches_the_local_engine_and_resumes(tmp_path: Path, local_ray) -> None:
    archive = make_archive(tmp_path / "photos")
    common = {"inputs": [str(archive)], "ruleset": "weinan", "scorer": FAKE}
    run_batch(BatchSettings(out=tmp_path / "local.jsonl", **common))
    expected = {p: content_of(r) for p, r in latest_by_path(tmp_path / "local.jsonl").items()}

    ray_out = tmp_path / "ray.jsonl"
    first = run_batch(BatchSettings(out=ray_out, engine="ray", workers=2, **common))
    records = list(iter_records(ray_out))
    assert {r["path"]: content_of(r) for r in records} == expected and len(records) == len(expected)
    assert first.scored_by_engine > 0

    lines = ray_out.read_text().splitlines(keepends=True)
    ray_out.write_text("".join(lines[:4]) + lines[4][:20])  # a run killed mid-write
    resumed = run_batch(BatchSettings(out=ray_out, engine="ray", workers=2, resume=True, ship_bytes=True, **common))
    records = list(iter_records(ray_out))
    assert resumed.already_recorded == 4 and resumed.tail_repair.dropped_bytes == 20
    assert {r["path"]: content_of(r) for r in records} == expected and len(records) == len(expected)


def test_a_cluster_that_cannot_be_joined_stops_the_run_before_out_is_written(tmp_path: Path, monkeypatch) -> None:
    def refuse(**_):
        raise ValueError("Ray Client requires pip package `ray[client]`.")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", refuse)
    out = tmp_path / "ray.jsonl"
    settings = BatchSettings(inputs=[str(make_archive(tmp_path / "photos"))], out=out, ruleset="weinan",
                             scorer=FAKE, engine="ray", ray_address="ray://head:10001")
    with pytest.raises(BatchError, match=r"cannot join the Ray cluster at ray://head:10001: Ray Client requires"):
        run_batch(settings)
    assert not out.exists()  # so the same command runs once the address is right, without --resume


@pytest.mark.parametrize(("address", "user_setting", "at_init"), [
    (None, None, "0"),  # a local Ray mjsnap starts sends nothing
    (None, "1", "1"),  # unless the user asked for it
    ("ray://head:10001", None, None),  # a cluster the user runs keeps its own setting
])
def test_a_local_ray_sends_no_usage_statistics(monkeypatch, address, user_setting, at_init) -> None:
    from mjsnap.batch.ray_engine import connect

    seen = []
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", user_setting or "")  # recorded, so connect's setting is undone
    if user_setting is None:
        monkeypatch.delenv("RAY_USAGE_STATS_ENABLED")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", lambda **_: seen.append(os.environ.get("RAY_USAGE_STATS_ENABLED")))
    connect(address)
    assert seen == [at_init]
