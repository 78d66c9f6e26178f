"""Which cuts starve what they cut: a ``.detach()``, ``.data``, no_grad region or rebuild
(``torch.tensor(tensors)``) of values computed from trainables whose result is returned from a
function trained through or becomes a backpropagated loss, where the trainables upstream of it
get no gradient another way.

A detached copy kept for logging never reaches a sink; a stop-gradient beside an attached branch
of the same model (SimSiam), one in front of a different model (a GAN's discriminator step), and
one whose upstream is trained through another loss or output of the module (actor-critic
advantages, a VAE's sample()) are intended. A cut return counts only from a function on a
training path (``uses.py``): a helper whose result the file never trains with exports values.
GL001 reports the cuts of autograd's own mechanisms, GL002 the rebuilds.
"""
from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

from gradlint.analysis.facts import REBUILD, STATE_DICT, STORAGE_REBOUND, UNRECORDED_GRAD, Backward, Cut, Function
from gradlint.analysis.imports import dotted
from gradlint.analysis.project import origin
from gradlint.analysis.scan import ancestors, frozen_owners, is_fresh_copy, literal_false
from gradlint.analysis.flow import LOOPS, _within
from gradlint.analysis.tree import DEFS, enclosing, iter_nodes, once, parents
from gradlint.analysis.values import EMPTY, NOTHING_YET


@dataclass(frozen=True)
class Starved:
    """A cut that starves what it cuts, and where its result is trained through: returned from
    ``function``, or part of the loss of ``backward`` (``models``: the models an optimizer is
    given that computed the helper inputs it cuts, as the callers named them)."""

    cut: Cut
    function: Function | None = None
    backward: Backward | None = None
    models: tuple = ()
    layers: frozenset = frozenset()  # the function's own members run on the cut, where it names them
    # the models the term applies after the cut, none of which the step after the backward updates
    # (a generator's loss of the critic's score of `fake.detach()`): the term trains nothing that steps
    unstepped: tuple = ()
    # a term of the returned loss made of cut values alone (`loss -= beta * snr(est.data, ref)`):
    # the run judges its path missing whatever else trains the leaves
    dead: bool = False


def starved(facts) -> list[Starved]:
    """Each cut of trainables whose result is returned from a function trained through or
    becomes a backpropagated loss, where what it cuts gets no gradient another way; once per cut
    (and per no_grad region and what it starves), and once per line. Computed once per module:
    GL001, GL002 and GL003 each read it."""
    if facts.starved is None:
        facts.starved = _one_per_line(_starved(facts))
    return facts.starved


def _one_per_line(found) -> list[Starved]:
    """`return x_hat, (mu.detach(), logvar.detach())`: one mistake, one finding, naming all
    that the line's copies starve."""
    out, first = [], {}
    for item in found:
        cut = item.cut
        key = (cut.node.lineno, id(cut.function.node) if cut.function is not None else None,
               item.backward is None)
        if cut.kind == "no_grad" and cut.region is not None:
            # (one region, one mistake: the layers computed inside it named in one finding)
            key = ("region", id(cut.region), key[1], key[2])
        if cut.kind in (".detach()", ".data", "no_grad") and key in first:
            at = first[key]
            # (placed at the line's first copy, whichever the walk met first)
            kept = min(out[at].cut, cut, key=lambda c: (c.node.lineno, c.node.col_offset))
            merged = dataclasses.replace(kept, upstream=out[at].cut.upstream | cut.upstream,
                                         keys=out[at].cut.keys | cut.keys)
            out[at] = dataclasses.replace(out[at] if kept is out[at].cut else item, cut=merged)
            continue
        if cut.kind in (".detach()", ".data", "no_grad"):
            first[key] = len(out)
        out.append(item)
    return out


def _switches_root(switch, backward) -> bool:
    """The switch is on the root ``backward`` then backpropagates (`loss.requires_grad = True`,
    then `loss.backward()` or `loss.mean().backward()`)."""
    name = switch.name
    return name is not None and backward.accumulates and backward.function is not None \
        and backward.function.node is switch.function.node \
        and (backward.node.lineno, backward.node.col_offset) > (switch.node.lineno, switch.node.col_offset) \
        and (backward.root == name or backward.root.startswith((name + ".", name + "[")))


def switched(found: Starved, facts):
    """The switch that makes a starved cut's result a new leaf before it is trained through
    (`est = net(x).detach()`, then `est.requires_grad_()`), in the function of the cut: the switch is
    how the user silenced the error the cut would raise, and the finding is GL003's there. Also a
    cut another method of the class stored on ``self`` (``self.cache = {"logits":
    logits.detach()}`` in ``rollout``, switched on in ``update``)."""
    cut = found.cut
    if cut.kind not in (".detach()", ".detach_()", ".data", UNRECORDED_GRAD):
        return None
    if origin(cut.node) is not None and cut.function is not None:
        # (a cut in another file's function, switched on there: `dEdR = -autograd.grad(…)[0]`,
        # then `dEdR.requires_grad_()`, in a loss of another file; that file's switch is the fix
        # the user made, reported through the call as its cut would be)
        switch = _switch_beside(cut)
        site = facts.call_sites.get(cut.node)
        if switch is None or site is None:
            return None
        origin(cut.node).own([switch.node])
        facts.call_sites.setdefault(switch.node, site)
        return switch
    point = (cut.node.lineno, cut.node.col_offset)
    switch = next((s for s in facts.switches
                   if cut.node in s.value.cuts and cut.function is not None and (
                       (s.function.node is cut.function.node and (s.node.lineno, s.node.col_offset) >= point)
                       # (stored on `self` by one method, switched on in another)
                       or (s.function.node is not cut.function.node and s.function.class_name is not None
                           and s.function.class_name == cut.function.class_name)
                       # (returned cut by a helper, switched on where it is backpropagated: `loss,
                       # logs = criterion(…)`, then `loss.requires_grad_()` before `loss.backward()`)
                       or (found.backward is not None and found.backward.function is not None
                           and s.function.node is found.backward.function.node
                           and s.function.node is not cut.function.node)
                       # (gradients a helper returns, switched on by its caller: `penalty =
                       # r1(disc, x)`, then `penalty.requires_grad_(True)`)
                       or (found.backward is None and cut.kind == UNRECORDED_GRAD))), None)
    if switch is not None and found.backward is not None and switch.function.node is not found.backward.function.node \
            and cut.kind != UNRECORDED_GRAD and _returns_name(switch.function.node, switch.name):
        # A helper hands out the new leaf it made of a detached copy (`return
        # z.detach().requires_grad_()`): nothing was silenced there; its caller trains through
        # the copy, and the cut is the mistake (GL001's)
        return None
    return switch


@dataclass(frozen=True)
class ForeignSwitch:
    """A switch in another file's function on the name its cut is bound to (``switched``): what
    GL003 reads of a switch it reports through the call."""
    node: ast.AST
    name: str
    intended_leaf: bool = False


def _switch_beside(cut) -> ForeignSwitch | None:
    """The first `NAME.requires_grad_()` / `NAME.requires_grad = True` after the statement that
    binds a name to the cut (``grads = … cut …``), in the cut's own function, NAME that name or
    one computed from it (``forces = -grads``), not rebound to anything else between; None where
    there is none."""
    body = [n for n in iter_nodes(cut.function.node, into_functions=False) if isinstance(n, ast.stmt)]
    binding = next((n for n in body if type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name
                    and any(x is cut.node for x in ast.walk(n.value))), None)
    if binding is None:
        return None
    names = {binding.targets[0].id}  # (and what is computed from it: `forces = -grads`)
    for stmt in sorted((n for n in body if n.lineno > binding.end_lineno), key=lambda n: (n.lineno, n.col_offset)):
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name:
            target = stmt.targets[0].id
            if any(type(n) is ast.Name and n.id in names for n in ast.walk(stmt.value)):
                names.add(target)
            else:
                names.discard(target)  # (rebound to something else)
            continue
        if type(stmt) is ast.Expr and type(stmt.value) is ast.Call and type(stmt.value.func) is ast.Attribute \
                and stmt.value.func.attr == "requires_grad_" and type(stmt.value.func.value) is ast.Name \
                and stmt.value.func.value.id in names and not (stmt.value.args and literal_false(stmt.value.args[0])):
            return ForeignSwitch(stmt, stmt.value.func.value.id)
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Attribute \
                and stmt.targets[0].attr == "requires_grad" and type(stmt.targets[0].value) is ast.Name \
                and stmt.targets[0].value.id in names and type(stmt.value) is ast.Constant and stmt.value.value is True:
            return ForeignSwitch(stmt, stmt.targets[0].value.id)
    return None


def _returns_name(function, name) -> bool:
    """``function`` returns what ``name`` holds (``return out``), or returns the switch itself
    (``return z.detach().requires_grad_()``: a switch on an expression, ``name`` None)."""
    return any(type(n) is ast.Return and n.value is not None and (
        (name is None and type(n.value) is ast.Call) or (type(n.value) is ast.Name and n.value.id == name))
        for n in iter_nodes(function, into_functions=False))


