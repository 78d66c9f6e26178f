"""gradlint: a linter for PyTorch autograd bugs.

The public names are loaded on first use, so ``import gradlint`` (and ``gradlint --version``)
stays cheap: no analysis, and never torch.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from gradlint.finding import Finding

# The one place the version is written (pyproject.toml reads it from here): asking
# importlib.metadata instead would cost every run a fifth of its start-up.
__version__ = "0.1.0"

# The distribution's name: "gradlint" on PyPI is another project (a diffusion-MRI tool), so
# install hints name the dependency itself, or this repository, never the name gradlint alone.
DISTRIBUTION = "autograd-gradlint"
# (the CPU build: a plain `pip install torch` on Linux pulls the multi-GB CUDA one)
TORCH_HINT = ("pip install torch --index-url https://download.pytorch.org/whl/cpu "
              "(or, in a clone of gradlint: pip install '.[dynamic]')")
PYGLS_HINT = "pip install pygls (or, in a clone of gradlint: pip install '.[lsp]')"

# name → module that defines it
_EXPORTS = {
    "lint_paths": "gradlint.runner",
    "Finding": "gradlint.finding",
    "Verdict": "gradlint.finding",
    "Severity": "gradlint.finding",
    "RULES": "gradlint.rule",
    # Reading the autograd record in your own tests (these import torch).
    "reachable_leaves": "gradlint.dynamic.record",
    "unreachable_parameters": "gradlint.dynamic.record",
    "assert_reachable": "gradlint.dynamic.record",
}

__all__ = ["__version__", "lint_source", *_EXPORTS]


def lint_source(
    source: str | bytes, path: str, codes: str | Iterable[str] | None = None
) -> list[Finding]:
    """Findings for one module's source (``str`` or ``bytes``), sorted, suppressions applied.

    ``path`` is the name findings carry. ``codes`` selects rules as ``--select`` does: codes,
    prefixes (``GL00``), rule names (``detached-result``) or ``ALL``, in any case, as an iterable
    or a comma-separated string (default: every rule but the off-by-default GL900); a selector
    that matches no rule raises ValueError rather than quietly checking nothing. A module that
    does not parse yields one GL000 finding. The code is read, never imported or run, and torch
    is not needed.
    """
    # Imported here, not at the top, so that ``import gradlint`` stays cheap.
    from gradlint import engine
    from gradlint.rule import resolve

    return engine.lint_source(source, path, resolve(codes))


def __getattr__(name: str):
    if name in _EXPORTS:
        try:
            module = import_module(_EXPORTS[name])
        except ModuleNotFoundError as err:
            if err.name != "torch":
                raise
            raise ImportError(f"gradlint.{name} reads the autograd record and needs torch: "
                              f"{TORCH_HINT}") from None
        value = getattr(module, name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'gradlint' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
