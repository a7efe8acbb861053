"""A fewest-press search's checkpoint: the jobs done, the best found and the bound, in a file to resume from.

The search on jobs (lightsout/_search/jobs.py) splits the coset into ``2^split_bits`` jobs,
each a range of tasks run in order, so its whole state is small: how far each job got,
the best (sum, coordinate) found and, with the symmetric cut, the tasks that reach it.
:class:`Checkpoint` writes that state to a JSON file every :data:`CHECKPOINT_SECONDS`
and when the search stops, atomically (a temporary file in the same folder, flushed to
disk, then ``os.replace``), so a driver killed at any moment leaves the last whole
state.  A new search given the same path reads it back and runs only what is left; jobs
are idempotent, so work done after the last write is merely done again.

The file carries a fingerprint of the search, and a state is resumed only by the same
search: the same coset (a hash of its reduced basis and reduced particular solution,
which are the same for a board whichever route solved it), the same histogram of forms,
the same symmetric cut, split and task layout.  Anything else, and a file that is not a
whole checkpoint (truncated, edited, another format: a SHA-256 of its content is kept
inside it), is refused with :class:`lightsout._base.errors.CheckpointError`.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import numpy as np

from lightsout._base.errors import CheckpointError, InvalidTypeError
from lightsout._search.cosetform import ReducedCoset, SearchProblem

__all__ = ["CHECKPOINT_FORMAT", "CHECKPOINT_SECONDS", "Checkpoint", "SearchState", "checkpoint_path",
           "search_fingerprint"]

#: What the file says it is (its ``format`` field), and the version of its layout.
CHECKPOINT_FORMAT = "lightsout fewest-press checkpoint"
CHECKPOINT_VERSION = 1

#: Most seconds between two writes of a running search's checkpoint.
CHECKPOINT_SECONDS = 30.0

PathArg = Union[str, "os.PathLike[str]"]


def checkpoint_path(value: object) -> Optional[Path]:
    """Check a ``checkpoint=`` argument: None, or the path of a file in an existing folder.

    Example:
        >>> checkpoint_path(None) is None, checkpoint_path("run.json").name
        (True, 'run.json')
    """
    if value is None:
        return None
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise InvalidTypeError(f"checkpoint must be None or a file path (str or os.PathLike), got "
                               f"{type(value).__name__}")
    path = Path(os.fspath(value))
    if str(value) == "" or path.is_dir():
        raise CheckpointError(f"checkpoint must name a file, got {str(value)!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CheckpointError(f"checkpoint {str(path)!r}: its folder {str(folder)!r} does not exist")
    return path


def _sha256(*arrays: np.ndarray) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def search_fingerprint(coset: ReducedCoset, problem: SearchProblem, split_bits: int,
                       layout: tuple[int, int, int]) -> dict[str, Any]:
    """What makes a saved state valid for a search: its coset, histogram, cut, split and task layout.

    Example:
        >>> from lightsout._search.cosetform import reduce_coset, search_problem, task_layout
        >>> coset = reduce_coset(np.ones(4, np.uint8), np.eye(4, dtype=np.uint8))
        >>> problem = search_problem(coset)
        >>> fingerprint = search_fingerprint(coset, problem, 0, task_layout(problem, 0))
        >>> fingerprint["cells"], fingerprint["nullity"], fingerprint["symmetry_order"]
        (4, 4, 1)
    """
    orbits = problem.orbits
    return {
        "cells": int(problem.cells), "nullity": int(problem.nullity),
        "coset_sha256": _sha256(np.packbits(coset.rows, axis=-1), np.packbits(coset.reduced)),
        "histogram_sha256": _sha256(problem.forms, problem.values),
        "symmetry_order": 1 if orbits is None else int(orbits.offsets.size) + 1,
        "symmetry_sha256": None if orbits is None else _sha256(orbits.tables, orbits.offsets),
        "split_bits": int(split_bits), "layout": [int(part) for part in layout],
    }


@dataclass
class SearchState:
    """Where a search on jobs stands: ``reached[job]`` is the first task of the job not yet run
    (a job not in it has not started; ``done`` holds the finished ones), the best (sum, index)
    found and the tasks that tie for it (symmetric cut), the proven lower bounds when written
    (on S and in presses) and the seconds spent by every run so far."""

    done: set[int] = field(default_factory=set)
    reached: dict[int, int] = field(default_factory=dict)
    best_sum: Optional[int] = None
    best_index: int = 0
    ties: list[int] = field(default_factory=list)
    ties_overflow: bool = False
    lower_sum: Optional[int] = None
    lower_bound: Optional[int] = None
    presses: Optional[int] = None
    seconds: float = 0.0
    complete: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"done": _ranges(sorted(self.done)), "reached": sorted([job, task] for job, task in self.reached.items()),
                "best_sum": self.best_sum, "best_index": self.best_index, "ties": list(self.ties),
                "ties_overflow": self.ties_overflow, "lower_sum": self.lower_sum, "lower_bound": self.lower_bound,
                "presses": self.presses, "seconds": round(self.seconds, 3), "complete": self.complete}

    @classmethod
    def from_json(cls, data: Any) -> "SearchState":
        done = {job for first, last in data["done"] for job in range(int(first), int(last) + 1)}
        return cls(done=done, reached={int(job): int(task) for job, task in data["reached"]},
                   best_sum=None if data["best_sum"] is None else int(data["best_sum"]),
                   best_index=int(data["best_index"]), ties=[int(task) for task in data["ties"]],
                   ties_overflow=bool(data["ties_overflow"]),
                   lower_sum=None if data["lower_sum"] is None else int(data["lower_sum"]),
                   lower_bound=None if data["lower_bound"] is None else int(data["lower_bound"]),
                   presses=None if data["presses"] is None else int(data["presses"]),
                   seconds=float(data["seconds"]), complete=bool(data["complete"]))


def _ranges(jobs: list[int]) -> list[list[int]]:
    """Sorted job numbers as [first, last] runs (a finished search's 65,536 jobs are one pair)."""
    runs: list[list[int]] = []
    for job in jobs:
        if runs and runs[-1][1] == job - 1:
            runs[-1][1] = job
        else:
            runs.append([job, job])
    return runs


def _digest(fingerprint: dict[str, Any], state: dict[str, Any]) -> str:
    text = json.dumps({"fingerprint": fingerprint, "state": state}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class Checkpoint:
    """One search's checkpoint file: :meth:`load` what an earlier run left, :meth:`save` the state.

    Example:
        >>> import tempfile, os
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "run.json")
        >>> checkpoint = Checkpoint(path, {"cells": 4, "nullity": 2})
        >>> checkpoint.load() is None                       # nothing yet: a fresh search
        True
        >>> checkpoint.save(SearchState(done={0, 1, 2}, reached={3: 5}, best_sum=-4))
        >>> state = Checkpoint(path, {"cells": 4, "nullity": 2}).load()
        >>> sorted(state.done), state.reached, state.best_sum
        ([0, 1, 2], {3: 5}, -4)
        >>> Checkpoint(path, {"cells": 4, "nullity": 3}).load()
        Traceback (most recent call last):
        ...
        lightsout._base.errors.CheckpointError: checkpoint ... was written by another search: its nullity is 2, this one's 3; give another path ...
    """

    def __init__(self, path: PathArg, fingerprint: dict[str, Any], every: Optional[float] = None) -> None:
        self.path = Path(os.fspath(path))
        self.fingerprint = fingerprint
        self.every = CHECKPOINT_SECONDS if every is None else every
        self.saved_at = time.monotonic()

    def due(self) -> bool:
        """Whether :data:`CHECKPOINT_SECONDS` (``every``) have passed since the last write."""
        return time.monotonic() - self.saved_at >= self.every

    def load(self) -> Optional[SearchState]:
        """The state an earlier run of the same search left, or None when the file does not exist."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise CheckpointError(f"checkpoint {str(self.path)!r} cannot be read: {error}") from None
        try:
            data = json.loads(text)
        except ValueError:
            raise CheckpointError(f"checkpoint {str(self.path)!r} is not a whole checkpoint ({len(text)} bytes of "
                                  "broken JSON: truncated or corrupt); delete it to start again") from None
        if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
            raise CheckpointError(f"checkpoint {str(self.path)!r} is not a lightsout fewest-press checkpoint "
                                  f"(no format field {CHECKPOINT_FORMAT!r})")
        if data.get("version") != CHECKPOINT_VERSION:
            raise CheckpointError(f"checkpoint {str(self.path)!r} has version {data.get('version')!r}; this "
                                  f"lightsout reads version {CHECKPOINT_VERSION}")
        fingerprint, state = data.get("fingerprint"), data.get("state")
        if not isinstance(fingerprint, dict) or not isinstance(state, dict) or \
                data.get("sha256") != _digest(fingerprint, state):
            raise CheckpointError(f"checkpoint {str(self.path)!r} is corrupt: its content does not match the "
                                  "SHA-256 written with it; delete it to start again")
        self._check_same_search(fingerprint)
        try:
            return SearchState.from_json(state)
        except (KeyError, TypeError, ValueError) as error:   # pragma: no cover - a checksum that matches a bad state
            raise CheckpointError(f"checkpoint {str(self.path)!r} holds a state this lightsout cannot read "
                                  f"({error!r})") from None

    def _check_same_search(self, fingerprint: dict[str, Any]) -> None:
        differ = [key for key in sorted(set(fingerprint) | set(self.fingerprint))
                  if fingerprint.get(key) != self.fingerprint.get(key)]
        if differ:
            said = "; ".join(f"its {key.replace('_', ' ')} is {fingerprint.get(key)!r}, this one's "
                             f"{self.fingerprint.get(key)!r}" for key in differ)
            raise CheckpointError(f"checkpoint {str(self.path)!r} was written by another search: {said}; "
                                  "give another path (or delete the file) to start this search")

    def save(self, state: SearchState) -> None:
        """Write ``state`` atomically: a temporary file beside the checkpoint, then ``os.replace``."""
        body = state.to_json()
        data = {"format": CHECKPOINT_FORMAT, "version": CHECKPOINT_VERSION, "fingerprint": self.fingerprint,
                "state": body, "sha256": _digest(self.fingerprint, body)}
        folder = self.path.parent if str(self.path.parent) else Path(".")
        handle, temporary = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=1)
                out.write("\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self.saved_at = time.monotonic()

