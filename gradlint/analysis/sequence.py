"""One object's methods called in sequence: what each leaves in its attributes, steps and
backpropagates, replayed in the order a caller calls them.

A trainer written as methods (`forward()` storing `self.pred_fake`, `backward_D()` stepping the
discriminator's optimizer, `backward_G()` backpropagating `self.pred_fake`) breaks its backward
across calls: the graph stored in the attribute saved the discriminator's weights, the step
edited them in place, and the later backward reads them. Each method's walk records its events
(``Event``) into ``ModuleFacts.member_events``; ``replay`` follows a caller's sequence of calls
on one receiver and adds the ``StepBetween`` facts no single method's walk can see.

A method that may return early (a `return` before its last statement) runs one of several
ways (``scenarios``); the replay follows each and joins what they leave.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from gradlint.analysis.facts import StepBetween

# Marks, in ``Value.stale``, an attribute of the receiver read as it was when the method was
# called (``(ENTRY, "pred_fake")``): a backward's root that carries one reads what an earlier
# call stored there. A cut drops it with the rest of the history.
ENTRY = object()
DEPTH = 4  # methods calling methods calling methods: deeper drivers are rare, and cost
LAST = object()  # in a replay's state: the last backward event


@dataclass(frozen=True)
class Event:
    kind: str  # "bind", "step", "backward", "call"
    node: ast.AST  # the assignment, the step, the backward, the call
    attr: str = ""  # bind: the attribute (`pred_fake`); call: the method called
    reads: frozenset = frozenset()  # backward: the attributes its root read as on entry
    retain: bool = False  # backward: retain_graph=True
    optimizer: str = ""  # step: as written
    covers: frozenset | None = None  # step: the keys of what the optimizer updates
    root: str = ""  # backward: the root as written
    # bind: whether a step of ``covers`` updates parameters the stored graph saved
    touches: object = field(default=None, compare=False, hash=False)


def scenarios(node) -> list:
    """The ways a call of the function ``node`` may run, each a test of which of its events'
    positions that way passes: falling off its end (no arm that surely returns), and returning
    at each `return` before its last statement (what comes before it, outside the arms that
    exclude it). One scenario where it has no early return."""
    last = node.body[-1] if node.body else None
    early = [r for r in _own_nodes(node) if type(r) is ast.Return and r is not last]
    if not early:
        return [lambda at: True]
    parents = {}
    for parent in _own_nodes(node):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    returning = [_span(block) for parent in _own_nodes(node) for block in _blocks(parent)
                 if any(type(s) is ast.Return for s in block)]
    found = [lambda at: not any(_inside(at, span) for span in returning)]
    for ret in early[:4]:
        excluded, child, parent = [], ret, parents.get(ret)
        while parent is not None and parent is not node:
            if type(parent) is ast.If:
                other = parent.orelse if _contains(parent.body, child) else parent.body
                if other:
                    excluded.append(_span(other))
            child, parent = parent, parents.get(parent)
        point = (ret.lineno, ret.col_offset)
        found.append(lambda at, point=point, excluded=excluded: at < point and not any(_inside(at, s) for s in excluded))
    return found


def _own_nodes(function):
    """The nodes of ``function``'s own body, not those of a function or class defined in it."""
    stack = list(function.body)
    while stack:
        inner = stack.pop()
        yield inner
        if type(inner) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(inner))


def _blocks(node):
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if type(block) is list and block and isinstance(block[0], ast.stmt):
            yield block


def _contains(block, node) -> bool:
    return any(node is s for s in block)


def _span(block) -> tuple:
    return (block[0].lineno, block[0].col_offset), (block[-1].end_lineno, block[-1].end_col_offset)


def _inside(at, span) -> bool:
    return span[0] <= at <= span[1]


def replay(facts) -> None:
    """Follow each walked method's calls of its receiver's methods (``self.forward()``, then
    ``self.backward_D()``, then ``self.backward_G()``), and each sequence of calls a script makes
    on an instance it builds (``model.gen_batch(x, z)``, ``model.train_generator()``, in this
    file or a script beside it), with what each method's events did to the receiver's
    attributes, and record each step that edited what a later backward reads."""
    events = facts.member_events
    stepped: dict = {}  # backward node -> (what the steps after it update, one of them unknown)
    for (cls, name), (own, _) in list(events.items()):
        if any(e.kind == "call" for e in own):
            # (a driver method runs on an object its caller has used: what the class's methods
            # store with history may be there already, `self.fake_random` of an earlier
            # `forward()`, unless the driver binds it first)
            _run(facts, cls, [Event("call", None, name)], _stored_before(events, cls, name), 0, stepped)
    for cls in {cls for (cls, _name), (own, _) in events.items() if any(e.kind == "step" for e in own)}:
        if not any(any(e.kind == "backward" and e.reads for e in own)
                   for (owner, _name), (own, _) in events.items() if owner == cls):
            continue  # (no backward reads what another call left: nothing to follow)
        own = sequences(facts.module, lambda call, cls=cls: type(call.func) is ast.Name and call.func.id == cls)
        view = facts.imports.project
        found = own + (view.sequences_of(cls) if view is not None else [])
        for calls in found:
            _run(facts, cls, [Event("call", node, method) for node, method in calls], {}, 0, stepped)
    _note_steps(facts, stepped)
    # (each bind's test holds its walker, which holds its events: a cycle the collector would
    # have to find)
    for own, _ in events.values():
        own.clear()
    facts.member_events = {}


