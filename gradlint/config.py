"""Settings from ``[tool.gradlint]`` in ``pyproject.toml``, checked before anything runs.

The file used is ``--config PATH`` or else the nearest ``pyproject.toml`` with a
``[tool.gradlint]`` table, from the current directory up (ruff's rule). Every mistake in it —
TOML syntax, a ``tool`` or ``gradlint`` that is not a table, an unknown key, a wrong type, a
selector that names no rule, a pattern that is not a gitignore pattern, an empty ``select`` — is
a ``ConfigError`` whose one-line message names the file and the key, so a typo can never silently
turn a rule off. So is a ``--config``
file without the table: the user named it to be read.

    [tool.gradlint]
    select = ["ALL"]
    ignore = ["GL004"]
    extend-select = ["GL900"]      # on top of select (or of the default rules)
    extend-exclude = ["experiments/"]

    [tool.gradlint.per-file-ignores]
    "tests/**" = ["GL001"]
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from gradlint.rule import UNCHECKED_CODES, select_codes

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec


SECTION = "[tool.gradlint]"

# key → (type check, the expected type as the error message names it)
_LIST_OF_STR = (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of strings")
# Each value of the table is checked on its own, so that the message names the pattern.
_TABLE = (lambda v: isinstance(v, dict), "a table of pattern = list of codes")
KEYS = {
    "select": _LIST_OF_STR,
    "extend-select": _LIST_OF_STR,
    "ignore": _LIST_OF_STR,
    "extend-ignore": _LIST_OF_STR,
    "exclude": _LIST_OF_STR,
    "extend-exclude": _LIST_OF_STR,
    "per-file-ignores": _TABLE,
}


class ConfigError(Exception):
    """A config file gradlint cannot use; the message is meant for the user as it stands."""


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the file the settings came from; None when there is none
    root: Path = field(default_factory=lambda: Path(os.path.abspath(os.curdir)))
    select: list[str] | None = None
    extend_select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    extend_ignore: list[str] = field(default_factory=list)
    exclude: list[str] | None = None  # None: discovery's defaults
    extend_exclude: list[str] = field(default_factory=list)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)

    def codes(self, select: list[str] | None = None, ignore: list[str] | None = None,
              extend_select: list[str] = (), extend_ignore: list[str] = ()) -> frozenset[str]:
        """The rules a run checks, with the command line's lists over the config's (ruff's
        layers): a given ``select`` replaces the config's ``select`` and ``extend-select``, a given
        ``ignore`` its ``ignore`` and ``extend-ignore``; ``extend_*`` add to what is in effect.
        Selectors must be valid (``select_codes`` raises ValueError otherwise)."""
        named = set()
        if select is None:
            select, extend_select = self.select, [*self.extend_select, *extend_select]
        else:
            # A rule the command line names one by one (`--select GL005`) runs though the
            # config ignores it, as in ruff, where the more specific selector wins; `--select ALL`
            # or a prefix keeps the config's ignores.
            named = {code for code in select_codes(select, None) if any(
                s.strip().upper() == code or select_codes([s], None) == {code} for s in select if s.strip())}
        config_ignore = ignore is None
        if config_ignore:
            ignore = [*self.ignore, *self.extend_ignore]
        chosen = select_codes(select, None) | select_codes(extend_select, None) | UNCHECKED_CODES
        ignored = select_codes([*ignore, *extend_ignore], None)
        return chosen - (ignored - named if config_ignore else ignored)

    def codes_for(self, path: str | Path, codes: frozenset[str]) -> frozenset[str]:
        """``codes`` less those ``per-file-ignores`` turns off for ``path``."""
        if not self.per_file_ignores:
            return codes
        relative = _relative_posix(path, self.root)
        for spec, kept in self._per_file_specs:
            if spec.match_file(relative):
                codes = codes & kept
        return codes

    @cached_property
    def _per_file_specs(self) -> list[tuple[GitIgnoreSpec, frozenset[str]]]:
        # (pattern, the codes it leaves on); prefixes and ALL resolved once, here. Off-by-default
        # rules are left on too: whether they run is the selection's business, not the pattern's.
        from pathspec import GitIgnoreSpec  # here, not at the top: most runs have no such table

        return [
            (GitIgnoreSpec.from_lines([pattern]), select_codes(["ALL"], ignored))
            for pattern, ignored in self.per_file_ignores.items()
        ]


def load(config_path: str | Path | None = None, start: str | Path | None = None) -> Config:
    """The config from ``config_path``, else from the nearest pyproject.toml above ``start``."""
    if config_path is not None:
        path = Path(os.path.abspath(config_path))
        if path.is_dir():
            raise ConfigError(f"{config_path}: is a folder; --config names the pyproject.toml itself")
        if not path.is_file():
            raise ConfigError(f"{config_path}: no such config file")
        table = _table(path, _read(path))
        if table is None:
            raise ConfigError(f"{config_path}: has no {SECTION} table")
        return _parse(path, table)
    found = find(start)
    if found is None:
        return Config()
    path, table = found
    return _parse(path, table)


def find(start: str | Path | None = None) -> tuple[Path, dict] | None:
    """The nearest pyproject.toml with a [tool.gradlint] table, and that table."""
    here = Path(os.path.abspath(start if start is not None else os.curdir))
    for folder in (here, *here.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            table = _table(candidate, _read(candidate))
            if table is not None:
                return candidate, table
    return None


def _table(path: Path, data: dict) -> dict | None:
    """The file's [tool.gradlint] table; None when it has none."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):  # ``tool = "gradlint"``: every tool reading the file is lost
        raise ConfigError(f"{_display(path)}: 'tool' must be a table, not {_describe(tool)}")
    table = tool.get("gradlint")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{_display(path)}: {SECTION} must be a table, not {_describe(table)}")
    return table


