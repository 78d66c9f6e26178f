"""
expect: none
dynamic: dismiss
source: kinds check 38, kind 1

Same denoiser and trainer shape, but only the target view is computed under
torch.no_grad(); the prediction view runs with recording on. The consistency
term is a stop-gradient target (mean-teacher style) and does train the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Denoiser(nn.Module):
    def __init__(self, n=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, 64), nn.Tanh(), nn.Linear(64, n))

    def forward(self, x):
        return self.net(x)


class DenoiseTrainer:
    def __init__(self, model, lam=0.5):
        self.model = model
        self.lam = lam
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def consistency(self, clean):
        view_a = clean + 0.1 * torch.randn_like(clean)
        view_b = clean + 0.1 * torch.randn_like(clean)
        with torch.no_grad():
            target = self.model(view_b)
        pred = self.model(view_a)
        return F.mse_loss(pred, target)

    def loss(self, clean, noisy, use_consistency=True):
        recon = F.mse_loss(self.model(noisy), clean)
        if use_consistency:
            return recon + self.lam * self.consistency(clean)
        return recon

    def grads(self, clean, noisy, use_consistency):
        self.model.zero_grad()
        torch.manual_seed(1)
        self.loss(clean, noisy, use_consistency).backward()
        return [p.grad.clone() for p in self.model.parameters()]


model = Denoiser()
trainer = DenoiseTrainer(model)
clean = torch.randn(16, 32)
noisy = clean + 0.3 * torch.randn(16, 32)

g_with = trainer.grads(clean, noisy, True)
g_without = trainer.grads(clean, noisy, False)
assert any(not torch.allclose(a, b) for a, b in zip(g_with, g_without)), \
    "consistency term should contribute gradient"

torch.manual_seed(1)
assert trainer.consistency(clean).requires_grad
trainer.opt.zero_grad()
trainer.loss(clean, noisy).backward()
trainer.opt.step()
print("ok: consistency term trains the model")
