"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 1 (written for this check)

A helper class registers a bound method as forward hook on two critic blocks; it keeps the
output attached in `features` for the generator's feature-matching loss and a detached
summary in `stats` only for logging. The asserts show the feature-matching term changes the
generator's gradient (weight 0 vs 1), every generator and critic parameter gets a nonzero
gradient, and the logged stats are plain floats.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(1)


class FeatureTap:
    def __init__(self, critic, names):
        self.features, self.stats, self.names = {}, {}, {}
        for n in names:
            block = getattr(critic, n)
            self.names[block] = n
            block.register_forward_hook(self.record)

    def record(self, module, inputs, output):
        name = self.names[module]
        self.features[name] = output
        self.stats[name] = output.detach().abs().mean()


class Critic(nn.Module):
    def __init__(self, d=6, h=16):
        super().__init__()
        self.block1 = nn.Sequential(nn.Linear(d, h), nn.LeakyReLU(0.2))
        self.block2 = nn.Sequential(nn.Linear(h, h), nn.LeakyReLU(0.2))
        self.head = nn.Linear(h, 1)

    def forward(self, x):
        return self.head(self.block2(self.block1(x)))


gen = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 6))
critic = Critic()
tap = FeatureTap(critic, ["block1", "block2"])
z, real = torch.randn(32, 4), torch.randn(32, 6) + 2.0


def gen_step(fm_weight, log):
    gen.zero_grad()
    critic(real)
    real_feats = {k: v.detach() for k, v in tap.features.items()}
    adv = F.softplus(-critic(gen(z))).mean()
    fm = sum(F.mse_loss(tap.features[k].mean(0), real_feats[k].mean(0)) for k in real_feats)
    (adv + fm_weight * fm).backward()
    log.append({k: v.item() for k, v in tap.stats.items()})
    return [p.grad.clone() for p in gen.parameters()]


log = []
g0, g1 = gen_step(0.0, log), gen_step(1.0, log)
assert any(not torch.allclose(a, b) for a, b in zip(g0, g1)), "fm term gave no gradient"
assert all(g.abs().sum() > 0 for g in g1)
assert all(isinstance(v, float) for v in log[-1].values())

critic.zero_grad()
d_loss = F.softplus(-critic(real)).mean() + F.softplus(critic(gen(z).detach())).mean()
d_loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in critic.parameters())
print("ok: attached hook features train the generator; detached copies only logged")
