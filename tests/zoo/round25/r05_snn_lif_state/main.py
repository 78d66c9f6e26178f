"""
expect: GL004 49
dynamic: confirm
source: https://github.com/fangwei123456/spikingjelly/issues/514

The report: a hand-written LIF neuron keeps its membrane potential `self.v` as module
state, and GPU memory rises by a fixed amount every simulation step. Here the
neuron in neuron.py carries `v` from one training step to the next without a reset
or detach, so the step loss reaches back into every earlier step; backward with
retain_graph=True (the usual way past "backward through the graph a second time")
keeps all of it alive. The asserts count autograd nodes reachable from the loss:
they grow every step, while the variant that detaches the state stays flat.
"""
import torch
import torch.nn.functional as F

from neuron import SpikingMLP

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train(detach_state, steps=12):
    net = SpikingMLP()
    opt = torch.optim.SGD(net.parameters(), lr=0.05)
    sizes = []
    for step in range(steps):
        x = torch.randn(16, 12)
        y = (x[:, 0] > 0).long()
        if detach_state and net.lif.v is not None:
            net.lif.v = net.lif.v.detach()
        loss = F.cross_entropy(net(x), y)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if detach_state:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        opt.step()
    return sizes


leaky = train(detach_state=False)
flat = train(detach_state=True)
assert all(b > a for a, b in zip(leaky[1:], leaky[2:])), leaky
assert leaky[-1] > 3 * leaky[1]
assert len(set(flat[1:])) == 1, flat
print("ok", leaky, flat)
