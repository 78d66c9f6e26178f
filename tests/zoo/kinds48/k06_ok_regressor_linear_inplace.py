"""
expect: none
dynamic: dismiss
source: kinds check 48, kind 3

A house-price regressor head written as an nn.Sequential subclass that ends
in nn.Linear. The caller clamps the predictions in place and zeroes the
first column; Linear saved its input, not its output, so backward is fine and
the model trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(5)


class PriceHead(nn.Sequential):
    def __init__(self, n_feat):
        super().__init__(nn.Linear(n_feat, 32), nn.Tanh(), nn.Linear(32, 3))


head = PriceHead(8)
opt = torch.optim.Adam(head.parameters(), lr=1e-2)
feats = torch.randn(128, 8)
target = torch.cat([torch.zeros(128, 1), feats[:, :2].abs()], 1)
first = None
for _ in range(100):
    opt.zero_grad()
    pred = head(feats)
    pred.clamp_(min=0.0)
    pred[:, 0] = 0
    loss = nn.functional.mse_loss(pred, target)
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < first * 0.7, (first, loss.item())
print("ok: in-place edits after final Linear; trained", first, "->", loss.item())