def _starved(facts) -> Iterator[Starved]:
    from gradlint.analysis.uses import Program, Uses

    reported = set()
    if not any(cut.upstream for cut in facts.cuts.values()):
        return  # nothing starves a trainable: the use analysis below is the costly part
    if facts.whole_program and not facts.backwards and not facts.optimized and not facts.optimizers_open:
        return  # a notebook that never backpropagates and builds no optimizer trains nothing
    program = Program(facts)
    sinks = _sinks(facts, program)
    uses = None
    for ret in facts.returns:
        fn = ret.function
        if fn.name == "<module>" or fn.nograd or fn.trains_locally:
            continue
        if not _may_break(ret, facts):
            continue
        uses = uses or Uses(facts, program)
        # What is itself differentiated (a training step's or a loss function's result) is
        # trained through, whatever else the module returns attached.
        differentiated = uses.reaches_backward(fn.node)
        elsewhere = [] if differentiated else _elsewhere(sinks, ret.node, cls=fn.class_name, facts=facts)
        # Each element of a returned tuple is an output of its own (`return logits,
        # aux_logits.detach()`), except state the callers hand back into the next call (TBPTT's hidden).
        state = program.handed_back(fn) if ret.parts else set()
        # (so is each value of a returned dict: `return {"critic": …(fake.detach()), "generator":
        # …(fake)}`, a GAN's two losses)
        elements = ret.parts or _returned_fields(ret.value)
        parts = ([value for i, (expr, value) in enumerate(elements) if i not in state]
                 if elements else [ret.value])
        for value in parts:
            # A detached by-product of what a sibling output trains (`return loss, logits.detach()`).
            # (a loss module's `return loss, {"bce": bce.detach()}`: the loss keeps its inputs attached;
            # so does another return of the same shape: `return output, None` before `return
            # output, loss`, the callers unpacking both alike)
            at = next((i for i, (_, v) in enumerate(ret.parts) if v is value), None)
            siblings = frozenset().union(*(other.trainables | other.inputs | other.post for _, other in elements if other is not value),
                                         *(_beside_in_other_returns(ret, at, facts) if at is not None else ()))
            for copied in [facts.cuts[c] for c in value.cuts if c in facts.cuts and facts.cuts[c].kind == REBUILD]:
                own = _copies_own_layers(copied, value, siblings, elsewhere, fn, facts)
                if copied.node not in reported and (value.trainables or value.post) \
                        and (own or _copies_activations(copied, fn, facts)):
                    # `x = torch.tensor(x)` in a layer that a stack of layers hands its activations
                    # (`x = layer(x)` in a loop): every layer before it gets no gradient through it,
                    # whatever the layer's own weights do with the copy (a whole output copied is
                    # judged where a loss is made of it, below)
                    reported.add(copied.node)
                    yield Starved(copied, function=fn, layers=value.post)
            # (a copy of parameters' values returned, `cat([p.data.view(-1) for p in
            # model.parameters()])`, is a snapshot of the model, not a cut of a path it trains by)
            broken = [cut for cut in _broken(value, facts, lambda cut: elsewhere, program)
                      if not _of_parameters(cut, facts)]
            if value.rebuilt or any(facts.cuts[c].kind == REBUILD for c in value.cuts if c in facts.cuts):
                # (as for a backpropagated loss, below: a cut beside a copy, of a model the
                # result still trains through another term, starves nothing the copy's fix
                # would not restore)
                broken = [c for c in broken if c.kind == REBUILD or not _overlap(facts.resolve(c.upstream), facts.resolve(value.trainables))]
            for cut in broken:
                if cut.of_module_input and not (
                        cut.function is not None and cut.function is not fn and fn.class_name is not None
                        and cut.function.class_name == fn.class_name
                        and any(r.startswith("self.") for r in cut.upstream)
                        and not _overlap(cut.upstream, value.trainables)):
                    # (what the callers' losses train through the module judges it; not a method
                    # of the class handed its own members' output, `self.project(out)`, where
                    # nothing the method returns beside it keeps them attached)
                    continue
                own_decorated = _method_run_unrecorded(cut) and cut.function.node is not fn.node \
                    and cut.function.class_name == fn.class_name \
                    and (differentiated or _differentiated_elsewhere(fn, facts))
                if cut.kind == "no_grad" and not own_decorated and not _decorated_module(cut) and not (
                        cut.node in facts.cuts and cut.upstream < facts.cuts[cut.node].upstream
                        and _optimized(cut, facts) and not cut.upstream & _run_in_region(cut)) \
                        and not _mid_path_of_a_model_trained_elsewhere(cut, value, facts):
                    # evaluation returns no_grad results by design: only a loss speaks (not the
                    # members of a model an optimizer of the file trains, run before the region,
                    # whose only path runs through what the region takes from them: a loss sees
                    # the model whole and cannot name them)
                    continue
                if cut.kind == STATE_DICT:
                    continue  # (a snapshot of the weights returned, to save or load: only a loss speaks)
                if cut.truncates and value.post:
                    # a loop of the function cut between its iterations, each stage applied to
                    # the cut state (SinGAN's scales, truncated recurrence): on purpose
                    continue
                if cut.carried and cut.loop is not None and _overlap(cut.upstream, value.trainables):
                    # (`coords1 = coords1.detach()` at the top of each refinement step, RAFT's:
                    # state the loop carries cut between its iterations, each of which trains
                    # what computed it through its own outputs)
                    continue
                if differentiated and (_trained_by_another_loss(cut, value.cuts[cut.node], facts)
                                       or _trained_by_another_return(cut, value, ret, facts, uses)
                                       or _kept_out_of_an_objective(cut, value, ret, facts, uses)):
                    continue
                if origin(cut.node) is not None and (elements or cut.hooked or (
                        type(ret.node.value) is ast.Call and _returns_tuples(cut.function))):
                    # (a member's cut another file's class returns in a tuple, returned on in one
                    # here, or whole, `return self.yolo(x, targets)`, or what another file's
                    # forward hook keeps: a tap on a backbone this class builds in eval mode for a
                    # closed-form head; what the callers' losses build from it judges it, not
                    # this return)
                    continue
                if not ret.parts and elements and not (value.trainables or value.inputs or value.post) \
                        and any(other.trainables or other.inputs for _, other in elements if other is not value):
                    # (a key holding a detached copy beside a key that keeps a graph: a loss
                    # module's `{"loss": …, "debug_metric": logit_scale.detach()}`, for logging)
                    continue
                if elements and cut.upstream - _settings(fn, facts) <= siblings \
                        and not (cut.through_cut and cut.node in value.dead):
                    # (a copied score added alone to the returned loss is a dead term of it,
                    # whatever the logits beside it train)
                    continue
                if elements and _held_beside(cut, fn, siblings, facts):
                    continue  # (as above, a submodule's members: `self.gcn` attached in a sibling)
                members = _nested_input_cut(cut, fn, facts)
                if members and cut.function.name != "forward":
                    # (a helper's cut beside the same members kept attached: `p, stopgrad(z)`)
                    members -= value.trainables | value.post | siblings
                    if not members:
                        continue
                if members:
                    # `self.head(self.pool(self.encoder(x)))` where the pool's forward returns its
                    # input's statistics detached: what it starves is this model's own members
                    if cut.node not in reported and uses.trained_through(fn.node):
                        reported.add(cut.node)
                        yield Starved(dataclasses.replace(cut, upstream=members), function=fn)
                    continue
                # (a model the module freezes, a perceptual loss's feature extractor, keeps
                # nothing trainable attached beside the cut)
                if any(name.endswith("@input") for name in cut.upstream) and (
                        fn.name != "forward" or value.post - facts.frozen
                        or _beside_input(cut, value.cuts[cut.node] - facts.frozen)):
                    continue  # only a forward's whole output cut from its own input is that sure
                if all(name.endswith("@input") for name in cut.upstream) and any(
                        backward.value.cuts.get(cut.node) and cut.node not in backward.value.dead
                        for backward in facts.backwards):
                    # (an assigner's `return iou.detach()` that a loss of the file regresses the
                    # quality logits onto: the use there says it is a target)
                    continue
                if _handed_no_history(cut, fn, facts):
                    continue  # every call of the module hands it values without history
                if (_input_copies(cut, fn) or _makes_input_leaf(fn)) and not _optimized(cut, facts):
                    # a leaf made of its own input to take the input's gradient: what it returns
                    # cut is a step in input space (an attack's image), no model's output
                    continue
                if (cut.of_computed_input or _returns_cut_local(ret, cut)) and not value.inputs:
                    # A whole output computed from the inputs and cut (a data-dependent
                    # initialization's `F.linear(x, v).data`): reported only as a dead term
                    # beside terms still attached to the inputs (`ce - h(p.detach())`).
                    continue
                if not (own_decorated or uses.trained_through(fn.node)):
                    continue  # an export: features for a probe, kNN, a plot; nothing here trains with it
                if fn.class_name is not None and fn.name in ("forward", "__call__") and cut.upstream and all(
                        f"{fn.class_name}.{name}" in facts.handed_members for name in cut.upstream):
                    # `return self.wrapped(x).detach()` of a module its constructor is handed: a
                    # wrapper that keeps its caller's gradient out of a model it does not own
                    continue
                if cut.hooked and fn.class_name is not None and _runs_handed_member(fn, facts):
                    # (the same wrapper reading a layer of the handed model by a forward hook:
                    # `self.submodule(x)` run for what the hook keeps of one of its layers)
                    continue
                if cut.function is not None and cut.function.node is not fn.node and any(
                        other.function.node is cut.function.node and cut.node in other.value.cuts for other in facts.returns) \
                        and not (own_decorated and not uses.reaches_backward(cut.function.node)):
                    # the function the cut is in returns it too: named there (but a no_grad
                    # result is judged only where a loss is returned: a decorated forward called
                    # by the training step whose result the trainer differentiates)
                    continue
                if _hands_out(cut, fn, program) or cut.node in reported:
                    continue
                reported.add(cut.node)
                # (named by what loses its only path: `return mu, log_sigma.detach()` starves the
                # layer only `log_sigma` came from, not the trunk `mu` keeps attached)
                # (`self.n_experts * probs.mean(0)`: a setting the constructor stores is no member)
                settings = _settings(fn, facts)
                alone = cut.upstream - siblings - value.trainables - value.post - settings if elements else set()
                named = alone or (cut.upstream - settings) or cut.upstream
                yield Starved(dataclasses.replace(cut, upstream=named) if named != cut.upstream else cut,
                              # (a term of cut values alone in the sum it returns adds no gradient,
                              # whoever differentiates it: `rank + w * calib(item_tower(x).detach())`)
                              function=fn, dead=dead_in(cut, value))

    regions = set()
    for backward in facts.backwards:
        # (a cut in a method of a class is weighed against what trains its own instances' members)
        per_class = {cls: _elsewhere(sinks, backward.node, backward, cls=cls, facts=facts)
                     for cls in {None} | {facts.cuts[n].function.class_name for n in backward.value.cuts
                                          if n in facts.cuts and facts.cuts[n].function is not None}}
        broken = list(_broken(backward.value, facts, lambda cut: per_class.get(
            cut.function.class_name if cut.function is not None else None, per_class[None]), program, at_loss=True,
            switched=any(_switches_root(s, backward) for s in facts.switches)))
        broken += [facts.cuts[node] for node in backward.value.cuts
                   if node in facts.cuts and facts.cuts[node] not in broken
                   and (_feeds_only_what_is_not_stepped(facts.cuts[node], backward, facts)
                        # (the actor's log-probabilities beside the critic that cut its actions
                        # keep it attached, not the critic's term)
                        or (facts.cuts[node].of_module_input
                            and _trains_through_an_untrained_module(facts.cuts[node], backward, facts)))]
        # Where the loss holds a copy or a rebuild (GL002's), a cut beside it of a model the loss still trains
        # through another term (the critic's advantages, detached or computed under no_grad, in
        # a term made dead by the copied log-probabilities) starves nothing that fixing the copy
        # would not restore.
        attached = backward.value.trainables
        if backward.value.rebuilt or any(facts.cuts[c].kind == REBUILD for c in backward.value.cuts if c in facts.cuts):
            broken = [c for c in broken if c.kind == REBUILD or not _overlap(facts.resolve(c.upstream), facts.resolve(attached))]
        here = []
        for cut in sorted(broken, key=lambda c: (c.node.lineno, c.node.col_offset)):
            if cut.of_module_input and not _trains_through_an_untrained_module(cut, backward, facts):
                continue
            if _guarded_by_its_call(cut, backward, facts):
                continue
            if _probed_inputs(cut, backward, facts):
                # (`rln(x)` of a leaf made to read `x.grad`: whether the module's stop-gradient
                # holds is what the caller looks at, and a None there is no silent failure)
                continue
            if backward.asks is not None and not _overlap(facts.resolve(cut.upstream), facts.resolve(backward.asks)):
                continue  # (`autograd.grad(l1, list(actor.parameters()))` asks nothing of the critic)
            if _not_stepped(cut, backward, facts) or _trains_only_after_the_cut(cut, backward, facts):
                # a bootstrap target, a discriminator step's `D(fake.detach())`: the optimizers
                # stepped after this loss's backward hold none of what the cut starves
                continue
            if _trained_by_another_loss(cut, backward.value.cuts[cut.node], facts, backward) \
                    and not dead_in(cut, backward.value) \
                    and not _feeds_only_what_is_not_stepped(cut, backward, facts) and not (
                        not backward.value.trainables and any(
                            cut.node in s.value.cuts and _switches_root(s, backward) for s in facts.switches)):
                # (a dead term adds no gradient whatever another loss trains, nor does a term of
                # models the step after it does not update (a generator's loss of `D(fake.detach())`);
                # nor does a loss wholly cut whose requires_grad the user switched on to
                # backpropagate it)
                continue
            if _objective_alone(cut, backward) and _forward_trains_it(cut, facts):
                # (a module's own objective backpropagated alone, `m.compute_one_iter().backward()`,
                # kept off the members its forward trains; added beside the forward's output as a
                # term of its own, it is a dead term)
                continue
            if backward.loop is not None and cut.loop is backward.loop and cut.carried:
                continue  # truncated backpropagation: state cut between iterations on purpose
            if not backward.accumulates and any(cut.node in switch.value.cuts for switch in facts.switches):
                # `x = x.detach().requires_grad_()`, then `autograd.grad(energy(x), x)`: a leaf
                # made to take the gradient with respect to it (a score, a guidance or attack step)
                continue
            if _leaf_replaced(cut, facts):
                continue  # `X = rand_stride(X)`: the leaf given is replaced by the new leaf made of it
            if _unknown_origin(cut, backward, facts):
                # (`value.detach()` of a critic's outputs read back from a list the model keeps,
                # in a plain update function: what computed them is no model this file names,
                # and the value loss beside it trains them as they are)
                continue
            if cut.kind == "no_grad":
                # One finding per region, placed at its `with`: `q_sa` and the bootstrap `q_next`
                # (or two heads) computed in one `with torch.no_grad():` are one mistake, fixed
                # by moving what trains out of it.
                region = cut.region
                if region in regions:
                    continue
                regions.add(region)
            # (two cuts of one statement inside one call of another file's function,
            # `y_pred.detach(), y.detach()`, are one finding at that call; statements of their own
            # are mistakes of their own)
            call = facts.call_sites.get(cut.node)
            statement = _statement_of(cut) if call is not None else None
            if cut.node not in reported and (call is None or (call, statement) not in reported):
                reported.add(cut.node)
                if call is not None:
                    reported.add((call, statement))
                # (named as the user wrote them: `critic`, `self.disc`)
                unstepped = tuple(sorted(m for m in _applied_trained(backward, facts)
                                         if all(part.isidentifier() for part in m.split("."))
                                         )) if _feeds_only_what_is_not_stepped(cut, backward, facts) else ()
                here.append(Starved(cut, backward=backward, models=tuple(_trainers(cut, facts)), unstepped=unstepped))
        blamed = _blamed(here, backward, facts)
        # (a cut not blamed here may be another loss's finding)
        reported -= {found.cut.node for found in here if found not in blamed}
        yield from blamed


def _blamed(founds: list, backward, facts) -> list:
    """Of the cuts of one loss, those to blame: where a dead term holds a cut of a model that gets
    no gradient from the loss at all (the policy run under no_grad), the cuts beside it of models
    the loss trains through another term (the baseline's `value.detach()` in the advantage) are
    intended; fixing the first makes the term live."""
    attached = facts.resolve(backward.value.trainables)
    dead = [f for f in founds if dead_in(f.cut, backward.value)]
    starving = [f for f in dead if not _overlap(facts.resolve(f.cut.upstream), attached)]
    if not starving:
        return founds
    return [f for f in founds if f in starving or f not in dead]


def _settings(fn, facts) -> set:
    """The attributes ``fn``'s class binds in ``__init__`` to a name or a constant only (`self.n_experts
    = n_experts`): settings, not members that hold parameters."""
    from gradlint.analysis.scan import scan_classes

    info = scan_classes(facts.module, facts.imports).get(fn.class_name) if fn.class_name is not None else None
    init = next((s for s in info.node.body if type(s) in DEFS and s.name == "__init__"), None) \
        if info is not None and info.node is not None else None
    if init is None:
        return set()
    bound: dict = {}
    for node in iter_nodes(init, into_functions=False):
        if type(node) is ast.Assign:
            for target in node.targets:
                if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self":
                    plain = type(node.value) in (ast.Name, ast.Constant)
                    bound[f"self.{target.attr}"] = bound.get(f"self.{target.attr}", True) and plain
    # (a model handed to the constructor, `self.model = model`, is called or read through: no setting)
    used = {dotted(n.value) for n in ast.walk(info.node) if type(n) is ast.Attribute and type(n.value) is ast.Attribute} \
        | {dotted(n.func) for n in ast.walk(info.node) if type(n) is ast.Call}
    return {name for name, plain in bound.items() if plain and info.attrs.get(name) is None and name not in used}


def _statement_of(cut) -> int:
    """The statement holding the cut (its node's id; the cut's own where its function is unknown)."""
    if cut.function is None:
        return id(cut.node)
    up = parents(cut.function.node)
    node = cut.node
    while node in up and not isinstance(node, ast.stmt):
        node = up[node]
    return id(node)


def _input_copies(cut, fn) -> bool:
    """Every name the cut starves is a leaf the function makes of its own input, on purpose
    (`x = x.detach().requires_grad_()` to take a guidance or attack gradient): a copy of data,
    no parameter to train."""
    params = {a.arg for a in (*fn.node.args.posonlyargs, *fn.node.args.args, *fn.node.args.kwonlyargs)} \
        if type(fn.node) in (ast.FunctionDef, ast.AsyncFunctionDef) else set()
    if not params or not cut.upstream:
        return False
    copies = set()
    for node in ast.walk(fn.node):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            value = node.value
            if not (type(value) is ast.Call and type(value.func) is ast.Attribute
                    and value.func.attr == "requires_grad_" and not value.args):
                continue
            base = value.func.value
            if not is_fresh_copy(base):
                continue
            while type(base) in (ast.Call, ast.Attribute):
                base = base.func.value if type(base) is ast.Call else base.value
            if type(base) is ast.Name and base.id in params:
                copies.add(node.targets[0].id)
    return cut.upstream <= copies


def _leaf_replaced(cut, facts) -> bool:
    """The cut is inside another function whose calls here bind their results back to the very
    leaves it starves (`B = rand_stride(B)`, `C = rand_stride(C)`, the helper returning a new
    leaf made of its input): the old leaves are gone, and nothing holds them (no optimizer of
    the file)."""
    call = facts.call_sites.get(cut.node)
    if type(call) is not ast.Call or _optimized(cut, facts):
        return False
    rebound = once("rebinding-calls", facts.module, _rebinding_calls).get(dotted(call.func), set())
    names = {name.split("@")[0] for name in cut.upstream}
    return bool(names) and names <= rebound and names <= facts.leaves


