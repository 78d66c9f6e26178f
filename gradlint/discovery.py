"""Which files to lint: walk the paths given, keep ``.py`` files and Jupyter notebooks
(``.ipynb``), skip what should be skipped.

Skipped, as ruff does: folders that are never user code (VCS metadata, caches, virtualenvs, build
output: ``DEFAULT_EXCLUDE``, which a config's ``exclude`` replaces and ``extend-exclude`` adds to),
any folder holding a ``pyvenv.cfg`` (a virtualenv under any name), and whatever the ``.gitignore``
files from the repository's top down to the file ignore, as git reads them: a pattern names
the file or folder it matches, never what lies under a folder (git does not enter an ignored
folder, so nothing in it can be re-included). A file or folder named on the command line is
linted regardless, with all it holds: the user asked for it by name, unless ``force_exclude`` is
set (ruff's ``--force-exclude``, for pre-commit, which names every file). In a searched folder
only regular files count: a dangling symlink named ``*.py`` (an editor's lock file,
``.#train.py``) or a pipe is passed by.
"""
from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gradlint.files import MAX_BYTES, read_regular

if TYPE_CHECKING:
    import re

    from pathspec import GitIgnoreSpec

DEFAULT_EXCLUDE: tuple[str, ...] = (
    ".git", ".hg", ".svn",
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".gradlint_cache",
    ".venv", "venv", ".tox", ".nox", ".ipynb_checkpoints",
    "build", "dist", "site-packages", "node_modules", "*.egg-info",
)

PYTHON_SUFFIXES = (".py", ".ipynb")


def discover(
    paths: Iterable[str | Path],
    exclude: Iterable[str] | None = None,
    extend_exclude: Iterable[str] = (),
    root: str | Path | None = None,
    on_error: Callable[[str], None] | None = None,
    force_exclude: bool = False,
) -> list[Path]:
    """The files to lint under ``paths``, each once, sorted.

    ``exclude`` and ``extend_exclude`` are gitignore-style patterns relative to ``root`` (the
    config file's folder; default the current directory); ``exclude=None`` means
    ``DEFAULT_EXCLUDE``. Paths come back as spelled from the arguments (``src`` → ``src/a.py``),
    normalized (``a/../b`` → ``b``, ``./a/`` → ``a``) unless a symlink makes the short spelling
    another file (``link/../x.py``). A file with several names (a symlink to it, or the same file
    named twice) comes back once, by its own name rather than a link's when both are found.

    A path that cannot be looked at (missing, a symlink loop) or a folder that cannot be listed
    is skipped and told to ``on_error`` as one line, path first: ``nope.py: no such file or
    directory``, ``data: cannot list: Permission denied``. Without ``on_error`` its OSError is
    raised instead.

    With ``force_exclude``, a file or folder named in ``paths`` is dropped too when a search would
    pass it by (``passed_by``).
    """
    root = Path(os.path.abspath(root if root is not None else os.curdir))
    patterns = list(DEFAULT_EXCLUDE if exclude is None else exclude) + list(extend_exclude)
    walker = _Walker(root, patterns, on_error)
    # Where the file really is → (path as the user spelled it, whether that is a symlink's name):
    # dedupes `. a.py`, and a symlink beside its target.
    found: dict[str, tuple[Path, bool]] = {}
    real: dict[str, str] = {}  # folder → its real path
    cwd = os.getcwd()
    for arg in paths:
        path = Path(arg)
        try:
            # os.stat rather than Path.exists: exists() is False for a symlink loop too, and the
            # user would be told "no such file" about a file they can see.
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError as err:
            walker.fail(f"{arg}: {_lowercase_first(_reason(err))}", err)
            continue
        path = _normal(path)
        if force_exclude and passed_by(path, exclude, extend_exclude, root, is_dir=is_dir):
            continue
        for where, file, linked in walker.walk(path, cwd) if is_dir else [_named(path, real, cwd)]:
            if where not in found or (found[where][1] and not linked):
                found[where] = (file, linked)
    return sorted((file for file, _ in found.values()), key=lambda p: p.as_posix())


