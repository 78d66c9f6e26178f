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

from gradlint.checks import Report
from gradlint.rule import BY_CODE

RULE = BY_CODE["GL003"]


def check(facts):
    for switch in facts.switches:
        value = switch.value
        if not value.nograd or value.attached or value.rebuilt or switch.intended_leaf:
            continue
        region = next(iter(value.nograd))
        tensor = f"`{switch.name}`" if switch.name else "the tensor"
        yield Report(
            RULE, switch.node,
            f"{tensor} was computed {_describe(facts, region)} and has no history: switching "
            f"requires_grad on makes it a new leaf, and what produced it still gets no gradient",
            hint="compute it with gradients enabled (remove the no_grad region around it) "
                 "instead of switching requires_grad on afterwards",
            details={"tensor": switch.name},
            refs={"region": region},
        )


    for site in facts.nograd_backprops:
        if _under_local_context(facts, site):
            continue
        yield Report(
            RULE, site.node,
            f"this call runs backward() (line {{backward}}) on a loss it computes, but it is made "
            f"{_describe(facts, site.region)}: nothing it computes is recorded, so that backward() "
            f"raises \"element 0 of tensors does not require grad\"",
            hint="make the call outside the no_grad region, or wrap the code that backpropagates "
                 "in `with torch.enable_grad():`",
            details={"callee": site.callee},
            refs={"region": site.region, "backward": site.backward},
        )


def _under_local_context(facts, site) -> bool:
    """The call sits in a ``with`` of a context manager this file binds itself
    (``ctx = torch.enable_grad if ttt else nullcontext``): it may switch recording back on."""
    point = (site.node.lineno, site.node.col_offset)
    for node in ast.walk(site.function.node):
        if type(node) not in (ast.With, ast.AsyncWith) or node is site.region:
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


def _describe(facts, node) -> str:
    if isinstance(node, (ast.With, ast.AsyncWith)):
        items = ", ".join(facts.code(item.context_expr) for item in node.items)
        return f"under `with {items}` (line {{region}})"
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return f"in `{node.name}()`, which runs without recording autograd (line {{region}})"
    if isinstance(node, ast.Call):
        return f"by `{facts.code(node.func)}(…)`, which runs without recording autograd (line {{region}})"
    if isinstance(node, ast.Expr):
        return f"after `{facts.code(node)}` (line {{region}})"
    return "where autograd recorded nothing (line {region})"