def _rebinding_calls(module) -> dict:
    """Called function -> the names its calls are bound back to (`X = f(X)`)."""
    found: dict = {}
    for node in ast.walk(module):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and type(node.value) is ast.Call and any(type(a) is ast.Name and a.id == node.targets[0].id
                                                         for a in node.value.args):
            found.setdefault(dotted(node.value.func), set()).add(node.targets[0].id)
    return found


def _makes_input_leaf(fn) -> bool:
    """The function switches requires_grad on for one of its own parameters, as given or in a
    fresh copy (`image.requires_grad = True`, `x.requires_grad_()`, `x.clone().requires_grad_(True)`):
    it takes the gradient with respect to its input, an attack's or a saliency map's step."""
    node = fn.node
    if type(node) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return False
    params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)} - {"self", "cls"}
    for inner in ast.walk(node):
        if type(inner) is ast.Assign and any(type(t) is ast.Attribute and t.attr == "requires_grad"
                                             and type(t.value) is ast.Name and t.value.id in params
                                             for t in inner.targets) \
                and type(inner.value) is ast.Constant and inner.value.value is True:
            return True
        if type(inner) is ast.Call and type(inner.func) is ast.Attribute and inner.func.attr == "requires_grad_" \
                and not (inner.args and type(inner.args[0]) is ast.Constant and inner.args[0].value is False):
            base = inner.func.value
            if is_fresh_copy(base):
                while type(base) in (ast.Call, ast.Attribute):
                    base = base.func.value if type(base) is ast.Call else base.value
            if type(base) is ast.Name and base.id in params:
                return True
    return False


def _returns_cut_local(ret, cut) -> bool:
    """``return emb.detach()`` of a local computed from the forward's inputs (``emb =
    torch.cat((x.sin(), x.cos()), -1)``): the whole output, a fixed featurization of its inputs cut
    from them, as a data-dependent initialization's ``.data`` is."""
    returned = ret.node.value
    if returned is not cut.node or type(returned) is not ast.Call or type(returned.func) is not ast.Attribute:
        return False
    operand = returned.func.value
    fn = ret.function.node
    given = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]} \
        if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef) else set()
    return type(operand) is ast.Name and operand.id not in given and bool(cut.upstream) \
        and all(name.endswith("@input") for name in cut.upstream)


def _unknown_origin(cut, backward, facts) -> bool:
    """A cut, outside a module's ``forward``, of values nothing names the origin of (read from a
    container, no caller hands them from a model), where another loss of the same function
    backpropagates such values still attached: what computed them may well train there."""
    fn = cut.function
    if fn is None or fn.name in ("forward", "__call__") or not cut.upstream:
        return False
    if not all(name.endswith("@input") for name in cut.upstream) or _by_callers(cut.upstream, cut, facts) \
            or _trainers(cut, facts):
        return False
    return any(other is not backward and other.function is not None and other.function.node is fn.node
               and other.value.live for other in facts.backwards)


def _feeds_only_what_is_not_stepped(cut, backward, facts) -> bool:
    """A generator step's `mse(fake, real) + w * bce(D(fake.detach()), 1)`: the models the loss
    applies after its cuts (the discriminator) are none of what the optimizers stepped after it
    update, and what this cut starves is: the term trains nothing that steps, and takes the
    stepped model's gradient out of it."""
    if backward.stepped is None or backward.open_step or not cut.upstream or cut.kind == "no_grad":
        return False
    after = facts.resolve(backward.value.post - facts.frozen)
    owner = backward.function.class_name if backward.function is not None else None
    # (a member a method applies, `self.dec`, is stepped by its coverage key, `DGTrainer.self.dec`)
    after |= {f"{owner}.{name}" for name in after if owner and name.startswith("self.")}
    # (a helper's input, `fake@input`: the model its callers computed it with)
    starved = cut.keys | facts.resolve(cut.upstream) | _by_callers(cut.upstream, cut, facts)
    return bool(_applied_trained(backward, facts)) and not (after & backward.stepped) \
        and bool(starved & backward.stepped)


def _applied_trained(backward, facts) -> set:
    """The models a loss applies after its cuts that an optimizer of the file trains, the
    discriminator (a module no optimizer holds, a memory bank of buffers applied to the detached
    projections, is no other model's step)."""
    after = facts.resolve(backward.value.post - facts.frozen)
    return {m for m in after if m in facts.optimized or any(k.endswith("." + m) for k in facts.optimized)}


def _trains_through_an_untrained_module(cut, backward, facts) -> bool:
    """The optimizers stepped after ``backward`` update what computed the input a module's method
    detached (the actor), and none of what the loss keeps attached beside it (the critic whose
    forward cut the actions): the loss exists to train the one through the other, and the cut
    leaves it nothing. Elsewhere a module's stop-gradient on its input is a design."""
    stepped = backward.stepped
    if stepped is None or backward.open_step:
        return False
    companions = facts.resolve(backward.value.cuts.get(cut.node, EMPTY) | backward.value.post) \
        - facts.resolve(cut.upstream)
    owner = backward.function.class_name if backward.function is not None else None
    # (a member named in a method, `self.criterion`, is stepped by its coverage key)
    companions |= {f"{owner}.{name}" for name in companions if owner and name.startswith("self.")}
    return bool(_with_owners(cut.keys | facts.resolve(cut.upstream)) & stepped) \
        and not _with_owners(companions) & stepped


def _trains_only_after_the_cut(cut, backward, facts) -> bool:
    """No step follows this backward where it is called, and the loss carries no history but
    that of models applied after the cut, which an optimizer of the file holds (a
    discriminator's loss of `disc(z.detach())` and `disc(permute(z2))`, backpropagated in a
    helper whose caller steps): a discriminator step, not one of what the cut starves."""
    value = backward.value
    if backward.stepped is not None or backward.open_step or value.trainables or value.inputs or value.live:
        return False
    after = value.post - facts.frozen
    return bool(after) and not _overlap(cut.upstream, after) and bool(facts.resolve(after) & facts.optimized)


def _not_stepped(cut, backward, facts) -> bool:
    """The optimizers stepped right after this backward are known, and none of them updates
    what the cut starves: the loss trains another model (a critic's, with a target computed
    from the actor under no_grad)."""
    if backward.stepped is None or backward.open_step or _hooked(cut, facts):
        return False
    # (a model the same loss trains another way, applied after a cut, `V(states.detach())`
    # regressed onto `targets.detach()` built from V: its step is its own loss's, not the cut's)
    here = backward.value.post
    upstream = cut.upstream - here
    if not upstream:
        upstream, here = cut.upstream, frozenset()
    keys = {k for k in cut.keys if not any(k == h or k.endswith("." + h) for h in here)}
    # (a helper's input, `values@input`, is starved as the models its callers computed it with)
    starved = _with_owners(keys | facts.resolve(upstream)) | _by_callers(upstream, cut, facts)
    # (a class of another file is keyed by its module too, `decoder.IngredientDecoder.*`, where
    # the optimizer is built; the cut inside it keys it by its name)
    stepped = backward.stepped | {".".join(k.split(".")[-2:]) for k in backward.stepped if k.endswith(".*")}
    # (a class of this file built as a member of a stepped one, `self.encoder = Encoder()` in
    # `VAE`, is stepped with it)
    members = once("member-classes", facts.module, _member_classes, facts.imports)
    stepped = stepped | {f"{m}.*" for k in stepped if k.endswith(".*") for m in members.get(k[:-2], ())}
    # (and a member stepped by name, `Adam(self.enc.parameters())` in a `Trainer` whose
    # `__init__` builds `self.enc = Enc()`: the class of that member, and its own members)
    held = once("member-attributes", facts.module, _member_attributes, facts.imports)
    for k in list(stepped):
        owner, _, member = k.partition(".self.")
        cls = held.get(owner, {}).get(f"self.{member}") if member and "." not in member else None
        if cls is not None:
            stepped = stepped | {f"{cls}.*"} | {f"{m}.*" for m in members.get(cls, ())}
    # (a member of what the cut starves, `self.model.generator` of a cut of `self.model`'s output,
    # is starved with it)
    # (not a class's coverage key, `dgi.Classifier.*` of a file named like the model)
    return not (starved & stepped) and not any(k.startswith(name + ".") and not k.endswith(".*")
                                               for name in starved for k in stepped)


def _held_beside(cut, fn, siblings, facts) -> bool:
    """The cut is in a method of a member's class (`GraphConv.build_adj`, reached through
    `self.gcn(…)`), every name it starves is that member's own, and a sibling element of the
    returned tuple keeps the member attached (`item_semantic_emb` from `self.gcn`): its members
    train through that element, the cut element is a stop-gradient output of its own."""
    owner = cut.function.class_name if cut.function is not None else None
    if owner is None or fn.class_name is None or owner == fn.class_name \
            or not cut.upstream or not all(u.startswith("self.") for u in cut.upstream):
        return False
    holders = once("member-attributes", facts.module, _member_attributes, facts.imports).get(fn.class_name, {})
    members = once("member-classes", facts.module, _member_classes, facts.imports)
    return any(name in siblings and (held == owner or owner in members.get(held, ()))
               for name, held in holders.items())


def _member_attributes(module, imports) -> dict:
    """Class -> {``self.x``: the class of this file (or by name, of another) it holds there}.
    (A class of another file is keyed by its own name inside it, `encoder.AttnPoolEncoder` as
    `AttnPoolEncoder`; torch's modules hold none of this file's cuts.)"""
    from gradlint.analysis.scan import scan_classes

    classes = scan_classes(module, imports)
    return {name: {attr: m.qualname if m.qualname in classes else m.qualname.rpartition(".")[2]
                   for attr, m in info.attrs.items()
                   if m is not None and (m.qualname in classes or not m.qualname.startswith("torch."))}
            for name, info in classes.items()}


def _member_classes(module, imports) -> dict:
    """Class -> the classes (of this file, or by name of another) its instances hold as
    members, at any depth."""
    direct = {name: set(held.values()) for name, held in once("member-attributes", module, _member_attributes, imports).items()}
    out = {}
    for name in direct:
        seen, todo = set(), list(direct[name])
        while todo:
            member = todo.pop()
            if member not in seen and member != name:
                seen.add(member)
                todo.extend(direct.get(member, ()))
        out[name] = seen
    return out


def _hooked(cut, facts) -> bool:
    """A cut a forward hook makes of the hooked module's output: what computed that output is
    whatever the module was called on, which no name here tells (so no step can be said to
    leave it out; nor the layer's own, where the hook is on one of its object's members)."""
    return cut.hooked and any(name.endswith("@input") for name in cut.upstream)


def _models(names) -> set:
    """What trains among a cut's companions: a forward input (``target@input``) beside a cut is
    data the caller hands in, not another model."""
    return {name for name in names if not name.endswith("@input")}


def _beside_input(cut, companions) -> bool:
    """In a forward, something trainable stays attached beside a cut of its input: a model, or
    inputs the cut value shapes the gradient of (``flow.scaled``: a temperature or a weight
    computed from detached similarities, multiplied into the attached ones; a target a loss
    compares the prediction with); or the very inputs the cut was computed from."""
    return bool(_models(companions)) or bool(companions & cut.upstream) or any(
        name.endswith("@input") for name in companions)


def _parameters(node) -> set[str]:
    params = node.args
    return {p.arg for p in [*params.posonlyargs, *params.args, *params.kwonlyargs]}


def _hands_out(cut, fn, program) -> bool:
    """`def f(model, x): model.eval(); return model(x).detach()` hands out results; so does a
    method that puts the model its class is handed in eval mode (`self.model.eval()`, with
    `self.model = model` in `__init__`), in a class that builds and steps no optimizer: an
    explainer's masks, an evaluator's predictions."""
    if not program.evaluates(fn.node):
        return False
    if fn.class_name is None or {u.split("@")[0] for u in cut.upstream} <= _parameters(fn.node):
        return True
    cls = program.class_of.get(id(fn.node))
    return cls is not None and _evaluates_what_it_is_handed(fn.node, cls) and not _optimizes(cls)


def _evaluates_what_it_is_handed(method, cls) -> bool:
    """The method puts in eval mode a member the class does not build (``self.model.eval()``,
    the model handed to its constructor or to a base class's)."""
    built = {dotted(t) for n in ast.walk(cls) if type(n) is ast.Assign and type(n.value) is ast.Call
             for t in n.targets}
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "eval"
               and (dotted(n.func.value) or "").startswith("self.") and dotted(n.func.value) not in built
               for n in ast.walk(method))


def _optimizes(cls) -> bool:
    """The class builds an optimizer or steps one (`.step()`, `torch.optim.…`)."""
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and (
        n.func.attr == "step" or (dotted(n.func.value) or "").split(".")[-1] == "optim"
        or (dotted(n.func) or "").startswith(("torch.optim.", "optim."))) for n in ast.walk(cls))


def _sinks(facts, program=None) -> dict:
    """Where a value leaves the code to be trained through: backward roots, and tensors
    returned from functions. Sink node -> (the trainables attached there, the Backward or None).
    (Not an element of a returned tuple that every caller drops: `logits, _ = model(x, y)`.)"""
    sinks = {backward.node: (backward.differentiated, backward) for backward in facts.backwards}
    for ret in facts.returns:
        if ret.function.name != "<module>" and ret.value.tensor and not _internal(ret.function, facts):
            dropped = program.discarded(ret.function) if program is not None and ret.parts else set()
            trainables = ret.value.trainables if not dropped else frozenset().union(
                *(value.trainables for i, (_, value) in enumerate(ret.parts) if i not in dropped))
            sinks[ret.node] = (trainables, None)
    return sinks


def _internal(function, facts) -> bool:
    """A method the class's own methods call (`self.learn_offset(…)`) and no one else does: what
    it returns is trained where they take it, not where it returns."""
    if function.class_name is None or function.name.startswith("__") or function.name == "forward":
        return False
    calls = once("method-calls", facts.module, _method_calls).get(function.name)
    project = facts.imports.project
    return bool(calls) and calls == {"self"} and not (project is not None and project.called_elsewhere(function.name))


