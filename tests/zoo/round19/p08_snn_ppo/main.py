"""
expect: GL004 40
dynamic: confirm
source: https://github.com/jeshraghian/snntorch/issues/340

The report trains a spiking PPO actor (Leaky neurons created with init_hidden, so the membrane
potential lives on the module) and hits "Trying to backward through the graph a second time"
on the second mini-batch of the update phase, because the membrane carried over from the first
mini-batch still points into the freed graph. The usual quick fix is backward(retain_graph=True).
This program rebuilds that update loop (snn_actor.py holds the stateful LIF layer, never reset
between mini-batches) with the retain_graph fix: it runs, but every mini-batch's graph now
hangs off the previous one, so the graph reached by backward grows across iterations. The
asserts count autograd nodes per mini-batch (strictly growing) and show that resetting the
membrane at the start of each mini-batch keeps the count constant.
"""
import torch
from snn_actor import SpikingActor


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def ppo_update(actor, opt, batches, reset_each_batch):
    sizes = []
    for obs, actions, old_logp, adv in batches:
        if reset_each_batch:
            actor.lif.reset_hidden()
        logp = actor(obs).gather(1, actions[:, None]).squeeze(1)
        ratio = torch.exp(logp - old_logp)
        loss = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
        sizes.append(graph_size(loss))
    return sizes


torch.manual_seed(0)
B, OBS, ACT = 16, 6, 3
batches = [(torch.randn(B, OBS), torch.randint(0, ACT, (B,)), torch.full((B,), -1.1), torch.randn(B))
           for _ in range(6)]

actor = SpikingActor(OBS, ACT)
opt = torch.optim.Adam(actor.parameters(), lr=1e-3)
sizes = ppo_update(actor, opt, batches, reset_each_batch=False)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

actor2 = SpikingActor(OBS, ACT)
opt2 = torch.optim.Adam(actor2.parameters(), lr=1e-3)
sizes2 = ppo_update(actor2, opt2, batches, reset_each_batch=True)
assert len(set(sizes2)) == 1, sizes2
print("p08 ok: graph grows", sizes, "vs constant", sizes2)
