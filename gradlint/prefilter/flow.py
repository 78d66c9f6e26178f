"""The statement-order walk the prefilter's flow conditions share (``saved``, ``steps``).

It visits one scope's statements as ``analysis/flow.py``'s ``Walker`` does, with a state that
over-approximates the walker's at every point: an ``if`` joins both branches; a loop is run to a
fixed point from its entry (the walker runs its body twice, recording on the second pass);
``try`` and ``match`` join as the walker does. A subclass says what the state is and what one
statement's expressions do to it, and raises ``Hit`` where the scope may report.
"""
from __future__ import annotations

import ast

from gradlint.prefilter.tables import subtree


class Hit(Exception):
    """The scope may report: the filter lets the module through."""


class StatementFlow:
    _LIMIT = 50  # loop passes before giving up (and saying yes)

    def __init__(self, body: list[ast.stmt], headers: dict | None = None):
        self.body = body
        self._headers: dict[tuple, list[ast.AST]] = {} if headers is None else headers

    def nodes(self, roots: list) -> list[ast.AST]:
        """The nodes under ``roots``, nested statement bodies excluded (kept in ``headers``, which
        flows over one module may share: a loop's body is gone through again until its state
        settles, and a scope may be walked again seeded)."""
        key = tuple(map(id, roots))
        found = self._headers.get(key)
        if found is None:
            found = self._headers[key] = [n for root in roots for n in subtree(root, into_statements=False)]
        return found

    def run(self) -> bool:
        """Whether the scope may report."""
        try:
            self.block(self.body)
        except Hit:
            return True
        return False

    # ---- the state: a subclass's ----

    def copy(self):
        raise NotImplementedError

    def set(self, state) -> None:
        raise NotImplementedError

    @staticmethod
    def join(a, b):
        raise NotImplementedError

    def effects(self, roots: list, bindings: list = (), loop_target: bool = False) -> None:
        """What the expressions under ``roots`` (nested statement bodies excluded) do, then the
        ``(target, value)`` bindings of the statement."""
        raise NotImplementedError

    # ---- statements ----

    def block(self, statements) -> None:
        for stmt in statements:
            self.statement(stmt)

    def statement(self, stmt) -> None:
        kind = type(stmt)
        if kind is ast.If:
            self.effects([stmt.test])
            before = self.copy()
            self.block(stmt.body)
            after_body = self.copy()
            self.set(before)
            self.block(stmt.orelse)
            self.set(self.join(after_body, self.copy()))
        elif kind is ast.For or kind is ast.AsyncFor or kind is ast.While:
            self.loop(stmt)
        elif kind is ast.With or kind is ast.AsyncWith:
            self.with_(stmt)
        elif kind is ast.Try or kind.__name__ == "TryStar":
            before = self.copy()
            self.block(stmt.body)
            self.block(stmt.orelse)
            after = self.copy()
            for handler in stmt.handlers:
                self.set(self.join(before, after))
                self.block(handler.body)
                after = self.join(after, self.copy())
            self.set(after)
            self.block(stmt.finalbody)
        elif kind.__name__ == "Match":
            self.effects([stmt.subject, *(c.guard for c in stmt.cases if c.guard is not None)])
            before, after = self.copy(), self.copy()
            for case in stmt.cases:
                self.set(before)
                self.block(case.body)
                after = self.join(after, self.copy())
            self.set(after)
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            pass  # walked on its own
        elif kind is ast.Assign:
            self.effects([stmt], [(t, stmt.value) for t in stmt.targets])
        elif kind is ast.AnnAssign:
            self.effects([stmt], [(stmt.target, stmt.value)] if stmt.value is not None else [])
        else:
            self.effects([stmt])

    def with_(self, stmt) -> None:
        self.with_items(stmt)
        self.block(stmt.body)

    def with_items(self, stmt) -> None:
        """The items of a ``with``, and their targets as roots too (`with … as p[0]` edits p, as
        ``Walker.bind`` does). The walker neither evaluates nor binds an item that switches
        recording (``Walker.with_``): where one may be such an item, its target is not rebound."""
        self.effects([*(i.context_expr for i in stmt.items),
                      *(i.optional_vars for i in stmt.items if i.optional_vars is not None)],
                     [(i.optional_vars, i.context_expr) for i in stmt.items
                      if i.optional_vars is not None and not self.scan.may_switch_recording(i.context_expr)])

    def loop(self, stmt) -> None:
        entry = self.copy()
        state = entry
        for _ in range(self._LIMIT):
            self.set(state)
            if type(stmt) is ast.While:
                self.effects([stmt.test])
            else:
                self.effects([stmt.iter, stmt.target], [(stmt.target, stmt.iter)], loop_target=True)
            self.block(stmt.body)
            joined = self.join(entry, self.copy())
            if joined == state:
                break
            state = joined
        else:
            raise Hit  # no fixed point in reach: say yes
        self.set(state)
        self.block(stmt.orelse)
