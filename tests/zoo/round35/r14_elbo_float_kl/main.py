"""
expect: GL002 46
dynamic: confirm
source: https://github.com/SURGroup/UQpy/blob/HEAD/src/UQpy/scientific_machine_learning/losses/EvidenceLowerBound.py

UQpy's EvidenceLowerBound loss types its `kl` argument as a PositiveFloat
(checked by beartype) and returns `nll * train_size + kl_weight * kl`. A
caller that satisfies the type check has to turn the network's KL tensor
into a Python float, which silently removes the KL term from the gradient:
the variational parameters are pulled towards the data only, never towards
the prior. The asserts show the rho gradient is the same for kl_weight 0
and 1, while passing the KL tensor (fixed variant) changes it.
"""
import torch
import torch.nn as nn

from bayes import BayesLinear, EvidenceLowerBound

torch.manual_seed(0)
torch.set_num_threads(1)


class BayesNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = BayesLinear(6, 16)
        self.l2 = BayesLinear(16, 3)

    def forward(self, x):
        return torch.log_softmax(self.l2(torch.relu(self.l1(x))), dim=-1)

    def divergence(self):
        return self.l1.divergence() + self.l2.divergence()


model = BayesNet()
x = torch.randn(32, 6)
y = torch.randint(0, 3, (32,))
elbo = EvidenceLowerBound(train_size=32)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def train_step(kl_weight, seed=0):
    torch.manual_seed(seed)
    opt.zero_grad()
    kl = float(model.divergence())
    loss = elbo(model(x), y, kl, kl_weight)
    loss.backward()
    return loss


for step in range(10):
    train_step(kl_weight=1.0, seed=step)
    opt.step()

train_step(kl_weight=0.0)
g0 = model.l1.rho.grad.clone()
train_step(kl_weight=1.0)
g1 = model.l1.rho.grad.clone()

# fixed variant: keep the KL as a tensor
torch.manual_seed(0)
opt.zero_grad()
log_probs = model(x)
fixed = elbo.nll(log_probs, y) * 32 + 1.0 * model.divergence()
fixed.backward()
g_fixed = model.l1.rho.grad.clone()

print("rho grad diff kl_weight 0 vs 1:", (g0 - g1).abs().max().item())
print("rho grad diff buggy vs fixed:", (g1 - g_fixed).abs().max().item())
assert torch.allclose(g0, g1), "the KL weight should matter"
assert not torch.allclose(g1, g_fixed, atol=1e-4)
print("confirmed: the KL term never reaches the variational parameters")
