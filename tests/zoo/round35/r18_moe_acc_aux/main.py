"""
expect: GL004 50
dynamic: confirm
source: https://github.com/UMass-Foundation-Model/Mod-Squad/blob/HEAD/parallel_linear/parallel_experts/moe.py

Mod-Squad's MoE (after David Rau's sparse MoE) can accumulate balancing
statistics across forward calls (acc_probs = acc_probs + probs.sum(0), ...)
and only builds the switch/z auxiliary loss, and clears them, in
get_aux_loss_and_clear(). The trainer here reads that loss every AUX_EVERY
steps to pool tokens but backpropagates the task loss every step, so the
statistics keep old steps' graphs alive and each task backward needs
retain_graph=True. The asserts show the graph behind acc_probs grows every
step and that without retain_graph the aux backward hits a freed old graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from moe import MoE

torch.manual_seed(0)
torch.set_num_threads(1)

AUX_EVERY = 4


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train(retain, steps=8):
    torch.manual_seed(0)
    moe = MoE(8)
    head = nn.Linear(8, 1)
    opt = torch.optim.SGD(list(moe.parameters()) + list(head.parameters()), lr=0.05)
    sizes = []
    for step in range(steps):
        x = torch.randn(16, 8)
        y = x.sum(1, keepdim=True)
        opt.zero_grad()
        loss = F.mse_loss(head(moe(x)), y)
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        if (step + 1) % AUX_EVERY == 0:
            sizes.append(graph_size(moe.acc_probs))
            moe.get_aux_loss_and_clear().backward()
        opt.step()
    return sizes


sizes = train(retain=True)
print("graph nodes behind acc_probs at each aux read:", sizes)

torch.manual_seed(0)
probe = MoE(8)
growth = []
for step in range(AUX_EVERY):
    probe(torch.randn(16, 8))
    growth.append(graph_size(probe.acc_probs))
print("graph nodes per step between reads:", growth)
assert all(b > a for a, b in zip(growth, growth[1:])), "old steps stay in the graph"

err = None
try:
    train(retain=False)
except RuntimeError as e:
    err = str(e)
print("without retain_graph:", err[:70] if err else "no error")
assert err is not None and "second time" in err
print("confirmed: accumulated statistics carry old graphs across steps")
