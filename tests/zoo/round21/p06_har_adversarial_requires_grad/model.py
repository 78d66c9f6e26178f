"""Cross-person HAR model: disentangled domain/class latents with adversarial heads."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DisentangledHAR(nn.Module):
    def __init__(self, channels=3, zdim=16, n_domains=4, n_classes=5):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(channels, 16, 5, padding=2), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(16, 2 * zdim))
        self.head_d = nn.Linear(zdim, n_domains)          # domain from domain latent
        self.head_y = nn.Linear(zdim, n_classes)          # activity from class latent
        self.head_d_false = nn.Linear(zdim, n_domains)    # domain from class latent
        self.head_y_false = nn.Linear(zdim, n_classes)    # activity from domain latent

    def latents(self, x):
        return self.encoder(x).chunk(2, dim=1)

    def classifier(self, x):
        with torch.no_grad():
            zd, zy = self.latents(x)
            pred_d, pred_y = self.head_d(zd), self.head_y(zy)
            pred_d_false, pred_y_false = self.head_d_false(zy), self.head_y_false(zd)
        return pred_d, pred_y, pred_d_false, pred_y_false

    def loss_function_false(self, args, d, x, y=None):
        d = d.long()
        y = y.long()
        pred_d, pred_y, pred_d_false, pred_y_false = self.classifier(x)
        loss_classify_true = args["weight_true"] * (
            F.cross_entropy(pred_d, d, reduction="sum") + F.cross_entropy(pred_y, y, reduction="sum"))
        loss_classify_false = args["weight_false"] * (
            F.cross_entropy(pred_d_false, d, reduction="sum")
            + F.cross_entropy(pred_y_false, y, reduction="sum"))
        loss = loss_classify_true - loss_classify_false
        loss.requires_grad = True
        return loss
