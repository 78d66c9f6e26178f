"""GL001 detached-result: a ``.detach()`` / ``.data`` / no_grad result returned or made the loss.

A cut is reported only where the trainables upstream of it get no gradient another way
(``analysis/starved.py`` decides which, for GL002's rebuilds too): a detached copy kept for
logging, a stop-gradient beside an attached branch of the same model (SimSiam) or in front of a
different model (a GAN's discriminator step), or one whose upstream is trained through another
loss or output (actor-critic advantages, a VAE's sample()) are intended.

PyTorch: https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html
"""
from __future__ import annotations

import ast
import dataclasses

from gradlint.analysis.project import import_name, origin
from gradlint.checks import Flag, Rule, starved_names

RULE = Rule(
    "GL001", "detached-result",
    "A detached tensor is returned or becomes the loss, so the parameters upstream of it get no gradient.",
)


def check(facts):
    from gradlint.analysis.facts import REBUILD, STORAGE_REBOUND
    from gradlint.analysis.settings import cut_on_request
    from gradlint.analysis.starved import dead_in, starved, switched

    founds = list(starved(facts))
    # (a loss whose history was cut where it had been recorded, `logits.detach()` in the loss
    # function, beside a reference computed afresh under no_grad, the old policy's log-probs:
    # the reference is no part of what went wrong)
    recorded = {id(f.backward.node) for f in founds if f.function is None and not f.cut.fresh}
    founds = [f for f in founds if not (f.function is None and f.cut.fresh and id(f.backward.node) in recorded)]
    for found in founds:
        cut = found.cut
        if cut.kind == REBUILD:
            continue  # (GL002's: the mechanism is a copy, not autograd's own stop)
        if cut.region is not None and cut.region is facts.import_switch and cut.function is not None \
                and cut.function.name != "<module>":
            # (an imported script's switch leaves every function of this module unrecorded: the
            # call of one that backpropagates raises, GL003's at that call; at the top level,
            # where no call is, the cut itself is named)
            continue
        if switched(found, facts) is not None:
            continue  # (GL003's, at the switch that silenced the error the cut would raise)
        if found.function is not None and cut.of_leaf and cut_on_request(cut.node, found.function.node, facts.module):
            # (a function's own parameters used as constants where a caller asks, `if stop_gradient:
            # matrix = matrix.detach()`: each caller's loss says whether that starves them)
            continue
        if found.function is not None:
            # (a helper's copy into a model's storage returns nothing: the model computes with it)
            via = cut.function.name if cut.function is not None and cut.kind != STORAGE_REBOUND \
                else found.function.name
            # (cut in a helper whose result the function returns: the user reads the cut's line)
            returned = f"is returned from `{found.function.name}()`" if _in_a_return(cut.node, found.function.node) \
                else (f"becomes a term of what `{found.function.name}()` returns made only of values with no "
                      f"history, which adds a number and no gradient") if found.dead \
                else f"becomes part of what `{found.function.name}()` returns"
            flag = _report(cut, returned if via == found.function.name
                           # (a hook returns nothing: it keeps the copy on its object or in a dict)
                           else f"is returned from `{found.function.name}()`" if cut.hooked
                           else f"is returned from `{via}()` and becomes part of what `{found.function.name}()` returns", facts)
            if found.dead:
                flag.details["dead"] = True
                flag = _dead_term_hint(flag, cut)
            yield flag
        else:
            dead = dead_in(cut, found.backward.value)
            # (a term of cut values beside attached terms: what it does is add a number; one of
            # models the step after the backward does not update trains nothing that steps)
            after = ", ".join(f"`{m}`" for m in found.unstepped)
            where = (f"becomes a term of the loss `{found.backward.root}` (backward at line {{sink}}), a term "
                     f"made only of values with no history, which adds a number to the loss and no gradient" if dead
                     else f"becomes a term of the loss `{found.backward.root}` (backward at line {{sink}}) that "
                     f"reaches only {after}, which the optimizer stepped after that backward does not update"
                     if after
                     else f"becomes part of the loss `{found.backward.root}` (backward at line {{sink}})")
            dead = dead or bool(after)
            flag = _report(cut, where, facts, models=found.models, sink=found.backward.node)
            if dead:
                flag.details["dead"] = True
                if not after:
                    flag = _dead_term_hint(flag, cut)
            yield flag
    for rebound in facts.rebounds:
        yield _rebound(rebound, facts)
    for assign, target, method, classes in facts.rewrapped:
        # (a model's file, whose training script is not known: trained, as a module is)
        if _trained(classes, facts) or not (facts.optimized or facts.optimizers_open):
            yield _rewrapped(assign, target, method)


