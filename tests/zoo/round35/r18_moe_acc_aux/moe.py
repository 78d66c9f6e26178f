import torch
import torch.nn as nn
import torch.nn.functional as F


class MoE(nn.Module):
    """Top-k MoE whose balancing statistics accumulate across forward calls
    and are turned into an auxiliary loss (then cleared) when read."""

    def __init__(self, dim, num_experts=4, k=2, switchloss=0.1, zloss=0.01):
        super().__init__()
        self.experts = nn.ModuleList([nn.Linear(dim, dim) for _ in range(num_experts)])
        self.f_gate = nn.Linear(dim, num_experts, bias=False)
        self.num_experts = num_experts
        self.k = k
        self.switchloss = switchloss
        self.zloss = zloss
        self.init_aux_statistics()

    def init_aux_statistics(self):
        self.acc_probs = 0.0
        self.acc_freq = 0.0
        self.acc_lsesq = 0.0
        self.acc_count = 0

    def update_aux_statistics(self, logits, probs, gates):
        self.acc_probs = self.acc_probs + probs.sum(0)
        self.acc_freq = self.acc_freq + (gates > 0).float().sum(0)
        self.acc_lsesq = self.acc_lsesq + (torch.logsumexp(logits, 1) ** 2).sum()
        self.acc_count += logits.shape[0]

    def get_aux_loss_and_clear(self):
        switch = (F.normalize(self.acc_probs, p=1, dim=0) *
                  F.normalize(self.acc_freq, p=1, dim=0)).sum() * self.num_experts
        z = self.acc_lsesq / self.acc_count
        loss = self.switchloss * switch + self.zloss * z
        self.init_aux_statistics()
        return loss

    def forward(self, x):
        logits = self.f_gate(x)
        probs = logits.softmax(-1)
        top_p, top_i = probs.topk(self.k, dim=-1)
        gates = torch.zeros_like(probs).scatter(1, top_i, top_p)
        self.update_aux_statistics(logits, probs, gates)
        outs = torch.stack([e(x) for e in self.experts], 1)
        return (gates.unsqueeze(-1) * outs).sum(1)
