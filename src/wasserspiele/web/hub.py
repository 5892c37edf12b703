"""Live tables: the single authority that validates moves, persists them and
pushes each seat its own view.

A table in memory is rebuilt from its record (`replay`) whenever it is first
needed, so a restarted server continues every game where it was.  Chance still
to come is reproducible: before every action the game's generator is reseeded
from the table's secret seed and the number of actions so far.

Several server processes may serve one PostgreSQL database.  Each keeps the tables its
clients use in memory; every write is checked against the table's version in the
database (storage.Conflict: the loser reloads and answers "stale"), and every process
hears of the others' writes by `NOTIFY` (notify.py) and catches its copy up, pushing
the new position to its own clients.  Who is online travels the same way (`Presence`):
a seat is online if any process has a connection of it, and opening a seat through one
process closes its connection through any other.  Storage runs in a thread pool and bots in a
process pool (botpool.py), so neither a slow database nor a thinking bot holds up the
event loop, where the moves of people are handled.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import math
import random
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any

import concurrent.futures as cf
import datetime as dt
import enum

import orjson
import regex
import sqlalchemy as sa

from ..bots.levels import level_names
from ..core.errors import BadNotation, BadOption, BadRecord, ReplayError, UnknownGame, WasserspieleError
from ..core.messages import Reason, reason_of
from ..core.protocol import State, entry_notation
from ..core.records import FORMAT, replay
from ..core.registry import load, manifest
from . import notify, schemas
from .botpool import BotPool
from .limits import Limits, RateLimit, SocketCounter
from .storage import (CAUSE_WORDS, Cause, Conflict, Outage, Progress, SeatRow, Storage, TableRow, failure_cause,
                      failure_text, hash_token, whole_database)

log = logging.getLogger("wasserspiele.web")

HUMAN, BOT = "human", "bot"
MAX_ACTION_CHARS = schemas.MAX_ACTION_CHARS
OUTBOX_LIMIT = 256  # queued messages per connection before a stalled client is dropped
BOT_RETRY_SECONDS = 5.0  # a bot whose move the database refused tries again after this, or once it takes writes
PROBE_SECONDS = 5.0      # while writes fail, /healthz tries one at most this often (Writes.check)
RELOAD_TRIES = 3         # a background reload's reads with no answer in time before the table is dropped
MAX_DOUBTS = 1000        # tables whose moves in doubt the process remembers (Hub.doubts)
# what the older connection of a seat is told when the seat is opened again (here or in another process)
REPLACED = json.dumps({"type": "replaced", "reason": "this seat was opened in another tab or window"})
# what the pages of a seat are told when its player is back and the bot standing in for them stops
SEAT_BACK = json.dumps({"type": "seat_back"})


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text.  Every move sends every seat its own view (7 kB for
    a Wildwasser position): orjson encodes it about 5× faster than the json module, which
    was the largest single cost of a move on the server."""
    return _dumps(message).decode()


def _now() -> float:
    """The event loop's clock (a name of its own, so tests can drive it)."""
    return asyncio.get_running_loop().time()


_pause = asyncio.sleep  # how bots wait (a name of its own, so tests can see the waits)


def _dumps(data: Any) -> bytes:
    # The games' views have string keys only; orjson takes almost twice as long with
    # OPT_NON_STR_KEYS, so it is asked for only when a view (a new game's) uses other keys,
    # which it then writes as strings, as the json module does.
    try:
        return orjson.dumps(data)
    except orjson.JSONEncodeError:
        return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS)


def encode_each(messages: dict[Any, dict[str, Any]]) -> dict[Any, str]:
    """Several messages as JSON text, each exactly as `encode` writes it, but the parts of
    their views that are one and the same object in all of them (State.views builds the
    public part once) encoded once: a Wildwasser move sends four 7 kB views that differ
    only in who is asking and one seat's hidden pick.  Only the views' top level is
    compared: walking deeper in Python costs more than orjson takes to encode it again."""
    views = [m["view"] for m in messages.values()]
    if len(views) < 2:
        return {k: encode(m) for k, m in messages.items()}
    first, rest = views[0], views[1:]
    shared = {}
    for key, v in first.items():
        if type(v) is dict or type(v) is list:
            for w in rest:
                if w.get(key) is not v:
                    break
            else:
                shared[key] = orjson.Fragment(_dumps(v))
    if not shared:
        return {k: encode(m) for k, m in messages.items()}
    out = {}
    for k, m in messages.items():
        view = dict(m["view"])
        view.update(shared)  # the keys keep their places: the same text as without sharing
        out[k] = encode({**m, "view": view})
    return out


class Refused(Exception):
    """A request the server turns down; `code` is stable (clients translate it), `reason`
    says why: a Reason, the engine's for a refusal by the rules and a `server.` code for the
    server's own, so the payload names its code and parameters and gives the `message` in
    the client's language.  Plain text is only a lower layer's words passed on (code `text`)."""

    def __init__(self, code: str, reason: str, status: int = 400):
        super().__init__(reason)
        self.code = code
        self.reason = reason_of(reason)
        self.status = status
        # a move refused for a write in doubt, its own (`server.unsaved_in_doubt`) or the
        # one it was queued behind (`server.earlier_in_doubt`): that write's thread, done
        # when its fate is known (a bot thinks again then: LiveTable._before_retry)
        self.doubt_outcome: asyncio.Future | None = None

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        # every refusal the browser gets is made here (app.py too): the reason's params in
        # Reason.to_json's form, a nested refusal as {code, params} for the page to word
        return {"type": "refused", "code": self.code, "reason": str(self.reason),
                "reason_code": self.reason.code, "params": self.reason.to_json()["params"],
                "message": self.reason.render(lang)}


class Stored(enum.Enum):
    """What a request writes, as its refusal names it when the database fails the write:
    each value is the catalogue code of "… could not be saved: {cause}"."""

    MOVE = "server.unsaved"
    EARLIER_MOVE = "server.earlier_unsaved"  # a move queued on one the database refused
    TABLE = "server.table_unsaved"
    REMATCH = "server.rematch_unsaved"       # the rematch made, or a seat taking its place there
    NAME = "server.name_unsaved"
    STAND_IN = "server.stand_in_unsaved"     # a bot taking over an absent player's seat, or leaving it


# What a write with no answer within `storage_seconds` is told, by what it wrote: its
# transaction goes on and may still commit, so "not available; please try again" was
# false.  A name or a rematch stored that late is shown as if in time (Hub.db's `late`)
# and asking again is safe (the same name; the rematch the database already links); a
# move queued on a move in doubt was never written, but the one before it may be, and the
# table shows the game as stored once that is known.  A bot's taking over a seat (or
# leaving it) stored late reloads the table, which then shows it; asked again, it is
# refused as done already.  (A move's own: `server.unsaved_in_doubt`,
# LiveTable._stored; a new table stored late is removed, so "not available" stays true.)
IN_DOUBT = {Stored.EARLIER_MOVE: "server.earlier_in_doubt", Stored.NAME: "server.name_in_doubt",
            Stored.REMATCH: "server.rematch_in_doubt", Stored.STAND_IN: "server.stand_in_in_doubt"}
# What the people told that a write may still be saved are told should its transaction
# then fail after all (its cause: why, `unsaved_after_all`): before, nobody was, and the
# notice kept saying "may still be saved" over a table that showed the game without it.
# A move queued behind a move in doubt was never written: should that one fail, its sender
# is told that its own was not saved either, since the move before it was not after all
# (before, nothing: the table, read back when it was refused, never changed, and its page
# kept saying the game would be shown as stored "once that is known"; Hub.queued_move_lost).
AFTER_ALL = {Stored.MOVE: "server.unsaved_after_all", Stored.EARLIER_MOVE: "server.earlier_unsaved_after_all",
             Stored.NAME: "server.name_unsaved_after_all", Stored.REMATCH: "server.rematch_unsaved_after_all",
             Stored.STAND_IN: "server.stand_in_unsaved_after_all"}


class WriteInDoubt(TimeoutError):
    """A write with no answer within `storage_seconds` whose transaction goes on (Hub.db
    with `late`): it may still commit or fail.  `outcome`: its thread's future, done when
    the transaction has ended (`when_lost`)."""

    def __init__(self, seconds: float, outcome: asyncio.Future):
        super().__init__(f"no answer within {seconds:g} s")
        self.outcome = outcome


def when_lost(failure: BaseException, lost) -> None:
    """Call `lost(exc)` should the write that `failure` refused as in doubt (WriteInDoubt)
    then fail after all (`exc`: why).  Registered by whoever tells the person in doubt,
    as it tells them: told at once if it has failed already, never before the in-doubt
    refusal (a done future calls back in the loop's next turn)."""
    if isinstance(failure, WriteInDoubt):
        failure.outcome.add_done_callback(
            lambda f: lost(f.exception()) if not f.cancelled() and f.exception() is not None else None)


def unsaved_after_all(stored: Stored, failure: BaseException) -> Refused:
    """The refusal said, unasked, to a person whose write was in doubt and then failed:
    what was not saved after all, and why (another move first: `server.raced`)."""
    cause = Reason("server.raced") if isinstance(failure, Conflict) else Reason(failure_cause(failure).value)
    reason = Reason(AFTER_ALL[stored], cause=cause)  # (each code's words: test_storage_late_failures)
    return Refused("storage", reason, 503)


def storage_refusal(failure: BaseException | Cause, stored: Stored | None = None) -> Refused:
    """The refusal (`storage`, 503) of a request the database failed, for every path that
    writes or reads: a write names what was not saved and why, in the words of its
    `Cause` (a full disk, a read-only database, a lock another program holds ...), the
    same for a move as for a new table.  A database that cannot be reached at all is
    `server.db_down`, "not available", for a read (`stored` None) and for any write that
    had changed nothing yet; a move, already applied here and taken back, still says it
    was not saved.  A write that had no answer in time (TimeoutError) may still be stored:
    it is said so where `IN_DOUBT` names it.  `failure`: the storage's exception, or its
    cause when known."""
    cause = failure if isinstance(failure, Cause) else failure_cause(failure)
    if isinstance(failure, TimeoutError) and stored in IN_DOUBT:
        reason = Reason(IN_DOUBT[stored])
    elif stored is None or (cause is Cause.DOWN and stored not in (Stored.MOVE, Stored.EARLIER_MOVE)):
        reason = Reason("server.db_down")
    else:
        reason = Reason(stored.value, cause=Reason(cause.value))
    return Refused("storage", reason, 503)


def chance_rng(seed: int, n: int) -> random.Random:
    """The generator for chance drawn while applying action number `n` (0: the setup)."""
    return random.Random(f"wasserspiele:{seed}:{n}")


def new_table_id() -> str:
    return secrets.token_urlsafe(9)


TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what `new_table_id` makes (URL-safe base64), with room


