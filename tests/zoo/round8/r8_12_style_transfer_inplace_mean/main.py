"""
expect: GL005 imgutils.py:11
dynamic: confirm
source: https://github.com/abhiskk/fast-neural-style/issues/12

Fast neural style training. The helper imgutils.subtract_imagenet_mean_batch()
subtracts the ImageNet mean from a batch in place (`batch -= mean`) before the
batch goes through the loss network. Applied to the transformer's output, this
is harmless while the last layer is a convolution (which does not save its
output), but once a Tanh is added as the last layer the output is the tensor
TanhBackward saved for backward, and the in-place subtraction makes backward
raise "one of the variables needed for gradient computation has been modified
by an inplace operation". (Upstream fix: return batch.sub(mean).)
"""
import torch
import torch.nn as nn

import imgutils

torch.manual_seed(0)


def make_transformer(with_tanh):
    layers = [nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1)]
    return nn.Sequential(*layers, nn.Tanh()) if with_tanh else nn.Sequential(*layers)


loss_net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU()).requires_grad_(False)


def train_step(transformer):
    opt = torch.optim.Adam(transformer.parameters(), lr=1e-3)
    x = imgutils.preprocess_batch(torch.rand(2, 3, 8, 8))
    opt.zero_grad()
    y = transformer(x)
    xc = x.detach().clone()
    imgutils.subtract_imagenet_mean_batch(y)
    imgutils.subtract_imagenet_mean_batch(xc)
    features_y, features_xc = loss_net(y), loss_net(xc)
    loss = (features_y - features_xc).pow(2).mean() + imgutils.gram_matrix(features_y).mean()
    loss.backward()
    opt.step()


train_step(make_transformer(with_tanh=False))  # conv output is not saved: fine
try:
    train_step(make_transformer(with_tanh=True))
except RuntimeError as err:
    message = str(err)
else:
    message = ""
assert "modified by an inplace operation" in message, message
assert "output 0 of Tanh" in message, message
print("OK: in-place mean subtraction on the Tanh output breaks backward")
