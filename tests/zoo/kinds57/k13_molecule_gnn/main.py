"""
expect: GL002 gnn.py:32
dynamic: confirm
source: none, invented

Molecular property regression with a message-passing network over dense adjacency matrices. The model
class in `gnn.py` has a `graph_embedding` method (also used to export embeddings) that returns
`torch.tensor(pooled.detach(), requires_grad=True)`, and the training loop predicts with
`model.head(model.graph_embedding(...))`. `torch.tensor` of a detached tensor is a new leaf copy, so the
loss reaches only the readout head: the atom encoder and both message-passing layers never get a
gradient although the optimizer holds all of them. The asserts show those parameters with `.grad` None
and unchanged after training, and that training through `model(...)` gives them gradients, moves them
and reaches a lower error.
"""
import warnings

import torch
import torch.nn.functional as F

from gnn import MolPropertyGNN

warnings.filterwarnings("ignore", message="To copy construct from a tensor")
torch.manual_seed(0)
torch.set_num_threads(1)

MAX_ATOMS, ATOM_FEATS = 9, 5


def random_molecules(n=256):
    n_atoms = torch.randint(3, MAX_ATOMS + 1, (n,))
    mask = (torch.arange(MAX_ATOMS)[None, :] < n_atoms[:, None]).float()
    x = torch.randn(n, MAX_ATOMS, ATOM_FEATS) * mask[..., None]
    upper = (torch.rand(n, MAX_ATOMS, MAX_ATOMS) < 0.35).float().triu(1)
    adj = (upper + upper.transpose(1, 2)) * mask[:, :, None] * mask[:, None, :]
    # property: bonded polarity sum + size term
    y = ((adj @ x[..., :1]) * x[..., :1]).sum((1, 2)) * 0.5 + 0.3 * n_atoms
    return x, adj, mask, y


def train(via_embedding, epochs=40):
    torch.manual_seed(0)
    model = MolPropertyGNN(ATOM_FEATS)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, adj, mask, y = random_molecules()
    msg_w0 = model.layers[0].nbr_lin.weight.detach().clone()
    for epoch in range(epochs):
        for i in range(0, 256, 32):
            batch = (x[i:i + 32], adj[i:i + 32], mask[i:i + 32])
            if via_embedding:
                pred = model.head(model.graph_embedding(*batch)).squeeze(-1)
            else:
                pred = model(*batch)
            loss = F.mse_loss(pred, y[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        mse = F.mse_loss(model(x, adj, mask), y).item()
    return model, msg_w0, mse


if __name__ == "__main__":
    model, msg_w0, mse_emb = train(via_embedding=True)
    assert model.atom_in.weight.grad is None
    assert all(p.grad is None for p in model.layers.parameters())
    assert torch.equal(model.layers[0].nbr_lin.weight, msg_w0)
    assert model.head[0].weight.grad is not None

    model, msg_w0, mse_fwd = train(via_embedding=False)
    assert model.atom_in.weight.grad is not None
    assert not torch.equal(model.layers[0].nbr_lin.weight, msg_w0)
    assert mse_fwd < mse_emb, (mse_emb, mse_fwd)
    print(f"MSE: via graph_embedding {mse_emb:.3f}, via forward {mse_fwd:.3f}")