def _in_a_return(node, function) -> bool:
    """``node`` is written inside a ``return`` of ``function`` itself (`return x.detach()`), or
    bound as it is to the name returned, not in a statement computing what it returns (`d =
    self.dice(x.detach(), y)`, then `return ce + d`)."""
    from gradlint.analysis.tree import iter_nodes

    nodes = list(iter_nodes(function, into_functions=False))
    # (`snap = x.detach()`, then `return snap`: the name holds the cut result itself)
    bound = {t.id for n in nodes if type(n) is ast.Assign and n.value is node for t in n.targets if type(t) is ast.Name}
    return any(type(n) is ast.Return and n.value is not None and (
        any(m is node for m in ast.walk(n.value)) or (type(n.value) is ast.Name and n.value.id in bound))
        for n in nodes)


def _rebound(rebound, facts):
    """``self.model = copy.deepcopy(adapted)`` after the optimizer was given ``self.model``'s
    parameters: what the loss trains now is a module the optimizer never holds."""
    built = facts.optimizer_nodes.get(_key(rebound, facts))
    given = f" (line {{built}})" if built is not None and origin(built) is None else ""
    step = f"`{facts.code(rebound.step.func)}()`"
    return Flag(
        RULE, rebound.node,
        f"`{rebound.name}` is bound to a new module here, after `{rebound.optimizer}` was given the parameters it "
        f"held{given}: the loss `{rebound.backward.root}` (backward at line {{backward}}) trains the new module, "
        f"and {step} (line {{step}}) updates the old parameters, which no backward reaches",
        hint=f"build `{rebound.optimizer}` again over `{rebound.name}.parameters()` after this line, or load the "
             f"weights into the module it holds (`{rebound.name}.load_state_dict(…)`)",
        details={"tensor": rebound.name, "cut": "rebound", "optimizer": rebound.optimizer},
        refs={"backward": rebound.backward.node, "step": rebound.step,
              **({"built": built} if given else {})},
    )


def _trained(classes, facts) -> bool:
    """An optimizer of this file, or a script of the project, is given an instance of one of
    ``classes`` (or of a class that builds one among its members)."""
    from gradlint.analysis.starved import _with_builders

    owners = _with_builders(set(classes), facts.module)
    if any(f"{owner}.*" in facts.optimized for owner in owners):
        return True
    view = facts.imports.project
    return view is not None and any(view.trained_elsewhere(owner) for owner in sorted(owners))


def _rewrapped(assign, target: str, method: str):
    """``self.linear.weight = nn.Parameter(F.normalize(self.linear.weight))`` at every call of
    the forward: a new leaf each time; the optimizer keeps the old parameter."""
    where = "at every call of `forward()`" if method == "forward" else \
        f"in `{method}()`, at every call of `forward()`"
    return Flag(
        RULE, assign,
        f"`{target}` is bound to a new parameter made from its own values {where}: the new one is a leaf "
        f"with no history, and the `{target}` an optimizer was given before the first call is never used "
        f"again, so no backward reaches it and the optimizer's steps never change what the module computes",
        hint=f"compute with the transformed values instead of storing them (`F.normalize({target}, dim=1)` "
             f"inside the expression), or update the parameter in place under `torch.no_grad()` "
             f"(`{target}.copy_(…)`)",
        details={"tensor": target, "cut": "rebound", "optimizer": "the optimizer"},
    )


def _key(rebound, facts) -> str:
    """The optimizer's key, as the walk of its function named it."""
    name = rebound.optimizer
    if name == "self" or name.startswith("self."):
        owner = rebound.function.class_name or "?"
        return f"{owner}.{name}"
    return name


def _dead_term_hint(flag, cut):
    """A term made only of cut values trains nothing whatever is detached beside it: the repair
    is in the term, not in a logged copy."""
    if cut.kind not in (".detach()", ".data"):
        return flag
    return dataclasses.replace(flag, hint=(
        f"keep `{cut.tensor}` attached in this term and detach only what it is compared with (a "
        f"target, a pseudo-label, a teacher's output), or drop the term; if the cut is intended, "
        f"add `# noqa: GL001`"))


