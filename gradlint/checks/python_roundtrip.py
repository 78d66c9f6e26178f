"""GL002 python-roundtrip: a tensor rebuilt from values pulled out of tensors, then trained through.

``torch.tensor(loss.item(), requires_grad=True)`` makes a new leaf: backward() runs and fills its
``.grad``, and nothing computed before the ``.item()`` gets a gradient. Constants rebuilt the same
way for weights, masks or targets are fine and not reported: no gradient is asked of them.

PyTorch: https://pytorch.org/docs/stable/generated/torch.tensor.html (the copy "constructs a
tensor with no autograd history (also known as a 'leaf tensor')").
"""
from __future__ import annotations

import ast

from gradlint.checks import Flag, Rule, optimized_first, starved_names

RULE = Rule(
    "GL002", "python-roundtrip",
    "A tensor is rebuilt from values pulled out of tensors and made to require grad; the history before it is lost.",
)


def check(facts):
    from gradlint.analysis.facts import IMPLICIT, REBUILD
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import stand_in
    from gradlint.analysis.starved import Starved, starved

    by_node = {rebuild.node: rebuild for rebuild in facts.rebuilds}
    flagged: dict = {}
    for rebuild in facts.rebuilds:
        if rebuild.roundtrip and rebuild.requires_grad and not (
                rebuild.function.class_name is None and rebuild.function.name in facts.leaf_makers) \
                and not _in_custom_function(rebuild.function, facts):
            flagged.setdefault(rebuild.node, "with `requires_grad=True`")
    for switch in facts.switches:
        if switch.value.attached:
            continue
        # (GAE advantages rebuilt from values computed under no_grad: the history was lost before
        # the pull, where the switch's own rule says)
        for node in facts.lost_history(switch.value.rebuilt):
            if node not in by_node and origin(node) is None:
                continue
            flagged.setdefault(node, f"and `{switch.name}` is then made to require grad" if switch.name
                               else "and is then made to require grad")
    leaf_pulls = frozenset().union(*(by_node[node].source.pulled for node in flagged if node in by_node))
    for backward in facts.backwards:
        if backward.value.attached or backward.value.live:
            # `if cfg.as_scalar: loss = as_scalar(loss)`, then `loss.backward()`: on that path the
            # loss is the bare copy, whatever the other path keeps attached
            copies = facts.bare_copies.get((backward.function.node, backward.root), ())
            for node in sorted(set(copies) & backward.value.rebuilt, key=lambda n: (n.lineno, n.col_offset)):
                if node in by_node and not _pulled_from_nothing(by_node[node], facts):
                    flagged.setdefault(node, f"and is backpropagated as the loss `{backward.root}`")
            continue  # (a loss that may carry what the caller handed: `storage["log_prob"]`)
        if any(node in flagged for node in backward.value.rebuilt) or backward.value.pulled & leaf_pulls:
            # the leaf made to require grad is the mistake; the loss's constants are not (also
            # where the loss carries values pulled for that leaf: `scores` and `risks` of one
            # beam search, the leaf lost on the way out of a helper)
            continue
        if any(switch.name == backward.root and switch.function.node is backward.function.node
               and switch.node.lineno < backward.node.lineno for switch in facts.switches):
            continue  # (`critic_loss.requires_grad = True`: its copies that lost a history are above)
        if any(_leaf_of_its_own_file(node) for node in backward.value.rebuilt):
            # (the leaf made to require grad is reported where it is made, or at the call by the
            # starved analysis below; the rest of the loss is constants)
            continue
        for node in backward.value.rebuilt:
            # (a copy in another file's function: where the starved analysis names what it
            # starves, it says it better, below)
            if (node in by_node and not _pulled_from_nothing(by_node[node], facts)) or (
                    node not in by_node and origin(node) is not None
                    and not any(found.cut.node is node for found in starved(facts))):
                # (one a summary carried from a helper is the helper's own fact)
                flagged.setdefault(node, f"and is backpropagated as the loss `{backward.root}`")
    # `torch.tensor(log_probs)` of tensors with history, in a loss beside attached terms: the
    # copy starves what computed them (the loss still backpropagates through the other terms).
    starving: dict = {}  # the copies flagged for what they starve
    starves: dict = {}  # what each flagged copy starves, however it is flagged (the message names it)
    leaves = set(flagged)  # (the copies flagged above, as leaves or losses; not those this loop adds)
    for found in starved(facts):
        node = found.cut.node
        # (a copy in another file's helper, reached through a call here: reported at the call)
        if found.cut.kind == REBUILD and (node in by_node or node in facts.call_sites):
            if found.backward is not None and not _requires_grad(node) and any(
                    other is not node and (other in leaves or _leaf_of_its_own_file(other)
                                           # (two copies of one line are one mistake)
                                           or (other in flagged and other.lineno == node.lineno))
                    for other in found.backward.value.rebuilt):
                # (as above: the leaf made to require grad is the mistake, `reward` a constant;
                # a second leaf made so, by another helper, is a mistake of its own)
                continue
            layers = ", ".join(f"`{name}`" for name in sorted(found.layers))
            where = (f"and {layers} {'run' if len(found.layers) > 1 else 'runs'} on it in `{found.function.name}()`"
                     if found.layers
                     else f"and is returned from `{found.function.name}()`" if found.function is not None
                     else f"and becomes part of the loss `{found.backward.root}` (backward at line {{sink}})")
            if node not in flagged:
                flagged[node] = where
                starving[node] = found
            starves.setdefault(node, found)
    # `return torch.tensor(self.alpha * div)` ending a module's forward, computed from its inputs:
    # the whole output is a copy without history, so whatever computed the inputs gets no gradient
    # from the loss it is part of (the starved analysis above leaves a whole output cut from the
    # inputs to the callers, as a data-dependent initialization's `.data` is: a copy is no such).
    # (also a helper of the forward handed its inputs, `rbf = self.features(positions)`)
    for ret in facts.returns:
        fn = ret.function
        if fn.class_name is None or fn.nograd or ret.parts or (
                fn.name != "forward" and (fn.class_name, fn.name) not in facts.forward_helpers):
            continue
        value = ret.value
        if value.trainables or value.inputs or value.post or value.carried:
            continue  # something stays attached beside the copy
        for node in value.cuts:
            cut = facts.cuts.get(node)
            if cut is not None and cut.kind == REBUILD and node in by_node and node not in flagged \
                    and cut.inputs and all(name.endswith("@input") for name in cut.upstream):
                flagged[node] = f"and is returned from `{fn.name}()`"
                starving[node] = starves[node] = Starved(cut, function=fn)
    # `Variable(torch.FloatTensor([x.item()]), requires_grad=True)`: one round trip, reported once,
    # at the outer rebuild.
    # (not the rebuild itself, which a loop hands back its own copy: `acc += float(…)`, then
    # `acc = torch.tensor(acc)` in the same body)
    inner = {n for node in flagged if node in by_node for n in by_node[node].source.rebuilt
             if n is not node and origin(n) is None and node.lineno <= n.lineno <= (node.end_lineno or node.lineno)}
    # (one join seen by two walks, `ce + w * jitter`: the file's own at `w * jitter`, a summary's
    # at `jitter`, where it cannot tell the weight is a number: the outer one is the join)
    inner |= {node for node in flagged if stand_in(node) and any(
        other is not node and stand_in(other) and origin(other) is origin(node) and _spans(other.func, node.func)
        for other in flagged)}
    for node, how in flagged.items():
        if node in facts.intended_rebuilds or node in inner:
            continue
        rebuild = by_node.get(node)
        source = rebuild.source if rebuild is not None else None
        # (a copy of tensors that starves: the history of those tensors is the loss, not the pulls
        # that made what they were computed from)
        # (`torch.tensor([l.item() for l in losses])`: pulls written in the copied data itself,
        # whatever is known of the tensors they read)
        within = _pulls_within(node.args[0]) if rebuild is not None and node.args else []
        named = False  # (the rebuild written whole where its data is a name the message gives)
        if source is not None and (source.pulled or within) and not (node in starving and source.tensor):
            pulls = sorted(source.pulled or within, key=lambda n: (n.lineno, n.col_offset))
            # (the pull as written, where it is of this file: `torch.sum(log_abs).item()`)
            quoted = f" by `{facts.code(pulls[0])}`" if pulls[0] in facts.pulled_from \
                and node.lineno <= pulls[0].lineno <= (node.end_lineno or node.lineno) else ""
            origin = f"values pulled out of tensors{quoted} (line {{pulled}})"
            refs = {"pulled": tuple(source.pulled or within)}
            elsewhere = _pulled_elsewhere(refs["pulled"])
            if elsewhere is not None:
                # (`reward_model.score(…)` of another file returning `value.item()`: named there,
                # and no probe of this file's copy can reach it)
                origin, refs = f"values pulled out of tensors ({elsewhere})", {}
            hint = ("keep the computation in torch ops on the original tensors (no .item()/.tolist()/.numpy()), "
                    "and call backward() on that")
        elif rebuild is None:  # (in another file: what it copied is that file's to say)
            origin, refs = "values taken from tensors with history", {}
            hint = ("keep the computation in torch ops on the original tensors; torch.stack or torch.cat "
                    "pack several and keep their history")
        else:
            data = node.args[0] if node.args else None
            # (`torch.tensor([loss_a, loss_b])`: several tensors' values, packed)
            several = type(data) in (ast.List, ast.Tuple, ast.ListComp) \
                or (rebuild.source.parts is not None and not rebuild.source.container)
            origin = "other tensors' values" if several else "another tensor's values"
            if type(data) in (ast.Name, ast.Attribute) and not node.keywords and len(node.args) == 1:
                # (`torch.Tensor(V)`: the user's own name says which values, and which term it was)
                held = _written(data, node, facts)
                origin = f"the values of the tensors in `{held}`" if several else f"the values of `{held}`"
                named = True
            # (the pulls on the way, `probs.detach().numpy()` before a NumPy helper: where the run
            # reads the values, as the probe follows them)
            refs = {"pulled": tuple(source.pulled)} if source is not None and source.pulled else {}
            hint = ("use the tensors themselves: torch.stack or torch.cat to pack several, the tensor "
                    "as it is (or .clone()) for one; they keep their history")
        lost = "nothing computed before it gets a gradient"
        pulled = {name for pull in (source.pulled if source is not None else ())
                  for name in facts.pulled_from.get(pull, ()) if not name.startswith("%")}
        held = sorted({name.split("@")[0] for name in pulled})
        if held and len(held) <= 3 and all(name.replace(".", "_").isidentifier() for name in held):
            # (`self.scale`, whose `log_abs` the copy was pulled from: what the user trains; a
            # forward's input, `inputs`: whatever computed it, the caller's model)
            # (a helper's input, `logp@input`, as the calls of the file name the models that computed it)
            where = rebuild.function.name if rebuild is not None and rebuild.function is not None else None
            models = sorted({m for name in pulled if name.endswith("@input") and where
                             for m in facts.resolve({f"{name.split('@')[0]}@{where}"}) if "@" not in m})
            names, phrase, verb = starved_names(pulled, models)
            lost = f"{phrase} {verb} no gradient through it"
        found = starves.get(node)
        if found is not None:
            lost = f"{_starved(found, facts)} no gradient through it"
            if found.backward is not None:
                refs = {**refs, "sink": found.backward.node}
        # (a number a helper pulls and adds to the loss it returns: its walk made the pull the
        # copy, `d.abs().mean().item()`, which this file's rebuilds do not hold)
        pull = rebuild is None and isinstance(node, ast.Call) and (
            (type(node.func) is ast.Attribute and node.func.attr == "item" and not node.args)
            or (type(node.func) is ast.Name and node.func.id == "float" and len(node.args) == 1))
        # (`out + alpha * ipm` in a helper, of `ipm` computed in NumPy from what it is handed: the
        # join its walk made, a call no one wrote, which ends where its callee does)
        joined = rebuild is None and stand_in(node)
        if (rebuild is not None and rebuild.factory == IMPLICIT) or pull or joined:
            # (`loss + aux.item()`: no factory was written; the op made the number a constant)
            if not node.args and not (type(node.func) is ast.Attribute and node.func.attr == "item"):
                # (`loss + average_wsd`: a number computed from arrays pulled out of tensors)
                number = _written(node.func, node, facts)
                yield Flag(
                    RULE, node,
                    f"`{number}` is a number computed from values taken out of tensors "
                    f"({_pulls(source, facts) if source is not None else _pulls_before(node, facts)})"
                    f", which the arithmetic around it turns back into a constant "
                    f"that {how.removeprefix('and ')}: so {lost}",
                    hint="compute it with torch ops on the tensors themselves (they keep their history), "
                         "or leave it out of the loss where it is meant to be logged",
                    details={"factory": "number"},
                    refs=refs,
                )
                continue
            pulled = node.args[0] if type(node.func) is ast.Name else node.func.value  # (`float(aux)`, `aux.item()`)
            tensor = _written(pulled, node, facts)
            yield Flag(
                RULE, node,
                f"`{_written(node, node, facts)}` takes the value of `{tensor}` out of the record as a Python number, "
                f"which the arithmetic around it turns back into a constant that {how.removeprefix('and ')}: "
                f"so {lost}",
                hint=f"use `{tensor}` itself (a tensor keeps its history), or `{tensor}.detach()` where it "
                     "is meant to add a value and no gradient",
                details={"factory": "float" if type(node.func) is ast.Name else "item"},
                refs=refs,
            )
            continue
        yield Flag(
            RULE, node,
            f"`{_written(node, node, facts) if named else _written(node.func, node, facts) + '(…)'}` "
            f"rebuilds a tensor from {origin} {how}: it is a new leaf, so {lost}",
            hint=hint,
            details={"factory": rebuild.factory if rebuild is not None else _written(node.func, node, facts)},
            refs=refs,
        )


