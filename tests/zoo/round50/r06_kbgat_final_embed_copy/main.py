"""
expect: none
dynamic: dismiss
source: https://github.com/deepakn97/relationPrediction/issues/15

Knowledge-graph link prediction in two stages, KBGAT-style. Stage one trains a graph
attention encoder with a TransE-style margin loss on the embeddings it returns; inside
forward() it renormalises the input embeddings through .data before any recorded use, writes
a 0/1 mask in place into a fresh zeros tensor, and stores .data copies of its outputs into
final_*_embeddings so that the second stage can start from them. Those stored copies never
feed the stage-one loss (and get no gradient there, by design); stage two copies them into a
ConvKB scorer whose own parameters are trained directly. The asserts show the encoder weights
receive gradients and the margin loss falls, and that the ConvKB stage updates the copied
embeddings and lowers its loss.
"""
import torch
import torch.nn.functional as F

from models import ConvKB, GraphAttentionEncoder


def corrupt(triples, n_ent, gen):
    neg = triples.clone()
    neg[:, 2] = torch.randint(0, n_ent, (len(triples),), generator=gen)
    return neg


def transe_margin(ent, rel, pos, neg, margin=1.0):
    d_pos = (ent[pos[:, 0]] + rel[pos[:, 1]] - ent[pos[:, 2]]).norm(p=1, dim=1)
    d_neg = (ent[neg[:, 0]] + rel[neg[:, 1]] - ent[neg[:, 2]]).norm(p=1, dim=1)
    return F.relu(margin + d_pos - d_neg).mean()


torch.manual_seed(0)
torch.set_num_threads(1)
n_ent, n_rel, dim, out_dim = 20, 3, 8, 8
triples = torch.stack([torch.randint(0, n_ent, (60,)), torch.randint(0, n_rel, (60,)), torch.randint(0, n_ent, (60,))], 1)
gen = torch.Generator().manual_seed(1)

gat = GraphAttentionEncoder(torch.randn(n_ent, dim), torch.randn(n_rel, dim), out_dim)
opt_gat = torch.optim.Adam(gat.parameters(), lr=1e-2)
w_start = gat.W_entities.detach().clone()
gat_losses = []
for epoch in range(40):
    out_entity, out_relation = gat(triples, triples[:, 2])
    loss = transe_margin(out_entity, out_relation, triples, corrupt(triples, n_ent, gen))
    opt_gat.zero_grad()
    loss.backward()
    assert gat.W_entities.grad is not None and gat.W_msg.weight.grad is not None
    opt_gat.step()
    gat_losses.append(loss.item())
assert (gat.W_entities - w_start).abs().max() > 1e-3
assert sum(gat_losses[-5:]) < sum(gat_losses[:5])

conv = ConvKB(n_ent, n_rel, out_dim)
conv.final_entity_embeddings = gat.final_entity_embeddings
conv.final_relation_embeddings = gat.final_relation_embeddings
opt_conv = torch.optim.Adam(conv.parameters(), lr=1e-2)
ent_start = conv.final_entity_embeddings.detach().clone()
conv_losses = []
for epoch in range(40):
    neg = corrupt(triples, n_ent, gen)
    scores = conv(torch.cat([triples, neg]))
    labels = torch.cat([torch.ones(len(triples)), -torch.ones(len(neg))])
    loss = F.softplus(-labels * scores).mean()
    opt_conv.zero_grad()
    loss.backward()
    opt_conv.step()
    conv_losses.append(loss.item())
assert (conv.final_entity_embeddings - ent_start).abs().max() > 1e-3
assert conv_losses[-1] < conv_losses[0]
print("GAT margin", round(gat_losses[0], 3), "->", round(gat_losses[-1], 3), "| ConvKB", round(conv_losses[0], 3), "->", round(conv_losses[-1], 3))
