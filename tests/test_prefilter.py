"""The prefilter (gradlint/prefilter/) never changes what is reported: every input is linted
with and without it, under several rule selections, and the JSON output must be identical; and,
stricter, every module where the flow walker records a rule's facts is let through for it.

Inputs: every fixture (.py and .ipynb, known gaps included), every ```python block of the rule
documents, the shared case programs (../shared/cases, where present) and, with ``pytest -m
slow``, the corpus at /tmp/corpus and a grid of some 9,500 GL005 programs. Also: the filter does
skip libcst where no rule can report, and the depth guard agrees with a walk of every node.
"""
from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest

from gradlint import engine, prefilter, runner
from gradlint.discovery import discover
from gradlint.rule import BY_CODE, resolve

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


def _facts_for(source: bytes) -> set[str]:
    """The rules whose facts the flow walker records in ``source``: what each check reads before
    it decides (a cut reaching a sink, a round trip, a switch after no_grad, a kept graph, an edit
    of a saved tensor, a step between backwards, an in-place module after a saving one)."""
    from gradlint.analysis.facts import module_facts
    from gradlint.analysis.tree import memoized

    try:
        module = engine.cst.parse_module(source)
    except Exception:
        return set()
    with memoized():
        facts = module_facts(module)
    found = set()
    sinks = [r.value for r in facts.returns if r.function.name != "<module>"] + [b.value for b in facts.backwards]
    if any(facts.cuts.get(node) for value in sinks for node in value.cuts):
        found.add("GL001")
    if (any(r.roundtrip and r.requires_grad for r in facts.rebuilds) or any(s.value.rebuilt for s in facts.switches)
            or any(b.value.rebuilt for b in facts.backwards)):
        found.add("GL002")
    if any(s.value.nograd for s in facts.switches):
        found.add("GL003")
    if any(b.retain_graph and not b.create_graph and b.loop is not None for b in facts.backwards):
        found.add("GL004")
    if any(e.saved for e in facts.edits) or facts.steps or facts.sequential_edits:
        found.add("GL005")
    return found


def _lets_through_every_module_with_facts(inputs) -> list[str]:
    missed = []
    for name, source in inputs:
        if not name.endswith(".py"):
            continue
        tree, unreadable = engine._read_ast(source)
        if unreadable is not None:
            continue
        text = source.decode("utf-8", errors="replace")
        for code in sorted(_facts_for(source)):
            if not prefilter.may_report(text, tree, frozenset({code})):
                missed.append(f"{name}: {code}")
    return missed


def test_the_filter_lets_through_every_module_where_the_walker_records_a_rules_facts():
    # Stricter than the same findings: the facts come before a check's judgement, so a condition
    # that misses one is wrong even where the check would have stayed silent.
    inputs = _inputs()
    assert not _lets_through_every_module_with_facts(inputs)
    assert sum(bool(_facts_for(source)) for name, source in inputs if name.endswith(".py")) > 150


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus at /tmp/corpus (bash ../shared/tools/make_corpus.sh)")
def test_the_filter_lets_through_every_corpus_module_with_facts():
    inputs = [(str(path), path.read_bytes()) for path in discover([CORPUS]) if path.suffix == ".py"]
    assert not _lets_through_every_module_with_facts(inputs)


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


_FWD = "import torch\nimport torch.nn.functional as F\nclass M(torch.nn.Module):\n    def forward(self, x, w):\n"


def _forward(body: str) -> str:
    return _FWD + "".join(f"        {line}\n" for line in body.splitlines())


