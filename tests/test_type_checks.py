"""The analysis compares libcst node classes by identity (``type(node) is cst.Call``): an
``isinstance`` check on them goes through ABCMeta on every call, and the walks make millions.
That is only the same test while no libcst class derives from the ones compared."""
from __future__ import annotations

import re
from pathlib import Path

import libcst as cst
import pytest

ANALYSIS = Path(__file__).resolve().parent.parent / "gradlint" / "analysis"


def _compared() -> set[str]:
    names: set[str] = set()
    for path in ANALYSIS.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r"type\([^\n]*?\) (?:is not|is|not in|in) (\((?:cst\.\w+,? ?)+\)|cst\.\w+)", text):
            names.update(re.findall(r"cst\.(\w+)", match.group(1)))
    return names


def test_the_analysis_compares_node_types_by_identity():
    assert {"Call", "Name", "Attribute", "FunctionDef"} <= _compared()


@pytest.mark.parametrize("name", sorted(_compared()))
def test_no_libcst_class_derives_from_a_compared_one(name):
    cls = getattr(cst, name)
    assert isinstance(cls, type) and issubclass(cls, cst.CSTNode)
    assert cls.__subclasses__() == [], f"cst.{name} has subclasses: compare with isinstance"
