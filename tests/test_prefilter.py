"""The prefilter (gradlint/prefilter.py) never changes what is reported: every input is linted
with and without it, under several rule selections, and the JSON output must be identical.

Inputs: every fixture (.py and .ipynb, known gaps included), every ```python block of the rule
documents, the shared case programs (../shared/cases, where present) and, with ``pytest -m
slow``, the corpus at /tmp/corpus. Also: the filter does skip libcst where no rule can report,
and the ast pre-check still stops a module nested too deep for libcst.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gradlint import engine, prefilter, runner
from gradlint.discovery import discover
from gradlint.rule import BY_CODE, DEFAULT_CODES, resolve

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "cases"
CORPUS = Path("/tmp/corpus")

SELECTIONS = [resolve("ALL"), *(frozenset({code}) for code in sorted(BY_CODE) if code not in ("GL000", "GL900")),
              frozenset({"GL005", "GL900"})]


def _inputs() -> list[tuple[str, bytes]]:
    files = sorted([*(ROOT / "fixtures").rglob("*.py"), *(ROOT / "fixtures").rglob("*.ipynb")])
    if SHARED.is_dir():
        files += sorted(SHARED.glob("*.py"))
    found = [(p.relative_to(ROOT.parent).as_posix(), p.read_bytes()) for p in files]
    for doc in sorted((ROOT / "rules").glob("GL*.md")):
        blocks = re.findall(r"^```python[ \t]*\n(.*?)^```[ \t]*$", doc.read_text(encoding="utf-8"), re.DOTALL | re.MULTILINE)
        found += [(f"{doc.name}#{i}.py", block.encode()) for i, block in enumerate(blocks)]
    return found


def _lint(name: str, source: bytes, codes: frozenset[str]) -> str:
    findings, _ = runner.lint_file(source, name, codes)
    return json.dumps([f.to_json() for f in findings], default=str, sort_keys=True)


def _both(monkeypatch, name: str, source: bytes, codes: frozenset[str]) -> tuple[str, str]:
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    filtered = _lint(name, source, codes)
    monkeypatch.setenv(prefilter.DISABLE_ENV, "1")
    return filtered, _lint(name, source, codes)


def test_every_fixture_doc_example_and_case_reads_the_same_with_and_without_the_prefilter(monkeypatch):
    inputs = _inputs()
    assert len(inputs) > 250 and any(name.endswith(".ipynb") for name, _ in inputs)
    differ = []
    for name, source in inputs:
        for codes in SELECTIONS:
            filtered, full = _both(monkeypatch, name, source, codes)
            if filtered != full:
                differ.append(f"{name} with {sorted(codes)}:\n  filtered {filtered}\n  full     {full}")
    assert not differ, "\n".join(differ)


def test_the_comparison_covers_skipped_modules():
    # Under a one-rule selection most inputs (those about the other rules) are skipped: the
    # comparison above then proves that each rule's own inputs are let through.
    trees = [(source.decode(), engine._read_ast(source)[0]) for name, source in _inputs() if name.endswith(".py")]
    skipped = sum(not prefilter.may_report(text, tree, codes)
                  for text, tree in trees if tree is not None for codes in SELECTIONS)
    assert skipped >= 500


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus at /tmp/corpus (bash ../shared/tools/make_corpus.sh)")
def test_the_corpus_reads_the_same_with_and_without_the_prefilter(monkeypatch):
    differ = []
    for path in discover([CORPUS]):
        filtered, full = _both(monkeypatch, str(path), path.read_bytes(), resolve("ALL"))
        if filtered != full:
            differ.append(f"{path}:\n  filtered {filtered}\n  full     {full}")
    assert not differ, "\n".join(differ)


def test_a_module_no_rule_can_report_in_is_not_parsed_by_libcst(monkeypatch):
    parsed = []
    real = engine.cst.parse_module
    monkeypatch.setattr(engine.cst, "parse_module", lambda source: parsed.append(source) or real(source))
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    quiet = "import torch\n\n\ndef mean(xs):\n    return sum(xs) / len(xs)\n"
    assert engine.lint_source(quiet, "quiet.py", resolve("ALL")) == [] and parsed == []
    cut = "import torch\n\n\ndef f(net, x):\n    return net(x).detach()\n"
    engine.lint_source(cut, "cut.py")
    assert parsed == [cut]


def test_unused_suppressions_are_judged_in_a_skipped_module(monkeypatch):
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    source = "import torch\nx = 1  # noqa: GL001\n"
    assert not prefilter.may_report(source, engine._read_ast(source)[0], resolve("ALL"))
    assert [f.code for f in engine.lint_source(source, "m.py", resolve("ALL"))] == ["GL900"]


_CONV = ("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        self.conv = nn.Conv2d(1, 1, 1)\n"
         "    def forward(self, x):\n        x = self.conv(x)\n        x += 1\n        return x\n")


@pytest.mark.parametrize("source, codes", [
    ("def f(m, x):\n    y = m(x).detach()\n    return y\n", {"GL001"}),
    ("y = w.detach()\n", {"GL001"}),  # top-level code reaches every function through the globals
    ("def f(x):\n    t = torch.tensor(x.item())\n    t.requires_grad_()\n", {"GL002"}),
    ("import torch\nwith torch.no_grad():\n    y = m(x)\ny.requires_grad_()\n", {"GL003"}),
    ("for b in d:\n    l.backward(retain_graph=True)\n", {"GL004"}),
    ("def f(u):\n    v = u ** 2\n    u.add_(1)\n", {"GL005"}),
    ("def f(u):\n    v = u.exp()\n    v[0] = 1\n", {"GL005"}),
    ("from torch.nn import Linear\nclass M:\n    def __init__(self):\n        self.fc = Linear(2, 2)\n"
     "    def forward(self, x):\n        y = self.fc(x)\n        x += 1\n        return y\n", {"GL005"}),
    ("import torch.nn as nn\nact = nn.ReLU(True)\ndef f(x):\n    y = x.sigmoid()\n    return act(y)\n", {"GL005"}),
    ("def helper(t):\n    t.mul_(2)\ndef g(x):\n    return helper(x * x)\n", {"GL005"}),
    ("def f(opt, a, b):\n    opt.step()\n    b.backward()\n", {"GL005"}),
    ("def f(x):\n    e = x.exp()\n    v = e.view(-1)\n    v[0] = 1\n", {"GL005"}),  # through a view
    ("def f(x, w):\n    y = x.data\n    z = x * w\n    y.zero_()\n", {"GL005"}),  # saved after the alias
    ("import torch.nn as nn\nclass M:\n    def __init__(self):\n        self.a = nn.Sequential(nn.Tanh(), nn.ReLU(True))\n",
     {"GL005"}),
    ("def f(x, w):\n    for i in w:\n        x.add_(1)\n        y = x * i\n", {"GL005"}),  # the loop's next turn
    ("def f(x, w, c):\n    if c:\n        y = x * w\n    x.add_(1)\n", {"GL005"}),  # one branch saved it
    (_CONV.replace("Conv2d(1, 1, 1)", "ReLU()"), {"GL005"}),  # a ReLU saves its output
])
def test_each_rule_lets_through_what_it_needs(source, codes):
    assert prefilter.may_report(source, engine._read_ast(source)[0], frozenset(codes))


@pytest.mark.parametrize("source, codes", [
    ("def log(m, x):\n    print(m(x).detach())\n", {"GL001"}),  # the cut reaches no sink
    ("def f(x):\n    return torch.tensor(x.item())\n", {"GL002"}),  # a rebuild nothing asks a gradient of
    ("x.requires_grad_()\n", {"GL003"}),  # no no_grad anywhere
    ("def f(counts, k):\n    counts[k] += 1\n", {"GL005"}),  # an edit where nothing can be saved
    ("class C:\n    def f(self, x, k):\n        d = {}\n        y = x * 2\n        d[k] = y\n", {"GL005"}),  # d holds none
    ("def f(x, w):\n    a, b = x * w\n    a += 1\n", {"GL005"}),  # a tuple target holds none
    (_CONV, {"GL005"}),  # the conv saved the x it was given, not the x it returned
    ("def f(x, w):\n    x.add_(1)\n    return x * w\n", {"GL005"}),  # saved only after the edit
    ("def f(x):\n    y = x * 2\n    return y\n", {"GL005"}),  # saves, but edits nothing
])
def test_a_module_without_what_a_rule_needs_is_skipped_for_it(source, codes):
    assert not prefilter.may_report(source, engine._read_ast(source)[0], frozenset(codes))


# Findings the prefilter once lost (name, source bytes, the rule that reports): an import that
# binds a name twice, a global alias read in a function, an edit rebinding the edited name, alias
# forms (a comprehension, a unary op, an attribute never bound), subscript targets of `for` and
# `with`, a `coding:` cookie that turns escapes into text.
_LOST = [
    ('A2_local_reimport', b'import torch\nfrom numpy import asarray as tensor\ndef step(model, x, y):\n    from torch import tensor\n    err = ((model(x) - y) ** 2).mean()\n    loss = tensor(err.item(), requires_grad=True)\n    loss.backward()\n', 'GL002'),
    ('A3_grad_alias_gl001', b'import torch\nfrom jax import value_and_grad as G\n\n\ndef jax_part(f):\n    return G(f)\n\n\ndef penalty(net, x):\n    from torch.autograd import grad as G\n    feats = net(x)\n    gp = G(feats.detach().sum(), net.parameters())\n', 'GL001'),
    ('A_import_order', b'import torch\ntry:\n    import apex.nn as nn\nexcept ImportError:\n    import torch.nn as nn\nsig = nn.Sigmoid()\ndef f(x):\n    y = sig(x)\n    y.add_(1)\n', 'GL005'),
    ('B_global_alias', b'import torch\nbuf = torch.zeros(4)\nv = buf[:2]\nclass M(torch.nn.Module):\n    def forward(self, x):\n        buf = x.clone()\n        y = buf * x\n        v.add_(1)\n        return y\n', 'GL005'),
    ('C_rebind_edit', b'import torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        q = p[0]\n        q = q.add_(1)\n        return p\n', 'GL005'),
    ('D1_listcomp_alias', b'import torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        probs = torch.softmax(x, dim=-1)\n        rows = [probs[i] for i in range(3)]\n        rows[0].mul_(0.5)\n        return probs\n', 'GL005'),
    ('D2_unary_alias', b'import torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        q = p[0]\n        r = -q\n        r.add_(1)\n        return p\n', 'GL005'),
    ('D3_attr_of_alias', b'import torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        q = p[0]\n        q.real.mul_(2)\n        return p\n', 'GL005'),
    ('E1_for_target', b'import torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        for p[0] in range(3):\n            pass\n        return p\n', 'GL005'),
    ('E2_with_target', b'import contextlib\nimport torch\nclass Head(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        with contextlib.nullcontext(0.0) as p[0]:\n            pass\n        return p\n', 'GL005'),
    ('F_raw_unicode_escape', b'# -*- coding: raw_unicode_escape -*-\nimport torch\nh = torch.zeros(3)\nw = torch.randn(3, requires_grad=True)\nfor step in range(10):\n    h = h * w\n    loss = h.sum()\n    loss.backward(retain\\u005fgraph=True)\n', 'GL004'),
    ('F_unicode_escape', b'# -*- coding: unicode_escape -*-\nimport torch\nh = torch.zeros(3)\nw = torch.randn(3, requires_grad=True)\nfor step in range(10):\n    h = h * w\n    loss = h.sum()\n    loss.backward(retain\\u005fgraph=True)\n', 'GL004'),
    ('F_utf-7', b'# -*- coding: utf-7 -*-\nimport torch\nh = torch.zeros(3)\nw = torch.randn(3, requires_grad=True)\nfor step in range(10):\n    h = h * w\n    loss = h.sum()\n    loss.backward(retain+AF8-graph=True)\n', 'GL004'),
    ('F_reimport', b'import torch\nimport numpy as F\nimport torch.nn.functional as F\nclass H(torch.nn.Module):\n    def forward(self, x):\n        y = torch.sigmoid(x)\n        F.relu(y, inplace=True)\n        return y\n', 'GL005'),
    ('exp_reimport', b'import torch\nfrom numpy import exp\nfrom torch import exp\nclass H(torch.nn.Module):\n    def forward(self, x):\n        y = exp(x)\n        y.add_(1)\n        return y\n', 'GL005'),
    ('clamp_tuple', b'import torch\nclass H(torch.nn.Module):\n    def forward(self, x):\n        p = torch.sigmoid(x)\n        a = p[0]\n        a, z = a.clamp_(0), 1\n        return p\n', 'GL005'),
    ('masked_fill', b'import torch\nclass H(torch.nn.Module):\n    def forward(self, x):\n        w = torch.softmax(x, dim=-1)\n        row = w[:, 0]\n        row = row.masked_fill_(row < .01, 0)\n        return w\n', 'GL005'),
    ('G_reimport', b'import torch\nfrom jax import value_and_grad as G\ndef f(net, x):\n    from torch.autograd import grad as G\n    y = net(x).detach()\n    G(y.sum(), x)\n', 'GL001'),
]


@pytest.mark.parametrize("name, source, code", _LOST, ids=[c[0] for c in _LOST])
def test_what_the_prefilter_once_lost_is_reported_with_it(monkeypatch, name, source, code):
    for codes in (resolve("ALL"), frozenset({code})):
        filtered, full = _both(monkeypatch, name + ".py", source, codes)
        assert f'"code": "{code}"' in full  # the finding is there without the filter
        assert filtered == full


def test_the_prefilter_is_off_on_a_python_whose_grammar_libcst_does_not_know(monkeypatch):
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    assert prefilter.enabled((3, 11))
    assert not prefilter.enabled((3, 99))
    monkeypatch.setenv(prefilter.DISABLE_ENV, "1")
    assert not prefilter.enabled((3, 11))


def test_a_module_nested_deeper_than_libcst_can_read_is_gl000_at_its_deepest_node():
    # An attribute chain: Python's parser loops, the tree is one level deeper per `.a`.
    deep = "x = y" + ".a" * (engine.MAX_DEPTH + 10) + "\n"
    [finding] = engine.lint_source(deep, "deep.py", resolve("ALL"))
    assert (finding.code, finding.line) == ("GL000", 1)
    assert f"nested more than {engine.MAX_DEPTH} levels deep" in finding.message
    assert engine._read_ast(deep)[1] == engine._too_deep(__import__("ast").parse(deep))


def test_a_module_nested_within_the_limit_is_read():
    shallow = "x = y" + ".a" * (engine.MAX_DEPTH - 20) + "\n"
    tree, unreadable = engine._read_ast(shallow)
    assert unreadable is None and tree is not None
    assert engine.lint_source(shallow, "shallow.py", resolve("ALL")) == []
