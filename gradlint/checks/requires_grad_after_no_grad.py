"""GL003 requires-grad-after-no-grad: ``requires_grad`` switched on for a tensor computed where
autograd recorded nothing (``torch.no_grad()``, ``torch.inference_mode()``,
``set_grad_enabled(False)``, or a function or module that runs under them).

The switch silences "element 0 of tensors does not require grad" but makes the tensor a new
leaf: the parameters that produced it still get no gradient. A leaf made on purpose — one the
code differentiates against (``autograd.grad(out, x)``) or whose ``.grad`` it uses, as for
WGAN-GP interpolates and adversarial inputs — is not reported.

Also: a function of this file that backpropagates through what it computes (an adversarial
attack, an inner optimisation step), called inside a no_grad or inference_mode region elsewhere.

PyTorch: https://pytorch.org/docs/stable/notes/autograd.html#locally-disabling-gradient-computation
"""
from __future__ import annotations

import ast

from gradlint.checks import Flag, Rule, starved_names

RULE = Rule(
    "GL003", "requires-grad-after-no-grad",
    "requires_grad is switched on for a tensor made without autograd history; the parameters that produced it still get no gradient.",
)


def check(facts):
    from gradlint.analysis.facts import UNRECORDED_GRAD
    from gradlint.analysis.starved import starved, switched

    reported = set()
    found_cuts = set()
    for found in starved(facts):
        found_cuts.add(found.cut.node)
        switch = switched(found, facts)
        if switch is None or switch.node in reported:
            continue
        reported.add(switch.node)
        if switch.intended_leaf and found.function is not None and (found.function.class_name is None \
                and found.cut.upstream and all(name.endswith(f"@{found.function.name}") for name in found.cut.upstream)
                or _asked_of(switch, facts)):
            # (`ret = ret.detach()`, `ret.requires_grad_()`, `return ret`: a plain function making
            # a new leaf of what it is given; its callers say whether that starves anything. A
            # module's forward doing it to its output cuts what computed its inputs. Nor a leaf
            # the function asks `autograd.grad` the gradient of: a pose refined at test time by
            # gradient steps on it, whose cut start is the cut's own question, GL001's.)
            continue
        cut = found.cut
        _, upstream, verb = starved_names(cut.upstream, found.models)
        # (`g_loss` and `d_fake_loss` both built from one detached score and each switched on
        # before its own backward: each switch silenced its own error)
        for switch, backward in [(switch, found.backward), *_switched_beside(switch, found, facts)]:
            reported.add(switch.node)
            tensor = f"`{switch.name or cut.tensor}`"
            if backward is not None:
                sink, refs = f"the loss `{backward.root}` (backward at line {{backward}})", {"backward": backward.node}
            else:
                sink, refs = f"what `{found.function.name}()` returns", {}
            yield Flag(
                RULE, switch.node,
                f"{tensor} was cut from the record by `{cut.shown}` (line {{cut}}): switching requires_grad "
                f"on makes it a new leaf, so {sink} stops there and {upstream} {verb} no gradient through it",
                hint=f"pass `create_graph=True` there (line {cut.node.lineno}) and drop the switch"
                if cut.kind == UNRECORDED_GRAD else f"drop the `{cut.kind}` and the switch, and train through `{cut.tensor}` as it is",
                details={"tensor": switch.name, "cut": cut.kind},
                refs={"cut": cut.node, **refs},
            )

    for switch in facts.switches:
        value = switch.value
        if switch.node in reported:
            continue
        copied = _detached_then_backpropagated(switch, facts)
        if copied is not None:
            (copy, backward), tensor = copied, f"`{switch.name}`"
            yield Flag(
                RULE, switch.node,
                f"{tensor} is a copy cut from the record by `{facts.code(copy)}` (line {{cut}}): switching "
                f"requires_grad on makes it a new leaf, so the loss `{backward.root}` (backward at line "
                f"{{backward}}) stops there and what computed it gets no gradient through it",
                hint="drop the `.detach()` and the switch, and train through the value as it is",
                details={"tensor": switch.name, "cut": ".detach()"},
                refs={"cut": copy, "backward": backward.node},
            )
            continue
        if not value.nograd or value.attached or facts.lost_history(value.rebuilt) or switch.intended_leaf:
            backward = _backpropagated_next(switch, facts)
            if backward is not None and _kept_history(value, facts) and (_guarded(switch) or type(switch.node) is ast.Call) \
                    and not (_guarded(switch) and _cut_on_some_path(value, facts)):
                # a defensive guard on a loss the walk sees trained: it never switches; and
                # `requires_grad_()` on one does nothing (what it trains through is whole, or cut
                # where GL001 says)
                continue
            if backward is not None:
                yield _switched_root(switch, backward, facts)
            elif (value.lost or facts.lost_history(value.rebuilt)) and not (value.attached or value.live or value.nograd
                                                                             or _cut_beside_copies(switch, facts)) \
                    and not switch.intended_leaf and _returned_as_a_loss(switch, facts):
                yield _lost_term_returned(switch, facts)
            continue
        if _through_a_model_it_trains(switch, facts, found_cuts):
            continue
        region = _nearest_region(value.nograd, switch.node)
        tensor = f"`{switch.name}`" if switch.name else "the tensor"
        # (`critic_loss = F.mse_loss(v_target, v_s)` after the region, of values made inside it)
        made = "was computed" if switch.name is None or not isinstance(region, (ast.With, ast.AsyncWith)) \
            or _binds(region, switch.name) else "is computed from values made"
        # (the models the region ran that its result carries, as the region's cut names them:
        # `self.online_net`, not a frozen target network beside it)
        lost = frozenset().union(*(facts.cuts[c].upstream for c in value.cuts
                                   if c in facts.cuts and facts.cuts[c].kind == "no_grad")) - facts.frozen
        if lost and len(lost) <= 3:
            _, names, verb = starved_names(lost, ())
            produced = f"{names} still {verb} no gradient"
        else:
            produced = "what produced it still gets no gradient"
        yield Flag(
            RULE, switch.node,
            f"{tensor} {made} {_describe(facts, region)} and has no history: switching "
            f"requires_grad on makes it a new leaf, and {produced}",
            hint=(f"compute the loss outside `{facts.code(region.func)}` (its no_grad decorator is right for "
                  "evaluation) and drop the switch" if isinstance(region, ast.Call) and _callee_decorator(facts, region)
                  is not None else "compute it with gradients enabled (remove the no_grad region around it) "
                  "instead of switching requires_grad on afterwards"),
            details={"tensor": switch.name},
            refs={"region": region},
        )


    from gradlint.analysis.project import origin
    from gradlint.analysis.scan import nograd_decorator

    for call in facts.nograd_backprops:
        if _under_local_context(facts, call):
            continue
        if any(other.region is call.region and other is not call
               and other.function.name == call.callee.rpartition(".")[2] for other in facts.nograd_backprops):
            continue  # (`main()` at the top level: the call inside it that backpropagates is the one named)
        # (placed where recording stops, as GL001's no_grad cuts are: the one place to repair)
        region = call.region
        at = region.items[0].context_expr if isinstance(region, (ast.With, ast.AsyncWith)) \
            else nograd_decorator(region, facts.imports) if isinstance(region, (ast.FunctionDef, ast.AsyncFunctionDef)) \
            else None
        called = facts.code(call.node.func)
        # (a parameter its callers hand a function, `event_fn(t, y)`: named as they hand it too)
        handed = f", here `{call.callee}`," if type(call.node.func) is ast.Name and call.callee != called else ""
        # (a call of another file is written as that file has it)
        written = ast.unparse if origin(call.backward) is not None else facts.code
        how = "backward()" if type(call.backward) is not ast.Call or type(call.backward.func) is not ast.Attribute \
            or call.backward.func.attr == "backward" else f"`{written(call.backward.func)}()`"
        yield Flag(
            RULE, call.node,
            f"`{called}(…)` (line {{call}}){handed} runs {how} (line {{backward}}) on a loss "
            f"it computes, but it is called {_describe(facts, region)}: nothing it computes is recorded, "
            f"so that {how} raises \"element 0 of tensors does not require grad\"",
            hint=("switch recording back on after the import (`torch.set_grad_enabled(True)`), or move that "
                  "switch under the script's `if __name__ == \"__main__\":`" if _imported_switch(region) else
                  "make the call outside the no_grad region, or wrap the code that backpropagates "
                  "in `with torch.enable_grad():` (under `torch.inference_mode()` that does not help: "
                  "use `torch.no_grad()` there instead)"),
            details={"callee": call.callee},
            refs={"region": region, "backward": call.backward, "call": call.node},
            at=at,
        )