def _read(path: Path) -> dict:
    # Imported here: a run with no pyproject.toml to read (a warm run over a checkout without
    # one) is spared its 10 ms.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except RecursionError:  # tomllib recurses once per level of nested arrays or inline tables
        raise ConfigError(f"{_display(path)}: invalid TOML: nested too deeply to read") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{_display(path)}: invalid TOML: {err}") from None
    except UnicodeDecodeError as err:  # TOML is UTF-8 by definition
        line = err.object[: err.start].count(b"\n") + 1
        raise ConfigError(f"{_display(path)}: invalid TOML: not UTF-8 (line {line})") from None
    except OSError as err:
        raise ConfigError(f"{_display(path)}: cannot read: {err.strerror or err}") from None


def _parse(path: Path, table: dict) -> Config:
    shown = _display(path)
    for key, value in table.items():
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (valid keys: {', '.join(KEYS)})"
            raise ConfigError(f"{shown}: unknown key '{key}' in {SECTION}{hint}")
        valid, expected = KEYS[key]
        if not valid(value):
            raise ConfigError(
                f"{shown}: '{key}' in {SECTION} must be {expected}, not {_describe(value)}"
            )
    per_file_ignores = table.get("per-file-ignores", {})
    for pattern, codes in per_file_ignores.items():
        if not _LIST_OF_STR[0](codes):  # ruff's rule: a list even for one code
            raise ConfigError(f"{shown}: in 'per-file-ignores': '{pattern}' must be a list of "
                              f"codes, not {_describe(codes)}")
    if table.get("select") == []:
        # As with an empty --select: more likely an unfinished edit than a wish to run nothing.
        raise ConfigError(
            f"{shown}: 'select' in {SECTION} is empty (to run no rule, use ignore = [\"ALL\"])"
        )
    for key in ("select", "extend-select", "ignore", "extend-ignore"):
        _check_codes(shown, key, table.get(key, []))
    for pattern, codes in per_file_ignores.items():
        _check_codes(shown, f"per-file-ignores '{pattern}'", codes)
    for key in ("exclude", "extend-exclude"):
        _check_patterns(shown, key, table.get(key, []))
    _check_patterns(shown, "per-file-ignores", per_file_ignores)
    return Config(
        path=path,
        root=path.parent,
        select=table.get("select"),
        extend_select=table.get("extend-select", []),
        ignore=table.get("ignore", []),
        extend_ignore=table.get("extend-ignore", []),
        exclude=table.get("exclude"),
        extend_exclude=table.get("extend-exclude", []),
        per_file_ignores=per_file_ignores,
    )


def _check_codes(shown: str, where: str, codes: list[str]) -> None:
    try:
        select_codes(codes, None)
    except ValueError as err:
        raise ConfigError(f"{shown}: in '{where}': {err}") from None


def _check_patterns(shown: str, key: str, patterns) -> None:
    """Each pattern compiled now, so that discovery and per-file-ignores never meet one pathspec
    rejects (``[z-a]``, a lone ``!`` or ``\\``) in the middle of a run."""
    if not patterns:
        return
    import re

    from pathspec import GitIgnoreSpec  # only for a config that has patterns

    for pattern in patterns:
        try:
            GitIgnoreSpec.from_lines([pattern])
        except (ValueError, re.error) as err:
            reason = err.msg if isinstance(err, re.error) else "not a gitignore pattern"
            raise ConfigError(f"{shown}: in '{key}': invalid pattern '{pattern}': {reason}") from None


def _describe(value) -> str:
    if isinstance(value, (list, dict)):
        return f"{type(value).__name__} {value!r}"[:80]
    return f"{type(value).__name__} {value!r}"


def _display(path: Path) -> str:
    """The path as the user would write it: relative to the current directory when under it."""
    try:
        return str(path.relative_to(os.path.abspath(os.curdir)))
    except ValueError:
        return str(path)


def _relative_posix(path: str | Path, root: Path) -> str:
    absolute = Path(os.path.abspath(path))
    if absolute.is_relative_to(root):
        return absolute.relative_to(root).as_posix()
    return Path(path).as_posix()
