"""The analysis compares ``ast`` node classes by identity (``type(node) is ast.Call``), a dict
lookup cheaper than ``isinstance`` over the millions of nodes a corpus run walks. That is only
the same test while ``ast.parse`` makes no node of a class derived from the ones compared."""
from __future__ import annotations

import ast
import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "gradlint"
# Subclasses ast keeps for old code (``ast.Num``...): ``ast.parse`` never makes them.
DEPRECATED = {"Num", "Str", "Bytes", "NameConstant", "Ellipsis"}


def _compared() -> set[str]:
    names: set[str] = set()
    for path in [*(ROOT / "analysis").glob("*.py"), *(ROOT / "checks").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"type\([^\n]*?\) (?:is not|is|not in|in) (\((?:ast\.\w+,? ?)+\)|ast\.\w+)", text):
            names.update(re.findall(r"ast\.(\w+)", match.group(1)))
    return names


def test_the_analysis_compares_node_types_by_identity():
    assert {"Call", "Name", "Attribute"} <= _compared()


@pytest.mark.parametrize("name", sorted(_compared()))
def test_no_ast_class_parse_makes_derives_from_a_compared_one(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        cls = getattr(ast, name)
        below = {sub.__name__ for sub in cls.__subclasses__()}
    assert isinstance(cls, type) and issubclass(cls, ast.AST)
    assert below <= DEPRECATED, f"ast.{name} has subclasses {below - DEPRECATED}: compare with isinstance"
