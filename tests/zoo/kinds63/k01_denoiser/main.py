"""
expect: GL001 models.py:33
dynamic: confirm
source: none, invented

A DDPM-style training script for 1-D signals. The epsilon-predictor lives in models.py and is pulled in with
`from models import *`, wrapped in nn.DataParallel as people do for multi-GPU runs. Inside the model's forward
the bottleneck Linear is applied under `torch.no_grad()`: its input is the model's own hidden activation and its
output feeds block2 and out_proj. Everything computed inside that block has no grad_fn, so the backward pass
stops there: the bottleneck, block1 and in_proj never get a gradient (the time-embedding branch still does,
because temb is also added after the bottleneck). The asserts show in_proj/block1/bottleneck have `.grad is None` and their weights are bit-identical after
training, while a subclass with the same forward minus the no_grad trains every layer.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from models import *

torch.manual_seed(0)
torch.set_num_threads(1)

T = 100
betas = torch.linspace(1e-4, 0.02, T)
alpha_bar = torch.cumprod(1.0 - betas, dim=0)


class PlainNoisePredictor(NoisePredictor):
    def forward(self, x_t, t):
        temb = self.t_proj(timestep_embedding(t, self.t_dim))
        h = self.in_proj(x_t) + temb
        h = self.block1(h)
        h = self.bottleneck(h)
        h = self.block2(h) + temb
        return self.out_proj(h)


def sample_batch(n=64, length=32):
    phase = torch.rand(n, 1) * 6.28
    freq = 1 + torch.randint(0, 4, (n, 1)).float()
    grid = torch.linspace(0, 6.28, length)[None]
    return torch.sin(freq * grid + phase)


def train(model, steps=30):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(steps):
        x0 = sample_batch()
        t = torch.randint(0, T, (x0.shape[0],))
        noise = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
        loss = F.mse_loss(model(x_t, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


def run(net):
    model = nn.DataParallel(net)
    before = copy.deepcopy(model.module.state_dict())
    train(model)
    after = model.module.state_dict()
    changed = {k: not torch.equal(before[k], after[k]) for k in before}
    grads = {n: p.grad for n, p in model.module.named_parameters()}
    return changed, grads


changed, grads = run(NoisePredictor())
for name in ("in_proj.weight", "block1.1.weight", "bottleneck.weight"):
    assert grads[name] is None, name
    assert not changed[name], name
assert changed["out_proj.1.weight"] and changed["block2.1.weight"] and changed["t_proj.0.weight"]

torch.manual_seed(0)
changed, grads = run(PlainNoisePredictor())
assert all(changed.values()), [k for k, v in changed.items() if not v]
assert all(g is not None for g in grads.values())
print("ok: with the no_grad block in forward, layers up to the bottleneck never train; without it, all do")
