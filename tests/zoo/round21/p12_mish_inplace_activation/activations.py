"""Activation layers shared by the backbone (Mish written to save memory)."""
import torch.nn as nn
import torch.nn.functional as F


class Mish(nn.Module):
    """x * tanh(softplus(x)), computed in place to avoid an extra activation buffer."""

    def forward(self, x):
        return x.mul_(F.softplus(x).tanh())


class MishOutOfPlace(nn.Module):
    def forward(self, x):
        return x * F.softplus(x).tanh()


def conv_bn_act(c_in, c_out, act_cls=Mish):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
                         nn.BatchNorm2d(c_out), act_cls())
