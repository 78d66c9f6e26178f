"""expect: GL001 34
dynamic: confirm
source: kinds8 (kind B)

The projection head is applied inside the no_grad block that runs the frozen
message-passing layer, so the head never gets a gradient though it is optimised.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MessagePassing(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.msg = nn.Linear(dim, dim)
        self.upd = nn.Linear(2 * dim, dim)

    def forward(self, x, adj):
        m = adj @ self.msg(x)
        return torch.relu(self.upd(torch.cat([x, m], dim=-1)))


class MoleculeRegressor(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.mp = MessagePassing(dim)
        for w in self.mp.parameters():
            w.requires_grad = False
        self.proj_head = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.readout = nn.Linear(dim, 1)

    def graph_embedding(self, x, adj):
        with torch.no_grad():
            node_h = self.mp(x, adj)
            node_h = self.proj_head(node_h)
        return node_h.mean(0)

    def forward(self, x, adj):
        return self.readout(self.graph_embedding(x, adj))


def main():
    torch.manual_seed(0)
    mol = MoleculeRegressor()
    opt = torch.optim.SGD(filter(lambda w: w.requires_grad, mol.parameters()), lr=0.01)
    head_ids = {id(w) for w in mol.proj_head.parameters()}
    opt_ids = {id(w) for g in opt.param_groups for w in g["params"]}
    assert head_ids <= opt_ids
    opt.zero_grad()
    loss = 0.0
    for n_atoms in (4, 5, 7):
        x = torch.randn(n_atoms, 8)
        adj = (torch.rand(n_atoms, n_atoms) > 0.5).float()
        energy = torch.randn(1)
        loss = loss + F.mse_loss(mol(x, adj), energy)
    loss.backward()
    opt.step()
    assert mol.proj_head[0].weight.grad is None
    assert mol.readout.weight.grad is not None
    print("OK")


if __name__ == "__main__":
    main()