def rematch_token(token: str, rematch_id: str, seat: int) -> str:
    """The seat token of `seat` at the rematch `rematch_id`, derived from the seat's token
    at the finished table: only its holder can work it out, it is the same however often
    (and through whichever process) the seat asks, and so no token is ever stored, only
    its hash.  The shape of a fresh token (24 random bytes, URL-safe)."""
    digest = hmac.new(token.encode("utf-8"), f"rematch:{rematch_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


class Connection:
    """One WebSocket client of a table: its seat (None: spectator) and an outbox."""

    def __init__(self, send_text, seat: int | None, close_socket=None):
        self.seat = seat
        self._send_text = send_text
        self._close_socket = close_socket  # called when the server ends the connection
        self.tab: str | None = None  # the page's id from its hello (LiveTable.attach)
        self.lang = "en"  # the hello's language: what it is told unasked is worded in it
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.task: asyncio.Task | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def push(self, text: str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:  # a stalled client; it resyncs when it reconnects
            self.close()
            return
        self.outbox.put_nowait(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)

    async def _pump(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    break
                await self._send_text(text)
        except Exception:  # the socket went away; the reader side cleans up
            self.closed = True
            return
        if self._close_socket is not None:  # stalled, reloaded or shutting down: the client reconnects
            try:
                await self._close_socket()
            except Exception:
                pass

    async def drain(self) -> None:
        """Stop after sending what is queued."""
        self.close()
        if self.task is not None:
            try:
                await self.task
            except Exception:
                pass


@dataclass
class SeatInfo:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    name: str | None = None
    stand_in: str | None = None  # a human seat a bot plays while its player is away: its level


MAX_NAME = 40
# Characters a name may not hold although Python calls them printable: the ones Unicode
# says to draw as nothing (Default_Ignorable_Code_Point: a Hangul filler, a combining
# grapheme joiner, variation selectors after a letter), which make look-alikes of
# another name ("Anna" and "An" + U+034F + "na" look the same).  Where they are part of
# the writing they belong to the name (`_WRITTEN`, removed before the check): a zero-width
# joiner between two emoji (Extended_Pictographic, after a variation selector or skin tone
# too: the woman technologist, families, the heart on fire), a variation selector after an
# emoji (incl. a keycap's digit), the tag letters of a subdivision flag after the black
# flag (Scotland), and a zero-width (non-)joiner between two letters of a script whose
# spelling uses it (Persian "علی‌رضا", Sinhala "ශ්‍රී", the Indic conjuncts), or after a virama.  Python's
# unicodedata has none of these properties; the regex module has them.
_JOINING_SCRIPTS = "".join(rf"\p{{Script={s}}}" for s in (
    "Arabic", "Syriac", "Mongolian", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil",
    "Telugu", "Kannada", "Malayalam", "Sinhala"))
_INVISIBLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# Printable, not ignorable, and drawn as an empty cell: the blank Braille pattern (a space
# in Braille writing) and the musical null notehead.  Read as spaces, so that a name of
# them alone ("⠀⠀") is empty rather than a seat chip with nothing in it.
_BLANK_GLYPHS = {0x2800: " ", 0x1D159: " "}
_WRITTEN = regex.compile(
    r"(?<=\p{Extended_Pictographic}[\uFE0E\uFE0F\U0001F3FB-\U0001F3FF]?)\u200d(?=\p{Extended_Pictographic})"
    r"|(?<=\p{Emoji})[\uFE0E\uFE0F]"
    r"|(?<=\U0001F3F4)[\U000E0020-\U000E007E]+\U000E007F"
    rf"|(?<=[{_JOINING_SCRIPTS}]\p{{M}}*)[\u200c\u200d](?=[{_JOINING_SCRIPTS}])"
    r"|(?<=\p{Canonical_Combining_Class=Virama})\u200d")  # a half form or chillu at a word's end (Malayalam "അന്‍വര്‍")


def clean_name(name: Any) -> str:
    """A player's chosen name, trimmed; Refused saying what is wrong with it."""
    if not isinstance(name, str):
        raise Refused("bad_name", Reason("server.name_not_text"))
    # one spelling of the same letters ("Rene" + U+0301 + "e" is "Renée"), as it is shown;
    # a blank glyph is a space (a name of them alone is empty)
    name = unicodedata.normalize("NFC", " ".join(name.translate(_BLANK_GLYPHS).split()))
    if not name:
        raise Refused("bad_name", Reason("server.name_empty"))
    if len(name) > MAX_NAME:
        raise Refused("bad_name", Reason("server.name_too_long", most=MAX_NAME, given=len(name)))
    bare = _WRITTEN.sub("", name)
    if not bare.isprintable() or _INVISIBLE.search(bare):
        raise Refused("bad_name", Reason("server.name_control"))
    return name


class LiveTable:
    """One game in play: its state, seats, clients and bots."""

    def __init__(self, hub: "Hub", row: TableRow, state: State):
        self.hub = hub
        self.id = row.id
        self.seed = row.seed
        self.created = row.created
        self.state = state
        self.game = state.game
        self.seats = [SeatInfo(s.seat, s.kind, s.level, s.token_hash, s.name, s.stand_in) for s in row.seats]
        self.lock = asyncio.Lock()
        self.conns: set[Connection] = set()
        # human seat -> since when (this loop's clock) it has had no connection anywhere, as
        # far as this process has seen (from its loading on): a bot may stand in after
        # `stand_in_seconds` (stand_in)
        self.absent_since: dict[int, float] = {}
        self.hints: dict[tuple[int, int], str] = {}  # (seat, n): the expert's hint, kept for that move (hints.py)
        # seat -> its name changes' bucket: per seat, not per socket, so reconnecting does not refill it
        self.name_rates: dict[int, RateLimit] = {}
        # seat -> (how many of its name changes the database refused as a whole, the last
        # refusal's cause): their tokens are given back once it takes writes again (set_name)
        self.names_unsaved: dict[int, tuple[int, Cause]] = {}
        self.bot_task: asyncio.Task | None = None
        self.drawn = self._drawn_counts()
        self.version = row.version          # of the table's row in the database, with the unsaved moves
        self.unsaved = 0                    # moves applied here whose transaction has not ended
        self.chain = Chain()                # the moves applied here since the position was read
        self._all_saved: asyncio.Future | None = None  # done when `unsaved` is back to 0
        self._save_failed = False           # a move applied here was refused by storage: reload
        # (the people's moves in doubt and those then stored after all: the process's, by
        # table, `Hub.doubts`, so a copy loaded anew keeps them: `in_doubt`, `stored_after_all`)
        self.last_used = asyncio.get_running_loop().time()
        # seat -> the move number since which it has been deciding, continuously: a move based
        # on any position since then is not stale (only other seats' hidden simultaneous
        # choices can have been applied meanwhile)
        self.waiting_since: dict[int, int] = {}
        self._track_waiting(set())
        # the id of the rematch with the same seats, once someone asked for it (Hub.rematch):
        # stored with the table, so every seat finds the same one after a reload, a restart
        # or in another process; each seat's token there is derived from its token here
        self.rematch: str | None = row.rematch

    # -- building ------------------------------------------------------------
    @staticmethod
    def state_of(row: TableRow) -> State:
        doc = {"format": FORMAT, "game": row.game, "players": row.players, "options": row.options,
               "setup": row.setup, "actions": row.actions}
        try:
            state = replay(doc)  # strict: every outcome drawn so far is in the stored setup
        except BadRecord:
            state = replay(doc, rng=chance_rng(row.seed, len(row.actions)))
        state.chance.rng = chance_rng(row.seed, len(state.history))
        return state

    @classmethod
    def from_row(cls, hub: "Hub", row: TableRow) -> "LiveTable":
        return cls(hub, row, cls.state_of(row))

    async def reload(self) -> None:
        """Rebuild the position from the database (another process wrote first, or a write
        was stored after its request had ended), keep the clients and push them the position
        as stored.  Run in the background, with nobody to answer: a database slow to answer
        is asked again (`_reload_or_drop`) — before, a read past `storage_seconds` ended the
        task unseen and every page went on showing a position the database no longer held."""
        async with self.lock:
            await self.until_saved()  # moves in flight are stored or refused: then read
            if self.hub.tables.get(self.id) is self:  # (not dropped or replaced meanwhile)
                await self._reload_or_drop(tries=RELOAD_TRIES)

    async def _reload_or_drop(self, tries: int = 1) -> None:
        """`_reload`, asked up to `tries` times while the database gives no answer in time;
        a database that cannot be read drops the table from memory: its pages reconnect and
        load it as stored, so none keeps showing a position that is not."""
        for attempt in range(1, tries + 1):
            try:
                await self._reload()
                return
            except TimeoutError:
                if attempt < tries:
                    continue
                why = "no answer"
            except Exception as exc:
                why = failure_text(exc)
            log.error("table %s: cannot read it back (%s); it is dropped from memory", self.id, why)
            self.hub.forget(self.id)
            return

    async def _reload(self) -> None:
        """`reload` under the lock, with no move in flight."""
        row = await self.hub.db(self.hub.storage.load_table, self.id)
        if row is None:
            self.hub.forget(self.id)
            return
        self.state = self.state_of(row)
        self.version = row.version
        self.chain = Chain()  # what follows is based on the stored position, not on a lost move
        self.rematch = row.rematch
        self.seats = [SeatInfo(s.seat, s.kind, s.level, s.token_hash, s.name, s.stand_in) for s in row.seats]
        self._save_failed = False
        self.drawn = self._drawn_counts()
        self.waiting_since = {}
        self._track_waiting(set())
        self.broadcast()
        self._take_back_held()  # (a stand-in stored while its player's connection is here)

    async def catch_up(self, version: int) -> None:
        """Apply what another process committed up to `version` (told by NOTIFY): the same
        actions with the same reseeded chance give the same position as there.  Run in the
        background (a notice, a write stored late): a read with no answer in time is asked
        again, then the table dropped (`_reload_or_drop`), as `reload` does."""
        async with self.lock:
            # our own unsaved moves first: committed, they count in the version; refused,
            # the table was reloaded (never play another process's moves on top of them)
            await self.until_saved()
            if self.hub.tables.get(self.id) is not self:
                return
            if self._save_failed:
                await self._reload_or_drop(tries=RELOAD_TRIES)
                return
            if self.version >= version:
                return
            if self.state.is_terminal():  # no move can follow: another process made its rematch
                await self._reload_or_drop(tries=RELOAD_TRIES)
                return
            self.last_used = asyncio.get_running_loop().time()
            try:
                got = await self.hub.db(self.hub.storage.load_since, self.id, self.n)
                if got is None:
                    self.hub.forget(self.id)
                    return
                moves, stored = got
                acted = set()
                for seat, text in moves:
                    _, action = self.game.parse_decision(text)  # "2: pick zebra" names its seat
                    self._apply(action, seat)
                    acted.add(seat)
                if stored - self.version > len(moves):  # a write besides the moves: a stand-in began or ended
                    self._set_stand_ins(await self.hub.db(self.hub.storage.stand_ins, self.id))
                online = self.online_seats()
                for seat in acted:  # a player who moved through another process is not absent (_back_to_move)
                    if self.seats[seat].kind == HUMAN and self.seats[seat].stand_in is None and seat not in online:
                        self.absent_since[seat] = _now()
                self.version = stored
                self.drawn = self._drawn_counts()
                self._track_waiting(acted)
                self.broadcast()
            except TimeoutError:  # the database gave no answer in time: read the whole table
                log.warning("table %s: catching up had no answer in time; reloading it", self.id)
                await self._reload_or_drop(tries=RELOAD_TRIES)
            except Exception:  # an inconsistent read: start again from the stored record
                log.exception("table %s: catching up failed; reloading it", self.id)
                await self._reload_or_drop(tries=RELOAD_TRIES)
        self.schedule_bots()

    def _drawn_counts(self) -> dict[str, int]:
        ch = self.state.chance
        return {k: ch.used(k) for k in ch.setup}

    # -- who is who ----------------------------------------------------------
    def seat_for_token(self, token: Any) -> int | None:
        """The seat a token belongs to; None (spectator) without a token."""
        if token is None or token == "":
            return None
        if not isinstance(token, str) or len(token) > 200:
            raise Refused("bad_token", Reason("server.token_shape"), 403)
        h = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        raise Refused("bad_token", Reason("server.token_foreign"), 403)

    async def seat_of(self, token: Any) -> int | None:
        """`seat_for_token`, but when no seat here takes the token while a human seat has
        no token yet (a rematch's, whose player may have asked for it through another
        process since this one loaded the table), after reading the seats' hashes again."""
        try:
            return self.seat_for_token(token)
        except Refused:
            if not any(s.kind == HUMAN and s.token_hash is None for s in self.seats):
                raise
        stored = await self.hub.db(self.hub.storage.token_hashes, self.id)
        for s in self.seats:
            if s.token_hash is None:
                s.token_hash = stored.get(s.seat)
        return self.seat_for_token(token)

    @property
    def n(self) -> int:
        return len(self.state.history)

    # -- moves in doubt (read here; written through Hub.doubt) ----------------
    @property
    def in_doubt(self) -> set[tuple[int, int, str, Any]]:
        """(number, seat, entry, based on) of the people's moves refused for no answer in
        time (`based on`: the move number their request named), whose transaction may still
        commit: their movers are told if it does (`stored_late`)."""
        d = self.hub.doubts.get(self.id)
        return d.moves if d is not None else set()

    @property
    def stored_after_all(self) -> dict[int, tuple[Any, int]]:
        """seat -> (based on, number) of its move in doubt that was then stored, until the
        seat moves again: that move sent again is told so, not as stale (`_stored_after_all`)."""
        d = self.hub.doubts.get(self.id)
        return d.after_all if d is not None else {}

    # -- messages ------------------------------------------------------------
    def _table_part(self) -> dict[str, Any]:
        """The part of every client's message that is the same for all seats."""
        st = self.state
        terminal = st.is_terminal()
        to_move = [] if terminal else list(st.to_move())
        online = self.online_seats()
        chosen = st.committed()
        return {
            "type": "state",
            "table": self.id,
            "game": self.game.name,
            "title": type(self.game).title,
            "players": self.game.players,
            "teams": [list(t) for t in self.game.teams],
            "n": self.n,
            "to_move": to_move,
            "waiting": to_move,
            "chosen": sorted(chosen),          # who has chosen in a simultaneous phase (not what)
            "terminal": terminal,
            "winners": st.winners() if terminal else [],
            # `stand_in`: the level of the bot playing an absent player's seat; `stand_in_after`:
            # seconds until the others may hand that seat to a bot (0: now; None: not possible)
            "seats": [{"seat": s.seat, "kind": s.kind, "level": s.level, "name": s.name, "online": s.seat in online,
                       "stand_in": s.stand_in, "stand_in_after": self._shown_wait(s.seat, online)}
                      for s in self.seats],
        }

    def online_seats(self) -> set[int | None]:
        """The seats with a connection here or, by their announcements, in another process."""
        online = {c.seat for c in self.conns} | self.hub.presence.online(self.id)
        self._note_absences(online)  # (asked at every change of who is online: the absences' clock)
        return online

    def replace_seat(self, seat: int) -> bool:
        """Close this process's connections of `seat`, telling them (it was opened elsewhere)."""
        old = [c for c in self.conns if c.seat == seat]
        for c in old:
            c.push(REPLACED)
            c.close()
            self.conns.discard(c)
        return bool(old)

    def message_for(self, seat: int | None, table: dict[str, Any] | None = None,
                    view: dict[str, Any] | None = None) -> dict[str, Any]:
        """Everything one client may see: its seat's view, its legal moves, the table."""
        msg = dict(table or self._table_part())
        legal: list[str] = []
        if seat is not None and seat in msg["to_move"]:
            legal = [str(a) for a in self.state.legal_actions(seat)]
        msg["seat"] = seat
        # a seat's own: a game's running score may count a hidden card (Seven Waters' theme)
        msg["scores"] = self.state.scores_seen_by(seat)
        msg["view"] = self.state.view(seat) if view is None else view
        mine = self.state.committed().get(seat) if seat in msg["chosen"] else None
        msg["my_choice"] = str(mine) if mine is not None else None
        msg["legal"] = legal
        if self.rematch is not None:
            msg["rematch"] = self.rematch
        return msg

    def messages(self, seats: list[int | None]) -> dict[int | None, str]:
        """The encoded message of each of `seats`: their views built together (State.views),
        what they share encoded once."""
        table = self._table_part()
        views = self.state.views(seats)
        messages = {s: self.message_for(s, table, views[s]) for s in seats}
        if type(self.state).views is State.views:  # the default shares nothing: no need to look
            return {s: encode(m) for s, m in messages.items()}
        return encode_each(messages)

    def broadcast(self) -> None:
        """Push every client its own message (one per seat, however many clients it has).
        Not while a move applied here is unsaved: clients only ever see stored moves, and
        `_saved` pushes the position once they are (a name, a newcomer, a seat going offline
        meanwhile are in that push)."""
        if self.unsaved:
            return
        live = []
        for c in list(self.conns):
            if c.closed:
                self.conns.discard(c)
            else:
                live.append(c)
        if not live:
            return
        texts = self.messages(list(dict.fromkeys(c.seat for c in live)))
        for c in live:
            c.push(texts[c.seat])

    def tell_unsaved_after_all(self, seat: int, stored: Stored, failure: BaseException) -> None:
        """Tell the connections of `seat` (to the copy of the table in memory now: this one
        may have been read again since) that what they were told may still be saved — a
        move, a name, a rematch, a stand-in — failed after all (`unsaved_after_all`, with
        `late`, as a move stored late is `accepted` with it): their page's notice said it
        might be saved over a table that shows it is not.  Nothing changes at the table:
        it was never shown (read back without it, or never applied here)."""
        live = self.hub.tables.get(self.id)
        if live is None:  # (not in memory: nobody watches it)
            return
        refused = unsaved_after_all(stored, failure)
        for c in list(live.conns):
            if c.seat == seat and not c.closed:
                c.push(json.dumps({**refused.to_json(c.lang), "late": True}))

    async def set_name(self, seat: int | None, name: Any) -> None:
        """The player of `seat` chooses the name every seat list shows.  Each change is a
        database write and a push to every seat, so a seat may make `name_burst` at once,
        then `name_rate` a second (`too_many` beyond: the name stays the last one taken, as
        stored); a name that changes nothing costs nothing and counts for nothing.

        A change the database refuses as a whole (full, read-only, locked, no answer) never
        happened: its token is given back once the database takes writes again.  Before,
        it counted, and a player who had tried a few times during an outage was refused
        "too many name changes" afterwards for changes nobody saw.  Until then its token
        stays spent — each try is a write to a failing database, which the limit is there
        to bound as much as the pushes — and once the seat's tokens are spent a try is
        told that the name cannot be saved, as the last one was, without a write of its
        own (`Writes.check` tries one at most every PROBE_SECONDS for the whole server)."""
        if seat is None:
            raise Refused("spectator", Reason("server.spectator_name"), 403)
        chosen = clean_name(name)
        if chosen == self.seats[seat].name:
            return
        lim = self.hub.limits
        rate = self.name_rates.get(seat)
        if rate is None:
            rate = self.name_rates[seat] = RateLimit(lim.name_rate, lim.name_burst)
        if not rate.take():
            too_many = Refused("too_many", Reason("server.name_rate", rate=lim.name_rate, burst=lim.name_burst), 429)
            unsaved = self.names_unsaved.get(seat)
            if unsaved is None:
                raise too_many
            if not await self.hub.writes.check():
                raise storage_refusal(unsaved[1], Stored.NAME)
            rate.give_back(self.names_unsaved.pop(seat, (0,))[0])  # it takes writes again
            if not rate.take():
                raise too_many
        try:
            await self.hub.write(self.hub.storage.set_seat_name, self.id, seat, chosen,
                                 late=lambda _: self._name_stored_late(seat, chosen))
        except (sa.exc.SQLAlchemyError, TimeoutError) as exc:  # as Hub.store, the cause kept
            when_lost(exc, lambda failure: self.tell_unsaved_after_all(seat, Stored.NAME, failure))
            cause = failure_cause(exc)
            if cause is not Cause.STATEMENT:  # (a statement's own failure, a bug, stays counted: it would recur)
                self.names_unsaved[seat] = (self.names_unsaved.get(seat, (0,))[0] + 1, cause)
            # (no answer in time: it may still be stored, and is then shown, `_name_stored_late`;
            # sent again it writes the same name, or nothing once it is shown)
            raise storage_refusal(exc, Stored.NAME) from None
        self.seats[seat].name = chosen
        self.broadcast()

    def _name_stored_late(self, seat: int, chosen: str) -> None:
        """A name whose write committed only after its request had been answered as refused
        (no answer within `storage_seconds`): it is the seat's name after all, so every page
        is shown it now — before, the pages kept the old name and the stored one appeared
        at the next reload, unannounced.  (Each write's thread ends as it commits, so of a
        seat's writes the last shown is the last stored.)  It counts as a change made."""
        log.warning("storage: a name at table %s was stored only after its request had been refused; "
                    "it is shown", self.id)
        n, cause = self.names_unsaved.get(seat, (0, None))
        if n > 1:
            self.names_unsaved[seat] = (n - 1, cause)
        else:  # (n 0: its token was given back already, the database having been back before this)
            self.names_unsaved.pop(seat, None)
        live = self.hub.tables.get(self.id)  # (not in memory: read as stored when next opened)
        if live is not None and live.seats[seat].name != chosen:
            live.seats[seat].name = chosen
            live.broadcast()

    def seat_held_elsewhere(self, seat: int, tab: str | None) -> bool:
        """A live connection of `seat` other than the page `tab`'s own: here, or in another
        process by its announcements (which name the page holding each seat: a page's own
        connection there, not yet seen to drop, is no other tab's)."""
        if any(c.seat == seat and not c.closed and (tab is None or c.tab != tab) for c in self.conns):
            return True
        return self.hub.presence.held_elsewhere(self.id, seat, tab)

    def attach(self, conn: Connection, resume: bool = False, tab: str | None = None) -> bool:
        """Add a client; False if it was refused as `replaced` (its socket closed after that):
        a page reconnecting on its own (`resume`, a phone waking up) while its seat is live in
        another tab, which the player has moved to meanwhile, must not take the seat back nor
        send the move it kept waiting; the player's "play here again" opens it anew."""
        conn.tab = tab
        if conn.seat is not None and resume and self.seat_held_elsewhere(conn.seat, tab):
            conn.start()
            conn.push(REPLACED)
            conn.close()
            return False
        if conn.seat is not None:
            # one controller per seat: the newest connection takes over, the older ones are
            # told; other processes' too, once they hear of it (`opened`, with it attached:
            # what it says names its page)
            self.replace_seat(conn.seat)
        self.conns.add(conn)
        if conn.seat is not None:
            self.hub.presence.opened(self, conn.seat)
        conn.start()
        self.last_used = asyncio.get_running_loop().time()
        if conn.seat is None:  # a spectator changes nobody's view: only the newcomer is told
            if not self.unsaved:  # (else the push after the save tells it, as broadcast says)
                conn.push(encode(self.message_for(None)))
        else:
            self.broadcast()  # the newcomer gets its state; the others see who is online
        return True

    def detach(self, conn: Connection) -> None:
        if conn in self.conns:
            self.conns.discard(conn)
            conn.close()
            if conn.seat is not None and all(c.seat != conn.seat for c in self.conns):
                self.hub.presence.changed(self)
                self.broadcast()  # the seat went offline (unless another process has it)
        elif conn.seat is not None and all(c.seat != conn.seat for c in self.conns):
            # dropped before (a stalled client, a push found it closed): the others are told now
            self.hub.presence.changed(self)
        if not self.conns and self.state.is_terminal() and self.hub.tables.get(self.id) is self:
            del self.hub.tables[self.id]  # a finished game nobody watches: reloaded when asked for
        elif not self.conns:
            self.hub.trim()  # one more table at rest: the cache keeps its bound

    # -- moves ---------------------------------------------------------------
    async def submit(self, seat: int | None, text: Any, n: Any, *, check_n: bool = True) -> dict[str, Any]:
        """Validate and carry out one move of `seat`; persist, then broadcast.

        The lock covers checking and applying a move and queueing its transaction, not the
        commit: moves that arrive while a transaction is written (the seats of a
        simultaneous phase picking at once) are applied one after another and committed
        together, and the position is pushed once, when the last of them is stored.

        A move of a seat a bot stands in for takes the seat back first (`_back_to_move`):
        the answer then says `seat_back`."""
        back = await self._back_to_move(seat)
        if check_n and type(n) is int and n > self.n:
            # a move number this process has not reached may be one another process stored
            # (its notice still on the way: a client reading one server and moving on another):
            # read what is stored before refusing it as a position never shown
            await self.catch_up(math.inf)
        async with self.lock:
            self.last_used = asyncio.get_running_loop().time()
            saved, n_after = self._accept(seat, text, n, check_n)
            entry = (n_after - 1, seat, entry_notation(self.state.history[-1]), n)
        await self._stored(saved, entry)
        self.schedule_bots()
        answer = {"type": "accepted", "n": n_after}
        if back:
            answer["seat_back"] = True
        return answer

    async def _back_to_move(self, seat: int | None) -> bool:
        """Before a move of `seat`'s player (its absence clock starts again): a bot standing
        in for them stops, as when their link opens the table (`seat_back`: stored, the
        others told, a bot move worked out meanwhile never played).  Before, only a
        WebSocket hello took the seat back: a move over HTTP with the seat's own token was
        played while the bot kept the seat, and went on moving for it.  Whatever the move's
        fate (it may still be refused, stale or illegal), its player is here, so the seat
        is theirs from the request on; a take-back the database refuses refuses the move
        (not saved, and why).

        When the bot is to move for that seat at that moment, the first to reach the table
        wins: a bot's move applied before (its save awaited here) stands, and the player's
        move, based on the position before it, is refused as stale (the seat is theirs
        all the same); otherwise the bot's move is refused (`submit_bot`) and the
        player's is checked as any other.  True if a bot stood in."""
        if seat is None:
            return False  # (a spectator's move: refused by _accept)
        s = self.seats[seat]
        if s.kind != HUMAN:
            return False
        # a seat whose player moves is not absent, whether or not a page of theirs is open
        # (an HTTP client has none): the wait before a bot may be asked to stand in starts
        # again, so the seat is not handed to one again right after its player's move
        if seat not in self.online_seats():  # (online: not absent anyway, and its clock starts when it leaves)
            self.absent_since[seat] = _now()
        if s.stand_in is None or self.state.is_terminal():
            return False
        try:
            return await self.seat_back(seat)
        except Refused as exc:
            cause = exc.reason.params.get("cause")
            if exc.code == "storage" and isinstance(cause, Reason):
                # the move is not made either: told as a move not saved, and why
                raise storage_refusal(Cause(cause.code), Stored.MOVE) from None
            raise

    def _accept(self, seat: int | None, text: Any, n: Any, check_n: bool) -> tuple[asyncio.Future, int]:
        """Check a move, apply it and queue its transaction: (the save's future, the move
        number after it).  Synchronous, so the checks and the application see one position."""
        if self.hub.tables.get(self.id) is not self:  # dropped after a storage error: never act on it
            raise Refused("reload", Reason("server.reloaded"), 503)
        st = self.state
        if seat is None:
            raise Refused("spectator", Reason("server.spectator_move"), 403)
        if not isinstance(text, str) or not text.strip():
            raise Refused("bad_message", Reason("server.action_missing"))
        if len(text) > MAX_ACTION_CHARS:
            raise Refused("bad_message", Reason("server.action_too_long", length=len(text), most=MAX_ACTION_CHARS))
        if check_n:
            if isinstance(n, bool) or not isinstance(n, int):
                raise Refused("bad_message", Reason("server.move_number_missing"))
            if n > self.n:  # a move of a position never shown (no page sends one): no stale view
                raise Refused("bad_message", Reason("server.move_number_ahead", n=n, now=self.n))
            self._stored_after_all(seat, text, n)
            since = self.waiting_since.get(seat)
            if n != self.n and (since is None or not since <= n <= self.n):
                raise Refused("stale", Reason("server.stale", based_on=n, now=self.n), 409)
        if st.is_terminal():
            raise Refused("game_over", Reason("game_over"), 409)
        pending_seats = st.to_move()
        if seat not in pending_seats:
            if seat in st.committed():
                raise Refused("already_chosen", Reason("server.already_chosen"), 409)
            raise Refused("not_your_turn", Reason("not_your_turn", seat=seat, waiting=list(pending_seats)), 409)
        try:
            action = self.game.parse_action(text)
        except BadNotation as exc:  # the game's reason, code and params as for an illegal move
            reason = exc.shown(text)
            raise Refused("bad_notation", reason) from None
        reason = st.why_illegal(action, seat)
        if reason is not None:
            raise Refused("illegal", reason, 422)

        first_n = self.n
        if seat in self.stored_after_all:  # (it moves on: a move sent again now is plainly stale)
            self.hub.doubt(self.id).after_all.pop(seat, None)
            self.hub.tidy_doubt(self.id)
        # a simultaneous choice is applied at once as a hidden commitment (views show
        # only that the seat has chosen); the record names its seat
        self._apply(action, seat)
        self._track_waiting({seat})
        return self._queue_save(first_n, [(seat, entry_notation(st.history[-1]))]), self.n

    def _stored_after_all(self, seat: int, text: str, n: int) -> None:
        """Refuse, saying so, a move `seat` sends again that was refused in doubt (no answer
        in time) and then stored: the same move, based on the same move number.  Before, its
        retry was refused as stale ("your move was based on move 0, but the game is at move
        1"), which did not say the move at move 1 was the player's own, the one they had
        been told might not be saved.  Refused `stale` (409): the client reads the position."""
        late = self.stored_after_all.get(seat)
        if late is None or late[0] != n or late[1] >= self.n or self.state.history[late[1]][0] != seat:
            return
        try:
            action = self.game.parse_action(text)
        except BadNotation:
            return
        if str(action) == str(self.state.history[late[1]][1]):
            raise Refused("stale", Reason("server.stored_after_all", n=late[1] + 1), 409)

    def _track_waiting(self, acted: set[int]) -> None:
        """Keep `waiting_since` up to date after `acted` seats moved or chose."""
        st = self.state
        deciding = set() if st.is_terminal() else set(st.to_move())
        for s in list(self.waiting_since):
            if s not in deciding or s in acted:
                del self.waiting_since[s]
        # a seat in a simultaneous phase has been deciding since the phase began (also
        # after a restart): the others' commitments since then changed nothing it saw
        since = self.n - len(st.committed())
        for s in deciding:
            self.waiting_since.setdefault(s, since)

    def _apply(self, action: Any, seat: int) -> None:
        st = self.state
        st.chance.rng = chance_rng(self.seed, len(st.history) + 1)
        st.apply(action, seat)

    def _queue_save(self, first_n: int, applied: list[tuple[int, str]]) -> asyncio.Future:
        """Queue the transaction storing `applied` (already applied here), based on the
        version the moves queued before it leave; done when committed.  A move that follows
        an unsaved one is written after it, in the same transaction or the next."""
        drawn = self._drawn_counts()
        setup = self.state.chance.used_setup() if drawn != self.drawn else None
        terminal = self.state.is_terminal()
        result = {"scores": self.state.scores(), "winners": self.state.winners()} if terminal else None
        saved = self.hub.committer.enqueue(Progress(self.id, first_n, applied, setup,
                                                    "over" if terminal else "running", result,
                                                    self.version, bool(self.bot_seats_to_move())),
                                           self.chain)
        self.drawn = drawn
        self.version += 1
        self.unsaved += 1
        saved.add_done_callback(self._saved)
        return saved

    def _saved(self, saved: asyncio.Future) -> None:
        """A queued transaction ended.  Commit before anything is broadcast: the position
        is pushed once no move applied here is still unsaved (it then shows only stored
        moves), and only then are the requests waiting for it answered (`_stored`), so
        each mover has its new position before the answer.  A failure is handled by the
        failed request."""
        self.unsaved -= 1
        if saved.exception() is not None:
            self._save_failed = True
        if self.unsaved:
            return
        if saved.exception() is None and self.hub.tables.get(self.id) is self:
            self.broadcast()
        if self._all_saved is not None:
            self._all_saved.set_result(None)
            self._all_saved = None

    async def until_saved(self) -> None:
        """Wait until every move applied here has been committed or refused, and the
        position pushed (under the lock no new move is applied meanwhile; without it, the
        moves queued meanwhile are waited for too).  Whatever shows the position outside
        a push (an HTTP read, a sync) waits for this first: no one is shown a move that
        is not stored."""
        if self.unsaved:
            if self._all_saved is None:
                self._all_saved = asyncio.get_running_loop().create_future()
            await asyncio.shield(self._all_saved)

    async def _stored(self, saved: asyncio.Future, entry: tuple[int, int, str, Any] | None = None) -> None:
        """Wait for a queued move's commit; on failure the table is rebuilt from the
        database (a later move queued on top of it fails with it: its version is gone).
        `entry`: the move's (number, seat, record entry, the number its request was based
        on), a person's: if its transaction had no answer in time, it may still commit —
        before the table is read back (the move is in what was read: accepted after all,
        never refused while every page shows it) or after (`in_doubt`: its mover is told
        then, `stored_late`).  Such a move is refused as in doubt (`server.unsaved_in_doubt`,
        "may still be saved"), not as unsaved: before, it was told "could not be saved ...
        please try again" as a full disk's is, and the player who tried again was refused as
        stale by their own move.  A move sent again while the first is in doubt that loses
        its race to it is told the first was stored (`_stored_after_all`)."""
        try:
            await asyncio.shield(saved)  # a cancelled request leaves the transaction intact
            await self.until_saved()    # the moves queued after it too: the position is pushed
        except Conflict:
            async with self.lock:  # once for all the moves that failed together
                await self.until_saved()
                if self.hub.tables.get(self.id) is not self:  # a move queued before failed to save
                    # (and the table could not be read back either: dropped by _read_back)
                    raise storage_refusal(Cause.DOWN, Stored.EARLIER_MOVE) from None
                if self._save_failed:
                    log.info("table %s: another process moved first; reloading it", self.id)
                    await self._reload()
                # the same move sent again while the first was in doubt, which was stored
                # first: told so, not "another move came first" (`stored_late` tells the rest)
                if entry is not None and self._holds(entry) and (
                        entry in self.in_doubt or self.stored_after_all.get(entry[1]) == (entry[3], entry[0])):
                    raise Refused("stale", Reason("server.stored_after_all", n=entry[0] + 1), 409) from None
            raise Refused("stale", Reason("server.raced"), 409) from None
        except EarlierUnsaved as exc:
            await self._read_back()
            refusal = storage_refusal(exc.cause, Stored.EARLIER_MOVE)
            if isinstance(exc.cause, WriteInDoubt):  # (`server.earlier_in_doubt`: its fate is the one before's)
                refusal.doubt_outcome = exc.cause.outcome
                if entry is not None:  # a person's: told should the one before fail after all
                    when_lost(exc.cause, lambda failure: self.hub.queued_move_lost(self.id, entry, failure))
            raise refusal from None
        except Exception as exc:  # (said in the log by Hub.writes, once for the outage)
            await self._read_back()
            if isinstance(exc, TimeoutError) and entry is not None:
                # the copy its pages watch: this one read back, or one loaded anew after this
                # one could not be read back (dropped), which the move may have reached already
                live = self.hub.tables.get(self.id)
                if live is not None and live._holds(entry):
                    return
                # remembered by the process, not by this copy: one loaded anew (this one
                # dropped, swept, pushed out of the cache) tells its mover too.  Before, a
                # table read again from the database after the timeout forgot it: the move
                # committed later was shown unannounced and sent again refused as stale
                if live is not None:  # (a move at a number passed since is settled: stored, or never to be)
                    live._settle_doubts()
                self.hub.doubt(self.id).moves.add(entry)
                # and should it fail after all, its mover is told (the doubt forgotten)
                when_lost(exc, lambda failure: self.hub.move_lost(self.id, entry, failure))
            if isinstance(exc, TimeoutError):  # (its transaction goes on: it may yet commit, so not "unsaved")
                refusal = Refused("storage", Reason("server.unsaved_in_doubt"), 503)
                if isinstance(exc, WriteInDoubt):
                    refusal.doubt_outcome = exc.outcome
                raise refusal from None
            raise storage_refusal(exc, Stored.MOVE) from None

    def _holds(self, entry: tuple) -> bool:
        """The position has the move `entry` (number, seat, record entry, ...)."""
        n, seat, text = entry[:3]
        return n < self.n and self.state.history[n][0] == seat and entry_notation(self.state.history[n]) == text

    async def stored_late(self, version: int) -> None:
        """Moves whose transaction committed (up to the table's `version`) only after their
        requests had been answered as refused (no answer within `storage_seconds`; the table
        was read back without them): every page is shown them now, as accepted moves, and
        each mover's connections are sent `accepted` (with `late`).  Before, the database
        held the move while every page showed the position before it (the mover's too, told
        it was not saved), and the next move there was refused as stale.  A move applied
        here meanwhile on the position without them lost its race (Conflict: reloaded), so
        nothing is applied twice; `catch_up` reads only what this copy lacks."""
        try:
            await self.catch_up(version)
        except Exception as exc:  # (the table cannot be read: its next move is stale, and reloads it)
            log.warning("table %s: moves stored late could not be read back (%s)", self.id,
                        failure_text(exc) if not isinstance(exc, TimeoutError) else "no answer")
            return
        if self.hub.tables.get(self.id) is not self:  # (left memory: read as stored when next opened)
            return
        self._settle_doubts()
        self.schedule_bots()

    def _settle_doubts(self) -> None:
        """Settle the moves in doubt at numbers the position has passed, and tell their
        movers: those it holds were stored after all (kept in `stored_after_all`; their
        seats' connections are sent `accepted` with `late`), the others never will be —
        another move has their number (`server.unsaved_after_all`, raced: told here, as
        their write's failure, heard later, finds them settled)."""
        doubt = self.hub.doubts.get(self.id)
        if doubt is None:
            return
        settled = sorted(e for e in doubt.moves if e[0] < self.n)
        doubt.moves.difference_update(settled)
        held = [e for e in settled if self._holds(e)]
        for n, seat, _, based_on in held:
            doubt.after_all[seat] = (based_on, n)
        self.hub.tidy_doubt(self.id)
        for n, seat, _, _ in held:
            told = json.dumps({"type": "accepted", "n": n + 1, "late": True})
            for c in self.conns:
                if c.seat == seat:
                    c.push(told)
        for entry in settled:
            if entry not in held:
                self.tell_unsaved_after_all(entry[1], Stored.MOVE, Conflict(self.id))

    async def _read_back(self) -> None:
        """After a move applied here was not stored: the position as stored, read back in
        place, so its clients stay connected (a full disk or a lock still lets the
        database be read) and the mover's refusal reaches them.  Dropping the table closed
        every socket instead: a page's refusal was lost with its socket, and a bot's failed
        move sent the table's pages to reconnect at each of its tries.  Only a database
        that cannot be read either drops the table (reloaded when asked for)."""
        async with self.lock:  # once for all the moves that failed together
            await self.until_saved()
            if self.hub.tables.get(self.id) is not self or not self._save_failed:
                return
            await self._reload_or_drop()

    # -- a bot for an absent player -------------------------------------------
    def bot_plays(self, seat: int) -> bool:
        """A bot moves for `seat`: a bot's seat, or a person's that a bot stands in for."""
        s = self.seats[seat]
        return s.kind == BOT or s.stand_in is not None

    def _note_absences(self, online: set[int | None]) -> None:
        """Keep `absent_since` up to date with who is online now (`online_seats` calls this:
        every push, every presence notice of another process asks it)."""
        now = _now()
        for s in self.seats:
            if s.kind == HUMAN and s.seat not in online:
                self.absent_since.setdefault(s.seat, now)
            else:
                self.absent_since.pop(s.seat, None)

    def stand_in_wait(self, seat: int, online: set[int | None]) -> float | None:
        """Seconds until a bot may be asked to play the human seat `seat` (0: now), counted
        from when this process last saw it online (or loaded the table); None while no bot
        can be asked (a bot's seat, one a bot plays already, one online, the game over)."""
        s = self.seats[seat]
        if s.kind != HUMAN or s.stand_in is not None or seat in online or self.state.is_terminal():
            return None
        since = self.absent_since.get(seat, _now())
        return max(0.0, self.hub.limits.stand_in_seconds - (_now() - since))

    def _shown_wait(self, seat: int, online: set[int | None]) -> float | None:
        """`stand_in_wait` for the pages, rounded up to a tenth of a second: a page that
        offers the hand-over when it reaches 0 is never refused as too early."""
        wait = self.stand_in_wait(seat, online)
        return None if wait is None else math.ceil(wait * 10) / 10

    async def stand_in(self, asker: int | None, seat: Any, level: Any) -> None:
        """The player of `asker` hands the human seat `seat`, whose player has had no
        connection in any server process for `stand_in_seconds` while the game runs, to a
        bot of `level`, so the others can play on (as on Board Game Arena); the bot plays
        it (schedule_bots) until its player opens the table again with their link or
        moves with its token (`seat_back`).  Written like a move (on the table's version, heard by the other
        processes), so it survives a restart; each reason it cannot be done is a refusal."""
        if asker is None:
            raise Refused("spectator", Reason("server.stand_in_spectator"), 403)
        if not isinstance(level, str) or level not in level_names():
            raise Refused("bad_request", Reason("server.stand_in_level", level=level,
                                                levels=", ".join(level_names())))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise Refused("bad_request", Reason("server.stand_in_no_seat", seat=seat, most=len(self.seats) - 1))
        async with self.lock:
            await self.until_saved()  # the checks and the write see the stored position
            if self.hub.tables.get(self.id) is not self:
                raise Refused("reload", Reason("server.reloaded"), 503)
            self._check_stand_in(asker, seat)
            await self._write_stand_in(seat, level, asker)
            self.broadcast()
        self.schedule_bots()

    def _check_stand_in(self, asker: int, seat: int) -> None:
        """Refused, saying why, unless a bot may take over `seat` now at `asker`'s request."""
        if self.state.is_terminal():
            raise Refused("game_over", Reason("server.stand_in_over"), 409)
        if seat == asker:
            raise Refused("stand_in", Reason("server.stand_in_own"), 409)
        s = self.seats[seat]
        if s.kind != HUMAN:
            raise Refused("stand_in", Reason("server.stand_in_bot_seat", seat=seat), 409)
        if s.stand_in is not None:
            raise Refused("stand_in", Reason("server.stand_in_already", seat=seat, level=s.stand_in), 409)
        online = self.online_seats()
        if seat in online:
            raise Refused("stand_in", Reason("server.stand_in_online", seat=seat), 409)
        wait = self.stand_in_wait(seat, online)
        if wait:
            raise Refused("stand_in", Reason("server.stand_in_early", seat=seat, seconds=math.ceil(wait)), 409)

    async def _write_stand_in(self, seat: int, level: str | None, asker: int | None = None) -> None:
        """Store who plays `seat` (a bot's level, None: its player), under the lock with
        nothing unsaved; another process's write first is Conflict (the table reloaded).
        `asker`: the seat that asked (None: `seat`'s player, back), told should the write
        be in doubt and then fail."""
        after = {s: (level is not None if s == seat else self.bot_plays(s))
                 for s in (() if self.state.is_terminal() else self.state.to_move())}
        told = seat if asker is None else asker
        try:
            await self.hub.store(Stored.STAND_IN, self.hub.storage.set_stand_in, self.id, seat, level,
                                 self.version, any(after.values()),
                                 late=lambda _: self.hub._background(self.reload()),
                                 lost=lambda failure: self.tell_unsaved_after_all(told, Stored.STAND_IN, failure))
        except Conflict:
            await self._reload()
            raise Refused("stale", Reason("server.raced"), 409) from None
        self.version += 1
        self.seats[seat].stand_in = level

    async def seat_back(self, seat: int) -> bool:
        """The player of `seat` is back (their link opened the table, or they moved:
        `_back_to_move`): a bot standing in for them stops, stored as its start was, and their pages are told (`seat_back`).  A move
        the bot has worked out meanwhile is never played (submit_bot).  True if a bot stood in."""
        for _ in range(3):  # (another process's move may come first: then on the position reloaded)
            if self.seats[seat].stand_in is None:
                return False
            async with self.lock:
                await self.until_saved()
                if self.hub.tables.get(self.id) is not self or self.seats[seat].stand_in is None:
                    return False
                try:
                    await self._write_stand_in(seat, None)
                except Refused as exc:
                    if exc.code == "stale":
                        continue
                    raise
                self.broadcast()
            for c in list(self.conns):
                if c.seat == seat:
                    c.push(SEAT_BACK)
            return True
        raise Refused("stale", Reason("server.raced"), 409)

    def _set_stand_ins(self, levels: dict[int, str | None]) -> None:
        """The stand-ins as stored (another process changed one), and a seat whose player
        has a connection here taken back at once: the stand-in was asked for there before
        the player's return had reached that process."""
        for s in self.seats:
            s.stand_in = levels.get(s.seat) if s.kind == HUMAN else None
        self._take_back_held()

    def _take_back_held(self) -> None:
        for seat in {c.seat for c in self.conns if c.seat is not None and not c.closed}:
            if self.seats[seat].stand_in is not None:
                self.hub._background(self._take_back(seat))

    async def _take_back(self, seat: int) -> None:
        try:
            await self.seat_back(seat)
        except Exception as exc:  # (its page takes it back at its next hello)
            log.warning("table %s: seat %d could not be taken back from its bot (%s)", self.id, seat, exc)

    # -- bots ----------------------------------------------------------------
    def bot_seats_to_move(self) -> list[int]:
        st = self.state
        if st.is_terminal():
            return []
        return [s for s in st.to_move() if self.bot_plays(s)]

    def schedule_bots(self) -> None:
        if self.bot_task is not None and not self.bot_task.done():
            return
        if self.bot_seats_to_move():
            self.bot_task = asyncio.create_task(self._run_bots())
            # bots done (the game over, a person to move): the table may be at rest now, so
            # the cache keeps its bound (all-bot games that end are never read by a socket)
            self.bot_task.add_done_callback(lambda _: self.hub.trim() if self.hub.running else None)

    async def _run_bots(self) -> None:
        hub = self.hub
        try:
            while hub.running and hub.tables.get(self.id) is self:
                seats = self.bot_seats_to_move()
                if not seats:
                    return
                # The bots think during the delay, and no move is shown before it ends: how
                # long a bot took must not tell the table anything (a search bot answers a
                # forced move at once, and in Watten a forced follow says "one card of the
                # suit left"), so below the delay every move takes the same time.
                shown_at = _now() + hub.bot_delay
                for seat in seats:
                    n = self.n
                    legal = [str(a) for a in self.state.legal_actions(seat)]
                    if not legal:
                        continue
                    # reseeded per decision: a bot plays the same after a restart as without one
                    key = f"bot:{self.seed}:{seat}:{n}"
                    level = self.seats[seat].stand_in or self.seats[seat].level or "medium"  # (a stand-in's own)
                    try:
                        text = await hub.bots.choose(self.state.record(), seat, level,
                                                     random.Random(f"bot:{self.seed}:{seat}").randrange(2**31), key)
                    except Exception:  # a broken bot must not stall the table
                        log.exception("table %s: the bot of seat %d failed; it plays a random legal move",
                                      self.id, seat)
                        text = random.Random(key).choice(legal)
                    await _pause(max(0.0, shown_at - _now()))
                    try:
                        await self.submit_bot(seat, text, n)
                    except Refused as exc:
                        if exc.code == "storage":
                            await self._before_retry(exc)
                            continue
                        if exc.code not in ("illegal", "bad_notation"):
                            log.info("table %s: bot seat %d refused (%s)", self.id, seat, exc.reason)
                            continue  # the position moved on meanwhile: think again
                        log.error("table %s: the bot of seat %d chose %r (%s); it plays a random legal move",
                                  self.id, seat, text, exc.reason)
                        await self.submit_bot(seat, random.Random(key).choice(legal), n)
        except asyncio.CancelledError:
            raise
        except Refused as exc:
            log.info("table %s: bot stopped (%s)", self.id, exc.reason)
        except Exception:
            log.exception("table %s: bot failed", self.id)

    async def _before_retry(self, refused: Refused) -> None:
        """A bot's move refused for storage is not tried at once again (each try a failed
        write and a reload): once the database takes writes again, or after a while — or,
        refused for a write in doubt (`doubt_outcome`: its own, or the move's it was queued
        behind), as soon as that write has ended.  Failed after all, the position read back
        when the bot was refused is the stored one, and the bot thinks again on it; before,
        it waited out BOT_RETRY_SECONDS unless another write succeeded meanwhile (a
        Wildwasser pick queued behind a person's pick stayed unmade while nobody else
        wrote; a bot's own move, once failed, left its turn unplayed, the person queued
        behind it told the game was without it).  Stored after all, the table catches up
        (`stored_late`; a move made on the position before that loses its race: reloaded)."""
        back = asyncio.ensure_future(self.hub.writes.back(BOT_RETRY_SECONDS))
        try:
            if refused.doubt_outcome is None:
                await back
            else:
                await asyncio.wait([back, refused.doubt_outcome], return_when=asyncio.FIRST_COMPLETED)
        finally:
            back.cancel()

    async def submit_bot(self, seat: int, text: str, n: int) -> None:
        """A bot's move, refused as stale if the position changed while it thought, or if
        the player it stood in for came back meanwhile (the seat is theirs again)."""
        async with self.lock:
            self.last_used = asyncio.get_running_loop().time()
            if not self.bot_plays(seat):
                raise Refused("stale", Reason("server.seat_back"), 409)
            saved, _ = self._accept(seat, text, n, check_n=True)
        await self._stored(saved)


class Chain:
    """The moves one table applied here since it last read its position: each is based on the
    one before, so once one is not written, none after it may be.  (Its version alone does not
    say so: a move based on version v+1 found the row at v+1 after another process had
    written v+1 in place of the lost move, and was stored on top of a position it was never
    checked against — a seat's second pick in one phase, a record that no longer replays.)"""

    __slots__ = ("broken",)

    def __init__(self) -> None:
        self.broken: BaseException | None = None  # why a move of it was not written


class Doubt:
    """One table's people's moves whose write had no answer in time (`moves`: in doubt, as
    LiveTable.in_doubt) and those of them then stored (`after_all`: by seat, as
    LiveTable.stored_after_all).  Kept by the process (Hub.doubts), not by the table's copy
    in memory: a table that leaves memory after the timeout (its read-back failed, the
    cache or the idle sweep let it go while its transaction was still running: nothing of
    it counts as unsaved then) and is read again keeps them.  Another process has none."""

    __slots__ = ("moves", "after_all")

    def __init__(self) -> None:
        self.moves: set[tuple[int, int, str, Any]] = set()
        self.after_all: dict[int, tuple[Any, int]] = {}


class EarlierUnsaved(Exception):
    """A move queued on one whose transaction failed for storage (not a race): never written.
    `cause`: what that transaction failed with (its mover's refusal names it too)."""

    def __init__(self, table_id: str, cause: BaseException):
        super().__init__(f"an earlier move of table {table_id} was not saved")
        self.table_id = table_id
        self.cause = cause


class Committer:
    """Group commit: the moves accepted at all tables while a transaction is being written
    are written together in the next one.  Each caller returns only once its move is
    committed, so nothing is broadcast before it is stored."""

    def __init__(self, storage: Storage, run=None, late=None):
        self.storage = storage
        self.batch: list[tuple[Progress, asyncio.Future, Chain | None]] = []
        self.task: asyncio.Task | None = None
        # off the event loop; `run(fn, *args, late=...)` as Hub.write (`late` unused here: no time limit)
        self.run = run or (lambda fn, *args, late=None: asyncio.to_thread(fn, *args))
        # late(progress): a transaction whose futures had failed (no answer in time) committed after all
        self.late = late

    def enqueue(self, progress: Progress, chain: Chain | None = None) -> asyncio.Future:
        """Add `progress` to the next transaction; the future is done when it is committed
        (or holds why not: Conflict or EarlierUnsaved without writing once an earlier
        progress of its `chain` failed).  Synchronous, so the order of calls is the order
        of writing."""
        fut = asyncio.get_running_loop().create_future()
        self.batch.append((progress, fut, chain))
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._flush())
        return fut

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let the moves that arrived in this turn of the loop join
        while self.batch:
            batch, self.batch = self.batch, []
            batch = [item for item in batch if not self._dropped(item)]
            if not batch:
                continue
            try:
                await self._save([p for p, _, _ in batch])
            except Exception as exc:
                # one bad table must not fail the others: retry one by one — unless the
                # database itself failed (full, read-only, locked, gone): each retry would
                # meet it again, and with a lock held elsewhere each waited its own busy
                # timeout, so the tenth move of a batch was refused after 50 s
                whole = whole_database(exc)
                for item in batch:
                    if self._dropped(item):
                        continue
                    p, fut, chain = item
                    try:
                        if whole or len(batch) == 1:
                            raise exc
                        await self._save([p])
                        fut.set_result(None)
                    except Exception as one:
                        if chain is not None:
                            chain.broken = one
                        fut.set_exception(one)
                        whole = whole or whole_database(one)
                continue
            for _, fut, _ in batch:
                if not fut.done():
                    fut.set_result(None)
            await asyncio.sleep(0)

    async def _save(self, progress: list[Progress]) -> None:
        """One transaction of `progress`; should it commit after its time ran out (its
        futures failed by then), `late` hears of it."""
        late = None if self.late is None else (lambda _: self.late(progress))
        await self.run(self.storage.save_batch, progress, late=late)

    @staticmethod
    def _dropped(item: tuple[Progress, asyncio.Future, Chain | None]) -> bool:
        """Fail, unwritten, a progress queued on one that failed (its table reloads)."""
        p, fut, chain = item
        if chain is not None and chain.broken is not None:
            fut.set_exception(Conflict(p.table_id) if isinstance(chain.broken, Conflict)
                              else EarlierUnsaved(p.table_id, chain.broken))
            return True
        return False


class Presence:
    """Who is online at the tables, across the server processes of one PostgreSQL database.

    Each process knows its own connections; it tells the others over the channel the moves
    use (notify.py: `presence:open` when a seat is opened here, followed by a `presence:here`
    naming the page that opened it; `presence:here` with the seats online here at a table
    when a seat loses its last connection here; every `heartbeat` seconds a full list of
    the tables with a seat online here; `presence:bye` when it stops; `presence:ask` when
    it starts or its listening connection returns, which every other process answers with
    its full list, an empty one too, since it may have missed what they said).
    Every process keeps what the others said, table by table (whether it holds the table
    or not: a client may open it here later), merges it into the `online` flags it sends
    and pushes the table when they change.  A full list replaces everything its process
    said before (the tables it leaves out have nothing online there).  An entry not renewed
    for `expiry` seconds is dropped, so a process that died without a goodbye stops
    counting; once its full list sent on reconnecting is back, a process gives the entries
    one heartbeat to be renewed: a live process answers at once, and a goodbye said while
    it was not listening is not waited for until expiry.

    One connection per seat, across processes: a process that hears another open a seat it
    has open closes its own connection ("replaced") — unless its own `open` of that seat is
    not back from the channel yet.  Every process hears the notices in the same order, that
    of their commits, and its own in the order it sent them; so if its `open` comes back
    afterwards, its connection is the newer one (the other process closes its own when that
    `open` reaches it).  If its send failed before the COMMIT, an `open` of another process
    heard meanwhile is the newer: it closes its connection at once.  If a later notice of
    its own comes back first, its `open` was committed while its listener was down or (a
    send failed at its COMMIT) maybe never: an `open` heard since its listener returned is
    the newer, and it closes its connection; else it says its `open` again if it still
    holds the seat, and the other process gives way (`_not_heard`).  Its pending `open`s survive a reconnection of its
    listener (forgetting them took an older `open` for the newer while its own was still
    queued: both closed theirs).

    A process of the version before answers an `ask` only when it has a seat online and
    never marks a list full (`+all`): what it said replaces nothing but the tables it names,
    so what we missed of it while not listening goes only by the fence's heartbeat.
    Inactive (nothing sent, no timer) until `start`, which the app calls on PostgreSQL only."""

    def __init__(self, hub: "Hub", heartbeat: float = 10.0, expiry: float = 30.0):
        self.hub = hub
        self.heartbeat = heartbeat
        self.expiry = expiry
        self.origin: str | None = None
        # table -> origin -> (its seats online there, when that expires on this loop's clock,
        # seat -> the key of the page holding it there, where the process said)
        self.remote: dict[str, dict[str, tuple[frozenset[int], float, dict[int, str]]]] = {}
        self._unheard: dict[tuple[str, int], int] = {}  # (table, seat) -> the seq of our latest `open` not heard back
        # (table, seat) another process opened while our `open` was out -> the listening
        # epoch it was heard in (the latest): who keeps the seat is decided when ours comes
        # back (ours is newer) or is known not heard (`_not_heard`)
        self._rivals: dict[tuple[str, int], int] = {}
        self._epoch = 0                         # counts our listener's reconnections
        self._lists: dict[str, set[str]] = {}  # origin -> the tables of its full list, its parts heard so far
        self._fence: int | None = None          # the seq of our full list sent on reconnecting, not heard back yet
        self._outbox: list[str] = []
        self._sender: asyncio.Task | None = None
        self._beat: asyncio.Task | None = None
        self._seq = 0
        self.outage = Outage("announcing who is online", log)  # its failures, said once per outage

    @property
    def active(self) -> bool:
        return self.origin is not None

    def start(self, origin: str) -> None:
        """Announce and listen from now on (the listener is ready), as `origin`."""
        self.origin = origin
        self._beat = asyncio.get_running_loop().create_task(self._beats())
        self._send(f"{origin} {notify.ASK}")  # the seats already online elsewhere, now

    async def stop(self) -> None:
        """Say goodbye (best effort) and go quiet."""
        if not self.active:
            return
        if self._beat is not None:
            self._beat.cancel()
        self._send(f"{self.origin} {notify.BYE}")
        self.origin = None
        if self._sender is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._sender), min(2.0, self.hub.limits.storage_seconds))
            except Exception:
                pass

    # -- what the others said -------------------------------------------------
    def _live(self, table_id: str) -> list[tuple[frozenset[int], dict[int, str]]]:
        """What the others said of `table_id` and is not expired: (seats, seat -> page key)."""
        entries = self.remote.get(table_id)
        if not entries:
            return []
        now = asyncio.get_running_loop().time()
        return [(held, tabs) for held, expires, tabs in entries.values() if expires > now]

    def online(self, table_id: str) -> frozenset[int]:
        """The seats of `table_id` other processes have online (expired entries left out)."""
        return frozenset().union(*(held for held, _ in self._live(table_id)))

    def held_elsewhere(self, table_id: str, seat: int, tab: str | None) -> bool:
        """Another process has `seat` online, and not as the page `tab`'s own connection (one
        whose page that process did not name — an API client, a process of the version
        before — counts as another's)."""
        key = notify.tab_key(tab) if tab is not None else None
        return any(seat in held and (key is None or tabs.get(seat) != key) for held, tabs in self._live(table_id))

    def heard(self, origin: str, kind: str, words: list[str]) -> str | None:
        """A presence notice (notify.Listener): what of it this version does not read (a
        later version's addition, ignored; the listener says so once), or None; ValueError
        if it cannot read a notice of a kind it sends itself (a bug: the listener warns)."""
        if not self.active:
            return None
        if origin == self.origin:
            self._heard_back(kind, words)
            return None
        if kind == notify.BYE:
            self._lists.pop(origin, None)
            for table_id in [t for t, entries in self.remote.items() if origin in entries]:
                self._set(table_id, origin, frozenset())
        elif kind == notify.ASK:
            self.announce_all(answer=True)
        elif kind == notify.OPEN:
            _, table_id, seat = notify.read_open(words)
            self._opened_there(origin, table_id, seat)
            return "open: more words" if len(words) > 3 else None
        elif kind == notify.HERE:
            if not words or not words[0].isdigit():
                raise ValueError("a here starts with its seq")
            here = notify.read_here(words[1:])
            self._here(origin, here)
            return "here: words not read" if here.unread else None
        else:
            return "a kind this version does not know"
        return None

    def _opened_there(self, origin: str, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        held, expires, tabs = self.remote.get(table_id, {}).get(origin, (frozenset(), 0.0, {}))
        if expires <= asyncio.get_running_loop().time():
            held, tabs = frozenset(), {}  # expired: not renewed by this open
        tabs = {s: k for s, k in tabs.items() if s != seat}  # a new connection: its `here` names its page
        t = self.hub.tables.get(table_id)
        if t is not None:
            if key in self._unheard:
                self._rivals[key] = self._epoch  # ours is out: the newer is known once it is back or not heard
            elif t.replace_seat(seat):
                self.changed(t)  # opened there after it was opened here: the seat is theirs
        self._set(table_id, origin, held | {seat}, tabs)

    def _here(self, origin: str, here: "notify.Here") -> None:
        for table_id, seats in here.tables.items():
            self._set(table_id, origin, seats, here.tabs.get(table_id))
        if here.part is None:
            return
        part, parts = here.part
        named = set() if part == 1 else self._lists.get(origin)
        if named is None:
            return  # a part before it missed: read as a change only
        named.update(here.tables)
        if part < parts:
            self._lists[origin] = named
            return
        self._lists.pop(origin, None)
        for table_id in [t for t, entries in self.remote.items() if origin in entries and t not in named]:
            self._set(table_id, origin, frozenset())  # its full list left it out

    def _heard_back(self, kind: str, words: list[str]) -> None:
        """One of our own notices came back from the channel: our notices before it came back
        before it, or never will."""
        try:
            seq = int(words[0])
        except (IndexError, ValueError):
            return  # (our goodbye)
        if kind == notify.OPEN:
            _, table_id, seat = notify.read_open(words)
            if self._unheard.get((table_id, seat)) == seq:
                del self._unheard[(table_id, seat)]
                self._rivals.pop((table_id, seat), None)  # the others' `open`s heard before it are older: ours stays
        for key in [k for k, sent in self._unheard.items() if sent < seq]:
            self._not_heard(key)
        if seq == self._fence:
            self._fence = None
            # everyone listening hears our `ask`, sent right after, and answers now: what is
            # not renewed within a heartbeat is of a process that stopped while we were not listening
            until = asyncio.get_running_loop().time() + self.heartbeat
            for entries in self.remote.values():
                for origin, (held, expires, tabs) in list(entries.items()):
                    if expires > until:
                        entries[origin] = (held, until, tabs)

    def _not_heard(self, key: tuple[str, int]) -> None:
        """A later notice of ours came back before our latest `open` of `key`: that `open` was
        committed while our listener was down, or never (a send that failed at its COMMIT:
        we cannot tell).  Either way it is on the channel, if at all, before the reconnection
        of our listener — so a rival heard since that reconnection is the newer: we close
        ours (the other process never heard ours after its own, and keeps its connection).
        Otherwise ours may be the newer (a rival heard before the drop is older than ours
        committed during it: the other process has closed its own) or an `open` we missed
        may be (another process opened the seat while we were not listening, and kept it
        when ours came before): we cannot tell, so we say ours again if we still hold the
        seat — whoever has it then gives way to that one, and exactly one connection stays.
        (Closing ours on any rival closed both connections in the first case; keeping ours
        without a word left two in the second.)"""
        del self._unheard[key]
        epoch = self._rivals.pop(key, None)
        t = self.hub.tables.get(key[0])
        if t is None:
            return
        if epoch == self._epoch:
            if t.replace_seat(key[1]):
                self.changed(t)
        elif any(c.seat == key[1] and not c.closed for c in t.conns):
            self.opened(t, key[1])

    def _set(self, table_id: str, origin: str, seats: frozenset[int], tabs: dict[int, str] | None = None) -> None:
        """`origin` has `seats` online at `table_id` (renewed), held by the pages `tabs` names;
        the table pushed if that changes who is online."""
        t = self.hub.tables.get(table_id)
        before = t.online_seats() if t is not None else None
        if seats:
            expires = asyncio.get_running_loop().time() + self.expiry
            self.remote.setdefault(table_id, {})[origin] = (seats, expires, tabs or {})
        else:
            entries = self.remote.get(table_id)
            if entries is not None:
                entries.pop(origin, None)
                if not entries:
                    del self.remote[table_id]
        if t is not None and t.online_seats() != before:
            t.broadcast()

    def _expire(self) -> float:
        """Drop the entries not renewed in time; when the next one expires."""
        now = asyncio.get_running_loop().time()
        soonest = now + self.expiry
        for table_id, entries in list(self.remote.items()):
            gone = [o for o, (_, expires, _) in entries.items() if expires <= now]
            for o in gone:
                del entries[o]
            if not entries:
                del self.remote[table_id]
            if gone:
                t = self.hub.tables.get(table_id)
                if t is not None:
                    t.broadcast()  # (the flags had already left out the expired entries)
            for _, expires, _ in entries.values():
                soonest = min(soonest, expires)
        return soonest

    # -- what this process says -----------------------------------------------
    def _next_seq(self) -> int:
        self._seq += 1
        return self._seq

    @staticmethod
    def _held(table: "LiveTable") -> tuple[str, frozenset[int], dict[int, str]]:
        """What this process says of `table`: its seats online here, and which page has each."""
        live = [c for c in table.conns if c.seat is not None and not c.closed]
        return (table.id, frozenset(c.seat for c in live),
                {c.seat: notify.tab_key(c.tab) for c in live if c.tab is not None})

    def opened(self, table: "LiveTable", seat: int) -> None:
        """A connection of `seat` was attached here: the others close theirs."""
        if not self.active:
            return
        key = (table.id, seat)
        seq = self._next_seq()
        self._unheard[key] = seq
        self._rivals.pop(key, None)  # an `open` heard before this one was made is older
        self._send(f"{self.origin} {notify.OPEN} {seq} {table.id} {seat}")
        if seat in self._held(table)[2]:
            # which page it is, at once: its own reconnection through another process (a
            # phone waking up, a load balancer choosing anew) is not another tab's
            self.changed(table)

    def changed(self, table: "LiveTable") -> None:
        """A seat lost its last connection here (or was opened by a page): the seats online here now."""
        if self.active:
            for payload in notify.here_payloads(self.origin, [self._held(table)], self._next_seq):
                self._send(payload)

    def announce_all(self, answer: bool = False) -> None:
        """The full list of the tables with a seat online here, with those seats (the
        heartbeat; said even when empty to `answer` an `ask`: the asker drops what it holds
        of this process and the list leaves out)."""
        if not self.active:
            return
        items = [h for h in map(self._held, self.hub.tables.values()) if h[1]]
        if items or answer:
            fence_dropped = self._supersede()
            for payload in notify.here_payloads(self.origin, items, self._next_seq, full=True):
                self._send(payload)
            if fence_dropped:
                self._fence = self._seq  # (this list's last part)

    def _supersede(self) -> bool:
        """A full list is about to be queued: the `here`s still waiting in the outbox (full
        lists, changes) say nothing it does not, so they go — else every heartbeat while the
        database stalls queues one more list.  `open`s, `ask`s and the goodbye stay, in their
        order; the seqs left keep rising (a gap is nothing: only their order counts).  True
        if the fence was among them: it moves to the new list's last part, later still."""
        kept, dropped = [], set()
        for p in self._outbox:
            words = p.split(" ", 3)
            if words[1] == notify.HERE:
                dropped.add(int(words[2]))
            else:
                kept.append(p)
        self._outbox[:] = kept
        return self._fence in dropped

    def reconnected(self) -> None:
        """The listener is back: the others may have missed what we said, and we what they
        said.  Our `open`s sent meanwhile may never come back: each is known not heard once
        a later notice of ours comes back first (the full list sent now at the latest)."""
        if not self.active:
            return
        self._epoch += 1  # the others' `open`s heard from now on are newer than any of ours we missed
        self._lists.clear()  # a full list's later parts may have been missed
        self.announce_all(answer=True)
        self._fence = self._seq  # (the full list's last part)
        self._send(f"{self.origin} {notify.ASK}")

    async def _beats(self) -> None:
        loop = asyncio.get_running_loop()
        next_beat = loop.time() + self.heartbeat
        while True:
            soonest = loop.time() + self.heartbeat
            try:
                soonest = self._expire()
            except Exception:  # one failure must not end the heartbeat: the others would see us gone
                log.exception("presence: expiring the other processes' entries failed")
            await asyncio.sleep(max(0.0, min(next_beat, soonest) - loop.time()))
            if loop.time() >= next_beat:
                next_beat = loop.time() + self.heartbeat
                try:
                    self.announce_all()
                except Exception:
                    log.exception("presence: the heartbeat failed")

    def _send(self, payload: str) -> None:
        """Queue a notice; one task sends them in order (a notice overtaking another would
        say the wrong thing last, and a notice heard back must mean the earlier ones were)."""
        self._outbox.append(payload)
        if self._sender is None or self._sender.done():
            self._sender = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # the notices of this turn of the loop go in one transaction
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                await self._commit(batch)
            except notify.MaybeSent as exc:
                # perhaps committed: our `open`s stay unheard until a later notice of ours is
                # back (`_not_heard`); read as never sent, a rival's and ours both closed
                self.outage.failed(exc.__cause__ or exc)
            except Exception as exc:
                # the heartbeat says it again; an `open` not sent will never come back
                self.outage.failed(exc)
                self._unsent(batch)
            else:
                self.outage.succeeded()

    async def _commit(self, batch: list[str]) -> None:
        """NOTIFY `batch` in one transaction, in the storage threads.  The next batch waits
        for it even when the database stalls beyond `storage_seconds` (as `Hub.db` would
        not): our notices must be committed in the order of their numbers, since one heard
        back is what tells us that an earlier `open` was not heard."""
        loop = asyncio.get_running_loop()
        sent = loop.run_in_executor(self.hub.db_pool, notify.send_notices, self.hub.storage.engine, batch)
        try:
            await asyncio.wait_for(asyncio.shield(sent), self.hub.limits.storage_seconds)
        except TimeoutError as exc:  # (waited for all the same: said once for the stall, as a failure)
            self.outage.failed(exc, f"no answer within {self.hub.limits.storage_seconds:g} s; waiting for it")
            await sent

    def _unsent(self, batch: list[str]) -> None:
        """The notices of `batch` were not committed: our `open`s among them never reach
        the channel, so a rival's heard meanwhile is the newer (its process keeps its
        connection): we close ours at once.  Without a rival the `open` stays unheard, and
        is said again once a later notice of ours is back (`_not_heard`)."""
        for payload in batch:
            words = payload.split(" ")
            if words[1] != notify.OPEN:
                continue
            seq, table_id, seat = notify.read_open(words[2:])
            key = (table_id, seat)
            if self._unheard.get(key) == seq and self._rivals.pop(key, None) is not None:
                del self._unheard[key]
                t = self.hub.tables.get(table_id)
                if t is not None and t.replace_seat(seat):
                    self.changed(t)


class Writes:
    """Whether the database takes writes.  The first write it refuses (a full disk, a
    read-only file, a lock held elsewhere, no answer) is said in the log in one line, and
    so is the first that succeeds after it; the writes refused in between are counted, not
    logged (a traceback per move, each with the statement, flooded the log).  While writes
    fail, /healthz answers 503 and bots wait (`back`)."""

    def __init__(self, hub: "Hub"):
        self.hub = hub
        self.failing_since: float | None = None  # loop time of the first refused write
        self.reason = ""
        self.refused = 0
        self._back = asyncio.Event()
        self._back.set()
        self._probe: asyncio.Task | None = None
        self._probed_at = float("-inf")

    @property
    def failing(self) -> bool:
        return self.failing_since is not None

    def failed(self, exc: BaseException) -> None:
        if isinstance(exc, (Conflict, EarlierUnsaved, Refused, asyncio.CancelledError)):
            return  # a race lost or a request refused: the database wrote what it was given
        if not whole_database(exc):  # one write's own failure (a bug), not the database's: each is told
            log.error("storage: a write failed (%s)", failure_text(exc), exc_info=exc)
            return
        self.refused += 1
        if self.failing_since is not None:
            return
        self.failing_since = asyncio.get_running_loop().time()
        self.reason = (f"no answer within {self.hub.limits.storage_seconds:g} s" if isinstance(exc, TimeoutError)
                       else failure_text(exc))
        self._back.clear()
        log.error("storage: the database refuses writes: %s (%s): moves, new tables and names are refused "
                  "until it takes them again", CAUSE_WORDS[failure_cause(exc)], self.reason)

    def succeeded(self) -> None:
        if self.failing_since is None:
            return
        took = asyncio.get_running_loop().time() - self.failing_since
        log.warning("storage: the database takes writes again, after %.0f s (%d writes refused meanwhile)",
                    took, self.refused)
        self.failing_since, self.reason, self.refused = None, "", 0
        self._back.set()

    async def back(self, most: float) -> None:
        """Wait until the database takes writes again, `most` seconds at the most."""
        try:
            await asyncio.wait_for(self._back.wait(), most)
        except TimeoutError:
            pass

    async def check(self) -> bool:
        """True if the database takes writes.  While it does not, try one
        (`Storage.probe_write`), at most every PROBE_SECONDS however many ask: with no
        player and no bot writing, nothing else would notice the disk freed up."""
        if not self.failing:
            return True
        now = asyncio.get_running_loop().time()
        if (self._probe is None or self._probe.done()) and now - self._probed_at >= PROBE_SECONDS:
            self._probed_at = now
            self._probe = asyncio.ensure_future(self.hub.write(self.hub.storage.probe_write))
        if self._probe is not None and not self._probe.done():
            try:
                await asyncio.shield(self._probe)
            except Exception:  # still failing: counted by `write`
                pass
        if self._probe is not None and self._probe.done() and not self._probe.cancelled():
            self._probe.exception()  # retrieved: no "never retrieved" warning
        return not self.failing


class Hub:
    """Every live table of this server process, loaded on first use."""

    def __init__(self, storage: Storage, bot_delay: float = 0.7, bots: BotPool | None = None,
                 limits: Limits | None = None, presence_heartbeat: float = 10.0, presence_expiry: float = 30.0,
                 deal_seed: int | None = None):
        self.storage = storage
        # each new table's seed (its deal, its chance and its bots'): from the system's
        # entropy, or with `deal_seed` (`serve --seed`) from a sequence that deals the same
        # tables again in the same order (demos, lessons, tests that must not vary)
        self._seeds = random.Random(deal_seed) if deal_seed is not None else None
        self.limits = limits or Limits()
        # storage calls run here, off the event loop: a stalled database holds up only the
        # requests that need it (and each gives up after limits.storage_seconds)
        self.db_pool = cf.ThreadPoolExecutor(8, thread_name_prefix="db")
        self.writes = Writes(self)
        # requests' reads failing for the database as a whole, said once per outage (app.py)
        self.reads = Outage("reading the database", log, logging.ERROR)  # (as each such failure was)
        self.committer = Committer(storage, run=self.write, late=self._moves_stored_late)
        self.bot_delay = bot_delay
        self.bots = bots or BotPool(self.limits.workers())
        self.sockets = SocketCounter(self.limits)
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Future] = {}
        # table id -> its moves in doubt and stored after all (Doubt), for as long as there
        # are any, at most MAX_DOUBTS tables (the oldest forgotten first: a move in doubt at a
        # table never read again, whose transaction failed, is never settled)
        self.doubts: dict[str, Doubt] = {}
        self._tasks: set[asyncio.Task] = set()
        self.running = True
        # who is online in the other processes (inactive until `presence.start`: SQLite, tests)
        self.presence = Presence(self, presence_heartbeat, presence_expiry)

    async def db(self, fn, *args, late=None):
        """`fn(*args)` in the storage threads; TimeoutError (answered 503) when the database stalls.
        The thread goes on after that (or after the request was cancelled): `late(result)` is
        called should `fn` then succeed after all.  With `late`, the TimeoutError is a
        WriteInDoubt, whose failure after all the log says and `when_lost` tells."""
        loop = asyncio.get_running_loop()
        running = loop.run_in_executor(self.db_pool, fn, *args)
        if late is None:
            result = await asyncio.wait_for(running, self.limits.storage_seconds)
        else:
            try:
                result = await asyncio.wait_for(asyncio.shield(running), self.limits.storage_seconds)
            except BaseException as exc:
                timed_out = isinstance(exc, TimeoutError)
                running.add_done_callback(lambda f: self._ended_late(f, late, timed_out))
                if timed_out:
                    raise WriteInDoubt(self.limits.storage_seconds, running) from None
                raise
        if self.reads.failing:  # the database answers again
            self.reads.succeeded()
        return result

    def _ended_late(self, ended: asyncio.Future, late, timed_out: bool) -> None:
        """A write whose request had ended (no answer in time, or cancelled) has ended too:
        stored after all, `late` hears of it; failed after its request was told it may
        still be saved, the log says so (who was told hears through `when_lost`)."""
        if ended.cancelled():
            return
        exc = ended.exception()
        if exc is None:
            late(ended.result())
        elif timed_out and isinstance(exc, Conflict):  # (another write came first: a race lost)
            log.info("storage: a write that had no answer in time was not stored after all: another "
                     "write came first")
        elif timed_out:
            log.error("storage: a write that had no answer in time failed after all, so it is not stored: "
                      "%s (%s)", CAUSE_WORDS[failure_cause(exc)], failure_text(exc))

    async def write(self, fn, *args, late=None):
        """`db` for a write: a refused one is counted in `writes` (and raised), one that
        succeeds ends an outage."""
        try:
            result = await self.db(fn, *args, late=late)
        except Exception as exc:
            self.writes.failed(exc)
            raise
        self.writes.succeeded()
        return result

    async def store(self, stored: Stored, fn, *args, late=None, lost=None):
        """`write` for what a person asked for (a new table, a rematch, a name): a failure
        is the request's refusal, saying what was not saved and why (`storage_refusal`),
        as a move's is.  `lost(exc)`: the write, in doubt, failed after all (`when_lost`)."""
        try:
            return await self.write(fn, *args, late=late)
        except (sa.exc.SQLAlchemyError, TimeoutError) as exc:
            if lost is not None:
                when_lost(exc, lost)
            raise storage_refusal(exc, stored) from None

    def move_lost(self, table_id: str, entry: tuple[int, int, str, Any], failure: BaseException,
                  read_first: bool = True) -> None:
        """A person's move whose write had no answer in time (in doubt, `entry` as
        LiveTable.in_doubt) failed after all: the table forgets it (it can be made again
        as any move, and is never taken for one stored after all) and its mover is told,
        unless it was settled meanwhile (the position passed its number) or the same move,
        sent again, is in the game now (its own answer tells its fate).  The table shows
        the game without it already: read back when it was refused."""
        d = self.doubts.get(table_id)
        if d is None or entry not in d.moves:
            return
        t = self.tables.get(table_id)
        if read_first and isinstance(failure, Conflict) and t is not None and self.running:
            # another write took its number: perhaps this very move, sent again, whose
            # commit is heard through the loop as this failure is and may not have been
            # read here yet — its mover was told "not saved after all" and never that it
            # was stored, over a table showing it.  What is stored is read first: the
            # reading settles it (`stored_late`: accepted, or lost to the move it holds),
            # else (another write took the version: a stand-in) it is lost as before.  A
            # catch-up under way (the commit's own, begun first) ends before: read again
            # only if that left it in doubt (each read after a failed write reloads)
            async def once_read() -> None:
                async with t.lock:
                    pass
                if entry in t.in_doubt:
                    await t.stored_late(t.version + 1)
                self.move_lost(table_id, entry, failure, read_first=False)
            self._background(once_read())
            return
        d.moves.discard(entry)
        self.tidy_doubt(table_id)
        if t is not None and not t._holds(entry):
            t.tell_unsaved_after_all(entry[1], Stored.MOVE, failure)

    def queued_move_lost(self, table_id: str, entry: tuple[int, int, str, Any], failure: BaseException) -> None:
        """A person's move (`entry` as LiveTable.in_doubt) that was queued behind a move in
        doubt, and refused so (`server.earlier_in_doubt`: never written), whose write then
        failed after all: its sender is told their move was not saved, since the one before
        it was not (`server.earlier_unsaved_after_all`, as `move_lost` tells that one's
        mover) — unless the seat has moved since the position its request was based on (it
        was answered by that move, which the table shows).  The table shows the game as
        stored already: read back when the move was refused."""
        t = self.tables.get(table_id)
        if t is None:  # (not in memory: nobody watches it)
            return
        seat, based_on = entry[1], entry[3]
        if any(e[0] == seat for e in t.state.history[based_on:]):
            return
        t.tell_unsaved_after_all(seat, Stored.EARLIER_MOVE, failure)

    def doubt(self, table_id: str) -> Doubt:
        """The table's Doubt, made if need be (and kept as the newest)."""
        d = self.doubts.pop(table_id, None) or Doubt()
        self.doubts[table_id] = d
        while len(self.doubts) > MAX_DOUBTS:
            del self.doubts[next(iter(self.doubts))]
        return d

    def tidy_doubt(self, table_id: str) -> None:
        """Forget the table's Doubt once nothing is in it."""
        d = self.doubts.get(table_id)
        if d is not None and not d.moves and not d.after_all:
            del self.doubts[table_id]

    def _when_loaded(self, table_id: str, work) -> None:
        """`work(table)` once the table being loaded now (`open`) is in memory: what it read
        may have been read before a write it must show (the write's news found no table
        here to tell).  Nothing if it is not being loaded."""
        loading = self._loading.get(table_id)
        if loading is None:
            return

        def loaded(f: asyncio.Future) -> None:
            if not f.cancelled() and f.exception() is None and self.running:
                self._background(work(f.result()))
        loading.add_done_callback(loaded)

    def _unmake(self, table_id: str) -> None:
        """A new table committed after its request was answered as refused (no answer in
        time): nobody was given its tokens, so it goes again — else it stayed in the lobby
        for ever, its seats for nobody."""
        log.warning("storage: table %s was stored only after its request had been refused; it is removed",
                    table_id)
        self.forget(table_id)

        async def remove() -> None:
            try:
                await self.write(self.storage.delete_table, table_id)
            except Exception as exc:
                log.error("storage: table %s, stored too late, could not be removed (%s)", table_id,
                          failure_text(exc) if not isinstance(exc, TimeoutError) else "no answer")
        self._background(remove())

    def _moves_stored_late(self, progress: list[Progress]) -> None:
        """Moves whose transaction committed after their requests had been answered as
        refused (no answer within `storage_seconds`): they stand (the database holds them,
        and every later write was checked against them), so each table holding them here
        shows them now (`LiveTable.stored_late`).  Not in memory: read as stored when next
        opened."""
        log.warning("storage: %d move(s) were stored only after their requests had been refused; "
                    "they are shown", sum(len(p.moves) for p in progress))
        self.writes.succeeded()  # (a write committed: the database takes them again)
        versions: dict[str, int] = {}
        for p in progress:
            versions[p.table_id] = max(versions.get(p.table_id, 0), p.version + 1)
        for table_id, version in versions.items():
            t = self.tables.get(table_id)
            if t is None:
                # being read again from the database (a page reloaded after the table left
                # memory): that read may have come before this commit, and the copy made
                # from it was shown without the move for good — every page of it showing a
                # game the database no longer held, until a move there lost its race
                self._when_loaded(table_id, lambda loaded, v=version: loaded.stored_late(v))
            elif self.running:
                self._background(t.stored_late(version))

    def forget(self, table_id: str) -> None:
        t = self.tables.pop(table_id, None)
        if t is not None:
            for c in list(t.conns):
                c.close()

    async def open(self, table_id: str) -> LiveTable:
        """The live table, loaded from the database on first use (once, however many ask)."""
        t = self.tables.get(table_id)
        if t is not None:
            t.last_used = asyncio.get_running_loop().time()  # in use: the last to leave the cache
            return t
        # only the alphabet of `new_table_id` reaches the database: PostgreSQL refuses a NUL in
        # a string, so `/api/tables/%00` was a 503 "database down" (and an error in the log)
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise Refused("no_table", Reason("server.no_table"), 404)
        loading = self._loading.get(table_id)
        if loading is not None:
            return await asyncio.shield(loading)
        loading = self._loading[table_id] = asyncio.get_running_loop().create_future()
        try:
            t = await self._load(table_id)
            loading.set_result(t)
            return t
        except BaseException as exc:
            loading.set_exception(exc)
            loading.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> LiveTable:
        row = await self.db(self.storage.load_table, table_id)
        if row is None:
            raise Refused("no_table", Reason("server.no_table"), 404)
        try:
            t = LiveTable.from_row(self, row)
        except (BadRecord, ReplayError, WasserspieleError) as exc:
            # why goes to the log only: the engine's reason may name a hidden card
            log.error("table %s cannot be rebuilt: %s", table_id, exc)
            raise Refused("broken_table", Reason("server.broken_table", table=table_id), 500) from None
        self.tables[table_id] = t
        # moves in doubt stored while it was not in memory: a seat sending one again is told so
        t._settle_doubts()
        t.schedule_bots()
        self.trim(keep=t)
        return t

    async def current(self, table: LiveTable) -> LiveTable:
        """`table`, or its copy loaded anew if it left memory while a request awaited
        something (swept, pushed out of the cache): a move is applied to the copy the
        table's clients watch, never to one that left."""
        while self.tables.get(table.id) is not table:
            table = await self.open(table.id)
        return table

    async def resume_all(self) -> None:
        """After a restart: load the unfinished tables where a bot is to move, so their
        bots carry on (tables waiting for people stay in the database until asked for)."""
        for table_id in await self.db(self.storage.unfinished_ids, True):
            try:
                t = await self.open(table_id)
            except Refused as exc:
                log.error("%s", exc.reason)
                continue
            if not t.bot_seats_to_move() and not t.conns:  # flagged before the flag was kept up
                try:
                    await self.write(self.storage.set_bot_turn, t.id, t.version, False)
                except Exception:  # only a shortcut for the next start-up: said once by `writes`
                    pass
                self.tables.pop(t.id, None)

    def on_notice(self, table_id: str, version: int) -> None:
        """Another process committed `version` of a table: catch up if this one holds it.
        The version here counts moves not yet stored (they may lose their race) and a reload
        may be reading an older row: only a table at rest, at that version, can skip it."""
        t = self.tables.get(table_id)
        if t is None:  # (being loaded: its read may have come before that commit)
            self._when_loaded(table_id, lambda loaded, v=version: loaded.catch_up(v))
            return
        if t.version >= version and not (t.unsaved or t._save_failed or t.lock.locked()):
            return
        self._background(t.catch_up(version))

    def catch_up_all(self) -> None:
        """After notifications may have been missed (the listener reconnected)."""
        for t in list(self.tables.values()):
            self._background(t.reload())
        self.presence.reconnected()

    def _background(self, work) -> None:
        """Run `work` as a task held until it ends (the loop keeps only weak references)."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._background_ended)

    def _background_ended(self, task: asyncio.Task) -> None:
        """A failure of work nobody awaits is logged with its cause as it happens: it was
        "Task exception was never retrieved", whenever the task was collected, or nothing."""
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work %s failed", task.get_coro().__qualname__, exc_info=task.exception())

    @staticmethod
    def _at_rest(t: LiveTable) -> bool:
        """Nobody watches `t`, no bot is moving there and nothing of it is unsaved: it is
        only a copy of what the database holds, and may leave memory."""
        return (not t.conns and (t.bot_task is None or t.bot_task.done())
                and not t.lock.locked() and not t.unsaved)

    def sweep(self) -> int:
        """Drop tables nobody has used for `idle_seconds` (no clients, no bot thinking);
        they come back from the database when asked for.  Returns how many left."""
        now = asyncio.get_running_loop().time()
        idle = [t for t in self.tables.values()
                if self._at_rest(t) and now - t.last_used >= self.limits.idle_seconds]
        for t in idle:
            del self.tables[t.id]
        return len(idle)

    def trim(self, keep: LiveTable | None = None) -> int:
        """Keep at most `unwatched_tables` tables at rest in memory (besides `keep`, the one
        just loaded): the least recently used leave at once.  Without it every table read
        (a finished game's record and replay, a lobby link, an abandoned table) stayed for
        `idle_seconds` whoever asked, so memory grew with the number of tables read in ten
        minutes, without a bound (a crawler reading 10,000 finished tables held 10,000
        games in memory).  Returns how many left."""
        most = self.limits.unwatched_tables
        if len(self.tables) <= most:
            return 0
        resting = [t for t in self.tables.values() if t is not keep and self._at_rest(t)]
        if len(resting) <= most:
            return 0
        resting.sort(key=lambda t: t.last_used)
        gone = resting[:len(resting) - most]
        for t in gone:
            del self.tables[t.id]
        return len(gone)

    async def sweeper(self) -> None:
        while self.running:
            await asyncio.sleep(max(1.0, self.limits.idle_seconds / 4))
            self.sweep()

    async def _check_room(self, creator: str, bot_seats: int) -> None:
        """Refuse a table one client or the whole server has no room for."""
        lim = self.limits
        since = lim.open_since(dt.datetime.now(dt.timezone.utc))
        c = await self.db(self.storage.open_counts, creator, since)
        if c["my_tables"] >= lim.tables_per_client:
            # there is no leaving a table: what frees room is finishing one, or a table left
            # without a move for `open_hours` (unless that is more than a year: no wait to offer)
            n, most = c["my_tables"], lim.tables_per_client
            if lim.open_hours <= 24 * 366:
                raise Refused("too_many", Reason("server.client_tables", n=n, most=most, hours=f"{lim.open_hours:g}"), 429)
            raise Refused("too_many", Reason("server.client_tables_kept", n=n, most=most), 429)
        if c["tables"] >= lim.tables_per_server:
            raise Refused("too_many", Reason("server.server_tables", most=lim.tables_per_server), 503)
        if bot_seats and c["my_bot_seats"] + bot_seats > lim.bot_seats_per_client:
            raise Refused("too_many", Reason("server.client_bot_seats", n=c["my_bot_seats"], more=bot_seats,
                                              most=lim.bot_seats_per_client), 429)
        if bot_seats and c["bot_seats"] + bot_seats > lim.bot_seats_per_server:
            raise Refused("too_many", Reason("server.server_bot_seats", most=lim.bot_seats_per_server), 503)

    async def create(self, body: Any, client: str = "local") -> tuple[LiveTable, dict[int, str]]:
        """A new table from a lobby request; returns it and the fresh seat tokens."""
        row, state, tokens = await self._new_table(body, client)
        await self.store(Stored.TABLE, self.storage.create_table, row, late=lambda _: self._unmake(row.id))
        return self._register(row, state), tokens

    def _register(self, row: TableRow, state: State) -> LiveTable:
        """A table just stored: in memory from now on, its bots started."""
        table = self.tables.get(row.id)
        if table is None:  # (else someone asked for it meanwhile and it was loaded)
            table = self.tables[row.id] = LiveTable(self, row, state)
        table.schedule_bots()
        self.trim(keep=table)
        return table

    async def rematch(self, table: LiveTable, seat: int, token: str, client: str = "local") -> tuple[str, str]:
        """The rematch of the finished `table` for the seat holding `token` (its token there,
        checked by the caller): (the rematch's id, the seat's token at it).  The first seat
        to ask creates it — the same game, options and seats, the players' names — and
        every seat that asks afterwards, after a reload, a restart or through another
        process, joins that one: the id is stored with the finished table, and the database
        decides which of two racing requests makes it.  Each seat's token at the rematch is
        derived from its token here (`rematch_token`); its hash is stored when it asks."""
        await table.until_saved()  # the last move is committed (or refused) first
        if not table.state.is_terminal():
            raise Refused("running", Reason("server.rematch_running"), 409)
        # memory may not know it yet (another process made it): the database is asked
        rematch_id = table.rematch or await self.db(self.storage.rematch_of, table.id)
        if rematch_id is None:
            rematch_id = await self._create_rematch(table, seat, token, client)
        mine = rematch_token(token, rematch_id, seat)
        if rematch_id not in self.tables or self.tables[rematch_id].seats[seat].token_hash is None:
            # committed late (no answer in time), the claim is known here too: the seat asking
            # again is given its link without another write (which an outage would refuse)
            await self.store(Stored.REMATCH, self.storage.claim_seat, rematch_id, seat, hash_token(mine),
                             late=lambda _: self._seat_claimed(rematch_id, seat, hash_token(mine), late=True),
                             lost=lambda failure: table.tell_unsaved_after_all(seat, Stored.REMATCH, failure))
            self._seat_claimed(rematch_id, seat, hash_token(mine))
        if table.rematch != rematch_id:
            table.rematch = rematch_id
            table.broadcast()                     # the other seats see that it exists
        return rematch_id, mine

    async def _create_rematch(self, table: LiveTable, seat: int, token: str, client: str) -> str:
        """Make the rematch of `table`, unless the database says another request made one
        first; its id either way (the asking seat's token hash is stored with a new one)."""
        options = table.game.non_default_options()
        if any(o.name == "players" for o in table.game.option_list):
            options["players"] = table.game.players
        body = {"game": table.game.name, "options": options,
                "seats": [{"kind": s.kind, "level": s.level} if s.kind != HUMAN else {"kind": HUMAN}
                          for s in table.seats]}
        row, state, _ = await self._new_table(body, client)
        for old, fresh in zip(table.seats, row.seats):
            fresh.name = old.name              # the same people: their names come along
            fresh.token_hash = None            # a seat's token is known once its player asks
        row.seats[seat].token_hash = hash_token(rematch_token(token, row.id, seat))
        made, version = await self.store(Stored.REMATCH, self.storage.create_rematch, table.id, row,
                                         late=lambda got: self._rematch_made_late(table.id, row, state, *got),
                                         lost=lambda failure: table.tell_unsaved_after_all(seat, Stored.REMATCH,
                                                                                          failure))
        if made is None:  # the last move was refused after all: the game goes on
            raise Refused("running", Reason("server.rematch_running"), 409)
        if made == row.id:
            if self.tables.get(table.id) is table:
                table.version = version
            self._register(row, state)
        return made  # else another request was first (here or in another process): join its rematch

    def _seat_claimed(self, table_id: str, seat: int, token_hash: str, late: bool = False) -> None:
        """A rematch's seat whose token hash is stored: the copy in memory takes it too.
        `late`: stored only after its request had been answered as refused; the seat is
        its player's all the same (the token is derived from theirs, asking again gives it)."""
        if late:
            log.warning("storage: seat %d of the rematch %s was claimed only after its request had been "
                        "refused; it is kept", seat, table_id)
        live = self.tables.get(table_id)
        if live is not None and live.seats[seat].token_hash is None:
            live.seats[seat].token_hash = token_hash

    def _rematch_made_late(self, table_id: str, row: TableRow, state: State, made: str | None,
                           version: int) -> None:
        """A rematch whose write committed only after its request had been answered as
        refused (no answer within `storage_seconds`).  Unlike a new table (`_unmake`) it
        stays: the finished table links it in the same transaction, and a seat that asks
        — its player again too — joins it with the token derived from its own, so nobody's
        place is lost.  It is made known as if in time: the finished table's pages are
        offered to join it (before, they offered a new rematch while the database held
        one, until a reload), and its bots start."""
        live = self.tables.get(table_id)
        if made == row.id:
            log.warning("storage: the rematch %s of table %s was stored only after its request had been "
                        "refused; it is kept", row.id, table_id)
            if live is not None:
                live.version = max(live.version, version)
            if self.running:  # (shutting down: its bots start when it is next loaded)
                self._register(row, state)
        if made is not None and live is not None and live.rematch != made:
            live.rematch = made
            live.broadcast()

    async def _new_table(self, body: Any, client: str) -> tuple[TableRow, State, dict[int, str]]:
        """A table from a lobby request, not yet stored: its row, its state and the fresh
        seat tokens.  The request is checked against the limits."""
        spec = schemas.load(schemas.CreateTable, body)
        options = dict(spec.options or {})
        try:
            m = manifest(spec.game)
            lo, hi = m.players
            if spec.seats is not None and "players" not in options and lo != hi:
                # a game for a varying number of players is played by as many as the seats
                # listed, as the terminal's --seats sets it, when no `players` option says otherwise
                if not lo <= len(spec.seats) <= hi:
                    raise Refused("bad_request", Reason("server.seat_range", game=m.name, lo=lo, hi=hi,
                                                        given=len(spec.seats)))
                options["players"] = len(spec.seats)
            game = load(spec.game, **options)
        except UnknownGame as exc:
            raise Refused("bad_request", exc.reason) from None  # the registry names the games
        except BadOption as exc:
            raise Refused("bad_option", exc.reason) from None  # which option, in the client's words
        seats_in = spec.seats
        if seats_in is None:
            seats_in = [schemas.SeatSpec(kind=HUMAN)] + [schemas.SeatSpec(kind=BOT, level="medium")] * (game.players - 1)
        if len(seats_in) != game.players:
            raise Refused("bad_request", Reason("server.seat_count", players=game.players, game=game.name))
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats_in):
            if s.kind == BOT:
                level = s.level or "medium"
                if level not in level_names():
                    raise Refused("bad_request", Reason("server.level_unknown", seat=i, level=level,
                                                        levels=", ".join(level_names())))
                seats.append(SeatRow(i, BOT, level, None))
            else:
                if s.level is not None:
                    raise Refused("bad_request", Reason("server.human_level", seat=i))
                token = secrets.token_urlsafe(24)
                tokens[i] = token
                seats.append(SeatRow(i, HUMAN, None, hash_token(token)))
        creator = hash_token(f"client:{client}")
        await self._check_room(creator, sum(s.kind == BOT for s in seats))
        seed = self._seeds.getrandbits(62) if self._seeds is not None else secrets.randbits(62)
        state = game.new_game(rng=chance_rng(seed, 0))
        state.chance.rng = chance_rng(seed, 1)
        from .storage import now
        row = TableRow(id=new_table_id(), game=game.name, options=game.non_default_options(),
                       players=game.players, seed=seed, setup=state.chance.used_setup(),
                       status="over" if state.is_terminal() else "running", created=now(), seats=seats,
                       creator=creator)
        row.bot_turn = not state.is_terminal() and any(seats[s].kind == BOT for s in state.to_move())
        return row, state, tokens

    async def shutdown(self) -> None:
        self.running = False
        await self.presence.stop()  # the others drop this process's seats at once
        for t in list(self.tables.values()):
            if t.bot_task is not None:
                t.bot_task.cancel()
            for c in list(t.conns):
                c.close()
        self.bots.close()
        self.db_pool.shutdown(wait=False)