def _imported_switch(region) -> bool:
    from gradlint.analysis.project import origin

    other = origin(region) if isinstance(region, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
    return other is not None and any(stmt is region for stmt in other.tree.body)


def _cut_beside_copies(switch, facts) -> bool:
    """The switched value descends from a cut other than copies a function it called made (a
    helper's `torch.FloatTensor(…)` of values pulled out with `.numpy()`, carried to the caller as
    a cut); a copy made here is GL002's, which names the switch."""
    from gradlint.analysis.facts import REBUILD

    return any(c not in facts.cuts or facts.cuts[c].kind != REBUILD or facts.cuts[c].function is None
               or facts.cuts[c].function.node is switch.function.node for c in switch.value.cuts)


def _through_a_model_it_trains(switch, facts, found_cuts) -> bool:
    """The switched tensor then runs through a model a later backward trains (`x_fake =
    G(z)` under no_grad, `x_fake.requires_grad_()`, `D(x_fake)` in the discriminator's step),
    and the optimizers stepped right after that backward hold nothing upstream of the cut: that
    loss has history without the switch, so the switch silences nothing, and what produced the
    tensor in this function's region is not meant to train there."""
    from gradlint.analysis.starved import _not_stepped
    point = (switch.node.lineno, switch.node.col_offset)
    for backward in facts.backwards:
        if backward.function.node is not switch.function.node or (backward.node.lineno, backward.node.col_offset) <= point:
            continue
        common = [c for c in switch.value.cuts if c in backward.value.cuts and c in facts.cuts]
        if len(common) < len([c for c in switch.value.cuts if c in facts.cuts]):
            continue  # (a loss sharing only part of the switched tensor's cuts was not computed from it)
        trained = (backward.value.trainables | backward.value.post) - facts.frozen
        if common and trained and not facts.resolve(trained) <= facts.frozen and all(
                facts.cuts[c].upstream and c not in found_cuts and _not_stepped(facts.cuts[c], backward, facts)
                # (a region of this function: what it computed there is all in its walk)
                and facts.cuts[c].function is not None and facts.cuts[c].function.node is switch.function.node
                for c in common):
            return True
    return False


def _asked_of(switch, facts) -> bool:
    """The switched leaf is an input ``autograd.grad`` is asked of in the switch's own function
    (`torch.autograd.grad(loss, pose)`), which calls no ``backward()``: nothing accumulates
    ``.grad`` into parameters through the leaf."""
    from gradlint.analysis.imports import dotted

    name = switch.name
    if name is None or switch.function is None or any(
            type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "backward"
            for n in ast.walk(switch.function.node)):
        return False  # (a loss backpropagated beside it trains through the leaf too)
    for node in ast.walk(switch.function.node):
        if type(node) is ast.Call and facts.imports.qualname(node.func) == "torch.autograd.grad":
            inputs = node.args[1] if len(node.args) > 1 else next(
                (k.value for k in node.keywords if k.arg == "inputs"), None)
            parts = inputs.elts if type(inputs) in (ast.List, ast.Tuple) else [inputs]
            if any(part is not None and dotted(part) == name for part in parts):
                return True
    return False


def _switched_beside(switch, found, facts):
    """``(other, backward)`` for each other switch of ``switch``'s function on a value of the same
    starved cut, where ``other`` names the root of a backward of its own that the cut reaches."""
    if found.backward is None:
        return []
    cut = found.cut.node
    beside = []
    for other in facts.switches:
        if other is switch or not other.name or other.intended_leaf or cut not in other.value.cuts \
                or other.function.node is not switch.function.node:
            continue
        backward = next((b for b in facts.backwards if b is not found.backward and b.root == other.name
                         and cut in b.value.cuts), None)
        if backward is not None:
            beside.append((other, backward))
    return beside


def _backpropagated_next(switch, facts):
    """The backward whose root is the very tensor just switched (``loss.requires_grad = True``
    then ``loss.backward()``), where that tensor was computed by ops (not a leaf made on purpose,
    not a copy GL002 reports, not what a cut GL001 reports left without history)."""
    from gradlint.analysis.facts import REBUILD, UNRECORDED_GRAD

    value = switch.value
    # (a `.detach()` or `.data` it descends from is GL001's finding, a copy GL002's: the switch
    # is part of that one; what a no_grad region dropped is this rule's)
    # (not a guard on a loss the walk also sees attached, `preds = gather(outs) if cards > 1 else
    # outs[0]`: GL001 leaves a cut beside an attached path, and the guard says the cut path ran)
    if switch.name is None or switch.intended_leaf or any(
            getattr(facts.cuts.get(c), "kind", None) not in ("no_grad", UNRECORDED_GRAD, REBUILD) for c in value.cuts) \
            and not (value.attached and _guarded(switch) and _cut_on_some_path(value, facts)):
        return None
    if facts.lost_history(value.rebuilt) and _returned(switch) and not any(
            b.function.node is switch.function.node for b in facts.backwards):
        # (`loss_mse.requires_grad = True; return ce, loss_mse` of a copy: the backward of another
        # function whose loss holds that very copy)
        return next((b for b in facts.backwards if b.function is not None
                     and value.rebuilt & b.value.rebuilt and b.accumulates), None)
    # (what an object of unknown kind computed, `self.objective.losses(self.model, x).mean()`, then
    # switched on and backpropagated at once: with history the switch would raise, so it has none)
    unknown = value.computed and not (value.plain or value.tensor or value.container)
    if not (value.attached or value.live or value.nograd or value.lost or (value.computed and not value.const)) \
            and not unknown:
        return None
    point = (switch.node.lineno, switch.node.col_offset)
    after = [b for b in facts.backwards if b.function.node is switch.function.node
             and (b.node.lineno, b.node.col_offset) > point]
    site = facts.call_sites.get(switch.node)
    if not after and site is not None and _guarded(switch):
        # (a helper's guard on what it is handed, `loss = connected(term)`: the backwards of the
        # function that calls it, after the call)
        after = [b for b in facts.backwards if b.function is not None and _holds(b.function.node, site)
                 and (b.node.lineno, b.node.col_offset) > (site.lineno, site.col_offset)]
    found = next((b for b in after if b.root == switch.name), None)
    if found is None and (value.nograd or not (value.attached or value.live)) and _guarded(switch):
        # `if not denoised.requires_grad: denoised.requires_grad_(True)`, then `loss =
        # l1(denoised, clean)`: the branch runs only where the history is gone, and the loss is
        # computed from it (where the walk sees the history kept, the branch never runs)
        found = next((b for b in after if _computed_from(b, switch)), None)
    if found is None and (value.lost or value.nograd) and not (value.attached or value.live):
        # `coor = decode(logits)` through argmax, `coor.requires_grad = True`, then a loss of it:
        # a backward of a loss that carries no history but the switched tensor's reaches only
        # that new leaf (one with no leaf at all raises, and says so itself)
        found = next((b for b in after if not (b.value.attached or b.value.live)
                      and (b.value.lost or b.value.nograd)), None)
    if found is None and value.lost and not (value.attached or value.live or value.nograd):
        # (`iou_loss = 1 - iou` of a thresholded mask, switched on, then `loss = bce + iou_loss`:
        # a term beside attached ones, which backward never needed the switch for)
        found = next((b for b in after if _computed_from(b, switch)), None)
    return found


def _returned_as_a_loss(switch, facts) -> bool:
    """The switched tensor, or a name bound after the switch to what reads it (`total = bce +
    iou_loss`), is what the switch's function returns, and what it returns is backpropagated (a
    loss function, by the project's evidence)."""
    from gradlint.analysis.uses import Program, Uses

    fn = switch.function.node
    if switch.name is None or not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    point = (switch.node.lineno, switch.node.col_offset)
    names = {switch.name}
    for node in sorted((n for n in ast.walk(fn) if isinstance(n, (ast.Assign, ast.Call))
                        and (n.lineno, n.col_offset) > point), key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Call):
            # (`terms.append(w * peak)`: the list the function returns holds it)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("append", "extend", "update") \
                    and isinstance(node.func.value, ast.Name) and any(
                    isinstance(n, ast.Name) and n.id in names for a in node.args for n in ast.walk(a)):
                names.add(node.func.value.id)
            continue
        if any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node.value)):
            # (and a dict or list it is stored in, `losses["peak"] = w * peak`)
            names |= {t.id if isinstance(t, ast.Name) else t.value.id for t in node.targets
                      if isinstance(t, ast.Name) or isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name)}
    returned = any(isinstance(n, ast.Return) and n.value is not None and (n.lineno, n.col_offset) > point
                   and any(isinstance(m, ast.Name) and m.id in names for m in ast.walk(n.value)) for n in ast.walk(fn))
    if not returned:
        return False
    program = Program(facts)
    if Uses(facts, program).reaches_backward(fn):
        return True
    # (a loss function of a module whose callers are other files: it computes one of torch's
    # losses beside the switched term, `bce_criterion(output, label)`, and no call here uses it)
    called_here = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fn.name
                      for n in ast.walk(facts.module))
    return not called_here and any(isinstance(n, ast.Call) and program.is_loss(n) for n in ast.walk(fn))


