"""GL005 inplace-on-saved: an in-place edit of a tensor that an earlier recorded op saved for
backward.

``v = u ** 2`` saves ``u``; ``u.add_(1)`` afterwards moves ``u``'s version counter and backward()
fails (or, where the check is bypassed, computes a wrong gradient). ``v = u + 1`` saves nothing,
so the same edit is harmless. Which op saves which operand is measured from torch by
``tools/gen_saved_tensors.py``, not typed by hand.

PyTorch: https://pytorch.org/docs/stable/notes/autograd.html#in-place-correctness-checks
"""
from __future__ import annotations

import ast
import dataclasses

from gradlint.checks import Flag, Rule

RULE = Rule(
    "GL005", "inplace-on-saved",
    "An in-place edit of a tensor that an earlier recorded op saved for backward.",
)


def _closing_layer(save, edit, facts):
    """The layer that ends the ``nn.Sequential`` the save is a call of (``self.sequential(x)`` of
    ``self.sequential = nn.Sequential(conv, bn, nn.ReLU())`` in the class's ``__init__``): the one
    that saved the output, as written there; None elsewhere."""
    from gradlint.analysis.imports import dotted
    from gradlint.analysis.scan import _HANDS_ON

    call = save.node
    name = dotted(call.func) if type(call) is ast.Call else None
    cls = edit.function.class_name if edit.function is not None else None
    if name is None or not name.startswith("self.") or name.count(".") != 1 or cls is None:
        return None
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == cls), None)
    built = [n.value for n in ast.walk(owner) if type(n) is ast.Assign and len(n.targets) == 1
             and dotted(n.targets[0]) == name] if owner is not None else []
    if len(built) != 1 or type(built[0]) is not ast.Call \
            or facts.imports.qualname(built[0].func) != "torch.nn.Sequential":
        return None
    layers = list(built[0].args)
    if any(type(a) is not ast.Call for a in layers):
        return None  # (`*blocks`, a layer bound to a name: which one ends it is not written here)
    while layers and facts.imports.qualname(layers[-1].func) in _HANDS_ON:
        layers.pop()
    return layers[-1] if len(layers) > 1 else None


def _hint(edit, facts) -> str:
    """The out-of-place spelling of this edit."""
    how = edit.how
    if edit.via_data:
        return f"compute a new tensor instead of writing through `{edit.name}.data`"
    if isinstance(how, tuple):  # `x += y` or `x[i] = y`
        target, suffix = how
        if isinstance(target, ast.Subscript):
            return f"assign into a copy instead: `{edit.name} = {edit.name}.clone()` before the assignment"
        return f"write it out of place: `{edit.name} = {edit.name} {suffix.split()[0][:-1]} …`"
    if isinstance(how, ast.Call) and any(k.arg == "inplace" for k in how.keywords):
        return "drop inplace=True"
    if _writes_out(how):
        return "drop out= and bind the result to a new name"
    if isinstance(how, ast.Call) and isinstance(how.func, ast.Attribute) and how.func.attr.endswith("_"):
        from gradlint.analysis import torch_types

        method = how.func.attr
        if torch_types.result_of(f"Tensor.{method[:-1]}") is None:
            # (`copy_`, `zero_`, `fill_` have no out-of-place twin of their name: `Tensor.copy` is none)
            return f"bind a new tensor instead of writing into `{edit.name}`, or edit a `.clone()` of it"
        if not _assignable(edit.name):
            return f"use the out-of-place `{method[:-1]}`: `{edit.name}.{method[:-1]}(...)` in its place"
        return f"use the out-of-place `{method[:-1]}`: `{edit.name} = {edit.name}.{method[:-1]}(...)`"
    return "drop inplace=True, or apply it to a `.clone()`"


def _assignable(name: str) -> bool:
    """`name = …` is valid Python: a name or an attribute chain, never a call's result
    (`self.lsm(x) = …` is a syntax error a hint must not suggest)."""
    try:
        node = ast.parse(name, mode="eval").body
    except SyntaxError:
        return False
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _writes_out(how) -> bool:
    return isinstance(how, ast.Call) and any(k.arg == "out" for k in how.keywords)


def _never_backpropagated(edit, facts) -> bool:
    """The function backpropagates after the edit, and none of those backward calls (nor what
    it returns) carries the edited tensor's history attached: its graph is only ever read through
    a cut (TD3's target action, noised in place, then used under `.detach()`), and no backward
    reads what the edit moved."""
    if not edit.trainables:
        return False
    here = edit.function.node
    at = facts.call_sites.get(edit.node, edit.node)  # (as in ``_graph_stays_here``)
    point = (at.lineno, at.col_offset)
    later = [b for b in facts.backwards if b.function.node is here and (b.node.lineno, b.node.col_offset) > point]
    if not later:
        return False
    if any(_shared(edit.trainables, b.value.trainables | b.value.post) for b in later):
        return False
    return not any(r.function.node is here and _shared(edit.trainables, r.value.trainables | r.value.post)
                   for r in facts.returns)


def _shared(edited, reached) -> bool:
    """Some trainable of ``edited`` is one of ``reached``, or a member of one, or holds one
    (`self.online_net.fc_h`'s buffer, the backward through `self.online_net`)."""
    return any(a == b or a.startswith(b + ".") or b.startswith(a + ".") for a in edited for b in reached)