def _method_calls(module) -> dict:
    """Method name -> how the module uses it: called on `self` ("self"), or on anything else or
    handed on as a value (`hook=self.f`: "other")."""
    called = {id(node.func) for node in ast.walk(module) if type(node) is ast.Call}
    found = {}
    for node in ast.walk(module):
        if type(node) is ast.Attribute:
            on_self = type(node.value) is ast.Name and node.value.id == "self" and id(node) in called
            found.setdefault(node.attr, set()).add("self" if on_self else "other")
    return found


def _elsewhere(sinks: dict, here, backward: Backward | None = None, cls: str | None = None, facts=None) -> list:
    # (a method of another class returns its own instances' members: `self.wide` of a subclass
    # that overrides `forward` is trained there, not in an instance of this class; a base class's
    # method is inherited, and trains this class's members too)
    other = {ret.node for ret in facts.returns if ret.function.class_name not in (None, cls)
             and ret.function.class_name not in ancestors(cls, facts.module)} \
        if cls is not None and facts is not None else ()
    return [sink for node, sink in sinks.items()
            if node is not here and not (backward is not None and sink[1] is not None and _apart(backward, sink[1]))
            and not (node in other and all(r.startswith("self") for r in sink[0]))]


def _apart(here: Backward, other: Backward) -> bool:
    """``other`` runs in the function of ``here`` but in a phase of its own: ``here`` repeats in
    a loop that ``other`` is outside of, and no loop runs both (a loop that trains on a cut,
    then one more step after it). What ``other`` trains gets no gradient while that loop runs;
    a backward of another loss that alternates with it (a GAN's two steps, in one loop or in
    two functions) does train it."""
    fn = here.function.node
    if here.loop is None or other.function.node is not fn or other is here:
        return False
    return not any(_within(here.node, loop) and _within(other.node, loop)
                   for loop in iter_nodes(fn, into_functions=False) if isinstance(loop, LOOPS))


def dead_in(cut, loss) -> bool:
    """The cut reaches ``loss`` in a term of cut values only, beside attached terms: that term
    adds a number and no gradient."""
    return not loss.post and bool(loss.trainables or loss.inputs) and (
        not loss.cuts.get(cut.node) or cut.node in loss.dead)


def _trained_elsewhere(cut, elsewhere: list, facts) -> frozenset:
    """The trainables the other sinks train, but for a backward whose following steps are known
    and update none of what the cut starves: the actor's loss runs through the critic, and only
    the actor's optimizer steps on what it leaves in the critic's gradients."""
    starved = None
    found = set()
    for trainables, backward in elsewhere:
        if backward is not None and backward.stepped is not None and not backward.open_step:
            starved = cut.keys | facts.resolve(cut.upstream) if starved is None else starved
            if not (starved & backward.stepped):
                continue
        found |= trainables
    return frozenset(found)


def _trained_by_another_loss(cut, companions, facts, here: Backward | None = None) -> bool:
    """A stop-gradient between two models in a loss that is differentiated (a discriminator's
    loss helper, ``D(G(z).detach())``), where a backward of another loss, one that carries no cut
    of this one, trains what the cut starves (the generator's own loss)."""
    starved = facts.resolve(cut.upstream)
    others = facts.resolve(_models(companions)) - starved
    if not others or any(r == "self" or r.startswith("self.") for r in starved | others):
        return False  # (members of one object: only its own walk tells what trains them)
    siblings = _cut_by(cut, facts)
    backwards = [(backward.differentiated, backward) for backward in facts.backwards
                 if cut.node not in backward.value.cuts and not (backward.value.cuts.keys() & siblings)
                 and not (here is not None and _apart(here, backward))]
    # (a helper's backward of what a call hands it: the value loss `reinforce_update(traj, …)`
    # backpropagates)
    backwards += [(trainables, None) for _, trainables in facts.trained_by_calls]
    # (and whose following steps update what it starves: an actor's loss reaches the critic, but
    # only the actor's optimizer steps after it)
    return bool(starved & facts.resolve(_trained_elsewhere(cut, backwards, facts)))


def _trained_by_another_return(cut, value, ret, facts, uses) -> bool:
    """A differentiated loss that applies another model after the cut (a discriminator step's
    `self.D(self.G(x).detach())` in a Lightning module), where another differentiated loss of the
    same object (another method's, or another branch's return of the same step), free of this
    cut, trains what it starves (the generator step's return)."""
    if not (value.post - facts.frozen) or cut.upstream & value.post:
        return False
    return any(other.node is not ret.node and other.function.class_name == ret.function.class_name
               and cut.node not in other.value.cuts and cut.upstream & other.value.trainables
               and uses.reaches_backward(other.function.node) for other in facts.returns)


def _kept_out_of_an_objective(cut, value, ret, facts, uses) -> bool:
    """A module's method returning an objective with its own members cut (residual flows'
    norm-order estimate of `self.weight.detach()`, backpropagated to train only the orders),
    where the module's forward (or another differentiated return of the class) uses the cut
    members attached: the objective is kept off them on purpose."""
    return ret.function.class_name is not None and _forward_trains_it(cut, facts, ret, uses)


def _copies_activations(cut, fn, facts) -> bool:
    """A module's forward copies one of its inputs into a new tensor, and some call of the module
    in the file hands that input a value computed from trainables (``facts.forward_attached``)."""
    if fn.class_name is None or fn.name != "forward" or cut.function is None or cut.function.node is not fn.node:
        return False
    names = [name[: -len("@input")] for name in cut.upstream if name.endswith("@input")]
    if not names or len(names) != len(cut.upstream):
        return False
    params = [a.arg for a in [*fn.node.args.posonlyargs, *fn.node.args.args]][1:]
    if any((fn.class_name, key) in facts.forward_attached for name in names if name in params
           for key in (params.index(name), name)):
        return True
    # (the model that feeds it is another file's: `self.segmenter(self.encoder(x))` in main.py)
    view = facts.imports.project
    return view is not None and any(view.fed_activations(fn.class_name, params.index(name), name)
                                    for name in names if name in params)


def _copies_own_layers(cut, value, siblings, elsewhere, fn, facts) -> bool:
    """A module's forward runs its later layers on a copy of what its own earlier layers computed
    (`torch.from_numpy(np.cumsum(h.detach().numpy(), 1))` fed to `self.score`), and those earlier
    layers reach the output, a sibling output or another loss by no other path: the optimizer
    holds them and they never train. (The copy's `.detach()` is what `.numpy()` asks for, and says
    nothing of intent.)"""
    if fn.class_name is None or fn.name != "forward" or cut.function is None or cut.function.node is not fn.node:
        return False
    own = cut.upstream
    if not own or not value.post or not all(name.startswith("self.") and name != "self" for name in own):
        return False
    if any(r == f or r.startswith(f + ".") for r in own for f in facts.frozen):
        return False
    if _overlap(own, value.trainables | value.post | siblings):
        return False
    return not _overlap(own, _trained_elsewhere(cut, elsewhere, facts))


def _objective_alone(cut, backward) -> bool:
    """The backward's root is a call of the method the cut is in, as it is
    (`m.compute_one_iter().backward()`), no term of a larger loss."""
    try:
        root = ast.parse(backward.root, mode="eval").body
    except SyntaxError:
        return False
    return type(root) is ast.Call and type(root.func) is ast.Attribute and cut.function is not None \
        and root.func.attr == cut.function.name


def _forward_trains_it(cut, facts, ret=None, uses=None) -> bool:
    """The cut is of one of its class's own parameters as it is (``self.weight.detach()``, not an
    output computed from it), in a method other than ``forward``, and the class's ``forward`` (or,
    given ``ret`` and ``uses``, another differentiated return of the class) returns it attached."""
    fn = cut.function
    if fn is None or fn.class_name is None or fn.name in ("forward", "__call__") \
            or cut.upstream != {cut.tensor} or not cut.tensor.startswith("self."):
        return False
    return any(other.function.class_name == fn.class_name and (ret is None or other.node is not ret.node)
               and cut.node not in other.value.cuts and cut.upstream & other.value.trainables
               and (other.function.name == "forward" or (uses is not None and uses.reaches_backward(other.function.node)))
               for other in facts.returns)


def _cut_by(cut, facts) -> set:
    """The cuts made in the same function as ``cut``."""
    return {node for node, other in facts.cuts.items() if other.function is not None
            and cut.function is not None and other.function.node is cut.function.node}


def _nested_input_cut(cut, fn, facts) -> set:
    """The members of ``fn``'s class that a nested module's ``forward``, or a helper (a function,
    a static method), starves by cutting its own input (its whole output computed from that
    input and detached), as the call in ``fn`` hands it: empty where the cut is ``fn``'s own, or
    starves anything else."""
    if fn.class_name is None or cut.function is None or cut.function.node is fn.node \
            or not all(name.endswith("@input") for name in cut.upstream):
        return set()
    if cut.function.name != "forward" and (cut.function.class_name not in (None, fn.class_name)
                                           or not _helper_of(cut.function.node)):
        return set()
    prefix = f"{fn.class_name}.self."
    members = {"self." + key[len(prefix):] for key in cut.keys if key.startswith(prefix)}
    if facts.optimized and not ({f"{fn.class_name}.*"} | {prefix + m[5:] for m in members}) & facts.optimized:
        return set()  # (no optimizer of the file updates them)
    return members


def _optional(cut) -> bool:
    """The cut is all an ``if`` does, on a name it rebinds (``if self.detach_target: target =
    target.detach()``), and the test is a switch the file does not decide (a flag, a setting's
    query, a setting compared with a mode's name): the user offers stopping the gradient there as
    an option. (A walk of the file's own
    calls that decide the flag has the ``if`` replaced by its arm: ``settings``.)"""
    if cut.function is None:
        return False
    for stmt in once("optional-cuts", cut.function.node, _optional_cuts):
        if stmt is cut.node:
            return True
    return False


def _optional_cuts(fn) -> list:
    found = []
    from gradlint.analysis.settings import defaults_of

    defaults = defaults_of(fn) if type(fn) in (ast.FunctionDef, ast.AsyncFunctionDef) else {}
    for node in iter_nodes(fn, into_functions=False):
        if type(node) is not ast.If or node.orelse or len(node.body) != 1 or type(node.body[0]) is not ast.Assign:
            continue
        assign, test = node.body[0], node.test
        negated = type(test) is ast.UnaryOp and type(test.op) is ast.Not
        if negated:
            test = test.operand
        default = defaults.get(test.id) if type(test) is ast.Name else None
        if type(default) is ast.Constant and bool(default.value) != negated:
            continue  # (`def forward(self, x, return_tensor=True)`: by default the cut is the program's)
        if type(test) is ast.Call and not test.args:
            test = test.func
        if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Eq, ast.NotEq, ast.In, ast.NotIn) \
                and all(type(c) is ast.Constant and type(c.value) is str for c in (
                    test.comparators[0].elts if type(test.comparators[0]) in (ast.Tuple, ast.List, ast.Set)
                    else [test.comparators[0]])):
            test = test.left  # (`if self.learning_mode == "learn_only_prototypes":`: a mode the user names)
        name = dotted(test)
        if not name or "training" in name.split("."):
            continue  # (`if self.training:` is a mode, not an option)
        target = assign.targets[0]
        value = assign.value
        if len(assign.targets) == 1 and dotted(target) and type(value) in (ast.Call, ast.Attribute):
            operand = value.func.value if type(value) is ast.Call and type(value.func) is ast.Attribute \
                and value.func.attr == "detach" and not value.args else value.value if type(value) is ast.Attribute \
                and value.attr == "data" else None
            if operand is not None and dotted(operand) == dotted(target):
                found.append(value)
    return found


def _helper_of(node) -> bool:
    """A function that takes no receiver: module-level, or a ``@staticmethod``."""
    args = node.args.posonlyargs + node.args.args
    return not args or args[0].arg not in ("self", "cls") or any(
        dotted(d) == "staticmethod" for d in node.decorator_list)


def _probed_inputs(cut, backward, facts) -> bool:
    """A cut of a forward's inputs only, where the function of ``backward`` hands each of them a
    leaf it made to read its gradient (``FileFacts.forward_probed``)."""
    fn = cut.function
    if fn is None or fn.name != "forward" or fn.class_name is None or not cut.upstream or backward.function is None:
        return False
    params = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]][1:]
    for name in cut.upstream:
        param, _, where = name.partition("@")
        if where != "input" or param not in params or not any(
                backward.function.node in facts.forward_probed.get((fn.class_name, key), ())
                for key in (params.index(param), param)):
            return False
    return True


def _handed_no_history(cut, fn, facts) -> bool:
    """A forward whose inputs the cut starves are handed, at every call of the module this file
    makes (there is one at least), values without history (``collect_outputs()`` computed under
    ``no_grad``): the cut starves nothing."""
    if fn.name != "forward" or fn.class_name is None or not cut.upstream:
        return False
    params = [p.arg for p in [*fn.node.args.posonlyargs, *fn.node.args.args]][1:]
    for name in cut.upstream:
        param, _, where = name.partition("@")
        if where != "input" or param not in params:
            return False
        found = [facts.forward_still.get(key) for key in ((fn.class_name, params.index(param)), (fn.class_name, param))]
        if False in found or True not in found:
            return False
    return True


def _overlap(upstream, trainables) -> bool:
    """Shared trainables; ``self`` (the whole module, as in ``self.forward(x)``) shares with
    every ``self.x``."""
    if upstream & trainables:
        return True
    whole = "self" in upstream or "self" in trainables
    if whole and any(r.startswith("self.") for r in upstream | trainables):
        return True
    # (`model`, as an attribute read names it, shares with `model.student_head`, as a method's
    # summary names what it ran)
    if any(b.startswith(a + ".") for a in upstream for b in trainables) or any(
            a.startswith(b + ".") for a in upstream for b in trainables):
        return True
    # (and the members of one handed model, `model.q@step` and `model.term@step`: one object,
    # as `self.q` and `self.term` are)
    return bool(_handed_roots(upstream) & _handed_roots(trainables))


def _handed_roots(names) -> set:
    """``model@step`` for each of ``model@step``, ``model.q@step``."""
    out = set()
    for name in names:
        head, at, function = name.partition("@")
        if at:
            out.add(f"{head.partition('.')[0]}@{function}")
    return out


