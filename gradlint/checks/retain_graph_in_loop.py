"""GL004 retain-graph-in-loop: ``backward(retain_graph=True)`` in a loop whose graph outlives
the iteration.

Reported when the loss depends on a value carried from one iteration to the next without
``.detach()`` (the record grows every step and each backward walks all earlier steps, so the
gradient becomes that of the sum of every loss so far): a name, a list or dict the loop fills,
or a model's own state that its ``forward`` rebuilds from itself (``self.hidden``); or when the
loss was built before the loop (the same graph is backpropagated again every iteration). A
retain that nothing needs keeps one iteration's graph until the name is bound again: no growth,
no wrong gradient, not reported.

PyTorch: https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html (``retain_graph``)
"""
from __future__ import annotations

import ast

from gradlint.checks import Flag, Rule

RULE = Rule(
    "GL004", "retain-graph-in-loop",
    "backward(retain_graph=True) in a loop keeps a graph alive past its iteration; it grows, and gradients include earlier steps.",
)


def check(facts):
    for backward in facts.backwards:
        if not backward.retain_graph or backward.create_graph:
            continue  # create_graph=True: higher-order gradients (MAML, penalties) keep graphs on purpose
        kept = _kept_by_state(backward, facts)
        if kept:
            names = ", ".join(f"`{n}`" for n in kept)
            yield Flag(RULE, backward.node,
                       f"retain_graph=True keeps the saved tensors of `{backward.root}`'s graph alive, and {names}, "
                       f"rebuilt from {'its' if len(kept) == 1 else 'their'} previous value with this call's values "
                       f"without .detach(), holds on to every call's graph: memory grows from call to call",
                       hint=f"store the state detached ({kept[0]} = ….detach(), or use `.item()` for a number kept for "
                            f"logging) and drop retain_graph=True where nothing needs it",
                       details={"root": backward.root, "carried": kept, "kept": True})
            continue
        if backward.loop is None or (backward.across_calls and not backward.value.carried):
            # (in a loop of its own, `for i in range(L): (self.alpha[i] * losses[i]).backward(…)`,
            # the state the method rebuilds from itself still grows from call to call)
            if backward.across_calls:  # the loop is the caller's: each call builds on the last
                state = sorted(backward.across_calls)
                names = ", ".join(f"`{n}`" for n in state)
                yield Flag(RULE, backward.node,
                           f"retain_graph=True on a graph that grows from call to call: `{backward.root}` "
                           f"depends on {names}, rebuilt from its value of the previous call without "
                           f".detach(), so each backward also differentiates every earlier call",
                           hint=f"store it detached ({state[0]} = ….detach()) and drop retain_graph=True",
                           details={"root": backward.root, "carried": state})
            continue
        carried = sorted(backward.value.carried)
        if carried and set(carried) <= _inputs(backward):
            # `torch.autograd.grad(loss, x, retain_graph=True)` of the carried `x` itself (a learned
            # optimizer's unroll): differentiation stops at `x`, so no earlier iteration is walked,
            # and what keeps their graphs is the outer loss built from them, on purpose
            continue
        if carried:
            names = ", ".join(f"`{n}`" for n in carried)
            subject = (f"`{backward.root}` is carried" if carried == [backward.root]
                       else f"`{backward.root}` depends on {names}, carried")
            why = (f"{subject} from the previous iteration without "
                   f".detach(): the retained graph grows every iteration and each backward also "
                   f"differentiates every earlier iteration")
            stepping = _stepping(backward, facts)
            if stepping:
                # (the earlier iterations' graph saved the weights for the carried state's own
                # gradient; the step after each backward edits them in place)
                why += (f"; {stepping} updates in place the parameters that graph saved, so the "
                        f"next iteration's backward fails with \"modified by an inplace operation\"")
            if carried[0] in backward.states:  # `out, self.hidden = self.lstm(x, self.hidden)`
                owner, _, attr = carried[0].rpartition(".")
                hint = (f"detach `{attr}` where `{owner}` stores it (`self.{attr} = ….detach()`), or reset it "
                        f"each iteration, and drop retain_graph=True")
            elif carried[0] in backward.containers:  # `memory["h"]`, `history.append(loss)`
                hint = (f"keep detached values in `{carried[0]}` (`.detach()`, or `.item()` for a number "
                        f"kept for logging) and drop retain_graph=True")
            else:
                hint = f"detach the carried state at the end of each iteration ({carried[0]} = {carried[0]}.detach()) and drop retain_graph=True"
            discarded = _discarded_detach(facts.module, carried)
            if discarded is not None:
                # (`hidden.detach()` written as a statement: the copy is made and thrown away)
                why += (f"; `{facts.code(discarded.value)}` at line {discarded.lineno} makes a detached copy "
                        f"and discards it, leaving `{facts.code(discarded.value.func.value)}` attached")
                hint = (f"assign the copy (`{facts.code(discarded.value.func.value)} = "
                        f"{facts.code(discarded.value)}`) and drop retain_graph=True")
        elif not backward.accumulates:
            continue  # autograd.grad over one graph again and again: Jacobian rows, Hessian-vector products
        elif backward.history_from_outside and backward.stepped_in_loop_names \
                and not any(step.second is backward.node for step in facts.steps):
            # (where the step updates what that graph saved, the next backward fails: GL005's)
            # (a training loop, stepping each iteration, whose loss reads a tensor computed before
            # it: each backward walks that tensor's retained graph again; a loop over heads or
            # tasks that accumulates into one step after it is gradient accumulation)
            names = ", ".join(f"`{n}`" for n in backward.history_from_outside)
            # (`model.adj`: an attribute the model's constructor computed from its parameters)
            built = [n for n in backward.history_from_outside if "." in n]
            when = ("computed once with history when the model was built and never recomputed in the loop"
                    if built else "computed before the loop with history and never recomputed in it")
            why = (f"`{backward.root}` is computed from {names}, {when}, so every iteration backpropagates through that same "
                   f"retained graph again: each backward gives the gradient of that one record, not of "
                   f"the parameters as the steps left them (without retain_graph=True the second "
                   f"iteration raises \"Trying to backward through the graph a second time\")")
            if built:
                attr = built[0].rpartition(".")[2]
                hint = (f"compute `self.{attr}` in `forward()` from the parameters, each call, instead of once "
                        f"in `__init__`; then drop retain_graph=True")
            else:
                hint = (f"compute {names} inside the loop from a fresh forward pass, or detach "
                        f"{'it' if len(backward.history_from_outside) == 1 else 'them'} before the loop if "
                        f"what computed {'it' if len(backward.history_from_outside) == 1 else 'them'} is not "
                        f"meant to train here; then drop retain_graph=True")
        elif backward.root_from_outside:
            if _jacobian_rows(backward):
                continue
            why = (f"`{backward.root}` is computed before the loop, so every iteration backpropagates "
                   f"the same retained graph again: each backward gives the same gradient, that of the "
                   f"loss as computed before the loop, whatever the steps did to the parameters since")
            hint = "compute the loss inside the loop, from a fresh forward pass"
        else:
            continue
        # (a helper's `loss.backward(retain_graph=True)` on what this call hands it: its line,
        # or this call with that line named where the helper is another file's)
        at = backward.inner if backward.inner is not None else backward.node
        call = facts.call_sites.get(at)
        where = "inside a loop" if call is None or call is at else \
            f"in `{facts.code(call.func)}()`, called in a loop at line {{call}}"
        yield Flag(RULE, at, f"{_retain_as_written(backward)} {where}: {why}", hint=hint,
                   details={"root": backward.root, "carried": carried},
                   refs={"call": call} if call is not None and call is not at else {})


