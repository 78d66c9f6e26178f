"""
expect: GL005 27
dynamic: confirm
source: kinds check 49, kind 2

A NoisyNet-style linear layer for a DQN head computes its weight as
`mu + sigma * eps` with `eps` a registered buffer. The agent resamples the
noise with `resample()` right after the forward pass but before
`loss.backward()`; `eps.normal_()` overwrites a tensor saved for sigma's
gradient, so backward raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn


class NoisyLinear(nn.Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.mu = nn.Parameter(torch.randn(n_out, n_in) * 0.1)
        self.sigma = nn.Parameter(torch.full((n_out, n_in), 0.05))
        self.register_buffer("eps", torch.randn(n_out, n_in))

    def forward(self, x):
        return x @ (self.mu + self.sigma * self.eps).t()

    def resample(self):
        self.eps.normal_()


torch.manual_seed(2)
q_head = NoisyLinear(12, 4)
opt = torch.optim.SGD(q_head.parameters(), lr=0.01)
obs = torch.randn(64, 12)
td_target = torch.randn(64, 4)

q = q_head(obs)
loss = nn.functional.smooth_l1_loss(q, td_target)
q_head.resample()
try:
    loss.backward()
    raise SystemExit("expected in-place RuntimeError")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
print("ok: backward raised as expected")
