"""The renaming test: gradlint's decisions come from what the code does, not from the words in
the names the program chose (issue 12).

Each fixture program (``fixtures/GL00x/*.py``, single files) and each shared case
(``/work/shared/cases/*.py``, read in place) is renamed consistently: every identifier the
program defines itself (its functions, classes, methods, parameters, local and global variables,
attributes it assigns on ``self``, keyword arguments of its own functions) becomes a neutral name
(``f1``, ``C2``, ``v3``), while what torch, Python and the imports define stays as written
(``.detach``, ``.backward``, ``nn.Linear``, ``forward``, dunders, a method name a library class
also has). The rule codes and lines of the findings must be the same before and after.

The renaming is done on the text, at the positions ``ast`` gives, so every line keeps its
number. ``self`` and ``cls`` stay: they are the first parameter of a method, which the analysis
reads as the receiver (a role, not a word).

``ACCEPTED`` lists the programs whose findings still change, each with the word that remains as
evidence and why no meaning replaces it (the rule docs say the same).
"""
from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from pathlib import Path

import pytest

from gradlint.engine import lint_source

ROOT = Path(__file__).resolve().parent.parent
SHARED_CASES = Path("/work/shared/cases")


def _programs() -> list[Path]:
    found = sorted(p for p in (ROOT / "fixtures").glob("GL00*/*.py"))
    if SHARED_CASES.is_dir():
        found += sorted(SHARED_CASES.glob("*.py"))
    return found


# Programs whose findings change under renaming, and the word that still decides there (a defect
# each, to be fixed: the entry fails once the program no longer flips).
ACCEPTED: dict[str, str] = {
}


# ---- what the libraries define: never renamed -------------------------------------------------

def _library_names() -> frozenset[str]:
    """Attribute and method names torch and Python's containers define: a program's method or
    attribute of the same name cannot be renamed without renaming the library's at its uses."""
    names: set[str] = set(dir(builtins))
    for kind in (object, list, dict, set, tuple, str, int, float, bytes, Exception):
        names |= set(dir(kind))
    try:
        import torch
        from torch import nn
    except ImportError:  # pragma: no cover - the test environment has torch
        return frozenset(names)
    names |= set(dir(torch.Tensor)) | set(dir(nn.Module)) | set(dir(torch.autograd.Function))
    # (torch's own namespaces: `self.optim` renamed would rename `torch.optim` at its uses)
    names |= set(dir(torch)) | set(dir(nn)) | set(dir(nn.functional))
    names |= set(dir(torch.optim.Optimizer)) | set(dir(torch.utils.data.Dataset))
    names |= set(dir(torch.utils.data.DataLoader))
    for space in (nn, torch.optim, torch.distributions, torch.optim.lr_scheduler):
        for value in vars(space).values():
            if isinstance(value, type):
                names |= set(dir(value))
    # Lightning's LightningModule hooks, which its Trainer calls (the library may be absent here)
    names |= {"training_step", "validation_step", "test_step", "predict_step", "configure_optimizers",
              "hparams", "save_hyperparameters", "log", "log_dict", "manual_backward", "optimizers",
              "automatic_optimization"}
    # Attributes modules set on their instances (not on the class): weight, bias, running_mean ...
    param = nn.Parameter(torch.zeros(1))
    for instance in (nn.Linear(2, 2), nn.Conv2d(1, 1, 1), nn.LSTM(2, 2), nn.GRU(2, 2), nn.RNN(2, 2),
                     nn.BatchNorm1d(2), nn.LayerNorm(2), nn.Embedding(2, 2), nn.MultiheadAttention(2, 1),
                     nn.TransformerEncoderLayer(4, 1), nn.Sequential(), torch.optim.SGD([param], lr=0.1),
                     torch.distributions.Normal(0.0, 1.0)):
        names |= set(dir(instance)) | set(vars(instance))
    return frozenset(names)


LIBRARY = _library_names()
KEPT = {"self", "cls"}


# ---- the renaming ------------------------------------------------------------------------------

