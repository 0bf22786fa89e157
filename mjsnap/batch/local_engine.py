"""Score photos on this machine: in-process for one worker, else N worker processes, each loading the model once.

Records come back in completion order. A worker that dies (a segfault in a decoder, the OOM killer) breaks the
pool: the photos in flight are rerun one at a time on a fresh pool, so only the photo that kills its worker
again is recorded as ``worker_crashed`` and every other photo is still scored exactly once.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from mjsnap.batch.errors import BatchError
from mjsnap.batch.scorers import PhotoScorer, ScorerConfig, build_scorer
from mjsnap.batch.work import PhotoTask, crash_record, run_task

_worker_scorer: PhotoScorer | None = None
_worker_start_error: str | None = None


class WorkerStartError(RuntimeError):
    """Raised for every photo sent to a worker whose per-photo function could not be built."""
# Pools that broke in a row before giving a single record: the workers cannot even start (a missing model).
MAX_FRUITLESS_POOLS = 3


def _exit_when_orphaned(parent_pid: int) -> None:
    # A batch killed with SIGKILL cannot stop its workers; they notice the lost parent and leave.
    while os.getppid() == parent_pid:
        time.sleep(0.5)
    os._exit(1)


@contextmanager
def _spawned_without_ctrl_c() -> Iterator[None]:
    """Workers start (the pool spawns them in ``submit``) with SIGINT ignored, a disposition that exec keeps and that
    makes Python install no KeyboardInterrupt handler: a Ctrl-C while a worker is still importing printed part of
    its traceback. Ctrl-C is the parent's to handle; one pressed in the milliseconds of a spawn is lost, the next
    stops the batch. (multiprocessing's resource tracker is started the same way.)"""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _init_worker(spec: str, config: ScorerConfig, parent_pid: int, threads: int) -> None:
    global _worker_scorer, _worker_start_error
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # N workers share the cores: each runs inference (and OpenCV) on its share rather than on all of them.
    os.environ.setdefault("MJSNAP_INFERENCE_THREADS", str(threads))
    import cv2

    cv2.setNumThreads(threads)
    threading.Thread(target=_exit_when_orphaned, args=(parent_pid,), daemon=True).start()
    try:
        _worker_scorer = build_scorer(spec, config)
    except Exception as exc:  # noqa: BLE001 - reported to the parent with the first photo
        _worker_start_error = f"{type(exc).__name__}: {exc}"


def _score_in_worker(task: PhotoTask) -> dict[str, Any]:
    if _worker_scorer is None:
        raise WorkerStartError(_worker_start_error or "worker used before its initializer ran")
    return run_task(task, _worker_scorer)


def score_serially(tasks: Iterable[PhotoTask], spec: str, config: ScorerConfig) -> Iterator[dict[str, Any]]:
    try:
        scorer = build_scorer(spec, config)
    except Exception as exc:  # noqa: BLE001 - whatever it is, no photo can be scored
        raise BatchError(f"the per-photo function {spec} could not be built: {exc}") from exc
    for task in tasks:
        yield run_task(task, scorer)


def score_in_processes(
    tasks: Iterable[PhotoTask], spec: str, config: ScorerConfig, workers: int
) -> Iterator[dict[str, Any]]:
    """Records of all tasks, each exactly once, from ``workers`` processes (at most 2 photos queued per worker)."""
    pending = iter(tasks)
    unsent: deque[PhotoTask] = deque()  # taken from ``tasks`` but refused by a pool that had just broken
    suspects: deque[PhotoTask] = deque()  # photos in flight when a worker died, rerun one at a time
    exhausted = False
    fruitless_pools = 0
    threads = max(1, (os.cpu_count() or 1) // workers)
    context = multiprocessing.get_context("spawn")  # no fork: the parent may hold threads (Ray, BLAS)
    while not exhausted or unsent or suspects:
        pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                   initargs=(spec, config, os.getpid(), threads))
        in_flight: dict[Future[dict[str, Any]], PhotoTask] = {}
        broken: list[PhotoTask] = []  # in flight when the pool broke
        pool_broke = isolating = False
        yielded = 0
        try:
            while not pool_broke:
                isolating = bool(suspects)
                while len(in_flight) < (1 if isolating else 2 * workers):
                    if isolating:
                        task = suspects.popleft()
                    elif unsent:
                        task = unsent.popleft()
                    else:
                        task = next(pending, None)
                        if task is None:
                            exhausted = True
                            break
                    try:
                        with _spawned_without_ctrl_c():
                            in_flight[pool.submit(_score_in_worker, task)] = task
                    except BrokenProcessPool:
                        (suspects if isolating else unsent).appendleft(task)
                        pool_broke = True
                        break
                    if isolating:
                        break
                if pool_broke or not in_flight:
                    break
                done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                for future in done:
                    task = in_flight.pop(future)
                    if isinstance(future.exception(), WorkerStartError):
                        raise BatchError(f"the per-photo function {spec} could not be built: {future.exception()}")
                    if isinstance(future.exception(), BrokenProcessPool):
                        pool_broke = True
                        broken.append(task)
                    else:
                        yielded += 1
                        yield future.result()
            broken.extend(in_flight.values())
            in_flight.clear()
            if isolating and broken:
                for task in broken:  # it died alone: this photo is the cause
                    yield crash_record(task, "the worker process died while scoring this photo (twice)")
                yielded += 1
            else:
                suspects.extend(broken)
            fruitless_pools = fruitless_pools + 1 if pool_broke and not yielded else 0
            if fruitless_pools >= MAX_FRUITLESS_POOLS:
                raise BatchError(
                    f"the worker processes died {fruitless_pools} times before scoring any photo; "
                    "see the errors above (the model folder, or the --scorer)"
                )
        finally:
            if in_flight:  # leaving early (Ctrl-C): stop the photos in flight rather than wait for them
                # ProcessPoolExecutor has no public terminate before Python 3.14 (terminate_workers).
                for process in list(getattr(pool, "_processes", {}).values()):
                    process.terminate()
            # Waited for even then, as the stopped workers go at once: a pool left to wind down while Python exits
            # can close its wake-up pipe just as Python's exit hook writes to it (OSError: Bad file descriptor).
            pool.shutdown(wait=True, cancel_futures=True)


def score_locally(
    tasks: Iterable[PhotoTask], spec: str, config: ScorerConfig, workers: int
) -> Iterator[dict[str, Any]]:
    if workers <= 1:
        return score_serially(tasks, spec, config)
    return score_in_processes(tasks, spec, config, workers)