def _normal(path: Path) -> Path:
    """``path`` (which exists) without ``..``, as ruff prints paths (``../pkg/a.py`` run in pkg
    is ``a.py``), when that names the same file: after a symlinked folder, ``link/..`` is the
    link's target's parent, and the spelling the user gave is kept. Path itself already drops
    ``.`` and doubled or trailing slashes."""
    if ".." not in path.parts:
        return path
    short = Path(os.path.normpath(path) if path.is_absolute() else os.path.relpath(os.path.abspath(path)))
    return short if os.path.realpath(short) == os.path.realpath(path) else path


def _named(file: Path, real: dict[str, str], cwd: str) -> tuple[str, Path, bool]:
    """A file named on the command line as ``_Walker.walk`` gives a file: where it really is,
    the path, and whether that is a symlink's name."""
    absolute = os.path.join(cwd, file)
    if os.path.islink(absolute):
        return os.path.realpath(absolute), file, True
    return os.path.join(_real_folder(file, real, cwd), file.name), file, False


def _real_folder(file: Path, real: dict[str, str], cwd: str) -> str:
    """The file's folder as the system resolves it (``real`` remembers folders): with the file's
    name, where the file is. `link/../x.py` is the `x.py` beside the link's target, not the one
    here."""
    folder = os.path.dirname(os.path.join(cwd, file))
    if folder not in real:
        real[folder] = os.path.realpath(folder)
    return real[folder]


def passed_by(
    path: str | Path,
    exclude: Iterable[str] | None = None,
    extend_exclude: Iterable[str] = (),
    root: str | Path | None = None,
    is_dir: bool = False,
) -> bool:
    """Whether a search of ``root`` would pass the file ``path`` (the folder, with ``is_dir``)
    by: it, or a folder between ``root`` and it, is excluded, gitignored or a virtualenv.

    For the editor, which opens one file at a time where ``discover`` would lint any file named
    by hand. Patterns and ``root`` are as for ``discover``; a file outside ``root`` is judged
    from its own folder down. Never raises: a folder that cannot be looked at excludes nothing.
    """
    root = Path(os.path.abspath(root if root is not None else os.curdir))
    absolute = Path(os.path.abspath(path))
    if is_dir and root.is_relative_to(absolute):
        return False  # the searched folder, or one above it, is never skipped
    patterns = list(DEFAULT_EXCLUDE if exclude is None else exclude) + list(extend_exclude)
    walker = _Walker(root, patterns, on_error=None)
    if absolute.is_relative_to(root):
        # The searched folder itself is never skipped, as in ``discover``: only what lies below it.
        folders = _ancestors(absolute.parent, root)[:-1]
        if any(walker._skipped(folder, is_dir=True) for folder in folders):
            return True
    else:
        walker._base = absolute.parent
        # No search of the root reaches it. The folders it lies in are still judged by their
        # names, as an unanchored pattern reads a path (``site-packages``: a library's file an
        # editor opened from a traceback), since a pattern only names a path itself.
        folders = _ancestors(absolute.parent, Path(absolute.anchor))[:-1]
        if any(walker.exclude(_normalize(os.fspath(folder)) + "/") for folder in folders):
            return True
    return walker._skipped(absolute, is_dir=is_dir)


class _Folder(NamedTuple):
    """What deciding on the entries of one folder needs, worked out once for all of them: the
    folder relative to the root as pathspec reads it (``a/b/``; empty for the root itself), and
    the .gitignore files that count there, deepest first, each with the folder's path from the
    .gitignore's folder (same spelling)."""

    relative: str
    gitignores: list[tuple[Match, str]]
    # The root's own name when this folder holds it from outside (``gradlint check ..``): the
    # root is matched as ``.``, which no pattern names, not by the path to it.
    root_name: str | None