def _optimized(cut, facts) -> bool:
    """An optimizer of this module updates what the cut starves: it was meant to train.
    (``cut.keys`` holds ``Net.*`` for a cut inside ``Net``, so ``Adam(model.parameters())``
    on a ``Net`` covers it; a probe's ``SGD(model.head.parameters())`` does not.)"""
    return bool(_with_owners(cut.keys) & facts.optimized) or bool(_with_owners(facts.resolve(cut.upstream)) & facts.optimized)


def _trained_by_the_project(cut, facts) -> bool:
    """A model class of this file, building no optimizer itself, whose instance a training
    script of the project hands to an optimizer (`SGD(blk.parameters())` beside `blk =
    Block(4)`): what the cut starves of its own members is meant to train, as if here."""
    view = facts.imports.project if not facts.optimized and not facts.optimizers_open else None
    if view is None:
        return False
    tree, node = parents(facts.module), cut.node
    up = tree.get(node)
    while type(up) in (ast.List, ast.Tuple) or (type(up) is ast.Call and node in up.args and (
            facts.imports.qualname(up.func) or "") in ("torch.cat", "torch.stack", "torch.concat")):
        node, up = up, tree.get(up)
    if type(up) is ast.Call and node in up.args and (dotted(up.func) or "").startswith("self."):
        # (`self.dynamics(embeds.detach(), h)`, `self.dynamics(torch.cat([e.detach(), h], -1))`:
        # a stop-gradient in front of a model of its own)
        return False
    owners = {key[:-2] for key in cut.keys if key.endswith(".*") and "." not in key[:-2]}
    return any(view.trained_elsewhere(owner) for owner in sorted(_with_builders(owners, facts.module)))


def _with_builders(classes: set, module: ast.Module) -> set:
    """``classes`` and the classes of the module that build one of them among their members,
    however deep (`self.decoder = MelDecoder(…)` in `Model`): a script that trains a `Model`
    trains its decoder."""
    built = once("classes-built", module, _classes_built)
    out, todo = set(), list(classes)
    while todo:
        name = todo.pop()
        if name not in out:
            out.add(name)
            todo.extend(owner for owner, members in built.items() if name in members)
    return out


def _classes_built(module: ast.Module) -> dict:
    """Class name -> the names of the module's classes its body calls (builds)."""
    defined = {s.name for s in module.body if type(s) is ast.ClassDef}
    return {s.name: {n.func.id for n in ast.walk(s) if type(n) is ast.Call and type(n.func) is ast.Name
                     and n.func.id in defined and n.func.id != s.name}
            for s in module.body if type(s) is ast.ClassDef}


def _with_owners(names) -> set:
    """``names`` and the models that hold them: an optimizer over `self.net` updates
    `self.net.encoder`."""
    out = set(names)
    for name in names:
        while "." in name:
            name = name.rpartition(".")[0]
            if name == "self" or name.endswith(".self") or "." not in name and name[:1].isupper():
                break  # (the object itself, or a class key's head, is no model of its own)
            out.add(name)
    return out


def _may_be_leaves(upstream, facts) -> bool:
    """Some of ``upstream`` is a leaf made to require grad here, or a name imported from another
    file (``from model import scale_a``), which may be one."""
    names = {root.split(".")[0] for root in upstream}
    return bool(upstream & facts.leaves) or any(name in facts.imports.names and name in facts.imports.sources
                                                for name in names)


def _one_model(cut, companions, facts) -> bool:
    """Both sides are members of the module whose method this is (``self.q`` and ``self.v``),
    and what the cut starves is a part the class builds, not a model handed to its constructor
    (``self.prior = prior``: a teacher or prior beside the model it trains)."""
    owner = cut.function.class_name if cut.function is not None else None
    taken = once("taken-from-handed", facts.module, _taken_from_handed).get(owner, set())
    built = [r for r in cut.upstream if r.startswith("self.") and f"{owner}.{r}" not in facts.handed_members
             and r not in taken]
    # (seen from a caller, `model(x)`: the method's own return keeps members of the class beside
    # or after the cut, `self.mlp(grouped)`)
    return bool(built) and (any(r.startswith("self.") for r in companions) or any(
        ret.function.node is cut.function.node and cut.node in ret.value.cuts
        and any(r.startswith("self.") for r in ret.value.cuts[cut.node] | ret.value.post)
        for ret in facts.returns))


def _taken_from_handed(module) -> dict:
    """Class -> the members its ``__init__`` takes from a model it is handed (`self.token_emb =
    net.token_emb`): parts of that model, trained where it is, not built by the class."""
    found = {}
    for cls in module.body:
        if type(cls) is not ast.ClassDef:
            continue
        init = next((f for f in cls.body if type(f) is ast.FunctionDef and f.name == "__init__"), None)
        if init is None:
            continue
        params = {a.arg for a in init.args.args[1:] + init.args.kwonlyargs}
        for stmt in ast.walk(init):
            if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Attribute \
                    and type(stmt.targets[0].value) is ast.Name and stmt.targets[0].value.id == "self" \
                    and type(stmt.value) is ast.Attribute and (dotted(stmt.value) or "").split(".")[0] in params:
                found.setdefault(cls.name, set()).add(f"self.{stmt.targets[0].attr}")
    return found


def _named_in_optimizer(cut, facts) -> bool:
    """An optimizer is given this very module (``model.pretrained_encoder.parameters()``), not
    just the whole model around it."""
    return any(not key.endswith(".*") and key in facts.optimized for key in cut.keys)


def _left_trainable(cut, facts) -> bool:
    """The region computes members of the model whose method holds it that the file leaves
    trainable, where an optimizer is given what requires grad and the file freezes parts by
    requires_grad: nothing freezes these, so they are meant to train (a projector caught in the
    region that freezes a vision tower). Not where the member is also called outside every no_grad
    region: it trains there."""
    if not facts.optimizes_what_requires_grad or not facts.frozen or not _optimized(cut, facts):
        return False
    fn = cut.function
    members = cut.upstream
    if fn is None or fn.class_name is None or not members or not all(
            r.startswith("self.") and r.count(".") == 1 for r in members):
        return False
    # (`self` alone is a class freezing itself, which `flow._frozen_by_their_class` places)
    if any(r == f or (f != "self" and r.startswith(f + ".")) for r in members for f in facts.frozen):
        return False
    # (`model.backbone.requires_grad_(False)` at the top level freezes `self.backbone` of `model`'s
    # class: the frozen set is spelled as written, through whatever instance holds it)
    if any(f.endswith("." + r[5:]) for r in members for f in facts.frozen):
        return False
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == fn.class_name), None)
    if owner is None:
        return False
    for node in ast.walk(owner):
        if type(node) is ast.Call and node not in facts.cuts and dotted(node.func) in members:
            return False  # called with recording on somewhere: trained there
    return True


# Where a file may load trained weights into a module: then a member computed under no_grad may
# be a pretrained part kept frozen on purpose.
LOADS = frozenset({"load_state_dict", "from_pretrained", "load", "load_checkpoint", "load_from_checkpoint"})


# Modules whose buffers a call updates with recording off: computed under no_grad, they still
# learn their running statistics.
STATISTICS = ("torch.nn.BatchNorm", "torch.nn.SyncBatchNorm", "torch.nn.InstanceNorm", "torch.nn.LazyBatchNorm")


def _built_untrained(cut, facts) -> bool:
    """The region computes members of the model whose method holds it that its ``__init__``
    builds from constructors, in a file that loads no weights, puts none of them in eval mode and
    freezes none: they start random and an optimizer holds them, so the region keeps them random
    for good (a hash-grid encoding or a message network computed under no_grad "to save memory").
    A pretrained or frozen part computed under no_grad is how a frozen backbone is spelled. Not
    where the member is also called with recording on. For a method run whole under no_grad, an
    optimizer another file of the project builds over an instance counts as this file's."""
    fn = cut.function
    members = cut.upstream
    if fn is None or fn.class_name is None or not members or facts.frozen \
            or not all(r.startswith("self.") and r.count(".") == 1 for r in members) \
            or not (_optimized(cut, facts) or _method_run_unrecorded(cut) and _trained_by_the_project(cut, facts)):
        return False
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == fn.class_name), None)
    init = next((n for n in owner.body if type(n) is ast.FunctionDef and n.name == "__init__"), None) if owner else None
    if init is None:
        return False
    built = {f"self.{t.attr}": n.value.func for n in ast.walk(init) if type(n) is ast.Assign and type(n.value) is ast.Call
             for t in n.targets if type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self"}
    if not members <= built.keys():
        return False
    if any((facts.imports.qualname(built[m]) or "").startswith(STATISTICS) for m in members):
        return False  # (its running statistics are its work under no_grad: a parity test's BatchNorm)
    for node in ast.walk(facts.module):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and (
                node.func.attr in LOADS or node.func.attr in ("eval", "requires_grad_")):
            return False
        if type(node) is ast.keyword and node.arg in ("pretrained", "weights"):
            return False
    for node in ast.walk(owner):
        if type(node) is ast.Call and node not in facts.cuts and dotted(node.func) in members:
            return False  # called with recording on somewhere: trained there
    return True


def inference_path(cut, facts, attached=EMPTY) -> bool:
    """The region is a method decorated to run under no_grad (``@torch.no_grad() def
    embed(self, x)``: cached embeddings, a retrieval index), called from outside its class, whose
    members the class's own forward computes with recording on: the class trains them, and a loss
    made of what this path returns starves them. A method computing members no recorded path of
    the class computes is how a frozen part is spelled."""
    fn = cut.function
    if not _decorated_method(cut) or cut.node not in facts.call_sites or not _optimized(cut, facts):
        return False
    call = facts.call_sites[cut.node]
    receiver = dotted(call.func.value) if type(call.func) is ast.Attribute else None
    if receiver is not None and receiver in attached:
        return False  # (the object trained whole beside it in the loss: a stop-gradient branch, MoCo's keys)
    members = recorded_members(cut)
    if not members or any(_frozen_member(r, cut, facts) for r in members | cut.upstream):
        return False
    found = origin(cut.node)
    module = found.tree if found is not None else facts.module
    owner = next((n for n in module.body if type(n) is ast.ClassDef and n.name == fn.class_name), None)
    return owner is not None and members <= _recorded_members(owner, found.imports if found is not None else facts.imports)


def recorded_members(cut) -> set:
    """The class's own members (``self.proj``) the cut's region computes, as the class's walk
    names them: the caller's walk names another file's members by the receiver (``encoder``)."""
    members = {"self." + k.split(".self.", 1)[1] for k in cut.keys if ".self." in k}
    return {m for m in members if m.count(".") == 1}


def _unfrozen_by_a_setting(cut, facts) -> bool:
    """Every member the region computes (``self.base``) is one its class's ``__init__`` freezes
    only under an ``if`` of one of its parameters (``if freeze_base:``), and a call of the file
    hands that parameter the literal that skips it (``freeze_base=False``): built that way, the
    class means the member to train."""
    fn = cut.function
    members = cut.upstream
    if fn is None or fn.class_name is None or not members or not all(
            r.startswith("self.") and r.count(".") == 1 for r in members):
        return False
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == fn.class_name), None)
    init = next((n for n in owner.body if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef)
                 and n.name == "__init__"), None) if owner is not None else None
    if init is None:
        return False
    params = {p.arg for p in [*init.args.args, *init.args.kwonlyargs][1:]}
    flags = set()
    for member in members:
        guards = [stmt for stmt in iter_nodes(init) if type(stmt) is ast.If
                  and member in frozen_owners(ast.Module(body=stmt.body, type_ignores=[]))]
        unguarded = [stmt for stmt in init.body if type(stmt) is not ast.If]
        if not guards or member in frozen_owners(ast.Module(body=unguarded, type_ignores=[])):
            return False
        tested = {n.id for g in guards for n in ast.walk(g.test) if type(n) is ast.Name and n.id in params}
        if len(tested) != 1:
            return False
        flags |= tested
    (flag,) = flags if len(flags) == 1 else (None,)
    return flag is not None and any(
        type(k.value) is ast.Constant and k.value.value is False
        for n in ast.walk(facts.module) if type(n) is ast.Call for k in n.keywords if k.arg == flag)


def _differentiated_elsewhere(fn, facts) -> bool:
    """A method whose result a training loop of another file beside this one backpropagates
    (`loss = model.compute_loss(batch)`, then `loss.backward()`, in a loop handed the instance)."""
    view = facts.imports.project
    return fn.class_name is not None and view is not None and not fn.name.startswith("__") \
        and view.differentiated_elsewhere(fn.name)


def _decorated_method(cut) -> bool:
    """The cut is the region of a method decorated to run under no_grad, the whole method."""
    fn = cut.function
    return cut.kind == "no_grad" and fn is not None and fn.class_name is not None and fn.nograd \
        and cut.region is fn.node


def _method_run_unrecorded(cut) -> bool:
    """The cut is the region of a method that runs whole under no_grad: decorated to, or whose
    every ``return`` is inside the one ``with torch.no_grad():`` block the cut is made in (a
    method whose body is that block computes its result unrecorded all the same)."""
    if _decorated_method(cut):
        return True
    fn = cut.function
    if cut.kind != "no_grad" or fn is None or fn.class_name is None or type(cut.region) not in (ast.With, ast.AsyncWith):
        return False
    inside = {id(n) for n in iter_nodes(cut.region, into_functions=False)}
    returns = [n for n in iter_nodes(fn.node, into_functions=False) if type(n) is ast.Return and n.value is not None]
    return bool(returns) and all(id(r) in inside for r in returns)


