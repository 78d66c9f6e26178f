"""A small full-reference image quality metric in the style of feature-based IQA models.

A frozen backbone is tapped with forward hooks; the collected multi-scale features of the
distorted and the reference image go through a small regression head that outputs a quality
score (higher is better).
"""
import torch
import torch.nn as nn


class HookedFRMetric(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1, stride=2), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, stride=2), nn.ReLU(),
        )
        for p in self.backbone.parameters():
            p.requires_grad_(False)
        self._taps = []
        for idx in (1, 3, 5):
            self.backbone[idx].register_forward_hook(self._save_tap)
        self.regressor = nn.Sequential(nn.Linear(3 * 40, 32), nn.ReLU(), nn.Linear(32, 1))

    def _save_tap(self, module, inputs, output):
        self._taps.append(output)

    @torch.no_grad()
    def get_backbone_feature(self, x):
        self._taps = []
        self.backbone(x)
        return list(self._taps)

    def forward(self, dist, ref):
        n = dist.size(0)
        taps = self.get_backbone_feature(torch.cat([dist, ref], dim=0))
        pooled = torch.cat([t.mean(dim=(2, 3)) for t in taps], dim=1)
        f_dist, f_ref = pooled[:n], pooled[n:]
        score = self.regressor(torch.cat([f_dist, f_ref, (f_dist - f_ref).abs()], dim=1))
        return score.squeeze(1)


class HookedFRMetricDifferentiable(HookedFRMetric):
    """Same metric, feature extraction recorded by autograd (usable as a training loss)."""

    def get_backbone_feature(self, x):
        self._taps = []
        self.backbone(x)
        return list(self._taps)
