"""What the rules' verdicts share: the reach decision of a cut or a new leaf, why a leaf
was meant to train, and how a site that never ran is explained.

A rule's ``decide(tracer, evidence)`` (in its module under ``gradlint/checks/``) returns
(status, the sentence that states the evidence); these read the tracer's record of the run.
"""
from __future__ import annotations

import os


def intent(tracer, key: int) -> str:
    """Why this leaf should have received a gradient, or "" if nothing says it should. With
    optimizers, being held by one says so, or the program's own code reading its gradient (a
    model no optimizer holds and whose gradient nothing reads is frozen on purpose: linear
    probing, an EMA teacher); in a run without any, requiring grad is reason enough, also for a
    leaf the run freed before its end (a test or a gradient check calls backward() and trains
    nothing, and no run shows a leaf that requires grad left out on purpose)."""
    leaf = tracer.leaves[key]
    t = leaf.ref()
    ident = id(t) if t is not None else None
    if ident in tracer.held:
        return "an optimizer holds it"
    if ident in tracer.asked:
        return "the program asks autograd.grad for its gradient"
    if ident in tracer.grad_read or leaf.read:
        return "the program reads its .grad"
    if tracer.optimizers:
        return ""
    if t is not None and t._version != leaf.version:
        return "the program updates it"
    if (t is not None and t.requires_grad) or leaf.loose:
        # (a leaf made to require grad and freed by the end of the run, an attack's
        # perturbation returned detached, required it all the same)
        return "it requires grad, and the run has no optimizer to say otherwise"
    return ""


def _stepped_bare(tracer, key: int) -> bool:
    """An optimizer stepped this leaf, and never with a gradient on it."""
    leaf = tracer.leaves.get(key)
    t = leaf.ref() if leaf is not None else None
    seen = tracer.steps_seen.get(id(t)) if t is not None else None
    return seen is not None and seen[0] == 0 and seen[1] > 0


def _held_never_reached(tracer) -> list[str]:
    """The names of the tensors an optimizer holds that require grad and that no backward of the
    run reached."""
    reached = {id(t) for t in (tracer.leaves[k].ref() for k in tracer.reached if k in tracer.leaves) if t is not None}
    names = {id(leaf.ref()): tracer.shown(k) for k, leaf in tracer.leaves.items() if leaf.ref() is not None}
    return [names.get(id(p), "").strip("`") for p in tracer.held_refs
            if p.requires_grad and id(p) not in reached]


def idle_shape(tracer) -> tuple:
    """The shape of the first tensor an optimizer holds that no backward reached."""
    reached = {id(t) for t in (tracer.leaves[k].ref() for k in tracer.reached if k in tracer.leaves) if t is not None}
    return next((tuple(p.shape) for p in tracer.held_refs if p.requires_grad and id(p) not in reached), ())


def used_otherwise(tracer, evidence, key: int) -> bool:
    """A leaf that backward reaches, but never the way the record before the cut used it: a
    weight-decay term (``PowBackward0`` on the weight) keeps the weight reachable while every
    use of it in the forward pass is cut. A stop-gradient on one branch (SimSiam) leaves the
    same use (``TBackward0``, ``ConvolutionBackward0``) reached through the other branch."""
    before = evidence.uses.get(key)
    return bool(before and key in tracer.reached and not before & tracer.reached_uses.get(key, set()))


def elsewhere(tracer) -> str:
    """For a site that never ran: the program started processes, and what they ran is not
    followed (``mp.spawn`` workers, a forked ``Process``)."""
    if not tracer.processes:
        return ""
    return (f" in the driver's process (the program started {tracer.processes} other process"
            f"{'es' if tracer.processes != 1 else ''}; code they run is not followed)")


