"""expect: GL001 22
dynamic: confirm

A message-passing network predicts a molecular property and, while training, computes its messages inside `torch.no_grad()` to "save memory". The optimizer holds the message MLP, but because the no-grad region only runs in training mode the MLP never gets a gradient and never learns.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoleculeGNN(nn.Module):
    def __init__(self, atom_dim=8, hidden=32):
        super().__init__()
        self.embed = nn.Linear(atom_dim, hidden)
        self.message_mlp = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
        self.readout = nn.Linear(hidden, 1)

    def forward(self, atoms, adj):  # atoms: (B, N, atom_dim), adj: (B, N, N)
        h = torch.relu(self.embed(atoms))
        for _ in range(2):
            if self.training:
                with torch.no_grad():
                    msgs = self.message_mlp(h)
            else:
                msgs = self.message_mlp(h)
            h = h + adj @ msgs
        return self.readout(h.mean(dim=1)).squeeze(-1)


def main():
    torch.manual_seed(0)
    n_mols, n_atoms = 32, 9
    atoms = torch.randn(n_mols, n_atoms, 8)
    adj = (torch.rand(n_mols, n_atoms, n_atoms) < 0.3).float()
    adj = ((adj + adj.transpose(1, 2)) > 0).float() / n_atoms
    target = atoms[..., 0].sum(dim=1) + adj.sum(dim=(1, 2))

    model = MoleculeGNN()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    mlp_before = [p.detach().clone() for p in model.message_mlp.parameters()]
    model.train()
    for _ in range(10):
        loss = F.mse_loss(model(atoms, adj), target)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is None for p in model.message_mlp.parameters())
        assert model.embed.weight.grad is not None
        opt.step()
    for before, p in zip(mlp_before, model.message_mlp.parameters()):
        assert torch.equal(before, p), "message MLP should never move"
    print("B2 ok: message MLP starved by training-only no_grad region")


if __name__ == "__main__":
    main()