class _Walker:
    def __init__(
        self, root: Path, patterns: list[str], on_error: Callable[[str], None] | None
    ) -> None:
        self.root = root
        self.patterns = patterns
        self.on_error = on_error
        # By absolute folder, as a string: Paths cost more to build, hash and compare than the
        # rest of a warm run's walk.
        self._gitignores: dict[str, Match | None] = {}
        self._repo_tops: dict[str, str | None] = {}
        self._folders: dict[tuple[str, str], _Folder] = {}
        self._no_git: set[str] = set()  # walked folders whose listing has no .git
        self._base = root

    @cached_property
    def exclude(self) -> Match:
        # pathspec is imported only when something is matched: a run on files named one by one
        # (pre-commit, an editor) never needs it.
        return _lines_matcher(self.patterns)

    def walk(self, top: Path, cwd: str) -> list[tuple[str, Path, bool]]:
        """The files to lint under the folder ``top``, in order, each with where it really is
        (``cwd`` is the current folder) and whether its path is a symlink's name."""
        absolute = Path(os.path.abspath(top))
        # Outside a git repository, .gitignore files count from the root down, or from the walked
        # folder down when it lies outside the root.
        self._base = self.root if absolute.is_relative_to(self.root) else absolute
        files = []
        # The walk enters no symlinked folder, so below ``top`` a folder's real path is its
        # parent's and its name: one realpath for the walk, not one (a lstat per part) a folder.
        real = {os.fspath(top): os.path.realpath(os.path.join(cwd, top))}
        # Strings, not Paths, per entry: a warm run over 1,600 files spent most of its walk
        # building and comparing Path objects. What depends only on the folder (its path from
        # the root, the .gitignore files above it) is worked out once per folder (``_folder``).
        for dirpath, dirnames, filenames, plain in _scan(os.fspath(top), self._cannot_list):
            folder = os.path.abspath(dirpath)
            # The listing already says whether the folder holds a .gitignore (a regular file
            # must be among the non-folders) or a .git: no probe for either in most folders.
            if ".gitignore" not in filenames:
                self._gitignores.setdefault(folder, None)
            if ".git" not in dirnames and ".git" not in filenames:
                self._no_git.add(folder)
            here = self._folder(folder)
            real_folder = real.pop(dirpath)
            # Sorted and pruned in place, so the walk descends in a fixed order and skips the rest.
            dirnames[:] = sorted(d for d in dirnames if not self._skipped_in(folder, here, d, is_dir=True))
            for name in dirnames:
                real[os.path.join(dirpath, name)] = os.path.join(real_folder, name)
            kept = [
                name for name in sorted(filenames)
                if name.endswith(PYTHON_SUFFIXES)
                and (name in plain or _may_be_a_file(os.path.join(dirpath, name)))
                and not self._skipped_in(folder, here, name, is_dir=False)
            ]
            if kept:
                parent = Path(dirpath)
                for name in kept:
                    # Only a name the listing did not show as a plain file may be a symlink: a
                    # link to a file of the tree is that file, met twice.
                    linked = name not in plain and os.path.islink(os.path.join(dirpath, name))
                    where = os.path.realpath(os.path.join(folder, name)) if linked else os.path.join(real_folder, name)
                    files.append((where, parent / name, linked))
        return files

    def fail(self, message: str, err: OSError) -> None:
        if self.on_error is None:
            raise err
        self.on_error(message)

    def _cannot_list(self, err: OSError) -> None:
        # Through Path, as the files are: ``./locked`` (os.walk's spelling) shows as ``locked``.
        self.fail(f"{Path(err.filename)}: cannot list: {_reason(err)}", err)

    def _skipped(self, path: Path, is_dir: bool) -> bool:
        absolute = os.path.abspath(path)
        folder, name = os.path.split(absolute)
        return self._skipped_in(folder, self._folder(folder), name, is_dir)

    def _skipped_in(self, folder: str, here: _Folder, name: str, is_dir: bool) -> bool:
        """Whether the entry ``name`` of the absolute ``folder`` (``here``: its ``_folder``) is
        excluded, a virtualenv or gitignored."""
        if is_dir and _is_file(os.path.join(folder, name, "pyvenv.cfg")):
            return True
        # gitignore's ``build/`` matches folders only; pathspec tells them apart by the trailing slash.
        tail = f"{name}/" if is_dir else name
        relative = here.relative + tail if name != here.root_name else ("./" if is_dir else ".")
        if self.exclude(relative):
            return True
        # The deepest .gitignore with a pattern for the path decides, as in git: a nested file can
        # re-include (``!name``) what a parent ignores, but only an entry of a folder the walk
        # entered; a pattern never answers for what lies under a folder (``_entry_regex``).
        for match, prefix in here.gitignores:
            include = match(prefix + tail)
            if include is not None:
                return include
        return False

    def _folder(self, folder: str) -> _Folder:
        """``folder`` (absolute, normalized) as ``_Folder``, from its parent's: walked top-down,
        the parent is already known, and a folder's .gitignore files are its own and those that
        count in its parent, unless the folder is where they start (``_top``)."""
        base = str(self._base)
        key = (folder, base)
        found = self._folders.get(key)
        if found is not None:
            return found
        root = str(self.root)
        parent, name = os.path.split(folder)
        own = self._gitignore(folder)
        gitignores = [] if own is None else [(own, "")]
        if parent != folder and self._top(folder) != folder:
            gitignores += [(match, f"{prefix}{name}/") for match, prefix in self._folder(parent).gitignores]
        if folder == root:
            relative = ""
        elif folder.startswith(root if root.endswith("/") else root + "/"):
            relative = folder[len(root):].lstrip("/") + "/"
        else:  # as ``_relative`` has it: without the leading slash (``//`` too, a root of its own)
            relative = folder.lstrip("/") + "/" if folder.lstrip("/") else ""
        holds_root = folder == os.path.dirname(root) and folder != root
        found = self._folders[key] = _Folder(relative, gitignores, os.path.basename(root) if holds_root else None)
        return found

    def _top(self, folder: str) -> str:
        """Where .gitignore files start to count: the top of the repository holding ``folder``."""
        return self._repo_top(folder) or str(self._base)

    def _repo_top(self, folder: str) -> str | None:
        if folder not in self._repo_tops:
            parent = os.path.dirname(folder)
            if folder not in self._no_git and _exists(os.path.join(folder, ".git")):
                self._repo_tops[folder] = folder
            elif parent == folder:
                self._repo_tops[folder] = None
            else:
                self._repo_tops[folder] = self._repo_top(parent)
        return self._repo_tops[folder]

    def _gitignore(self, folder: str) -> Match | None:
        if folder not in self._gitignores:
            # Absent, unreadable or not a regular file (a FIFO is not waited on): it ignores nothing.
            data = read_regular(os.path.join(folder, ".gitignore"), limit=MAX_BYTES)
            lines = [] if data is None else data.decode("utf-8", errors="replace").splitlines()
            self._gitignores[folder] = _lines_matcher(lines, _gitignore_spec) if lines else None
        return self._gitignores[folder]