def raised_at(tracer, err: BaseException) -> int:
    """The last line of the user's code in the traceback of ``err``."""
    line, tb = 0, err.__traceback__
    while tb is not None:
        if tracer.is_user(tb.tb_frame.f_code.co_filename):
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def owners(shown: list) -> str:
    """Leaves named as the run names them (`` `net.enc.0.weight` ``), listed: as they are where
    three or fewer, else by the modules that hold them, cut at the deepest level that leaves
    three or fewer (a generator's 47 weights are its blocks: `` `G.down` (12 tensors) ``)."""
    if len(shown) <= 3:
        return ", ".join(shown)
    names = [n.strip("`") for n in shown]
    depth = max(n.count(".") for n in names) + 1
    groups: dict = {}
    while depth > 0:
        groups = {}
        for name in names:
            groups.setdefault(".".join(name.split(".")[:depth]), []).append(name)
        if len(groups) <= 3:
            break
        depth -= 1
    if len(groups) == 1:
        # (one model's: where its leaves differ only in a block's index, `model.res_conv*.1.
        # conv_du` (20 tensors) says which layer of each block, as `model` does not)
        owner = _pattern(names)
        if owner is not None:
            groups = {owner: names}
    parts = [f"`{members[0]}`" if len(members) == 1 else f"`{owner}` ({len(members)} tensors)"
             for owner, members in groups.items()]
    if len(parts) > 3:
        return f"{', '.join(parts[:2])} and {len(parts) - 2} more"
    return ", ".join(parts)


def _pattern(names: list) -> str | None:
    """The dotted path ``names`` share, a differing component written as a wildcard (``res_conv1``,
    ``res_conv2`` -> ``res_conv*``), cut before the first wholly differing one; None where that
    says no more than the root."""
    split = [n.split(".") for n in names]
    if len({len(parts) for parts in split}) != 1:
        return None
    out = []
    for column in zip(*split):
        if len(set(column)) == 1:
            out.append(column[0])
            continue
        stem = os.path.commonprefix(column)
        if not stem or stem.isdigit():
            break
        out.append(stem + "*")
    return ".".join(out) if len(out) > 1 else None


def reached_meanwhile(tracer, evidence) -> set:
    """The leaves a backward reached while the finding's path was being trained: from the first
    backward whose roots carried it to the last. A loop that trains through a cut, then one step
    of another loss after it, starves what the cut cuts for the whole loop; a loss that
    alternates with it (a GAN's other step) reaches it in between; carried by one backward, only
    what that backward reached counts (a step run with the cut, then once without it)."""
    span = evidence.carried_span
    if len(span) < 2:
        return tracer.reached
    first, last = span
    return {k for k in tracer.reached if any(a <= last and first <= b for a, b in tracer.reached_at.get(k, ()))}


