"""
expect: GL001 dist_utils.py:10
dynamic: confirm
source: https://github.com/facebookresearch/vissl/pull/123

VISSL's SimCLR InfoNCE loss gathered the embeddings of all ranks with a gather
that does not carry gradients, so one side of every similarity dot product was
a constant and the encoder got only part of its gradient; the PR fixed it and
added tests comparing gradients. Here an NT-Xent loss object uses a
concat_all_gather helper from another file that is decorated with
torch.no_grad() (as in MoCo, where that is correct for momentum keys). The
loss value is identical to the differentiable version, but the encoder's
gradient is not: with one simulated rank it comes out about half as large
(the key side of every dot product is missing); the asserts show that and the
shorter optimizer step it causes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from dist_utils import concat_all_gather, concat_all_gather_with_grad

torch.manual_seed(0)
torch.set_num_threads(1)


class NTXent(nn.Module):
    def __init__(self, gather, temperature=0.5):
        super().__init__()
        self.gather = gather
        self.t = temperature

    def forward(self, z1, z2):
        z = F.normalize(torch.cat([z1, z2], 0), dim=1)      # local 2N embeddings
        keys = self.gather(z)                               # "all ranks"
        n = z.shape[0]
        sim = z @ keys.t() / self.t
        sim = sim.masked_fill(torch.eye(n, dtype=torch.bool), -1e9)
        half = n // 2
        target = torch.cat([torch.arange(half, n), torch.arange(0, half)])
        return F.cross_entropy(sim, target)


def make_encoder():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 8))


def views(g, n=32):
    x = torch.randn(n, 10, generator=g)
    return x + 0.3 * torch.randn(n, 10, generator=g), x + 0.3 * torch.randn(n, 10, generator=g)


def grad_of(loss_fn):
    enc = make_encoder()
    g = torch.Generator().manual_seed(1)
    a, b = views(g)
    loss = loss_fn(enc(a), enc(b))
    loss.backward()
    return loss.item(), torch.cat([p.grad.flatten() for p in enc.parameters()])


if __name__ == "__main__":
    buggy, fixed = NTXent(concat_all_gather), NTXent(concat_all_gather_with_grad)
    l_bug, g_bug = grad_of(buggy)
    l_fix, g_fix = grad_of(fixed)
    cos = F.cosine_similarity(g_bug, g_fix, dim=0).item()
    ratio = (g_bug.norm() / g_fix.norm()).item()
    print("loss bug/fix", l_bug, l_fix, "grad cos", cos, "norm ratio", ratio)
    assert abs(l_bug - l_fix) < 1e-6          # same number on the progress bar
    assert ratio < 0.6                        # the key side of every dot product is missing
    # one optimizer step moves the encoder about half as far with the no_grad gather
    enc_b, enc_f = make_encoder(), make_encoder()
    for enc, fn in ((enc_b, buggy), (enc_f, fixed)):
        a, b = views(torch.Generator().manual_seed(1))
        fn(enc(a), enc(b)).backward()
        with torch.no_grad():
            for p in enc.parameters():
                p -= 0.1 * p.grad
    w0 = make_encoder()[0].weight
    step_b = (enc_b[0].weight - w0).norm().item()
    step_f = (enc_f[0].weight - w0).norm().item()
    print("first-layer step bug/fix", step_b, step_f)
    assert step_b < 0.7 * step_f
    print("OK")
