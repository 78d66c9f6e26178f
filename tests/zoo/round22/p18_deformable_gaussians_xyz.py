"""
expect: none
dynamic: dismiss
source: https://github.com/ingra14m/Deformable-3D-Gaussians/issues/80

A reader of a dynamic-scene Gaussian splatting repo asked why training calls
`deform.step(gaussians.get_xyz.detach(), time_input + ast_noise)`. The authors answered
that the canonical Gaussian positions should only be moved by the photometric loss
through the rendered means, not through the deformation network's input. The detach is
intentional. This program renders 2D Gaussians with positions xyz + d_xyz(t), with the
deformation MLP fed detached positions. The asserts show the position gradient equals
exactly the gradient through the rendered means, the deformation network and the
positions both train, and the loss falls.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)


class GaussianModel(nn.Module):
    def __init__(self, n=12):
        super().__init__()
        self._xyz = nn.Parameter(torch.rand(n, 2))
        self._color = nn.Parameter(torch.rand(n))

    @property
    def get_xyz(self):
        return self._xyz


class DeformModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 2))

    def step(self, xyz, t):
        return 0.1 * self.mlp(torch.cat([xyz, t.expand(xyz.shape[0], 1)], dim=1))


def render(means, colors, res=16, sigma=0.08):
    g = torch.linspace(0, 1, res)
    grid = torch.stack(torch.meshgrid(g, g, indexing="ij"), -1).view(-1, 2)
    w = torch.exp(-((grid[:, None] - means[None]) ** 2).sum(-1) / (2 * sigma ** 2))
    return (w * colors).sum(1).view(res, res)


torch.manual_seed(0)
gaussians, deform = GaussianModel(), DeformModel()
targets = {t: render(torch.rand(12, 2), torch.rand(12)) for t in (0.0, 0.5, 1.0)}

# gradient bookkeeping for one view
t = torch.tensor([[0.5]])
d_xyz = deform.step(gaussians.get_xyz.detach(), t)
means = gaussians.get_xyz + d_xyz
means.retain_grad()
loss = (render(means, gaussians._color) - targets[0.5]).pow(2).mean()
loss.backward()
assert torch.allclose(gaussians._xyz.grad, means.grad)
assert all(p.grad is not None for p in deform.parameters())

opt = torch.optim.Adam(list(gaussians.parameters()) + list(deform.parameters()), lr=1e-2)
xyz0 = gaussians._xyz.detach().clone()
history = []
for it in range(60):
    time_value = list(targets)[it % 3]
    t = torch.tensor([[time_value]])
    ast_noise = 0.01 * torch.randn(1, 1)
    d_xyz = deform.step(gaussians.get_xyz.detach(), t + ast_noise)
    image = render(gaussians.get_xyz + d_xyz, gaussians._color)
    loss = (image - targets[time_value]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())

assert not torch.equal(xyz0, gaussians._xyz)
assert sum(history[-6:]) < sum(history[:6]), history
print("p18 ok: detached positions into the deformation net are a deliberate stop-gradient")
