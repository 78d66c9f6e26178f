import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BoundedMLP(nn.Module):
    """Conditioner network; tanh keeps the raw spline parameters bounded."""

    def __init__(self, in_features, out_features, hidden_features=32):
        super().__init__()
        self.hidden_features = hidden_features
        self.fc1 = nn.Linear(in_features, hidden_features)
        self.fc2 = nn.Linear(hidden_features, hidden_features)
        self.fc3 = nn.Linear(hidden_features, out_features)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.relu(self.fc2(h))
        return torch.tanh(self.fc3(h))


def piecewise_linear_cdf(x, raw_widths, raw_heights):
    widths = F.softmax(raw_widths, dim=-1)
    heights = F.softmax(raw_heights, dim=-1)
    cum_w = F.pad(torch.cumsum(widths, dim=-1), (1, 0))[..., :-1]
    cum_h = F.pad(torch.cumsum(heights, dim=-1), (1, 0))[..., :-1]
    idx = torch.searchsorted(cum_w.detach().contiguous(), x.unsqueeze(-1).contiguous()) - 1
    idx = idx.clamp(0, widths.shape[-1] - 1)
    w = widths.gather(-1, idx).squeeze(-1)
    h = heights.gather(-1, idx).squeeze(-1)
    x0 = cum_w.gather(-1, idx).squeeze(-1)
    y0 = cum_h.gather(-1, idx).squeeze(-1)
    y = y0 + (x - x0) * h / w
    return y, torch.log(h / w).sum(-1)


class PiecewiseCoupling(nn.Module):
    def __init__(self, dim, mask, num_bins=6):
        super().__init__()
        self.register_buffer("mask", mask)
        self.num_bins = num_bins
        n_id = int(mask.sum())
        self.n_tr = dim - n_id
        self.transform_net = BoundedMLP(n_id, self.n_tr * 2 * num_bins)

    def forward(self, x):
        x_id, x_tr = x[:, self.mask.bool()], x[:, ~self.mask.bool()]
        params = self.transform_net(x_id).view(x.shape[0], self.n_tr, 2 * self.num_bins)
        unnormalized_widths = params[..., : self.num_bins]
        unnormalized_heights = params[..., self.num_bins:]
        if hasattr(self.transform_net, "hidden_features"):
            unnormalized_widths /= math.sqrt(self.transform_net.hidden_features)
            unnormalized_heights /= math.sqrt(self.transform_net.hidden_features)
        y_tr, logdet = piecewise_linear_cdf(x_tr, unnormalized_widths, unnormalized_heights)
        out = x.clone()
        out[:, ~self.mask.bool()] = y_tr
        return out, logdet
