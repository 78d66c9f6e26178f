"""``pytest --gradlint``: run the project's own tests as the dynamic pass's driver.

Registered as a ``pytest11`` entry point, so pytest loads it whenever gradlint is installed; it
does nothing at all unless ``--gradlint`` is given (this module imports neither torch nor
libcst). With ``--gradlint`` it lints ``--gradlint-path`` (default: the rootdir) statically,
honouring ``[tool.gradlint]`` as ``gradlint check`` does, and installs the import hook that
instruments the flagged modules — in ``pytest_load_initial_conftests``, before any conftest.py or
test module imports user code. At the end of the session it prints every finding with its verdict
in a "gradlint dynamic pass" section. Pytest's exit status is never changed.

Pytest's assertion rewriting keeps working for every module without a finding: gradlint's finder
claims only the flagged files (a flagged test module runs with plain ``assert`` statements).
"""
from __future__ import annotations

import os

import pytest

from gradlint import TORCH_HINT

_SECTION = "gradlint dynamic pass"
_STATE = "_gradlint_state"  # attribute of the pytest Config holding this run's _State
_NOT_IMPORTED = "no test imported it: write or select a test that runs this code"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gradlint", f"gradlint dynamic pass (needs torch: {TORCH_HINT})")
    group.addoption("--gradlint", action="store_true", default=False,
                    help="lint statically, run the tests with the flagged modules instrumented, and "
                    "print each finding with its verdict (confirmed, dismissed, ...) at the end")
    group.addoption("--gradlint-path", action="append", default=None, metavar="PATH",
                    help="a file or folder to lint for --gradlint (repeatable; default: the rootdir); "
                    "[tool.gradlint] in pyproject.toml is honoured")


class _State:
    """One ``--gradlint`` run: the static findings, the probed ones by fid, the Session."""

    def __init__(self, findings, fids, session, files_checked, errors, early):
        self.findings = findings  # every static finding, sorted
        self.fids = fids  # fid -> Finding, the ones probed
        self.session = session
        self.files_checked = files_checked
        self.errors = errors  # lines for the summary: files that could not be linted
        self.early = early  # fid -> module name, for flagged modules imported before the hook
        self.raised: BaseException | None = None
        self.results = None  # the findings with verdicts, after the session
        self.failure = ""  # why no verdicts could be computed, if so


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args) -> None:
    namespace = early_config.known_args_namespace
    if not getattr(namespace, "gradlint", False) or getattr(namespace, "help", False) \
            or getattr(namespace, "version", False):
        return
    if hasattr(early_config, "workerinput"):  # a pytest-xdist worker: its controller decides
        return
    if getattr(namespace, "numprocesses", None) not in (None, 0, "0"):
        raise pytest.UsageError("--gradlint runs the tests in this process; it cannot watch pytest-xdist "
                                "workers: drop -n (or pass -n 0)")
    try:
        import torch  # noqa: F401 - the tracer needs it; this way a missing torch is one clear line
    except ImportError as err:
        raise pytest.UsageError(f"--gradlint needs torch, which cannot be imported here ({err}): "
                                f"{TORCH_HINT}") from None
    state = _static_pass(early_config, namespace.gradlint_path)
    setattr(early_config, _STATE, state)
    if state.session is not None:  # None: nothing to probe, so no tracer slowing the tests down
        early_config.add_cleanup(state.session.stop)  # if the session never finishes; stop() is idempotent
        state.session.start()


def _static_pass(config, paths: list[str] | None) -> _State:
    import dataclasses
    from pathlib import Path

    from gradlint import config as config_file, runner
    from gradlint.discovery import discover

    invocation = Path(config.invocation_params.dir)
    rootpath = Path(config.rootpath)
    try:
        settings = config_file.load(start=rootpath)
    except config_file.ConfigError as err:
        raise pytest.UsageError(f"gradlint: {err}") from None
    if settings.path is None:  # no [tool.gradlint]: patterns count from the rootdir
        settings = dataclasses.replace(settings, root=rootpath)
    codes = settings.codes()
    wanted = [invocation / p for p in paths] if paths else [rootpath]
    problems: list[str] = []
    files = discover(wanted, exclude=settings.exclude, extend_exclude=settings.extend_exclude,
                     root=settings.root, on_error=problems.append)
    if problems:
        raise pytest.UsageError(f"--gradlint-path: {problems[0]}")
    targets = [runner.Target(name=_shown(path, invocation), path=path) for path in files]
    result = runner.run(targets, lambda name: settings.codes_for(name, codes))

    from gradlint.dynamic.child import Session
    from gradlint.dynamic.launch import probes

    fids, probe = probes(result.findings)  # real paths resolved now, while the working directory is pytest's
    session = Session(probe) if probe else None
    early = _imported_already(probe) if probe else {}
    early = {f["fid"]: early[real] for real, wanted in probe.items() if real in early for f in wanted}
    return _State(result.findings, fids, session, result.files_checked, result.errors, early)


def _imported_already(files) -> dict[str, str]:
    """Flagged modules some plugin imported before the hook was installed: they run uninstrumented."""
    import sys

    early = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and os.path.realpath(path) in files:
            early[os.path.realpath(path)] = name
    return early


def _shown(path, invocation) -> str:
    """The path relative to where pytest was started (``../src/net.py`` from ``tests/``)."""
    try:
        return os.path.relpath(os.path.abspath(path), invocation)
    except ValueError:  # another drive, on Windows
        return os.path.abspath(path)


def pytest_runtest_makereport(item, call) -> None:
    # backward()'s "modified by an inplace operation" is the evidence some verdicts on in-place
    # edits rest on; inside a test, pytest catches it, so it is kept here for the verdicts.
    state = getattr(item.config, _STATE, None)
    if state is None or state.raised is not None or call.excinfo is None:
        return
    err = call.excinfo.value
    if isinstance(err, RuntimeError) and "modified by an inplace operation" in str(err):
        state.raised = err


def pytest_sessionfinish(session, exitstatus) -> None:
    state = getattr(session.config, _STATE, None)
    if state is None or state.results is not None:
        return
    try:
        verdicts = {}
        if state.session is not None:
            state.session.stop()
            verdicts = state.session.verdicts(state.raised)
    except Exception as err:  # never let the linter cost the user their test results
        state.failure = f"gradlint failed while deciding the verdicts: {type(err).__name__}: {err}"
        verdicts = {}
    state.results = _attach(state, verdicts)


def _attach(state: _State, verdicts: dict[int, dict]):
    from gradlint.dynamic.launch import attach
    from gradlint.finding import Verdict

    fid_of = {id(f): fid for fid, f in state.fids.items()}

    def unseen(finding):
        fid = fid_of[id(finding)]
        if fid in state.early:
            why = (f"{finding.path} was imported (as {state.early[fid]}) before gradlint installed its "
                   f"import hook, so it ran without probes")
        else:
            why = state.failure or _NOT_IMPORTED
        return Verdict("error" if state.failure else "not-reached", why)

    return attach(state.findings, state.fids, verdicts, unseen)


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    state = getattr(config, _STATE, None)
    if state is None or state.results is None:
        return
    from gradlint.cli import summary
    from gradlint.report.concise import line

    write = terminalreporter.write_line
    terminalreporter.write_sep("=", _SECTION)
    for finding in state.results:
        write(line(finding))
        write(f"    {finding.verdict.evidence}")
    for error in state.errors:
        write(f"gradlint: {error}")
    write(summary(state.results, state.files_checked))  # counts the verdicts too
