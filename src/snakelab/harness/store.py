"""Results in SQLite: every finished match stored as it arrives, runs resumable.

A *run* is one bench, sweep or tournament: a planned, ordered list of
:class:`~snakelab.harness.match.MatchSpec`. The store keeps two tables:

``runs``
    ``id`` (an integer, the run id users type), ``created`` (UTC, ISO 8601),
    ``label``, ``command`` (the command line that started it), ``game`` (the game
    strings it plays, comma-separated), ``agents`` (JSON list of distinct agent
    names), ``run_seed`` (if the caller gave one), ``planned`` (number of matches),
    ``specs_hash`` (a digest of the planned specs), ``done`` (matches stored) and
    ``finished`` (UTC time the last match was stored, or NULL).
``plans``
    ``run_id`` and ``specs``: every planned spec of the run (zlib-compressed JSON
    list), written with the run; ``--resume`` continues exactly this plan.
``matches``
    ``run_id``, ``idx`` (position in the run), ``seed``, ``spec`` and ``result``
    (JSON; a stored result reads back equal to the one played, except that
    per-move times are kept at 0.1 µs resolution, compressed).

Each match is written in its own transaction the moment it arrives, in WAL mode,
so a killed process (even SIGKILL) loses at most the matches still being played;
``synchronous=NORMAL`` means a power cut could also drop the last few commits,
which is the usual WAL trade-off. Several processes may share one store file.

Where the store lives: ``results.sqlite`` in snakelab's folder of the user's data
directory (``platformdirs.user_data_dir("snakelab")``, e.g. ``~/.local/share/snakelab`` on
Linux), never the current folder, so a bench leaves nothing where it is run. That
folder is created on first use; it is snakelab's own. ``$SNAKELAB_STORE`` (or
``snakelab --store PATH ...``, which sets it for one command) names another file, whose folder must
already exist: a mistyped path is refused rather than silently creating folders.
``off`` turns storing off for the CLI. ``snakelab results list`` prints the store's path.

One module, one idea: the store's three tables and everything that reads or writes
them — where the file lives, the JSON forms of specs and results, the run and resume
bookkeeping, and :func:`run_stored`, which plays a plan into the store. Splitting the
JSON forms or the run driver away would spread one schema over several files.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar, cast

from snakelab.core.errors import SnakelabError
from snakelab.core.game import JSON, Budget, Outcome
from snakelab.harness.match import MatchResult, MatchSpec
from snakelab.harness.run import RunHooks, run_many
from snakelab.harness.runlock import RunLock

DEFAULT_STORE = "results.sqlite"
"""File name of the default store, in the user's data folder (see :func:`default_store_file`)."""

STORE_ENV = "SNAKELAB_STORE"
"""Environment variable naming the store path (``off`` disables storing)."""

