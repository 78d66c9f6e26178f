"""Reading the autograd record: which leaves a root reaches, how big its record is, what its
nodes saved, and the names a user knows the leaves by.

A tensor computed by recorded ops has a ``grad_fn``, a node of the record; each node lists the
nodes of its inputs in ``next_functions``, and the record ends at ``AccumulateGrad`` nodes, one
per leaf that requires grad (its ``.variable``). ``backward()`` can only fill the ``.grad`` of
the leaves it reaches that way. (PyTorch: https://pytorch.org/docs/stable/notes/autograd.html,
"How autograd encodes the history".)

The public functions here are re-exported as ``gradlint.reachable_leaves``,
``gradlint.unreachable_parameters`` and ``gradlint.assert_reachable``. This module imports torch.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import torch

_SAVED_NAMES: dict[type, tuple[str, ...]] = {}
_STALE = re.compile(
    # "[torch.FloatTensor [2, 2]]", and for bf16 or complex "[CPUBFloat16Type [2, 3]]"
    r"\[(?:torch\.)?\w+ \[([\d, ]*)\]\](?:, which is output \d+ of [\w:]+,)? is at version (\d+); expected version (\d+)")


def nodes(roots: Iterable[torch.Tensor], limit: int | None = None) -> Iterator:
    """Every node of the record behind ``roots``, each once (depth-first from the roots).

    ``limit``: stop after that many nodes. Roots without a ``grad_fn`` contribute nothing.
    """
    stack = [t.grad_fn for t in roots if isinstance(t, torch.Tensor) and t.grad_fn is not None]
    seen: set[int] = set()
    keep = []  # holding the nodes keeps their ids from being reused during the walk
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        keep.append(node)
        yield node
        if limit is not None and len(seen) >= limit:
            return
        stack.extend(nxt for nxt, _ in node.next_functions)


def leaves_of(roots: Iterable[torch.Tensor]) -> list[torch.Tensor]:
    """The leaves that require grad which ``backward()`` from ``roots`` would reach, in the
    order met. A root that is itself such a leaf counts."""
    return [leaf for leaf, _ in leaf_uses(roots).values()]


def leaf_uses(roots: Iterable[torch.Tensor]) -> dict[int, tuple[torch.Tensor, set[str]]]:
    """id(leaf) -> (leaf, how the record uses it: the class names of the nodes right above its
    ``AccumulateGrad``, e.g. ``{"TBackward0"}`` for a Linear weight, ``{"PowBackward0"}`` for
    a weight-decay term) for each leaf that requires grad and that ``roots`` reach."""
    roots = [t for t in roots if isinstance(t, torch.Tensor)]
    found: dict[int, tuple[torch.Tensor, set[str]]] = {}
    for t in roots:
        if t.grad_fn is None and t.requires_grad:
            # A view made under no_grad of a leaf (``w.t()``) requires grad and has no grad_fn
            # of its own: the leaf behind it is its base.
            while t._base is not None and t._base.requires_grad:
                t = t._base
            found.setdefault(id(t), (t, set()))[1].add("(the root itself)")
    for node in nodes(roots):
        if getattr(node, "variable", None) is not None:
            continue
        for nxt, _ in node.next_functions:
            variable = getattr(nxt, "variable", None) if nxt is not None else None
            if variable is not None:
                found.setdefault(id(variable), (variable, set()))[1].add(type(node).__name__)
    return found


def saved_tensors(node) -> Iterator[tuple[str, object]]:
    """(attribute, value) for each tensor ``node`` saved for backward. The value is the tensor,
    or the ``RuntimeError`` PyTorch raises on reading it when an in-place edit moved its version
    since it was saved (or the record was already freed by a backward)."""
    names = _SAVED_NAMES.get(type(node))
    if names is None:
        names = _SAVED_NAMES[type(node)] = tuple(a for a in dir(node) if a.startswith("_saved_")) or (
            # (a custom Function's node is its ctx: what its forward handed save_for_backward)
            ("saved_tensors",) if isinstance(node, torch.autograd.function.BackwardCFunction) else ())
    for name in names:
        try:
            value = getattr(node, name)
        except RuntimeError as err:
            yield name, err
            continue
        if isinstance(value, torch.Tensor):
            yield name, value
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, torch.Tensor):
                    yield name, item


def stale(err: RuntimeError) -> tuple[tuple[int, ...], int, int] | None:
    """(shape, version now, version when saved) from PyTorch's "modified by an inplace
    operation" error, or None for any other error."""
    match = _STALE.search(str(err))
    if match is None:
        return None
    shape = tuple(int(d) for d in match.group(1).replace(" ", "").split(",") if d)
    return shape, int(match.group(2)), int(match.group(3))


def parameter_names(module_or_named) -> dict[int, str]:
    """id(parameter) -> name, from an ``nn.Module`` (``named_parameters()``), a mapping of names
    to tensors, or an iterable of (name, tensor) pairs."""
    if isinstance(module_or_named, torch.nn.Module):
        pairs = module_or_named.named_parameters()
    elif hasattr(module_or_named, "items"):
        pairs = module_or_named.items()
    else:
        pairs = module_or_named
    return {id(p): name for name, p in pairs}


