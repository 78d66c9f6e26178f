"""GL004 retain-graph-in-loop: ``backward(retain_graph=True)`` in a loop whose graph outlives
the iteration.

Reported when the loss depends on a value carried from one iteration to the next without
``.detach()`` (the record grows every step and each backward walks all earlier steps, so the
gradient becomes that of the sum of every loss so far), when the loss was built before the
loop (the same graph is backpropagated again every iteration), or when no later backward in the
same iteration needs the retained graph. Two losses of one forward pass, each backpropagated
once in the same iteration, are the intended use and are not reported.

PyTorch: https://pytorch.org/docs/stable/generated/torch.Tensor.backward.html (``retain_graph``)
"""
from __future__ import annotations

from gradlint.checks import Report
from gradlint.rule import BY_CODE

RULE = BY_CODE["GL004"]


def check(facts):
    for site in facts.backwards:
        if site.loop is None or not site.retain_graph or site.create_graph:
            continue  # create_graph=True: higher-order gradients (MAML, penalties) keep graphs on purpose
        carried = sorted(site.value.carried)
        if carried:
            names = ", ".join(f"`{n}`" for n in carried)
            subject = (f"`{site.root}` is carried" if carried == [site.root]
                       else f"`{site.root}` depends on {names}, carried")
            why = (f"{subject} from the previous iteration without "
                   f".detach(): the retained graph grows every iteration and each backward also "
                   f"differentiates every earlier iteration")
            hint = f"detach the carried state at the end of each iteration ({carried[0]} = {carried[0]}.detach()) and drop retain_graph=True"
        elif not site.accumulates:
            continue  # autograd.grad over one graph again and again: Jacobian rows, Hessian-vector products
        elif site.root_from_outside:
            why = (f"`{site.root}` is computed before the loop, so every iteration backpropagates "
                   f"the same retained graph again and its gradients accumulate")
            hint = "compute the loss inside the loop, from a fresh forward pass"
        elif not site.freed_later and not site.window and not site.root_is_item:
            # (a window's graph is reused until its detach; a loop over the losses of one
            # forward needs the graph until the last of them)
            why = (f"no later backward in the iteration uses the retained graph of `{site.root}`; "
                   f"it stays alive into the next iteration")
            hint = "drop retain_graph=True, or detach whatever carries the graph across iterations"
        else:
            continue
        yield Report(RULE, site.node, f"retain_graph=True inside a loop: {why}", hint=hint,
                     details={"root": site.root, "carried": carried})
