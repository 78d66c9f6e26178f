"""expect: GL002 28
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/61410

An autoencoder-style module owns two learned scalar coefficients (nn.Parameter) that are
meant to balance its reconstruction and sparsity terms. Inside forward the two scalars
are packed with torch.tensor([self.alpha, self.beta]); that reads their current values
into a brand-new tensor with no link to the parameters. The weighted loss still depends
on the encoder and decoder, so backward() runs, but the two coefficients never get a
gradient and stay at their initial values forever.
"""
import torch
import torch.nn as nn


class BalancedAutoencoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 3)
        self.dec = nn.Linear(3, 8)
        self.alpha = nn.Parameter(torch.tensor(0.0))
        self.beta = nn.Parameter(torch.tensor(0.0))

    def forward(self, x):
        code = torch.tanh(self.enc(x))
        recon = self.dec(code)
        parts = torch.stack([(recon - x).pow(2).mean(), code.abs().mean()])
        coeffs = torch.tensor([self.alpha, self.beta])
        weights = torch.exp(-coeffs)
        return (weights * parts).sum() + coeffs.sum()


torch.manual_seed(5)
model = BalancedAutoencoder()
opt = torch.optim.Adam(model.parameters(), lr=0.1)
data = torch.randn(32, 8)
for _ in range(5):
    opt.zero_grad()
    out = model(data)
    out.backward()
    opt.step()

print("loss", out.item(), "alpha", model.alpha.item(), "beta", model.beta.item())
assert model.enc.weight.grad is not None
assert model.alpha.grad is None and model.beta.grad is None
assert model.alpha.item() == 0.0 and model.beta.item() == 0.0
print("balancing coefficients were never trained")
