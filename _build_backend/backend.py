"""The build backend: setuptools' own (`setuptools.build_meta`), with one change.

setuptools builds a wheel by copying the package into `build/lib` and packing whatever
that folder then holds.  It never empties it first (pypa/setuptools#1871, open since
2019), so a wheel built in a working tree where an earlier build ran still ships the
modules and data files that were removed or renamed since: stale code an installed
copy would import.  `build_wheel` here removes that folder before setuptools fills it.

Only `build/lib` goes: it is setuptools' scratch copy of the package (this project has
no compiled extensions, so no `build/lib.<platform>`), while `build/__editable__.*`,
where a strict editable install keeps its links, must stay.  Everything else is
setuptools' backend unchanged.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403  (the other hooks, as they are)

__all__ = list(_setuptools.__all__)

# relative to the project folder, the working directory PEP 517 runs every hook in
STALE_COPY = Path("build") / "lib"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    shutil.rmtree(STALE_COPY, ignore_errors=True)
    return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