@pytest.mark.parametrize("source, codes", [
    ("def f(model, x):\n    y = model(x).detach()\n    return y\n", {"GL001"}),
    ("net = Net()\nh = net(x).detach()\ndef f():\n    return h * 2\n", {"GL001"}),  # a global's cut
    (_forward("h = self.enc(x)\nself.h = h.detach()\nreturn self.h"), {"GL001"}),  # through an attribute
    (_forward("hs = []\nhs.append(self.enc(x).detach())\nreturn hs"), {"GL001"}),  # into a list
    (_forward("h = self.enc(x)\nh.detach_()\nreturn h"), {"GL001"}),
    (_forward("return self(x).data.clone()"), {"GL001"}),
    ("import torch\ndef f(model, x):\n    t = torch.tensor(model(x).item())\n    t.requires_grad_()\n    return t\n", {"GL002"}),
    ("import torch\nmodel = Net()\nwith torch.no_grad():\n    y = model(x)\ny.requires_grad_()\n", {"GL003"}),
    ("for b in d:\n    l.backward(retain_graph=True)\n", {"GL004"}),
    (_forward("v = x ** 2\nx.add_(1)\nreturn v"), {"GL005"}),
    (_forward("v = x.exp()\nv[0] = 1\nreturn v"), {"GL005"}),
    ("from torch.nn import Linear\nclass M:\n    def __init__(self):\n        self.fc = Linear(2, 2)\n"
     "    def forward(self, x):\n        y = self.fc(x)\n        x += 1\n        return y\n", {"GL005"}),
    ("import torch.nn as nn\nact = nn.ReLU(True)\nclass M(nn.Module):\n    def forward(self, x):\n"
     "        y = x.sigmoid()\n        return act(y)\n", {"GL005"}),
    ("def helper(t):\n    t.mul_(2)\ndef g(model, x):\n    e = model(x).exp()\n    helper(e)\n    return e\n", {"GL005"}),
    ("def helper(a, w):\n    b = a ** 2\n    a.add_(1)\n    return b\ndef g(model, x):\n    helper(model(x), 2)\n",
     {"GL005"}),  # a caller hands helper a value with history
    ("import torch\nnet = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
     "a = net(x).sum()\nb = net(x).mean()\na.backward(retain_graph=True)\nopt.step()\nb.backward()\n",
     {"GL005"}),  # b's graph saved the weight the step edits
    (_forward("e = x.exp()\nv = e.view(-1)\nv[0] = 1\nreturn e"), {"GL005"}),  # through a view
    (_forward("y = x.data\nz = x * w\ny.zero_()\nreturn z"), {"GL005"}),  # saved after the alias
    ("import torch.nn as nn\nclass M:\n    def __init__(self):\n        self.a = nn.Sequential(nn.Tanh(), nn.ReLU(True))\n",
     {"GL005"}),
    (_forward("for i in w:\n    x.add_(1)\n    y = x * i\nreturn y"), {"GL005"}),  # the loop's next turn
    (_forward("if w:\n    y = x * w\nx.add_(1)\nreturn x"), {"GL005"}),  # one branch saved it
    ("import torch\nclass O:\n    @torch.no_grad()\n    def step(self, model, x):\n"
     "        with torch.enable_grad():\n            y = model(x)\n            z = y ** 2\n"
     "        y.add_(1)\n        return z\n", {"GL005"}),  # recording switched back on inside
    (_CONV.replace("Conv2d(1, 1, 1)", "ReLU()"), {"GL005"}),  # a ReLU saves its output
])
def test_each_rule_lets_through_what_it_needs(source, codes):
    assert codes <= _facts_for(source.encode())  # the walker records the rule's facts here
    assert prefilter.may_report(source, engine._read_ast(source)[0], frozenset(codes))


@pytest.mark.parametrize("source, codes", [
    ("def log(model, x):\n    print(model(x).detach())\n", {"GL001"}),  # the cut reaches no sink
    ("def f(model, x):\n    loss = model(x).sum()\n    value = loss.detach()\n    return loss\n", {"GL001"}),
    ("import torch.utils.data\ndef f(ds):\n    return torch.utils.data.DataLoader(ds)\n", {"GL001"}),  # a module path
    ("def f(xs):\n    return xs[0].detach()\n", {"GL001"}),  # nothing with history: no caller hands any
    (_forward("return self.weight.detach()"), {"GL001"}),  # an attribute is not computed
    ("def f(x):\n    return torch.tensor(x.item())\n", {"GL002"}),  # a rebuild nothing asks a gradient of
    ("x.requires_grad_()\n", {"GL003"}),  # no no_grad anywhere
    ("def f(counts, k):\n    counts[k] += 1\n", {"GL005"}),  # an edit where nothing can be saved
    ("def f(u):\n    v = u ** 2\n    u.add_(1)\n", {"GL005"}),  # nothing handed to f requires grad
    ("class C:\n    def __init__(self, dims):\n        scale = self.depth * dims\n        scale *= 2\n", {"GL005"}),
    ("class C:\n    def f(self, x, k):\n        d = {}\n        y = x * 2\n        d[k] = y\n", {"GL005"}),  # d holds none
    (_forward("a, b = x * w\na += 1\nreturn a"), {"GL005"}),  # a tuple target holds none
    (_CONV, {"GL005"}),  # the conv saved the x it was given, not the x it returned
    (_forward("x.add_(1)\nreturn x * w"), {"GL005"}),  # saved only after the edit
    (_forward("y = x * 2\nreturn y"), {"GL005"}),  # saves, but edits nothing
    ("import torch\nclass O:\n    @torch.no_grad()\n    def step(self, p, g):\n        u = p * g\n        p.add_(u)\n",
     {"GL005"}),  # nothing is recorded in a no_grad function
    ("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n"
     "        self.stem = nn.Sequential(nn.Conv2d(1, 1, 1), nn.ReLU(True))\n"
     "    def forward(self, x):\n        x = self.stem(x)\n        return x\n", {"GL005"}),  # a Sequential is not in place
    ("import torch.nn as nn\nclass M:\n    def __init__(self):\n        self.a = nn.Sequential(nn.ReLU(True), nn.Tanh())\n",
     {"GL005"}),  # the in-place item comes first
    ("def f(model, opt, x):\n    for _ in range(3):\n        b = model(x)\n        b.backward()\n        opt.step()\n",
     {"GL005"}),  # each loss is computed after the last step
])
def test_a_module_without_what_a_rule_needs_is_skipped_for_it(source, codes):
    assert not codes & _facts_for(source.encode())  # (the walker agrees: nothing for the rule here)
    assert not prefilter.may_report(source, engine._read_ast(source)[0], frozenset(codes))