def _graph_stays_here(edit, facts) -> bool:
    """Nothing after the edit can backpropagate through the edited tensor: the function makes
    no backward call after it, returns nothing with history (test-time augmentation's
    `seg_logit += cur` then `return list(seg_logit.argmax(1).cpu().numpy())`), stores nothing on
    an attribute or into a container, yields nothing, and hands the edited tensor to no call
    (only its own methods and operators read it). The saved tensor's version moves, and no
    backward ever checks it."""
    fn = edit.function.node
    if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef) or "." in edit.name:
        return False
    returns = [r for r in facts.returns if r.function.node is fn]
    if not returns or any(r.value.attached or r.value.live or r.node.value is None
                          or any(_is_name(n, edit.name) for n in ast.walk(r.node.value)) for r in returns):
        return False  # (`return states` after `states[t] = …`: the buffer edited is handed out)
    # (an edit inside a helper of another file is placed at this function's call of it)
    at = facts.call_sites.get(edit.node, edit.node)
    point = (at.lineno, at.col_offset)
    if any(b.function.node is fn and (b.node.lineno, b.node.col_offset) > point for b in facts.backwards):
        return False
    for node in ast.walk(fn):
        if (getattr(node, "lineno", 0), getattr(node, "col_offset", 0)) <= point:
            continue
        if type(node) in (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal):
            return False
        if type(node) in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            targets = node.targets if type(node) is ast.Assign else [node.target]
            if any(type(t) is not ast.Name and not (type(t) is ast.Subscript and _is_name(t.value, edit.name))
                   for t in targets):
                return False
        if type(node) is ast.Call and any(_is_name(a, edit.name) for a in [*node.args, *(k.value for k in node.keywords)]):
            return False
    return True


# Ops whose result autograd does not differentiate: indices and comparisons.
_INDEX_METHODS = frozenset({"argmin", "argmax", "argsort"})


def _only_indexed(save, fn, module) -> bool:
    """The saving op's result is read only by ops autograd does not differentiate, through
    arithmetic and the names it is bound to (``dist = x.pow(2).sum(1) - 2 * x @ codebook``, then
    ``dist.argmin(1)``, ``dist < r`` or ``_, idx = (-dist).max(1)``): no backward ever reaches
    the op, so its saved tensors are never checked (a VQ codebook's EMA update after the
    nearest-code search)."""
    parents = {child: parent for parent in ast.walk(fn) for child in ast.iter_child_nodes(parent)}
    return _undifferentiated(save.node, parents, fn, 0, module)


def _owners(module) -> dict:
    """id(node) -> the innermost function of the module that holds it (the save may be in
    another function than the edit: `ema_inplace(self.codebook, …)` edits what `forward` saved)."""
    owners = {}
    for fn in ast.walk(module):  # (outer functions come first: an inner one's nodes end as its own)
        if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef):
            for node in ast.walk(fn):
                owners[id(node)] = fn
    return owners


def _undifferentiated(node, parents, fn, depth: int, module) -> bool:
    while type(parents.get(node)) in (ast.BinOp, ast.UnaryOp):
        node = parents[node]
    if _non_differentiable_use(node, parents, fn):
        return True
    up = parents.get(node)
    if depth >= 3 or type(up) is not ast.Assign or up.value is not node or len(up.targets) != 1 \
            or type(up.targets[0]) is not ast.Name:
        return False
    name = up.targets[0].id
    reads = [n for n in ast.walk(fn) if _is_name(n, name) and type(n.ctx) is ast.Load]
    # (a read only an option no call of the file switches on makes, `if return_soft_codes:` left
    # at its default False: the runs the file makes never take it)
    taken = [read for read in reads if not _behind_an_unused_option(read, parents, fn, module)]
    return bool(reads) and all(_undifferentiated(read, parents, fn, depth + 1, module) for read in taken)


