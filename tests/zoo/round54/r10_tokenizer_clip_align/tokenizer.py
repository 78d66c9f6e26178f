"""Dual-branch image tokenizer: a pixel branch, a semantic branch, and a head predicting CLIP features."""
import torch
import torch.nn as nn


class DualBranchTokenizer(nn.Module):
    def __init__(self, img_dim=48, code_dim=8, clip_dim=16, tokens=2):
        super().__init__()
        self.tokens, self.code_dim = tokens, code_dim
        self.enc = nn.Sequential(nn.Linear(img_dim, 32), nn.ReLU())
        self.to_vis = nn.Linear(32, tokens * code_dim)
        self.to_sem = nn.Linear(32, tokens * code_dim)
        self.dec = nn.Sequential(nn.Linear(2 * tokens * code_dim, 32), nn.ReLU(), nn.Linear(32, img_dim))
        # only the semantic alignment loss reaches this head
        self.feat_pred_head = nn.Linear(code_dim, clip_dim)

    def forward(self, images):
        b = images.shape[0]
        h = self.enc(images.flatten(1))
        quant_vis = torch.tanh(self.to_vis(h))
        quant_sem = torch.tanh(self.to_sem(h))
        recon = self.dec(torch.cat([quant_vis, quant_sem], dim=1)).view_as(images)
        semantic_feat = self.feat_pred_head(quant_sem.view(b, self.tokens, self.code_dim))
        return recon, semantic_feat
