"""Deep Interest Evolution Network (CTR prediction) with the interest-extractor auxiliary loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AuxiliaryNet(nn.Module):
    def __init__(self, input_size, hidden=16):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(input_size, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return torch.sigmoid(self.mlp(x)).squeeze(-1)


class Interest(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.interest_extractor = nn.GRU(emb_dim, emb_dim, batch_first=True)
        self.attention = nn.Linear(2 * emb_dim, 1)
        self.auxiliary_net = AuxiliaryNet(2 * emb_dim)    # negative-sampling auxiliary head

    def auxiliary_loss(self, states, click_seq, noclick_seq):
        p = torch.cat([self.auxiliary_net(torch.cat([states, click_seq], -1)),
                       self.auxiliary_net(torch.cat([states, noclick_seq], -1))])
        target = torch.cat([torch.ones(p.shape[0] // 2, *p.shape[1:]), torch.zeros(p.shape[0] // 2, *p.shape[1:])])
        return F.binary_cross_entropy(p, target)

    def forward(self, query, keys, neg_keys):
        interests, _ = self.interest_extractor(keys)                 # (B, T, E)
        aux = self.auxiliary_loss(interests[:, :-1], keys[:, 1:], neg_keys[:, 1:])
        q = query.unsqueeze(1).expand_as(interests)
        weights = torch.softmax(self.attention(torch.cat([interests, q], -1)).squeeze(-1), dim=1)
        return (weights.unsqueeze(-1) * interests).sum(1), aux


class DIEN(nn.Module):
    def __init__(self, n_items=30, emb_dim=8, groups=("item", "category")):
        super().__init__()
        self.groups = groups
        self.embeddings = nn.ModuleDict({g: nn.Embedding(n_items, emb_dim) for g in groups})
        self.interests = nn.ModuleDict({g: Interest(emb_dim) for g in groups})
        self.mlp = nn.Sequential(nn.Linear(2 * emb_dim * len(groups), 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, batch):
        features, auxiliary_loss = [], []
        for g in self.groups:
            emb = self.embeddings[g]
            query, hist, neg = emb(batch[g]), emb(batch[g + "_hist"]), emb(batch[g + "_neg"])
            pooled, tmp_loss = self.interests[g](query, hist, neg)
            auxiliary_loss.append(tmp_loss)
            features += [query, pooled]
        output = torch.sigmoid(self.mlp(torch.cat(features, -1))).squeeze(-1)
        return output, torch.mean(torch.tensor(auxiliary_loss))