def _lost_term_returned(switch, facts) -> Flag:
    name = switch.name
    how = (f"holds values copied out of tensors, without their history," if facts.lost_history(switch.value.rebuilt)
           else f"lost its history to an op autograd does not differentiate (a comparison, argmax, round or an "
                f"integer cast)")
    return Flag(
        RULE, switch.node,
        f"`{name}` {how} before requires_grad is switched on: it becomes a new leaf, and in the loss "
        f"`{switch.function.name}()` returns it adds a number and no gradient: what computed it learns "
        f"from the other terms alone",
        hint="compute that term from a differentiable quantity (probabilities or scores, as a soft version "
             "of the metric) and drop the switch, or leave the metric out of the loss",
        details={"tensor": name},
    )


def _returned(switch) -> bool:
    """The switched name is what its function returns, alone, in a tuple, or reduced
    (`return per_sample.mean()`)."""
    for node in ast.walk(switch.function.node):
        if type(node) is ast.Return and node.value is not None:
            parts = node.value.elts if type(node.value) is ast.Tuple else [node.value]
            if any(type(p) is ast.Name and p.id == switch.name or (
                    type(p) is ast.Call and type(p.func) is ast.Attribute and type(p.func.value) is ast.Name
                    and p.func.value.id == switch.name) for p in parts):
                return True
    return False


