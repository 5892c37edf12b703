"""The balance lab: seeded studies of many bot games, with intervals, plots and notable records.

    from wasserspiele.lab import make_study, run_study, write_report
    study = make_study("wasserloch", players=["3"], options=["rounds=1"], games=200, seed=1)
    write_report(run_study(study, jobs=2), "out/")

`wasserspiele lab` is the command-line face of the same three steps.  A report that cannot be
written in full (a full disk) raises `WriteFailed` (an OSError too), which says what `out` kept.
"""

from ..core.paths import WriteFailed
from .backends import run_study
from .report import write_report
from .study import Study, StudyResult, make_study

__all__ = ["Study", "StudyResult", "WriteFailed", "make_study", "run_study", "write_report"]