def _report(cut, where: str, facts, models=(), **refs):
    from gradlint.analysis.facts import STATE_DICT, STORAGE_REBOUND, UNRECORDED_GRAD
    from gradlint.analysis.scan import nograd_decorator
    from gradlint.analysis.starved import _optimized, _settings, _with_owners, inference_path

    # (not a model the module freezes, a feature extractor the region also ran; nor a setting the
    # constructor stores, `self.n_experts`)
    settings = _settings(cut.function, facts) if cut.function is not None else set()
    names, upstream, verb = starved_names(
        cut.upstream - facts.frozen - settings or cut.upstream - settings or cut.upstream, models)
    if cut.kind == "no_grad" and inference_path(cut, facts):
        return _inference_call(cut, where, facts, refs)
    if cut.kind == "no_grad":
        at_region = isinstance(cut.region, (ast.With, ast.AsyncWith))
        # (a function decorated to run under no_grad: its decorator is where recording stops,
        # the one place to repair for every cut in it, where it is in this file)
        decorated_by = nograd_decorator(cut.region, facts.imports) \
            if isinstance(cut.region, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        # (a module whose forward is decorated: the finding is placed at the decorator too)
        decorator = isinstance(cut.region, ast.expr) and origin(cut.region) is None
        shown = f"`{cut.tensor}` (line {{cut}}) is computed inside this no_grad region" if at_region \
            else f"`{cut.tensor}` (line {{cut}}) is computed {_region(cut)}" if decorated_by is not None \
            else f"`{cut.tensor}` is computed {_region(cut)}"
        optimized = f", though an optimizer is given {'it' if verb == 'gets' else 'them'}" \
            if _optimized(cut, facts) else ""
        starved = cut.upstream - facts.frozen or cut.upstream
        held = sorted(n for n in starved if _with_owners(facts.resolve({n})) & facts.optimized)
        if optimized and held and len(held) < len(starved) and all(n.isidentifier() for n in held):
            # (`pitch` and `predictor` starved, only `predictor` in an optimizer: name it)
            optimized = f", though an optimizer is given {', '.join(f'`{n}`' for n in held)}"
        return Flag(
            RULE, cut.node,
            f"{shown} and {where}, so {upstream} {verb} no gradient through it{optimized}",
            hint=(f"compute `{cut.tensor}` outside the no_grad region"
                  + (" (switch recording back on with `torch.set_grad_enabled(True)` before it)"
                     if isinstance(cut.region, ast.Expr) else "")
                  + "; if the module is meant to stay frozen, leave it out of the optimizer or call "
                  "`requires_grad_(False)` on it"),
            details={"tensor": cut.tensor, "cut": cut.kind, "upstream": names,
                     **({"decorated": True} if isinstance(cut.region, ast.expr) else {})},
            refs={**refs, "region": decorated_by or cut.region, "cut": cut.node},
            at=cut.region.items[0].context_expr if at_region else cut.region if decorator
            else decorated_by if decorated_by is not None and origin(decorated_by) is None else None,
        )
    expr = cut.shown
    what = f"the result of `{expr}`"
    if cut.hooked and all(name.endswith("@input") for name in cut.upstream):
        # (the hook's own parameter names nothing the user trains: the hooked module does)
        what = f"`{expr}`, which this forward hook keeps of the hooked module's output,"
        upstream, verb = "that module and whatever computed its input", "get"
    elif cut.hooked:
        # (a hook on a layer of the object's own member, `self.backbone`: that member, named as
        # the model its construction is handed where one is, trains nothing through the copy)
        members = sorted(n for n in cut.upstream if not n.endswith("@input"))
        named = [n for n in members if not n.startswith("self.")] or members
        own = next((n for n in members if n.startswith("self.")), members[0])
        what = f"`{expr}`, which this forward hook keeps of the output of a layer of `{own}`,"
        names, upstream, _ = starved_names(set(named), models)
        upstream, verb = f"{upstream} and whatever computed the layer's input", "get"
    hint = (f"use the attached `{cut.tensor}` there and detach only the copy you log or store; "
            f"if the cut is intended, add `# noqa: GL001`")
    if cut.kind == STORAGE_REBOUND:
        what = (f"`{expr}` copies the values of `{cut.tensor}` into `{cut.into}` but not their history; "
                f"what is computed with `{cut.into}`")
        hint = (f"compute with `{cut.tensor}` itself (`torch.func.functional_call`, or `F.linear`/`F.conv2d` "
                f"with it as the weight) instead of copying it into `{cut.into}.data`; if only its values are "
                f"meant, copy them under `torch.no_grad()` (`{cut.into}.copy_({cut.tensor})`)")
    if cut.kind == STATE_DICT:
        what = f"`{expr}` holds the parameters' values detached, and what is computed from them"
        hint = (f"read the parameters themselves (`{cut.tensor}.named_parameters()`, or "
                f"`{cut.tensor}.state_dict(keep_vars=True)`)")
    if cut.kind == UNRECORDED_GRAD:
        what = f"`{expr}`, taken without `create_graph=True`,"
        hint = ("pass `create_graph=True` so the gradients are recorded and a loss of them trains what "
                "computed them; if they are only data here, add `# noqa: GL001`")
    return Flag(
        RULE, cut.node,
        f"{what} {where}, so {upstream} {verb} no gradient through it",
        hint=hint,
        details={"tensor": cut.tensor, "cut": cut.kind, "upstream": names},
        refs=refs,
    )


def _inference_call(cut, where: str, facts, refs):
    """A method decorated to run under no_grad, called in training (``inference_path``): the call
    is the mistake, not the decorator; its members are named through the object it is called on."""
    from gradlint.analysis.scan import nograd_decorator
    from gradlint.analysis.starved import recorded_members

    call = facts.call_sites[cut.node]
    found = origin(cut.region)
    decorator = nograd_decorator(cut.region, found.imports if found is not None else facts.imports)
    if found is not None and decorator is not None:
        found.own([decorator])  # (named by its file and line)
    receiver = facts.code(call.func.value) if type(call.func) is ast.Attribute else None
    members = sorted(m[len("self."):] for m in recorded_members(cut))
    names = [f"{receiver}.{m}" if receiver else m for m in members]
    upstream = ", ".join(f"`{n}`" for n in names)
    method = cut.function.name
    return Flag(
        RULE, call,
        f"`{facts.code(call)}` runs `{method}()`, which is decorated to run without recording autograd "
        f"(line {{region}}), and what it returns {where}, so {upstream} {'gets' if len(names) == 1 else 'get'} "
        f"no gradient through it, though an optimizer is given {'it' if len(names) == 1 else 'them'} and the "
        f"forward of `{receiver or cut.function.class_name}` trains {'it' if len(names) == 1 else 'them'}",
        hint=f"train through the recorded forward (`{receiver}(…)`) instead of `{method}()`, or drop the "
             f"no_grad decorator from `{method}()` if it is meant for training",
        details={"tensor": cut.tensor, "cut": cut.kind, "upstream": names},
        refs={**refs, "region": decorator or cut.region, "cut": cut.node},
        at=call,
    )


def _region(cut) -> str:
    """Where autograd stopped recording, as a message phrase (its line is the ``region`` ref)."""
    node = cut.region
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return "inside a no_grad region (line {region})"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"in `{node.name}()`, which runs without recording autograd (line {{region}})"
    if isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign)):  # `torch.set_grad_enabled(False)` as a statement
        other = origin(node)
        if other is not None and any(stmt is node for stmt in other.tree.body):
            # (an imported script's own switch, made at its top level)
            return (f"after importing `{import_name(other.path)}`, whose top level runs `{ast.unparse(node.value)}` "
                    f"(line {{region}})")
        return f"after `{ast.unparse(node.value)}` switched recording off (line {{region}})"
    other = origin(node) if isinstance(node, ast.expr) else None
    decorated = next((f for f in ast.walk(other.tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and any(d is node for d in f.decorator_list)), None) if other is not None else None
    if decorated is not None and decorated.name not in ("forward", "__call__"):
        # (`self.seg_model.predict(enhanced)`: a method of another file's class, decorated)
        return f"in `{decorated.name}()`, which runs under `@{ast.unparse(node)}` (line {{region}})"
    if isinstance(node, ast.expr):  # a module's forward decorated `@torch.no_grad()`
        return f"by a module whose forward runs under `@{ast.unparse(node)}` (line {{region}})"
    return "where autograd records nothing (line {region})"


# ---- the dynamic pass -------------------------------------------------------------------------

# What the tracer gathers (``dynamic/evidence.KINDS``): the leaves upstream of the cut.
EVIDENCE = frozenset({"upstream"})


def probe(probes, flag) -> None:
    """``h.detach()`` / ``h.data``: the tensor before the cut, and the cut value; an expression
    computed in a no_grad region: its result, and the leaves its ops read there."""
    from gradlint.analysis.facts import STORAGE_REBOUND, UNRECORDED_GRAD
    from gradlint.dynamic.instrument import CannotProbe, receiver

    node = flag.node
    if flag.details.get("cut") == "rebound":
        # the module the name holds just before it is bound anew: the parameters the optimizer keeps
        probes.need("rebound")
        probes.statement(node, node.targets[0] if isinstance(node, ast.Assign) else node.target)
        return
    if flag.details.get("decorated") and isinstance(node, ast.Call) and node.args:
        # A module whose forward records nothing, handed activations: what it is handed is
        # cut there, as by `.detach()` (each argument's leaves, pooled), and its result.
        probes.need("pooled")
        for arg in node.args:
            if not isinstance(arg, ast.Starred):
                probes.before(arg)
        probes.after(node)
        return
    if flag.details.get("cut") == "no_grad":
        # The expression computed in the region: the run records none of it, so the leaves its
        # ops read while history was off are what it lost (``history_loss``), read off its result.
        probes.need("history_loss")
        if flag.details.get("dead"):
            probes.need("dead_term")
        probes.before(node)
        probes.after(node)
        return
    if flag.details.get("dead"):
        probes.need("dead_term")
    if flag.details.get("cut") == STORAGE_REBOUND:
        # the values with history, and the parameter whose storage takes them
        from gradlint.analysis.tree import parents

        assign = parents(probes.facts.module).get(node)
        probes.before(node)
        probes.after(assign.targets[0].value)
        return
    if flag.details.get("cut") == UNRECORDED_GRAD:
        # the root it differentiates, and the gradients: tensors the run made from it with no history
        root = next((k.value for k in node.keywords if k.arg == "outputs"), node.args[0] if node.args else None)
        if root is None or isinstance(root, ast.Starred):
            raise CannotProbe("the root `torch.autograd.grad` differentiates is not written in the call")
        probes.need("dead_term")  # (what the gradients add to a loss is a term with no path, whatever else trains)
        probes.before(root)
        probes.after(node)
        return
    if isinstance(node, ast.Call) and not isinstance(node.func, ast.Attribute):
        # `map(torch.detach, (a, b))` returns a lazy iterator, which the tracer cannot tag
        raise CannotProbe("the tensors `map` detaches are made lazily, one at a time; the run does not follow them")
    if isinstance(node, ast.Call) and node.func.attr != "detach" and node.args \
            and not isinstance(node.args[0], ast.Starred):
        # `nn.Parameter(evolved)`: the tensor it makes a new leaf of is its argument
        probes.before(node.args[0])
    else:
        probes.before(receiver(node))
    probes.after(probes.wrappers.get(node, node))


def decide(tracer, evidence) -> tuple[str, str]:
    """Confirmed when leaves that influenced a backward root through the cut got no gradient on
    that path and were meant to train; a leaf reached only through another use of it (a
    weight-decay term) counts as starved."""
    from gradlint.dynamic.verdicts import reach

    if "rebound" in evidence.kinds:
        return _rebound_verdict(tracer, evidence)
    # (a dead term's path is missing from the gradient whatever else trains its leaves)
    return reach(tracer, evidence, "the tensor it cuts", other_use=True, rebuilt="dead_term" in evidence.kinds)


def _rebound_verdict(tracer, evidence) -> tuple[str, str]:
    """Confirmed when a backward ran after the name was bound anew and none of the old parameters
    the optimizer holds got a gradient since; dismissed when one did."""
    import torch

    from gradlint.dynamic.verdicts import elsewhere

    finding = evidence.finding
    name = finding.get("details", {}).get("tensor") or "the module"
    at = f"`{name}` ({finding['where']})"
    if not evidence.runs:
        return "not-reached", f"the statement binding {at} never ran{elsewhere(tracer)}"
    if not evidence.rebound:
        return "inconclusive", f"the module {at} held before it was bound anew holds no parameter an optimizer was given"
    later = [(p, before) for p, before, backwards in evidence.rebound if tracer.backwards > backwards]
    if not later:
        return "inconclusive", f"{at} was bound anew, but no backward() followed"
    moved = [p for p, before in later if p.grad is not None and bool(p.grad.any())
             and (before is None or not torch.equal(p.grad, before))]
    if moved:
        return "dismissed", (f"{len(moved)} of the {len(later)} parameters `{name}` held before {finding['where']} "
                             f"got a gradient after it: a backward still reaches them")
    calls = tracer.backwards - min(backwards for _, _, backwards in evidence.rebound)
    return "confirmed", (f"none of the {len(later)} parameters `{name}` held before {finding['where']}, which an "
                         f"optimizer holds, got a gradient from the {calls} backward call(s) after it was bound "
                         f"anew: the optimizer's steps never move them")