def _behind_an_unused_option(node, parents, fn, module) -> bool:
    """``node`` runs only under ``if flag:`` of a parameter of ``fn`` defaulting to False (or
    ``if not flag:`` defaulting to True) that no call in the module names as a keyword."""
    if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return False
    defaults = {p.arg: d for p, d in zip([*fn.args.posonlyargs, *fn.args.args][-len(fn.args.defaults):]
                                         if fn.args.defaults else [], fn.args.defaults)}
    defaults.update({p.arg: d for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
    child, up = node, parents.get(node)
    while up is not None and up is not fn:
        if type(up) is ast.If and child in up.body:
            test, wanted = up.test, True
            if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
                test, wanted = test.operand, False
            default = defaults.get(test.id) if type(test) is ast.Name else None
            if type(default) is ast.Constant and default.value is (not wanted) and not any(
                    type(n) is ast.keyword and n.arg == test.id for n in ast.walk(module)):
                return True
        child, up = up, parents.get(up)
    return False


# Reductions that return (values, indices): only their indices read is no differentiable use.
_WITH_INDICES = frozenset({"max", "min", "sort", "topk", "kthvalue", "mode", "median"})


def _non_differentiable_use(node, parents, fn) -> bool:
    """``node`` (a value) is read only by an op autograd does not differentiate: a comparison,
    ``argmin``/``argmax``/``argsort`` of it (a method or a function), or the indices alone of
    ``max``/``min``/``topk``/… (``_, idx = d.max(1)``, ``d.min(1)[1]``, ``.indices``)."""
    up = parents.get(node)
    if type(up) is ast.Compare:
        return True
    if type(up) is ast.Attribute and type(parents.get(up)) is ast.Call and parents[up].func is up:
        if up.attr in _INDEX_METHODS:
            return True
        if up.attr in _WITH_INDICES:
            return _indices_only(parents[up], parents, fn)
    if type(up) is ast.Call and node in up.args:
        called = up.func.attr if type(up.func) is ast.Attribute else getattr(up.func, "id", "")
        if called in _INDEX_METHODS:
            return True
        if called in _WITH_INDICES and (len(up.args) > 1 or up.keywords):
            return _indices_only(up, parents, fn)
    return False


def _indices_only(call, parents, fn) -> bool:
    """Of a call returning (values, indices), only the indices are read."""
    up = parents.get(call)
    if type(up) is ast.Subscript and type(up.slice) is ast.Constant and up.slice.value == 1:
        return True
    if type(up) is ast.Attribute and up.attr == "indices":
        return True
    if type(up) is ast.Assign and up.value is call and len(up.targets) == 1 and type(up.targets[0]) is ast.Tuple \
            and len(up.targets[0].elts) == 2 and type(up.targets[0].elts[0]) is ast.Name:
        values = up.targets[0].elts[0].id
        return not any(_is_name(n, values) and type(n.ctx) is ast.Load for n in ast.walk(fn))
    return False


def _is_name(expr, name: str) -> bool:
    return type(expr) is ast.Name and expr.id == name


def _only_run_under_nograd_elsewhere(edit, facts) -> bool:
    """The edit is in a module-level function this file never calls, and every call the
    project's other files make of it runs under no_grad (``View.called_only_under_nograd``): no
    op it runs is recorded, so nothing it edits was saved. (Called in this file, the walk
    already knows whether it runs under no_grad.)"""
    function, view = edit.function, facts.imports.project
    if view is None or function.class_name is not None or not any(function.node is s for s in facts.module.body):
        return False
    name = function.name
    if any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == name for n in ast.walk(facts.module)):
        return False
    return view.called_only_under_nograd(name)


def _input_of_an_unbuilt_model(edit, facts) -> bool:
    """The edited tensor carries only the history of its module's forward inputs (`x = x - mean`
    then `x /= std`, a normalisation of the batch), and the project builds and calls that module
    nowhere it can be seen: neither this file nor any other file of the project constructs the
    class, subclasses it, or calls it, and no registry decorator names it. As for a function's
    input no call hands anything with history, nothing says the input requires grad. Such a model is
    reached through a table of model files (`model_dict[name].Model(args)`) by a training loop
    that hands it its batches, which have no history; a block whose parent calls it with
    activations is built where the parent is."""
    view, name = facts.imports.project, edit.function.class_name
    if view is None or name is None or edit.trainables:
        return False
    owner = next((stmt for stmt in facts.module.body if type(stmt) is ast.ClassDef and stmt.name == name), None)
    if owner is None or owner.decorator_list:
        return False
    # (`super(Model, self).__init__()` names the class without building it)
    named_to_super = {id(arg) for node in ast.walk(owner) if type(node) is ast.Call
                      and type(node.func) is ast.Name and node.func.id == "super" for arg in node.args}
    for node in ast.walk(facts.module):
        if type(node) is ast.Name and node.id == name and type(node.ctx) is ast.Load and id(node) not in named_to_super:
            return False  # (built, subclassed or handed on here)
    if any(key[0] == name for key in facts.forward_plain):
        return False
    return not view.called_elsewhere(name)


def _input_of_a_model_built_for_eval(edit, facts) -> bool:
    """The edited tensor carries only the history of its module's forward inputs (box decoding
    clamping its input in place), this file never builds the class, and every other file that
    builds it calls its instances only where nothing is recorded (``View.built_only_for_eval``:
    a detector's ``self.clip_boxes(…)`` in the eval branch after ``if self.training: return``;
    a beam decoder built by a test script and called only under no_grad, whatever trained model
    it holds)."""
    view, name = facts.imports.project, edit.function.class_name
    if view is None or name is None:
        return False
    if any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == name for n in ast.walk(facts.module)):
        return False
    return view.built_only_for_eval(name)


