"""
expect: GL001 main.py:39
dynamic: confirm
source: https://github.com/rusty1s/pytorch_spline_conv/issues/18

A user changed the pseudo-coordinates of a SplineConv inside the network while
training (the coordinates come from a learned position head), hit an error when
the kernel received pseudo-coordinates with gradients, and detached them: the
network then ran without error, but, as the user noted, gradients stop at the
detach. Here a learned position head feeds a continuous-kernel graph conv in
another file; the detach leaves the head without gradient and unchanged, while
the variant without the detach trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from layers import ContinuousKernelConv, cartesian_pseudo

torch.manual_seed(0)
torch.set_num_threads(1)

N, E, F_IN, C = 30, 120, 6, 3


class PseudoCoordNet(nn.Module):
    def __init__(self, detach_pseudo=True):
        super().__init__()
        self.pos_head = nn.Sequential(nn.Linear(F_IN, 16), nn.ReLU(), nn.Linear(16, 2))
        self.conv1 = ContinuousKernelConv(F_IN, 16)
        self.conv2 = ContinuousKernelConv(16, C)
        self.detach_pseudo = detach_pseudo

    def forward(self, x, edge_index):
        pos = self.pos_head(x)  # learned node positions
        pseudo = cartesian_pseudo(pos, edge_index)
        if self.detach_pseudo:
            # the kernel op refused pseudo-coordinates that require grad
            pseudo = pseudo.detach()
        h = F.elu(self.conv1(x, edge_index, pseudo))
        return self.conv2(h, edge_index, pseudo)


x = torch.randn(N, F_IN)
edge_index = torch.randint(0, N, (2, E))
y = torch.randint(0, C, (N,))


def train(detach_pseudo, steps=5):
    torch.manual_seed(1)
    model = PseudoCoordNet(detach_pseudo)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = model.pos_head[0].weight.detach().clone()
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(x, edge_index), y)
        loss.backward()
        opt.step()
    return model, w0


model, w0 = train(detach_pseudo=True)
assert model.pos_head[0].weight.grad is None
assert torch.equal(w0, model.pos_head[0].weight)
assert model.conv1.kernel[0].weight.grad.abs().sum() > 0  # the rest trains

model, w0 = train(detach_pseudo=False)
assert model.pos_head[0].weight.grad.abs().sum() > 0
assert not torch.equal(w0, model.pos_head[0].weight)
print("ok")
