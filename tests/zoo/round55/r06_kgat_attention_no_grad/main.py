"""
expect: none
dynamic: dismiss
source: https://github.com/LunaBlack/KGAT-pytorch/issues/15

KGAT training alternates three phases per epoch: a BPR step on the collaborative-filtering loss through
attentive propagation over the knowledge graph, a TransR step on the knowledge-graph loss, and a refresh
of the edge attention, which the trainer computes under torch.no_grad() and stores on the graph as
constant edge weights. The issue asks why the attention is computed without gradients. This follows the
KGAT paper's alternating optimisation: the relation matrices W_R that score the edges are learned by the
TransR loss, and the CF loss treats the current attention as fixed coefficients. The asserts check that
W_R gets no gradient from the CF loss but does from the KG loss, that entity embeddings and aggregators
train, that the stored attention is a constant, row-normalised and moving between epochs, and that both
losses fall.
"""
import torch

from kgat import CKG, KGAT

torch.manual_seed(0)
torch.set_num_threads(1)

n_users, n_entities, n_items = 6, 10, 5
users = torch.arange(n_entities, n_entities + n_users)
interactions = torch.tensor([[u, i] for k, u in enumerate(users.tolist()) for i in (k % n_items, (k + 2) % n_items)])
kg_triples = torch.tensor([[i, 2 + (i % 2), n_items + (i % 5)] for i in range(n_items)])

heads = torch.cat([interactions[:, 0], kg_triples[:, 0]])
rels = torch.cat([torch.zeros(len(interactions), dtype=torch.long), kg_triples[:, 1]])
tails = torch.cat([interactions[:, 1], kg_triples[:, 2]])
all_h = torch.cat([heads, tails])
all_r = torch.cat([rels, rels + 4])
all_t = torch.cat([tails, heads])
graph = CKG(src=all_t, dst=all_h, rel=all_r, n_nodes=n_entities + n_users)

model = KGAT(n_users, n_entities, n_relations=8)
cf_optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
kg_optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

cf_losses, kg_losses, atts = [], [], [graph.att.clone()]
for epoch in range(25):
    model.train()
    u = interactions[:, 0]
    pos = interactions[:, 1]
    neg = torch.randint(0, n_items, pos.shape)
    cf_loss = model("calc_cf_loss", graph, u, pos, neg)
    cf_optimizer.zero_grad()
    cf_loss.backward()
    if epoch == 0:
        assert model.W_R.grad is None, "CF loss must not reach W_R: attention is a constant here"
        assert model.entity_user_embed.weight.grad.abs().sum() > 0
        assert model.aggregators[0].W1.weight.grad.abs().sum() > 0
    cf_optimizer.step()

    neg_t = torch.randint(0, n_entities + n_users, (all_h.shape[0],))
    kg_loss = model("calc_kg_loss", all_h, all_r, all_t, neg_t)
    kg_optimizer.zero_grad()
    kg_loss.backward()
    if epoch == 0:
        assert model.W_R.grad is not None and model.W_R.grad.abs().sum() > 0
    kg_optimizer.step()

    with torch.no_grad():
        att = model("calc_att", graph)
    graph.att = att
    atts.append(att)
    cf_losses.append(cf_loss.item())
    kg_losses.append(kg_loss.item())

assert not graph.att.requires_grad
row_sums = torch.zeros(graph.n_nodes).index_add(0, graph.dst, graph.att)
assert torch.allclose(row_sums[torch.unique(graph.dst)], torch.ones(len(torch.unique(graph.dst))), atol=1e-5)
assert (atts[-1] - atts[1]).abs().max() > 1e-4
assert sum(cf_losses[-5:]) < sum(cf_losses[:5]) and sum(kg_losses[-5:]) < sum(kg_losses[:5])
print(f"cf loss {cf_losses[0]:.3f} -> {cf_losses[-1]:.3f}; kg loss {kg_losses[0]:.3f} -> {kg_losses[-1]:.3f}")
