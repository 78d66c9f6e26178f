"""The findings of files already linted, so that a run over an unchanged tree parses nothing.

Layout, under the cache folder (``.gradlint_cache`` in the project root by default)::

    CACHEDIR.TAG, .gitignore (``*``)     backup tools and git pass the folder by
    0.1.0-<fingerprint>/ab/cdef...       one small JSON file per linted file

The namespace folder is named by gradlint's version and a fingerprint of the installed code
(``fingerprint()``), so an upgrade or an edit of a development checkout never reuses findings
made by other code; the namespaces of other code are deleted when a new one is made. Inside it,
an entry's name is a hash of the file's absolute path and the codes that run on it (its
selection after per-file-ignores), and the entry holds the hash of the file's bytes and its
findings (without verdicts: the dynamic pass always runs fresh). An edit rewrites the file's
entry in place, so entries do not pile up as files change.

One file per entry rather than one pack: parallel workers and concurrent runs each write their
own entries (a temporary file renamed over the old one, so a reader never sees half of one) with
no lock and no merge, and a warm run over 1,611 files reads them in a few tens of milliseconds.
Every read is checked: a corrupt, truncated or foreign entry is a miss, and is rewritten after
the file is linted. Failing to write is never fatal: ``put`` returns one warning line and the
cache stops writing for the rest of the process.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from gradlint import __version__
from gradlint.finding import Finding, Severity

FOLDER = ".gradlint_cache"
ENV = "GRADLINT_CACHE_DIR"

# The standard signature (https://bford.info/cachedir/): backup and archiving tools skip the folder.
TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
       "# This file is a cache directory tag created by gradlint.\n"
       "# For information about cache directory tags, see https://bford.info/cachedir/\n")
_NAMESPACE = re.compile(r"^\d[\w.+!-]*-[0-9a-f]{16}$")  # what ``Cache.namespace`` names look like
_FIELDS = ("cell", "line", "column", "code", "end_line", "end_column", "name", "message", "hint",
           "severity", "details")


def fingerprint(package: Path | None = None) -> str:
    """A hash of what decides findings besides the file and its codes: gradlint's version, the
    size and modification time of each ``.py`` and ``.json`` file of its package (``package``,
    default: the installed one; an edited development checkout is new code), libcst's version
    file, and the Python version (which decides what is a syntax error). About a millisecond:
    nothing is imported or read."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}\0{sys.version}\0".encode())
    package = Path(__file__).resolve().parent if package is None else package
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(s for s in subfolders if s != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".json")):
                _stamp(digest, os.path.join(folder, name), package)
    spec = importlib.util.find_spec("libcst")  # found, not imported
    if spec is not None and spec.origin:
        _stamp(digest, os.path.join(os.path.dirname(spec.origin), "_version.py"), None)
    return digest.hexdigest()


def _stamp(digest, path: str, root: Path | None) -> None:
    try:
        stat = os.stat(path)
    except OSError:
        return
    shown = os.path.relpath(path, root) if root is not None else path
    digest.update(f"{shown}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())


def content_hash(source: bytes) -> str:
    return hashlib.blake2b(source, digest_size=16).hexdigest()


@dataclass
class Cache:
    """Entries under ``folder`` for code with this ``fingerprint``. Picklable: a worker process
    gets a copy and writes its own entries."""

    folder: Path
    fingerprint: str = field(default_factory=lambda: fingerprint())
    # Why writing stopped (the warning already returned once), or None while it works.
    broken: str | None = field(default=None, compare=False)
    _made: set = field(default_factory=set, compare=False, repr=False)  # folders known to exist

    @property
    def namespace(self) -> Path:
        return self.folder / f"{__version__}-{self.fingerprint[:16]}"

    def _entry(self, name: str, codes: frozenset[str]) -> Path:
        key = hashlib.blake2b(f"{os.path.abspath(name)}\0{','.join(sorted(codes))}".encode(),
                              digest_size=16).hexdigest()
        return Path(self.namespace, key[:2], key[2:])

    def get(self, name: str, codes: frozenset[str], digest: str) -> list[Finding] | None:
        """The cached findings of the file ``name`` whose bytes hash to ``digest`` (see
        ``content_hash``) when linted with ``codes``; None on a miss, including an entry that is
        unreadable, corrupt or not gradlint's."""
        try:
            with open(self._entry(name, codes), "rb") as handle:
                data = json.loads(handle.read())
            if data["hash"] != digest:
                return None
            return [_load(name, item) for item in data["findings"]]
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def put(self, name: str, codes: frozenset[str], digest: str, findings: list[Finding]) -> str | None:
        """Store ``findings`` for the file; a one-line warning the first time writing fails
        (then the cache stops writing), else None."""
        if self.broken is not None:
            return None
        entry = self._entry(name, codes)
        data = json.dumps({"hash": digest, "findings": [_dump(f) for f in findings]},
                          separators=(",", ":")).encode()
        try:
            self._make(entry.parent)
            _write(entry, data)
        except OSError as err:
            self.broken = (f"cannot write the cache in {self.folder} ({err.strerror or err}); "
                           "continuing without it")
            return self.broken
        return None

    def _make(self, folder: Path) -> None:
        if folder in self._made:
            return
        if not self.namespace.is_dir():
            self._make_root()
            self.namespace.mkdir(exist_ok=True)
            self._prune()
        folder.mkdir(exist_ok=True)
        self._made.add(folder)

    def _make_root(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", TAG), (".gitignore", "# Created by gradlint.\n*\n")):
            if not (self.folder / name).exists():
                _write(self.folder / name, text.encode())

    def _prune(self) -> None:
        """Delete the entries of other gradlint code: they can never be read again."""
        for entry in os.scandir(self.folder):
            if entry.is_dir() and _NAMESPACE.match(entry.name) and entry.name != self.namespace.name:
                shutil.rmtree(entry.path, ignore_errors=True)


def _write(path: Path, data: bytes) -> None:
    """Write atomically: a reader sees the old bytes or the new ones, never a part."""
    import tempfile  # only a run that writes pays for it

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _dump(finding: Finding) -> dict:
    data = {name: getattr(finding, name) for name in _FIELDS}
    data["severity"] = finding.severity.value
    return data


def _load(name: str, data: dict) -> Finding:
    # A file that parses as JSON may still not be ours: check every field's type.
    if (set(data) != set(_FIELDS) or not isinstance(data["details"], dict)
            or not all(type(data[k]) is int for k in ("line", "column", "end_line", "end_column"))
            or not (data["cell"] is None or type(data["cell"]) is int)
            or not all(isinstance(data[k], str) for k in ("code", "name", "message", "hint"))):
        raise ValueError("not a finding")
    return Finding(path=name, **{**data, "severity": Severity(data["severity"])})
