"""
expect: GL001 58
dynamic: confirm
source: https://github.com/jqtangust/IUF/issues/10

An incremental anomaly-detection reconstruction network with a "semantic compression" term: the
middle decoder features of each batch are appended to a running matrix and an SVD loss penalises
the energy outside the leading singular values, pushing the decoder toward a compact feature
space. The features are appended with .clone().detach(), so the matrix the SVD loss sees has no
graph back to the decoder; the term is added to the loss with weight 10 and changes its value but
never its gradient. The asserts show that the SVD loss has no grad_fn, that the decoder's gradient
equals the reconstruction-only gradient, and that its tail energy does not fall, while the
variant that applies the same loss to the attached features of the batch gives a different
gradient and lowers the tail energy.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ReconNet(nn.Module):
    def __init__(self, d=12, mid=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 16), nn.ReLU())
        self.dec_mid = nn.Sequential(nn.Linear(16, mid), nn.Tanh())
        self.dec_out = nn.Linear(mid, d)

    def forward(self, x):
        middle = self.dec_mid(self.enc(x))
        return {"recon": self.dec_out(middle), "middle_decoder_feature": middle}


def svd_loss(features, keep=2):
    s = torch.linalg.svdvals(features)
    return s[keep:].sum() / s.sum()


def tail_energy(model, x, keep=2):
    with torch.no_grad():
        return svd_loss(model(x)["middle_decoder_feature"], keep).item()


batches = [torch.randn(32, 12) for _ in range(4)]
probe = torch.cat(batches)


def batch_losses(model, x, concatenated, attach):
    out = model(x)
    recon = F.mse_loss(out["recon"], x)
    if attach:
        loss_svd = svd_loss(out["middle_decoder_feature"])
    else:
        middle = out["middle_decoder_feature"].clone().detach()
        concatenated = torch.cat([concatenated, middle], dim=0)
        loss_svd = svd_loss(concatenated)
    return recon, loss_svd, concatenated


def train_epoch(model, opt, attach):
    concatenated = torch.empty(0, 8)
    for x in batches:
        recon, loss_svd, concatenated = batch_losses(model, x, concatenated, attach)
        loss = recon + 10 * loss_svd
        opt.zero_grad()
        loss.backward()
        opt.step()


torch.manual_seed(1)
base = ReconNet()

# one batch: the detached SVD term adds nothing to the decoder's gradient
model = copy.deepcopy(base)
recon, term, _ = batch_losses(model, batches[0], torch.empty(0, 8), attach=False)
assert term.grad_fn is None and not term.requires_grad
w = model.dec_mid[0].weight
g_total = torch.autograd.grad(recon + 10 * term, w, retain_graph=True)[0]
g_recon = torch.autograd.grad(recon, w)[0]
assert torch.equal(g_total, g_recon), "the SVD term does not reach the decoder"
recon_a, term_a, _ = batch_losses(model, batches[0], torch.empty(0, 8), attach=True)
g_attached = torch.autograd.grad(recon_a + 10 * term_a, w)[0]
assert not torch.allclose(g_attached, g_recon), "attached features let the term act"

buggy, fixed = copy.deepcopy(base), copy.deepcopy(base)
opt_b = torch.optim.Adam(buggy.parameters(), lr=1e-2)
opt_f = torch.optim.Adam(fixed.parameters(), lr=1e-2)
start = tail_energy(base, probe)
for _ in range(30):
    train_epoch(buggy, opt_b, attach=False)
    train_epoch(fixed, opt_f, attach=True)
end_b, end_f = tail_energy(buggy, probe), tail_energy(fixed, probe)
assert end_f < 0.5 * start, (start, end_f)
assert end_b > end_f + 0.05, (end_b, end_f)
print("tail singular energy: start %.3f, detached term %.3f, attached term %.3f" % (start, end_b, end_f))
