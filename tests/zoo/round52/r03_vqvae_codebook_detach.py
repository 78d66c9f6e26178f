"""
expect: GL001 43
dynamic: confirm
source: https://github.com/MishaLaskin/vqvae/pull/20

A VQ-VAE quantizer: the encoder output z_e is snapped to its nearest codebook vector
z_q, the decoder sees z_e + (z_q - z_e).detach() (straight-through), and two extra
terms are added: the codebook term ||sg[z_e] - e||^2 that is meant to pull the
codebook vectors towards the encoder outputs, and the commitment term
beta * ||z_e - sg[e]||^2 that keeps the encoder close to its codes. In this code the
stop-gradients are on the wrong sides (as the linked pull request points out): the
codebook term detaches z_q, so the codebook receives nothing from the term written
for it, and its only update comes from the beta-scaled commitment term. The asserts
take the gradient of the codebook term alone: with respect to the codebook it is
None while it pushes the encoder with full weight; the corrected term gives the
codebook a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Quantizer(nn.Module):
    def __init__(self, n_codes=16, dim=8, beta=0.25):
        super().__init__()
        self.codebook = nn.Embedding(n_codes, dim)
        self.codebook.weight.data.uniform_(-1.0 / n_codes, 1.0 / n_codes)
        self.beta = beta

    def lookup(self, z_e):
        flat = z_e.reshape(-1, z_e.shape[-1])
        dist = (flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.codebook.weight.t()
                + self.codebook.weight.pow(2).sum(1))
        idx = dist.argmin(1)
        return self.codebook(idx).view_as(z_e)

    def forward(self, z_e, swapped=True):
        z_q = self.lookup(z_e)
        if swapped:
            codebook_term = F.mse_loss(z_q.detach(), z_e)
            commit_term = self.beta * F.mse_loss(z_q, z_e.detach())
        else:
            codebook_term = F.mse_loss(z_q, z_e.detach())
            commit_term = self.beta * F.mse_loss(z_e, z_q.detach())
        z_st = z_e + (z_q - z_e).detach()
        return z_st, codebook_term, commit_term


class VQVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, 4 * 8))
        self.quant = Quantizer()
        self.dec = nn.Sequential(nn.Linear(4 * 8, 32), nn.ReLU(), nn.Linear(32, 24))

    def forward(self, x, swapped=True):
        z_e = self.enc(x).view(-1, 4, 8)
        z_st, cb, cm = self.quant(z_e, swapped)
        return self.dec(z_st.reshape(-1, 32)), cb, cm


x = torch.randn(16, 24)
model = VQVAE()
recon, codebook_term, commit_term = model(x, swapped=True)
g_code, g_enc = torch.autograd.grad(
    codebook_term, [model.quant.codebook.weight, model.enc[0].weight],
    retain_graph=True, allow_unused=True)
assert g_code is None, "the codebook term must not reach the codebook"
assert g_enc.abs().sum() > 0, "it pushes the encoder instead"

opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.zero_grad()
(F.mse_loss(recon, x) + codebook_term + commit_term).backward()
opt.step()

torch.manual_seed(0)
ref = VQVAE()
_, cb_ok, _ = ref(x, swapped=False)
g_code_ok = torch.autograd.grad(cb_ok, ref.quant.codebook.weight)[0]
assert g_code_ok.abs().sum() > 0

print("swapped detach: codebook grad from codebook term =", g_code)
print("corrected term: codebook grad norm = %.5f" % g_code_ok.norm().item())
