"""DenseCL-style dense contrastive pretraining model (tiny version for 16x16 crops)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def small_backbone(width=32):
    return nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
        nn.Conv2d(width, width, 3, stride=2, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
        nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
    )


class DenseCL(nn.Module):
    def __init__(self, width=32, dim=32, queue_len=512, m=0.99, t=0.2, dense_norm="with_keys"):
        super().__init__()
        self.backbone_q = small_backbone(width)
        self.global_q = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Linear(width, dim))
        self.dense_q = nn.Sequential(nn.Conv2d(width, width, 1), nn.ReLU(), nn.Conv2d(width, dim, 1))
        self.backbone_k = copy.deepcopy(self.backbone_q).requires_grad_(False)
        self.global_k = copy.deepcopy(self.global_q).requires_grad_(False)
        self.dense_k = copy.deepcopy(self.dense_q).requires_grad_(False)
        self.m, self.t, self.dense_norm = m, t, dense_norm
        self.register_buffer("queue_g", F.normalize(torch.randn(queue_len, dim), dim=1))
        self.register_buffer("queue_d", F.normalize(torch.randn(queue_len, dim), dim=1))
        self.register_buffer("ptr", torch.zeros((), dtype=torch.long))

    def pairs(self):
        return [(self.backbone_q, self.backbone_k), (self.global_q, self.global_k),
                (self.dense_q, self.dense_k)]

    @torch.no_grad()
    def momentum_update(self):
        for online, target in self.pairs():
            for po, pt in zip(online.parameters(), target.parameters()):
                pt.data.mul_(self.m).add_(po.data, alpha=1 - self.m)

    @torch.no_grad()
    def enqueue(self, k_global, k_dense_mean):
        n, p = k_global.shape[0], int(self.ptr)
        self.queue_g[p:p + n] = k_global
        self.queue_d[p:p + n] = k_dense_mean
        self.ptr.fill_((p + n) % self.queue_g.shape[0])

    def info_nce(self, pos, neg):
        logits = torch.cat([pos.unsqueeze(-1), neg], -1) / self.t
        logits = logits.reshape(-1, logits.shape[-1])
        return F.cross_entropy(logits, torch.zeros(logits.shape[0], dtype=torch.long))

    def forward(self, im_q, im_k):
        feat_q = self.backbone_q(im_q)
        q_global = F.normalize(self.global_q(feat_q.mean((2, 3))), dim=1)
        q_dense = self.dense_q(feat_q).flatten(2)
        if self.dense_norm == "query_side":
            q_dense = F.normalize(q_dense, dim=1)

        with torch.no_grad():
            self.momentum_update()
            feat_k = self.backbone_k(im_k)
            k_global = F.normalize(self.global_k(feat_k.mean((2, 3))), dim=1)
            k_dense = F.normalize(self.dense_k(feat_k).flatten(2), dim=1)
            if self.dense_norm == "with_keys":
                q_dense = F.normalize(q_dense, dim=1)
            fq = F.normalize(feat_q.flatten(2), dim=1)
            fk = F.normalize(feat_k.flatten(2), dim=1)
            match = torch.einsum("bcn,bcm->bnm", fq, fk).argmax(2)
            k_pos = torch.gather(k_dense, 2, match.unsqueeze(1).expand(-1, k_dense.shape[1], -1))

        loss_global = self.info_nce((q_global * k_global).sum(1), q_global @ self.queue_g.clone().t())
        dense_pos = (q_dense * k_pos).sum(1)
        dense_neg = torch.einsum("bcn,kc->bnk", q_dense, self.queue_d.clone())
        loss_dense = self.info_nce(dense_pos, dense_neg)
        self.enqueue(k_global, F.normalize(k_dense.mean(2), dim=1))
        return 0.5 * loss_global + 0.5 * loss_dense
