"""Translation-based sequential recommender with BPR loss and L2 embedding regularisation."""
import torch
import torch.nn as nn


class BPRLoss(nn.Module):
    def forward(self, pos_score, neg_score):
        return -torch.log(1e-10 + torch.sigmoid(pos_score - neg_score)).mean()


class EmbLoss(nn.Module):
    def forward(self, *embeddings):
        emb_loss = torch.zeros(1)
        for embedding in embeddings:
            emb_loss += torch.norm(embedding, p=2)
        emb_loss /= embeddings[-1].shape[0]
        return emb_loss


class RegLoss(nn.Module):
    def forward(self, *params):
        return sum(p.norm(2) for p in params)


class TransRec(nn.Module):
    def __init__(self, n_users, n_items, dim, reg_weight=1.0):
        super().__init__()
        self.user_embedding = nn.Embedding(n_users, dim, padding_idx=0)
        self.item_embedding = nn.Embedding(n_items, dim, padding_idx=0)
        self.bias = nn.Embedding(n_items, 1, padding_idx=0)
        self.T = nn.Parameter(torch.zeros(dim))
        self.reg_weight = reg_weight
        self.bpr_loss = BPRLoss()
        self.emb_loss = EmbLoss()
        self.reg_loss = RegLoss()
        for emb in (self.user_embedding, self.item_embedding, self.bias):
            nn.init.xavier_normal_(emb.weight)

    @staticmethod
    def _l2_distance(x, y):
        return torch.sqrt(torch.sum((x - y) ** 2, dim=-1, keepdim=True))

    def forward(self, user, item_seq, item_seq_len):
        last_items = item_seq.gather(1, (item_seq_len - 1).view(-1, 1)).squeeze(-1)
        user_emb = self.user_embedding(user)
        return user_emb + self.T.expand_as(user_emb) + self.item_embedding(last_items)

    def calculate_loss(self, batch):
        user, item_seq, item_seq_len, pos_items, neg_items = batch
        seq_output = self.forward(user, item_seq, item_seq_len)
        pos_score = self.bias(pos_items) - self._l2_distance(seq_output, self.item_embedding(pos_items))
        neg_score = self.bias(neg_items) - self._l2_distance(seq_output, self.item_embedding(neg_items))
        bpr_loss = self.bpr_loss(pos_score, neg_score)
        item_emb_loss = self.emb_loss(self.item_embedding(pos_items).detach())
        user_emb_loss = self.emb_loss(self.user_embedding(user).detach())
        bias_emb_loss = self.emb_loss(self.bias(pos_items).detach())
        reg = self.reg_weight * (item_emb_loss + user_emb_loss + bias_emb_loss)
        return bpr_loss, reg, self.reg_loss(self.T)