def _holds(function, node) -> bool:
    """``node`` is inside ``function`` (a def of this file, or its top level)."""
    if isinstance(function, ast.Module):
        return True  # (the top level: the call is in this file)
    return function.lineno <= node.lineno <= (function.end_lineno or function.lineno) and any(
        n is node for n in ast.walk(function))


def _kept_history(value, facts) -> bool:
    """The value keeps the history of models an optimizer of the file holds, none of them frozen
    and none run through a checkpoint (where a reentrant one may drop it): what `if not
    loss.requires_grad:` guards against does not happen to it."""
    from gradlint.analysis.starved import _with_owners

    # (a stop-gradient target beside it, a teacher's detached predictions or a no_grad region's
    # pseudo-labels, leaves the history of what stays attached as it is)
    if not value.attached or value.lost or facts.optimizers_open:
        return False
    models = facts.resolve(value.trainables)
    if not models or models & facts.frozen or value.trainables & facts.frozen:
        return False
    if "checkpoint" in "".join(facts.lines):
        return False
    return all(_with_owners({m}) & facts.optimized for m in models)


def _cut_on_some_path(value, facts) -> bool:
    """The value also descends from a cut of a model an optimizer of the file holds (the outputs
    detached in one arm of `gather(outs) if cards > 1 else outs[0]`): where that path is taken,
    the loss has no history, and the guard `if not loss.requires_grad:` is there because it
    happened."""
    from gradlint.analysis.starved import _optimized

    # (an optimizer handed in, of a model handed in: nothing here says what trains, the guard does)
    return any(c in facts.cuts and facts.cuts[c].upstream and (not facts.optimized or _optimized(facts.cuts[c], facts))
               for c in value.cuts)


