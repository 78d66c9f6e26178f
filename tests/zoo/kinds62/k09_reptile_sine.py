"""
expect: none
dynamic: dismiss
source: none, invented

Reptile meta-learning on sine-wave regression, written the old-fashioned way with `.data` arithmetic. For each
task, adapt(meta_net, fast_net, ...) copies the meta weights into a working network, runs a few hand-written
SGD steps on it (`p.data = p.data - inner_lr * p.grad`), and then moves every meta parameter towards the adapted
one with `meta_p.data = meta_p.data + eps * (fast_p.data - meta_p.data)`. Every value written through `.data`
comes from the parameters' own values and gradients, which carry no history, so no gradient path is removed:
the only loss that is backpropagated is the inner regression loss through fast_net itself. The asserts show the
meta weights change and that, after meta-training, five adaptation steps from the meta initialisation fit a new
sine task much better than five steps from the untrained initialisation.
"""
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def sine_task():
    amp = torch.empty(1).uniform_(0.5, 2.0)
    phase = torch.empty(1).uniform_(0, math.pi)

    def sample(n=20):
        x = torch.empty(n, 1).uniform_(-5, 5)
        return x, amp * torch.sin(x + phase)

    return sample


def regressor():
    return nn.Sequential(nn.Linear(1, 40), nn.Tanh(), nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 1))


def inner_sgd(net, sample, steps, lr):
    for _ in range(steps):
        x, y = sample()
        loss = F.mse_loss(net(x), y)
        net.zero_grad()
        loss.backward()
        for p in net.parameters():
            p.data = p.data - lr * p.grad
    return net


def adapt(meta_net, fast_net, sample, inner_steps=5, inner_lr=0.02, eps=0.1):
    fast_net.load_state_dict(meta_net.state_dict())
    inner_sgd(fast_net, sample, inner_steps, inner_lr)
    for meta_p, fast_p in zip(meta_net.parameters(), fast_net.parameters()):
        meta_p.data = meta_p.data + eps * (fast_p.data - meta_p.data)


def eval_after_adaptation(init_net, n_tasks=20, steps=5):
    g = torch.get_rng_state()
    torch.manual_seed(123)
    total = 0.0
    for _ in range(n_tasks):
        sample = sine_task()
        net = inner_sgd(copy.deepcopy(init_net), sample, steps, 0.02)
        x, y = sample(100)
        with torch.no_grad():
            total += F.mse_loss(net(x), y).item()
    torch.set_rng_state(g)
    return total / n_tasks


def main():
    meta_net, fast_net = regressor(), regressor()
    untrained = copy.deepcopy(meta_net)
    start = [p.detach().clone() for p in meta_net.parameters()]

    for it in range(1500):
        adapt(meta_net, fast_net, sine_task())

    assert all(not torch.equal(p, p0) for p, p0 in zip(meta_net.parameters(), start))
    assert all(p.grad_fn is None for p in meta_net.parameters())
    base = eval_after_adaptation(untrained)
    meta = eval_after_adaptation(meta_net)
    assert meta < 0.8 * base, (base, meta)
    print(f"k09: post-adaptation mse {base:.3f} (untrained init) vs {meta:.3f} (meta init)")


if __name__ == "__main__":
    main()
