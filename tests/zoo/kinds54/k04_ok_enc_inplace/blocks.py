import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm


class GatedMixer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.mix = nn.Conv1d(dim, dim, kernel_size=3, padding=1)

    def forward(self, x):
        return self.encode_features(x)

    def encode_features(self, x):
        h = x.transpose(1, 2)
        branch = weight_norm(self.mix)
        h = h + branch(h)
        return h.transpose(1, 2)