class _Collector(ast.NodeVisitor):
    """The identifiers the program defines, by kind."""

    def __init__(self):
        self.imported: set[str] = set()
        self.bound: set[str] = set()  # names bound by assignment, loops, with, except, walrus, args
        self.params: set[str] = set()
        self.functions: set[str] = set()  # functions not in a class body
        self.classes: set[str] = set()
        self.methods: set[str] = set()
        self.attrs: set[str] = set()  # attributes assigned on self
        self._methods: set[int] = set()

    def visit_Import(self, node):
        for alias in node.names:
            self.imported.add((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node):
        for alias in node.names:
            self.imported.add(alias.asname or alias.name)

    def visit_ClassDef(self, node):
        self.classes.add(node.name)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.methods.add(stmt.name)
                self._methods.add(id(stmt))
        self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if id(node) not in self._methods:
            self.functions.add(node.name)
        if any(isinstance(n, ast.Call) and ast.unparse(n) == "self.__dict__.update(locals())" for n in ast.walk(node)):
            # (every local of the function becomes an attribute of the same name)
            self.attrs.update(n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_arg(self, node):
        self.params.add(node.arg)
        self.bound.add(node.arg)

    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self.bound.add(node.id)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    def visit_Global(self, node):
        self.bound.update(node.names)

    visit_Nonlocal = visit_Global

    def visit_Attribute(self, node):
        if isinstance(node.ctx, ast.Store) and isinstance(node.value, ast.Name) and node.value.id == "self":
            self.attrs.add(node.attr)
        self.generic_visit(node)


def _ok(name: str) -> bool:
    return not (name.startswith("__") and name.endswith("__")) and name not in KEPT


def rename(source: str) -> str:
    """``source`` with every identifier it defines replaced by a neutral name, on the same lines."""
    tree = ast.parse(source)
    seen = _Collector()
    seen.visit(tree)
    names = {n for n in seen.bound | seen.functions | seen.classes if _ok(n)} - seen.imported
    # A method or attribute name is renamed at every `.name`, so one a library also defines stays.
    members = {n for n in seen.methods | seen.attrs if _ok(n) and n not in LIBRARY}
    mapping: dict[str, str] = {}

    def new(name: str) -> str:
        if name not in mapping:
            prefix = "C" if name in seen.classes else "f" if name in seen.functions | seen.methods else "v"
            mapping[name] = f"{prefix}{len(mapping) + 1}"
        return mapping[name]

    for name in sorted(names | members):
        new(name)
    own_callables = seen.functions | seen.classes | seen.methods
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, str, str]] = []  # (line index, byte column, old, new)

    def at(line: int, col: int, old: str) -> None:
        edits.append((line - 1, col, old, mapping[old]))

    def find(line: int, col: int, pattern: str, old: str) -> None:
        """The first match of ``pattern`` (whose group 1 is ``old``) at or after byte ``col``."""
        text = lines[line - 1].encode()
        match = re.compile(pattern.encode()).search(text, col)
        if match:
            edits.append((line - 1, match.start(1), old, mapping[old]))

    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Name and node.id in names:
            at(node.lineno, node.col_offset, node.id)
        elif kind is ast.arg and node.arg in names:
            at(node.lineno, node.col_offset, node.arg)
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            method = kind is not ast.ClassDef and id(node) in seen._methods
            if node.name in (members if method else names):
                keyword = "class" if kind is ast.ClassDef else "def"
                find(node.lineno, node.col_offset, rf"\b{keyword}\s+({re.escape(node.name)})\b", node.name)
        elif kind is ast.Attribute and node.attr in members:
            at(node.end_lineno, node.end_col_offset - len(node.attr.encode()), node.attr)
        elif kind is ast.Call:
            func = node.func
            callee = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None
            root = func
            while type(root) in (ast.Attribute, ast.Call, ast.Subscript):
                root = root.func if type(root) is ast.Call else root.value
            # Own functions and classes, and what the program calls through its own names
            # (`model(x, state=h)` calls its forward), not a library's callable.
            own = callee in own_callables or (
                type(root) is ast.Name and root.id in names and callee not in LIBRARY)
            if own:
                for kw in node.keywords:
                    if kw.arg is not None and kw.arg in seen.params and kw.arg in mapping:
                        at(kw.lineno, kw.col_offset, kw.arg)
            if callee in ("register_buffer", "register_parameter", "getattr", "setattr", "hasattr") and node.args:
                index = 1 if callee in ("getattr", "setattr", "hasattr") else 0
                if len(node.args) > index:
                    arg = node.args[index]
                    if type(arg) is ast.Constant and isinstance(arg.value, str) and arg.value in members:
                        at(arg.lineno, arg.col_offset + 1, arg.value)
        elif kind in (ast.Global, ast.Nonlocal):
            for name in node.names:
                if name in names:
                    find(node.lineno, node.col_offset, rf"\b({re.escape(name)})\b", name)
        elif kind is ast.ExceptHandler and node.name in names:
            find(node.lineno, node.col_offset, rf"\bas\s+({re.escape(node.name)})\b", node.name)
    by_line: dict[int, list] = {}
    for line, col, old, replacement in set(edits):
        by_line.setdefault(line, []).append((col, old, replacement))
    for line, changes in by_line.items():
        text = lines[line].encode()
        for col, old, replacement in sorted(changes, reverse=True):
            if text[col:col + len(old.encode())] != old.encode():
                continue  # (inside an f-string on an older Python: positions there are not exact)
            text = text[:col] + replacement.encode() + text[col + len(old.encode()):]
        lines[line] = text.decode()
    out = "".join(lines)
    ast.parse(out)  # the renamed program is still Python
    return out


