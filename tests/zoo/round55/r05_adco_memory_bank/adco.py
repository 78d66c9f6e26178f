"""AdCo contrastive learner: query encoder, momentum key encoder and an adversarial negative bank."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdCo(nn.Module):
    def __init__(self, base_encoder, m=0.99):
        super().__init__()
        self.m = m
        self.encoder_q = base_encoder()
        self.encoder_k = base_encoder()
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1.0 - self.m)

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
            k = k.detach()
        k = concat_all_gather(k)
        l_pos = torch.einsum("nc,ck->nk", [q, k.T])
        return q, k, l_pos


class Adversary_Negatives(nn.Module):
    def __init__(self, bank_size, dim):
        super().__init__()
        self.register_buffer("W", torch.randn(dim, bank_size))
        self.register_buffer("v", torch.zeros(dim, bank_size))

    def forward(self, q):
        memory_bank = F.normalize(self.W, dim=0)
        logit = torch.einsum("nc,ck->nk", [q, memory_bank])
        return memory_bank, self.W, logit


@torch.no_grad()
def concat_all_gather(tensor):
    # single-process stand-in for the all_gather of the distributed code
    return torch.cat([tensor], dim=0)