def _guarded(switch) -> bool:
    """The switch runs only where the tensor requires no grad: in the body of ``if not
    x.requires_grad:`` (the author met "element 0 of tensors does not require grad")."""
    from gradlint.analysis.scan import without_history_test

    for node in ast.walk(switch.function.node):
        if isinstance(node, ast.If) and without_history_test(node.test) == switch.name \
                and any(switch.node is n for stmt in node.body for n in ast.walk(stmt)):
            return True
    return False


def _detached_then_backpropagated(switch, facts):
    """``(copy, backward)`` for a switch on a name last bound to a detached copy (`q =
    critic(s, a).detach()`, `q.requires_grad = True`) that the function then backpropagates, itself
    or a loss computed from it, and neither differentiates against nor reads the gradient of: the
    switch silenced the error the copy raised. (Where the walk knows what the copy cuts, GL001's
    and this rule's first finding name it; this is for a copy of what it cannot name.)"""
    from gradlint.analysis.flow import _cut_copy

    if switch.name is None or switch.intended_leaf or _guarded(switch) or switch.value.nograd \
            or switch.function is None or "." in switch.name:
        return None
    point = (switch.node.lineno, switch.node.col_offset)
    bindings = [n for n in ast.walk(switch.function.node) if type(n) is ast.Assign and len(n.targets) == 1
                and type(n.targets[0]) is ast.Name and n.targets[0].id == switch.name
                and (n.lineno, n.col_offset) < point]
    if not bindings:
        return None
    last = max(bindings, key=lambda n: (n.lineno, n.col_offset))
    if not _cut_copy(last.value) or any(k.arg == "requires_grad" for k in getattr(last.value, "keywords", ())):
        return None
    copy = last.value
    while type(copy) is ast.Call and type(copy.func) is ast.Attribute and copy.func.attr != "detach":
        copy = copy.func.value
    for backward in facts.backwards:
        if backward.function is None or backward.function.node is not switch.function.node \
                or (backward.node.lineno, backward.node.col_offset) <= point or not backward.accumulates:
            continue
        if backward.root == switch.name or backward.root.startswith(switch.name + ".") or _computed_from(backward, switch):
            return copy, backward
    return None


