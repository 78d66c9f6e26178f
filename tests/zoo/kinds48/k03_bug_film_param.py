"""
expect: GL001 24
dynamic: confirm
source: kinds check 48, kind 2

An audio denoiser conditioned on a speaker embedding: forward computes a
per-channel gain from the embedding and wraps it in a brand-new nn.Parameter.
That makes the gain a fresh leaf, so the conditioning projection `to_gain`
never receives a gradient and never learns.
"""
import torch
import torch.nn as nn

torch.manual_seed(2)


class ConditionedDenoiser(nn.Module):
    def __init__(self, n_mels=40, spk_dim=16):
        super().__init__()
        self.to_gain = nn.Linear(spk_dim, n_mels)
        self.body = nn.Linear(n_mels, n_mels)

    def forward(self, spec, spk):
        gain = nn.Parameter(self.to_gain(spk))
        return self.body(spec * gain.unsqueeze(1))


model = ConditionedDenoiser()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
clean = torch.randn(8, 50, 40)
noisy = clean + 0.3 * torch.randn_like(clean)
spk = torch.randn(8, 16)
before = model.to_gain.weight.detach().clone()
for _ in range(5):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(noisy, spk), clean)
    loss.backward()
    opt.step()
assert model.to_gain.weight.grad is None
assert torch.equal(before, model.to_gain.weight)
assert model.body.weight.grad is not None

# Intended: use the computed gain directly -> to_gain gets gradient.
gain = model.to_gain(spk)
nn.functional.mse_loss(model.body(noisy * gain.unsqueeze(1)), clean).backward()
assert model.to_gain.weight.grad.abs().sum() > 0
print("ok: to_gain got no gradient through nn.Parameter wrap")
