"""Which leaves were meant to train: the ones an optimizer holds.

``watch`` wraps ``Optimizer.add_param_group`` to record the leaves each optimizer holds
(``tracer.held``) and count the optimizers (``tracer.optimizers``), and takes the tracer's mode
off the stack while an optimizer steps.
"""
from __future__ import annotations

import weakref

import torch


def watch(tracer):
    """Wrap ``Optimizer.add_param_group`` (which ``__init__`` also calls) to learn which
    leaves an optimizer holds (``tracer.held``), and step the mode aside during ``step()``.
    Returns a function that undoes it."""
    original = torch.optim.Optimizer.add_param_group

    seen = weakref.WeakSet()  # optimizers met; nothing is written onto the user's objects

    def add_param_group(opt, param_group):
        result = original(opt, param_group)
        try:
            if opt not in seen:
                seen.add(opt)
                tracer.optimizers += 1
            for p in opt.param_groups[-1]["params"]:  # the group just added
                if id(p) not in tracer.held:
                    tracer.held.add(id(p))
                    tracer.held_refs.append(p)
        except Exception:
            pass
        return result

    torch.optim.Optimizer.add_param_group = add_param_group
    paused: list = []

    def before_step(opt, args, kwargs):
        try:  # (whether each leaf it steps has a gradient to step by)
            for group in opt.param_groups:
                for p in group["params"]:
                    if p.requires_grad:
                        tracer.steps_seen.setdefault(id(p), [0, 0])[p.grad is None] += 1
        except Exception:
            pass
        # An optimizer's arithmetic is most of the torch calls of a small training step and
        # none of the evidence (a step is seen by its probe and by the versions it moves), so
        # the mode steps aside for it; not for a closure (LBFGS), which runs backward().
        depth = torch._C._len_torch_function_stack()
        closure = any(callable(a) for a in args[1:]) or kwargs.get("closure") is not None  # args[0]: opt
        if closure or not depth \
                or torch._C._get_function_stack_at(depth - 1) is not tracer:
            paused.append(None)
        else:
            paused.append(torch._C._pop_torch_function_stack())

    def after_step(opt, args, kwargs):
        mode = paused.pop() if paused else None
        if mode is not None:
            torch._C._push_on_torch_function_stack(mode)

    from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
    hooks = [register_optimizer_step_pre_hook(before_step), register_optimizer_step_post_hook(after_step)]

    def undo():
        torch.optim.Optimizer.add_param_group = original
        for hook in hooks:
            hook.remove()
    return undo
