"""Tiny STCN-style space-time memory network for semi-supervised video object segmentation."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class KeyEncoder(nn.Module):
    def __init__(self, c=16, key_dim=8):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1), nn.ReLU())
        self.key_proj = nn.Conv2d(c, key_dim, 3, padding=1)

    def forward(self, frame):
        f = self.conv(frame)
        return self.key_proj(f), f


class ValueEncoder(nn.Module):
    def __init__(self, c=16, value_dim=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(c + 1, value_dim, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(value_dim, value_dim, 3, padding=1))

    def forward(self, feat, mask):
        return self.conv(torch.cat([feat, mask], 1))


class MemoryReader(nn.Module):
    def __init__(self, save_memory=True):
        super().__init__()
        self.save_memory = save_memory

    def get_affinity(self, mk, qk):
        if self.save_memory:
            return self._get_affinity_nograd(mk, qk)
        return self._affinity(mk, qk)

    @torch.no_grad()
    def _get_affinity_nograd(self, mk, qk):
        # memory-saving variant: the (THW x HW) affinity is the largest tensor of the step
        return self._affinity(mk, qk)

    @staticmethod
    def _affinity(mk, qk):
        B, CK, H, W = qk.shape
        mk, qk = mk.flatten(2), qk.flatten(2)                       # B x CK x N
        a_sq = mk.pow(2).sum(1).unsqueeze(2)
        ab = mk.transpose(1, 2) @ qk
        affinity = (2 * ab - a_sq) / math.sqrt(CK)                  # negative squared L2 (STCN)
        return F.softmax(affinity, dim=1)                           # B x Nm x Nq

    @staticmethod
    def readout(affinity, mv, qshape):
        B, CV, H, W = mv.shape
        mem = mv.flatten(2) @ affinity                              # B x CV x Nq
        return mem.view(B, CV, *qshape)


class STCN(nn.Module):
    def __init__(self, save_memory=True):
        super().__init__()
        self.key_encoder = KeyEncoder()
        self.value_encoder = ValueEncoder()
        self.memory = MemoryReader(save_memory=save_memory)
        self.decoder = nn.Sequential(nn.Conv2d(16 + 16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 1))

    def segment(self, ref_frame, ref_mask, qry_frame):
        mk, mf = self.key_encoder(ref_frame)
        qk, qf = self.key_encoder(qry_frame)
        mv = self.value_encoder(mf, ref_mask)
        affinity = self.memory.get_affinity(mk, qk)
        if self.memory.save_memory:
            affinity.requires_grad_()                              # keep the readout trainable
        readout = self.memory.readout(affinity, mv, qk.shape[-2:])
        return self.decoder(torch.cat([readout, qf], 1))
