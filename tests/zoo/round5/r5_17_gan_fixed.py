"""source: https://github.com/MorvanZhou/PyTorch-Tutorial/pull/91

The repaired ordering of the same toy painting GAN: the generator is updated first from its
own loss, then the discriminator is scored on `fake.detach()` with a fresh forward pass and
updated. The leftover retain_graph=True only keeps this iteration's D graph, which is rebuilt
every step, so nothing raises and the graph size stays constant.
"""
import torch
import torch.nn as nn

BATCH, N_IDEAS, N_POINTS = 32, 5, 15
points = torch.linspace(-1, 1, N_POINTS).expand(BATCH, N_POINTS)


def real_paintings():
    a = torch.empty(BATCH, 1).uniform_(1, 2)
    return a * points.pow(2) + (a - 1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
gen = nn.Sequential(nn.Linear(N_IDEAS, 64), nn.ReLU(), nn.Linear(64, N_POINTS))
disc = nn.Sequential(nn.Linear(N_POINTS, 64), nn.ReLU(), nn.Linear(64, 1), nn.Sigmoid())
opt_D = torch.optim.Adam(disc.parameters(), lr=1e-4)
opt_G = torch.optim.Adam(gen.parameters(), lr=1e-4)
sizes = []

for step in range(5):
    fake = gen(torch.randn(BATCH, N_IDEAS))
    g_loss = torch.mean(torch.log(1.0 - disc(fake)))
    opt_G.zero_grad()
    g_loss.backward()
    opt_G.step()

    prob_real = disc(real_paintings())
    prob_fake = disc(fake.detach())
    d_loss = -torch.mean(torch.log(prob_real) + torch.log(1.0 - prob_fake))
    opt_D.zero_grad()
    d_loss.backward(retain_graph=True)
    assert all(p.grad is not None for p in disc.parameters())
    opt_D.step()
    sizes.append(graph_size(d_loss))

assert all(p.grad is not None for p in gen.parameters())
assert len(set(sizes)) == 1, sizes
print("ok: both networks train, graph constant:", sizes)