def _result_only_compared(edit, facts) -> bool:
    """The edit is in a module-level function whose result no backward ever reaches: no other
    file of the project calls it, and every call of it in this file is in a function that only
    compares what it returns (a test's reference formula, ``alpha_real = expected(p_choose)``
    then ``self.assertTrue((alpha - alpha_real).abs().le(tol).all())``), through torch's ops,
    tensor methods and the file's own functions that backpropagate nothing. The saved tensor's
    version moves, and no backward checks it."""
    function = edit.function
    if function.class_name is not None or not any(function.node is stmt for stmt in facts.module.body) \
            or not _keeps_to_itself(function.node):
        return False
    name = function.name
    calls = [n for n in ast.walk(facts.module) if type(n) is ast.Call and _is_name(n.func, name)]
    reads = [n for n in ast.walk(facts.module) if _is_name(n, name) and type(n.ctx) is ast.Load]
    if not calls or len(reads) != len(calls):
        return False  # (a library's function, or one handed on as a value)
    view = facts.imports.project
    if view is not None and view.called_elsewhere(name):
        return False
    owners = _owners(facts.module)
    parents = _parent_map(facts.module)
    local = {stmt.name: stmt for stmt in facts.module.body if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    for call in calls:
        caller = owners.get(id(call))
        if caller is None or caller is function.node or not _only_compared(call, caller, parents, local, facts):
            return False
    return True


def _parent_map(module) -> dict:
    from gradlint.analysis.tree import parents

    return parents(module)


def _keeps_to_itself(fn) -> bool:
    """``fn`` writes only its own local names (and elements of them): no attribute, global or
    element of what it was handed, nothing yielded, no backward."""
    params = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    for node in ast.walk(fn):
        if type(node) in (ast.Yield, ast.YieldFrom, ast.Global, ast.Nonlocal):
            return False
        if type(node) is ast.Attribute and node.attr in ("backward", "grad") and type(node.ctx) is ast.Load:
            return False
        if type(node) in (ast.Assign, ast.AugAssign, ast.AnnAssign):
            for target in node.targets if type(node) is ast.Assign else [node.target]:
                for part in ast.walk(target):
                    if type(part) is ast.Attribute or (type(part) is ast.Subscript and not (
                            type(part.value) is ast.Name and part.value.id not in params)):
                        return False
    return True


# What an assertion reads has no further use (unittest's assertion methods, numpy's testing).
_ASSERTING = ("assert", "fail")


def _only_compared(call, caller, parents, local, facts) -> bool:
    """Every value computed from ``call``'s result in ``caller`` ends in a comparison, an
    assertion or a discarded statement: nothing returned, stored, yielded or backpropagated."""
    from gradlint.analysis import torch_types

    tainted: set[str] = set()
    roots = [call]
    changed = True
    while changed:  # the names bound to what the result computes, to a fixed point
        changed = False
        for node in ast.walk(caller):
            if type(node) is ast.Name and node.id in tainted and type(node.ctx) is ast.Load and node not in roots:
                roots.append(node)
        for root in list(roots):
            node = root
            while True:
                up = parents.get(node)
                if type(up) in (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp) \
                        or (type(up) is ast.Subscript and up.value is node) or type(up) is ast.keyword:
                    node = up
                    continue
                if type(up) is ast.Attribute and up.value is node:
                    if up.attr in ("backward", "grad", "register_hook", "retain_grad"):
                        return False
                    node = up
                    continue
                if type(up) is ast.Call and up.func is node:
                    node = up  # a tensor method of the value (`….abs()`, `….le(tol)`)
                    continue
                if type(up) is ast.Call:
                    if not _harmless_call(up, local, facts, torch_types):
                        return False
                    node = up
                    continue
                if type(up) is ast.Assign and up.value is node:
                    for target in up.targets:
                        names = [target] if type(target) is ast.Name else list(getattr(target, "elts", [None]))
                        if not all(type(t) is ast.Name for t in names):
                            return False
                        for t in names:
                            if t.id not in tainted:
                                tainted.add(t.id)
                                changed = True
                    break
                if type(up) in (ast.Expr, ast.Assert) or (type(up) in (ast.If, ast.While) and up.test is node):
                    break
                return False
    return True


def _harmless_call(call, local, facts, torch_types) -> bool:
    """A call that hands nothing it is given to a backward or a store: one of torch's ops (not
    ``torch.autograd``'s), a tensor method, an assertion, or a function of this file that keeps
    to itself."""
    func = call.func
    qualname = facts.imports.qualname(func) or ""
    if qualname.startswith("torch.") and not qualname.startswith("torch.autograd"):
        return True
    if type(func) is ast.Name and func.id in local and _keeps_to_itself(local[func.id]):
        return True
    if type(func) is ast.Name and func.id in ("abs", "float", "bool", "len", "print", "round", "max", "min") \
            and func.id not in local:
        return True
    if type(func) is ast.Attribute:
        if (func.attr.startswith(_ASSERTING) and not any(
                type(n) in (ast.FunctionDef, ast.AsyncFunctionDef) and n.name == func.attr
                for n in ast.walk(facts.module))) or qualname.startswith("numpy.testing"):
            return True  # (an inherited assertion, unittest's: none of the file's own methods)
        if torch_types.result_of(f"Tensor.{func.attr}") is not None and func.attr not in ("backward", "register_hook"):
            return True
    return False


def _no_call_runs_both(edit, facts) -> bool:
    """The edit is in a function that only this file calls (a helper nested in a forward:
    ``conv_layer(h, stride, shortcut=None, no_conv=False)``), and under the arguments each call
    hands it, either the edit's branch is not taken (``if shortcut is not None:`` of
    ``shortcut=None``) or a statement between the save and the edit rebinds the edited name
    (``if not no_conv: h = F.conv2d(h, …)`` of a call that leaves ``no_conv`` False): no call
    runs the edit on the tensor the op saved."""
    fn = edit.function.node
    if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef) or fn.args.vararg or fn.args.kwarg \
            or "." in edit.name or fn.decorator_list:
        return False
    reads = [n for n in ast.walk(facts.module) if _is_name(n, fn.name) and type(n.ctx) is ast.Load]
    parents = _parent_map(facts.module)
    calls = [parents.get(n) for n in reads]
    if not calls or any(type(c) is not ast.Call or c.func is not n for c, n in zip(calls, reads)):
        return False
    if any(fn is stmt for stmt in facts.module.body) and facts.imports.project is not None \
            and facts.imports.project.called_elsewhere(fn.name):
        return False
    top = _top_statement(edit.node, fn, parents)
    saves = [_top_statement(save.node, fn, parents) for save in edit.saved]
    if top is None or any(s is None or fn.body.index(s) >= fn.body.index(top) for s in saves):
        return False  # (a save in another function, or after the edit: a loop carried it)
    for call in calls:
        binding = _binding(fn, call)
        if binding is None:
            return False
        if _taken(edit.node, fn, parents, binding) is False:
            continue
        if all(_rebound_between(fn.body[fn.body.index(s) + 1:fn.body.index(top)], edit.name, binding) for s in saves):
            continue
        return False
    return True


def _top_statement(node, fn, parents):
    """The statement of ``fn``'s own body that holds ``node``, if no loop lies between them."""
    while node is not None and parents.get(node) is not fn:
        node = parents.get(node)
        if type(node) in (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda):
            return None
    return node if node is not None and node in fn.body else None


