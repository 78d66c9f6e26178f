"""
expect: GL002 context_block.py:24
dynamic: confirm
source: none, invented

Full forecaster: a linear encoder embeds each sensor reading, the BidirectionalContext block (context_block.py)
reads the encoded sequence forward and reversed, and a head predicts the next reading. Because the block rebuilds
the reversed sequence through NumPy, the backward GRU's path to the encoder is cut; the asserts show the encoder
gets zero gradient from the backward half. This is a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from context_block import BidirectionalContext

torch.manual_seed(0)


class SensorForecaster(nn.Module):
    def __init__(self, n_sensors=6, dim=16, hidden=12):
        super().__init__()
        self.encoder = nn.Linear(n_sensors, dim)
        self.context = BidirectionalContext(dim, hidden)
        self.head = nn.Linear(2 * hidden, n_sensors)

    def forward(self, series):
        z = torch.tanh(self.encoder(series))
        h = self.context(z)
        return self.head(h[:, -1])


model = SensorForecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
series = torch.randn(8, 20, 6)
target = torch.randn(8, 6)

for step in range(3):
    opt.zero_grad()
    loss = F.mse_loss(model(series), target)
    loss.backward()
    opt.step()

# Proof: take only the backward-direction output; the encoder receives no gradient from it.
model.zero_grad()
z = torch.tanh(model.encoder(series))
h = model.context(z)
hidden = model.context.fwd.hidden_size
h[:, -1, hidden:].sum().backward()
g = model.encoder.weight.grad
assert g is None or g.abs().sum() == 0, "backward half is cut from the encoder"
assert model.context.bwd.weight_ih_l0.grad is not None  # bwd GRU itself still trains
# The forward half does reach it.
model.zero_grad()
h = model.context(torch.tanh(model.encoder(series)))
h[:, -1, :hidden].sum().backward()
assert model.encoder.weight.grad is not None and model.encoder.weight.grad.abs().sum() > 0
print("k02 ok: reversed copy carries no gradient to the encoder")