_OFF = ("off", "none", "no", "0", "false")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    label TEXT NOT NULL,
    command TEXT NOT NULL,
    game TEXT NOT NULL,
    agents TEXT NOT NULL,
    run_seed INTEGER,
    planned INTEGER NOT NULL,
    specs_hash TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0,
    finished TEXT
);
CREATE TABLE IF NOT EXISTS plans (
    run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    specs BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS matches (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    spec TEXT NOT NULL,
    result TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
"""


_RUN_COLUMNS = "id, created, label, command, game, agents, run_seed, planned, done, finished"


class StoreError(SnakelabError):
    """The results store cannot be opened or does not hold what was asked for."""


class UnknownRunError(StoreError, LookupError):
    """No run with that id in the store."""

    def __str__(self) -> str:
        # LookupError would quote the message like a dict key; keep it plain.
        return str(self.args[0]) if self.args else ""


class ResumeMismatchError(StoreError):
    """``--resume`` was given options that plan different matches than the stored run."""


def default_store_file() -> Path:
    """The default store file, ignoring ``$SNAKELAB_STORE``: ``results.sqlite`` in the user's data folder."""
    import platformdirs

    return Path(platformdirs.user_data_dir("snakelab", appauthor=False)) / DEFAULT_STORE


def default_store_path() -> Path | None:
    """The store the CLI uses: ``$SNAKELAB_STORE``, else :func:`default_store_file`.

    Returns:
        The path, or None when ``$SNAKELAB_STORE`` is ``off`` (storing disabled).
    """
    env = os.environ.get(STORE_ENV, "").strip()
    if env.lower() in _OFF:
        return None
    return Path(env).expanduser() if env else default_store_file()


# -- JSON forms ----------------------------------------------------------------


def spec_to_json(spec: MatchSpec) -> dict[str, JSON]:
    """A match spec as JSON (inverse: :func:`spec_from_json`)."""
    # Field by field rather than dataclasses.asdict, whose deep copies cost more
    # than the rest of storing a match.
    out: dict[str, JSON] = {f: getattr(spec, f) for f in _SPEC_FIELDS}
    out["agents"] = list(spec.agents)
    if spec.budget is not None:
        out["budget"] = dataclasses.asdict(spec.budget)
    return out


_SPEC_FIELDS = tuple(f.name for f in dataclasses.fields(MatchSpec))
_RESULT_FIELDS = tuple(f.name for f in dataclasses.fields(MatchResult))


def spec_from_json(data: dict[str, JSON]) -> MatchSpec:
    """Rebuild a :class:`MatchSpec` written by :func:`spec_to_json`."""
    kwargs = {k: v for k, v in data.items() if k in _SPEC_FIELDS}
    kwargs["agents"] = tuple(kwargs["agents"])
    if kwargs.get("budget") is not None:
        kwargs["budget"] = Budget(**kwargs["budget"])
    return MatchSpec(**kwargs)


_TIME_UNIT_S = 1e-7
"""Resolution of stored move times: 0.1 µs, far below what a Python clock read can resolve."""


def _pack_times(times: Sequence[float]) -> str:
    """Move times as zlib-compressed little-endian uint32 counts of 0.1 µs, in base64.

    Raw JSON floats took ~600 KB per measured 6,000-step arena game; this takes ~20 KB.
    """
    import numpy as np  # here, not at the top: the CLI's verbs import this module and most never pack

    units = np.minimum(np.rint(np.asarray(times, dtype=np.float64) / _TIME_UNIT_S), 2**32 - 1)
    return base64.b64encode(zlib.compress(units.astype("<u4").tobytes(), 6)).decode("ascii")


def _unpack_times(text: str) -> list[float]:
    import numpy as np

    units = np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype="<u4")
    return (units.astype(np.float64) * _TIME_UNIT_S).tolist()


def result_to_json(result: MatchResult) -> dict[str, JSON]:
    """A match result as JSON (inverse: :func:`result_from_json`).

    Everything is kept exactly except per-move times, which are kept at 0.1 µs
    resolution in a compressed form (``{"unit_s", "u32_zlib_b64": [...]}``).
    """
    out: dict[str, JSON] = {}
    for name in _RESULT_FIELDS:
        value = getattr(result, name)
        if isinstance(value, Outcome):
            value = value.to_json()
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    if result.move_times:
        out["move_times"] = {"unit_s": _TIME_UNIT_S, "u32_zlib_b64": [_pack_times(t) for t in result.move_times]}
    return out


def result_from_json(data: dict[str, JSON]) -> MatchResult:
    """Rebuild a :class:`MatchResult` written by :func:`result_to_json`."""
    kwargs = {k: v for k, v in data.items() if k in _RESULT_FIELDS}
    kwargs["agents"] = tuple(kwargs["agents"])
    kwargs["outcome"] = Outcome.from_json(kwargs["outcome"])
    times = kwargs.get("move_times")
    if isinstance(times, dict):
        kwargs["move_times"] = [_unpack_times(t) for t in times["u32_zlib_b64"]]
    return MatchResult(**kwargs)


def specs_digest(specs: Sequence[MatchSpec]) -> str:
    """A digest of a planned run; resuming checks that the plan did not change."""
    h = hashlib.sha256()
    for spec in specs:
        h.update(json.dumps(spec_to_json(spec), sort_keys=True).encode())
        h.update(b"\n")
    return h.hexdigest()


# -- the store -----------------------------------------------------------------


@dataclass(frozen=True)
class RunInfo:
    """One row of the ``runs`` table plus the number of stored matches.

    Attributes:
        id: The run id.
        created: UTC creation time, ISO 8601.
        label: What the run is (the progress bar label).
        command: The command line that started it.
        game: Game strings played, comma-separated.
        agents: Distinct agent names, in first-seen order.
        run_seed: The run seed, when the caller recorded it.
        planned: Matches planned.
        done: Matches stored so far.
        finished: UTC time the last planned match was stored, or None.
    """

    id: int
    created: str
    label: str
    command: str
    game: str
    agents: tuple[str, ...]
    run_seed: int | None
    planned: int
    done: int
    finished: str | None

    def to_json(self) -> dict[str, JSON]:
        """The run as a JSON object."""
        out = dataclasses.asdict(self)
        out["agents"] = list(self.agents)
        return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def parse_run_id(text: str | int) -> int:
    """Read a run id as typed by a user (``"12"``, ``"#12"`` or ``12``).

    Raises:
        UnknownRunError: if it is not a positive integer.
    """
    t = str(text).strip().lstrip("#")
    if not t.isdigit() or int(t) < 1:
        raise UnknownRunError(f"{text!r} is not a run id: run ids are positive integers (see snakelab results list)")
    return int(t)


#: What a damaged store raises while it is read: SQLite's own errors, and the decoders'
#: for a record whose bytes were changed (compressed plan, JSON, a missing field).
_DAMAGE = (sqlite3.Error, zlib.error, ValueError, KeyError, TypeError)

_F = TypeVar("_F", bound=Callable[..., Any])


def _damage_error(store: Store, exc: BaseException) -> StoreError:
    if isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc):
        return StoreError(f"results store {store.path} is busy (locked by another process): {exc}")
    if isinstance(exc, sqlite3.Error):
        what = f"cannot be read ({exc})"
    else:
        what = f"holds a damaged record ({type(exc).__name__}: {exc})"
    return StoreError(
        f"results store {store.path} {what}; it may be damaged: keep a copy, and use another store "
        f"(${STORE_ENV}=PATH) or run 'sqlite3 {store.path} .recover' to save what is left"
    )


