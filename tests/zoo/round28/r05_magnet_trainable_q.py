"""
expect: GL003 45
dynamic: confirm
source: https://github.com/SherylHYX/pytorch_geometric_signed_directed/issues/60

Issue report: MagNet's phase parameter q "does not receive gradient even when
trainable_q = True". MagNetConv.forward re-creates the parameter on every call,
self.q = Parameter(torch.clamp(self.q, 0, 0.25)): a fresh leaf made from a value
whose history was cut, so the Parameter the optimizer holds never gets a gradient.
This small directed-graph conv copies that pattern; the asserts show the weights
train while the optimizer's q keeps grad None and its initial value, and that
clamping inside the graph instead lets q move.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N = 6
edges = torch.tensor([[0, 1, 2, 3, 4, 5, 0], [1, 2, 3, 4, 5, 0, 3]])


class MagConv(nn.Module):
    def __init__(self, c_in, c_out, q=0.2, trainable_q=True, clamp_in_graph=False):
        super().__init__()
        self.trainable_q = trainable_q
        self.clamp_in_graph = clamp_in_graph
        self.q = nn.Parameter(torch.tensor([q])) if trainable_q else q
        self.w_self = nn.Linear(c_in, c_out)
        self.w_nb = nn.Linear(c_in, c_out)

    def phase_adjacency(self, q):
        src, dst = edges
        theta = 2 * math.pi * q
        a_re = torch.zeros(N, N).index_put((dst, src), torch.cos(theta).expand(src.numel()))
        a_im = torch.zeros(N, N).index_put((dst, src), torch.sin(theta).expand(src.numel()))
        return a_re, a_im

    def forward(self, x):
        if self.trainable_q and not self.clamp_in_graph:
            self.q = nn.Parameter(torch.clamp(self.q, 0, 0.25))
            q = self.q
        else:
            q = torch.clamp(self.q, 0, 0.25)
        a_re, a_im = self.phase_adjacency(q)
        msg = torch.cat([a_re @ x, a_im @ x], 1)
        return self.w_self(x) + self.w_nb(msg[:, : x.shape[1]] + msg[:, x.shape[1]:])


def run(clamp_in_graph):
    torch.manual_seed(0)
    conv = MagConv(4, 2, clamp_in_graph=clamp_in_graph)
    opt = torch.optim.Adam(conv.parameters(), lr=5e-2)
    q_held = opt.param_groups[0]["params"][0]
    w_before = conv.w_nb.weight.detach().clone()
    x, y = torch.randn(N, 4), torch.randint(0, 2, (N,))
    for _ in range(5):
        opt.zero_grad()
        F.cross_entropy(conv(x), y).backward()
        opt.step()
    return q_held, conv, w_before


q_held, conv, w_before = run(clamp_in_graph=False)
assert not torch.equal(conv.w_nb.weight, w_before)        # the rest of the layer trains
assert q_held.grad is None                                 # the optimizer's q is cut off
assert torch.allclose(q_held.detach(), torch.tensor([0.2]))
assert torch.allclose(conv.q.detach(), torch.tensor([0.2]))

q_fixed, conv_fixed, _ = run(clamp_in_graph=True)
assert q_fixed.grad is not None and abs(q_fixed.item() - 0.2) > 1e-3
print("ok: re-wrapped q never trains; in-graph clamp moves it to", q_fixed.item())