def _recorded_members(owner: ast.ClassDef, imports) -> set:
    """The members (``self.x``) the class's forward reads with recording on, through the methods
    of its own it calls that are not decorated to run under no_grad."""
    from gradlint.analysis.scan import decorated_nograd

    methods = {n.name: n for n in owner.body if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    todo, seen, read = ["forward"], set(), set()
    while todo:
        method = methods.get(todo.pop())
        if method is None or method.name in seen or decorated_nograd(method, imports):
            continue
        seen.add(method.name)
        for node in ast.walk(method):
            if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "self":
                if node.attr in methods:
                    todo.append(node.attr)
                else:
                    read.add(f"self.{node.attr}")
    return read


def _runs_handed_member(fn, facts) -> bool:
    """The method calls a member its class's constructor is handed (`self.submodule(x)` of
    `self.submodule = submodule`), a model the object does not own."""
    return any(type(node) is ast.Call and f"{fn.class_name}.{dotted(node.func)}" in facts.handed_members
               for node in ast.walk(fn.node))


def _applies_no_model(cut, facts) -> bool:
    """The region applies none of the trainables its result descends from: it only reduces or
    normalises activations the model computed with recording on (`with torch.no_grad(): mmd = k[:b,
    :b].mean() - …` in a loss object). Not the frozen-backbone idiom (`with torch.no_grad():
    feats = self.backbone(x)`), whose region runs the model; here the model trains, and the
    region cuts what it computed off the loss."""
    # (or a function decorated to run under no_grad, `@torch.no_grad() def l2_normalize(e)`:
    # its body is the region)
    if cut.region is None or type(cut.region) not in (ast.With, ast.AsyncWith, ast.FunctionDef, ast.AsyncFunctionDef) \
            or not cut.upstream:
        return False
    other = origin(cut.region)
    tree = other.tree if other is not None else facts.module
    for node in ast.walk(cut.region):
        if type(node) is ast.Call:
            # (a bare name called, `decoder(feats)` of `for decoder in self.decoders`, may be a
            # model; Python's own reductions are not)
            # (`model.forward_teacher(x)` runs `model.teacher_backbone`: a method of the object
            # that holds what the result descends from)
            name = dotted(node.func) or ""
            heads = {r.split(".")[0].split("@")[0] for r in cut.upstream}
            if name.startswith("self.") and _method_of_no_model(name, cut, tree):
                continue  # (DropBlock's `self.block_mask(x)`: a method of its own, a mask of ops)
            if name.startswith("self.") or name.split(".")[0] in heads \
                    or (type(node.func) is ast.Name and name not in _BUILTIN_REDUCTIONS
                        and not _tensor_function(node, tree)):
                return False
    return True


def _method_of_no_model(name: str, cut, tree, depth: int = 0) -> bool:
    """``self.<method>`` (``name``) is a method of the cut's own class whose body calls no member
    of the object but more such methods, and no function of the module but tensor ones."""
    method = name.split(".")[1] if name.count(".") == 1 else None
    cls = cut.function.class_name if cut.function is not None else None
    owner = next((n for n in tree.body if type(n) is ast.ClassDef and n.name == cls), None) \
        if tree is not None and cls is not None and method is not None else None
    fn = next((f for f in owner.body if type(f) is ast.FunctionDef and f.name == method), None) \
        if owner is not None else None
    if fn is None or depth > 3:
        return False
    for node in ast.walk(fn):
        if type(node) is not ast.Call:
            continue
        called = dotted(node.func) or ""
        if called.startswith("self."):
            if not _method_of_no_model(called, cut, tree, depth + 1):
                return False
        elif type(node.func) is ast.Name and called not in _BUILTIN_REDUCTIONS and not _tensor_function(node, tree):
            return False
    return True


def _tensor_function(call, tree) -> bool:
    """``call`` is of a function of the module (``tree``) that calls none of what it is handed,
    nor any function but torch's and the tensors' own (`knn_group(xyz, centers, feats, k)`): ops
    on tensors, no model."""
    fn = next((f for f in tree.body if type(f) is ast.FunctionDef and f.name == call.func.id), None) \
        if tree is not None else None
    if fn is None:
        return False
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    for node in ast.walk(fn):
        if type(node) is not ast.Call:
            continue
        func = node.func
        if type(func) is ast.Name and func.id not in _BUILTIN_REDUCTIONS:
            return False
        if type(func) is ast.Attribute:
            base = func.value
            while type(base) in (ast.Attribute, ast.Call, ast.Subscript):
                base = base.func if type(base) is ast.Call else base.value
            if type(base) is ast.Name and base.id in params and func.attr not in _TENSOR_OPS:
                return False
    return True


_TENSOR_OPS = frozenset({
    "topk", "sort", "argsort", "gather", "index_select", "view", "reshape", "permute", "transpose", "unsqueeze",
    "squeeze", "expand", "expand_as", "contiguous", "clone", "float", "long", "int", "to", "size", "dim",
    "sum", "mean", "max", "min", "norm", "pow", "sqrt", "abs", "exp", "log", "softmax", "flatten", "repeat",
    "new_zeros", "new_ones", "new_full", "masked_fill", "clamp", "type_as",
})


_BUILTIN_REDUCTIONS = frozenset({"sum", "min", "max", "abs", "float", "len", "range", "zip", "enumerate"})


def _mid_path_of_a_model_trained_elsewhere(cut, value, facts) -> bool:
    """A no_grad region in the middle of a model's own path (its input the model's activations,
    its result fed to the model's later layers), in a file that only defines the model while a
    training script of the project optimizes it: no loss here speaks, and the losses there see
    the model whole, so the return names what the region starves."""
    return cut.function is not None and cut.function.class_name is not None \
        and all(r.startswith("self.") for r in cut.upstream) and bool(cut.upstream - _run_in_region(cut)) \
        and any(p.startswith("self.") for p in value.post - cut.upstream - facts.frozen) \
        and _trained_by_the_project(cut, facts)


def _run_in_region(cut) -> set:
    """The members a no_grad region's own statements call (``self.decoder(h)`` inside it)."""
    region = cut.region
    if not isinstance(region, (ast.With, ast.AsyncWith)):
        return set()
    # (and what a loop of it runs, `for decoder in self.decoders: decoder(h)`)
    return {dotted(n.func) for n in ast.walk(region) if type(n) is ast.Call and dotted(n.func)} | {
        _root_member(n.iter) for n in ast.walk(region) if type(n) in (ast.For, ast.AsyncFor)} - {None}


def _root_member(expr) -> str | None:
    """``self.decoders`` of ``self.decoders``, ``enumerate(self.decoders)``, ``self.decoders[1:]``."""
    while type(expr) in (ast.Call, ast.Subscript):
        expr = expr.args[0] if type(expr) is ast.Call and expr.args else expr.value if type(expr) is ast.Subscript else None
    return dotted(expr) if expr is not None else None


def _unconditional(cut) -> bool:
    """No ``if`` (nor conditional expression) of the cut's function stands between it and the
    function's body: each run of the function makes it (a walk of a setting's program has the
    setting's ``if`` replaced by its arm already)."""
    fn = cut.function
    if fn is None or fn.node is None:
        return False
    up = parents(fn.node)
    node = up.get(cut.node)
    while node is not None and node is not fn.node:
        if type(node) in (ast.If, ast.IfExp, ast.While, ast.Try):
            return False
        node = up.get(node)
    return node is fn.node


def _parameter_read_only_cut(cut, facts) -> bool:
    """The cut reads parameters its class makes in ``__init__`` (``self.w = nn.Parameter(…)``,
    left to require grad), and the class reads each no other way than inside a cut (``.data``,
    ``.detach()`` of it or of what it computes, `(self.sigma * self.eps).detach()`) nor changes
    it by hand (no assignment, in-place edit or copy into it, nor its ``.data``): no path from
    it to any loss exists."""
    if cut.function is None or cut.function.class_name is None or not cut.upstream \
            or type(cut.node) not in (ast.Attribute, ast.Call):
        return False
    if any(not name.startswith("self.") or name.count(".") != 1 for name in cut.upstream):
        return False
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == cut.function.class_name), None)
    init = next((n for n in owner.body if type(n) is ast.FunctionDef and n.name == "__init__"), None) if owner else None
    if init is None:
        return False
    tree = parents(owner)
    for name in cut.upstream:
        made = [n.value for n in ast.walk(init) if type(n) is ast.Assign and len(n.targets) == 1
                and dotted(n.targets[0]) == name]
        if len(made) != 1 or type(made[0]) is not ast.Call \
                or (facts.imports.qualname(made[0].func) or "") not in ("torch.nn.Parameter", "torch.nn.parameter.Parameter") \
                or any(k.arg == "requires_grad" for k in made[0].keywords) or len(made[0].args) > 1:
            return False
        for node in ast.walk(owner):
            if type(node) is not ast.Attribute or dotted(node) != name or type(node.ctx) is not ast.Load:
                continue
            if any(node is m or _within(node, m) for m in made) or _in_init(node, tree):
                continue  # (`nn.init.constant_(self.weight_sigma, …)` in `reset_parameters()`)
            if not _read_inside_a_cut(node, tree):
                return False  # read attached, or handed somewhere, or edited: a path may exist
        if _set_by_hand(name[len("self."):], facts):
            return False
    return True


def _member_optimized(cut, facts) -> bool:
    """An optimizer of the file is handed the cut's parameter as a member of an object whose
    class it cannot tell (`AdamW([model.prompt_bank, …])` of `model = model_cls()`)."""
    attrs = {name[len("self."):] for name in cut.upstream}
    return any(held.rpartition(".")[2] in attrs for held in facts.optimized)


def _read_inside_a_cut(node, tree) -> bool:
    """``node`` is read in what a ``.data`` or ``.detach()`` takes (`self.w.data`, `(self.w *
    eps).detach()`) within its expression."""
    child, up = node, tree.get(node)
    while up is not None and isinstance(up, ast.expr):
        if type(up) is ast.Attribute and up.value is child and (
                (up.attr == "data" and type(up.ctx) is ast.Load)
                or (up.attr == "detach" and type(tree.get(up)) is ast.Call)):
            # (an edit through `.data`, `self.w.data.clamp_(…)`, is `_set_by_hand`'s to see)
            return True
        child, up = up, tree.get(up)
    return False


def _set_by_hand(attr: str, facts) -> bool:
    """The file writes the parameter ``attr`` by hand somewhere (``model.progress.data.fill_(t)``,
    ``vq.codebook.data.copy_(means)``, ``self.w.data = …``): a value kept as a parameter so that
    it is checkpointed or averaged, not one a loss is meant to train."""
    whole = parents(facts.module)
    for node in ast.walk(facts.module):
        if type(node) is not ast.Attribute or node.attr != attr:
            continue
        if _in_init(node, whole):
            continue  # (an initialization, `self.w_sigma.data.fill_(std)` in `reset_parameters()`)
        if type(node.ctx) is ast.Store:
            return True  # (`model.progress = nn.Parameter(…)` outside a constructor)
        up = whole.get(node)
        if type(up) is ast.Attribute and up.attr == "data":
            if type(up.ctx) is ast.Store:
                return True  # (`model.progress.data = t`)
            up = whole.get(up)
        if type(up) is ast.Attribute and up.attr.endswith("_") and not up.attr.endswith("__") \
                and up.attr not in _RANDOM_INITS and type(whole.get(up)) is ast.Call:
            return True  # (`model.progress.data.fill_(t)`, `model.progress.copy_(t)`)
    return False


# in-place draws that initialize a tensor (`m.weight.data.normal_(0, 0.02)`): no update by hand
_RANDOM_INITS = frozenset({"normal_", "uniform_", "zero_", "bernoulli_", "random_", "exponential_",
                           "cauchy_", "log_normal_", "geometric_"})


def _in_init(node, up) -> bool:
    """``node`` lies in a constructor, or in a method its class calls only from its constructor
    (`self.reset_parameters()`)."""
    node = enclosing(node, up, DEFS)
    if node is None or node.name == "__init__":
        return node is not None
    owner = up.get(node)
    if type(owner) is not ast.ClassDef:
        return False
    calls = [n for n in ast.walk(owner) if type(n) is ast.Call and type(n.func) is ast.Attribute
             and n.func.attr == node.name and dotted(n.func.value) == "self"]
    return bool(calls) and all(getattr(enclosing(c, up, DEFS), "name", None) == "__init__" for c in calls)


def _untrained_in_region(cut, value, facts):
    """The cut narrowed to the members only its region computes where they are built untrained
    (``_built_untrained``) and the region's result reaches the loss with nothing trained applied
    after it; None elsewhere."""
    only = _only_in_regions(cut, facts)
    if not only or only == cut.upstream:
        return None
    narrowed = dataclasses.replace(cut, upstream=only)
    return narrowed if _built_untrained(narrowed, facts) else None


def _hooks_a_tensor(function) -> bool:
    """``function`` registers a hook on a tensor (``loss.register_hook(fn)``): it routes a
    gradient by hand, and what it cuts is cut for that."""
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "register_hook"
               for n in iter_nodes(function, into_functions=False))


def _only_in_regions(cut, facts) -> set:
    """The members a no_grad region in a model's method computes (``self.decoders``) that the
    class reads nowhere but in its ``__init__`` and in no_grad regions: nothing records them."""
    fn = cut.function
    members = {r for r in cut.upstream if r.startswith("self.") and r.count(".") == 1}
    if fn is None or fn.class_name is None or not members:
        return set()
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef and n.name == fn.class_name), None)
    if owner is None:
        return set()
    quiet = set()
    for node in ast.walk(owner):
        if (type(node) in (ast.With, ast.AsyncWith) and any(
                type(i.context_expr) is ast.Call and (dotted(i.context_expr.func) or "").rpartition(".")[2]
                in ("no_grad", "inference_mode") for i in node.items)) \
                or (type(node) in (ast.FunctionDef, ast.AsyncFunctionDef) and node.name == "__init__"):
            quiet.update(id(n) for n in ast.walk(node))
    read = {dotted(n) for n in ast.walk(owner) if type(n) is ast.Attribute and id(n) not in quiet
            and type(n.value) is ast.Name and n.value.id == "self"}
    return members - read


def _inside_one_model(cut, value, facts) -> bool:
    """``return self.head(self.backbone(x).detach())`` in a model's own method, in a file that
    builds no optimizer: everything trainable in the value comes after the cut, and both sides
    are parts of one model, which its training code (elsewhere) most likely optimizes whole —
    not a GAN's discriminator step, which lives in training code. A file with optimizers says
    what they train, and ``_optimized`` decides there."""
    fn = cut.function
    if fn is None or fn.class_name is None or facts.optimized or facts.optimizers_open or value.trainables:
        return False  # (value.trainables: something trainable stays attached beside it: an auxiliary head)
    upstream = cut.upstream
    if fn.name == "forward" and upstream and all(n.endswith("@input") for n in upstream):
        # (a nested module's forward cutting its input: what its holder's call handed it)
        upstream = {"self." + key.split(".self.", 1)[1] for key in cut.keys if ".self." in key} or upstream
    names = upstream | value.post
    return all(n == "self" or n.startswith("self.") for n in names)


def _all_frozen(cut, facts) -> bool:
    """Everything the cut starves is frozen by the module, as named or as its callers hand it
    (`codebook@ema_vq`, handed the `codebook` made `nn.Parameter(…, requires_grad=False)`)."""
    if cut.upstream <= facts.frozen:
        return True
    resolved = facts.resolve(cut.upstream)
    return bool(resolved) and resolved <= facts.frozen