_UNKNOWN = object()


def _binding(fn, call) -> dict | None:
    """Parameter -> the constant a call hands it (its default where it hands none), or
    ``_UNKNOWN``; None for a call this cannot read (``*args``, ``**kwargs``)."""
    params = [*fn.args.posonlyargs, *fn.args.args]
    defaults = dict(zip([p.arg for p in params][len(params) - len(fn.args.defaults):], fn.args.defaults))
    defaults.update({p.arg: d for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None})
    if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    given = dict(zip([p.arg for p in params], call.args))
    given.update({k.arg: k.value for k in call.keywords})
    binding = {}
    for name in [p.arg for p in params] + [p.arg for p in fn.args.kwonlyargs]:
        value = given.get(name, defaults.get(name))
        binding[name] = value.value if type(value) is ast.Constant else _UNKNOWN
    return binding


def _decide(test, binding):
    """True or False where the binding decides ``test`` (a parameter, ``not``, ``is None``,
    ``is not None``, ``==`` a constant, ``and``/``or`` of those); None where it does not."""
    if type(test) is ast.Name and test.id in binding and binding[test.id] is not _UNKNOWN:
        return bool(binding[test.id])
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        inner = _decide(test.operand, binding)
        return None if inner is None else not inner
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.left) is ast.Name \
            and binding.get(test.left.id, _UNKNOWN) is not _UNKNOWN and type(test.comparators[0]) is ast.Constant:
        value, other, op = binding[test.left.id], test.comparators[0].value, test.ops[0]
        if type(op) in (ast.Is, ast.Eq):
            return value == other if type(op) is ast.Eq else value is other
        if type(op) in (ast.IsNot, ast.NotEq):
            return value != other if type(op) is ast.NotEq else value is not other
        return None
    if type(test) is ast.BoolOp:
        parts = [_decide(v, binding) for v in test.values]
        if type(test.op) is ast.And:
            return False if False in parts else (True if all(p is True for p in parts) else None)
        return True if True in parts else (False if all(p is False for p in parts) else None)
    return None


def _taken(node, fn, parents, binding):
    """False where the binding decides some ``if`` around ``node`` (inside ``fn``) against it."""
    child, up = node, parents.get(node)
    while up is not None and up is not fn:
        if type(up) is ast.If and child is not up.test:
            decided = _decide(up.test, binding)
            if decided is not None and decided != (child in up.body):
                return False
        child, up = up, parents.get(up)
    return None


def _rebound_between(statements, name: str, binding) -> bool:
    """One of ``statements`` surely binds ``name`` anew under the binding (``h = F.conv2d(h, …)``,
    or an ``if`` the binding decides whose taken arm does so)."""
    for stmt in statements:
        if type(stmt) is ast.Assign and any(_is_name(t, name) for t in stmt.targets):
            return True
        if type(stmt) is ast.If:
            decided = _decide(stmt.test, binding)
            if decided is not None and _rebound_between(stmt.body if decided else stmt.orelse, name, binding):
                return True
    return False


def _after_its_saves(edit, edits):
    """Of the edits of one tensor against the same saves in one function, the first that comes
    after every save in the source (or in the saving statement itself); ``edit`` where none
    does or it is one."""
    def after(e) -> bool:
        return all((s.node.lineno, s.node.col_offset) <= (e.node.end_lineno, e.node.end_col_offset) for s in e.saved)

    if after(edit):
        return edit
    for other in edits:
        if other.function.node is edit.function.node and other.name == edit.name and edit.saved <= other.saved \
                and after(dataclasses.replace(other, saved=edit.saved)):
            return other
    return edit


