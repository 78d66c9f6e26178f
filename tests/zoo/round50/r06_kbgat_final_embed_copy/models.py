"""Two-stage KG embedding: a relation-aware graph attention encoder, then a ConvKB scorer."""
import torch
import torch.nn.functional as F
from torch import nn


class GraphAttentionEncoder(nn.Module):
    def __init__(self, entity_init, relation_init, out_dim):
        super().__init__()
        n_ent, dim = entity_init.shape
        n_rel = relation_init.shape[0]
        self.entity_embeddings = nn.Parameter(entity_init.clone())
        self.relation_embeddings = nn.Parameter(relation_init.clone())
        self.W_msg = nn.Linear(3 * dim, out_dim, bias=False)
        self.a = nn.Parameter(torch.randn(out_dim) * 0.1)
        self.W_rel = nn.Parameter(torch.randn(dim, out_dim) * 0.1)
        self.W_entities = nn.Parameter(torch.randn(dim, out_dim) * 0.1)
        # filled in forward(); read by the second stage
        self.final_entity_embeddings = nn.Parameter(torch.zeros(n_ent, out_dim))
        self.final_relation_embeddings = nn.Parameter(torch.zeros(n_rel, out_dim))

    def forward(self, triples, batch_tails):
        self.entity_embeddings.data = F.normalize(self.entity_embeddings.data, p=2, dim=1).detach()
        self.relation_embeddings.data = F.normalize(self.relation_embeddings.data, p=2, dim=1)
        h, r, t = triples[:, 0], triples[:, 1], triples[:, 2]
        ent, rel = self.entity_embeddings, self.relation_embeddings
        msg = self.W_msg(torch.cat([ent[h], rel[r], ent[t]], dim=1))
        logits = F.leaky_relu(msg @ self.a, 0.2)
        alpha = torch.exp(logits - logits.max())
        denom = torch.zeros(ent.shape[0]).index_add(0, h, alpha) + 1e-9
        agg = torch.zeros(ent.shape[0], msg.shape[1]).index_add(0, h, alpha.unsqueeze(1) * msg)
        gat_out = F.elu(agg / denom.unsqueeze(1))

        mask = torch.zeros(ent.shape[0])
        mask[torch.unique(batch_tails)] = 1.0
        out_entity = ent.mm(self.W_entities) + mask.unsqueeze(-1) * gat_out
        out_entity = F.normalize(out_entity, p=2, dim=1)
        out_relation = rel.mm(self.W_rel)

        self.final_entity_embeddings.data = out_entity.data
        self.final_relation_embeddings.data = out_relation.data
        return out_entity, out_relation


class ConvKB(nn.Module):
    def __init__(self, n_ent, n_rel, dim, channels=4):
        super().__init__()
        self.final_entity_embeddings = nn.Parameter(torch.randn(n_ent, dim))
        self.final_relation_embeddings = nn.Parameter(torch.randn(n_rel, dim))
        self.conv = nn.Conv2d(1, channels, (1, 3))
        self.fc = nn.Linear(channels * dim, 1)

    def forward(self, triples):
        h = self.final_entity_embeddings[triples[:, 0]]
        r = self.final_relation_embeddings[triples[:, 1]]
        t = self.final_entity_embeddings[triples[:, 2]]
        x = torch.stack([h, r, t], dim=-1).unsqueeze(1)
        return self.fc(F.relu(self.conv(x)).flatten(1)).squeeze(-1)