def _in_custom_function(function, facts) -> bool:
    """A method of a ``torch.autograd.Function`` subclass: its class's backward is the gradient of
    what the forward returns, however the forward computes it (in NumPy, then
    `torch.tensor(loss, requires_grad=True)`)."""
    from gradlint.analysis.scan import custom_functions

    return function.class_name is not None and function.class_name in custom_functions(facts.module, facts.imports)


def _written(expr, node, facts) -> str:
    """``expr`` (a part of ``node``) as written, in the lines of the file ``node`` is in."""
    from gradlint.analysis.facts import _short
    from gradlint.analysis.project import origin

    other = origin(node)
    return _short(other.lines, expr) if other is not None else facts.code(expr)


def _starved(found, facts) -> str:
    """What the copy starves, as the user wrote it, with its verb: the trainables it cuts (the
    models an optimizer is given that computed a helper's inputs; not one the module freezes,
    a perceptual loss's feature extractor), and whatever computed a forward's inputs it was
    computed from."""
    cut = found.cut
    # (a model handed to a function is keyed `policy@train`: shown as the user wrote it)
    # (of what a loop fed the model, `gen(data)` of `for data in data_iter`, the model)
    upstream = {name.split("@")[0] for name in optimized_first(cut.upstream - facts.frozen, facts)
                if not name.endswith("@input")}
    inputs = {name.split("@")[0] for name in cut.upstream | cut.inputs if name.endswith("@input")}
    models = [m for m in found.models if m not in upstream]
    shown = [f"`{n}`" if n != "self" else "this module's parameters (`self`)"
             for n in sorted(upstream | (set(models) if models and not upstream else set()))]
    if inputs and not (models and not upstream):
        shown.append("whatever computed " + ", ".join(f"`{n}`" for n in sorted(inputs)))
    verb = "gets" if len(shown) == 1 and "self" not in upstream else "get"
    return f"{', '.join(shown)} {verb}"


