import torch.nn.functional as F


class PerceptualLoss:
    def __init__(self, feature_net, weight=1.0):
        self.feature_net = feature_net
        self.weight = weight

    def __call__(self, upscaled, hires):
        f_up = self.feature_net(upscaled)
        f_hr = self.feature_net(hires.detach())
        return self.weight * F.mse_loss(f_up, f_hr)
