"""
expect: GL002 61, GL003 62
dynamic: confirm
source: https://github.com/sylyoung/DeepTransferEEG/blob/c506b7e4df6b265d7cac6b742458e5d2683b1636/tl/utils/utils.py

Online test-time adaptation of an ensemble of EEG classifiers. Every model adapts on
the incoming window with an information-maximisation loss, and the original code adds
a consistency term that should pull each model toward the ensemble average: the KL
between the averaged softmax and the model's softmax is computed with
scipy.stats.entropy on `.detach().numpy()` copies, wrapped back with
`torch.from_numpy(np.array(kl))` and then `kl_loss.requires_grad = True` so that
`losses[s] + kl_loss` can be backpropagated. The rebuilt scalar is a fresh leaf, so the
consistency term adds a constant: the models never move toward each other. (scipy is
replaced here by an equivalent few-line numpy KL along axis 0, as scipy's default.)
The asserts show that every parameter gradient is identical with and without the KL
term, and that computing the same KL with torch ops does change the gradients.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def np_entropy(pk, qk, axis=0):
    """KL(pk || qk) like scipy.stats.entropy(pk, qk) (normalises along `axis`)."""
    pk = pk / pk.sum(axis=axis, keepdims=True)
    qk = qk / qk.sum(axis=axis, keepdims=True)
    return np.sum(pk * np.log(pk / qk), axis=axis)


def im_loss(outputs, t=2.0, epsilon=1e-5):
    softmax_out = F.softmax(outputs / t, dim=1)
    entropy = -(softmax_out * torch.log(softmax_out + epsilon)).sum(1).mean()
    msoftmax = softmax_out.mean(dim=0)
    gentropy = torch.sum(msoftmax * torch.log(msoftmax + epsilon))
    return entropy + gentropy, softmax_out


def make_models(n=3):
    torch.manual_seed(1)
    return [nn.Sequential(nn.Linear(16, 12), nn.ELU(), nn.Linear(12, 4)) for _ in range(n)]


def tta_update(models, optimizers, inputs, use_kl=True):
    softmax_outs, losses = [], []
    for s in range(len(models)):
        models[s].train()
        optimizers[s].zero_grad()
        loss, softmax_out = im_loss(models[s](inputs))
        softmax_outs.append(softmax_out)
        losses.append(loss)
    softmax_avg = torch.mean(torch.stack(softmax_outs), dim=0)

    for s in range(len(models)):
        loss_final = losses[s]
        if use_kl:
            kl = np.mean(np_entropy(softmax_avg.detach().numpy(), softmax_outs[s].detach().numpy()))
            kl_loss = torch.from_numpy(np.array(kl))
            kl_loss.requires_grad = True
            loss_final = losses[s] + kl_loss
        loss_final.backward()
        optimizers[s].step()
    return [[p.grad.clone() for p in m.parameters()] for m in models]


def tta_update_fixed(models, optimizers, inputs):
    softmax_outs, losses = [], []
    for s in range(len(models)):
        optimizers[s].zero_grad()
        loss, softmax_out = im_loss(models[s](inputs))
        softmax_outs.append(softmax_out)
        losses.append(loss)
    softmax_avg = torch.mean(torch.stack(softmax_outs), dim=0).detach()
    for s in range(len(models)):
        p, q = softmax_avg / softmax_avg.sum(0), softmax_outs[s] / softmax_outs[s].sum(0)
        kl_loss = (p * (p.log() - q.log())).sum(0).mean()
        (losses[s] + kl_loss).backward()
        optimizers[s].step()
    return [[p.grad.clone() for p in m.parameters()] for m in models]


x = torch.randn(8, 16)

models = make_models()
opts = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
g_with = tta_update(models, opts, x, use_kl=True)

models = make_models()
opts = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
g_without = tta_update(models, opts, x, use_kl=False)

for gw, gn in zip(g_with, g_without):
    for a, b in zip(gw, gn):
        assert torch.equal(a, b), "numpy KL term unexpectedly changed a gradient"

models = make_models()
opts = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
g_fixed = tta_update_fixed(models, opts, x)
delta = max((a - b).abs().max().item() for gf, gn in zip(g_fixed, g_without) for a, b in zip(gf, gn))
assert delta > 1e-6, delta

# a few more windows of the original loop run silently
models = make_models()
opts = [torch.optim.Adam(m.parameters(), lr=1e-3) for m in models]
for _ in range(3):
    tta_update(models, opts, torch.randn(8, 16))
print("r02 ok: KL-through-numpy adds no gradient; torch KL changes grads by %.2e" % delta)