# ---- the dynamic pass -------------------------------------------------------------------------

# What the tracer gathers (``dynamic/evidence.KINDS``): the leaves upstream of every value pulled
# out, pooled into the rebuilt tensor, and of values whose history was lost before the pull.
EVIDENCE = frozenset({"upstream", "pooled", "history_loss"})


def _pulled_elsewhere(pulled) -> str | None:
    """``reward_model.py, line 18`` where every pull is in another file of the project."""
    from gradlint.analysis.project import origin

    places = [(origin(p), p) for p in pulled]
    if not places or any(module is None for module, _ in places):
        return None
    module, first = min(places, key=lambda place: place[1].lineno)
    return f"{module.path.name}, line {first.lineno}"


def probe(probes, flag) -> None:
    """``torch.tensor(x.item(), requires_grad=True)``: each tensor a value was pulled from (or
    the data argument), and the rebuilt tensor."""
    from gradlint.dynamic.instrument import first_argument

    node = flag.node
    if flag.details.get("factory") == "number":
        # (`loss + average_wsd`: the number is made by NumPy and Python, out of the run's sight;
        # the tensors it was pulled from, before, and the sum it joins, after: whatever trained
        # through that sum, nothing did through the number)
        from gradlint.dynamic.instrument import CannotProbe

        joined, pulls = _join(node, probes)
        if joined is None or not pulls:
            raise CannotProbe("the number is computed by NumPy or Python from the pulled values; the run "
                              "does not follow it into the sum it joins")
        for pull in pulls:
            probes.before(_pulled_tensor(pull))
        probes.after(joined)
        return
    pulls = flag.refs.get("pulled", ())
    # (a pull a helper of another file makes, `kl.item()`, reported where the number joins a
    # loss: the tensor it reads)
    pull = isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) \
        and node.func.attr == "item"
    sources = [_pulled_tensor(p) for p in pulls] or [_pulled_tensor(node) if pull else first_argument(node)]
    for source in sources:
        probes.before(source)
    # (a number the arithmetic around it turns into a constant, `loss + 0.1 * aux.item()`: the
    # Python number is no tensor to tag, the sum it joins is)
    probes.after(_sum_around(node, probes) if flag.details.get("factory") in ("item", "float") else node)