# What the patterns say of a path (``a/b.py``, or ``a/b/`` for a folder): True if a pattern
# ignores it, False if one re-includes it (``!name``), None if none names it. As git reads them,
# not as a GitIgnoreSpec's ``check_file`` does: only the entry itself is matched (``_entry_regex``).
Match = Callable[[str], "bool | None"]
_DIR_GROUP = "(?P<ps_d>/)"  # how pathspec marks a match by a folder's pattern (``build/``)
# A line that is a name, possibly with ``*`` and a trailing ``/`` (every DEFAULT_EXCLUDE line,
# most of a .gitignore): its regex is written here as pathspec writes it
# (tests/test_discovery.py checks they agree), so that such a spec needs no pathspec, whose
# import costs more than a warm run's whole walk.
_NAME_LINE = r"(?!.*\*\*)[\w.+*-]*[\w.+-][\w.+*-]*/?"


def _lines_matcher(lines: list[str], spec: Callable[[list[str]], GitIgnoreSpec] | None = None) -> Match:
    """The ``_matcher`` of the gitignore ``lines`` (made into a spec by ``spec``, default
    ``_spec``), built without pathspec when every line is a plain name (``_NAME_LINE``)."""
    import re

    plain = [line for line in lines if line]
    if all(re.fullmatch(_NAME_LINE, line, re.ASCII) for line in plain):
        return _searcher([_name_regex(line) for line in plain])
    return _matcher((spec or _spec)(lines))


