"""
expect: none
dynamic: dismiss
source: https://github.com/official-stockfish/nnue-pytorch/pull/75

The pull request wraps the zeroing of the "virtual" feature-transformer weights
in torch.no_grad(), because some PyTorch versions refuse that in-place edit on a
leaf that requires grad. The weights are edited in place on a parameter, but
only between optimizer steps, when no recorded operation holds them for a
pending backward. This program rebuilds a feature transformer with virtual
(factorised) input columns that are folded into the real ones and then zeroed
after each step. The asserts show no autograd error, the virtual columns stay
zero, and the loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureTransformerNet(nn.Module):
    def __init__(self, n_real=32, n_virtual=8, hid=16):
        super().__init__()
        self.n_real = n_real
        self.input = nn.Linear(n_real + n_virtual, hid)
        self.out = nn.Linear(hid, 1)

    def forward(self, x):
        return self.out(torch.clamp(self.input(x), 0.0, 1.0))

    def coalesce_and_zero_virtual(self):
        with torch.no_grad():
            w = self.input.weight
            real, virt = w[:, :self.n_real], w[:, self.n_real:]
            real[:, :virt.shape[1]] += virt
            w[:, self.n_real:] = 0.0


torch.manual_seed(0)
net = FeatureTransformerNet()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
x = (torch.rand(128, 40) < 0.2).float()
y = torch.tanh(x[:, :32].sum(1, keepdim=True) / 4)
losses = []
for step in range(40):
    opt.zero_grad()
    loss = F.mse_loss(net(x), y)
    loss.backward()
    opt.step()
    net.coalesce_and_zero_virtual()
    losses.append(loss.item())
assert torch.count_nonzero(net.input.weight[:, 32:]) == 0
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print("loss", losses[0], "->", losses[-1])
