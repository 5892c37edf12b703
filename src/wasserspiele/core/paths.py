"""Writing where a caller names it.

`write_problem`: whether a file or folder can be written there, asked before any work is
done: the command line's --out and --save (cli/flags.py) and a Python caller's report
folder (lab/report.py `write_report`) refuse alike, in the catalogue's words.

`write_file` and `WriteFailed`: what fails once the work is done (a disk that filled up,
a folder made read-only or replaced by a file while a study ran) is one error naming the
file and the cause in the catalogue's words, not OSError's traceback, and a file is
written beside its target and renamed over it, so a failure never leaves half a file in
place of a good one (nor the half-written one beside it)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import WasserspieleError
from .messages import Reason

# the causes a user meets, said in their language; any other is the system's own words
CAUSES = {errno.ENOSPC: "cli.path.cause.full", getattr(errno, "EDQUOT", -1): "cli.path.cause.quota",
          errno.EROFS: "cli.path.cause.read_only_fs", errno.EACCES: "cli.path.cause.denied",
          errno.EPERM: "cli.path.cause.denied", errno.ENOTDIR: "cli.path.cause.not_a_folder",
          errno.EISDIR: "cli.path.cause.is_a_folder",
          # a write makes its folders with mkdir(exist_ok=True), which raises this only when
          # a file stands where one of them should be (a folder removed and a file made in its place)
          errno.EEXIST: "cli.path.cause.not_a_folder"}
# beside its target while it is written (`write_file`): what a reader of the folder takes for
# no file of its own (lab/report.py `_own` reads an interrupted write as the lab's)
PART = ".tmp"


def write_problem(path: str | Path, folder: bool = False) -> Reason | None:
    """Why nothing can be written at `path` (a file or a folder to be), or None: it exists
    and is not writable, or it is a file where a folder is wanted (`folder`), or the
    nearest folder above that exists is a file (`afile/out` raised NotADirectoryError from
    mkdir) or not writable (a folder under /proc raised FileNotFoundError), or the disk
    it is on is full; or the path is empty (`--out ""`, which Path reads as ".": the lab then
    wrote its default folder in its place)."""
    if not str(path).strip():
        return Reason("cli.path.empty")
    path = Path(path)
    if path.exists():
        if folder and not path.is_dir():
            return Reason("cli.path.not_a_folder", path=str(path))
        if not os.access(path, os.W_OK):
            return Reason("cli.path.not_writable", path=str(path))
        return _full(path)
    above = path.parent
    while not above.exists() and above != above.parent:
        above = above.parent
    if not above.is_dir():
        return Reason("cli.path.not_a_folder", path=str(above))
    if not os.access(above, os.W_OK | os.X_OK):
        return Reason("cli.path.folder_not_writable", path=str(above))
    return _full(above)


def _full(path: Path) -> Reason | None:
    """The disk's cause when the file system holding `path` has no byte left for this user:
    said before the work (a study's games, a network's training) rather than after it."""
    try:
        st = os.statvfs(path)
        # root may use the blocks kept back for it (f_bfree), a user only f_bavail
        free = st.f_bfree if os.geteuid() == 0 else st.f_bavail
    except (OSError, AttributeError):  # no statvfs (Windows): the write itself will say
        return None
    # f_blocks 0: a file system of no blocks (/proc), where other checks speak
    return Reason("cli.path.cause.full") if st.f_blocks and not free else None


def cause(exc: OSError) -> Reason:
    """Why the system refused a write, in the catalogue's words where it has them."""
    code = CAUSES.get(exc.errno)
    if code:
        return Reason(code)
    return Reason("text", text=exc.strerror or str(exc))


class WriteFailed(WasserspieleError, OSError):
    """A file or folder that could not be written once the work was done (a full disk, a
    folder made read-only): `reason` names it and the cause (`cli.path.write_failed`),
    `kept` says what the work left where (a Reason, or None), `path` the file.  An OSError
    too (its errno the system's), so a caller catching that still catches it."""

    def __init__(self, path: str | Path, exc: OSError, kept: Reason | None = None, written: tuple[str, ...] = ()):
        self.path = Path(path)
        self.error = exc
        self.kept = kept
        self.written = written  # what the work did write before the failure (names, for its caller)
        reason = Reason("cli.path.write_failed", path=str(path), problem=cause(exc))
        self.reason = reason if kept is None else Reason("cli.path.write_failed_kept", failed=reason, kept=kept)
        super().__init__(exc.errno, str(self.reason), str(path))

    def keeping(self, kept: Reason, written: tuple[str, ...] = ()) -> "WriteFailed":
        """The same failure, saying what was kept (the caller knows, the writer does not)."""
        return WriteFailed(self.path, self.error, kept, written)

    def render(self, lang: str) -> str:
        return self.reason.render(lang)

    def __str__(self) -> str:  # OSError's would be "[Errno 28] …"
        return str(self.reason)


def failed(path: str | Path, exc: OSError) -> WriteFailed:
    """`exc` (raised writing `path`) as a WriteFailed naming the file: a WriteFailed as it is,
    an OSError that names a file of its own (a folder above `path`) naming that one."""
    if isinstance(exc, WriteFailed):
        return exc
    named = str(exc.filename) if isinstance(exc.filename, (str, os.PathLike)) else str(path)
    return WriteFailed(named.removesuffix(PART), exc)


def write_file(path: str | Path, data: bytes | str) -> Path:
    """`data` (text as UTF-8) into `path`, its folders made: written to PATH.tmp beside it and
    renamed over it, so a failure leaves the earlier file as it was and no PATH.tmp behind.
    Raises WriteFailed."""
    path = Path(path)
    part = path.with_name(path.name + PART)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_from(part, path, lambda f: f.write(data.encode("utf-8") if isinstance(data, str) else data))
    except OSError as exc:
        raise failed(path, exc) from None
    return path


def replace_from(part: Path, path: Path, write) -> None:
    """`write(f)` into the open file `part`, then `part` renamed over `path`; on any failure
    (an interrupt too) `part` is removed and the error raised as it is."""
    try:
        with open(part, "wb") as f:
            write(f)
        os.replace(part, path)
    except BaseException:
        try:
            part.unlink(missing_ok=True)
        except OSError:  # the folder made read-only: what could not be written stays, and the error is said
            pass
        raise
