"""`--backend ray --address …` as a designer types it: an address Ray cannot read, one where no
cluster answers, Ray refusing to join and Ray not installed are each refused with one line
naming --address and what was given (exit 2, no traceback, no 14 minutes of Ray retrying).

No test here needs Ray or a running cluster: Ray is replaced by a stand-in that records what
it was asked (tests/lab/test_ray.py runs the real one when it is installed)."""

from __future__ import annotations

import logging
import socket
import sys
import time
import types

import pytest
from click.testing import CliRunner

from wasserspiele.bots import runner
from wasserspiele.bots.runner import open_backend, ray_address_problem
from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption

LAB = ["lab", "wasserloch", "--games", "2", "--bots", "random", "--jobs", "1", "--quiet", "--backend", "ray"]
TUNE = ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter", "--games", "2", "--bots",
        "random", "--jobs", "1", "--quiet", "--backend", "ray"]


class FakeRay(types.ModuleType):
    """Ray as RayBackend uses it, recording its calls; `init` does what `on_init` says."""

    def __init__(self, on_init=None):
        super().__init__("ray")
        self.calls: list[tuple] = []
        self.on_init = on_init
        self.initialized = False

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, **kwargs) -> None:
        self.calls.append(("init", kwargs))
        self.initialized = True  # Ray half way, as a failed join can leave it
        if self.on_init is not None:
            self.on_init()

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))
        self.initialized = False

    def cluster_resources(self) -> dict:
        return {"CPU": 1}

    def remote(self, function):
        return function


@pytest.fixture
def fake_ray(monkeypatch):
    def install(on_init=None) -> FakeRay:
        ray = FakeRay(on_init)
        monkeypatch.setitem(sys.modules, "ray", ray)
        return ray
    return install


@pytest.fixture
def closed_port():
    """A local port where nothing listens: a connection is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def listening_port():
    """A local port that accepts connections (and is no Ray cluster)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