# Findings the prefilter once lost (name, source bytes, the rule that reports): an import that
# binds a name twice, a global alias read in a function, an edit rebinding the edited name, alias
# forms (a comprehension, a unary op, an attribute never bound), subscript targets of `for` and
# `with`, a `coding:` cookie that turns escapes into text or hides a name that NFKC folds.
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
    # `ª` is `a` to ast (NFKC), not to libcst, in a file whose cookie hides it from the text (--select GL005 lost it)
    ('H_latin1_folded_name', b'# coding: latin-1\nimport torch\nw = torch.ones(2, requires_grad=True)\na = torch.ones(2)\ny = a * w\n\xaa = torch.zeros(2)\na.add_(1)\n', 'GL005'),
    ('H_escaped_folded_name', b'# coding: unicode_escape\nimport torch\nw = torch.ones(2, requires_grad=True)\na = torch.ones(2)\ny = a * w\n\\u00aa = torch.zeros(2)\na.add_(1)\n', 'GL005'),
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


def test_a_module_nested_deeper_than_libcst_can_read_is_gl010_at_its_deepest_node():
    # An attribute chain: Python's parser loops, the tree is one level deeper per `.a`.
    deep = "x = y" + ".a" * (engine.MAX_DEPTH + 10) + "\n"
    [finding] = engine.lint_source(deep, "deep.py", resolve("ALL"))
    assert (finding.code, finding.line) == ("GL010", 1)  # Python accepts it: not a syntax error
    assert f"nested more than {engine.MAX_DEPTH} levels deep" in finding.message
    assert engine._read_ast(deep)[1] == engine._too_deep(__import__("ast").parse(deep))


def test_the_depth_guard_agrees_with_a_walk_of_every_node():
    # The guard bounds a statement's depth by the bytes it spans and walks only what could be
    # too deep; at small limits it must still agree with a plain walk of every node.
    sources = [source for name, source in _inputs() if name.endswith(".py")]
    sources += [
        "@d(" + "f(" * 40 + ")" * 40 + ")\ndef g():\n    pass\n",
        "class C:\n    def f(self):\n        try:\n            pass\n        except (" + "(" * 30 + "E" + ")" * 30 + "):\n"
        "            x = 1\n",
        "match p:\n    case [[[[[[x]]]]]] if " + "-" * 40 + "y:\n        pass\n",
        "x = (\r" + "f(\r" * 25 + ")" * 25 + ")\r",
        "s = 'é' * 3; t = " + "-" * 45 + "u\r\nv = 1\r\n",
        "if a:\n" + "".join("    " * i + "if b:\n" for i in range(1, 30)) + "    " * 30 + "x = 1\n",
    ]
    checked = 0
    for source in sources:
        tree = engine._read_ast(source)[0]
        if tree is None:
            continue
        for limit in range(3, 70, 3):
            assert engine._depth_exceeds(tree, source, limit) == engine._walk_exceeds(tree, limit), (source[:80], limit)
            checked += 1
    assert checked > 5000


def test_a_module_nested_within_the_limit_is_read():
    shallow = "x = y" + ".a" * (engine.MAX_DEPTH - 20) + "\n"
    tree, unreadable = engine._read_ast(shallow)
    assert unreadable is None and tree is not None
    assert engine.lint_source(shallow, "shallow.py", resolve("ALL")) == []


