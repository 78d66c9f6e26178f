"""Meta-learned 1x1 detection head (MAML inner step) used on top of a frozen detector neck."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Learner(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.conv_learn = nn.Conv2d(in_ch, out_ch, kernel_size=1, bias=True)

    def forward(self, x, wts=None):
        params = list(self.parameters())
        if wts is not None:
            for p, w in zip(params, wts):
                assert p.shape == w.shape
                p.data = w.data
        weight, bias = params
        return F.conv2d(x, weight, bias)


def compute_fast_weights(loss, params, lr):
    params = list(params)
    grads = torch.autograd.grad(loss, params, create_graph=True)
    return [p - lr * g for p, g in zip(params, grads)]


def detection_loss(pred, target):
    """pred/target: (N, 5 + C, H, W) -> objectness BCE + box L1 on positive cells + class BCE."""
    obj_t = target[:, 4]
    pos = obj_t > 0.5
    obj = F.binary_cross_entropy_with_logits(pred[:, 4], obj_t)
    box = F.l1_loss(pred[:, :4].permute(0, 2, 3, 1)[pos], target[:, :4].permute(0, 2, 3, 1)[pos])
    cls = F.binary_cross_entropy_with_logits(pred[:, 5:].permute(0, 2, 3, 1)[pos],
                                             target[:, 5:].permute(0, 2, 3, 1)[pos])
    return obj + box + cls
