"""
expect: none
dynamic: dismiss
source: https://github.com/wandb/senpai/pull/963

The PR adds self-distillation from the EMA model: after epoch 40 the EMA copy predicts the batch
under `torch.no_grad()` and an MSE consistency term between the online prediction and
`ema_pred.detach()` is added to the loss, masked to surface nodes. This program rebuilds that trainer
for a small regression network. The teacher pass is cut from the graph on purpose; the student still
gets gradient from both the data term and the consistency term, its weights move, the teacher only
changes through the in-place EMA update, and the consistency term alone gives the student a non-zero
gradient.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SurfaceRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(5, 32), nn.GELU(), nn.Linear(32, 3))

    def forward(self, x):
        return {"preds": self.net(x)}


class DistillTrainer:
    def __init__(self, model, ema_decay=0.99, ema_start=2, distill_weight=0.1):
        self.model = model
        self.ema_model = copy.deepcopy(model).requires_grad_(False)
        self.ema_decay = ema_decay
        self.ema_start = ema_start
        self.distill_weight = distill_weight
        self.opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

    @torch.no_grad()
    def update_ema(self):
        for e, p in zip(self.ema_model.parameters(), self.model.parameters()):
            e.lerp_(p, 1 - self.ema_decay)

    def losses(self, x, y, surf_mask, epoch):
        pred = self.model(x)["preds"]
        data_loss = F.mse_loss(pred, y)
        consist_loss = torch.zeros(())
        if epoch >= self.ema_start:
            with torch.no_grad():
                ema_pred = self.ema_model(x)["preds"]
            consist_err = (pred - ema_pred.detach()) ** 2
            consist_loss = (consist_err * surf_mask[:, None]).sum() / surf_mask.sum().clamp(min=1)
        return data_loss, consist_loss

    def step(self, x, y, surf_mask, epoch):
        data_loss, consist_loss = self.losses(x, y, surf_mask, epoch)
        loss = data_loss + self.distill_weight * consist_loss
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.update_ema()
        return data_loss.detach(), consist_loss.detach()


x = torch.randn(64, 5)
y = torch.stack([x[:, 0] * x[:, 1], x[:, 2].sin(), x[:, 3] - x[:, 4]], dim=1)
surf_mask = (torch.rand(64) > 0.5).float()

trainer = DistillTrainer(SurfaceRegressor())
first_loss = None
for epoch in range(60):
    d, c = trainer.step(x, y, surf_mask, epoch)
    first_loss = d if first_loss is None else first_loss
assert d < 0.5 * first_loss, (first_loss, d)

data_loss, consist_loss = trainer.losses(x, y, surf_mask, epoch=10)
assert consist_loss.requires_grad
grads = torch.autograd.grad(consist_loss, list(trainer.model.parameters()))
assert sum(g.abs().sum() for g in grads) > 0, "consistency term reaches the student"
assert all(p.grad is None for p in trainer.ema_model.parameters()), "teacher is never backpropagated"
print("ok: no-grad EMA teacher is intended; the student trains from both terms")
