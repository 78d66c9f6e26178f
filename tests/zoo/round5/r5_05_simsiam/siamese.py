import torch.nn as nn


def mlp(in_dim, hidden, out_dim):
    return nn.Sequential(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(),
                         nn.Linear(hidden, out_dim))


class SimSiam(nn.Module):
    def __init__(self, in_dim=32, feat_dim=64, pred_hidden=16):
        super().__init__()
        self.encoder = nn.Sequential(mlp(in_dim, 64, feat_dim), nn.BatchNorm1d(feat_dim))
        self.predictor = mlp(feat_dim, pred_hidden, feat_dim)

    def forward(self, view1, view2):
        z1, z2 = self.encoder(view1), self.encoder(view2)
        p1, p2 = self.predictor(z1), self.predictor(z2)
        # stop-gradient on the targets, as in the paper
        return p1, p2, z1.detach(), z2.detach()
