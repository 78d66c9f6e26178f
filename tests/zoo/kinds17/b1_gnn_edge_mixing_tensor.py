"""
expect: GL002 29
dynamic: confirm
source: kind B

A two-relation message-passing layer learns a 2x2 mixing matrix between the
"incoming" and "outgoing" aggregated messages.  The four mixing coefficients
are scalar nn.Parameters, but the matrix is built with
``torch.tensor([[a, b], [c, d]])`` after binding them to local names.  That
copies their values into a fresh leaf, so the coefficients never receive a
gradient even though the rest of the layer trains.
"""
import torch
import torch.nn as nn


class MixedRelationConv(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.m_in_in = nn.Parameter(torch.tensor(1.0))
        self.m_in_out = nn.Parameter(torch.tensor(0.2))
        self.m_out_in = nn.Parameter(torch.tensor(0.3))
        self.m_out_out = nn.Parameter(torch.tensor(1.0))

    def forward(self, x, adj):
        a, b = self.m_in_in, self.m_in_out
        c, d = self.m_out_in, self.m_out_out
        mix = torch.tensor([[a, b], [c, d]])
        msg_in = adj @ x
        msg_out = adj.t() @ x
        stacked = torch.stack([msg_in, msg_out], dim=0)
        mixed = torch.einsum("rs,snd->rnd", mix, stacked)
        return torch.relu(self.lin(mixed.sum(0)))


def main():
    torch.manual_seed(3)
    n, dim = 10, 8
    adj = (torch.rand(n, n) < 0.3).float()
    x = torch.randn(n, dim)
    target = torch.randn(n, dim)
    layer = MixedRelationConv(dim)
    opt = torch.optim.Adam(layer.parameters(), lr=1e-2)
    before = layer.m_in_out.detach().clone()
    for _ in range(5):
        out = layer(x, adj)
        loss = (out - target).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert layer.lin.weight.grad is not None
    assert layer.m_in_out.grad is None
    assert layer.m_out_in.grad is None
    assert torch.equal(layer.m_in_out.detach(), before)
    print("mixing coefficients never trained")


if __name__ == "__main__":
    main()
