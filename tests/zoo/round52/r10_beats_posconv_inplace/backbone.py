"""Audio transformer encoder with a convolutional relative-position embedding (BEATs-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SamePad(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.remove = 1 if kernel_size % 2 == 0 else 0

    def forward(self, x):
        return x[:, :, :-self.remove] if self.remove else x


class TransformerEncoder(nn.Module):
    def __init__(self, dim=32, heads=4, layers=2, conv_pos=8, conv_groups=4, residual_clone=False):
        super().__init__()
        conv = nn.Conv1d(dim, dim, kernel_size=conv_pos, padding=conv_pos // 2, groups=conv_groups)
        conv = nn.utils.parametrizations.weight_norm(conv, name="weight", dim=2)
        self.pos_conv = nn.Sequential(conv, SamePad(conv_pos), nn.GELU())
        self.layer_norm = nn.LayerNorm(dim)
        self.layers = nn.ModuleList(
            nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
            for _ in range(layers))
        self.residual_clone = residual_clone

    def extract_features(self, x, padding_mask=None):
        if padding_mask is not None:
            x = x.masked_fill(padding_mask.unsqueeze(-1), 0.0)
        x_conv = self.pos_conv(x.transpose(1, 2))
        x_conv = x_conv.transpose(1, 2)
        if self.residual_clone:
            x = x.clone() + x_conv
        else:
            x += x_conv
        x = self.layer_norm(x)
        x = F.dropout(x, p=0.1, training=self.training)
        for layer in self.layers:
            x = layer(x)
        return x
