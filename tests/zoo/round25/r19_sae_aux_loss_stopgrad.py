"""
expect: none
dynamic: dismiss
source: https://github.com/bartbussmann/BatchTopK/issues/4

The issue says the auxiliary (dead-latent) loss of a TopK sparse autoencoder should
stop the gradient into the residual it is fitting, as in the original recipe,
otherwise it fights the reconstruction loss. Here the SAE computes the residual of
the main reconstruction and detaches it as the target of the auxiliary loss, on
purpose. The asserts check that the auxiliary loss still trains the encoder and
decoder weights through the dead-latent reconstruction, and that it puts no
gradient on the latents of the main path.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TopKSAE(nn.Module):
    def __init__(self, d=16, n_latents=64, k=4, k_aux=8):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(d, n_latents) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(n_latents))
        self.W_dec = nn.Parameter(torch.randn(n_latents, d) * 0.1)
        self.b_dec = nn.Parameter(torch.zeros(d))
        self.k, self.k_aux = k, k_aux
        self.register_buffer("steps_since_fired", torch.zeros(n_latents))

    def topk(self, pre, k):
        vals, idx = pre.topk(k, dim=-1)
        return torch.zeros_like(pre).scatter(-1, idx, F.relu(vals))

    def forward(self, x):
        pre = (x - self.b_dec) @ self.W_enc + self.b_enc
        acts = self.topk(pre, self.k)
        recon = acts @ self.W_dec + self.b_dec
        with torch.no_grad():
            fired = (acts > 0).any(0)
            self.steps_since_fired += 1
            self.steps_since_fired[fired] = 0
        return pre, acts, recon

    def losses(self, x, dead_after=0):
        pre, acts, recon = self(x)
        l2 = (recon - x).pow(2).mean()
        dead = self.steps_since_fired > dead_after
        residual = (x - recon).detach()
        dead_pre = pre.masked_fill(~dead, float("-inf"))
        aux_acts = self.topk(dead_pre, self.k_aux).nan_to_num(0.0)
        aux_recon = aux_acts @ self.W_dec
        aux = (aux_recon - residual).pow(2).mean()
        return l2, aux, acts


sae = TopKSAE()
x = torch.randn(32, 16)
sae(x)  # one pass so some latents count as dead
l2, aux, acts = sae.losses(x)
acts.retain_grad()
aux.backward(retain_graph=True)
assert sae.W_enc.grad.abs().sum() > 0
assert sae.W_dec.grad.abs().sum() > 0
assert acts.grad is None or acts.grad.abs().sum() == 0

sae.zero_grad()
opt = torch.optim.Adam(sae.parameters(), lr=1e-2)
first = None
for _ in range(30):
    l2, aux, _ = sae.losses(x)
    loss = l2 + 0.03 * aux
    first = first if first is not None else l2.item()
    opt.zero_grad()
    loss.backward()
    opt.step()
assert l2.item() < first
print("ok")