def reachable_leaves(root: torch.Tensor | Iterable[torch.Tensor]) -> list[torch.Tensor]:
    """The leaf tensors ``root.backward()`` would give a gradient: every leaf that requires grad
    and that the record of ``root`` (one tensor or several) reaches, in the order met.

    Read before calling ``backward()``, or with ``retain_graph=True``: a freed record still
    lists its nodes. A root without history (``grad_fn is None``) reaches only itself, if it
    requires grad. Raises ``TypeError`` if ``root`` holds no tensor.
    """
    roots = [root] if isinstance(root, torch.Tensor) else list(root) if isinstance(root, (list, tuple)) else []
    if not roots or not all(isinstance(t, torch.Tensor) for t in roots):
        raise TypeError(f"expected a tensor (the loss) or a list of tensors, got {type(root).__name__}")
    return leaves_of(roots)


def _named(module_or_named) -> list[tuple[str, torch.Tensor]]:
    if isinstance(module_or_named, torch.nn.Module):
        pairs = list(module_or_named.named_parameters())
    elif hasattr(module_or_named, "items"):
        pairs = list(module_or_named.items())
    else:
        pairs = list(module_or_named)
    if not all(isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], torch.Tensor)
               for p in pairs):
        raise TypeError("expected an nn.Module, a mapping of names to tensors, or (name, tensor) pairs such "
                        "as model.named_parameters(); bare tensors have no names to report")
    return pairs


def unreachable_parameters(root, module_or_named) -> list[str]:
    """Names of the parameters that require grad but that ``root``'s record does not reach,
    in the order given: exactly those whose ``.grad`` ``root.backward()`` would leave as it was.

    ``module_or_named``: an ``nn.Module`` (names as ``named_parameters()`` gives them), a mapping
    of names to tensors, or (name, tensor) pairs. Parameters with ``requires_grad=False`` are
    frozen on purpose and never listed.
    """
    pairs = _named(module_or_named)
    reached = {id(t) for t in reachable_leaves(root)}
    return [name for name, p in pairs if p.requires_grad and id(p) not in reached]


def assert_reachable(root, module_or_named) -> None:
    """Raise ``AssertionError`` naming every parameter (that requires grad) which ``root``'s
    record does not reach, and so would get no gradient from ``root.backward()``.

    The smallest test of a training step: ``assert_reachable(loss, model)`` before
    ``loss.backward()``.
    """
    __tracebackhide__ = True  # pytest shows the caller's line  # noqa: F841
    missing = unreachable_parameters(root, module_or_named)
    if missing:
        shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
        roots = [root] if isinstance(root, torch.Tensor) else list(root)
        why = ""
        if all(t.grad_fn is None and not t.requires_grad for t in roots):
            why = (" — the loss itself has no grad_fn: it was computed where autograd recorded "
                   "nothing (torch.no_grad(), inference_mode, .detach(), .item())")
        raise AssertionError(
            f"{len(missing)} parameter{'s' if len(missing) != 1 else ''} unreachable from the loss "
            f"(they get no gradient): {shown}{why}")


def tree(root: torch.Tensor, name_of, mark: Iterable[str] = (), limit: int = 60, depth_limit: int = 12,
         note: dict | None = None) -> dict:
    """The record of ``root`` as nested ``{"label", "children"}`` dicts for printing: node
    class names, leaves as ``AccumulateGrad → name``; nodes met again are shown once and then
    as ``(seen above)``. Past ``limit`` nodes or ``depth_limit`` levels a branch is summed up in
    one line that still names the leaves it reaches. ``mark``: names of leaves the root does
    not reach (``"unreachable"`` in the result); ``note``: id(node) -> a remark for its line
    (the node whose saved tensor an edit made stale)."""
    count = 0
    seen: set[int] = set()
    note = note or {}

    def summary(node) -> dict | None:
        below = list(nodes_below(node))
        if not below:  # (all shown above already: a line would say "0 more nodes")
            return None
        leaves = [name_of(n.variable) for n in below if getattr(n, "variable", None) is not None]
        shown = ", ".join(leaves[:4]) + (f" and {len(leaves) - 4} more" if len(leaves) > 4 else "")
        text = f"… {len(below)} more node{'s' if len(below) != 1 else ''}"
        return {"label": text + (f", reaching {shown}" if leaves else ""), "children": []}

    def nodes_below(node):
        stack, met = [node], set()
        while stack:
            n = stack.pop()
            if n is None or id(n) in met or id(n) in seen:
                continue
            met.add(id(n))
            yield n
            stack.extend(nxt for nxt, _ in n.next_functions)

    def build(node, depth):
        nonlocal count
        count += 1
        variable = getattr(node, "variable", None)
        label = type(node).__name__
        if variable is not None:
            label += f" → {name_of(variable)}"
        if id(node) in note:
            label += f"   ◀ {note[id(node)]}"
        if id(node) in seen:
            more = variable is None and any(n is not None for n, _ in node.next_functions)
            return {"label": label + (" (seen above)" if more else ""), "children": []}
        seen.add(id(node))
        children = []
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            if count >= limit or depth >= depth_limit:
                children.extend(filter(None, [summary(nxt)]))
                continue
            children.append(build(nxt, depth + 1))
        return {"label": label, "children": children}

    if root.grad_fn is None:
        top = {"label": "(a leaf: no record)", "children": []}
    else:
        top = build(root.grad_fn, 0)
    return {"label": top["label"], "children": top["children"], "unreachable": list(mark)}