def _name_regex(line: str) -> str:
    """The regex pathspec's GitIgnoreSpec makes of a ``_NAME_LINE``, its folder group unnamed."""
    import re

    name = line.rstrip("/")
    body = "".join("[^/]*" if char == "*" else re.escape(char) for char in name)
    return f"^(?:.+/)?{body}" + ("(?:/$)" if line.endswith("/") else "(?:(?:/$)|$)")


def _entry_regex(text: str) -> str:
    """pathspec's regex ``text`` for a pattern, made to match only the path it is asked about.

    pathspec answers for a whole path at once, so ``old/`` matches ``old/a.py`` too: a folder's
    pattern stands for everything under it. Git never asks: it does not enter an ignored folder,
    and a pattern that names a folder (``!old/`` in a deeper .gitignore) says nothing of the
    files in it, which their own patterns decide (``*.py`` above still ignores ``old/a.py``).
    The walk does the same, skipping a folder once, so here the folder mark must end the path;
    and ``a/**`` (``^a/``) names what is in ``a``, not ``a/`` itself.
    """
    text = text.replace(_DIR_GROUP, "(?P<ps_d>/$)")
    return text + "." if text.endswith("/") else text


def _matcher(spec: GitIgnoreSpec) -> Match:
    """The ``Match`` of ``spec``: the last pattern that matches the path decides, as in git,
    and as one regular expression when no pattern re-includes: then the answer is True as soon as
    any pattern matches, whichever, and a loop over the patterns, a search and a few Python calls
    each (18 of them for ``DEFAULT_EXCLUDE``), is most of the time of a walk. Any pattern this
    cannot fold (a bracket expression, a form of pathspec's it does not know) is still searched
    on its own."""
    import re

    patterns = [p for p in spec.patterns if p.include is not None]
    regexes = [getattr(p, "regex", None) for p in patterns]
    if not all(isinstance(r, re.Pattern) and isinstance(r.pattern, str) for r in regexes):
        return lambda path: spec.check_file(path).include  # a pattern type of pathspec's unknown here
    entries = [(p.include, re.compile(_entry_regex(r.pattern), r.flags)) for p, r in zip(patterns, regexes)]
    entries.reverse()

    def check(path: str) -> bool | None:
        path = _normalize(path)
        for include, regex in entries:
            if regex.search(path) is not None:
                return include
        return None

    if any(p.include is not True for p in patterns):
        return check
    folded, alone = [], []
    for regex, (_, entry) in zip(reversed(regexes), entries):
        # The folder group only tells pathspec which pattern won, which matters only when one
        # re-includes; in a bracket expression the same text would be characters, not a group.
        text = entry.pattern.replace("(?P<ps_d>/$)", "(?:/$)")
        # ``[^/]`` is pathspec's own ``*``.
        if "(?P" in text or "[" in regex.pattern.replace("[^/]", "") or regex.flags != re.UNICODE:
            alone.append(entry)
        else:
            folded.append(text)
    try:
        return _searcher(folded, alone)
    except re.error:
        return check


def _searcher(folded: list[str], alone: Iterable[re.Pattern] = ()) -> Match:
    """True for a path one of the regexes ``folded`` (searched as one alternation: it matches
    somewhere exactly when one of them does) or ``alone`` finds, else None."""
    import re

    searches = [re.compile(_alternation(folded)).search] if folded else []
    searches += [regex.search for regex in alone]

    def match(path: str) -> bool | None:
        path = _normalize(path)
        for search in searches:
            if search(path) is not None:
                return True
        return None

    return match


def _alternation(texts: list[str]) -> str:
    """One regex for ``texts``, their shared start written once: sre does not see that
    ``(?:^a)|(?:^b)`` is anchored and tries it at every position of the path, and with the
    start shared (``^(?:.+/)?(?:a|b)``) each folder boundary is tried once for all."""
    for start in ("^(?:.+/)?", "^"):
        if all(text.startswith(start) for text in texts):
            return start + "(?:" + "|".join(f"(?:{text[len(start):]})" for text in texts) + ")"
    return "|".join(f"(?:{text})" for text in texts)


