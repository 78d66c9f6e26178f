import torch
import torch.nn.functional as F


def force_matching_loss(potential, coords, ref_forces):
    energy = potential(coords).sum()
    grads = torch.autograd.grad(energy, coords)[0]
    forces = -grads
    forces.requires_grad_()
    return F.mse_loss(forces, ref_forces)
