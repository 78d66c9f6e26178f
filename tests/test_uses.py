"""What ``analysis.uses.Program`` reads off a file's code, asserted on the code shapes that
decide it (each with a look-alike that must not count)."""
from __future__ import annotations

import ast

import pytest

from gradlint.analysis.facts import module_facts
from gradlint.analysis.uses import Program


def _followers(src: str) -> set[str]:
    return Program(module_facts(ast.parse(src), src)).followers


@pytest.mark.parametrize("line, copy", [
    ("self.old = copy.deepcopy(self.net)", "self.old"),
    ("self.old = self.net.copy()", "self.old"),
    # PyCIL's incremental learners: the network's own copy method, frozen in the same chain
    ("self.old = self.net.copy().freeze()", "self.old"),
    ("old = net.copy().eval()", "old"),
])
def test_a_copy_of_another_network_follows_it(line, copy):
    assert copy in _followers(f"import copy\n{line}\n")


@pytest.mark.parametrize("line", [
    "self.net = self.net.copy()",  # a copy of itself: still the network that trains
    "self.old = self.net.copy(deep=True)",  # (a copy method with arguments: whose is not known)
    "self.old = build(self.net)",
])
def test_what_copies_no_other_network_follows_nothing(line):
    assert not _followers(f"import copy\n{line}\n")
