"""expect: GL001 32
dynamic: confirm
source: https://github.com/SihanXU/nepa/issues/8

A self-supervised step has an online encoder with a predictor on top and a slowly
updated target encoder. Stop-gradient is meant to apply only to the target branch, but
the code detaches both tensors in one line with map(lambda t: t.detach(), (pred, tgt)),
so the predictor's output is cut from the graph. A reconstruction term still trains the
encoder, so backward() and the optimizer run, yet the predictor receives no gradient.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(9)
online = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 8))
predictor = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
decoder = nn.Linear(8, 10)
target = copy.deepcopy(online).requires_grad_(False)
params = list(online.parameters()) + list(predictor.parameters()) + list(decoder.parameters())
opt = torch.optim.SGD(params, lr=0.05)


def train_step(batch):
    view_a = batch + 0.1 * torch.randn_like(batch)
    view_b = batch + 0.1 * torch.randn_like(batch)
    z = online(view_a)
    pred = predictor(z)
    tgt = target(view_b)
    pred, tgt = map(lambda t: t.detach(), (pred, tgt))
    agree = 2 - 2 * F.cosine_similarity(pred, tgt, dim=-1).mean()
    recon = F.mse_loss(decoder(z), view_a)
    total = agree + recon
    opt.zero_grad()
    total.backward()
    opt.step()
    with torch.no_grad():
        for tp, op in zip(target.parameters(), online.parameters()):
            tp.mul_(0.99).add_(op, alpha=0.01)
    return total.item()


pred_w0 = predictor[0].weight.detach().clone()
for i in range(3):
    print("step", i, train_step(torch.randn(12, 10)))

assert online[0].weight.grad is not None
assert all(p.grad is None for p in predictor.parameters()), "predictor got a gradient"
assert torch.equal(pred_w0, predictor[0].weight)
print("predictor frozen by the lambda-detach")