def _sum_around(node, probes):
    """The outermost arithmetic a pulled number is written in, in its statement (`loss + 0.1 *
    aux.item()` of `aux.item()`); the pull itself where none holds it."""
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import BINDING_SCOPES, DEFS, enclosing, parents

    other = origin(node)
    tree = parents(other.tree if other is not None else probes.facts.module)

    def outermost(expr):
        top, up = expr, tree.get(expr)
        while type(up) in (ast.BinOp, ast.UnaryOp) or (type(up) is ast.Call and type(up.func) is ast.Name
                                                       and up.func.id == "float" and top in up.args):
            top, up = up, tree.get(up)
        return top, up

    top, up = outermost(node)
    if type(top) is ast.BinOp and type(up) is not ast.Return:
        return top
    if type(up) is ast.Assign and len(up.targets) == 1 and type(up.targets[0]) is ast.Name:
        # (bound first, `value = terms[name].item()`, then `total = total + w * value` in its function)
        name, scope = up.targets[0].id, enclosing(tree.get(up), tree, BINDING_SCOPES)
        uses = sorted((n for n in ast.walk(scope) if type(n) is ast.Name and n.id == name
                       and type(n.ctx) is ast.Load and n.lineno > up.lineno),
                      key=lambda n: (n.lineno, n.col_offset)) if scope is not None else []
        for use in uses:
            joined, _ = outermost(use)
            if type(joined) is ast.BinOp:
                return joined
    if type(up) is ast.Return:
        # (returned, `return float(dist.entropy().mean())`, and joined where it is called:
        # `-surr.mean() - c * self.entropy_bonus(dist)`)
        fn = enclosing(tree.get(up), tree, DEFS)
        module = enclosing(fn, tree, (ast.Module,))
        calls = [n for n in ast.walk(module) if type(n) is ast.Call and (
            (type(n.func) is ast.Name and n.func.id == fn.name)
            or (type(n.func) is ast.Attribute and n.func.attr == fn.name))] if fn is not None and module is not None else []
        for call in sorted(calls, key=lambda n: (n.lineno, n.col_offset)):
            joined, _ = outermost(call)
            if type(joined) is ast.BinOp:
                return joined
    return node