def _computed_from(backward, switch) -> bool:
    """The backward's root is bound, after the switch, to an expression that reads the switched
    tensor (`loss = losses.mean()`, `loss = F.l1_loss(denoised, clean)`)."""
    point = (switch.node.lineno, switch.node.col_offset)
    for node in ast.walk(switch.function.node):
        if isinstance(node, ast.Assign) and (node.lineno, node.col_offset) > point \
                and node.lineno < backward.node.lineno \
                and any(ast.unparse(t) == backward.root for t in node.targets) \
                and any(ast.unparse(n) == switch.name for n in ast.walk(node.value) if isinstance(n, (ast.Name, ast.Attribute))):
            return True
    return False


def _switched_root(switch, backward, facts) -> Flag:
    from gradlint.analysis.facts import UNRECORDED_GRAD

    # Either the tensor has history, and the switch raises ("you can only change requires_grad
    # flags of leaf variables"), or something upstream removed it, and the switch hides that.
    name = switch.name
    if backward.root != name and _guarded(switch):
        message = (f"`{name}` is switched to require grad only where it has no history (`if not "
                   f"{name}.requires_grad`): there the switch makes it a new leaf, and the loss "
                   f"`{backward.root}` computed from it (backward at line {{backward}}) reaches nothing that "
                   f"computed `{name}`")
        hint = ("find what removed its history (a no_grad region, a .detach() or .item(), a reentrant "
                "checkpoint none of whose inputs requires grad, parameters frozen by mistake) and drop the switch")
        return Flag(RULE, switch.node, message, hint=hint, details={"tensor": name}, refs={"backward": backward.node})
    if backward.root == name and type(switch.node) is ast.Call:
        # (`requires_grad_(True)` on a tensor with history is a no-op: the switch matters only
        # where there is none, and there it hides the error)
        message = (f"`{name}` is backpropagated (line {{backward}}) right after `requires_grad_()`: on a "
                   f"tensor with history the call does nothing, so it is there because `{name}` had none "
                   f"(\"element 0 of tensors does not require grad\"); it makes `{name}` a new leaf, and its "
                   f"backward() reaches nothing that computed it")
        hint = ("find what removed its history (a no_grad region, a .detach() or .item(), parameters "
                "frozen by mistake) and drop the call; if it never raised without it, the call does nothing: drop it")
    elif backward.root == name:
        message = (f"`{name}` is backpropagated (line {{backward}}) right after requires_grad is switched "
                   f"on: a tensor with history cannot be switched (PyTorch raises), so `{name}` has none; "
                   f"the switch makes it a new leaf and its backward() reaches nothing that computed it")
        hint = ("find what removed its history (a no_grad region, a .detach() or .item(), parameters "
                "frozen by mistake) and drop the switch")
    elif facts.lost_history(switch.value.rebuilt):  # (a copy returned and backpropagated elsewhere)
        message = (f"`{name}` holds values copied out of tensors, without their history, and is switched "
                   f"to require grad: it becomes a new leaf, and the loss `{backward.root}` backpropagated "
                   f"from it (line {{backward}}) reaches nothing that computed it")
        hint = ""
    elif backward.value.attached or backward.value.live:  # (a term of it, beside terms with history)
        message = (f"`{name}` lost its history to an op autograd does not differentiate (a comparison, "
                   f"argmax, round or an integer cast) before requires_grad is switched on: it becomes a new "
                   f"leaf, a term of the loss `{backward.root}` (backward at line {{backward}}) that adds a "
                   f"number and no gradient, and what computed it learns from the other terms alone")
        hint = ("compute that term from a differentiable quantity (probabilities or scores, as a soft "
                "version of the metric) and drop the switch, or leave the metric out of the loss")
    else:  # (a loss computed from it: `coords = decode(logits)` through argmax, then switched)
        message = (f"`{name}` lost its history to an op autograd does not differentiate (or one run "
                   f"without recording) before requires_grad is switched on: it becomes a new leaf, and "
                   f"the loss `{backward.root}` backpropagated from it (line {{backward}}) reaches nothing "
                   f"that computed it")
        hint = ("compute the loss from a differentiable quantity (the logits or scores before argmax, "
                "round or a comparison) instead of switching requires_grad on afterwards")
    grads = [c for c in switch.value.cuts if getattr(facts.cuts.get(c), "kind", None) == UNRECORDED_GRAD]
    if grads and backward.root == name:
        hint = (f"its history ends at `torch.autograd.grad` (line {grads[0].lineno}), taken without "
                "`create_graph=True`: pass it and drop the switch")
    elif facts.lost_history(switch.value.rebuilt) or switch.value.pulled:
        # (the copy is GL002's finding; once it is mended the tensor has history and the switch raises)
        hint = ("its history ends where its values were copied out of tensors (reported there): compute "
                "it with torch ops, and drop the switch, which raises once the tensor has history")
        from gradlint.analysis.project import origin

        copies = sorted((n for n in facts.lost_history(switch.value.rebuilt) if origin(n) is None),
                        key=lambda n: (n.lineno, n.col_offset))
        if copies:
            # (the run reads the loss's values where they were copied, as GL002's probe does: at
            # the switch they are already a leaf's)
            pulled = next((tuple(r.source.pulled) for r in facts.rebuilds if r.node is copies[0]), ())
            return Flag(RULE, copies[0], message, hint=hint, details={"tensor": name, "copied": True},
                        refs={"backward": backward.node, **({"pulled": pulled} if pulled else {})},
                        at=switch.node)
        return Flag(RULE, switch.node, message, hint=hint, details={"tensor": name, "copied": True},
                    refs={"backward": backward.node})
    return Flag(RULE, switch.node, message, hint=hint, details={"tensor": name}, refs={"backward": backward.node})