def findings(source: str, path: str) -> list[tuple[str, int]]:
    return sorted((f.code, f.line) for f in lint_source(source, path))


GOLDEN_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):\d+: (?P<code>GL\d{3}) ")


def _before(path: Path, source: str) -> list[tuple[str, int]]:
    """The program's findings as written: a fixture's golden file holds them (``test_fixtures.
    test_golden`` holds the golden to gradlint's output), which spares a lint per program; a
    shared case is linted."""
    golden = path.with_suffix(".expected")
    if path.parent == SHARED_CASES or not golden.is_file():
        return findings(source, str(path))
    rel = path.relative_to(ROOT).as_posix()
    return sorted((m["code"], int(m["line"])) for m in map(GOLDEN_LINE.match, golden.read_text().splitlines())
                  if m and m["path"] == rel)


def _id(path: Path) -> str:
    return path.name if path.parent == SHARED_CASES else f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("path", _programs(), ids=_id)
def test_renaming_keeps_findings(path):
    source = path.read_text()
    try:
        ast.parse(source)
    except SyntaxError:
        pytest.skip("not Python: nothing to rename (GL000's programs)")
    renamed = rename(source)
    before, after = _before(path, source), findings(renamed, str(path))
    key = _id(path)
    if key in ACCEPTED:
        assert before != after, f"{key} no longer flips under renaming: remove it from ACCEPTED"
        return
    assert before == after, f"renaming changed the findings of {key}: {before} -> {after}"


def test_renaming_renames():
    source = (
        "import torch\nfrom torch import nn\n\n\n"
        "class TargetNet(nn.Module):\n"
        "    def __init__(self, hidden):\n"
        "        super().__init__()\n"
        "        self.ema_head = nn.Linear(hidden, hidden)\n\n"
        "    def forward(self, x, state=None):\n"
        "        return self.ema_head(x).detach()\n\n\n"
        "def train_step(model, target):\n"
        "    loss = model(target, state=1).sum()\n"
        "    loss.backward()\n"
    )
    out = rename(source)
    for word in ("TargetNet", "hidden", "ema_head", "state", "train_step", "target", "loss"):
        assert not re.search(rf"\b{word}\b", out), (word, out)
    for kept in ("forward", "__init__", "nn.Linear", ".detach()", ".backward()", "self", ".sum()"):
        assert kept in out
    assert out.count("\n") == source.count("\n")


# ---- the meanings that replaced the words, on programs whose names say nothing -----------------

# A network the file updates from another's parameters (a moving average), under names that say
# nothing: its cut output is a target, not a starved branch.
_FOLLOWER = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Linear(4, 4)
        self.g = nn.Linear(4, 4)

    def forward(self, x):
        return F.mse_loss(self.f(x), self.g(x).detach())

    @torch.no_grad()
    def follow(self, m=0.99):
        for a, b in zip(self.g.parameters(), self.f.parameters()):
            a.data.mul_(m).add_((1 - m) * b.data)


v = M()
o = torch.optim.SGD(v.parameters(), lr=0.1)
for i in range(3):
    l = v(torch.randn(2, 4))
    o.zero_grad()
    l.backward()
    o.step()
    v.follow()
"""

# A network made as a deep copy of another (a target network).
_COPY = """\
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Linear(4, 4)
        self.g = copy.deepcopy(self.f)

    def forward(self, x):
        return self.f(x)

    def other(self, x):
        return self.g(x).detach()


v = M()
o = torch.optim.SGD(v.parameters(), lr=0.1)
x = torch.randn(2, 4)
l = F.mse_loss(v(x), v.other(x))
o.zero_grad()
l.backward()
o.step()
"""

# The same shape, but the second network's own parameters are clipped in place: it copies
# nothing, it is trained, and the cut starves it.
_CLIPPED = """\
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Linear(4, 4)
        self.g = nn.Linear(4, 4)

    def forward(self, x):
        return F.mse_loss(self.f(x), self.g(x).detach())

    @torch.no_grad()
    def follow(self, m=0.99):
        for a in self.g.parameters():
            a.data.clamp_(-m, m)


v = M()
o = torch.optim.SGD(v.parameters(), lr=0.1)
for i in range(3):
    l = v(torch.randn(2, 4))
    o.zero_grad()
    l.backward()
    o.step()
    v.follow()
"""


@pytest.mark.parametrize("source, expected", [
    (_FOLLOWER, []), (_COPY, []), (_CLIPPED, [("GL001", 13)]),
], ids=["updated-from-another", "deep-copy", "clipped-not-copied"])
def test_target_network_by_what_updates_it(source, expected):
    assert findings(source, "program.py") == expected