def _join(node, probes) -> tuple:
    """The sum a number joins (``loss + average_wsd`` of the stand-in ``average_wsd()``) and the
    pulls its values came from (``_joined_pulls``); (None, []) where the sum is not an operation."""
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import parents

    other = origin(node)
    tree = parents(other.tree if other is not None else probes.facts.module)
    joined = tree.get(node.func)
    return (joined, _joined_pulls(node, tree)) if type(joined) is ast.BinOp else (None, [])


def _requires_grad(node) -> bool:
    """The copy is made a leaf that requires grad where it is made (`torch.tensor(…, requires_grad=True)`)."""
    from gradlint.analysis.scan import literal_true

    return type(node) is ast.Call and any(k.arg == "requires_grad" and literal_true(k.value) for k in node.keywords)


def _leaf_of_its_own_file(node) -> bool:
    """A copy made with `requires_grad=True` in another file of the project, in a function that
    pulls the values out itself (`scores = torch.tensor(beam_scores, requires_grad=True)` after
    `log_probs.detach().numpy()` in a rescoring helper): that file's lint reports it where it is
    made, the mistake to fix; the constants beside it in the loss are not. (A helper copying
    whatever it is handed is the call's to report.)"""
    from gradlint.analysis.flow import PULL_METHODS
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import DEFS, enclosing, parents

    module = origin(node)
    if module is None or not _requires_grad(node):
        return False
    function = enclosing(node, parents(module.tree), DEFS)
    return function is not None and any(
        type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in PULL_METHODS and not n.args
        for n in ast.walk(function))