def _under_local_context(facts, call) -> bool:
    """The call sits in a ``with`` of a context manager this file binds itself
    (``ctx = torch.enable_grad if ttt else nullcontext``): it may switch recording back on."""
    point = (call.node.lineno, call.node.col_offset)
    for node in ast.walk(call.function.node):
        if type(node) not in (ast.With, ast.AsyncWith) or node is call.region:
            continue
        if not ((node.lineno, node.col_offset) <= point <= (node.end_lineno, node.end_col_offset)):
            continue
        for item in node.items:
            expr = item.context_expr.func if isinstance(item.context_expr, ast.Call) else item.context_expr
            head = expr
            while isinstance(head, ast.Attribute):
                head = head.value
            if isinstance(head, ast.Name) and head.id not in facts.imports.names:
                return True
    return False


def _callee_decorator(facts, call):
    """The decorator that makes the function ``call`` names run under no_grad, where this file
    defines one function of that name."""
    from gradlint.analysis.scan import nograd_decorator

    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    found = [d for fn in ast.walk(facts.module) if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
             and fn.name == name for d in [nograd_decorator(fn, facts.imports)]]
    if not found and isinstance(func, ast.Name):
        # (a function of another file of the project: `split_metrics` of utils.py)
        from gradlint.analysis.project import origin

        summary = facts.callee(facts.imports.qualname(func) or func.id)
        other = origin(summary.node) if summary is not None else None
        if other is not None:
            found = [nograd_decorator(summary.node, other.imports)]
            if found[0] is not None:
                other.own(found)  # (named by its file and line)
    return found[0] if len(found) == 1 else None


def _binds(region, name: str) -> bool:
    """Whether ``name`` is bound inside ``region`` (a ``with`` block)."""
    from gradlint.analysis.imports import dotted

    return any(dotted(target) == name for node in ast.walk(region)
               for target in (node.targets if type(node) is ast.Assign else
                              [node.target] if type(node) in (ast.AugAssign, ast.AnnAssign, ast.For) else [])
               for target in ast.walk(target))


def _describe(facts, node) -> str:
    if isinstance(node, (ast.With, ast.AsyncWith)):
        items = ", ".join(facts.code(item.context_expr) for item in node.items)
        return f"under `with {items}` (line {{region}})"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"in `{node.name}()`, which runs without recording autograd (line {{region}})"
    if isinstance(node, ast.Call):
        deco = _callee_decorator(facts, node)
        if deco is not None:
            from gradlint.analysis.project import origin

            other = origin(deco)
            where = f"{other.path.name}, line {deco.lineno}" if other is not None else f"line {deco.lineno}"
            return (f"by `{facts.code(node.func)}(…)` (line {{region}}), which runs without recording "
                    f"autograd (its `@{ast.unparse(deco)}`, {where})")
        return f"by `{facts.code(node.func)}(…)`, which runs without recording autograd (line {{region}})"
    if isinstance(node, (ast.Expr, ast.Assign, ast.AnnAssign)):  # (`ACTIVE = configure_runtime(…)` too)
        from gradlint.analysis.project import import_name, origin

        other = origin(node)
        if other is not None and any(stmt is node for stmt in other.tree.body):
            # (an imported script's own switch, made at its top level)
            return f"after importing `{import_name(other.path)}`, whose top level runs `{facts.code(node)}` (line {{region}})"
        return f"after `{facts.code(node)}` (line {{region}})"
    return "where autograd recorded nothing (line {region})"


