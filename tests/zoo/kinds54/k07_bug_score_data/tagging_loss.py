import torch.nn as nn
import torch.nn.functional as F


class MultiLabelBCE(nn.Module):
    def forward(self, probs, labels):
        return F.binary_cross_entropy(probs, labels)

    def hit_rate(self, probs, labels):
        probs.data[probs.data > 0.5] = 1
        probs.data[probs.data <= 0.5] = 0
        return (probs.data == labels).float().mean().item()
