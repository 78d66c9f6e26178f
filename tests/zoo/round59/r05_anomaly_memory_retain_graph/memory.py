"""Memory module of a memory-guided normality autoencoder (video anomaly detection).

Memory items are not parameters: they are a tensor carried from batch to batch
and refreshed from the queries of each batch. Queries are trained to sit close
to their nearest item (gathering/compactness loss) and far from the second
nearest (spreading/separateness loss), with the items used as fixed targets.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Memory(nn.Module):
    def get_score(self, mem, query):
        b, h, w, d = query.size()
        score = torch.matmul(query, mem.t()).view(b * h * w, -1)
        return F.softmax(score, dim=0), F.softmax(score, dim=1)

    def get_update_query(self, mem, max_indices, score, query):
        m, d = mem.size()
        query_update = torch.zeros((m, d))
        for i in range(m):
            idx = torch.nonzero(max_indices.squeeze(1) == i)
            if idx.size(0) != 0:
                query_update[i] = torch.sum((score[idx, i] / torch.max(score[:, i])) * query[idx].squeeze(1), dim=0)
            else:
                query_update[i] = 0
        return query_update

    def update(self, query, keys):
        b, h, w, d = query.size()
        score_query, score_memory = self.get_score(keys, query)
        query_reshape = query.contiguous().view(b * h * w, d)
        _, gathering_indices = torch.topk(score_memory, 1, dim=1)
        query_update = self.get_update_query(keys, gathering_indices, score_query, query_reshape)
        updated_memory = F.normalize(query_update + keys, dim=1)
        return updated_memory.detach()

    def gather_loss(self, query, keys):
        b, h, w, d = query.size()
        _, score_memory = self.get_score(keys, query)
        query_reshape = query.contiguous().view(b * h * w, d)
        _, idx = torch.topk(score_memory, 1, dim=1)
        return F.mse_loss(query_reshape, keys[idx].squeeze(1).detach())

    def spread_loss(self, query, keys):
        b, h, w, d = query.size()
        _, score_memory = self.get_score(keys, query)
        query_reshape = query.contiguous().view(b * h * w, d)
        _, idx = torch.topk(score_memory, 2, dim=1)
        pos, neg = keys[idx[:, 0]], keys[idx[:, 1]]
        return F.triplet_margin_loss(query_reshape, pos.detach(), neg.detach(), margin=1.0)

    def read(self, query, mem):
        b, h, w, d = query.size()
        _, score_memory = self.get_score(mem, query)
        query_reshape = query.contiguous().view(b * h * w, d)
        concat_memory = torch.matmul(score_memory.detach(), mem)
        out = torch.cat((query_reshape, concat_memory), dim=1).view(b, h, w, 2 * d)
        return out.permute(0, 3, 1, 2)

    def forward(self, query, keys):
        query = F.normalize(query, dim=1).permute(0, 2, 3, 1)
        gathering_loss = self.gather_loss(query, keys)
        spreading_loss = self.spread_loss(query, keys)
        updated_query = self.read(query, keys)
        updated_memory = self.update(query, keys)
        return updated_query, updated_memory, gathering_loss, spreading_loss
