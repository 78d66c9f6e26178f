"""
expect: none
dynamic: dismiss
source: https://github.com/nerfstudio-project/nerfstudio/issues/1258

A nerfstudio user flagged the detach of the density embedding that feeds the semantic head in
the Nerfacto field as a possible bug. It is deliberate: semantic labels often come from a
per-image segmenter that is not multi-view consistent, so the semantic loss must train only
the semantic head and not bend the geometry (the renderer also detaches the weights for the
semantic map). This toy field and renderer follow that layout; the asserts show the semantic
head learns, the geometry MLP still learns from the RGB loss, and the semantic loss by itself
sends no gradient into the geometry, which is the intended behaviour.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_RAYS, N_SAMPLES, GEO, N_CLASSES = 32, 16, 15, 4


class SemanticNerfactoField(nn.Module):
    def __init__(self, pass_semantic_gradients=False):
        super().__init__()
        self.pass_semantic_gradients = pass_semantic_gradients
        self.mlp_base = nn.Sequential(nn.Linear(3, 64), nn.ReLU(), nn.Linear(64, 1 + GEO))
        self.mlp_head = nn.Sequential(nn.Linear(GEO + 3, 32), nn.ReLU(), nn.Linear(32, 3), nn.Sigmoid())
        self.mlp_semantics = nn.Sequential(nn.Linear(GEO, 32), nn.ReLU(), nn.Linear(32, N_CLASSES))

    def forward(self, positions, directions):
        h = self.mlp_base(positions)
        density = F.softplus(h[..., :1])
        density_embedding = h[..., 1:]
        rgb = self.mlp_head(torch.cat([density_embedding, directions], -1))
        semantics_input = density_embedding
        if not self.pass_semantic_gradients:
            semantics_input = semantics_input.detach()
        semantics = self.mlp_semantics(semantics_input)
        return density, rgb, semantics


def render(field, origins, dirs, pass_semantic_gradients=False):
    t = torch.linspace(0.1, 2.0, N_SAMPLES)
    pos = origins[:, None] + dirs[:, None] * t[None, :, None]
    density, rgb, sem = field(pos, dirs[:, None].expand_as(pos))
    delta = t[1] - t[0]
    alpha = 1 - torch.exp(-density[..., 0] * delta)
    trans = torch.cumprod(torch.cat([torch.ones(N_RAYS, 1), 1 - alpha[:, :-1] + 1e-10], 1), 1)
    weights = alpha * trans
    sem_weights = weights if pass_semantic_gradients else weights.detach()
    return (weights[..., None] * rgb).sum(1), (sem_weights[..., None] * sem).sum(1)


field = SemanticNerfactoField()
opt = torch.optim.Adam(field.parameters(), lr=1e-2)
origins, dirs = torch.randn(N_RAYS, 3) * 0.1, F.normalize(torch.randn(N_RAYS, 3), dim=-1)
gt_rgb, gt_sem = torch.rand(N_RAYS, 3), torch.randint(0, N_CLASSES, (N_RAYS,))

rgb, sem = render(field, origins, dirs)
F.cross_entropy(sem, gt_sem).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in field.mlp_semantics.parameters())
assert all(p.grad is None for p in field.mlp_base.parameters())  # by design
opt.zero_grad()

first = None
for step in range(40):
    rgb, sem = render(field, origins, dirs)
    rgb_loss, sem_loss = F.mse_loss(rgb, gt_rgb), F.cross_entropy(sem, gt_sem)
    opt.zero_grad()
    (rgb_loss + 0.5 * sem_loss).backward()
    assert field.mlp_base[0].weight.grad.abs().sum() > 0
    opt.step()
    if first is None:
        first = (rgb_loss.item(), sem_loss.item())
assert rgb_loss.item() < first[0] and sem_loss.item() < first[1]
print("q14 ok: semantic stop-gradient is intentional; both heads and the geometry train")
