"""Multi-frame depth encoder: a plane-sweep cost volume between the current and a lookup frame."""
import torch
import torch.nn as nn


class MatchingEncoder(nn.Module):
    def __init__(self, num_bins=6):
        super().__init__()
        self.shifts = list(range(num_bins))
        self.layer0 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.reduce_conv = nn.Sequential(nn.Conv2d(8 + num_bins, 16, 3, padding=1), nn.ReLU())
        self.layer1 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())

    def feature_extraction(self, image):
        return self.layer0(image)

    def match_features(self, current_feats, lookup_feats):
        costs = [(current_feats - torch.roll(lookup_feats, shifts=s, dims=3)).abs().mean(1) for s in self.shifts]
        return torch.stack(costs, dim=1)

    @staticmethod
    def compute_confidence_mask(cost_volume):
        return (cost_volume.min(dim=1, keepdim=True)[0] < cost_volume.mean()).float()

    def forward(self, current_image, lookup_image):
        current_feats = self.feature_extraction(current_image)
        # lookup-frame features carry no gradients, to save memory
        with torch.no_grad():
            lookup_feats = self.feature_extraction(lookup_image)
        cost_volume = self.match_features(current_feats, lookup_feats)
        confidence = self.compute_confidence_mask(cost_volume.detach())
        cost_volume *= confidence
        x = self.reduce_conv(torch.cat([current_feats, cost_volume], dim=1))
        return self.layer1(x)
