"""
expect: GL001 36
dynamic: confirm
source: kinds check 38, kind 1

A speech denoiser is trained with a reconstruction loss plus a consistency
term between two noisy views. The helper runs BOTH forward passes of the
trained model inside torch.no_grad(), so the consistency term is a constant:
it shifts the loss value and contributes no gradient at all.
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
            out_a = self.model(view_a)
            out_b = self.model(view_b)
            term = F.mse_loss(out_a, out_b)
        return term

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

torch.manual_seed(1)
full = trainer.loss(clean, noisy, True)
torch.manual_seed(1)
base = trainer.loss(clean, noisy, False)
assert full.item() != base.item()  # the term changes the reported number

g_with = trainer.grads(clean, noisy, True)
g_without = trainer.grads(clean, noisy, False)
for a, b in zip(g_with, g_without):
    assert torch.equal(a, b), "consistency term should contribute no gradient"

torch.manual_seed(1)
assert not trainer.consistency(clean).requires_grad
trainer.opt.zero_grad()
trainer.loss(clean, noisy).backward()
trainer.opt.step()
print("ok: consistency term is a constant; gradients identical with/without it")