def _retain_as_written(backward) -> str:
    """``retain_graph=True``, or the setting that stands for it (`retain_graph=retain`, a parameter
    defaulting to True), as the call spells it."""
    given = next((k.value for k in getattr(backward.node, "keywords", ()) if k.arg == "retain_graph"), None)
    if given is None or (type(given) is ast.Constant and given.value is True):
        return "retain_graph=True"
    return f"retain_graph={ast.unparse(given)} (True by default)"


def _kept_by_state(backward, facts) -> list:
    """The receiver's attributes the method of this backward rebuilds from themselves with
    history recorded in the call (``Summary.state``: a running average of the task losses,
    `self.loss_ema = 0.9 * self.loss_ema + 0.1 * torch.stack(losses)`), where the loss does not
    depend on them (then the graph grows, reported below): they keep every call's retained graph
    (a backward of a value with no history raises, so what is backpropagated has some)."""
    fn = backward.function
    if fn.class_name is None or backward.across_calls or backward.value.carried:
        return []
    summary = facts.summaries.get(f"{fn.class_name}.{fn.name}")
    if summary is None or summary.node is not fn.node:
        return []
    return sorted(name for name in summary.state if name.startswith("self.") and _rebuilt_from_itself(fn.node, name))


def _rebuilt_from_itself(function, name: str) -> bool:
    """The function assigns ``name`` a value that reads it (`self.avg = 0.9 * self.avg + …`,
    `self.avg += …`): not a value kept on one path and replaced on another."""
    for node in ast.walk(function):
        if type(node) is ast.AugAssign and ast.unparse(node.target) == name:
            return True
        if type(node) is ast.Assign and any(ast.unparse(t) == name for t in node.targets) \
                and any(type(n) is ast.Attribute and ast.unparse(n) == name for n in ast.walk(node.value)):
            return True
    return False


