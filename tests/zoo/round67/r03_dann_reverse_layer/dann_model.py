"""DANN: feature extractor, label classifier and a domain classifier behind a GRL."""
import torch
import torch.nn as nn
from torch.autograd import Function


class ReverseLayerF(Function):
    @staticmethod
    def forward(ctx, x, alpha):
        ctx.alpha = alpha
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        output = grad_output.neg() * ctx.alpha
        return output, None


class DANNModel(nn.Module):
    def __init__(self, in_dim=20, feat_dim=32, n_class=3):
        super().__init__()
        self.feature = nn.Sequential(nn.Linear(in_dim, feat_dim), nn.ReLU(),
                                     nn.Linear(feat_dim, feat_dim), nn.ReLU())
        self.class_classifier = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(),
                                              nn.Linear(32, n_class))
        self.domain_classifier = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(),
                                               nn.Linear(32, 2))

    def forward(self, input_data, alpha):
        feature = self.feature(input_data)
        reverse_feature = ReverseLayerF.apply(feature, alpha)
        class_output = self.class_classifier(feature)
        domain_output = self.domain_classifier(reverse_feature)
        return class_output, domain_output
