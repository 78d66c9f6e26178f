"""KGAT on a collaborative knowledge graph: TransR attention, bi-interaction aggregation, CF and KG losses."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _l2_loss_mean(x):
    return torch.mean(torch.sum(torch.pow(x, 2), dim=1) / 2.0)


def edge_softmax(scores, dst, n_nodes):
    exp = torch.exp(scores - scores.max())
    denom = torch.zeros(n_nodes).index_add(0, dst, exp)
    return exp / denom[dst]


class CKG:
    def __init__(self, src, dst, rel, n_nodes):
        self.src, self.dst, self.rel, self.n_nodes = src, dst, rel, n_nodes
        self.att = edge_softmax(torch.zeros(src.shape[0]), dst, n_nodes)


class Aggregator(nn.Module):
    def __init__(self, in_dim, out_dim, dropout):
        super().__init__()
        self.W1 = nn.Linear(in_dim, out_dim)
        self.W2 = nn.Linear(in_dim, out_dim)
        self.activation = nn.LeakyReLU()
        self.message_dropout = nn.Dropout(dropout)

    def forward(self, g, ego):
        side = torch.zeros_like(ego).index_add(0, g.dst, ego[g.src] * g.att[:, None])
        out = self.activation(self.W1(ego + side)) + self.activation(self.W2(ego * side))
        return self.message_dropout(out)


class KGAT(nn.Module):
    def __init__(self, n_users, n_entities, n_relations, dim=16, layers=(16, 8), dropout=0.1,
                 kg_l2=1e-4, cf_l2=1e-4):
        super().__init__()
        self.n_users, self.n_entities = n_users, n_entities
        self.kg_l2, self.cf_l2 = kg_l2, cf_l2
        self.relation_embed = nn.Embedding(n_relations, dim)
        self.entity_user_embed = nn.Embedding(n_entities + n_users, dim)
        self.W_R = nn.Parameter(torch.empty(n_relations, dim, dim))
        nn.init.xavier_uniform_(self.W_R)
        dims = [dim, *layers]
        self.aggregators = nn.ModuleList(Aggregator(dims[i], dims[i + 1], dropout) for i in range(len(layers)))

    def compute_attention(self, g):
        W_r = self.W_R[g.rel]
        r_mul_t = torch.bmm(self.entity_user_embed(g.src).unsqueeze(1), W_r).squeeze(1)
        r_mul_h = torch.bmm(self.entity_user_embed(g.dst).unsqueeze(1), W_r).squeeze(1)
        r_embed = self.relation_embed(g.rel)
        att = torch.sum(r_mul_t * torch.tanh(r_mul_h + r_embed), dim=1)
        return edge_softmax(att, g.dst, g.n_nodes)

    def calc_kg_loss(self, h, r, pos_t, neg_t):
        r_embed = self.relation_embed(r)
        W_r = self.W_R[r]
        r_mul_h = torch.bmm(self.entity_user_embed(h).unsqueeze(1), W_r).squeeze(1)
        r_mul_pos_t = torch.bmm(self.entity_user_embed(pos_t).unsqueeze(1), W_r).squeeze(1)
        r_mul_neg_t = torch.bmm(self.entity_user_embed(neg_t).unsqueeze(1), W_r).squeeze(1)
        pos_score = torch.sum(torch.pow(r_mul_h + r_embed - r_mul_pos_t, 2), dim=1)
        neg_score = torch.sum(torch.pow(r_mul_h + r_embed - r_mul_neg_t, 2), dim=1)
        kg_loss = torch.mean(-F.logsigmoid(neg_score - pos_score))
        l2 = _l2_loss_mean(r_mul_h) + _l2_loss_mean(r_embed) + _l2_loss_mean(r_mul_pos_t) + _l2_loss_mean(r_mul_neg_t)
        return kg_loss + self.kg_l2 * l2

    def cf_embedding(self, g):
        ego = self.entity_user_embed.weight
        all_embed = [ego]
        for layer in self.aggregators:
            ego = layer(g, ego)
            all_embed.append(F.normalize(ego, p=2, dim=1))
        return torch.cat(all_embed, dim=1)

    def calc_cf_loss(self, g, user_ids, item_pos_ids, item_neg_ids):
        all_embed = self.cf_embedding(g)
        u, p, n = all_embed[user_ids], all_embed[item_pos_ids], all_embed[item_neg_ids]
        cf_loss = torch.mean(-F.logsigmoid((u * p).sum(1) - (u * n).sum(1)))
        return cf_loss + self.cf_l2 * (_l2_loss_mean(u) + _l2_loss_mean(p) + _l2_loss_mean(n))

    def forward(self, mode, *inputs):
        if mode == "calc_att":
            return self.compute_attention(*inputs)
        if mode == "calc_cf_loss":
            return self.calc_cf_loss(*inputs)
        if mode == "calc_kg_loss":
            return self.calc_kg_loss(*inputs)
        raise ValueError(mode)