def _stored_before(events, cls: str, driver: str) -> dict:
    """What the other methods of ``cls`` store in its attributes with history, as a driver
    method finds them when called: each attribute's last such bind, alive and not yet stale."""
    state: dict = {}
    for (owner, name), (own, _) in events.items():
        if owner != cls or name in (driver, "__init__"):
            continue
        for event in own:
            if event.kind == "bind" and event.touches is not None:
                state[event.attr] = (event, (), True)
    return state


def sequences(tree, constructs) -> list:
    """In each function of ``tree`` (and its top level), the calls of methods, as statements
    or assigned, on a name bound to an instance a call ``constructs`` builds, in source order:
    per binding, a list of (call, method)."""
    found = []
    scopes = [tree] + [n for n in ast.walk(tree) if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef)]
    for scope in scopes:
        open_: dict = {}  # name -> the calls on the instance it holds
        for stmt in _statements(scope.body):
            value = stmt.value if type(stmt) in (ast.Expr, ast.Assign) else None
            if type(value) is ast.Call and type(value.func) is ast.Attribute \
                    and type(value.func.value) is ast.Name and value.func.value.id in open_:
                open_[value.func.value.id].append((value, value.func.attr))
            if type(stmt) is ast.Assign:
                for target in stmt.targets:
                    if type(target) is ast.Name:
                        if target.id in open_:
                            found.append(open_.pop(target.id))
                        if type(stmt.value) is ast.Call and constructs(stmt.value):
                            open_[target.id] = []
        found.extend(open_.values())
    return [calls for calls in found if len(calls) > 1]


def _statements(body):
    """The statements of a body in source order, those of its compound statements' blocks in
    place (a function or class defined in it is its own scope)."""
    for stmt in body:
        yield stmt
        if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(stmt, name, ()) or ())
        for handler in getattr(stmt, "handlers", ()) or ():
            yield from _statements(handler.body)


def _run(facts, cls: str, events, state: dict, depth: int, stepped: dict) -> dict:
    """What the receiver's attributes hold after ``events``, from ``state`` before them: attr ->
    (the bind, the steps since that edited what it saved, whether its graph is still alive);
    ``state[LAST]`` the last backward event. What each step updates is noted in ``stepped``
    against the last backward before it, as a function's own walk notes it (``note_step``)."""
    for event in events:
        if event.kind == "call":
            called = facts.member_events.get((cls, event.attr))
            if called is None or depth >= DEPTH:
                continue
            ways, outcomes = called
            ends = [_run(facts, cls, [e for e in ways if passes(_at(e))], dict(state), depth + 1, stepped)
                    for passes in outcomes]
            state = _joined(ends)
        elif event.kind == "step" and state.get(LAST) is not None:
            covers, unknown = stepped.get(state[LAST].node, (frozenset(), False))
            stepped[state[LAST].node] = (covers | (event.covers or frozenset()), unknown or event.covers is None)
        elif event.kind == "bind":
            state[event.attr] = (event, (), True)
        if event.kind == "step":
            for attr, (bound, steps, alive) in _attributes(state):
                if alive and event.covers and bound.touches is not None and bound.touches(event.covers, event.node):
                    state[attr] = (bound, steps + (event,), alive)
        elif event.kind == "backward":
            state[LAST] = event
            for attr in sorted(event.reads):
                held = state.get(attr)
                if held is None or not held[2]:
                    continue
                for step in held[1]:
                    facts.steps.append(StepBetween(step.node, step.optimizer, event.node, event.root, None,
                                                   through=(f"self.{attr}",)))
            if not event.retain:
                # (the backward freed the graphs it went through: a later one through them fails
                # another way)
                for attr in event.reads:
                    if attr in state:
                        bound, steps, _ = state[attr]
                        state[attr] = (bound, steps, False)
    return state


def _attributes(state: dict) -> list:
    return [(attr, held) for attr, held in state.items() if attr is not LAST]


def _note_steps(facts, stepped: dict) -> None:
    """A backward whose own function steps nothing after it (`self.err_g.backward()` in
    `backward_g`) is followed by what the sequences step after it (`self.optimizer_g.step()` in
    the driver): what those update is what its loss was computed to train."""
    for backward in facts.backwards:
        found = stepped.get(backward.node)
        if found is None or backward.stepped is not None or backward.open_step:
            continue
        covers, unknown = found
        backward.stepped = covers if covers else None
        backward.open_step = unknown


def _at(event) -> tuple:
    return (event.node.lineno, event.node.col_offset)


def _joined(states: list) -> dict:
    """The attributes after a call that may have run any of its ways: each bind one of them
    left, with the steps any of them made since, alive where any left it alive."""
    if len(states) == 1:
        return states[0]
    out: dict = {}
    lasts = {state.get(LAST) for state in states}
    if len(lasts) == 1:
        out[LAST] = lasts.pop()  # (which backward was last is known only where every way agrees)
    for state in states:
        for attr, (bound, steps, alive) in _attributes(state):
            if attr not in out:
                out[attr] = (bound, steps, alive)
                continue
            first, seen, was = out[attr]
            out[attr] = (first, seen + tuple(s for s in steps if s not in seen), was or alive)
    return out
