"""The findings of files already linted, so that a run over an unchanged tree parses nothing.

Layout, under the cache folder (``.gradlint_cache`` in the project root by default)::

    CACHEDIR.TAG, .gitignore (``*``)     backup tools and git pass the folder by
    0.1.0-<fingerprint>/0.json … f.json  the entries, in 16 packs

The namespace folder is named by gradlint's version and a fingerprint of the installed code
(``fingerprint()``), so an upgrade or an edit of a development checkout never reuses findings
made by other code; when a new one is made, the namespaces of other code are deleted but the
three most recently written (two installs, a project's and a pre-commit hook's, may share one
cache). gradlint writes only into a cache folder it made (its ``CACHEDIR.TAG``) or an empty one. An entry's
key is a hash of the file's absolute path and the codes that run on it (its selection after
per-file-ignores); its first hex digit names its pack. The entry holds the path, the hash of the
file's bytes, its findings (without verdicts: the dynamic pass always runs fresh), the project
root its imports were resolved in, and the path and hash of each other file of the project whose
summaries the findings used (``analysis.project``): an entry is a hit only while every one of
them hashes the same (a warm run reads and hashes them, once per run each, and parses nothing).
A module created since, which an import would now find first, is not noticed until the
importing file or one of its recorded files changes. An edit
replaces the file's entry, so entries do not pile up as files change, and a pack that is written
drops the entries of files that no longer exist.

Packs rather than a file per entry: creating a file is the slow part of writing one (half a
millisecond here, a quarter of a cold corpus run with one per file), so the parent process writes
each pack it changed once, at the end of the run (``save``); parallel workers only send their
findings back. Before writing, a pack is read again and the run's entries merged into it, so two
runs at once lose at most each other's newest entries, which are linted again next time. A pack
is written to a temporary file renamed over the old one: a reader never sees half of one. Every
read is checked: a corrupt, truncated or foreign pack or entry (or one that is not a regular
file) is a miss, and is rewritten after the file is linted. Failing to write is never fatal:
``save`` writes what it can and returns one warning line.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from gradlint import __version__
from gradlint.files import read_regular
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
    default: the installed one; an edited development checkout is new code), and the Python
    version (whose parser decides what is a syntax error and builds the tree analysed). About a millisecond:
    nothing is imported or read."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__}\0{sys.version}\0".encode())
    package = Path(__file__).resolve().parent if package is None else package
    for folder, subfolders, files in os.walk(package):
        subfolders[:] = sorted(s for s in subfolders if s != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".json")):
                _stamp(digest, os.path.join(folder, name), package)
    return digest.hexdigest()


def _stamp(digest, path: str, root: Path | None) -> None:
    try:
        stat = os.stat(path)
    except OSError:
        return
    shown = os.path.relpath(path, root) if root is not None else path
    digest.update(f"{shown}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())


def content_hash(source: bytes) -> str:
    # SHA-256 cut to 128 bits, as blake2b's 16 bytes were: with the CPU's SHA extensions (x86
    # since 2017-2019, ARMv8) OpenSSL hashes at about twice blake2b's speed, and a warm run
    # hashes every byte of the project (15 MB for the corpus: 12 ms rather than 23 ms).
    return hashlib.sha256(source).hexdigest()[:32]


PACKS = "0123456789abcdef"
HELD_BYTES = 64 * 2**20  # the most bytes of files read as dependencies kept for their own lookup
KEEP = 4  # namespaces kept: this code's and the three most recently written others


@dataclass
class Cache:
    """Entries under ``folder`` for code with this ``fingerprint``: read pack by pack as they are
    asked for, changed in memory by ``put``, written by ``save``."""

    folder: Path
    fingerprint: str = field(default_factory=lambda: fingerprint())
    _packs: dict = field(default_factory=dict, compare=False, repr=False)  # pack -> {key: entry}
    _changed: dict = field(default_factory=dict, compare=False, repr=False)  # pack -> {key: entry}
    _hashes: dict = field(default_factory=dict, compare=False, repr=False)  # path -> hash (this run)
    # Files of this run still to be looked up (``expect``), and the bytes of those a lookup
    # already read as another file's dependency, with their hash: ``take`` hands them over, so a
    # warm run reads and hashes each file once.
    _expected: set = field(default_factory=set, compare=False, repr=False)
    _held: dict = field(default_factory=dict, compare=False, repr=False)  # path -> (bytes, hash)
    _held_bytes: int = field(default=0, compare=False, repr=False)
    _absolute: dict = field(default_factory=dict, compare=False, repr=False)  # name -> abspath (expect)

    @property
    def namespace(self) -> Path:
        return self.folder / f"{__version__}-{self.fingerprint[:16]}"

    @staticmethod
    def _key(name: str, codes: frozenset[str], path: str | None = None) -> tuple[str, str]:
        """The entry's key and the file's absolute path (``path``, when known already)."""
        path = path or os.path.abspath(name)
        # (a file name that is not UTF-8 holds surrogates: its bytes as the file system has them)
        key = f"{path}\0{','.join(sorted(codes))}".encode("utf-8", "surrogateescape")
        return hashlib.blake2b(key, digest_size=16).hexdigest(), path

    def get(self, name: str, codes: frozenset[str], digest: str, root: str | None = None) -> list[Finding] | None:
        """The cached findings of the file ``name`` whose bytes hash to ``digest`` (see
        ``content_hash``) when linted with ``codes`` and its imports resolved in the project
        ``root``, while the other files they were computed from are unchanged; None on a miss,
        including an entry that is unreadable, corrupt or not gradlint's."""
        hit = self.lookup(name, codes, digest, root)
        return None if hit is None else hit[0]

    def lookup(self, name: str, codes: frozenset[str], digest: str,
               root: str | None = None) -> tuple[list[Finding], bool] | None:
        """As ``get``, with whether the file's bytes may hold a suppression naming a rule
        (``suppression.may_name_rules``) as ``put`` was told; True when it was not told."""
        key, _ = self._key(name, codes, self._absolute.get(name))
        entry = self._pack(key[0]).get(key)
        try:
            if entry["hash"] != digest or entry.get("root") != root:
                return None
            deps = entry.get("deps", {})
            if not isinstance(deps, dict) or any(self._hash(path) != known for path, known in deps.items()):
                return None
            directives = entry.get("directives", True)
            return [_load(name, item) for item in entry["findings"]], directives is not False
        except (ValueError, TypeError, KeyError, AttributeError):
            return None

    def expect(self, names) -> None:
        """The files this run will look up, so that a lookup reading one of them as another's
        dependency keeps its bytes for ``take``."""
        for name in names:
            self._absolute[name] = path = os.path.abspath(name)
            self._expected.add(path)

    def take(self, name: str) -> tuple[bytes, str] | None:
        """The bytes of the regular file ``name`` and their hash, if a lookup read them already
        (once: they are handed over, not kept)."""
        path = self._absolute.get(name) or os.path.abspath(name)
        self._expected.discard(path)
        held = self._held.pop(path, None)
        if held is not None:
            self._held_bytes -= len(held[0])
        return held

    def _hash(self, path: str) -> str | None:
        """The hash of a file's bytes now (None: gone or unreadable), read once per run."""
        if path not in self._hashes:
            data = read_regular(path) if isinstance(path, str) else None
            self._hashes[path] = None if data is None else content_hash(data)
            if data is not None and path in self._expected and self._held_bytes + len(data) <= HELD_BYTES:
                self._held[path] = (data, self._hashes[path])
                self._held_bytes += len(data)
        return self._hashes[path]

    def put(self, name: str, codes: frozenset[str], digest: str, findings: list[Finding],
            deps: dict[str, str] | None = None, root: str | None = None,
            directives: bool = True) -> None:
        """Keep ``findings`` for the file, to be written by ``save``, with the project root its
        imports were resolved in, the files (path -> hash) the findings were computed from, and
        whether its bytes may hold a suppression naming a rule (False spares a warm run the
        search for one)."""
        key, path = self._key(name, codes)
        self._changed.setdefault(key[0], {})[key] = {
            "path": path, "hash": digest, "findings": [_dump(f) for f in findings],
            "root": root, "deps": dict(deps or {}), "directives": bool(directives)}

    def save(self) -> str | None:
        """Write the packs ``put`` changed; a one-line warning if one could not be written (the
        others still are), else None."""
        failure = None
        try:
            self._make()
        except OSError as err:
            failure = f"cannot write the cache in {self.folder} ({err.strerror or err})"
        for pack, changed in sorted(self._changed.items()) if failure is None else ():
            path = self.namespace / f"{pack}.json"
            entries = {key: entry for key, entry in self._read(pack).items()
                       if isinstance(entry, dict) and isinstance(entry.get("path"), str)
                       and os.path.exists(entry["path"])}
            entries.update(changed)
            try:
                _write(path, json.dumps({"entries": entries}, separators=(",", ":")).encode())
            except OSError as err:
                failure = failure or f"cannot write the cache file {path} ({err.strerror or err})"
        self._changed.clear()
        return None if failure is None else f"{failure}; continuing without it"

    def _pack(self, pack: str) -> dict:
        found = self._packs.get(pack)
        if found is None:
            found = self._packs[pack] = self._read(pack)
        return found

    def _read(self, pack: str) -> dict:
        """A pack's entries; none if it is missing, not a regular file, or not a pack."""
        data = read_regular(self.namespace / f"{pack}.json")
        if data is None:
            return {}
        try:
            entries = json.loads(data)["entries"]
        except (ValueError, TypeError, KeyError, RecursionError):
            return {}
        return entries if isinstance(entries, dict) else {}

    def _make(self) -> None:
        """The namespace folder, made if need be. The cache folder is made, or taken if it is
        empty or gradlint's (its ``CACHEDIR.TAG``): another folder (``--cache-dir .``) is not
        written into, as its ``.gitignore`` of ``*`` would hide the project from the next run."""
        if self.namespace.is_dir():
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file, a FIFO or a device is in its place ("File exists")
            raise OSError("not a folder") from None
        tag = self.folder / "CACHEDIR.TAG"
        with os.scandir(self.folder) as entries:
            if not _ours(tag) and any(entries):
                raise OSError("not empty and not a gradlint cache; choose another --cache-dir")
        for name, text in (("CACHEDIR.TAG", TAG), (".gitignore", "# Created by gradlint.\n*\n")):
            if not (self.folder / name).exists():
                _write(self.folder / name, text.encode())
        self.namespace.mkdir(exist_ok=True)
        self._prune()

    def _prune(self) -> None:
        """Delete the entries of other gradlint code but the most recently written (two
        installs, a project's and a pre-commit hook's, may share a cache): the oldest can never
        be read again."""
        others = []
        for entry in os.scandir(self.folder):
            if entry.is_dir(follow_symlinks=False) and _NAMESPACE.match(entry.name) and entry.name != self.namespace.name:
                try:
                    others.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
                except OSError:
                    continue
        for _, path in sorted(others, reverse=True)[KEEP - 1:]:
            import shutil  # only a run that makes a namespace prunes

            shutil.rmtree(path, ignore_errors=True)


def _ours(tag: Path) -> bool:
    """Whether ``tag`` is the ``CACHEDIR.TAG`` gradlint writes (a FIFO in its place is not, and
    is never waited on)."""
    data = read_regular(tag, limit=len(TAG.encode()))
    text = "" if data is None else data.decode("utf-8", errors="replace")
    return text.startswith(TAG.splitlines()[0]) and "gradlint" in text


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
