"""Score photos on a Ray cluster: N actors each build the per-photo function once; the driver writes the records.

The driver connects with ``ray.init(address=...)``: ``--ray-address`` or $RAY_ADDRESS (``auto`` joins the cluster
this machine belongs to); with neither, Ray starts a local one. Actors read photos by path, so the cluster must
see the same files (a shared filesystem), unless ``ship_bytes`` sends each photo's bytes through the object store.
An actor that dies is restarted by Ray; the photo it held is rerun once, then recorded as ``worker_crashed``.
"""

from __future__ import annotations

import os
import socket
import tempfile
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mjsnap.batch.errors import BatchError
from mjsnap.batch.scorers import ScorerConfig, build_scorer
from mjsnap.batch.work import PhotoTask, crash_record, run_task

# Seconds to wait for a cluster's head to answer at a bare HOST:PORT address before calling it unreachable: Ray
# itself would retry such an address for many minutes (20 tries of about 40 s), printing warnings, before it gave up.
HEAD_ANSWER_SECONDS = 5.0


class PhotoActor:
    """One Ray worker: the per-photo function built once, then one photo per call."""

    def __init__(self, spec: str, config: ScorerConfig):
        os.environ.setdefault("MJSNAP_INFERENCE_THREADS", "1")  # one CPU per actor (num_cpus=1)
        self.scorer = build_scorer(spec, config)

    def score(self, task: PhotoTask, data: bytes | None = None) -> dict[str, Any]:
        if data is None:
            return run_task(task, self.scorer)
        with tempfile.TemporaryDirectory(prefix="mjsnap-batch-") as folder:
            local = Path(folder) / Path(task.path).name  # keep the suffix: decoders look at it
            local.write_bytes(data)
            record = run_task(task, self.scorer, photo_path=local)
        if record["error"]:  # name the photo, not its temporary copy
            record["error"] = record["error"].replace(str(local), task.path)
        return record


def connect(address: str | None) -> None:
    """Join the cluster at ``address`` (or $RAY_ADDRESS); start a local Ray when neither is set. BatchError when
    Ray is not installed or the cluster cannot be joined."""
    try:
        import ray
    except ImportError as exc:
        raise BatchError("--engine ray needs Ray: pip install -e '.[ray]'") from exc
    if ray.is_initialized():
        return
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address:
        _require_an_answer(address)
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:  # a Ray started here sends usage statistics by default; the user's own setting still wins
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            ray.init(include_dashboard=False, log_to_driver=False)
    except (OSError, RuntimeError, ValueError) as exc:  # Ray's own words: no cluster there, no Ray Client installed
        where = f"join the Ray cluster at {address}" if address else "start a local Ray"
        raise BatchError(f"--engine ray: cannot {where}: {exc}") from exc


def _require_an_answer(address: str) -> None:
    """BatchError when nothing answers at a bare HOST:PORT address (a head node's GCS port, as `ray start` prints
    it). Other forms (auto, local, ray://HOST:PORT) are left to Ray, which fails on them within a minute."""
    if "://" in address or address in ("auto", "local"):
        return
    host, _, port = address.rpartition(":")
    if not host or not port.isdecimal():
        return  # not HOST:PORT: Ray says what is wrong with it
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=HEAD_ANSWER_SECONDS).close()
    except OSError as exc:
        raise BatchError(f"--engine ray: cannot join the Ray cluster at {address}: nothing answers there "
                         f"({exc.strerror or exc}); is its head node started (ray start --head) and the port open?"
                         ) from None


def score_on_ray(
    tasks: Iterable[PhotoTask],
    spec: str,
    config: ScorerConfig,
    workers: int | None,
    ship_bytes: bool = False,
) -> Iterator[dict[str, Any]]:
    """The records of ``tasks``, in the order they finish, on the cluster that ``connect`` joined first."""
    import ray
    from ray.exceptions import RayActorError, WorkerCrashedError

    workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    actor_class = ray.remote(num_cpus=1, max_restarts=-1)(PhotoActor)
    actors = [actor_class.remote(spec, config) for _ in range(workers)]
    idle = deque(actors * 2)  # two photos queued per actor keeps it busy between calls
    pending = iter(tasks)
    retry: deque[PhotoTask] = deque()
    attempts: dict[str, int] = {}
    in_flight: dict[Any, tuple[PhotoTask, Any]] = {}
    exhausted = False
    try:
        while True:
            while idle and (retry or not exhausted):
                task = retry.popleft() if retry else next(pending, None)
                if task is None:
                    exhausted = True
                    break
                actor = idle.popleft()
                data = Path(task.path).read_bytes() if ship_bytes else None
                in_flight[actor.score.remote(task, data)] = (task, actor)
            if not in_flight:
                break
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            task, actor = in_flight.pop(ready[0])
            idle.append(actor)
            try:
                yield ray.get(ready[0])
            except (RayActorError, WorkerCrashedError) as exc:
                attempts[task.path] = attempts.get(task.path, 0) + 1
                if attempts[task.path] >= 2:
                    yield crash_record(task, f"the Ray worker died while scoring this photo (twice): {exc}")
                else:
                    retry.append(task)
    finally:
        for actor in actors:
            ray.kill(actor)