def _frozen(cut, facts) -> bool:
    """Every optimizer of the module is known, and none updates what the cut starves."""
    if not facts.optimized or facts.optimizers_open or _optimized(cut, facts):
        return False
    # A model parameter no call site resolves could be anything the optimizers hold.
    return not any("@" in name for name in facts.resolve(cut.upstream))


def _returns_tuples(function) -> bool:
    """Every return of ``function`` (a cut's) is a tuple display: each element an output of its own."""
    node = getattr(function, "node", None)
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    returns = [n for n in iter_nodes(node, into_functions=False) if type(n) is ast.Return]
    return bool(returns) and all(type(r.value) is ast.Tuple for r in returns)


def _returned_fields(value) -> tuple:
    """(None, value) per key of a returned dict whose keys are known, as ``Return.parts``."""
    if value.fields is None or any(v is NOTHING_YET for _, v in value.fields):
        return ()
    return tuple((None, v) for _, v in value.fields)


def _beside_in_other_returns(ret, at: int, facts) -> list:
    """What the other returns of ``ret``'s function, tuples of the same length, put beside
    element ``at``."""
    return [other.trainables | other.inputs for r in facts.returns
            if r is not ret and r.function.node is ret.function.node and len(r.parts) == len(ret.parts)
            for i, (_, other) in enumerate(r.parts) if i != at]


def _may_break(ret, facts) -> bool:
    """Whether some part of a return descends from a cut of trainables (what ``_broken`` reads)."""
    for value in [value for _, value in ret.parts] if ret.parts else [ret.value]:
        for node in value.cuts:
            cut = facts.cuts.get(node)
            if cut is not None and cut.upstream:
                return True
    return False


def _broken(value, facts, sinks_for, program, at_loss: bool = False, switched: bool = False):
    """The cuts in ``value`` that starve the trainables upstream of them; ``sinks_for(cut)`` are
    the other places where trainables are trained through, as they bear on that cut; ``at_loss``:
    ``value`` is backpropagated (not returned); ``switched``: made a new leaf first (`loss.
    requires_grad = True`), so that what is wholly cut adds a number and no gradient."""
    for node, companions in value.cuts.items():
        cut = facts.cuts.get(node)
        if cut is None or not cut.upstream:
            continue
        elsewhere = sinks_for(cut)
        if cut.through_cut and node not in value.dead and not (
                at_loss and _optimized(cut, facts) and _one_object(cut.upstream | value.trainables | value.post | companions)
                and not _overlap(cut.upstream, value.trainables | value.post | companions)):
            # a copy of values cut on purpose, weighing a term (a reward): only a term alone is
            # dead; or a copy of what an optimizer trains that the loss reaches by no other path
            # (an actor's means through `.detach().numpy()` into a distribution of new tensors,
            # whose log-probabilities weigh nothing of the actor's): `.numpy()` wants the
            # `.detach()`, which says nothing of intent
            continue
        if _optional(cut):
            continue  # `if settings.detach_caches.on(): cache = cache.detach()`: a cut offered as an option
        if cut.kind == STORAGE_REBOUND and (not _optimized(cut, facts) or any(
                f == root or f.startswith(root + ".") for root in cut.upstream for f in facts.frozen)):
            # (values copied into a parameter from what no optimizer trains, or from a frozen
            # mask, `w.data = w * self.mask.weight`: nothing that was to learn loses its gradient)
            continue
        if cut.function is not None and once("tensor-hooks", cut.function.node, _hooks_a_tensor):
            # (gradient caching: the function cuts the embeddings, makes them leaves, and hands
            # their gradient back to the model by a hook on the loss, `loss.register_hook(…)`)
            continue
        if all(root.split("@")[0] in program.followers for root in cut.upstream) \
                and not _named_in_optimizer(cut, facts):
            continue  # a target or moving average: the file copies another network into it
        if companions and node in value.dead and not _post_alone(value, companions, facts) \
                and (cut.kind != "no_grad" or (_optimized(cut, facts) and _returned_by_its_function(cut))) \
                and (value.trainables or value.inputs - cut.upstream or companions - cut.upstream) \
                and not any(node in switch.value.cuts for switch in facts.switches) \
                and not (_frozen(cut, facts) or _all_frozen(cut, facts)):
            # at work in one term (an advantage weighing the log-probabilities, beside another
            # model: a stop-gradient between models) and alone in another (`advantage.pow(2)` as
            # the value loss): that term adds a number and no gradient, whatever the first does
            yield cut
            continue
        # (a forward's input cut, as the calls that hand it name what computed it: the keys)
        callers = cut.keys if cut.upstream and all(r.endswith("@input") for r in cut.upstream) else set()
        if cut.kind == REBUILD and cut.leaf and at_loss and (not cut.of_cut or _optimized(cut, facts)):
            # a copy made a leaf that requires grad and trained through (`torch.FloatTensor(rows)
            # .requires_grad_()` in an enclosing-box penalty): the user meant the gradient to flow
            # through it to what computed the values; a model attached beside it in the same term
            # (SimSiam's stop-gradient, for a `.detach()`) does not make that on purpose
            yield cut
            continue
        if _overlap(cut.upstream, companions) or (_by_callers(cut.upstream, cut, facts) | callers) & (
                companions | _by_callers(companions, cut, facts) | (facts.resolve(companions) if callers else EMPTY)):
            # the same trainables stay attached beside the cut (SimSiam); those upstream of it
            # that nothing beside it keeps attached (`cat([dec(enc(x)).detach(), enc(x)])`: the
            # decoder) still lose their only path
            # (state carried between iterations and cut every k steps trains what made it in
            # the steps between; cut at every step, what only made that state trains never)
            only = None if cut.carried and not _unconditional(cut) \
                else _only_through(cut, companions | value.post, elsewhere, facts)
            if only is None and cut.kind == "no_grad" and _mid_path_of_a_model_trained_elsewhere(cut, value, facts):
                # (the model's file builds no optimizer: a script of the project trains it)
                only = _only_through(cut, companions | value.post, elsewhere, facts, optimizer_required=False,
                                     keep_the_rest=True)
            if only is not None:
                yield only
            continue
        if cut.kind in (".data", ".detach()") and cut.of_leaf and len(cut.upstream) == 1 \
                and next(iter(cut.upstream)).startswith("self.") and next(iter(cut.upstream)).count(".") == 1 \
                and _set_by_hand(next(iter(cut.upstream))[len("self."):], facts):
            continue  # a parameter the file writes by hand (an averaged codebook), read as it is
        if cut.kind in (".data", ".detach()") and _parameter_read_only_cut(cut, facts) \
                and (_optimized(cut, facts) or not facts.optimized or _member_optimized(cut, facts)):
            # `self.prompt_param.data` where the class reads its parameter no other way and
            # writes it nowhere: whoever trains the module, that parameter never gets a gradient
            # (not where the file's optimizers hold other members only: a prior kept as a
            # parameter so that it is checkpointed, `Adam(policy.mlp.parameters())`)
            yield cut
            continue
        if _models(companions - cut.upstream - facts.frozen) and not _optimized(cut, facts) \
                and not _one_model(cut, companions, facts) \
                and not _may_be_leaves(cut.upstream, facts) \
                and not (not value.post and _trained_by_the_project(cut, facts)):
            # Another model stays attached beside the cut (a policy's log-probabilities times
            # a baseline's detached advantages): a stop-gradient between models, a bug only where
            # what it starves is known to be trained (an optimizer holds it, or it is a leaf made
            # to require grad).
            continue
        if cut.kind != "no_grad" and any(name.endswith("@input") for name in companions) and cut.upstream \
                and all(r.startswith("self.") for r in cut.upstream) and not _optimized(cut, facts) \
                and not (value.post and _trained_by_the_project(cut, facts)):
            # a target a module computes with its own members beside what it is handed (a loss
            # module's blurred mask for the discriminator's prediction): a stop-gradient, a bug
            # only where an optimizer of the file is known to train those members, or the cut
            # values feed the module's own later layers and a script of the project trains it
            continue
        # (a leaf cut in the function that made it, to be returned, is a constant made on purpose:
        # an attack's perturbed input)
        # (a loss with nothing attached beside the region raises at its backward instead)
        # (not a target regressed onto another model kept attached beside it: SAC's entropy
        # bonus `alpha * next_log_pi` in the critic's no_grad target)
        leaves = _leaves_cut_off(cut, companions | value.post, facts) \
            if at_loss and cut.kind == "no_grad" and not cut.carried \
            and not _models(companions - cut.upstream - facts.frozen) \
            and (value.trainables or value.post or value.inputs) \
            and not any(node in switch.value.cuts for switch in facts.switches) else None
        if leaves is not None:
            yield leaves
            continue
        if _decorated_module(cut):
            # a submodule whose forward runs under no_grad, handed activations of this model's
            # members (a rotary embedding applied to the queries and keys): the members only
            # that call reaches lose their only path, whatever the residual keeps attached
            owner = f"{cut.function.class_name}." if cut.function is not None else ""
            own = {r for r in cut.upstream if owner + r in cut.keys}  # (not what its callers named it)
            only = _only_through(dataclasses.replace(cut, upstream=own), companions | value.post | value.trainables,
                                 elsewhere, facts, beside_required=False,
                                 optimizer_required=bool(facts.optimized)) if own else None
            if only is not None:
                yield only
            elif at_loss and not companions and not value.post and value.trainables and _optimized(cut, facts) \
                    and not (_frozen(cut, facts) or _all_frozen(cut, facts)):
                # (a loss module of its own, `aligner(images, feats)` with its forward decorated:
                # the term it returns, alone in the loss, adds a number and no gradient, whatever
                # the other terms train)
                yield cut
            elif node in value.dead and not companions and not (_frozen(cut, facts) or _all_frozen(cut, facts)):
                # (`ce(seg_model.predict(enhanced), mask)` added to a reconstruction loss: a term of
                # what the decorated call was handed, wholly cut, adds a number and no gradient)
                yield cut
            continue
        if cut.kind == "no_grad" and (_overlap(facts.resolve(cut.upstream), facts.resolve(value.post | companions))
                                      or _mid_path_of_a_model_trained_elsewhere(cut, value, facts)):
            # the loss trains the same model through another path (targets, pseudo-labels, an
            # RNN's state); but members of it that only the region computes, built untrained
            # (decoders put under no_grad "to save memory"), get nothing from that path
            narrowed = _untrained_in_region(cut, value, facts)
            if narrowed is None and any(p.startswith("self.") for p in value.post - cut.upstream - facts.frozen) \
                    and cut.function is not None and cut.function.class_name is not None:
                # a region in the middle of a model's own path (its input the model's activations,
                # its result fed to the model's later layers: an attention's weights, a pooled
                # neighbourhood): the members whose only path to the loss runs through it lose it
                narrowed = _only_through(cut, companions | value.post, elsewhere, facts)
            if narrowed is None and _mid_path_of_a_model_trained_elsewhere(cut, value, facts):
                # (the model's file builds no optimizer: a script of the project trains it)
                narrowed = _only_through(cut, companions | value.post, elsewhere, facts,
                                         beside_required=False, optimizer_required=False, keep_the_rest=True)
            if narrowed is not None:
                yield narrowed
            continue
        if cut.kind == "no_grad" and any(node in switch.value.cuts for switch in facts.switches):
            continue  # requires_grad switched on after the region: GL003 reports that switch
        if cut.kind == "no_grad" and not companions and not value.post and value.trainables \
                and _optimized(cut, facts) and not (_frozen(cut, facts) or _all_frozen(cut, facts)):
            # a term wholly computed inside the region from what an optimizer trains (a
            # score-distillation loss of latents encoded under no_grad, a preference margin of
            # scores taken there), beside terms that keep a graph: it adds a number and no
            # gradient, whatever model the region runs (named by the members only such regions
            # compute, where the model's other members train elsewhere)
            only = _only_in_regions(cut, facts) - facts.frozen
            yield dataclasses.replace(cut, upstream=only) if only and only != cut.upstream else cut
            continue
        if cut.kind == "no_grad" and at_loss and _unfrozen_by_a_setting(cut, facts) and _optimized(cut, facts):
            # (`with torch.no_grad(): h = self.base(x)` in a class whose `__init__` freezes
            # `self.base` only `if freeze_base:`, built here with `freeze_base=False`: the region
            # keeps the member frozen whatever the flag says, and the optimizer holds it)
            yield cut
            continue
        if cut.kind == "no_grad" and origin(node) is not None and _decorated_method(cut) \
                and not (at_loss and inference_path(cut, facts, value.trainables | value.post | companions)):
            # (another file's method decorated to run under no_grad, called on an object this file
            # holds: its inference path, or how that file spells a frozen part)
            continue
        if cut.kind == "no_grad" and not _named_in_optimizer(cut, facts) and not _left_trainable(cut, facts) \
                and not _built_untrained(cut, facts) and not ((value.trainables or value.post) and _applies_no_model(cut, facts)) \
                and not (at_loss and inference_path(cut, facts, value.trainables | value.post | companions)):
            # Computing under no_grad is how a frozen backbone, a target network or pseudo-labels
            # are spelled: a loss through it is a bug only where an optimizer is handed exactly
            # the module (or tensor) whose history the region dropped.
            narrowed = _untrained_in_region(cut, value, facts)
            if narrowed is not None:
                yield narrowed
            continue
        if value.post - facts.frozen and not (cut.upstream & value.post) and not _optimized(cut, facts) \
                and not _inside_one_model(cut, value, facts) \
                and not (all(n.startswith("self.") for n in value.post | cut.upstream)
                         and _trained_by_the_project(cut, facts)):
            # the cut feeds a different model (a GAN's discriminator step, a probe), not one the
            # module freezes (a perceptual loss's feature extractor trains nothing); not the
            # model's own later layers, in a class a script of the project trains
            continue
        if _frozen(cut, facts) or _all_frozen(cut, facts):
            continue  # no optimizer of this module updates it: it is frozen on purpose (a teacher)
        # (a dead term: nothing accompanies the cut, no model is applied after it, and the loss has
        # terms attached beside it; it adds a number and no gradient, whatever else trains the model)
        if cut.carried and cut.kind != STATE_DICT and _overlap(cut.upstream, value.trainables) and _kept_whole(cut):
            # a cut of state carried from the last iteration, `loss - prev_loss` of `prev_loss =
            # loss.data`, beside what computed it in this one: a baseline, whose history the
            # loss trains through in its own iteration (a weight snapshot, `state_dict()`, is none)
            continue
        dead = (bool(value.trainables) or switched if not companions else node in value.dead and bool(
            value.trainables or value.inputs - cut.upstream)) and not value.post \
            and (cut.kind != "no_grad" or _applies_no_model(cut, facts)) \
            and (switched or not any(node in switch.value.cuts for switch in facts.switches))  # (a new leaf: the term trains it)
        if at_loss and cut.kind == "no_grad" and inference_path(cut, facts, value.trainables | value.post | companions):
            # (the class's own forward is the recorded path its members train by, not a sink
            # beside this one: only another loss says they train elsewhere)
            elsewhere = [(trainables, backward) for trainables, backward in elsewhere if backward is not None]
        attached_elsewhere = EMPTY if dead else _trained_elsewhere(cut, elsewhere, facts)
        if _overlap(cut.upstream, attached_elsewhere) or (companions and (
                _by_callers(cut.upstream, cut, facts) & facts.resolve(attached_elsewhere))):
            # they are trained through another loss or output (actor-critic, sample()), but for
            # members of one model whose siblings alone are (`m.proj(m.users(u)).detach()`
            # beside a loss through `m.users`, `m.proj` applied nowhere else)
            # (nor a model applied after a cut of what it computed, in what the cut's function
            # returns, `stage(prev.detach())` of a refiner's earlier `stage`: trained there. A
            # parameter read through `.data` in one use loses that use's path whatever else trains it)
            after = frozenset().union(*(r.value.post for r in facts.returns if r.function.node is cut.function.node
                                        and r.value.tensor)) if cut.function is not None and not cut.of_leaf else EMPTY
            left = _members_left(cut, attached_elsewhere | companions | after, facts) \
                if cut.kind in (".detach()", ".data") else None
            if left is not None:
                yield left
            continue
        trained = facts.resolve(value.trainables)
        if dead and not companions and not _overlap(facts.resolve(cut.upstream), trained) \
                and not _optimized(cut, facts) and any(
                not value.cuts[other] and _overlap(facts.resolve(facts.cuts[other].upstream), trained)
                for other in value.cuts if other in facts.cuts and other is not node):
            # (`(local.data - server.data) ** 2` beside the local model's own term: the copy of
            # the model this loss trains is the mistake; the server's is the target it pulls to)
            continue
        if dead and not companions and _snapshot_beside(node, value, facts):
            # (`(w - w0) ** 2` of `w0` copied from the model once before the loop and `w` read
            # from it in each iteration: the copy inside the loop is the mistake, the snapshot
            # is the reference the term pulls to)
            continue
        yield cut