def check(facts):
    from gradlint.analysis.project import origin
    from gradlint.analysis.scan import function_saved_edits
    from gradlint.analysis.tree import exclusive, parents, walk_with_ends

    order = None
    owners = None
    up = None
    seen = {}
    sites = set()
    for edit in facts.edits:
        if not edit.saved or _never_backpropagated(edit, facts) or _only_run_under_nograd_elsewhere(edit, facts) \
                or _graph_stays_here(edit, facts) or _result_only_compared(edit, facts) \
                or _no_call_runs_both(edit, facts) or _input_of_an_unbuilt_model(edit, facts) \
                or _input_of_a_model_built_for_eval(edit, facts):
            continue
        owners = owners if owners is not None else _owners(facts.module)
        live = frozenset(save for save in edit.saved
                         if not _only_indexed(save, owners.get(id(save.node), edit.function.node), facts.module))
        if not live:
            continue
        edit = dataclasses.replace(edit, saved=live)
        # (one call of another file's method editing two of its tensors, `reset_noise()` redrawing
        # the weight and the bias noise: one finding, at the call)
        site = facts.call_sites.get(edit.node) if origin(edit.node) is not None else None
        if site is not None and id(site) in sites:
            continue
        if site is not None:
            sites.add(id(site))
        # (`h *= g` then `h += b` on one saved output: one finding, at the first edit; written
        # out of place, the first leaves the second a new tensor nothing saved)
        # (an edit in another arm of an `if`, `elif mode == "assign":`, is another mistake)
        key = (id(edit.function.node), edit.name, edit.saved)
        up = up if up is not None else parents(facts.module)
        if any(not exclusive(edit.node, other, up) for other in seen.get(key, ())):
            continue
        # (`alpha[0, j] = p[0, j]` on the loop's first pass, `alpha[i, j] = alpha[i - 1, j] * p[i, j]`
        # after: the edit that follows the save in the loop's body, not one the first pass ran
        # before it)
        edit = dataclasses.replace(_after_its_saves(edit, facts.edits), saved=edit.saved)
        seen.setdefault(key, []).append(edit.node)
        saves = list(edit.saved)
        if len(saves) > 1:
            # In source order, then by op: the records are a set hashed by node identity, whose
            # order changes from run to run, and the message must not.
            if order is None:
                order = {id(node): i for i, node in enumerate(walk_with_ends(facts.module)[0])}
            # (a save of another file is not in this order: its own line places it)
            saves.sort(key=lambda s: (order.get(id(s.node), len(order)), getattr(s.node, "lineno", 0),
                                      getattr(s.node, "col_offset", 0), s.op))
        how = facts.code(edit.how)
        refs = {f"save{i}": save.node for i, save in enumerate(saves)}
        closing = [_closing_layer(save, edit, facts) for save in saves]
        for i, layer in enumerate(closing):
            if layer is not None:
                refs[f"layer{i}"] = layer
        # (`self.sequential`'s output saved by the layer it ends with: `nn.ReLU()`, named there)
        by = " and ".join(f"`{facts.code(closing[i])}`, the last layer of `{save.op}` (line {{layer{i}}}, called at "
                          f"line {{save{i}}}{_as_view(save)})" if closing[i] is not None
                          else f"`{save.op}` (line {{save{i}}}{_as_view(save)})" for i, save in enumerate(saves))
        if edit.via_data:
            consequence = ("`.data` hides the edit from the version counter, so backward() silently "
                           "uses the edited values and computes a wrong gradient")
        elif edit.recording and _writes_out(edit.how):
            # (torch refuses `out=` on a tensor that requires grad while grad mode is on)
            consequence = ("the call itself fails with \"functions with out=... arguments don't support "
                           "automatic differentiation\"")
        else:
            consequence = "backward() will fail with \"modified by an inplace operation\""
        renorm = isinstance(edit.how, ast.Call) and facts.code(edit.how.func) + ".weight" == edit.name
        did = (f"`{how}` renormalises the rows it looks up in `{edit.name}` in place (its `max_norm`)"
               if renorm else f"`{how}` modifies `{edit.name}` in place" if not edit.base or edit.base == edit.name
               # (`grid = as_grid(canvas.detach())`: what was saved is the tensor the view shares)
               else f"`{how}` modifies `{edit.name}`, which shares its storage with `{edit.base}`, in place")
        if edit.same_as and not edit.base:
            did += f" (`{edit.name}` may be `{edit.same_as}` itself)"
        layer = _inplace_layer(edit, facts)
        if layer is not None:
            # (`self.classifier(x)` of `nn.Sequential(nn.Dropout(p, inplace=True), …)`: the flag to drop)
            refs["inplace"] = layer
            did += f" (its `{facts.code(layer.func)}(…, inplace=True)`, line {{inplace}})"
        yield Flag(
            RULE, edit.node,
            f"{did}, but {by} saved it for backward: {consequence}",
            hint=("look the rows up before the op that reads the whole weight, or drop `max_norm` and "
                  "renormalise the weight under no_grad after the optimizer step") if renorm else _hint(edit, facts),
            details={"tensor": edit.name, "saved_by": [s.op for s in saves]},
            refs=refs,
        )
    shown = set()
    for step in facts.steps:
        if (step.node, step.second) in shown:
            continue  # (the same step and backward met on two paths of the walk)
        shown.add((step.node, step.second))
        if _method(step.node).endswith("_") or _method(step.node) == "load_state_dict":
            # (a loop over a model's parameters editing each in place: `p.data.mul_(mask)`; a
            # model's weights restored, `net.load_state_dict(saved)`)
            through_data = isinstance(step.node.func.value, ast.Attribute) and step.node.func.value.attr == "data"
            yield Flag(
                RULE, step.node,
                f"`{facts.code(step.node)}` edits every parameter of `{step.optimizer}` in place after `{step.root}` "
                f"(backward at line {{second}}) was computed from them: its graph saved the old values, so that "
                + ("backward computes the gradients with the edited ones, silently (`.data` hides the edit from "
                   "autograd)" if through_data else "backward fails with \"modified by an inplace operation\""),
                hint="edit the parameters after the backward and the optimizer's step (or before the forward), "
                     "not between them",
                # (the run names the edited tensor as the loop does, `p`, not the loss)
                details={"model": step.optimizer, "root": step.root,
                         "tensor": ast.unparse(step.node.func.value.value if through_data else step.node.func.value)},
                refs={"second": step.second},
            )
            continue
        if _arms_of_one_invariant_test(step.node, step.second, facts):
            # (`elif self.adaptive_method == "gradnorm": … step()` and `else: loss.backward()`:
            # a test the loop never changes takes one arm in every iteration, never both)
            continue
        through = [n for n in step.through if n != step.root]  # (`self.loss_b` stored by another method: itself)
        when = (f"is computed from {_names(through)}, recorded before the step" if through
                else "was computed before the step")
        handed = isinstance(step.node, ast.Call) and not (
            isinstance(step.node.func, ast.Attribute) and step.node.func.attr == "step") and any(
            facts.code(a) == step.optimizer for a in step.node.args)
        # (`update_params(self.q1_optim, q1_loss)`: the helper steps the optimizer it is handed)
        stepping = (f"`{facts.code(step.node.func)}(…)` steps `{step.optimizer}`, which edits" if handed
                    else f"`{step.optimizer}.{_method(step.node)}()` edits")
        # (a parameter of the function as its callers name it, `model@train`: `model`)
        shared = sorted({name.split("@")[0] for name in step.shared
                         if all(part.isidentifier() for part in name.split("@")[0].split("."))})
        held = f" of {_names(shared)}" if 0 < len(shared) <= 3 else ""
        yield Flag(
            RULE, step.node,
            f"{stepping} the parameters in place between two backward calls "
            f"through one graph: `{step.root}` (backward at line {{second}}) {when}, "
            f"and its graph saved the old values{held}: that backward() fails with \"modified by an "
            f"inplace operation\"",
            hint=("backpropagate both losses before the step (or sum them into one backward), or recompute the "
                  "second loss after the step with a fresh forward pass; where one loss reads another "
                  "network's output (a GAN's `netD(fake)`), detach it there (`netD(fake.detach())`)"),
            details={"optimizer": step.optimizer, "root": step.root},
            refs={"second": step.second},
        )
    for node, name, save in function_saved_edits(facts.module, facts.imports):
        how = facts.code(node.func.value if isinstance(node, ast.Call) else node.target
                         if isinstance(node, ast.AugAssign) else node.targets[0].value)
        yield Flag(
            RULE, node,
            f"`{facts.code(node) if isinstance(node, ast.Call) else how}` modifies `{name}` in place, which "
            f"`{facts.code(save.func)}` (line {{save}}) saved for this Function's backward: saved tensors are "
            f"packed when `forward` returns, so backward silently reads the edited values and computes a "
            f"wrong gradient",
            hint=f"edit a copy (`{how}.clone()`) or save `{name}` before editing it as a clone",
            details={"tensor": name, "saved_by": ["save_for_backward"]},
            refs={"save": save},
        )
    for edit in facts.sequential_edits:
        module, previous = facts.code(edit.module), facts.code(edit.previous)
        yield Flag(
            RULE, edit.node,
            f"`{module}` edits in place the output of `{previous}`, which saved it for backward: "
            f"backward() will fail with \"modified by an inplace operation\"",
            hint="drop inplace=True here",
            details={"module": module, "previous": previous},
        )


