"""GL005 (b): an optimizer step between a loss's computation and its backward.

The walker reports a backward whose root is a dotted name bound before a pending ``….step()``
(one since the last backward) and not rebound since (``Walker.backward``: ``born`` against the
step's statement). ``StepFlow`` follows, statement by statement, which names may be bound before
a pending step; a backward of one of them may report. Any ``….step()`` counts as a step, and
every name a backward call may take as its root (its receiver, ``scaler.scale(loss)``'s
argument, its first argument, ``outputs=``/``tensors=``) as its root.
"""
from __future__ import annotations

import ast

from gradlint.prefilter.flow import Hit, StatementFlow
from gradlint.prefilter.tables import BACKWARDS, bound_names, dotted


def steps_before_a_backward(scan, scope) -> bool:
    return StepFlow(scan, scope).run()


class StepFlow(StatementFlow):
    """State: the names bound so far, and those bound before a pending step. The walker keeps
    both (``born``, ``pending_steps``) outside the values it joins at branches: it walks an
    ``if``'s body and then its ``else`` with what the body left, and so does this flow (a step in
    one branch is still pending at a backward in the other)."""

    def __init__(self, scan, scope):
        super().__init__(scope.body, scan.headers)
        self.scan = scan
        self.bound: set[str] = set()
        self.stale: set[str] = set()

    def copy(self) -> tuple[frozenset, frozenset]:
        return frozenset(self.bound), frozenset(self.stale)

    def set(self, state) -> None:
        self.bound, self.stale = set(state[0]), set(state[1])

    @staticmethod
    def join(a, b):
        return a[0] | b[0], a[1] | b[1]

    def statement(self, stmt) -> None:
        kind = type(stmt)
        if kind is ast.If:
            self.effects([stmt.test])
            self.block(stmt.body)
            self.block(stmt.orelse)
        elif kind is ast.Try or kind.__name__ == "TryStar":
            self.block(stmt.body)
            self.block(stmt.orelse)
            for handler in stmt.handlers:
                self.block(handler.body)
            self.block(stmt.finalbody)
        elif kind.__name__ == "Match":
            self.effects([stmt.subject, *(c.guard for c in stmt.cases if c.guard is not None)])
            for case in stmt.cases:
                self.block(case.body)
        else:
            super().statement(stmt)

    def effects(self, roots: list, bindings: list = (), loop_target: bool = False) -> None:
        # One statement shares one ``seq``: a step in it is after every earlier binding and not
        # after its own; its calls may run in any order. Only its own targets count as rebinding
        # (a walrus or a comprehension may sit where the walker never goes: a lambda, the
        # arguments of a `set_grad_enabled(…)` statement): a name left bound before a step only
        # keeps a backward of it in view.
        step, roots_of_backwards, rebound, augmented = False, set(), set(), set()
        for node in self.nodes(roots):
            kind = type(node)
            if kind is ast.Call:
                func = node.func
                if type(func) is ast.Attribute and func.attr == "step":
                    step = True
                if not self.scan.lasts(func).isdisjoint(BACKWARDS):
                    roots_of_backwards |= _roots(node)
            elif kind is ast.AugAssign:
                augmented.update(bound_names(node.target))
        for target, _ in bindings:
            rebound.update(bound_names(target))
        stale = self.stale | self.bound if step else self.stale
        if not roots_of_backwards.isdisjoint(stale):
            raise Hit
        # After the statement: a backward clears the pending steps, unless a step of the same
        # statement may come after it; a name bound here was born after every pending step.
        if roots_of_backwards and not step:
            stale = set()
        self.stale = set(stale) - rebound
        self.bound |= rebound | augmented


def _roots(call: ast.Call) -> set[str]:
    """The dotted names a backward call may take as its root (``Walker.method_call``,
    ``Walker.torch_call``)."""
    positional = [a for a in call.args if type(a) is not ast.Starred]
    exprs = [*positional[:1], *(k.value for k in call.keywords if k.arg in ("outputs", "tensors"))]
    func = call.func
    if type(func) is ast.Attribute:
        receiver = func.value
        exprs.append(receiver)
        if type(receiver) is ast.Call and type(receiver.func) is ast.Attribute and receiver.args:
            exprs.append(receiver.args[0])  # scaler.scale(loss).backward()
    return {name for name in map(dotted, exprs) if name}