# Facts the tightened filter once missed (an adversarial tester's minimal programs): plain classes
# whose methods still reach trainables (`self.forward()`, a bound attribute called, a module
# attribute), a base named Module defined in the file, two classes of one name, `float(u)` keeping
# records, results of functions that run under no_grad being tensors, receivers that a fill or an
# in-place method makes computed, a step pending across an if's branches; and from a second round:
# a tuple target `x.requires_grad, y = True`, a `with no_grad() as x` the walker does not bind,
# bindings in lambdas and in a set_grad_enabled(…) statement's arguments, a parameter made live
# by a saved record handed to it, an identifier NFKC folds, a backward root after a starred argument.
_MISSED = [
    ('01_tuple_target_requires_grad_true_GL003', 'import torch\nnet = torch.nn.Linear(3, 3)\nwith torch.no_grad():\n    x = net(torch.ones(3))\nx.requires_grad, y = True\n', 'GL003'),
    ('01b_tuple_target_requires_grad_true_rebuilt_GL002', 'import torch\nx = torch.ones(2, requires_grad=True)\nr = torch.tensor((x * 2).tolist())\nr.requires_grad, z = True\n', 'GL002'),
    ('02_with_nograd_as_root_no_rebind_GL005', 'import torch\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = model(torch.ones(2)).sum()\nopt.step()\nwith torch.no_grad() as loss:\n    pass\nloss.backward()\n', 'GL005'),
    ('02b_with_nograd_as_keeps_saved_record_GL005', 'import torch\nw = torch.nn.Parameter(torch.ones(2))\nx = torch.ones(2)\ny = w * x\nwith torch.no_grad() as x:\n    pass\nx.add_(1)\n', 'GL005'),
    ('03_walrus_in_lambda_rebinds_root_GL005', 'import torch\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = model(torch.ones(2)).sum()\nopt.step()\nf = lambda: (loss := 0)\nloss.backward()\n', 'GL005'),
    ('04_set_grad_enabled_stmt_args_unwalked_GL005', 'import torch\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = model(torch.ones(2)).sum()\nopt.step()\ntorch.set_grad_enabled(bool(loss := 0))\nloss.backward()\n', 'GL005'),
    ('05_saved_argument_makes_param_live_cut_GL001', 'import torch\nw = torch.ones(2, requires_grad=True)\ndef helper(p):\n    return p.detach()\ndef main(u):\n    y = u * w\n    helper(u)\n', 'GL001'),
    ('05b_saved_argument_param_live_to_callee_GL005', 'import torch\nw = torch.ones(2, requires_grad=True)\ndef helper2(x):\n    y = x * x\n    x.add_(1)\ndef helper(p):\n    helper2(p + 0)\ndef main(u):\n    y = u * w\n    helper(u)\n', 'GL005'),
    ('06_nfkc_identifier_same_in_ast_distinct_in_libcst_GL005', 'import torch\nw = torch.ones(2, requires_grad=True)\nu = torch.ones(2)\ny = u * w\nｕ = torch.zeros(2)\nu.add_(1)\n', 'GL005'),
    ('07_backward_root_after_starred_arg_GL005', 'import torch\nmodel = torch.nn.Linear(2, 2)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = model(torch.ones(2)).sum()\nopt.step()\ntorch.autograd.backward(*(), loss)\n', 'GL005'),
    ('01_plain_class_self_forward_GL001', 'class T:\n    def f(self):\n        return self.forward().detach()\n', 'GL001'),
    ('02_plain_class_attr_call_GL001', 'class T:\n    def __init__(self, m):\n        self.m = m\n    def f(self):\n        return self.m().detach()\n', 'GL001'),
    ('03_float_keeps_records_GL005', 'def f(net, u):\n    u * net()\n    v = float(u)\n    u = 0\n    v += 1\n', 'GL005'),
    ('03b_float_arg_seeds_callee_GL005', 'def g(p):\n    p += 1\ndef f(net, u):\n    u * net()\n    g(float(u))\n', 'GL005'),
    ('04_plain_class_module_attr_GL005', 'import torch.nn as nn\nclass T:\n    def __init__(self):\n        self.lin = nn.Linear(2, 2)\n    def f(self, x):\n        y = self.lin(x)\n        z = y * y\n        y += 1\n', 'GL005'),
    ('05_own_Module_base_GL001', 'class Module:\n    pass\nclass T(Module):\n    def f(self):\n        return (self.w * 2).detach()\n', 'GL001'),
    ('06_duplicate_class_name_GL001', 'import torch.nn as nn\nclass T(nn.Module):\n    pass\nclass T:\n    def f(self):\n        return (self.w * 2).detach()\n', 'GL001'),
    ('07_nograd_function_result_is_tensor_GL005', 'import torch\n@torch.no_grad()\ndef h():\n    return 0\ndef f(net):\n    a = h()\n    a * net\n    a += 1\n', 'GL005'),
    ('08_append_makes_receiver_computed_GL001', 'net = Net()\nhs.append(net(0))\nhs.detach().backward()\n', 'GL001'),
    ('08b_inplace_method_makes_receiver_computed_GL001', 'class M:\n    def f(self, x, net):\n        x.mul_(net)\n        return x.detach()\n', 'GL001'),
    ('09_step_in_other_branch_GL005', 'import torch\nmodel = Net()\nopt = torch.optim.SGD(model.parameters())\nloss = model(x)\nif c:\n    opt.step()\nelse:\n    loss.backward()\n', 'GL005'),
    ('09b_step_in_other_match_case_GL005', 'import torch\nmodel = Net()\nopt = torch.optim.SGD(model.parameters())\nloss = model(x)\nmatch c:\n    case 1:\n        opt.step()\n    case _:\n        loss.backward()\n', 'GL005'),
]


