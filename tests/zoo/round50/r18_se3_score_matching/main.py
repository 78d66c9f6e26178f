"""
expect: none
dynamic: dismiss
source: https://github.com/robotgradient/grasp_diffusion/blob/HEAD/se3dif/losses/denoising_loss.py

Training an SE(3) grasp energy model with denoising score matching (grasp diffusion): an object's
point cloud is encoded into a latent, clean grasp poses are perturbed in tangent coordinates, the
target score comes from autograd.grad of the Gaussian kernel at the noisy pose (a tensor made
from data and switched on with requires_grad_(), then detached because it is a target), and the
model's score is the gradient of its energy with respect to a detached copy of the noisy pose,
computed with create_graph=True so the L1 loss between the two scores trains the network through
double backward. None of the detaches or requires_grad_ switches cut a path to a parameter: the
poses are inputs, not weights. The asserts check that every parameter of the energy MLP and of the
point-cloud encoder gets a nonzero gradient, that the loss falls, and that the learned score
points back toward the clean grasps.
"""
import torch

from denoising_loss import SE3DenoisingLoss
from model import GraspEnergyModel, se3_exp

torch.manual_seed(0)
torch.set_num_threads(1)

B, P, G = 4, 64, 8


def sample_objects():
    radius = torch.rand(B, 1, 1) * 0.5 + 0.5
    pts = torch.nn.functional.normalize(torch.randn(B, P, 3), dim=-1) * radius
    # grasps sit just outside the surface, approach axis pointing at the centre
    d = torch.nn.functional.normalize(torch.randn(B, G, 3), dim=-1)
    t = d * (radius + 0.1)
    w = torch.cross(torch.tensor([0.0, 0.0, 1.0]).expand_as(d), -d, dim=-1)
    return pts, torch.cat([t, w], -1).reshape(B * G, 6)


model = GraspEnergyModel()
criterion = SE3DenoisingLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)

losses = []
for step in range(300):
    pts, tw = sample_objects()
    optimizer.zero_grad()
    loss_dict, info = criterion.loss_fn(model, tw, pts, n_grasps=G)
    loss_dict["score_loss"].backward()
    if step == 0:
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
    optimizer.step()
    losses.append(loss_dict["score_loss"].item())

first, last = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
assert last < 0.7 * first

# the learned score (minus the energy gradient) at a noisy pose points back toward the clean one
torch.manual_seed(5)
pts, tw = sample_objects()
model.set_latent(pts, batch=G)
noise = 0.3 * torch.randn_like(tw)
x = (tw + noise).requires_grad_(True)
score = -torch.autograd.grad(model(se3_exp(x), torch.full((B * G,), 0.5)).sum(), x)[0]
cos = torch.nn.functional.cosine_similarity(score, -noise, dim=-1).mean().item()
assert cos > 0.3
print(f"score loss {first:.4f} -> {last:.4f}; cos(learned score, denoising direction) = {cos:.2f}")