def _inputs(backward) -> set:
    """The names the call differentiates against (`autograd.grad(loss, x)`, `(h, c)`,
    `loss.backward(inputs=[x])`), as written; empty where it names none."""
    call = backward.node
    given = next((k.value for k in call.keywords if k.arg == "inputs"), None)
    if given is None and not (isinstance(call.func, ast.Attribute) and call.func.attr == "backward") \
            and len(call.args) > 1:
        given = call.args[1]
    if given is None:
        return set()
    items = given.elts if type(given) in (ast.Tuple, ast.List) else [given]
    return {ast.unparse(item) for item in items}


def _jacobian_rows(backward) -> bool:
    """`y.backward(mask, retain_graph=True)` with a vector each iteration, in a loop that reads
    `.grad` (`rows[k] = x.grad`): a Jacobian row by row through one retained graph, the
    vector-Jacobian products it is meant to compute, not a stale loss trained again."""
    call = backward.node
    vector = any(k.arg in ("gradient", "grad_tensors") for k in call.keywords) or bool(
        call.args if isinstance(call.func, ast.Attribute) and call.func.attr == "backward" else call.args[1:])
    return vector and any(isinstance(n, ast.Attribute) and n.attr == "grad" and isinstance(n.ctx, ast.Load)
                          for n in ast.walk(backward.loop))


def _stepping(backward, facts) -> str:
    """The optimizer steps after this backward in its loop (``opt.step()``, as written), before
    the next iteration's backward, where they update a module the iteration hands the carried
    state to (``out, h = rnn(x, h)``): the earlier iterations' records saved its weights for that
    state's gradient, and the next backward reaches them. "" where none is known to."""
    if not backward.stepped_in_loop_names or not (facts.resolve(backward.fed) & backward.stepped_in_loop):
        return ""
    return " and ".join(f"`{name}.step()`" for name in sorted(backward.stepped_in_loop_names))


# ---- the dynamic pass -------------------------------------------------------------------------

# What the tracer gathers (``dynamic/evidence.KINDS``): the size and roots of the record at each
# run of the flagged backward call.
EVIDENCE = frozenset({"backward_site"})


