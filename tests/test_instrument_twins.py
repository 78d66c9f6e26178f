"""The instrumenter finds, for each ``ast`` node the analysis reports, the libcst node it
rewrites: same kind, same characters (columns in characters, not ``ast``'s UTF-8 bytes)."""
from __future__ import annotations

import ast

import libcst as cst

from gradlint.analysis.facts import source_lines, source_segment
from gradlint.dynamic.instrument import _TWIN_CLASSES, _Twins

SOURCE = (
    "x = (a,\r\n  b)\r\n"
    "y = é.detach() + 'ü'; z = ( é , ü )\r\n"
    "if y:\tw = f(k for k in g)\n"
    "v = ( \\\n  p, q\n )\n"
    "u = (1,); t = ((hé)).data\n"
    "s = f'{a!r}' 'b'; r = [*m, n]; q = {**d, 'k': not c and e or -1}\n"
)


def _unmappable(node, parents) -> bool:
    # No libcst expression node of their own: a subscript's index tuple (libcst splits it into
    # elements), ``*x`` in a call (part of libcst's Arg), the pieces of an f-string.
    parent = parents.get(id(node))
    return (type(node) is ast.Tuple and type(parent) is ast.Subscript
            or type(node) is ast.Starred and type(parent) is ast.Call
            or type(parent) in (ast.JoinedStr, ast.FormattedValue))


def test_every_expression_and_statement_has_its_twin():
    tree = ast.parse(SOURCE)
    module = cst.parse_module(SOURCE)
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    nodes = [n for n in ast.walk(tree) if type(n) in _TWIN_CLASSES and not _unmappable(n, parents)]
    twins = _Twins(module, source_lines(SOURCE), nodes)
    for node in nodes:
        twin = twins.get(node)
        assert twin is not None, ast.dump(node)
        assert type(twin) in _TWIN_CLASSES[type(node)]
        # (libcst renders a node with its parentheses, a statement with its semicolon, an element
        # with its comma)
        assert _bare(module.code_for_node(twin)) == _bare(ast.get_source_segment(SOURCE, node))


def _bare(text: str) -> str:
    text = "".join(text.split()).replace("\\", "").rstrip(";,")
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return text


def test_a_node_without_twin_is_none():
    source = "x[1, 2]\n"
    tree = ast.parse(source)
    index = tree.body[0].value.slice
    assert _Twins(cst.parse_module(source), source_lines(source), [index]).get(index) is None


def test_a_node_of_another_file_past_these_lines_reads_as_its_own_text():
    # (a helper's edit reached through a call: its node is of the helper's file, whose lines may
    # outnumber the caller's; quoting it from the caller's lines raised IndexError)
    node = ast.parse("\n" * 40 + "attention.data.div_(2)").body[0].value
    assert source_segment(["x = 1\n"], node) == "attention.data.div_(2)"
