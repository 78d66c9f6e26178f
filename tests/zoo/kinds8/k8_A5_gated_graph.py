"""expect: none
dynamic: dismiss
source: kinds8 (kind A)

The edge gates end in sigmoid, but the gate output is cloned before its first
column is overwritten, so the saved sigmoid result is untouched.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class NodeGate(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, h):
        return torch.sigmoid(self.lin(h))


class GatedGraphNet(nn.Module):
    def __init__(self, in_dim=5, d=8, hops=3, n_cls=3):
        super().__init__()
        self.embed = nn.Linear(in_dim, d)
        self.gates = nn.ModuleList([NodeGate(d) for _ in range(hops)])
        self.cls = nn.Linear(d, n_cls)

    def forward(self, node_x, adj):
        h = torch.tanh(self.embed(node_x))
        for hop, gate in enumerate(self.gates):
            g = gate(h).clone()
            g[..., 0] = 1.0
            h = h + adj @ (g * h)
        return self.cls(h)


def main():
    torch.manual_seed(0)
    n = 6
    adj = (torch.rand(n, n) > 0.5).float()
    adj = adj / adj.sum(1, keepdim=True).clamp(min=1.0)
    node_x = torch.randn(n, 5)
    labels = torch.randint(0, 3, (n,))
    gnn = GatedGraphNet()
    loss = F.cross_entropy(gnn(node_x, adj), labels)
    loss.backward()
    for name, prm in gnn.named_parameters():
        assert prm.grad is not None, name
    print("OK")


if __name__ == "__main__":
    main()
