"""analysis/tree.py: inside ``memoized()`` a walk of any node of a module already walked is cut
from the module's walk; it must be the walk that node would have made itself."""
from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from gradlint.analysis import tree

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = [p for p in sorted((ROOT / "fixtures").rglob("*.py")) if "GL000" not in p.parts][::25]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_walk_cut_from_the_module_walk_is_the_walk_itself(path):
    module = cst.parse_module(path.read_bytes())
    with tree.memoized():
        assert list(tree.iter_nodes(module)) == tree._walk(module, True)
        nodes, ends = tree.walk_with_ends(module)
        for at, node in enumerate(nodes):
            assert ends[at] == at + len(tree._walk(node, True))
            for into in (True, False):
                assert list(tree.iter_nodes(node, into_functions=into)) == tree._walk(node, into)


def test_a_node_of_another_tree_is_walked_on_its_own():
    module = cst.parse_module("def f(x):\n    return x.detach()\n")
    other = cst.parse_expression("g(y).detach()")
    with tree.memoized():
        list(tree.iter_nodes(module))
        assert list(tree.iter_nodes(other)) == tree._walk(other, True)
