"""Denoising score-matching loss on SE(3) grasp poses (energy gradients as scores)."""
import math

import torch
import torch.nn as nn

from model import se3_exp


class SE3DenoisingLoss:
    def __init__(self, sigma=0.5):
        self.sigma = sigma

    def marginal_prob_std(self, t):
        return torch.sqrt((self.sigma ** (2 * t) - 1.0) / (2.0 * math.log(self.sigma)))

    @staticmethod
    def log_gaussian(x, mean, std):
        return -0.5 * ((x - mean) ** 2).sum(-1) / std ** 2

    def loss_fn(self, model, tw, pts, n_grasps, eps=1e-5):
        """tw: (B * n_grasps, 6) clean grasp poses in tangent coordinates; pts: (B, P, 3)."""
        model.set_latent(pts, batch=n_grasps)

        # 1. perturb the clean poses
        t = torch.rand(tw.size(0)) * (1.0 - eps) + eps
        std = self.marginal_prob_std(t)
        tw_p = (tw + torch.randn_like(tw) * std[:, None]).requires_grad_()

        # 2. target score: gradient of the perturbation kernel at the noisy pose
        log_p = self.log_gaussian(tw_p, tw, std)
        target_score = torch.autograd.grad(log_p.sum(), tw_p)[0].detach()

        # 3. model score: gradient of the energy w.r.t. a fresh copy of the noisy pose
        x_in = tw_p.detach().requires_grad_(True)
        energy = model(se3_exp(x_in), t)
        grad_energy = torch.autograd.grad(energy.sum(), x_in, retain_graph=True, create_graph=True)[0]

        loss = nn.functional.l1_loss(grad_energy, -target_score * std[:, None] ** 2) / 20.0
        return {"score_loss": loss}, {"energy": energy.detach(), "grad_energy": grad_energy.detach()}
