"""The ``gradlint`` command: ``check`` files, explain a ``rule``.

Exit status, as ruff and flake8 use it: 0 no findings, 1 findings, 2 the run itself went wrong
(bad usage or config, a file that could not be read, a check that crashed). Errors are one line
on stderr, ``gradlint: error: ...``; a traceback is always a gradlint bug.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from gradlint import PYGLS_HINT, TORCH_HINT, __version__, config as config_file, runner
from gradlint.discovery import discover, passed_by
from gradlint.finding import STATUSES, Finding
from gradlint.parallel import ignore_interrupts
from gradlint.report import FORMATS, from_here
from gradlint.rule import BY_CODE, RULES, Rule, select_codes

if TYPE_CHECKING:
    from gradlint import diff

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
MACHINE_FORMATS = ("json", "json-lines", "github", "sarif", "rdjson", "gitlab", "junit")  # stdout is for a program: statistics go to stderr
DEFAULT_TIMEOUT = 60.0  # seconds per dynamic run
MIN_MEMORY_LIMIT = 512  # MB: less and torch itself fails in ways that blame the program


class UsageError(Exception):
    """Something the user must fix before gradlint can run; the message says what."""


def main(argv: list[str] | None = None) -> int:
    _replace_unencodable(sys.stdout)
    _replace_unencodable(sys.stderr)
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return EXIT_ERROR
        return args.handler(args)
    except SystemExit as stop:  # argparse's --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else EXIT_ERROR
    except (UsageError, config_file.ConfigError) as err:
        _error(str(err))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``gradlint check | head``): stop quietly, and keep Python from
        # complaining again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR


def run() -> None:
    """The ``gradlint`` script and ``python -m gradlint``: ``main()``, then exit at once.

    Tearing the interpreter down (libcst's modules, every object freed one by one) would cost a
    one-file run, the editor's and pre-commit's case, an eighth of its time, so the process ends
    with ``os._exit`` once its output is flushed, as mypy does. Nothing gradlint leaves behind
    needs a finalizer: the dynamic pass's processes have been waited for by then.
    """
    if hasattr(signal, "alarm"):
        signal.signal(signal.SIGINT, _interrupted)
    status = 130  # where a Ctrl-C lands before any status below is set
    try:
        try:
            status = main()
        except KeyboardInterrupt:  # one that landed while main() handled another
            status = 130
        except Exception as err:
            if _fallout_of_interrupt(err):
                # (a Ctrl-C that landed inside the standard library's own bookkeeping, a lock
                # `threading` was releasing: "release unlocked lock", not a bug of gradlint's)
                status = 130
            else:
                # A bug of gradlint's. The traceback is for the report; the status must still say
                # "error" (2), not "findings" (1), which is what Python would exit with.
                import traceback

                traceback.print_exc()
                _error("internal error; please report it with the traceback above")
                status = EXIT_ERROR
    finally:
        # However a Ctrl-C lands from here on, the process ends through os._exit: one escaping
        # to the interpreter's own exit waited there on the pool's threads and finalizers.
        try:
            ignore_interrupts()  # the run is over: a late Ctrl-C cuts no flush short
            if runner.INTERRUPTS[0]:
                status = 130  # (one that some code swallowed still ends the run as interrupted)
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except OSError:  # the reader went away; the status says what happened
                    pass
        finally:
            os._exit(status)


def _fallout_of_interrupt(err: BaseException) -> bool:
    """Whether ``err`` was raised while a Ctrl-C was being handled."""
    seen = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        if isinstance(err, KeyboardInterrupt):
            return True
        err = err.__context__ or err.__cause__
    return False


def _interrupted(signum, frame) -> None:
    # Ctrl-C held down can land anywhere, in the middle of ending workers or in a finalizer that
    # swallows it; whatever it interrupts, the process ends within seconds (SIGALRM's default
    # action, which no Python code stands in the way of) rather than hang.
    signal.alarm(10)
    runner.INTERRUPTS[0] += 1
    raise KeyboardInterrupt


def _replace_unencodable(stream) -> None:
    # A terminal or pipe that is not UTF-8 (PYTHONIOENCODING=ascii, a C locale) must cost a '?'
    # for an '…' in a message or a quoted source line, not the whole run.
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


class _Formatter(argparse.HelpFormatter):
    """argparse's own, as wide as the terminal as argparse finds it, without importing shutil
    (with bz2, lzma and zlib) for that: argparse makes a formatter for every add_argument, so
    every run paid 4 ms for it."""

    def __init__(self, prog, indent_increment=2, max_help_position=24, width=None):
        if width is None:
            width = _columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    # shutil.get_terminal_size().columns: $COLUMNS, else the terminal's, else 80.
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, like every other error, naming the command's --help rather
    than printing its whole usage block."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):
        self.exit(EXIT_ERROR, f"gradlint: error: {message} (see '{self.prog} --help')\n")


class _CommandParser(_Parser):
    """A command's parser. It rejects unknown arguments itself, so that the error names the
    command's --help (``gradlint check --bogus``), not the top-level one."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return namespace, extras


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="gradlint",
        description="A linter for PyTorch autograd: parameters that silently get no gradient, "
        "wrong gradients, graphs that grow every step.",
        epilog="Exit status: 0 no findings, 1 findings, 2 error. "
        "Run 'gradlint COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"gradlint {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)

    check = commands.add_parser(
        "check", help="lint files and folders",
        description="Lint Python files; folders are searched, skipping .gitignore'd files, "
        "virtualenvs and build output.",
    )
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files or folders to lint (default: .); '-' reads standard input")
    check.add_argument("--select", action="append", metavar="RULES",
                       help="rules to run: comma-separated codes, prefixes (GL00) or names "
                       "(detached-result), or ALL; replaces the config's 'select' and "
                       "'extend-select'. An empty --select is an error: to run no rule, use "
                       "--ignore ALL")
    check.add_argument("--extend-select", action="append", metavar="RULES",
                       help="rules to run on top of those selected (by --select, else the "
                       "config), e.g. GL900")
    check.add_argument("--ignore", action="append", metavar="RULES",
                       help="rules to skip, written as for --select; replaces the config's "
                       "'ignore' and 'extend-ignore' (so --ignore '' skips none)")
    check.add_argument("--extend-ignore", action="append", metavar="RULES",
                       help="rules to skip on top of those ignored (by --ignore, else the config)")
    check.add_argument("--output-format", choices=list(FORMATS),
                       help="how to print findings (default: full on a terminal, else concise); "
                       "json, json-lines for tools; github, sarif, rdjson, gitlab, junit for code "
                       "review (the document alone on stdout)")
    check.add_argument("--statistics", action="store_true",
                       help="print the number of findings per rule instead of the findings "
                       "(with a machine format: the document on stdout, the counts on stderr)")
    check.add_argument("--diff-base", metavar="REV",
                       help="report only findings on lines changed since the git revision REV "
                       "(committed, staged or not; untracked files count in full), e.g. "
                       "origin/main: what a reviewer sees in the diff")
    check.add_argument("--exit-zero", action="store_true",
                       help="exit 0 even when there are findings")
    check.add_argument("--stdin-filename", metavar="NAME",
                       help="lint standard input under this name (per-file-ignores match it; "
                       "other paths are then ignored)")
    check.add_argument("--force-exclude", action="store_true",
                       help="apply exclude, extend-exclude and .gitignore to files and folders named "
                       "on the command line and to --stdin-filename too (for pre-commit and editors)")
    check.add_argument("--config", metavar="PATH",
                       help="the pyproject.toml to read [tool.gradlint] from "
                       "(default: the nearest one that has it)")
    check.add_argument("-j", "--jobs", type=_jobs, metavar="N",
                       help="lint in N processes (default: the number of CPUs; 1: no pool)")
    check.add_argument("--no-cache", action="store_true",
                       help="lint every file afresh, and do not write the cache")
    check.add_argument("--cache-dir", metavar="PATH",
                       help="where to keep the cache (default: $GRADLINT_CACHE_DIR, else "
                       ".gradlint_cache in the folder of the config file, else in the current one)")
    check.add_argument("-q", "--quiet", action="store_true",
                       help="print no summary line")
    check.add_argument("--add-noqa", action="store_true",
                       help="write '# noqa: GLxxx' on every finding (to adopt gradlint in a large "
                       "codebase and gate only new code); reports what could not be written")
    dynamic = check.add_argument_group(
        "dynamic pass", "run the flagged code with torch and confirm or dismiss each finding with "
        f"evidence from the autograd record (needs torch: {TORCH_HINT})")
    dynamic.add_argument("--dynamic", action="store_true",
                         help="run each file with findings as a script (a module that runs "
                         "nothing: the scripts beside it that import it; or --driver) and give "
                         "every finding a verdict")
    dynamic.add_argument("--driver", metavar="MODULE:FUNCTION",
                         help="run this zero-argument callable instead of the flagged files "
                         "(e.g. tests.smoke:train_one_step); implies --dynamic")
    dynamic.add_argument("--timeout", type=_seconds, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                         help="time limit for each run (default: 60)")
    dynamic.add_argument("--memory-limit", type=_megabytes, default=None, metavar="MB",
                         help="memory each run may allocate; beyond it an allocation fails in the "
                         "program and its findings get an 'error' verdict (default: 8192, or 3/4 "
                         "of the machine's memory if less; 0: no limit)")
    dynamic.add_argument("--dynamic-only", metavar="STATUSES",
                         help="report only findings whose verdict is one of these, e.g. "
                         "'confirmed' for a CI gate (comma-separated: "
                         f"{', '.join(STATUSES)}); implies --dynamic")
    dynamic.add_argument("--show-graph", action="store_true",
                         help="print the autograd record of the root that decided each verdict "
                         "(full format); implies --dynamic")
    check.set_defaults(handler=_check)

    rule = commands.add_parser(
        "rule", help="explain a rule",
        description="Show a rule's documentation, or list every rule.",
    )
    which = rule.add_mutually_exclusive_group(required=True)
    which.add_argument("code", nargs="?", metavar="RULE",
                       help="a rule code or name, e.g. GL001 or detached-result")
    which.add_argument("--all", action="store_true", help="list every rule")
    rule.set_defaults(handler=_rule)

    lsp = commands.add_parser(
        "lsp", help="run the language server (for editors)",
        description="Speak the Language Server Protocol on standard input and output: "
        "diagnostics when a file is opened, edited or saved, and a quick fix that adds "
        f"'# noqa'. Needs pygls: {PYGLS_HINT}.",
    )
    lsp.set_defaults(handler=_lsp)
    return parser


def _check(args: argparse.Namespace) -> int:
    if any(path == "" for path in args.paths):
        # (an empty shell variable, `gradlint check "$CHANGED"`: linting the current folder
        # instead would answer a question nobody asked, as an empty --select would)
        raise UsageError("an empty path was given; name a file or folder (`.` for the current one)")
    config = config_file.load(args.config, start=_project(args))
    if config.path is None and args.config is None:
        config = config_file.load()
    codes = _codes(args, config)
    if not codes:
        # Not an error: ``--ignore ALL`` is how a user turns gradlint off for a while.
        print("gradlint: warning: no rules selected", file=sys.stderr)
    errors: list[str] = []
    targets = _targets(args, config, errors)
    only = _statuses(args.dynamic_only)
    if args.driver is not None:
        module, _, function = args.driver.partition(":")
        if not module or not function or "/" in module or module.endswith(".py"):
            raise UsageError(f"--driver: expected MODULE:FUNCTION (a dotted module name, as for "
                             f"python -m, and a function in it), got '{args.driver}'")
    if args.output_format is None and args.show_graph:
        args.output_format = "full"  # the graph is drawn in the full format only
    dynamic = args.dynamic or args.driver is not None or only is not None or args.show_graph
    if args.add_noqa and dynamic:
        raise UsageError("--add-noqa silences the static findings and runs nothing: it does not "
                         "combine with --dynamic, --driver, --dynamic-only or --show-graph")
    if not dynamic and (args.timeout != DEFAULT_TIMEOUT or args.memory_limit is not None):
        print("gradlint: warning: --timeout and --memory-limit apply to the dynamic pass only "
              "(add --dynamic)", file=sys.stderr)
    if dynamic:
        from gradlint.dynamic import launch
        if not launch.torch_available():
            raise UsageError(f"--dynamic needs torch, which is not installed here: {TORCH_HINT}")
    changes = _changes(args.diff_base, [t.path for t in targets if t.path is not None])
    from gradlint import parallel, progress

    result = runner.run(targets, lambda name: config.codes_for(name, codes),
                        jobs=args.jobs or parallel.default_jobs(), cache=_cache(args, config),
                        progress=progress.bar, root=_project(args))
    errors.extend(result.errors)
    for warning in result.warnings:
        print(f"gradlint: warning: {warning}", file=sys.stderr)
    if changes is not None:
        from gradlint import diff

        stdin = {t.name: runner.decode(t.source) for t in targets if t.path is None}
        try:
            result.findings, unchanged = changes.only_changed(result.findings, stdin)
        except diff.DiffError as err:
            raise UsageError(str(err)) from None
        if unchanged and not args.quiet:
            print(f"gradlint: {_plural(unchanged, 'finding')} on lines unchanged since "
                  f"{args.diff_base} not reported", file=sys.stderr)
    adoption = None
    if args.add_noqa:  # result.findings become those still reported
        from gradlint import adopt
        adoption = adopt.add_noqa(result, targets, lambda name: config.codes_for(name, codes))
        errors.extend(adoption.errors)
    if dynamic and result.findings:
        try:
            result.findings = launch.run(result.findings, launch.Driver(args.driver), timeout=args.timeout,
                                         show_graph=args.show_graph, memory_limit=args.memory_limit,
                                         unrunnable=frozenset(t.name for t in targets if t.path is None))
        except launch.DynamicUnavailable as err:
            raise UsageError(str(err)) from None
        if only is not None:  # a file that was not checked (GL000), or GL900, is never filtered away
            hidden = Counter(f.verdict.status for f in result.findings
                             if f.verdict.status not in only and f.code not in launch.UNPROBED)
            result.findings = [f for f in result.findings if f.verdict.status in only or f.code in launch.UNPROBED]
            if hidden:
                print("gradlint: warning: --dynamic-only hid " + ", ".join(
                    f"{n} {status}" for status, n in sorted(hidden.items())) + " finding"
                    + ("s" if sum(hidden.values()) != 1 else ""), file=sys.stderr)
            if hidden["error"] and "error" not in only:
                # A gate must not pass because the run that should decide it failed.
                errors.append("error: the dynamic pass could not decide "
                              f"{_plural(hidden['error'], 'finding')} (verdict: error); run without "
                              "--dynamic-only to see why")

    result.findings = from_here(result.findings)
    output_format = args.output_format or ("full" if sys.stdout.isatty() else "concise")
    if not args.statistics or output_format in MACHINE_FORMATS:
        FORMATS[output_format](result.findings, sys.stdout, result.sources, errors)
    if args.statistics:  # as ruff's: the counts instead of the findings
        write_statistics(result.findings, sys.stderr if output_format in MACHINE_FORMATS else sys.stdout)
    sys.stdout.flush()  # findings before the stderr lines below when both go to one terminal

    for error in errors:
        print(f"gradlint: {error}", file=sys.stderr)
    if adoption is not None:
        for note in adoption.notes:
            print(f"gradlint: warning: {note}", file=sys.stderr)
        if not args.quiet:
            print(adoption.summary(), file=sys.stderr)
    if not targets and not errors and not args.force_exclude:  # excluded on purpose: no news
        print("gradlint: warning: no Python files found", file=sys.stderr)
    if not args.quiet and output_format not in ("json", "json-lines"):
        print(summary(result.findings, result.files_checked, len(errors)), file=sys.stderr)

    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if result.findings and not args.exit_zero else EXIT_CLEAN


def _cache(args: argparse.Namespace, config: config_file.Config):
    """The cache for this run (None with --no-cache): --cache-dir, else $GRADLINT_CACHE_DIR,
    else .gradlint_cache in the project root, which is, as for ruff, the folder of the config
    file in use, or the current folder when there is none."""
    if args.cache_dir == "":
        raise UsageError("--cache-dir: an empty path (give a folder, or --no-cache)")
    if args.no_cache:
        return None
    from gradlint import cache

    folder = args.cache_dir or os.environ.get(cache.ENV) or config.root / cache.FOLDER
    return cache.Cache(Path(os.path.abspath(folder)))


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of processes: '{text}'") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _changes(base: str | None, paths: list) -> diff.Changes | None:
    if base is None:
        return None
    from gradlint import diff

    try:
        return diff.Changes(base, paths)
    except diff.DiffError as err:
        raise UsageError(str(err)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: '{text}'") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("must be more than 0 seconds")
    return value


def _megabytes(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number of megabytes: '{text}'") from None
    if value < 0 or 0 < value < MIN_MEMORY_LIMIT:
        raise argparse.ArgumentTypeError(
            f"must be 0 (no limit) or at least {MIN_MEMORY_LIMIT} MB (torch alone takes about 250 MB)")
    return value


def _statuses(text: str | None) -> frozenset[str] | None:
    if text is None:
        return None
    wanted = frozenset(s.strip().lower() for s in text.split(",") if s.strip())
    unknown = sorted(wanted - set(STATUSES))
    if unknown or not wanted:
        raise UsageError(f"--dynamic-only: unknown verdict '{','.join(unknown) or text}' "
                         f"(verdicts are {', '.join(STATUSES)})")
    return wanted


def _codes(args: argparse.Namespace, config: config_file.Config) -> frozenset[str]:
    # A command-line list replaces the config's, rather than adding to it, as in ruff; the
    # extend- options add to whichever list is in effect.
    select = _split(args.select) if args.select is not None else None
    ignore = _split(args.ignore) if args.ignore is not None else None
    if select is not None and not select:
        # Most likely an empty shell variable (--select "$RULES"); exit 0 with nothing checked
        # would pass CI unnoticed.
        raise UsageError("--select: no rules given (to run no rule, use --ignore ALL)")
    for option, given in (("--select", args.select), ("--extend-select", args.extend_select),
                          ("--ignore", args.ignore), ("--extend-ignore", args.extend_ignore)):
        if given is not None:
            try:
                select_codes(_split(given), None)
            except ValueError as err:
                raise UsageError(f"{option}: {err}") from None
    return config.codes(select, ignore, _split(args.extend_select or []), _split(args.extend_ignore or []))


def _split(values: list[str]) -> list[str]:
    return [code.strip() for value in values for code in value.split(",") if code.strip()]


def _project(args: argparse.Namespace) -> str | None:
    """Where the config search starts: the folder the linted paths share (``gradlint check
    ../proj`` reads proj's pyproject.toml, as ruff and black do), else the current one."""
    named = [args.stdin_filename] if args.stdin_filename is not None else [
        path for path in args.paths if path != runner.STDIN]
    folders = [os.path.abspath(path if os.path.isdir(path) else os.path.dirname(path) or os.curdir)
               for path in named]
    if not folders:
        return None
    return os.path.commonpath(folders)


def _targets(args, config: config_file.Config, errors: list[str]) -> list[runner.Target]:
    if args.stdin_filename is not None:
        return _stdin_target(args, config)
    paths = args.paths or ["."]
    targets = []
    if runner.STDIN in paths:
        try:
            targets.append(runner.Target(name=runner.STDIN, source=runner.read_stdin()))
        except OSError as err:  # more than gradlint reads of one file (`- < /dev/zero`)
            errors.append(f"error: standard input: not checked: {err.strerror or err}")
    # A missing path or a folder that cannot be listed is an error, but the other paths are
    # still linted: the user sees every problem of the run at once.
    files = discover(
        [p for p in paths if p != runner.STDIN],
        exclude=config.exclude, extend_exclude=config.extend_exclude, root=config.root,
        on_error=lambda message: errors.append(f"error: {message}"),
        force_exclude=args.force_exclude,
    )
    targets.extend(runner.Target(name=str(path), path=path) for path in files)
    return targets


def _stdin_target(args, config: config_file.Config) -> list[runner.Target]:
    """Standard input under the name ``--stdin-filename`` gives: config patterns match that name
    as if it were a path from the current directory, so per-file-ignores apply as to the file."""
    if not args.stdin_filename.strip():
        raise UsageError("--stdin-filename: empty name")
    # As ruff does: naming stdin means stdin is what gets linted. A path beside it (an editor
    # passing the buffer's file too) would otherwise be linted in its place without a word.
    for path in args.paths:
        if path != runner.STDIN:
            print(f"gradlint: warning: ignoring {path} in favor of standard input "
                  "(--stdin-filename)", file=sys.stderr)
    if args.force_exclude and passed_by(args.stdin_filename, config.exclude,
                                        config.extend_exclude, config.root):
        return []
    try:
        return [runner.Target(name=args.stdin_filename, source=runner.read_stdin())]
    except OSError as err:  # more than gradlint reads of one file
        raise UsageError(f"standard input: not checked: {err.strerror or err}") from None


def write_statistics(findings: list[Finding], out) -> None:
    counts = Counter((f.code, f.name) for f in findings)
    if not counts:
        return
    width = len(str(max(counts.values())))
    for (code, name), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {count:>{width}}  {code}  {name}", file=out)


def summary(findings: list[Finding], files_checked: int, errors: int = 0) -> str:
    # A file Python rejects (GL000) or past the limits (GL010) was read, not checked: a
    # notebook's bad cell leaves its other cells checked.
    unread = len({f.path for f in findings if f.code in ("GL000", "GL010") and f.cell is None})
    checked = f"{_plural(files_checked - unread, 'file')} checked"
    if unread:
        checked = f"{checked}, {unread} not checked" if files_checked > unread else f"{_plural(unread, 'file')} not checked"
    if errors and findings:
        checked += f", {_plural(errors, 'error')}"
    if not findings:
        # (an error first: "No findings" alone would read as a clean bill for a run that failed)
        return f"{_plural(errors, 'error')}, no findings ({checked})." if errors else f"No findings ({checked})."
    files = len({f.path for f in findings})
    line = f"Found {_plural(len(findings), 'finding')} in {_plural(files, 'file')} ({checked})."
    verdicts = Counter(f.verdict.status for f in findings if f.verdict is not None)
    if verdicts:
        line += " Dynamic pass: " + ", ".join(
            _plural(verdicts[status], status) if status == "error" else f"{verdicts[status]} {status}"
            for status in STATUSES if verdicts[status]) + "."
    return line


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _rule(args: argparse.Namespace) -> int:
    from rich.console import Console

    console = Console(highlight=False)
    if args.all:
        console.print(_catalogue())
        return EXIT_CLEAN
    rule = find_rule(args.code)
    try:
        doc = rule.doc()
    except FileNotFoundError as err:
        raise UsageError(f"{err}: this install lacks the rule documents (rules/*.md)") from None
    if not sys.stdout.isatty():
        # Into a pager or a file, the Markdown itself reads best: rendering would wrap the
        # example code at 80 columns and drop the `backticks` that mark code in the prose.
        sys.stdout.write(doc if doc.endswith("\n") else doc + "\n")
        return EXIT_CLEAN
    from rich.markdown import Markdown

    console.print(Markdown(doc))
    return EXIT_CLEAN


def _lsp(args: argparse.Namespace) -> int:
    try:
        from gradlint import lsp
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] not in ("pygls", "lsprotocol"):
            raise
        raise UsageError(f"gradlint lsp needs pygls: {PYGLS_HINT}") from None
    return lsp.serve()


def find_rule(query: str) -> Rule:
    """The rule with this code (any case) or name."""
    wanted = query.strip()
    rule = BY_CODE.get(wanted.upper()) or next((r for r in RULES if r.name == wanted.lower()), None)
    if rule is None:
        raise UsageError(f"unknown rule '{query}' (rules are {', '.join(BY_CODE)})")
    return rule


def _catalogue():
    from rich.table import Table

    table = Table(box=None, header_style="bold", pad_edge=False)
    table.add_column("code", no_wrap=True, style="bold")
    table.add_column("name", no_wrap=True)
    table.add_column("summary")
    for rule in RULES:
        table.add_row(rule.code, rule.name, rule.summary)
    return table


def _error(message: str) -> None:
    print(f"gradlint: error: {message}", file=sys.stderr)