def _refused(res, *words):
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    errors = [line for line in res.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, res.output
    for word in words:
        assert word in errors[0], res.output
    return errors[0]


# ---------------------------------------------------------------- the form, before Ray starts
@pytest.mark.parametrize("address", ["nonsense", "host:x", "", "host:", ":6379", "host:0", "host:70000",
                                     "a b:6379", "ray://", "http://10.0.0.5:8265", "::1:6379"])
@pytest.mark.parametrize("command", [LAB, TUNE], ids=["lab", "tune"])
def test_an_address_ray_cannot_read_is_refused_before_ray_starts(command, address, fake_ray, tmp_path):
    """`--address nonsense` ended in Ray's `ValueError: Invalid address format` traceback."""
    ray = fake_ray()
    res = CliRunner().invoke(main, [*command, "--address", address, "--out", str(tmp_path / "out")])
    line = _refused(res, "--address", f"'{address}'", "is not a Ray cluster address",
                    "expected auto, HOST:PORT", "ray://HOST:PORT")
    assert ray.calls == [] and not (tmp_path / "out").exists(), line


@pytest.mark.parametrize("address", ["auto", "local", "10.0.0.5:6379", "head-node.example:6379",
                                     "ray://10.0.0.5:10001", "[::1]:6379", "node_1:6379"])
def test_the_forms_ray_takes_are_accepted(address):
    assert ray_address_problem(address) is None


def test_open_backend_refuses_an_address_ray_cannot_read(fake_ray):
    ray = fake_ray()
    with pytest.raises(BadOption, match=r"^--address: 'nonsense' is not a Ray cluster address; expected auto"):
        open_backend("ray", 1, "nonsense")
    assert ray.calls == []


def test_an_address_without_the_ray_backend_is_refused_even_when_empty(tmp_path):
    """`--address ""` (an unset shell variable) was taken as no address at all."""
    res = CliRunner().invoke(main, [*LAB[:-2], "--address", "", "--out", str(tmp_path / "out")])
    _refused(res, "--address needs --backend ray")


# ---------------------------------------------------------------- a well-formed address nobody answers at
@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_address_where_nothing_listens_is_refused_at_once(scheme, closed_port, fake_ray, tmp_path):
    """Ray retried 127.0.0.1:1 for about 14 minutes (20 attempts of some 40 s), printing
    warnings, before its ConnectionError traceback."""
    ray = fake_ray()
    address = f"{scheme}127.0.0.1:{closed_port}"
    start = time.monotonic()
    res = CliRunner().invoke(main, [*LAB, "--address", address, "--out", str(tmp_path / "out")])
    _refused(res, f"--address '{address}': no Ray cluster to join there", "ray start --head")
    assert time.monotonic() - start < 5
    assert ray.calls == []


def test_an_address_that_never_answers_gives_up_after_the_timeout(fake_ray, monkeypatch):
    """A head node behind a firewall that drops packets: refused after RAY_CONNECT_TIMEOUT."""
    ray = fake_ray()
    asked = []

    def silent(where, timeout):
        asked.append((where, timeout))
        raise TimeoutError("timed out")
    monkeypatch.setattr(runner.socket, "create_connection", silent)
    with pytest.raises(BadOption, match=r"^--address '10\.0\.0\.5:6379': no Ray cluster to join there \(nothing "
                                        r"answered within 10 s\)"):
        open_backend("ray", 1, "10.0.0.5:6379")
    assert asked == [(("10.0.0.5", 6379), runner.RAY_CONNECT_TIMEOUT)] and ray.calls == []


def test_an_unknown_host_is_named(fake_ray, monkeypatch):
    fake_ray()

    def unknown(where, timeout):
        raise socket.gaierror(-2, "Name or service not known")
    monkeypatch.setattr(runner.socket, "create_connection", unknown)
    with pytest.raises(BadOption, match=r"^--address 'ray://head\.invalid:10001': there is no host head\.invalid$"):
        open_backend("ray", 1, "ray://head.invalid:10001")


# ---------------------------------------------------------------- Ray itself refusing
def test_ray_refusing_to_join_is_one_line_and_leaves_no_ray_behind(listening_port, fake_ray, tmp_path):
    """Something answers, but no Ray cluster: Ray's ConnectionError (after its own retries)
    was a traceback."""
    def refuse():
        raise ConnectionError(f"Failed to connect to Ray cluster at 127.0.0.1:{listening_port}")
    ray = fake_ray(refuse)
    address = f"127.0.0.1:{listening_port}"
    res = CliRunner().invoke(main, [*LAB, "--address", address, "--out", str(tmp_path / "out")])
    _refused(res, f"--address '{address}': could not join the Ray cluster: Failed to connect to Ray cluster")
    # (LAB runs --quiet: Ray's own start-up lines held back, lab/--quiet)
    assert ray.calls == [("init", {"address": address, "log_to_driver": False, "logging_level": logging.ERROR}),
                         ("shutdown",)]


def test_ray_client_missing_from_a_minimal_ray_install_is_named(listening_port, fake_ray):
    def no_client():
        raise ValueError("Ray Client requires pip package `ray[client]`. If you installed the minimal Ray "
                         "(e.g. `pip install ray`), please reinstall by executing `pip install ray[client]`.")
    fake_ray(no_client)
    with pytest.raises(BadOption, match=r"^--address 'ray://127\.0\.0\.1:\d+': joining through Ray Client needs "
                                        r"pip install 'ray\[client\]'$"):
        open_backend("ray", 1, f"ray://127.0.0.1:{listening_port}")


def test_ray_not_installed_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    res = CliRunner().invoke(main, [*LAB, "--address", "10.0.0.5:6379", "--out", str(tmp_path / "out")])
    _refused(res, "--backend ray: ray is not installed (pip install 'wasserspiele[ray]')")