def reach(tracer, evidence, what: str, rebuilt: bool = False, other_use: bool = False) -> tuple[str, str]:
    """The verdict on a cut (``.detach()``) or a new leaf (a rebuilt tensor, a tensor switched to
    require grad): whether leaves that influenced a backward root through the finding got no
    gradient on that path, and were meant to.
    ``what``: what the probe read, as the evidence names it ("the tensor it cuts"). ``rebuilt``:
    the value takes part in the loss as if trained through (a rebuilt or switched value), so
    the path it cuts is missing even where the leaf gets a gradient by another path.
    ``other_use``: a leaf reached only through another use of it (``used_otherwise``) counts
    as starved."""
    finding = evidence.finding
    at = f"`{finding['label']}` ({finding['where']})"
    if not evidence.runs:
        return "not-reached", f"{at} never ran{elsewhere(tracer)}"
    if not evidence.upstream:
        if evidence.opaque:
            # (`torch.tensor(reward)` of a number another file's `.item()` made: no evidence either way)
            return "inconclusive", (f"{what} were Python numbers or an array where the run read them, "
                                    "whose lineage it does not follow back to the tensors they came from")
        idle = _held_never_reached(tracer) if rebuilt and evidence.carried_backwards else []
        if idle:
            # (`loss.requires_grad_()` on a loss of frozen parameters only, while the optimizer
            # holds a head the forward never runs: the backward from the new leaf reaches
            # nothing, and what is meant to train gets nothing from any backward)
            named = sorted({f"`{name}`" for name in idle if name})
            shown = owners(named) if len(named) == len(idle) else \
                f"{len(idle)} tensor{'s' if len(idle) > 1 else ''} (of shape {list(idle_shape(tracer))})"
            return "confirmed", (f"no leaf that requires grad influenced {what}, so the backward from "
                                 f"{at} reached nothing; {shown} that an optimizer holds got no gradient "
                                 "from any backward of the run")
        return "dismissed", f"no leaf that requires grad influenced {what}: there was no gradient to lose"
    if not evidence.carried_backwards:
        if not tracer.backwards:
            return "inconclusive", f"{at} ran, but no backward() or autograd.grad() followed"
        if tracer.leaf_backwards == tracer.backwards:
            # (another cut made the loss a new leaf first: nothing could reach this site either)
            return "inconclusive", (f"{at} ran, but every backward() of the run started from a leaf with "
                                    "no record behind it (a loss rebuilt or cut elsewhere), so none could reach it")
        if (evidence.escaped and not rebuilt) or evidence.number:
            # (a rebuild is probed past its numbers, but not one the arithmetic made of `float(x)`)
            return "inconclusive", (f"what {at} produced left the record as Python numbers or an array "
                                    "(`.item()`, `.tolist()`, `.numpy()`), which the run does not follow "
                                    "to a backward root")
        return "dismissed", (f"what {at} produced never reached a backward root "
                             f"({tracer.backwards} backward call{'s' if tracer.backwards != 1 else ''} ran without it)")
    # A .detach() beside an attached path of the same leaves is a stop-gradient (SimSiam).
    reached = reached_meanwhile(tracer, evidence)
    starved = [k for k in evidence.influenced
               if rebuilt or k not in reached or other_use and used_otherwise(tracer, evidence, k)]
    meant = [(k, intent(tracer, k)) for k in sorted(starved, key=tracer.shown)]
    meant = [(k, why) for k, why in meant if why]
    if meant:
        unreached = [(k, why) for k, why in meant if k not in reached]
        key, why = (unreached or meant)[0]
        root, where, _ = evidence.influenced[key]
        shown = [tracer.shown(key)] + sorted(set(tracer.shown(k) for k, _ in meant) - {tracer.shown(key)})
        named, others = owners(shown), len(shown) > 1
        if unreached:
            if others and why == "an optimizer holds it":
                why = "an optimizer holds them"
            return "confirmed", (f"{named} influenced {root} ({where}) but no backward "
                                 f"reached {'them' if others else 'it'}: the path stops at {at}; {why}")
        other = sorted(tracer.reached_uses.get(key, ()))
        how = f" (its gradient comes only through {', '.join(other[:2])}, another use of it)" if \
            other_use and used_otherwise(tracer, evidence, key) else \
            " (they get a gradient by other paths, none through this one)" if others \
            else " (it gets a gradient by another path, none through this one)"
        if others and why == "an optimizer holds it":
            why = "an optimizer holds them"
        return "confirmed", (f"{named} influenced {root} ({where}) through {at}, and "
                             f"{'their gradients leave' if others else 'its gradient leaves'} that path out{how}; {why}")
    if starved:
        names = ", ".join(tracer.shown(k) for k in starved[:3])
        why = "no optimizer of the run holds" if tracer.optimizers else "the program never updates or reads the gradient of"
        return "dismissed", f"{names} got no gradient through {at}, but {why} them: left out on purpose"
    bare = [k for k in sorted(evidence.influenced, key=tracer.shown) if _stepped_bare(tracer, k)]
    if bare:
        # (the path the cut stops is the only one a stepping optimizer would use: the other
        # path's gradient is cleared before the step that holds them, a DDPG critic's own
        # `q.detach()` beside the actor loss that reaches it)
        root, where, _ = evidence.influenced[bare[0]]
        named = owners(list(dict.fromkeys(tracer.shown(k) for k in bare)))
        return "confirmed", (f"{named} influenced {root} ({where}) through {at}; the optimizer that holds "
                             f"{'them' if len(bare) > 1 else 'it'} stepped and never found a gradient on "
                             f"{'them' if len(bare) > 1 else 'it'}: the other paths' gradients are cleared "
                             "before its steps")
    # (each leaf named once: two runs of one model build leaves of the same names)
    names = ", ".join(list(dict.fromkeys(tracer.shown(k) for k in sorted(evidence.upstream)))[:3])
    return "dismissed", f"every leaf upstream of {at} ({names}) received a gradient through another path"
