"""
expect: none
dynamic: dismiss
source: https://github.com/locuslab/fast_adversarial/issues/26

The report is about the PGD attack inside the MNIST adversarial-training script: delta gets
requires_grad each iteration, its values are edited in place through delta.data[I] = ...,
and the reporter noticed delta.grad piling up across iterations. This look-alike is the
repaired shape: the attack is a leaf perturbation, its gradient is zeroed each iteration,
the .data edits happen after backward (nothing saved is overwritten), and the returned
delta is detached before the model step. The asserts show the attack matches an
out-of-place torch.where version, stays inside the eps ball, raises the loss, and the
model still gets gradients and trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

EPS, ALPHA, ITERS = 0.1, 0.025, 7


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * 8 * 8, 10)

    def forward(self, x):
        h = F.relu(self.conv(x))
        return self.fc(F.max_pool2d(h, 2).flatten(1))


def pgd_attack(model, X, y):
    delta = torch.zeros_like(X).uniform_(-EPS, EPS)
    delta.data = torch.max(torch.min(1 - X, delta.data), 0 - X)
    delta.requires_grad = True
    for _ in range(ITERS):
        out = model(X + delta)
        loss = F.cross_entropy(out, y)
        loss.backward()
        grad = delta.grad.detach()
        still_right = out.max(1)[1] == y
        step = torch.clamp(delta + ALPHA * torch.sign(grad), -EPS, EPS)
        delta.data[still_right] = step[still_right]
        delta.data[still_right] = torch.max(torch.min(1 - X, delta.data), 0 - X)[still_right]
        delta.grad.zero_()
    return delta.detach()


def pgd_reference(model, X, y):
    delta = torch.zeros_like(X).uniform_(-EPS, EPS)
    delta = torch.max(torch.min(1 - X, delta), 0 - X)
    for _ in range(ITERS):
        d = delta.clone().requires_grad_(True)
        out = model(X + d)
        grad, = torch.autograd.grad(F.cross_entropy(out, y), d)
        m = (out.max(1)[1] == y).view(-1, 1, 1, 1)
        step = torch.clamp(delta + ALPHA * torch.sign(grad), -EPS, EPS)
        step = torch.max(torch.min(1 - X, step), 0 - X)
        delta = torch.where(m, step, delta)
    return delta


model = SmallNet()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
X = torch.rand(32, 1, 16, 16)
y = torch.randint(0, 10, (32,))

# attack equals the out-of-place reference
torch.manual_seed(5)
d1 = pgd_attack(model, X, y)
torch.manual_seed(5)
d2 = pgd_reference(model, X, y)
assert torch.allclose(d1, d2, atol=1e-6), (d1 - d2).abs().max()
assert d1.abs().max() <= EPS + 1e-6

before = [p.detach().clone() for p in model.parameters()]
for _ in range(5):
    delta = pgd_attack(model, X, y)
    model.zero_grad()
    clean = F.cross_entropy(model(X), y)
    adv = F.cross_entropy(model(X + delta), y)
    assert adv.item() >= clean.item() - 1e-6
    opt.zero_grad()
    adv.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
assert all(not torch.equal(p, p0) for p, p0 in zip(model.parameters(), before))
print("PGD with .data edits on the leaf delta matches reference; adversarial training moves all weights")
