"""
expect: none
dynamic: dismiss
source: https://github.com/Lightning-Universe/lightning-bolts/issues/801

A user asked whether the lightning-bolts BYOL module needs an extra .detach() on the
target projection z2, since it is not detached explicitly. It does not: the target
forward runs inside torch.no_grad(), which is BYOL's intended stop-gradient, and the
target is moved only by the EMA update. This copy keeps the no_grad target in a helper
method of a BYOL class in byol.py. The asserts show the online encoder and predictor get
gradients and change, the target gets no grad but still moves through the EMA step.
"""
import torch
from byol import BYOL

torch.manual_seed(0)
torch.set_num_threads(1)

model = BYOL()
opt = torch.optim.SGD(model.online.parameters(), lr=0.1)
x = torch.randn(32, 16)
w_enc0 = model.online.encoder[0].weight.detach().clone()
w_tgt0 = model.target.encoder[0].weight.detach().clone()

losses = []
for step in range(5):
    v1 = x + 0.1 * torch.randn_like(x)
    v2 = x + 0.1 * torch.randn_like(x)
    opt.zero_grad()
    loss = model.loss(v1, v2)
    loss.backward()
    assert model.online.encoder[0].weight.grad is not None
    assert model.online.predictor[0].weight.grad.abs().sum() > 0
    assert model.target.encoder[0].weight.grad is None
    opt.step()
    model.update_target()
    losses.append(loss.item())

assert not torch.equal(model.online.encoder[0].weight, w_enc0)
assert not torch.equal(model.target.encoder[0].weight, w_tgt0)
print("ok: online trained, target EMA only", losses[0], losses[-1])