@pytest.mark.parametrize("name, source, code", _MISSED, ids=[m[0] for m in _MISSED])
def test_what_the_filter_once_missed_is_let_through(name, source, code):
    assert code in _facts_for(source.encode())
    assert prefilter.may_report(source, engine._read_ast(source)[0], frozenset({code}))


# GL005 (a) over a grid of small forward() bodies: every way this suite knows to make a tensor
# hold a saved-for-backward record, times every way to reach its storage under another name,
# times every spelling of an in-place edit, times the statement it sits in; the walker's facts
# are the oracle. Slow (some 9,500 programs).

_HEAD = """import torch
import torch.nn.functional as F
from torch import nn
from torch.autograd import Variable
from contextlib import nullcontext


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.Sigmoid()
        self.lin = nn.Linear(4, 4)
        self.inp = nn.ReLU(inplace=True)

    def forward(self, x, flag=True):
"""

# `s` comes to hold a record (or the op saves `s` itself), from the input `x`.
_SAVES = {
    "mul": "s = x * 1.0\nout = s * x",
    "sigmoid": "s = torch.sigmoid(x)\nout = s",
    "exp_method": "s = x.exp()\nout = s",
    "pow": "s = x + 0\nout = s ** 2",
    "softmax": "s = F.softmax(x, dim=-1)\nout = s",
    "module_output": "s = self.act(x)\nout = s",
    "module_input": "s = x + 0\nout = self.lin(s)",
    "matmul": "s = x + 0\nout = s @ x",
}
# `a` shares storage with `s`.
_ALIASES = {
    "same": "a = s", "item": "a = s[0]", "view": "a = s.view(-1)", "detach": "a = s.detach()",
    "data": "a = s.data", "ifexp": "a = s if flag else s[0]", "listcomp": "a = [s[i] for i in range(2)]",
    "neg": "b = s[0]\na = -b", "transpose": "b = s[0]\na = b.T", "walrus": "(a := s[0])",
    "tuple": "a, _ = s[0], 1", "view_item": "b = s.unsqueeze(0)\na = b[0]", "variable": "a = Variable(s[0])",
    "chain": "b = s[0]\nc = b\na = c",
}
# `a` (and so `s`) is edited in place.
_EDITS = {
    "method": "a.add_(1)", "rebind_method": "a = a.add_(1)", "index": "a[0] = 0", "augmented": "a += 1",
    "functional": "F.relu(a, inplace=True)", "positional_true": "F.relu(a, True)", "relu_": "F.relu_(a)",
    "out": "torch.add(a, 1, out=a)", "inplace_module": "self.inp(a)", "tuple_rebind": "a, z = a.clamp_(0), 1",
    "through_detach": "a.detach().add_(1)", "through_data": "a.data.add_(1)", "nested_index": "a[0][1] = 0",
    "view_index": "a.view(-1)[0] = 0", "attribute": "a.real.mul_(2)",
    "with_target": "with nullcontext(0) as a[0]:\n    pass", "for_target": "for a[0] in range(1):\n    pass",
}
_WRAPPERS = {
    "plain": lambda body: body,
    "if": lambda body: "if flag:\n" + _indent(body, 4),
    "loop": lambda body: "for _i in range(2):\n" + _indent(body, 4),
    "try": lambda body: "try:\n" + _indent(body, 4) + "\nexcept Exception:\n    pass",
    "with": lambda body: "with nullcontext():\n" + _indent(body, 4),
}


