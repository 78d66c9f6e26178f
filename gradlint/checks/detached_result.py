"""GL001 detached-result: a ``.detach()`` / ``.data`` whose result is returned or becomes the loss.

A cut is reported only where the trainables upstream of it get no gradient another way: a
detached copy kept for logging never reaches a sink; a stop-gradient beside an attached branch
of the same model (SimSiam), one in front of a different model (a GAN's discriminator step), and
one whose upstream is trained through another loss or output of the module (actor-critic
advantages, a VAE's sample()) are intended.

PyTorch: https://pytorch.org/docs/stable/generated/torch.Tensor.detach.html
"""
from __future__ import annotations

import re

import libcst as cst

from gradlint.checks import Report
from gradlint.rule import BY_CODE

RULE = BY_CODE["GL001"]

# A cut of these is a target or teacher branch, cut on purpose.
# ("baseline" is not one: REINFORCE's learned baseline is trained.)
_INTENDED = {"target", "teacher", "ema", "momentum", "frozen", "old", "prev", "pretrained"}
# What these return is trained through (a training step, a loss function).
_TRAINING = {"train", "training", "loss", "losses", "step", "objective", "criterion"}
# What these return are results handed out, not values computed with.
_EVALUATION = {"eval", "evaluate", "evaluation", "valid", "validate", "validation", "test", "predict",
               "prediction", "infer", "inference", "metric", "metrics", "score", "sample", "generate",
               "visualize", "visualise", "plot", "log"}
# Names of recurrent state handed back detached for the next call (truncated BPTT).
_STATE = {"h", "c", "hx", "cx", "hn", "cn", "hidden", "hiddens", "state", "states", "memory", "memories",
          "mem", "mems", "cache", "carry", "past", "kv"}


def check(facts):
    reported = set()
    sinks = _sinks(facts)
    for ret in facts.returns:
        fn = ret.function
        if fn.name == "<module>" or fn.nograd or fn.trains_locally:
            continue
        if _says(fn.name, _INTENDED) or _says(fn.class_name, _INTENDED):
            continue
        # What a training step or a loss function returns is trained through, whatever else
        # the module returns attached.
        elsewhere = frozenset() if _says(fn.name, _TRAINING) else _elsewhere(sinks, ret.node)
        # Each element of a returned tuple is an output of its own (`return logits,
        # aux_logits.detach()`), except state handed back for the next call (TBPTT's hidden).
        parts = ([value for expr, value in ret.parts if not _says(_last_name(expr), _STATE)]
                 if ret.parts else [ret.value])
        for value in parts:
            # A detached by-product of what a sibling output trains (`return loss, logits.detach()`).
            siblings = frozenset().union(*(other.roots for _, other in ret.parts if other is not value))
            for cut in _broken(value, facts, elsewhere):
                if ret.parts and cut.upstream <= siblings:
                    continue
                if any(name.endswith("@input") for name in cut.upstream) and (
                        fn.name != "forward" or value.cuts[cut.node] or value.post):
                    continue  # only a forward's whole output cut from its own input is that sure
                yield from _report_return(cut, fn, reported)

    for site in facts.backwards:
        for cut in _broken(site.value, facts, _elsewhere(sinks, site.node)):
            if site.loop is not None and cut.loop is site.loop and cut.carried:
                continue  # truncated backpropagation: state cut between iterations on purpose
            if cut.node not in reported:
                reported.add(cut.node)
                yield _report(cut, f"becomes part of the loss `{site.root}` (backward at line {{sink}})", sink=site.node)


def _last_name(expr) -> str | None:
    """``h`` for ``h.detach()``, ``self.hidden[0].detach()`` → ``hidden``."""
    while True:
        if isinstance(expr, cst.Call) and expr.args and _last_name(expr.func) in ("stack", "cat", "concat"):
            expr = expr.args[0].value  # `torch.stack(memories)`: the list names what it holds
        elif isinstance(expr, cst.Call):
            expr = expr.func
        elif isinstance(expr, cst.Attribute) and expr.attr.value in ("detach", "data", "detach_", "clone", "contiguous"):
            expr = expr.value
        elif isinstance(expr, cst.Subscript):
            expr = expr.value
        elif isinstance(expr, cst.Attribute):
            return expr.attr.value
        elif isinstance(expr, cst.Name):
            return expr.value
        else:
            return None


def _says(name: str | None, words: set[str]) -> bool:
    """Whether one of the words of ``name`` (``compute_ema_target``, ``EMATeacher``,
    ``self.target_net``) is in ``words``; ``semantic`` does not say ``ema``."""
    if not name:
        return False
    spaced = re.sub(r"([a-z\d])([A-Z])|([A-Z])([A-Z][a-z])", r"\1\3_\2\4", name)
    return any(word in words for word in re.split(r"[_.\d@]+", spaced.lower()) if word)


def _parameters(node) -> set[str]:
    params = node.params
    return {p.name.value for p in [*params.posonly_params, *params.params, *params.kwonly_params]}