def _method(call) -> str:
    """`step`, or the project optimizer's own method that updates in place (`first_step`)."""
    return call.func.attr if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else "step"


# ---- the dynamic pass -------------------------------------------------------------------------

# What the tracer gathers (``dynamic/evidence.KINDS``): each edit, checked against the tensors later
# backward calls read, and the line that saved each.
EVIDENCE = frozenset({"edits", "saved_lines"})


def probe(probes, flag) -> None:
    """The tensor an edit changes, read just before it; the parameters an optimizer steps; the
    module that edits its input in place."""
    from gradlint.dynamic.instrument import CannotProbe, first_argument, method, receiver

    node = flag.node
    edit = probes.edits.get(node)
    if edit is not None:
        _probe_edit(probes, node, edit)
    elif method(node) in ("step", "load_state_dict") or "optimizer" in flag.details:
        # optimizer.step(), scaler.step(optimizer); net.load_state_dict(saved): the module
        # (or a project optimizer's own update, `optimizer.first_step()`: its receiver)
        has_argument = method(node) == "step" and any(type(a) is not ast.Starred for a in node.args)
        # (`update_params(self.q1_optim, q1_loss)`: the optimizer a helper is handed and steps)
        handed = next((a for a in getattr(node, "args", ()) if method(node) != "step"
                       and ast.unparse(a) == flag.details.get("optimizer")), None)
        probes.before(handed if handed is not None else first_argument(node) if has_argument else receiver(node))
    elif isinstance(node, ast.Call):  # nn.ReLU(inplace=True) inside nn.Sequential(...)
        probes.after(node)
    else:
        raise CannotProbe(f"no probe for a {type(node).__name__} site")


def _probe_edit(probes, node, edit) -> None:
    import libcst as cst

    from gradlint.dynamic.instrument import CannotProbe, first_argument, method, receiver

    if isinstance(node, (ast.AugAssign, ast.Assign)):  # x += y, x[i] = y
        probes.statement(node, cst.parse_expression(edit.name if not edit.via_data else edit.name + ".data"))
        return
    if not isinstance(node, ast.Call):
        raise CannotProbe(f"no probe for a {type(node).__name__} edit")
    if edit.name == ast.unparse(node.func) + ".weight":
        # `self.emb(ids)` of an `nn.Embedding(…, max_norm=…)`: its weight, read around the statement
        statement = _statement_of(node, probes.facts.module)
        if not isinstance(statement, (ast.Assign, ast.AugAssign, ast.Expr)):
            raise CannotProbe("the lookup that renormalises the weight is not a statement of its own")
        probes.statement(statement, cst.parse_expression(edit.name))
        return
    called = method(node)
    if called is not None and called.endswith("_") and not _is_module(node.func.value, probes.facts.imports):
        probes.before(receiver(node))  # x.add_(1), x.data.clamp_(0)
        return
    keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
    if "out" in keywords and "inplace" not in keywords:
        probes.before(keywords["out"])
    else:  # F.relu(x, inplace=True), self.act(x) with an in-place module
        probes.before(first_argument(node))


def _statement_of(node, module):
    """The innermost statement of ``module`` that holds ``node``."""
    found = None
    for stmt in ast.walk(module):
        if isinstance(stmt, ast.stmt) and any(inner is node for inner in ast.walk(stmt)):
            if found is None or (stmt.lineno, stmt.col_offset) >= (found.lineno, found.col_offset):
                found = stmt
    return found