def _snapshot_beside(node, value, facts) -> bool:
    """Another cut of the same models sits in a loop that ``node`` is outside of: ``node`` is the
    copy taken once, before the iterations the other one is taken in."""
    tree = parents(facts.module)
    if node not in tree:
        return False

    def loops(n):
        out, up = set(), tree.get(n)
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if isinstance(up, LOOPS):
                out.add(up)
            up = tree.get(up)
        return out, up

    own, scope = loops(node)
    upstream = facts.resolve(facts.cuts[node].upstream)
    for other in value.cuts:
        if other is node or other not in tree or other not in facts.cuts:
            continue
        theirs, their_scope = loops(other)
        if their_scope is scope and own < theirs \
                and _overlap(facts.resolve(facts.cuts[other].upstream), upstream):
            return True
    return False


def _guarded_by_its_call(cut, backward, facts) -> bool:
    """The backward runs under ``if flag:`` where ``flag`` comes from the very call that handed
    the cut out (``model, preds, loss, perform_backward = contrastive_forward(…)``, then ``if
    perform_backward: loss.backward()``): the helper says when its result is backpropagated (it
    backpropagates itself and hands out a detached copy for logging otherwise)."""
    site = facts.call_sites.get(cut.node)
    if site is None:
        return False
    tree = parents(facts.module)
    bound = tree.get(site)
    if type(bound) is not ast.Assign:
        return False
    flags = {t.id for target in bound.targets for t in ast.walk(target) if type(t) is ast.Name}
    up = tree.get(backward.node)
    while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)):
        if type(up) is ast.If and any(type(n) is ast.Name and n.id in flags for n in ast.walk(up.test)):
            return True
        up = tree.get(up)
    return False


def _post_alone(value, companions, facts) -> set:
    """The models applied after a cut in ``value`` that nothing keeps attached beside it and
    nothing freezes: a model the loss also trains attached (`gen` of `gen.get_attr(y)`, where `y`
    holds a no_grad embedding) says nothing of a dead term beside it."""
    return {name for name in value.post - facts.frozen
            if not any(name == f or name.startswith(f + ".") for f in facts.frozen)
            and not _overlap({name}, companions | value.trainables)}


def _one_object(names) -> bool:
    """Every name is a member of one receiver (``self.actor``, ``self.critic``): names one
    object's methods give alike, so one not among the others is another model (names of
    different functions' parameters say nothing of which models they are)."""
    return bool(names) and all(n.startswith("self.") for n in names)


def _of_parameters(cut, facts) -> bool:
    """The cut's operand is a parameter itself: a name bound by a loop or comprehension over a
    model's ``.parameters()`` (``param.data`` of ``for param in self.model.parameters()``)."""
    operand = cut.node.func.value if type(cut.node) is ast.Call and type(cut.node.func) is ast.Attribute \
        else cut.node.value if type(cut.node) is ast.Attribute else None
    if type(operand) is not ast.Name:
        return False
    up = parents(facts.module)
    node = up.get(cut.node)
    while node is not None:
        loops = node.generators if type(node) in (ast.ListComp, ast.GeneratorExp, ast.SetComp) else \
            [node] if type(node) in (ast.For, ast.AsyncFor) else []
        for loop in loops:
            if type(loop.target) is ast.Name and loop.target.id == operand.id:
                return type(loop.iter) is ast.Call and type(loop.iter.func) is ast.Attribute \
                    and loop.iter.func.attr == "parameters"
        node = up.get(node)
    return False


def _returned_by_its_function(cut) -> bool:
    """The cut is made in a function that hands a value back (a loss method, `criterion(out,
    batch)`), not in the training loop's own body: what it computes goes into what it returns."""
    function = cut.function
    return function is not None and function.name != "<module>" and type(function.node) is not ast.Module \
        and any(type(n) is ast.Return and n.value is not None
                for n in iter_nodes(function.node, into_functions=False))


def _kept_whole(cut) -> bool:
    """The cut is bound to a name as it is (`prev_loss = loss.data`), not a part of what a
    carried sum adds up (`total = total + w.data - lr * g`)."""
    if cut.function is None:
        return False
    return any(type(node) is ast.Assign and node.value is cut.node
               for node in iter_nodes(cut.function.node, into_functions=False))


def _leaves_cut_off(cut, attached, facts):
    """The cut narrowed to the leaves made here to be trained (`patch = nn.Parameter(…)`, a latent
    made with requires_grad=True) that it starves, with nothing beside it keeping them attached in
    its term, and to whatever else upstream an optimizer holds; None where there are none. A leaf
    is made to require grad to be trained, whatever the models it passes through do: a frozen
    detector's no_grad `predict()` gives the patch attacking it nothing."""
    leaves = {r for r in cut.upstream if r in facts.leaves}
    if not leaves or _overlap(leaves, attached) or leaves & facts.frozen or _updates_leaf(cut, leaves, facts):
        return None
    rest = {r for r in cut.upstream - leaves
            if not _frozen_member(r, cut, facts) and facts.resolve({r}) & facts.optimized}
    return dataclasses.replace(cut, upstream=leaves | rest)


def _updates_leaf(cut, leaves, facts) -> bool:
    """The cut is an operand of an in-place update of one of ``leaves`` (`task_w.mul_(2 / task_w.sum())`
    under no_grad, a renormalisation): the leaf keeps its values, not a history to train through."""
    up = parents(facts.module)
    node = up.get(cut.node)
    while node is not None and not isinstance(node, ast.stmt):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr.endswith("_") \
                and dotted(node.func.value) in leaves:
            return True
        node = up.get(node)
    return type(node) is ast.AugAssign and dotted(node.target) in leaves


def _frozen_member(root: str, cut, facts) -> bool:
    """``root`` is frozen by the module (as written) or is a member of a class that freezes
    itself (``for p in self.parameters(): p.requires_grad_(False)`` in its ``__init__``)."""
    if root in facts.frozen or any(root.startswith(f + ".") for f in facts.frozen if f != "self"):
        return True
    if "self" not in facts.frozen or not root.startswith("self.") or cut.function is None:
        return False
    owner = next((n for n in facts.module.body if type(n) is ast.ClassDef
                  and n.name == cut.function.class_name), None)
    init = next((n for n in owner.body if type(n) is ast.FunctionDef and n.name == "__init__"), None) \
        if owner is not None else None
    return init is not None and "self" in frozen_owners(init)


def _decorated_module(cut) -> bool:
    """A no_grad cut at the call of a module whose ``forward`` is decorated to run under no_grad."""
    return cut.kind == "no_grad" and isinstance(cut.region, ast.expr) and type(cut.node) is ast.Call


def _only_through(cut, companions, elsewhere, facts, beside_required: bool = True, optimizer_required: bool = True,
                  keep_the_rest: bool = False):
    """The cut narrowed to the members of one model upstream of it that nothing beside it keeps
    attached, where an optimizer holds them, nothing freezes them and no other sink trains them;
    None where there are none. Only for a model's own members (`self.dec`), whose names tell
    them apart: a whole model named twice is one set of parameters."""
    attached = companions | _by_callers(companions, cut, facts)
    only = {r for r in cut.upstream - attached if r.startswith("self.") and r.count(".") == 1}
    if not only or (beside_required and not any(r.startswith("self.") and r.count(".") == 1
                                                for r in cut.upstream & attached)):
        return None
    if any(r == f or r.startswith(f + ".") for r in only for f in facts.frozen):
        return None
    keys = {k for k in cut.keys if any(k.endswith("." + r) for r in only)}
    narrowed = dataclasses.replace(cut, upstream=only, keys=keys | {k.split(".")[0] + ".*" for k in keys})
    if not keys or (optimizer_required and not _optimized(narrowed, facts)):
        return None
    trained = _trained_elsewhere(narrowed, elsewhere, facts)
    if keep_the_rest and trained:
        # (`keep_the_rest`: those another sink trains left out, the others named)
        rest = {r for r in only if not _overlap({r}, trained)}
        if not rest:
            return None
        keys = {k for k in keys if any(k.endswith("." + r) for r in rest)}
        return dataclasses.replace(cut, upstream=rest, keys=keys | {k.split(".")[0] + ".*" for k in keys})
    if _overlap(only, trained):
        return None
    return narrowed


def _members_left(cut, trained, facts):
    """The cut narrowed to the members of one model upstream of it (``self.proj``,
    ``m.proj@align``) that no other sink trains, where other members of that model are trained
    there (so its members are told apart); None where every member is, or a sink trains the
    model whole. (What a caller handed in, ``item_vec@input``, is the caller's to judge.)"""
    if cut.node in facts.weighing:
        return None  # (an advantage a critic computed, weighing the policy's log-probabilities)
    members = {name: _member(name) for name in cut.upstream if not name.endswith("@input")}
    if not members or None in members.values() or len({owner for owner, _ in members.values()}) != 1:
        return None
    owner = next(iter(members.values()))[0]
    trained = trained | facts.resolve(trained)
    by_member = {_member(name) for name in trained} - {None}
    owners = {owner} | {name.rpartition(".")[0] for name in facts.resolve(cut.upstream)}
    # (the model trained whole by another sink; `model` beside `model.users`, as a method's
    # summary names what it ran, is the receiver of the members named)
    if any(_member(name) is None and name.partition("@")[0] in owners | {"self"}
           and not any(o == name.partition("@")[0] for o, _ in by_member) for name in trained):
        return None
    trained_attrs = {attr for _, attr in by_member}
    left = {name for name, (_, attr) in members.items() if attr not in trained_attrs}
    siblings = {attr for o, attr in by_member if o in owners} - {attr for _, attr in members.values()}
    if not left or (len(left) == len(members) and not siblings):
        return None
    attrs = {members[name][1] for name in left}
    # (and the class's own key, `RoadSegmenter.*`: `Adam(model.parameters())` covers every member)
    keys = {k for k in cut.keys if "." not in k or k.rpartition(".")[2] in attrs or k.endswith(".*")}
    narrowed = dataclasses.replace(cut, upstream=frozenset(left), keys=frozenset(keys))
    if not _optimized(narrowed, facts) or _frozen(narrowed, facts) or _all_frozen(narrowed, facts):
        return None
    return narrowed


def _member(name):
    """``(owner, attribute)`` of a model's member as the walk names it (``self.proj``,
    ``m.proj@align_loss``); None for anything else."""
    head = name.partition("@")[0]
    owner, dot, attr = head.partition(".")
    if not dot or "." in attr or head.endswith(".*"):
        return None
    return owner, attr


def _by_callers(names, cut, facts) -> set:
    """A helper's inputs (``values@input``, ``policies@input``) as the models its callers
    computed them with: two inputs one model computed are that model on both sides."""
    fn = cut.function.name if cut.function is not None else None
    handed = {f"{name.split('@')[0]}@{fn}" for name in names if name.endswith("@input")}
    return facts.resolve(handed) - handed if handed else set()


def _trainers(cut, facts) -> list[str]:
    """The models an optimizer is given that computed the helper inputs a cut starves
    (``acts_s@input`` in ``attention_loss``, handed ``snet(img)`` where ``snet`` is ``student``)."""
    fn = cut.function.name if cut.function is not None else None
    handed = {f"{name.split('@')[0]}@{fn}" for name in cut.upstream if name.endswith("@input")}
    resolved = facts.resolve(handed)
    # (a file that builds no optimizer: the models its callers handed, as they named them)
    found = (resolved | cut.keys) & facts.optimized if facts.optimized else resolved - handed
    # (a member of a handed model, `model.enc`; never a coverage key, `Trainer.self.net`)
    return sorted(name for name in found
                  if all(part.isidentifier() for part in name.split(".")) and "self" not in name.split("."))