# ---- the dynamic pass -------------------------------------------------------------------------

# What the tracer gathers (``dynamic/evidence.KINDS``): the leaves upstream of the tensor switched
# to require grad, which becomes the new leaf itself, through the ops that lost its history.
EVIDENCE = frozenset({"upstream", "switched", "history_loss"})


def probe(probes, flag) -> None:
    """The tensor whose requires_grad is switched on, read before the switch."""
    from gradlint.dynamic.instrument import first_argument, method, receiver

    node = flag.node
    if flag.details.get("copied"):  # (the switch of a copy: read where the values were copied)
        from gradlint.checks.python_roundtrip import probe as copy_probe

        if flag.at is not None:
            copy_probe(probes, flag)
            return
        probes.need("copied_elsewhere")
    if flag.details.get("callee") is not None:  # a call that backpropagates, under no_grad
        probes.need("failed_backward")
        if isinstance(node, ast.Call) and not node.args:
            probes.after(node)  # (`trainer.evaluate()`: what it returns is all there is to read)
            return
    cut = flag.refs.get("cut")
    if isinstance(cut, ast.Call) and method(cut) == "detach_" and cut.lineno <= node.lineno:
        # (`loss.detach_()` then the switch: the same tensor, read with its history before the
        # in-place detach; after it, the record it had is gone)
        probes.before(receiver(cut))
        probes.need("detached_in_place")
    elif isinstance(node, ast.Assign):  # x.requires_grad = True
        probes.statement(node, node.targets[0].value)
    elif method(node) == "requires_grad_":
        probes.before(receiver(node))
    else:  # Variable(features, requires_grad=True): a new leaf copied from the features
        probes.before(first_argument(node))
        probes.after(node)


def decide(tracer, evidence) -> tuple[str, str]:
    """Confirmed when the switch raised PyTorch's inference-tensor error, or when leaves that
    influenced the tensor reached a backward root only through the new leaf."""
    from gradlint.dynamic.verdicts import raised_at, reach

    finding = evidence.finding
    raised = tracer.raised
    if isinstance(raised, RuntimeError) and "inference tensor" in str(raised) \
            and finding["line"] <= raised_at(tracer, raised) <= finding["end_line"]:
        at = f"`{finding['label']}` ({finding['where']})"
        return "confirmed", (f"{at} raised RuntimeError: {str(raised).splitlines()[0]} — the tensor was "
                             "made under inference_mode and has no history")
    if "failed_backward" in evidence.kinds:
        return _failed_inside(tracer, finding) or reach(tracer, evidence, "the values of the tensor", rebuilt=True)
    status, said = reach(tracer, evidence, "the values of the tensor", rebuilt=True)
    if status == "dismissed" and "copied_elsewhere" in evidence.kinds:
        # (no lineage reached the switch through the copy: that proves nothing of the copy)
        return "inconclusive", ("the values of the tensor were copied out of tensors in another file, "
                                "whose lineage the run does not follow to the switch")
    return status, said


def _failed_inside(tracer, finding) -> tuple[str, str] | None:
    """Confirmed where a backward() the flagged call led to raised for want of history while
    recording was off: the error the program may have caught, at the user's line it came from."""
    import os

    path = os.path.realpath(finding["path"])
    for frames, recording, message in tracer.failed_backwards:
        if recording:
            continue
        if any(os.path.realpath(f) == path and finding["line"] <= line <= finding["end_line"] for f, line in frames):
            inner = frames[0][1] if frames else 0
            return "confirmed", (f"the backward() at line {inner}, run by `{finding['label']}` "
                                 f"({finding['where']}) with recording off, raised RuntimeError: {message}")
    return None


def _nearest_region(regions, node):
    """Of the regions a value was computed in (its operands' too), the last one that starts
    before ``node``, else the first: where the switched tensor was most likely made. (A set of
    nodes iterates in an order that changes from run to run: never pick by it.)"""
    def at(region):
        return (getattr(region, "lineno", 0), getattr(region, "col_offset", 0))

    before = [r for r in regions if at(r) <= (node.lineno, node.col_offset)]
    return max(before, key=at) if before else min(regions, key=at)
