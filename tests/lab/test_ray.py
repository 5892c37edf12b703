"""The Ray backend on a local Ray instance started here (skipped when ray is not installed)."""

import pytest

from wasserspiele.lab import run_study

ray = pytest.importorskip("ray", reason="ray is not installed (optional extra: pip install 'wasserspiele[ray]')")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield
    ray.shutdown()


def test_ray_backend_gives_the_same_table_as_one_process(local_ray, small_study, small_result):
    result = run_study(small_study, jobs=2, backend="ray")
    assert result.backend == "ray" and not result.interrupted
    assert [(r["cond"], r["game"], r["scores"], r["bots"], r["measures"]) for r in result.rows] == \
           [(r["cond"], r["game"], r["scores"], r["bots"], r["measures"]) for r in small_result.rows]
    assert ray.is_initialized()  # a cluster the caller started is left running
