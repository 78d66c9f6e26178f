"""TransE with a margin loss; entity vectors projected back to the unit sphere."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TransEModel(nn.Module):
    def __init__(self, emb_dim, n_ent, n_rel):
        super().__init__()
        self.ent_emb = nn.Embedding(n_ent, emb_dim)
        self.rel_emb = nn.Embedding(n_rel, emb_dim)
        nn.init.xavier_uniform_(self.ent_emb.weight)
        nn.init.xavier_uniform_(self.rel_emb.weight)
        self.rel_emb.weight.data = F.normalize(self.rel_emb.weight.data, p=2, dim=1)
        self.normalize_parameters()

    def scoring_function(self, h_idx, t_idx, r_idx):
        # heads and tails are normalised inside the graph, so every mini-batch
        # scores unit-norm entities even between two projections
        h = F.normalize(self.ent_emb(h_idx), p=2, dim=1)
        t = F.normalize(self.ent_emb(t_idx), p=2, dim=1)
        r = self.rel_emb(r_idx)
        return -torch.norm(h + r - t, p=2, dim=1)

    def forward(self, heads, tails, neg_heads, neg_tails, rels):
        return (self.scoring_function(heads, tails, rels),
                self.scoring_function(neg_heads, neg_tails, rels))

    def normalize_parameters(self):
        # projection step of the TransE algorithm, done outside autograd
        self.ent_emb.weight.data = F.normalize(self.ent_emb.weight.data, p=2, dim=1)


class MarginLoss(nn.Module):
    def __init__(self, margin):
        super().__init__()
        self.loss = nn.MarginRankingLoss(margin=margin, reduction='sum')

    def forward(self, positive_triplets, negative_triplets):
        return self.loss(positive_triplets, negative_triplets,
                         target=torch.ones_like(positive_triplets))
