"""analysis/tree.py: inside ``memoized()`` a walk of any node of a module already walked is cut
from the module's walk; it must be the walk that node would have made itself. The walk reads
``ast`` nodes in source order and leaves out what is not source (contexts, operators)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gradlint.analysis import tree

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [p for p in sorted((ROOT / "fixtures").rglob("*.py")) if "GL000" not in p.parts][::25]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_walk_cut_from_the_module_walk_is_the_walk_itself(path):
    module = ast.parse(path.read_bytes())
    with tree.memoized():
        assert list(tree.iter_nodes(module)) == tree._walk(module, True)
        nodes, ends = tree.walk_with_ends(module)
        for at, node in enumerate(nodes):
            if tree._tracked(type(node)):  # (the ends of statements and scopes only)
                assert ends[at] == at + len(tree._walk(node, True))
            for into in (True, False):
                assert list(tree.iter_nodes(node, into_functions=into)) == tree._walk(node, into)


def test_a_node_of_another_tree_is_walked_on_its_own():
    module = ast.parse("def f(x):\n    return x.detach()\n")
    other = ast.parse("g(y).detach()", mode="eval").body
    with tree.memoized():
        list(tree.iter_nodes(module))
        assert list(tree.iter_nodes(other)) == tree._walk(other, True)


def _names(nodes) -> list[str]:
    return [n.id for n in nodes if type(n) is ast.Name]


def test_the_walk_follows_the_source_and_skips_what_is_not_source():
    module = ast.parse(
        "@deco\n"
        "def f(a=dflt):\n"
        "    return {k1: v1, **rest, k2: v2}, yes if cond else no, -neg + plus\n")
    for walk in (list(tree.iter_nodes(module)), tree._walk(module, True)):
        assert _names(walk) == ["deco", "dflt", "k1", "v1", "rest", "k2", "v2",
                                "yes", "cond", "no", "neg", "plus"]
        assert not any(isinstance(n, (ast.expr_context, ast.operator, ast.unaryop)) for n in walk)


def test_a_walk_outside_functions_keeps_the_nested_scope_but_not_its_body():
    module = ast.parse(
        "x = 1\n"
        "@deco\n"
        "async def inner(p=dflt):\n"
        "    hidden = 2\n"
        "class C:\n"
        "    also_hidden = 3\n"
        "f = lambda q: q\n"
        "y = 4\n")
    with tree.memoized():
        list(tree.iter_nodes(module))
        for walk in (list(tree.iter_nodes(module, into_functions=False)), tree._walk(module, False)):
            assert _names(walk) == ["x", "f", "y"]
            assert [type(n) for n in walk if type(n) in tree.SCOPES] == [ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda]
        inner = module.body[1]
        assert _names(tree.iter_nodes(inner, into_functions=False)) == ["deco", "dflt", "hidden"]


def test_definitions_are_walked_after_their_callers():
    """Each definition comes after every other that names it; a cycle is broken at the last
    defined; a long chain costs no quadratic time."""
    import ast

    from gradlint.analysis.flow import callers_first

    src = ("def main():\n    a()\n\ndef a():\n    b()\n\ndef b():\n    c()\n\ndef c():\n    a()\n\n"
           "class K:\n    def m(self):\n        main()\n")
    assert [d.name for d in callers_first(ast.parse(src).body)] == ["K", "main", "c", "a", "b"]
    chain = "".join(f"def f{i}():\n    f{i + 1}()\n" for i in range(2000)) + "def f2000():\n    pass\n"
    order = [d.name for d in callers_first(ast.parse(chain).body)]
    assert order == [f"f{i}" for i in range(2001)]