def _pulls_within(data) -> list:
    """The pulls written in the copied data itself (`[l.item() for l in losses]`)."""
    from gradlint.analysis.flow import PULL_METHODS

    if data is None:
        return []
    # (not `float(…)`, which as often reads a NumPy number as a tensor)
    return [n for n in ast.walk(data) if type(n) is ast.Call and type(n.func) is ast.Attribute
            and n.func.attr in PULL_METHODS and not n.args]


def _pulled_tensor(node):
    """The tensor read by ``x.item()`` / ``x.tolist()`` / ``x.numpy()`` / ``float(x)``."""
    from gradlint.dynamic.instrument import first_argument, method, receiver

    if method(node) is not None:
        return receiver(node)
    return first_argument(node)


def decide(tracer, evidence) -> tuple[str, str]:
    """Confirmed when leaves upstream of the pulled values influenced a backward root through the
    rebuilt tensor and were meant to train."""
    from gradlint.dynamic.verdicts import reach

    return reach(tracer, evidence, "the values it rebuilds", rebuilt=True)


def _spans(outer, inner) -> bool:
    """``outer`` holds ``inner`` by their positions, and is not it."""
    return (outer.lineno, outer.col_offset) <= (inner.lineno, inner.col_offset) \
        and (inner.end_lineno, inner.end_col_offset) <= (outer.end_lineno, outer.end_col_offset) and outer is not inner


def _pulls_before(node, facts) -> str:
    """The pulls a joined number's values came from (`phi.detach().numpy()`, line 12), as written."""
    from gradlint.analysis.project import origin
    from gradlint.analysis.tree import parents

    module = origin(node)
    pulls = _joined_pulls(node, parents(module.tree if module is not None else facts.module))
    if not pulls:
        return "values taken out of tensors"
    more = f" and {len(pulls) - 1} more" if len(pulls) > 1 else ""
    return f"`{_written(pulls[0], node, facts)}`, line {pulls[0].lineno}{more}"


def _joined_pulls(node, tree) -> list:
    """The pulls the number a join stands in for (``Walker.number_in_tensor_op``) was computed
    from: written before it in its function, else in a helper of the module the function calls by
    name (`jitter = smoothness_np(frame_logits)`); those of values that had history cut on their way
    first (`phi.detach().numpy()`: `.numpy()` wants the cut; a mask's `(t == 1).numpy()` had none)."""
    from gradlint.analysis.flow import _cut_on_the_way
    from gradlint.analysis.tree import BINDING_SCOPES, enclosing

    scope = enclosing(tree.get(node.func), tree, BINDING_SCOPES)
    if scope is None:
        return []
    pulls = sorted((n for n in _pulls_within(scope) if n.lineno <= node.lineno), key=lambda n: (n.lineno, n.col_offset))
    if not pulls and type(scope) is not ast.Module:
        module = enclosing(scope, tree, (ast.Module,))
        called = {n.func.id for n in ast.walk(scope) if type(n) is ast.Call and type(n.func) is ast.Name}
        pulls = [n for d in (module.body if module is not None else ())
                 if type(d) in (ast.FunctionDef, ast.AsyncFunctionDef) and d.name in called for n in _pulls_within(d)]
    return [n for n in pulls if _cut_on_the_way(n.func.value)] or pulls


def _pulls(source, facts) -> str:
    """Where the values were taken out (`pred.detach().numpy()`, line 53), as written."""
    pulls = sorted((n for n in source.pulled if facts.pulled_from.get(n)),
                   key=lambda n: (n.lineno, n.col_offset)) if source is not None else []
    if not pulls:
        return "values taken out of tensors"
    first = pulls[0]
    more = f" and {len(pulls) - 1} more" if len(pulls) > 1 else ""
    return f"`{facts.code(first)}`, line {first.lineno}{more}"


def _pulled_from_nothing(rebuild, facts) -> bool:
    """Every value the copy was made of was pulled out of a tensor known to carry no history
    (the index DragGAN's point tracking takes with `idx.item()` under no_grad): the copy of them
    in a loss of unknown history starves nothing."""
    pulls = rebuild.source.pulled
    return bool(pulls) and not rebuild.source.attached and all(
        not facts.pulled_from.get(pull) and pull in facts.pulled_from for pull in pulls)