def _is_module(expr, imports) -> bool:
    """``torch`` / ``F`` / ``torch.nn.functional`` in ``torch.relu_(g)``: a module, not a tensor."""
    name = imports.qualname(expr)
    return name is not None and (name == "torch" or name.startswith("torch.")) and \
        name.split(".")[-1] in ("torch", "functional", "special", "linalg", "fft", "nn")


def decide(tracer, evidence) -> tuple[str, str]:
    """Confirmed when a backward read a saved tensor the edit made stale (PyTorch's version
    check, or the same memory edited through ``.data``), or raised for one of its shape."""
    from gradlint.dynamic import record
    from gradlint.dynamic.backwards import edit_behind
    from gradlint.dynamic.verdicts import elsewhere

    finding = evidence.finding
    if evidence.stale:
        return "confirmed", evidence.stale
    if not evidence.edits and not evidence.runs:
        return "not-reached", f"`{finding['label']}` ({finding['where']}) never ran{elsewhere(tracer)}"
    raised = tracer.raised
    if isinstance(raised, RuntimeError) and edit_behind(evidence, None, raised) is not None:
        shape = list(record.stale(raised)[0])
        return "confirmed", (f"backward() raised PyTorch's \"modified by an inplace operation\" for a tensor "
                             f"of shape {shape}, the one `{finding['label']}` ({finding['where']}) edits")
    if isinstance(raised, RuntimeError) and _raised_here(raised, finding) \
            and "out=... arguments don't support automatic differentiation" in str(raised):
        return "confirmed", (f"`{finding['label']}` ({finding['where']}) raised PyTorch's \"functions with "
                             "out=... arguments don't support automatic differentiation\": it writes into a "
                             "tensor that requires grad")
    if not evidence.edits:
        return "inconclusive", f"`{finding['label']}` ({finding['where']}) ran, but edited no tensor"
    last = evidence.edits[-1]
    if last.after_backwards >= tracer.backwards:
        return "inconclusive", f"`{finding['label']}` ({finding['where']}) ran, but no backward() followed it"
    if not evidence.checked:
        return "inconclusive", (f"`{finding['label']}` ({finding['where']}) ran, but no later backward() read a "
                                "record made before it, so nothing could have used what it changed")
    tensor = last.label if len({e.label for e in evidence.edits}) == 1 else "the tensors it edits"
    return "dismissed", (f"{tensor} changed version at {finding['where']}, and no tensor saved for backward "
                         f"in the records read afterwards held it: the edit cannot change a gradient")


def _raised_here(error: BaseException, finding: dict) -> bool:
    """Whether ``error`` was raised from the finding's own lines."""
    import os
    import traceback

    path = os.path.realpath(finding["path"])
    return any(os.path.realpath(frame.filename) == path and finding["line"] <= (frame.lineno or 0) <= finding["end_line"]
               for frame in traceback.extract_tb(error.__traceback__))


def _names(names) -> str:
    quoted = [f"`{name}`" for name in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def _as_view(save) -> str:
    if save.view and save.renamed:
        return f", as `{save.view}`"
    return f", as its view `{save.view}`" if save.view else ""


def _arms_of_one_invariant_test(a, b, facts) -> bool:
    """``a`` and ``b`` lie in different arms of one ``if`` inside a loop, whose test reads only
    names the loop never binds: every iteration takes the same arm, so no run reaches both."""
    from gradlint.analysis.imports import dotted
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import enclosing, exclusive, parents

    if origin(a) is not None or origin(b) is not None:
        return False
    up = parents(facts.module)
    if not exclusive(a, b, up):
        return False
    above = set()
    node = a
    while node in up:
        node = up[node]
        above.add(node)
    node, split = b, None
    while node in up:
        node = up[node]
        if node in above and type(node) is ast.If:
            split = node
            break
    loop = enclosing(split, up, (ast.For, ast.While, ast.AsyncFor))
    if split is None or loop is None:
        return False
    tests, node = [], split
    while type(node) is ast.If:  # (the chain's earlier tests decide too: `if … elif … else`)
        tests.append(node.test)
        parent = up.get(node)
        node = parent if type(parent) is ast.If and parent.orelse == [node] else None
    inner = {id(n.value) for t in tests for n in ast.walk(t) if type(n) is ast.Attribute}
    read = {dotted(n) for t in tests for n in ast.walk(t)
            if type(n) in (ast.Name, ast.Attribute) and id(n) not in inner} - {None}
    targets = [t for n in ast.walk(loop) if type(n) in (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)
               for t in (n.targets if type(n) is ast.Assign else [n.target])]
    bound = {dotted(e) for t in targets for e in (t.elts if type(t) in (ast.Tuple, ast.List) else [t])} - {None}
    # (a name bound in the loop, or a call in the test, may change the arm between iterations)
    return bool(read) and not any(r == b or r.startswith(b + ".") for r in read for b in bound) \
        and not any(type(n) is ast.Call for t in tests for n in ast.walk(t))


def _inplace_layer(edit, facts):
    """The layer built with ``inplace=True`` that makes a call of a member (``self.classifier(x)``)
    an edit of its input: the first such constructor in what the module binds to that member."""
    from gradlint.analysis.imports import dotted

    how = edit.how
    if not isinstance(how, ast.Call) or not isinstance(how.func, (ast.Name, ast.Attribute)):
        return None
    member = dotted(how.func)
    if member is None:
        return None
    for node in ast.walk(facts.module):
        if type(node) is ast.Assign and any(dotted(t) == member for t in node.targets):
            for call in ast.walk(node.value):
                if type(call) is ast.Call and any(k.arg == "inplace" and type(k.value) is ast.Constant
                                                  and k.value.value is True for k in call.keywords):
                    return call
    return None
