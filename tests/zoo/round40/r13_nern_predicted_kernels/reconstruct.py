"""Original CNN and its copy whose conv kernels are overwritten by the weight predictor's output."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(4, 4, 3, padding=1, bias=False)
        self.fc = nn.Linear(4, 5)

    def forward(self, x):
        f1 = F.relu(self.conv1(x))
        f2 = F.relu(self.conv2(f1))
        logits = self.fc(f2.mean(dim=(2, 3)))
        return logits, [f1, f2]

    def get_learnable_weights(self):
        return [self.conv1.weight, self.conv2.weight]


class ReconstructedModel(nn.Module):
    def __init__(self, original):
        super().__init__()
        self.reconstructed_model = copy.deepcopy(original)
        for w in self.reconstructed_model.get_learnable_weights():
            nn.init.xavier_normal_(w)

    def get_learnable_weights(self):
        return self.reconstructed_model.get_learnable_weights()

    def get_feature_maps(self, x):
        return self.reconstructed_model(x)

    def update_weights(self, predicted):
        for layer_weights, predicted_weights in zip(self.get_learnable_weights(), predicted):
            k_layer = layer_weights.shape[-1]
            k_pred = predicted_weights.shape[-1]
            lo = (k_pred - k_layer) // 2
            sampled = predicted_weights[:, :, lo:lo + k_layer, lo:lo + k_layer]
            layer_weights.data = layer_weights.data * 0. + sampled
