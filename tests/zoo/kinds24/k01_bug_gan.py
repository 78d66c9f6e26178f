"""
expect: GL001 26
dynamic: confirm
source: kinds check 24, kind 1 (written for this check)

The critic's forward hooks (closures) keep `output.detach()` in the module-level dict `acts`,
and the generator's feature-matching term is built from those stored activations alone and
added to the adversarial loss. The term is nonzero, yet the generator's gradient is identical
with the term's weight 0 and 1; a separately built critic whose hooks keep the output attached
gives a different gradient, so the cut is what starves the term.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)

acts = {}


def tap(name):
    def hook(module, inputs, output):
        acts[name] = output.detach()
    return hook


def tap_attached(store, name):
    def hook(module, inputs, output):
        store[name] = output
    return hook


class Critic(nn.Module):
    def __init__(self, d=6, h=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(d, h), nn.LeakyReLU(0.2))
        self.block2 = nn.Sequential(nn.Linear(h, h), nn.LeakyReLU(0.2))
        self.head = nn.Linear(h, 1)

    def forward(self, x):
        return self.head(self.block2(self.block1(x)))


def generator_loss(gen, critic, store, z, real, fm_weight):
    with torch.no_grad():
        critic(real)
    real_feats = dict(store)
    fake = gen(z)
    adv = F.softplus(-critic(fake)).mean()
    fm = sum((store[k].mean(0) - real_feats[k].mean(0)).pow(2).mean() for k in real_feats)
    return adv + fm_weight * fm, fm


def gen_grads(gen, critic, store, z, real, fm_weight):
    gen.zero_grad()
    loss, fm = generator_loss(gen, critic, store, z, real, fm_weight)
    loss.backward()
    return [p.grad.clone() for p in gen.parameters()], fm.item()


gen = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))
critic = Critic()
fixed_critic = copy.deepcopy(critic)
for name in ("block1", "block2"):
    getattr(critic, name).register_forward_hook(tap(name))
fixed_store = {}
for name in ("block1", "block2"):
    getattr(fixed_critic, name).register_forward_hook(tap_attached(fixed_store, name))

z, real = torch.randn(32, 4), torch.randn(32, 6) + 2.0
g0, _ = gen_grads(gen, critic, acts, z, real, 0.0)
g1, fm = gen_grads(gen, critic, acts, z, real, 1.0)
assert fm > 1e-4, fm
assert all(torch.equal(a, b) for a, b in zip(g0, g1)), "feature matching reached the generator"

f0, _ = gen_grads(gen, fixed_critic, fixed_store, z, real, 0.0)
f1, _ = gen_grads(gen, fixed_critic, fixed_store, z, real, 1.0)
assert any(not torch.allclose(a, b) for a, b in zip(f0, f1)), "attached hooks should add gradient"
print("bug confirmed: detached hook features give the generator no feature-matching gradient")
