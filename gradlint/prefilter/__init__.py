"""Prefilter: whether any selected rule could report in a module, decided before libcst parses it.

libcst's parse and the flow walk cost some 50 times Python's own ``ast.parse``, which the engine
runs first anyway (``engine._read_ast``). Most modules cannot hold a finding: this package reads
their ``ast`` and says so, and the engine then skips libcst for them. Each condition is
*necessary* for its rule, derived from where the flow walker (``analysis/flow.py``) records the
facts the check reads; a condition too broad costs speed, one too narrow would lose findings, so
where in doubt a condition says yes. ``tests/test_prefilter.py`` lints every fixture, rule
example and case with and without the prefilter and asserts the same output, and asserts that
the filter lets through every module where the walker records a rule's facts.

Scopes. The walker walks the module's top-level code and each function body (comprehensions
inline; nested functions on their own, reading the module's globals, never the enclosing
function's names), and never a class body or a lambda. Values cross from one scope to another
only through the module's globals (a function reads a top-level binding with its cuts, pulls and
rebuilds; saved tensors are dropped) and through the summaries the walker passes along (a
parameter that callers hand a tensor with history, with saved tensors, or a model; functions that
return from under no_grad). So a fact that needs two things in one value needs them in one scope,
or one of them at the top level. A global read in a function keeps its alias (the name it shares
storage with), which there names the function's own binding of that name: every alias a
top-level binding makes is a function's alias too.

Names. The walker resolves a name through one import table for the whole module, the last import
of the name winning wherever it stands (a ``try``/``except ImportError`` fallback, a re-import in
a function). Here a name imported more than once may be any of its imports, and a condition holds
if it holds for one of them.

Identifiers. ``ast`` folds identifiers to NFKC (``ｕ`` is ``u``), libcst keeps them as written:
a module with a word that NFKC changes is let through.

Texts. The text conditions search the bytes read as UTF-8; ``ast`` and libcst read them in the
encoding a ``coding:`` cookie declares (``unicode_escape`` makes `retain\\u005fgraph` text of
`retain_graph`, and `\\u00aa` a name NFKC folds to `a`). A module that declares any encoding but
UTF-8 is let through.

Rule by rule (a *sink* is a ``return <value>`` or a backward call: a call of ``backward``,
``manual_backward``, or a name that resolves through the imports to ``….backward``/``….grad``):

- GL001 (``cuts.py``): a cut whose value may reach a sink.
- GL002 (``rebuilds.py``): a rebuild whose data may come out of tensors, made to require grad
  on the spot, or whose result may reach a requires_grad switch or a backward call.
- GL003 reads requires_grad switches on values computed where history was lost. A switch
  (``Walker.switch``) is a ``requires_grad_()`` but ``requires_grad_(False)``, a
  ``.requires_grad = True``, or a rebuild with ``requires_grad=True``; a lost history needs a
  no_grad region, decorator or function somewhere in the module, whose names all contain
  ``no_grad``, ``inference_mode`` or ``set_grad_enabled`` (``scan.NOGRAD``,
  ``scan.SET_GRAD_ENABLED``). Necessary: a switch, and one of those texts.
- GL004 needs ``retain_graph=True``. Necessary: the text ``retain_graph``.
- GL005 reads (a) edits of tensors with saved-for-backward records (``saved.py``), (b) an
  optimizer step between a loss's computation and its backward (``steps.py``), (c) an in-place
  module right after one that saves its output among an ``nn.Sequential``'s items
  (``Scan.sequential_edit``).
- GL900 judges suppressions against the other rules' findings; where those cannot exist the
  engine judges them against none, without libcst.
- GL000 is ``ast``'s verdict and GL010's limits are measured (both before this filter). A module
  that ``ast`` reads but libcst cannot is GL010 only where this filter lets it through: the
  engine asks the filter about such a module even when the filter is off, so the output does not
  depend on it. On a Python newer than libcst's grammar the filter is off (``enabled``).
"""
from __future__ import annotations

import ast
import os
import re
import sys

# Tests run every input with and without the filter and compare; nothing else sets this.
DISABLE_ENV = "GRADLINT_NO_PREFILTER"

_NOGRAD_TEXT = re.compile("no_grad|inference_mode|set_grad_enabled")


def enabled(version: tuple[int, int] | None = None) -> bool:
    """Whether the filter may skip modules: not when disabled by ``GRADLINT_NO_PREFILTER=1``
    (for tests), nor on a Python whose grammar the installed libcst does not know (there a module
    ``ast`` reads may be one libcst cannot)."""
    return not os.environ.get(DISABLE_ENV) and grammar_known(version)


def grammar_known(version: tuple[int, int] | None = None) -> bool:
    """Whether the installed libcst knows this Python's grammar (``version``: this one's)."""
    major, minor = version or sys.version_info[:2]
    try:
        from libcst._parser.types.config import KNOWN_PYTHON_VERSION_STRINGS
    except ImportError:  # a libcst that moved it: do not guess
        return False
    return f"{major}.{minor}" in KNOWN_PYTHON_VERSION_STRINGS


def may_report(text: str, tree: ast.Module, codes: frozenset[str]) -> bool:
    """Whether a rule of ``codes`` could report anything in the module ``text``, parsed by
    ``ast`` as ``tree``. False only where no rule can; GL000 and GL900 are not judged here."""
    # The texts are searched in ``text``, the bytes read as UTF-8; ``ast`` and libcst read them
    # in the encoding a ``coding:`` cookie declares, where `retain\u005fgraph` may be
    # `retain_graph` and `\xaa` (latin-1) or `\u00aa` (unicode_escape) a name NFKC folds: with
    # any other cookie the module is let through.
    if _other_coding(text) or (not text.isascii() and _folded_identifiers(text)):
        return True
    if "GL004" in codes and "retain_graph" in text:
        return True
    wanted = set(codes & {"GL001", "GL002", "GL005"})
    if "GL003" in codes and "requires_grad" in text and _NOGRAD_TEXT.search(text):
        wanted.add("GL003")
    if not wanted:
        return False
    from gradlint.prefilter.scan import Scan

    scan = Scan(tree)
    try:
        return scan.reports(wanted)
    finally:
        scan.clear()  # its caches refer back to it: left alone, only the cyclic collector frees the tree


_NON_ASCII_WORD = re.compile(r"\w*[^\x00-\x7f]\w*")


def _folded_identifiers(text: str) -> bool:
    """Whether a word of ``text`` changes under NFKC, as ``ast`` folds identifiers and libcst
    does not (``ｕ`` is ``u`` to one and not to the other): the two could disagree on names."""
    import unicodedata

    return any(unicodedata.normalize("NFKC", word) != word for word in _NON_ASCII_WORD.findall(text))


_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)


def _other_coding(text: str) -> bool:
    """Whether the first two lines declare an encoding other than UTF-8 (PEP 263, as
    ``tokenize.detect_encoding`` reads it; a second line is taken even where Python would not)."""
    for line in text.split("\n", 2)[:2]:
        match = _CODING.match(line)
        if match:
            name = match.group(1).lower().replace("_", "-")
            return not (name in ("utf-8", "utf8") or name.startswith(("utf-8-", "utf8-")))
    return False
