"""gradlint: a linter for PyTorch autograd bugs.

The public names are loaded on first use, so ``import gradlint`` (and ``gradlint --version``)
stays cheap: no libcst parse machinery, and never torch.
"""
from __future__ import annotations

from importlib import import_module, metadata

try:
    __version__ = metadata.version("gradlint")
except metadata.PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.1.0"

# name → module that defines it
_EXPORTS = {
    "lint_source": "gradlint.engine",
    "lint_paths": "gradlint.runner",
    "Finding": "gradlint.finding",
    "Verdict": "gradlint.finding",
    "Severity": "gradlint.finding",
    "RULES": "gradlint.rule",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    if name in _EXPORTS:
        value = getattr(import_module(_EXPORTS[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'gradlint' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