def probe(probes, flag) -> None:
    """No probe: the tracer recognises the flagged backward call by its lines ("backward_site")."""
    if flag.details.get("kept"):
        probes.need("kept_state")


def decide(tracer, evidence) -> tuple[str, str]:
    """Confirmed when the flagged call's record grew from call to call, or when calls started
    from the same record again; dismissed when it stayed the same size."""
    from gradlint.dynamic.verdicts import elsewhere

    finding = evidence.finding
    counts = evidence.counts
    if not counts:
        return "not-reached", f"the backward call at {finding['where']} never ran{elsewhere(tracer)}"
    if "kept_state" in evidence.kinds:
        # (what grows is the state's record, which no backward of the run walks: counted from
        # the state itself at each call)
        kept = [k for k in evidence.kept if k is not None]
        state = ", ".join(f"`{n}`" for n in finding.get("state") or ()) or "the state"
        grown = _longest_growth(kept)
        if len(grown) >= 3 or (len(grown) == 2 and len(kept) == 2):
            # (growing call after call; a new object's state starts small again)
            return "confirmed", (f"the record {state} keeps grew from {grown[0]} to {grown[-1]} nodes over "
                                 f"{_calls(len(grown))} successive backward calls at {finding['where']}")
        return "inconclusive", (f"the backward call at {finding['where']} ran {len(counts)} times; "
                                + (f"the record {state} keeps stayed between {min(kept)} and {max(kept)} nodes"
                                   if len(kept) >= 2 else f"{state} held no record at those calls to count"))
    root = evidence.root
    if evidence.same_root:
        return "confirmed", (f"{_calls(evidence.same_root + 1)} backward calls at {finding['where']} started from the same "
                             f"record of {root}: each gave the gradient of that one record again")
    if len(counts) < 2:
        return "inconclusive", f"the backward call at {finding['where']} ran once: nothing to compare"
    if all(b > a for a, b in zip(counts, counts[1:])):
        return "confirmed", (f"the record of {root} grew from {counts[0]} to {counts[-1]} nodes "
                             f"over {_calls(len(counts))} backward calls ({finding['where']})")
    if counts[-1] > counts[0] and len(set(counts)) > 2:
        return "confirmed", (f"the record of {root} grew from {counts[0]} to {counts[-1]} nodes "
                             f"over {_calls(len(counts))} backward calls ({finding['where']})")
    if evidence.shared:  # (the same size each time, from a new root: a record made before the loop)
        return "confirmed", (f"{_calls(evidence.shared + 1)} backward calls at {finding['where']} walked nodes of the "
                             f"record that an earlier call had walked (recorded before the loop): each "
                             f"gave the gradient of those nodes again")
    return "dismissed", (f"the record of {root} stayed at {max(counts)} nodes or fewer over {_calls(len(counts))} "
                         f"backward calls ({finding['where']}): no iteration's graph was carried into the next")


def _longest_growth(counts: list) -> list:
    """The longest run of successive counts each larger than the one before."""
    best, run = counts[:1], counts[:1]
    for a, b in zip(counts, counts[1:]):
        run = run + [b] if b > a else [b]
        if len(run) > len(best):
            best = run
    return best


def _calls(n: int) -> str:
    """How many backward calls the evidence counted: the run counts a site's first
    ``COUNT_LIMIT`` only, and says so."""
    from gradlint.dynamic.backwards import COUNT_LIMIT

    return f"the first {n}" if n >= COUNT_LIMIT else str(n)


def _discarded_detach(module, carried):
    """A statement that only calls ``.detach()`` on a carried name (``hidden.detach()``), in
    this file: the user meant to cut the state there, and the copy is thrown away."""
    from gradlint.analysis.imports import dotted

    names = set(carried)
    for node in ast.walk(module):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and not node.value.args \
                and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "detach" \
                and dotted(node.value.func.value) in names:
            return node
    return None
