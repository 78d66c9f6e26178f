"""
expect: none
dynamic: dismiss
source: https://github.com/torchkge-team/torchkge/issues/252

Knowledge graph embedding with TransE (torchkge style). After the optimizer steps of an
epoch, the entity table is projected back onto the unit sphere by assigning to
`weight.data`, and inside the scoring function heads and tails go through F.normalize
again. The `.data` write looks like a cut graph, but it is the projection step of the
algorithm: it runs after backward and step, no saved tensor of a live graph depends on
it, and no loss term is built from it. The running loss uses `.item()` only for logging.
The asserts check that entity and relation embeddings receive non-zero gradients, that
the loss falls, that true triples end up scoring above corrupted ones, and that entity
rows have unit norm after each projection.
"""
import torch

from transe_model import MarginLoss, TransEModel

torch.manual_seed(0)
torch.set_num_threads(1)

n_ent, n_rel, dim = 40, 4, 16
# a small synthetic KG: tail = (head + 7*rel + 1) mod n_ent
heads = torch.arange(n_ent).repeat(n_rel)
rels = torch.arange(n_rel).repeat_interleave(n_ent)
tails = (heads + 7 * rels + 1) % n_ent

model = TransEModel(dim, n_ent, n_rel)
criterion = MarginLoss(margin=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)

epoch_losses = []
for epoch in range(60):
    running_loss = 0.0
    perm = torch.randperm(len(heads))
    for b in perm.split(40):
        h, t, r = heads[b], tails[b], rels[b]
        n_h, n_t = h.clone(), torch.randint(0, n_ent, t.shape)
        optimizer.zero_grad()
        pos, neg = model(h, t, n_h, n_t, r)
        loss = criterion(pos, neg)
        loss.backward()
        if epoch == 0:
            assert model.ent_emb.weight.grad.abs().sum() > 0
            assert model.rel_emb.weight.grad.abs().sum() > 0
        optimizer.step()
        running_loss += loss.item()
    model.normalize_parameters()
    norms = model.ent_emb.weight.norm(dim=1)
    assert torch.allclose(norms, torch.ones_like(norms), atol=1e-5)
    epoch_losses.append(running_loss)

print(f"loss {epoch_losses[0]:.2f} -> {epoch_losses[-1]:.2f}")
assert epoch_losses[-1] < 0.7 * epoch_losses[0]
with torch.no_grad():
    pos = model.scoring_function(heads, tails, rels)
    neg = model.scoring_function(heads, torch.randint(0, n_ent, tails.shape), rels)
frac = (pos > neg).float().mean().item()
print(f"true triple beats corrupted one in {frac:.2%} of cases")
assert frac > 0.8
