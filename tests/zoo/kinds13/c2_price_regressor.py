"""
expect: GL001 35
dynamic: confirm
source: kind C

A tabular encoder plus a regression head predict house prices; one SGD
optimizer (with momentum) is built over both modules' parameters. The head is
fed emb.detach(), and the loss has no other path to the encoder, so the encoder
is stepped but never learns. Asserts: encoder grads are None and weights
unchanged after training; a fixed version gives the encoder gradients.
"""
import torch
import torch.nn as nn

torch.manual_seed(7)


class PriceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(6, 24), nn.GELU(), nn.Linear(24, 12))
        self.head = nn.Linear(12, 1)


model = PriceModel()
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

x = torch.randn(40, 6)
price = x @ torch.randn(6, 1) + 0.3

enc0 = [p.detach().clone() for p in model.encoder.parameters()]
for epoch in range(5):
    opt.zero_grad()
    emb = model.encoder(x)
    pred = model.head(emb.detach())
    loss = nn.functional.mse_loss(pred, price)
    loss.backward()
    opt.step()

assert all(p.grad is None for p in model.encoder.parameters())
assert all(torch.equal(a, p) for a, p in zip(enc0, model.encoder.parameters()))
assert model.head.weight.grad is not None

opt.zero_grad()
nn.functional.mse_loss(model.head(model.encoder(x)), price).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.encoder.parameters())
opt.step()
assert any(not torch.equal(a, p) for a, p in zip(enc0, model.encoder.parameters()))
print("ok: encoder never learns with the detached head input; fixed version does")