def _report_return(cut, fn, reported):
    if _says(fn.name, _EVALUATION) and (fn.class_name is None or {u.split("@")[0] for u in cut.upstream} <= _parameters(fn.node)):
        return  # `def predict(model, x): return model(x).detach()` hands out results
    if cut.node not in reported:
        reported.add(cut.node)
        yield _report(cut, f"is returned from `{fn.name}()`")


def _sinks(facts) -> dict:
    """Where a value leaves the code to be trained through: backward roots, and tensors
    returned from functions. Sink node -> the trainable roots attached there."""
    sinks = {site.node: site.value.roots for site in facts.backwards}
    for ret in facts.returns:
        if ret.function.name != "<module>" and ret.value.tensor:
            sinks[ret.node] = ret.value.roots
    return sinks


def _elsewhere(sinks: dict, here) -> frozenset:
    return frozenset().union(*(roots for node, roots in sinks.items() if node is not here))


def _overlap(upstream, roots) -> bool:
    """Shared trainables; ``self`` (the whole module, as in ``self.forward(x)``) shares with
    every ``self.x``."""
    if upstream & roots:
        return True
    whole = "self" in upstream or "self" in roots
    return whole and any(r.startswith("self.") for r in upstream | roots)


def _optimized(cut, facts) -> bool:
    """An optimizer of this module updates what the cut starves: it was meant to train.
    (``cut.keys`` holds ``Net.*`` for a cut inside ``Net``, so ``Adam(model.parameters())``
    on a ``Net`` covers it; a probe's ``SGD(model.head.parameters())`` does not.)"""
    return bool(cut.keys & facts.optimized) or bool(_resolve(cut.upstream, facts) & facts.optimized)


def _named_in_optimizer(cut, facts) -> bool:
    """An optimizer is given this very module (``model.pretrained_encoder.parameters()``), not
    just the whole model around it."""
    return any(not key.endswith(".*") and key in facts.optimized for key in cut.keys)


def _inside_one_model(cut, value, facts) -> bool:
    """``return self.head(self.backbone(x).detach())`` in a model's own method, in a file that
    builds no optimizer: everything trainable in the value comes after the cut, and both sides
    are parts of one model, which its training code (elsewhere) most likely optimizes whole —
    not a GAN's discriminator step, which lives in training code. A file with optimizers says
    what they train, and ``_optimized`` decides there."""
    fn = cut.function
    if fn is None or fn.class_name is None or facts.optimized or facts.optimizers_open or value.roots:
        return False  # (value.roots: something trainable stays attached beside it: an auxiliary head)
    names = cut.upstream | value.post
    return all(n == "self" or n.startswith("self.") for n in names)


def _frozen(cut, facts) -> bool:
    """Every optimizer of the module is known, and none updates what the cut starves."""
    if not facts.optimized or facts.optimizers_open or _optimized(cut, facts):
        return False
    # A model parameter no call site resolves could be anything the optimizers hold.
    return not any("@" in name for name in _resolve(cut.upstream, facts))


def _resolve(names, facts, depth: int = 0) -> set:
    """Model parameters (``net@embed``) replaced by what their callers pass, transitively."""
    out = set()
    for name in names:
        sources = facts.param_sources.get(name)
        if sources and depth < 8:
            out |= _resolve(sources, facts, depth + 1)
        else:
            out.add(name)
    return out


def _broken(value, facts, attached_elsewhere):
    """The cuts in ``value`` that starve the trainables upstream of them."""
    for node, companions in value.cuts.items():
        cut = facts.cuts.get(node)
        if cut is None or not cut.upstream:
            continue
        if any(_says(root, _INTENDED) for root in cut.upstream) and not _named_in_optimizer(cut, facts):
            continue  # a target or teacher, unless an optimizer is handed exactly that module
        if cut.upstream & companions:
            continue  # the same trainables stay attached beside the cut (SimSiam)
        if value.post and not (cut.upstream & value.post) and not _optimized(cut, facts) \
                and not _inside_one_model(cut, value, facts):
            continue  # the cut feeds a different model (a GAN's discriminator step, a probe)
        if _frozen(cut, facts) or cut.upstream <= facts.frozen:
            continue  # no optimizer of this module updates it: it is frozen on purpose (a teacher)
        if _overlap(cut.upstream, attached_elsewhere):
            continue  # they are trained through another loss or output (actor-critic, sample())
        yield cut


def _report(cut, where: str, **refs):
    # A parameter taken to be a model is keyed `model@train`: show the name the user wrote.
    names = sorted({name.split("@")[0] for name in cut.upstream})
    shown = {name.split("@")[0]: name for name in cut.upstream}
    upstream = ", ".join(
        "this module's parameters (`self`)" if name == "self"
        else f"whatever computed `{name}`" if shown[name].endswith("@input")
        else f"`{name}`" for name in names)
    expr = f"{cut.tensor}{cut.kind}"
    verb = "gets" if len(names) == 1 and "self" not in names else "get"
    return Report(
        RULE, cut.node,
        f"the result of `{expr}` {where}, so {upstream} {verb} no gradient through it",
        hint=(f"use the attached `{cut.tensor}` there and detach only the copy you log or store; "
              f"if the cut is intended, add `# noqa: GL001`"),
        details={"tensor": cut.tensor, "cut": cut.kind, "upstream": names},
        refs=refs,
    )
