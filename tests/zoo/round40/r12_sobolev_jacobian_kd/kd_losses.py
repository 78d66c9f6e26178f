"""Jacobian-matching (Sobolev) distillation loss: match input gradients of the target-class logit."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import grad


class Sobolev(nn.Module):
    def forward(self, out_s, out_t, img, target):
        picked_s = out_s.gather(1, target.view(-1, 1))
        grad_s = grad(outputs=picked_s, inputs=img, grad_outputs=torch.ones_like(picked_s),
                      create_graph=True, retain_graph=True)[0]
        norm_grad_s = F.normalize(grad_s.flatten(1), p=2, dim=1)

        picked_t = out_t.gather(1, target.view(-1, 1))
        grad_t = grad(outputs=picked_t, inputs=img, grad_outputs=torch.ones_like(picked_t),
                      create_graph=True, retain_graph=True)[0]
        norm_grad_t = F.normalize(grad_t.flatten(1), p=2, dim=1)

        return F.mse_loss(norm_grad_s, norm_grad_t.detach())
