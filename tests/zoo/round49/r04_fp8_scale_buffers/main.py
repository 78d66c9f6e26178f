"""
expect: GL004 main.py:62
dynamic: confirm
source: https://github.com/facebookexperimental/protoquant/pull/25

A float8 training prototype keeps each linear layer's weight scale in a module buffer and refreshes
it every forward pass with buffer.fill_(tensor_to_scale(weight)). The scale is computed from the
live weight, so fill_ makes the buffer an output of this step's graph, and the next forward's fill_
hangs its graph on top of the previous one. The PR reports the second backward failing with
"Trying to backward through the graph a second time" and fixes it by computing the scale under
no_grad. The error message suggests retain_graph=True instead; with that in a gradient-accumulation
trainer the error disappears, but every micro-batch's graph stays reachable from the next loss: the
graph grows with each micro-batch and each backward walks again through all earlier micro-batches.
The asserts show the plain-backward error, the node count reachable from loss.grad_fn growing per
micro-batch under retain_graph=True, a hook on the first micro-batch's scale node firing once per
later backward, and, with the same trainer, a constant graph that is never revisited when the
scale is made under no_grad.
"""
import torch
import torch.nn as nn

from qlinear import Float8Linear, tensor_to_scale, tensor_to_scale_no_grad

torch.manual_seed(0)
torch.set_num_threads(1)


def reachable_nodes(grad_fn):
    seen, stack = set(), [grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def make_model(scale_fn):
    torch.manual_seed(1)
    return nn.Sequential(Float8Linear(16, 32, scale_fn), nn.ReLU(), Float8Linear(32, 4, scale_fn))


def first_attempt(model, micro_batches=2):
    for _ in range(micro_batches):
        x, y = torch.randn(8, 16), torch.randn(8, 4)
        loss = nn.functional.mse_loss(model(x), y) / micro_batches
        loss.backward()


def train_accumulating(model, micro_batches):
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    opt.zero_grad()
    sizes, visits = [], [0]
    for k in range(micro_batches):
        x, y = torch.randn(8, 16), torch.randn(8, 4)
        loss = nn.functional.mse_loss(model(x), y) / micro_batches
        scale_node = model[0].fp8_s_weight.grad_fn
        if k == 0 and scale_node is not None:
            scale_node.register_prehook(lambda grad_outputs: visits.__setitem__(0, visits[0] + 1))
        sizes.append(reachable_nodes(loss.grad_fn))
        loss.backward(retain_graph=True)
    opt.step()
    return sizes, visits[0]


try:
    first_attempt(make_model(tensor_to_scale))
    error = ""
except RuntimeError as err:
    error = str(err)
print("plain backward, differentiable scale: error =", error.split("(")[0].strip())
assert "backward through the graph a second time" in error

grown, visits = train_accumulating(make_model(tensor_to_scale), micro_batches=4)
print("retain_graph=True: reachable nodes per micro-batch =", grown, "| first scale node visited", visits, "times")
assert all(b > a for a, b in zip(grown, grown[1:]))
assert visits == 4

flat, visits_fix = train_accumulating(make_model(tensor_to_scale_no_grad), micro_batches=4)
print("no_grad scale, same trainer:       reachable nodes per micro-batch =", flat)
assert len(set(flat)) == 1 and visits_fix == 0