def _normalize(path: str) -> str:
    """The path as pathspec matches it (its ``util.normalize_file``): ``/`` between parts,
    relative (a leading ``/`` or ``./`` dropped)."""
    for sep in (os.sep, os.altsep):
        if sep and sep != "/":
            path = path.replace(sep, "/")
    if path.startswith("/"):
        return path[1:]
    if path.startswith("./"):
        return path[2:]
    return path


def _spec(lines: Iterable[str]) -> GitIgnoreSpec:
    from pathspec import GitIgnoreSpec

    return GitIgnoreSpec.from_lines(lines)


def _gitignore_spec(lines: list[str]) -> GitIgnoreSpec:
    """A .gitignore read as git reads it: a line that is no pattern (a lone ``\\``, ``[z-a].py``)
    matches nothing, and the others still count, in their order. Not an error: the file is the
    repository's, and git itself passes such a line by without a word."""
    import re

    try:
        return _spec(lines)
    except (ValueError, re.error):
        return _spec([line for line in lines if _is_pattern(line)])


def _is_pattern(line: str) -> bool:
    import re

    try:
        _spec([line])
    except (ValueError, re.error):
        return False
    return True


def _scan(top: str, onerror: Callable[[OSError], None]):
    """``os.walk(top, onerror=onerror)`` as Python 3.11 walks (top-down, in the order of the
    folder names the caller leaves in place, a symlinked folder listed but not entered, a folder
    whose listing fails told to ``onerror`` and skipped), with a fourth item: the names the
    listing itself shows to be regular files and not symlinks, which need no stat to be sure of
    (``_may_be_a_file``); os.walk keeps that from its caller and costs a stat per file."""
    # A stack, not recursion: a tree nested a thousand folders deep is walked, not a
    # RecursionError (os.walk became iterative in Python 3.12 for the same reason).
    stack = [top]
    while stack:
        top = stack.pop()
        listed = _list(top, onerror)
        if listed is None:
            continue
        dirs, nondirs, plain, links = listed
        yield top, dirs, nondirs, plain
        stack.extend(os.path.join(top, name) for name in reversed(dirs) if name not in links)


def _list(top: str, onerror: Callable[[OSError], None]):
    """(folders, other names, plain files, symlinked folders) of ``top``; None where its listing
    fails (told to ``onerror``)."""
    dirs, nondirs, plain, links = [], [], set(), set()
    try:
        entries = os.scandir(top)
    except OSError as error:
        onerror(error)
        return None
    with entries:
        while True:
            try:
                try:
                    entry = next(entries)
                except StopIteration:
                    break
            except OSError as error:
                onerror(error)
                return None
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            try:
                if is_dir:
                    dirs.append(entry.name)
                    if entry.is_symlink():
                        links.add(entry.name)
                else:
                    nondirs.append(entry.name)
                    if entry.is_file(follow_symlinks=False):
                        plain.add(entry.name)
            except OSError:  # as os.path.islink, a link that cannot be looked at is entered
                pass
    return dirs, nondirs, plain, links


def _may_be_a_file(path: str | Path) -> bool:
    """False for what is surely not a regular file: a dangling symlink or loop, a pipe, a socket.

    Any other failure to look counts as a file, so that reading it reports the real reason.
    """
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as err:
        return err.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR)


# Probes inside a folder that may not be entered answer "no" rather than raise: the walk then
# reports that folder once, as "cannot list", or the file inside it as "cannot read".

def _is_file(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def _reason(err: OSError) -> str:
    return err.strerror or str(err)


def _lowercase_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _ancestors(folder: Path, top: Path) -> list[Path]:
    """``folder`` and its parents up to ``top``, deepest first."""
    chain = [folder]
    while chain[-1] != top and chain[-1] != chain[-1].parent:
        chain.append(chain[-1].parent)
    return chain


def _relative(path: Path, root: Path) -> Path:
    # A path outside the root matches only unanchored patterns (``build``, ``*.egg-info``).
    return path.relative_to(root) if path.is_relative_to(root) else Path(*path.parts[1:])


def _prefix(relative: Path) -> str:
    """A folder's relative path as the start of its entries' (``a/b/``); empty for ``.``."""
    text = relative.as_posix()
    return "" if text == "." else f"{text}/"