def _guarded(method: _F) -> _F:
    """Turn a damaged store's errors inside ``method`` into a :class:`StoreError` naming the file.

    A store can be damaged behind snakelab's back (a disk error, a copy cut short, bytes
    overwritten); every read and write then says so on one line instead of a traceback.
    """

    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except _DAMAGE as exc:
            raise _damage_error(self, exc) from None

    return cast(_F, wrapper)


def _guarded_iter(method: _F) -> _F:
    """:func:`_guarded` for a generator method: errors raised while it is iterated."""

    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Iterator[Any]:
        try:
            yield from method(self, *args, **kwargs)
        except StoreError:
            raise
        except _DAMAGE as exc:
            raise _damage_error(self, exc) from None

    return cast(_F, wrapper)


class Store:
    """A results store in one SQLite file; see the module docstring.

    Every method turns the errors of a damaged file (SQLite's "database disk image is
    malformed", a record that no longer decodes) into a :class:`StoreError` naming the
    file, so the CLI reports them on one line.

    Args:
        path: The database file (created with its tables if missing). Its folder must
            exist, except for the default store's (:func:`default_store_file`), which is
            created on first use.

    Raises:
        StoreError: if the folder does not exist or the file cannot be opened as a
            snakelab store.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        folder = self.path.parent
        try:
            if self.path == default_store_file():
                folder.mkdir(parents=True, exist_ok=True)
            elif not folder.is_dir():
                # A mistyped path must not grow a tree of folders somewhere unexpected.
                what = "is not a folder" if folder.exists() else "does not exist"
                raise StoreError(f"cannot open results store {self.path}: the folder {folder} {what}")
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one per match.
            self._db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"cannot open results store {self.path}: {exc}") from None

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------
    @_guarded
    def create_run(
        self,
        specs: Sequence[MatchSpec],
        label: str,
        *,
        command: str = "",
        run_seed: int | None = None,
    ) -> int:
        """Record a new planned run and return its id."""
        digest = specs_digest(specs)
        games = list(dict.fromkeys(s.game for s in specs))
        agents = list(dict.fromkeys(a for s in specs for a in s.agents))
        plan = zlib.compress(json.dumps([spec_to_json(sp) for sp in specs]).encode())
        with self._tx():
            cur = self._db.execute(
                "INSERT INTO runs (created, label, command, game, agents, run_seed, planned, specs_hash)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (_now(), label, command, ",".join(games), json.dumps(agents), run_seed, len(specs), digest),
            )
            assert cur.lastrowid is not None
            self._db.execute("INSERT INTO plans (run_id, specs) VALUES (?, ?)", (cur.lastrowid, plan))
        return cur.lastrowid

    @_guarded
    def add_match(self, run_id: int, idx: int, spec: MatchSpec, result: MatchResult) -> None:
        """Store one finished match in its own transaction (a repeat of a stored index is ignored)."""
        with self._tx():
            cur = self._db.execute(
                "INSERT OR IGNORE INTO matches (run_id, idx, seed, spec, result) VALUES (?, ?, ?, ?, ?)",
                (run_id, idx, spec.seed, json.dumps(spec_to_json(spec)), json.dumps(result_to_json(result))),
            )
            if cur.rowcount == 1:
                # A counter, not COUNT(*), keeps each insert O(1) in long runs; the
                # run is marked finished in the same transaction as its last match.
                self._db.execute(
                    "UPDATE runs SET done = done + 1,"
                    " finished = CASE WHEN done + 1 >= planned THEN ? ELSE finished END WHERE id = ?",
                    (_now(), run_id),
                )

    @_guarded
    def delete_run(self, run_id: int) -> None:
        """Remove a run and its matches.

        Raises:
            UnknownRunError: if there is no such run.
        """
        self.run(run_id)
        with self._tx():
            self._db.execute("DELETE FROM matches WHERE run_id = ?", (run_id,))
            self._db.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)

    @_guarded
    def plan(self, run_id: int | str) -> list[MatchSpec]:
        """Every planned spec of a run, in order.

        Raises:
            UnknownRunError: if there is no such run.
        """
        rid = self.run(run_id).id
        row = self._db.execute("SELECT specs FROM plans WHERE run_id = ?", (rid,)).fetchone()
        if row is None:  # pragma: no cover - every run is created with its plan
            raise StoreError(f"run {rid} in {self.path} has no stored plan")
        return [spec_from_json(d) for d in json.loads(zlib.decompress(row[0]))]

    @_guarded
    def resume(self, run_id: int | str, specs: Sequence[MatchSpec]) -> tuple[list[MatchSpec], list[str]]:
        """Check that ``specs`` plan the same matches as a stored run; return the plan to continue.

        The same matches means the same count and, match by match, the same game
        string, seed and agent names. Anything else (agent parameters such as a
        bot's log folder, replay paths, budgets) may differ: the stored plan is what
        the run continues with, so its matches stay consistent, and each kind of
        difference is reported in the returned notes.

        Returns:
            The stored plan and the notes (empty when ``specs`` equal it exactly).

        Raises:
            UnknownRunError: if there is no such run.
            ResumeMismatchError: if ``specs`` plan different matches (other game,
                agents, seed or count than the command that started the run).
        """
        info = self.run(run_id)
        plan = self.plan(info.id)
        how = f" (it was started by: {info.command})" if info.command else ""
        hint = "; repeat the options of the original command to resume it"
        if len(specs) != len(plan):
            raise ResumeMismatchError(
                f"run {info.id} ({info.label}) planned {len(plan)} matches, these options plan {len(specs)}{how}{hint}"
            )
        notes: dict[str, str] = {}
        for i, (old, new) in enumerate(zip(plan, specs, strict=True)):
            if old == new:
                continue
            for name in ("game", "seed"):
                if getattr(old, name) != getattr(new, name):
                    raise ResumeMismatchError(
                        f"run {info.id} ({info.label}): match {i} has {name} {getattr(old, name)!r}, "
                        f"these options give {getattr(new, name)!r}{how}{hint}"
                    )
            if [_base(a) for a in old.agents] != [_base(a) for a in new.agents]:
                raise ResumeMismatchError(
                    f"run {info.id} ({info.label}): match {i} is played by {', '.join(old.agents)}, "
                    f"these options give {', '.join(new.agents)}{how}{hint}"
                )
            for name in _SPEC_FIELDS:
                if name not in notes and getattr(old, name) != getattr(new, name):
                    notes[name] = f"{name} differs from the stored plan (match {i}: stored {getattr(old, name)!r})"
        if notes:
            notes["_"] = f"run {info.id} continues with its stored plan"
        return plan, list(notes.values())

    # -- reading ---------------------------------------------------------------
    @_guarded
    def runs(self) -> list[RunInfo]:
        """Every run, oldest first."""
        rows = self._db.execute(f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY id").fetchall()
        return [_run_info(row) for row in rows]

    @_guarded
    def run(self, run_id: int | str) -> RunInfo:
        """One run.

        Raises:
            UnknownRunError: if there is no such run (the message names the store).
        """
        rid = parse_run_id(run_id)
        row = self._db.execute(
            f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?",
            (rid,),
        ).fetchone()
        if row is None:
            raise UnknownRunError(f"unknown run id {rid} in results store {self.path} (see snakelab results list)")
        return _run_info(row)

    @_guarded
    def specs_hash(self, run_id: int) -> str:
        """The digest of a run's planned specs (see :func:`specs_digest`)."""
        self.run(run_id)
        row = self._db.execute("SELECT specs_hash FROM runs WHERE id = ?", (run_id,)).fetchone()
        return str(row[0])

    @_guarded
    def results(self, run_id: int | str) -> dict[int, MatchResult]:
        """The stored results of a run, keyed by match position.

        Raises:
            UnknownRunError: if there is no such run.
        """
        rid = self.run(run_id).id
        return {idx: result_from_json(json.loads(text)) for idx, text in self._iter(rid, "result")}

    @_guarded
    def specs(self, run_id: int | str) -> dict[int, MatchSpec]:
        """The specs of a run's stored matches, keyed by match position."""
        rid = self.run(run_id).id
        return {idx: spec_from_json(json.loads(text)) for idx, text in self._iter(rid, "spec")}

    @_guarded_iter
    def iter_results(self, run_ids: Sequence[int] | None = None) -> Iterator[tuple[int, int, MatchResult]]:
        """Every stored result as ``(run_id, idx, result)``, in run then match order.

        Args:
            run_ids: Only these runs (default: all).
        """
        ids = [row[0] for row in self._db.execute("SELECT id FROM runs ORDER BY id")]
        if run_ids is not None:
            wanted = set(run_ids)
            ids = [i for i in ids if i in wanted]
        for rid in ids:
            # One run at a time, streamed: a store can be far larger than memory.
            for idx, text in self._iter(rid, "result"):
                yield rid, idx, result_from_json(json.loads(text))

    @_guarded_iter
    def _iter(self, run_id: int, column: str) -> Iterator[tuple[int, str]]:
        # column is one of two literals chosen above, never user input.
        yield from self._db.execute(f"SELECT idx, {column} FROM matches WHERE run_id = ? ORDER BY idx", (run_id,))


def run_stored(
    specs: Sequence[MatchSpec],
    store: Store,
    *,
    label: str = "",
    resume: int | str | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    command: str = "",
    run_seed: int | None = None,
    hooks: RunHooks = RunHooks(),
) -> tuple[int, list[MatchResult]]:
    """Run matches through :func:`~snakelab.harness.run.run_many`, storing each as it arrives.

    The key of a match is its position in ``specs``. When resuming, ``specs`` are
    checked against the run's stored plan (see :meth:`Store.resume`) and only the
    positions not yet stored are played, from the stored plan; the result list
    merges stored and new results in plan order, so it equals the list an
    uninterrupted run returns.

    Args:
        specs: The planned matches, in order.
        store: Where results go.
        label: What the run is, for listings.
        resume: A run id to continue instead of starting a new run.
        executor: Passed to ``run_many``.
        jobs: Passed to ``run_many``.
        command: The command line, recorded with a new run.
        run_seed: The run seed, recorded with a new run.
        hooks: What to call as the run starts, as each result arrives, and with notes.

    Returns:
        The run id and every result in spec order.

    Raises:
        UnknownRunError: for an unknown ``resume`` id.
        ResumeMismatchError: if ``specs`` are not that run's plan.
        RunBusyError: if another process is playing that run right now (see
            :mod:`snakelab.harness.runlock`).
    """
    specs = list(specs)
    if resume is not None:
        rid = store.run(resume).id
        lock = RunLock(store.path, rid)  # before reading what is done: nobody else adds to it now
        try:
            specs, notes = store.resume(rid, specs)
        except BaseException:
            lock.release()
            raise
        for note in notes:
            if hooks.on_note is not None:
                hooks.on_note(note)
        done = store.results(rid)
    else:
        rid = store.create_run(specs, label, command=command, run_seed=run_seed)
        lock = RunLock(store.path, rid)
        done = {}
    with lock:
        return rid, _play_stored(rid, specs, done, store, executor, jobs, hooks)


def _play_stored(
    rid: int,
    specs: list[MatchSpec],
    done: dict[int, MatchResult],
    store: Store,
    executor: Executor | None,
    jobs: int | None,
    hooks: RunHooks,
) -> list[MatchResult]:
    """The playing part of :func:`run_stored`, under the run's lock."""
    on_start, on_result, play = hooks.on_start, hooks.on_result, hooks.play
    if on_start is not None:
        on_start(rid, len(done))
    # Positions become the indices run_many sees, so each arriving result names its slot.
    todo = [dataclasses.replace(s, index=i) for i, s in enumerate(specs) if i not in done]

    def arrived(result: MatchResult) -> None:
        store.add_match(rid, result.index, specs[result.index], result)
        if on_result is not None:
            on_result(result)

    extra = {} if play is None else {"play": play}  # run_many's own default otherwise
    fresh = run_many(todo, executor, jobs=jobs, on_result=arrived, **extra) if todo else []
    merged = dict(done)
    merged.update((r.index, r) for r in fresh)
    out = []
    for i, spec in enumerate(specs):
        r = merged[i]
        r.index = spec.index  # the caller's own numbering, as run_many would give it
        out.append(r)
    return out


def _base(agent: str) -> str:
    """An agent string without its parameters (``arena.bot(path=x)`` -> ``arena.bot``)."""
    return agent.partition("(")[0].strip()


def _run_info(row: tuple[Any, ...]) -> RunInfo:
    rid, created, label, command, game, agents, run_seed, planned, done, finished = row
    return RunInfo(rid, created, label, command, game, tuple(json.loads(agents)), run_seed, planned, done, finished)


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error), as a context manager."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        # IMMEDIATE takes the write lock up front, so concurrent writers wait (busy
        # timeout) instead of failing half-way through a transaction.
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self.db.execute("ROLLBACK" if exc_type is not None else "COMMIT")


def open_store(path: str | os.PathLike[str] | None = None) -> Store:
    """Open ``path``, or the default store (see :func:`default_store_path`).

    Raises:
        StoreError: if storing is disabled by ``$SNAKELAB_STORE=off`` and no path
            was given, or the file cannot be opened.
    """
    if path is None:
        path = default_store_path()
        if path is None:
            raise StoreError(f"the results store is disabled (${STORE_ENV}={os.environ.get(STORE_ENV)})")
    return Store(path)
