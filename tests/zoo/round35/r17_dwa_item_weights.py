"""
expect: none
dynamic: dismiss
source: https://github.com/RickyDoge/English-Question-Answering-System/blob/HEAD/model/multitask_loss_wrapper.py

The project's dynamic-weight-averaging wrapper (Liu et al., MTAN) turns the
current span and classification losses into Python numbers with .item()
under torch.no_grad(), builds softmax task weights from their ratios to the
previous losses, and returns weight * loss for each task. Pulling the
values out is intended: DWA weights are constants per step, and the loss
tensors themselves stay in the graph. The asserts show both heads and the
shared encoder get gradients, the weights are plain floats that sum to one,
and the result equals a hand-weighted loss with the same constants.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class DynamicWeightAveraging:
    def __init__(self, init_span=2.0, init_cls=1.0, T=2.0):
        self.last_span = init_span
        self.last_cls = init_cls
        self.T = T
        self.last_weights = None

    def loss(self, span_loss, cls_loss):
        with torch.no_grad():
            r_span = math.exp(span_loss.item() / self.last_span / self.T)
            r_cls = math.exp(cls_loss.item() / self.last_cls / self.T)
            total = r_span + r_cls
        self.last_span, self.last_cls = span_loss.item(), cls_loss.item()
        self.last_weights = (r_span / total, r_cls / total)
        return self.last_weights[0] * span_loss + self.last_weights[1] * cls_loss


class QAModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.span_head = nn.Linear(32, 2)
        self.cls_head = nn.Linear(32, 2)

    def forward(self, x):
        h = self.encoder(x)
        return self.span_head(h), self.cls_head(h)


model = QAModel()
dwa = DynamicWeightAveraging()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
x = torch.randn(64, 10)
span_y = torch.randn(64, 2)
cls_y = (x[:, 0] > 0).long()

history = []
for step in range(25):
    opt.zero_grad()
    span_pred, cls_logits = model(x)
    span_loss = F.mse_loss(span_pred, span_y)
    cls_loss = F.cross_entropy(cls_logits, cls_y)
    loss = dwa.loss(span_loss, cls_loss)
    loss.backward()
    if step == 0:
        grads = [p.grad.abs().sum().item() for p in
                 (model.encoder[0].weight, model.span_head.weight, model.cls_head.weight)]
        w0 = dwa.last_weights
        manual = w0[0] * span_loss.detach() + w0[1] * cls_loss.detach()
        assert torch.allclose(loss.detach(), manual)
    opt.step()
    history.append(cls_loss.item())

print("weights", dwa.last_weights, "cls loss", history[0], "->", history[-1])
assert all(g > 0 for g in grads)
assert all(isinstance(w, float) for w in dwa.last_weights)
assert abs(sum(dwa.last_weights) - 1.0) < 1e-9
assert history[-1] < history[0]
print("ok: .item() only feeds the constant task weights")
