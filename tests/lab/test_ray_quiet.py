"""`lab --backend ray --quiet` on a local Ray instance (skipped when ray is not installed): Ray's
own start-up logging ("INFO worker.py:… -- Started a local Ray instance.", its token warning)
stays silent, as the lab's progress does; it was the only thing on stderr besides the lab's
closing line."""

import os
import shutil
import subprocess
import sys
import tempfile

import pytest

pytest.importorskip("ray", reason="ray is not installed (optional extra: pip install 'wasserspiele[ray]')")


def test_quiet_lab_on_ray_prints_no_ray_start_up_lines():
    # a short temporary directory of its own: Ray's socket paths must stay short
    tmp = tempfile.mkdtemp(prefix="wsrayq", dir="/tmp")
    out = os.path.join(tmp, "out")
    try:
        proc = subprocess.run([sys.executable, "-m", "wasserspiele.cli.main", "lab", "wasserloch", "--bots", "random",
                               "--option", "rounds=1", "--games", "2", "--jobs", "1", "--backend", "ray", "--quiet",
                               "--out", out], capture_output=True, text=True, timeout=600,
                              env=dict(os.environ, RAY_TMPDIR=tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert not [line for line in lines if "Ray instance" in line or " INFO " in line or " WARNING " in line], lines
    # what --quiet leaves: the lab's own closing line
    assert len(lines) == 1 and lines[0].startswith("2 games in "), lines