def _indent(text: str, spaces: int) -> str:
    return "\n".join(" " * spaces + line for line in text.split("\n"))


def _programs():
    for (save, alias, edit, wrapper) in itertools.product(_SAVES, _ALIASES, _EDITS, _WRAPPERS):
        body = _SAVES[save] + "\n" + _WRAPPERS[wrapper](_ALIASES[alias] + "\n" + _EDITS[edit]) + "\nreturn out"
        yield f"{save}/{alias}/{edit}/{wrapper}", _HEAD + _indent(body, 8) + "\n"


@pytest.mark.slow
def test_every_saved_tensor_edit_of_the_grid_is_let_through(monkeypatch):
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    missed, with_facts = [], 0
    for name, source in _programs():
        if "GL005" not in _facts_for(source.encode()):
            continue
        with_facts += 1
        if not prefilter.may_report(source, engine._read_ast(source)[0], frozenset({"GL005"})):
            missed.append(name)
    assert with_facts > 8000  # the grid is mostly edits of saved tensors
    assert not missed, missed[:20]


# GL002 over a grid: every way to pull values out of a tensor (or to take one with history), times
# every rebuild spelling, times every way to train the rebuilt tensor, times where the code sits.
_PULLS = {
    "item": "v = out.item()", "tolist": "v = out.tolist()", "numpy": "v = out.detach().numpy()",
    "float": "v = float(out)", "int": "v = int(out.sum())", "tensor": "v = out", "scaled": "v = out.sum().item() * 2",
    "listcomp": "v = [o.item() for o in out]", "no_grad": "with torch.no_grad():\n    v = model(x)",
}
_REBUILDS = {
    "tensor": "t = torch.tensor(v)", "tensor_requires_grad": "t = torch.tensor(v, requires_grad=True)",
    "as_tensor": "t = torch.as_tensor(v)", "from_numpy": "t = torch.from_numpy(v)",
    "FloatTensor": "t = torch.FloatTensor([v])", "Variable": "t = Variable(torch.Tensor([v]), requires_grad=True)",
    "aliased": "t = T.tensor(v)", "imported": "t = tensor(v)",
}
_TRAININGS = {
    "none": "", "requires_grad_": "t.requires_grad_()", "requires_grad": "t.requires_grad = True",
    "backward": "(t * 2).sum().backward()", "loss": "loss = t.mean()\nloss.backward()",
    "autograd": "torch.autograd.backward(t.sum())", "list": "ts = []\nts.append(t)\nts[0].requires_grad_()",
}
_PLACES = {
    "function": lambda body: "def step(model, x):\n    out = model(x)\n" + _indent(body, 4) + "\n",
    "forward": lambda body: ("class M(torch.nn.Module):\n    def forward(self, x):\n        out = self.net(x)\n"
                             + _indent(body, 8) + "\n"),
    "module": lambda body: "model = Net()\nout = model(x)\n" + body + "\n",
    "loop": lambda body: "def step(model, xs):\n    for x in xs:\n        out = model(x)\n" + _indent(body, 8) + "\n",
}


@pytest.mark.slow
def test_every_round_trip_of_the_grid_is_let_through(monkeypatch):
    monkeypatch.delenv(prefilter.DISABLE_ENV, raising=False)
    head = "import torch\nimport torch as T\nfrom torch import tensor\nfrom torch.autograd import Variable\n"
    missed, with_facts = [], 0
    for (pull, rebuild, training, place) in itertools.product(_PULLS, _REBUILDS, _TRAININGS, _PLACES):
        body = "\n".join(filter(None, (_PULLS[pull], _REBUILDS[rebuild], _TRAININGS[training])))
        source = head + _PLACES[place](body)
        facts = _facts_for(source.encode())
        with_facts += "GL002" in facts
        tree = engine._read_ast(source)[0]
        missed += [f"{pull}/{rebuild}/{training}/{place}: {code}" for code in sorted(facts)
                   if not prefilter.may_report(source, tree, frozenset({code}))]
    assert with_facts > 500
    assert not missed, missed[:20]
