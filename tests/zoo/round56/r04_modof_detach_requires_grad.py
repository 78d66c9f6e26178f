"""
expect: GL003 99
dynamic: confirm
source: https://github.com/ninglab/Modof/issues/4

Modof is a molecule-optimisation model: a graph message-passing encoder and a
decoder with several heads (disconnection site, deletion, new node, topology,
atoms) whose losses are summed into total_loss.  A user hit "element 0 of
tensors does not require grad and does not have a grad_fn" and made training run
by adding `total_loss = total_loss.detach_().requires_grad_(True)` just before
`total_loss.backward()`; the maintainer pointed out the printed GNorm was 0.00,
i.e. nothing was being trained.  The in-place detach_ cuts the summed loss from
the encoder/decoder graph and requires_grad_ only turns it into a fresh leaf, so
backward stops right there.  This file rebuilds the loop on a tiny random
molecular-graph batch: with the switch the gradient norm is exactly 0 and the
weights never move; without it the same loop trains and the loss falls.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_ATOM_TYPES, N_VOCAB, HID = 5, 7, 16


class MPNEncoder(nn.Module):
    def __init__(self, depth=3):
        super().__init__()
        self.embed = nn.Embedding(N_ATOM_TYPES, HID)
        self.W_msg = nn.Linear(HID, HID)
        self.W_upd = nn.Linear(2 * HID, HID)
        self.depth = depth

    def forward(self, atoms, adj):
        h = self.embed(atoms)
        for _ in range(self.depth):
            m = adj @ self.W_msg(h)
            h = torch.relu(self.W_upd(torch.cat([h, m], -1)))
        return h


class MolOpt(nn.Module):
    """Encoder + the decoder heads, returning the summed loss like Modof does."""

    def __init__(self):
        super().__init__()
        self.encoder = MPNEncoder()
        self.target_head = nn.Linear(HID, 1)        # which atom is the disconnection site
        self.delete_head = nn.Linear(HID, 1)        # delete the fragment or not
        self.node_head = nn.Linear(HID, N_VOCAB)    # substructure to attach
        self.topo_head = nn.Linear(HID, 1)          # stop / expand

    def forward(self, atoms, adj, site, delete, node, topo):
        h = self.encoder(atoms, adj)                      # (B, n, HID)
        site_logits = self.target_head(h).squeeze(-1)     # (B, n)
        g = h.mean(1)
        losses = [
            F.cross_entropy(site_logits, site),
            F.binary_cross_entropy_with_logits(self.delete_head(g).squeeze(-1), delete),
            F.cross_entropy(self.node_head(g), node),
            F.binary_cross_entropy_with_logits(self.topo_head(g).squeeze(-1), topo),
        ]
        total = sum(losses)
        return total, [l.item() for l in losses]


def random_batch(B=16, n=6):
    g = torch.Generator().manual_seed(3)
    atoms = torch.randint(0, N_ATOM_TYPES, (B, n), generator=g)
    upper = (torch.rand(B, n, n, generator=g) < 0.4).float().triu(1)
    adj = upper + upper.transpose(1, 2)
    site = atoms.argmax(1)                 # learnable from the atoms
    delete = (atoms[:, 0] > 2).float()
    node = atoms.sum(1) % N_VOCAB
    topo = (adj.sum((1, 2)) > 2 * n).float()
    return atoms, adj, site, delete, node, topo


param_norm = lambda m: math.sqrt(sum(p.norm().item() ** 2 for p in m.parameters()))
grad_norm = lambda m: math.sqrt(sum(p.grad.norm().item() ** 2 for p in m.parameters() if p.grad is not None))


def train(user_patch, steps=80):
    torch.manual_seed(0)
    model = MolOpt()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, amsgrad=True)
    batch = random_batch()
    start = [p.detach().clone() for p in model.parameters()]
    first = last = None
    gnorms = []
    for step in range(steps):
        model.zero_grad()
        total_loss, _ = model(*batch)
        if user_patch:
            total_loss = total_loss.detach_().requires_grad_(True)
        total_loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 50.0)
        optimizer.step()
        gnorms.append(grad_norm(model))
        first = total_loss.item() if first is None else first
        last = total_loss.item()
    moved = any(not torch.equal(p.detach(), s) for p, s in zip(model.parameters(), start))
    return first, last, max(gnorms), moved, param_norm(model)


first, last, gmax, moved, _ = train(user_patch=True)
assert gmax == 0.0, "GNorm: 0.00"
assert not moved, "no parameter changed"
assert abs(first - last) < 1e-6

first_f, last_f, gmax_f, moved_f, _ = train(user_patch=False)
assert gmax_f > 0 and moved_f
assert last_f < 0.6 * first_f, (first_f, last_f)
print(f"patched: GNorm max {gmax:.2f}, loss {first:.3f}->{last:.3f}; "
      f"unpatched: loss {first_f:.3f}->{last_f:.3f}")
