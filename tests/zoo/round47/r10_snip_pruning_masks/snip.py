"""SNIP connection sensitivity: score weights by the gradient of the loss w.r.t. multiplicative masks on a throw-away copy."""
import copy
import types

import torch
import torch.nn as nn
import torch.nn.functional as F


def snip_forward_linear(self, x):
    return F.linear(x, self.weight * self.weight_mask, self.bias)


def SNIP(net, keep_ratio, inputs, targets):
    net = copy.deepcopy(net)
    for layer in net.modules():
        if isinstance(layer, nn.Linear):
            layer.weight_mask = nn.Parameter(torch.ones_like(layer.weight))
            nn.init.xavier_normal_(layer.weight)
            layer.weight.requires_grad = False
            layer.forward = types.MethodType(snip_forward_linear, layer)

    net.zero_grad()
    loss = F.nll_loss(net(inputs), targets)
    loss.backward()

    grads_abs = [torch.abs(layer.weight_mask.grad) for layer in net.modules() if isinstance(layer, nn.Linear)]
    all_scores = torch.cat([torch.flatten(g) for g in grads_abs])
    norm_factor = torch.sum(all_scores)
    all_scores.div_(norm_factor)
    num_keep = int(len(all_scores) * keep_ratio)
    threshold, _ = torch.topk(all_scores, num_keep, sorted=True)
    acceptable_score = threshold[-1]
    return [((g / norm_factor) >= acceptable_score).float() for g in grads_abs]
