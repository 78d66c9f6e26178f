"""
expect: GL004 main.py:47
dynamic: confirm
source: https://github.com/zhouchenlin2096/QKFormer/issues/10

A user trained the spiking transformer QKFormer with a plain PyTorch loop (forward, loss,
zero_grad, backward, step) and got "Trying to backward through the graph a second time":
the LIF neurons keep their membrane potential between batches and the usual
functional.reset_net(model) after each step was missing. The common "fix" is
backward(retain_graph=True), which makes every step backpropagate through all earlier
batches. With a small LIF network standing in for QKFormer, this program shows the error
without retain_graph, then counts the autograd nodes
reachable from the loss: they grow every step with retain_graph and stay constant when the
network is reset each step.
"""
import torch
import torch.nn.functional as F

from snn import PopulationSNN, reset_net

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


x = torch.randn(16, 20) * 2.0
label = torch.randint(0, 4, (16,))
target = F.one_hot(label, 4).float()

model = PopulationSNN()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
sizes = []
for iteration in range(6):
    pre_label = model(x)
    loss_total = F.mse_loss(pre_label, target)
    optimizer.zero_grad()
    loss_total.backward(retain_graph=True)
    optimizer.step()
    sizes.append(graph_nodes(loss_total))
assert all(b > a for a, b in zip(sizes, sizes[1:])), f"graph grows every step: {sizes}"
assert sizes[-1] - sizes[0] == 5 * (sizes[1] - sizes[0]), "linear growth, one batch per step"

plain = PopulationSNN()                                   # without retain_graph: the error
opt = torch.optim.Adam(plain.parameters(), lr=1e-2)
F.mse_loss(plain(x), target).backward()
opt.step()
try:
    F.mse_loss(plain(x), target).backward()
    raise AssertionError("expected the second-backward error")
except RuntimeError as err:
    assert "second time" in str(err)

fixed = PopulationSNN()                                   # reset_net after every step
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
fixed_sizes = []
for iteration in range(6):
    loss_total = F.mse_loss(fixed(x), target)
    opt.zero_grad()
    loss_total.backward()
    opt.step()
    fixed_sizes.append(graph_nodes(loss_total))
    reset_net(fixed)
assert len(set(fixed_sizes)) == 1, f"constant graph with reset_net: {fixed_sizes}"
print("ok: graph nodes per step", sizes, "vs", fixed_sizes)
