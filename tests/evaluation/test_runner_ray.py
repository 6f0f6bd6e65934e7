"""Ray executor: a real local Ray cluster with 2 workers (issue 7)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from actionable.evaluation.runner import Episode, RunStore, run_episodes

from . import _workers
from ._workers import EchoFactory

REPO = Path(__file__).resolve().parents[2]


def _eps(n):
    return [Episode(f"ep-{i:03d}", {"name": f"ep-{i:03d}", "seed": i}) for i in range(n)]


def _scores(records):
    return {k: r["result"]["score"] for k, r in sorted(records.items())}


@pytest.fixture()
def ray_env(monkeypatch):
    import ray
    import ray.cloudpickle

    # workers import actionable from this checkout, and the test workers by value
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    ray.cloudpickle.register_pickle_by_value(_workers)
    yield ray
    ray.cloudpickle.unregister_pickle_by_value(_workers)
    if ray.is_initialized():
        ray.shutdown()


@pytest.mark.slow
def test_ray_two_workers_equal_local_even_when_a_worker_is_killed(tmp_path, ray_env):
    eps = _eps(16)
    local = run_episodes(eps, EchoFactory(), tmp_path / "local", progress=False)
    marker = tmp_path / "killed.pid"
    res = run_episodes(eps, EchoFactory(sleep=0.05, die_key="ep-005", marker=str(marker)),
                       tmp_path / "ray", executor="ray", workers=2, progress=False)
    assert not ray_env.is_initialized()  # the runner shut down the cluster it started
    assert marker.exists(), "the worker-kill hook never ran"
    killed_pid = marker.read_text()
    lines = [json.loads(x) for x in (tmp_path / "ray" / "run.jsonl").read_text().splitlines()]
    keys = [r["key"] for r in lines]
    assert sorted(keys) == [e.key for e in eps]  # every episode exactly once
    assert res.errors == 0 and res.new == 16
    assert _scores(RunStore(tmp_path / "ray").read()) == _scores(local.records)
    pids = {r["worker"].split(":")[-1] for r in lines}
    assert len(pids) >= 2  # two workers really ran episodes
    assert lines[keys.index("ep-005")]["worker"].split(":")[-1] != killed_pid  # retried elsewhere/restarted


@pytest.mark.slow
def test_ray_plan_evaluation_equals_local(tmp_path, ray_env):
    """A small real plan evaluation (planner, resolver, simulator, goals; scripted LM with
    the same outputs for every episode) gives identical metrics under both executors."""
    from actionable.evaluation.plan_eval import prepare_plan_run

    plan = " walk to home office\nStep 2: walk to computer\nStep 3: switch on computer"
    kw = dict(variants=["vanilla"], model="scripted:" + json.dumps([plan]), query_modes=("name",),
              limit=4, lm_cache=False)
    eps, factory, manifest = prepare_plan_run(**kw)
    local = run_episodes(eps, factory, tmp_path / "local", manifest=manifest, progress=False)
    eps2, factory2, manifest2 = prepare_plan_run(**kw)
    ray_res = run_episodes(eps2, factory2, tmp_path / "ray", manifest=manifest2, executor="ray",
                           workers=2, progress=False)
    assert local.errors == 0 and ray_res.errors == 0
    strip = lambda recs: {k: {m: v for m, v in r["result"]["metrics"].items()  # noqa: E731
                              if m not in ("seconds_per_plan", "scoring_s", "lm_s")}
                          for k, r in recs.items()}
    assert len(local.records) == 4 and strip(ray_res.records) == strip(local.records)
    assert len({r["worker"] for r in ray_res.records.values()}) == 2


@pytest.mark.slow
def test_ray_worker_that_cannot_be_built_is_a_clear_error(tmp_path, ray_env):
    from actionable.core.errors import EvaluationError

    from ._workers import BrokenFactory

    with pytest.raises(EvaluationError, match="no model at /nowhere"):
        run_episodes(_eps(2), BrokenFactory(), tmp_path, executor="ray", workers=2, progress=False)
    assert not ray_env.is_initialized()
