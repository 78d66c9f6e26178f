"""expect: none
dynamic: dismiss
source: https://github.com/jbwang1997/OPUS/issues/8

An OPUS-style occupancy decoder treats the scene as a set of query points: every decoder layer reads
features from the point cloud around its current query points, predicts offsets, and is supervised by
its own Chamfer loss against the ground-truth occupied points. Between layers the refined points are
detached on purpose; the maintainer explains that each layer's regression loss should only adjust that
layer's offsets (the same design as SparseBEV). Query features are not detached, so earlier layers still
receive gradient through them. The asserts show every layer's offset head and the shared feature
encoder get gradients, and that a short training run lowers the final-layer Chamfer loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def chamfer(a, b):
    d = torch.cdist(a, b) ** 2
    return d.min(2).values.mean() + d.min(1).values.mean()


class DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.pos = nn.Linear(3, d)
        self.mix = nn.Sequential(nn.Linear(2 * d, d), nn.ReLU(), nn.Linear(d, d))
        self.offset = nn.Linear(d, 3)

    def forward(self, q_feat, q_pts, scene_pts, scene_feat):
        # soft nearest-neighbour sampling of scene features around each query point
        w = torch.softmax(-torch.cdist(q_pts, scene_pts) ** 2 / 0.05, dim=-1)
        sampled = w @ scene_feat
        q_feat = q_feat + self.mix(torch.cat([q_feat + self.pos(q_pts), sampled], -1))
        return q_feat, q_pts + 0.1 * torch.tanh(self.offset(q_feat))


class OccupancyDecoder(nn.Module):
    def __init__(self, n_query=48, d=32, n_layers=3):
        super().__init__()
        self.query_feat = nn.Parameter(torch.randn(n_query, d) * 0.1)
        self.query_pts = nn.Parameter(torch.rand(n_query, 3) * 2 - 1)
        self.encoder = nn.Sequential(nn.Linear(3, d), nn.ReLU(), nn.Linear(d, d))
        self.layers = nn.ModuleList(DecoderLayer(d) for _ in range(n_layers))

    def forward(self, scene_pts):
        B = scene_pts.size(0)
        scene_feat = self.encoder(scene_pts)
        q_feat = self.query_feat.expand(B, -1, -1)
        q_pts = self.query_pts.expand(B, -1, -1)
        per_layer = []
        for layer in self.layers:
            q_feat, q_pts = layer(q_feat, q_pts, scene_pts, scene_feat)
            per_layer.append(q_pts)
            q_pts = q_pts.detach()  # next layer refines from here; its loss must not move this layer
        return per_layer


scene = torch.randn(2, 128, 3) * 0.6
occupied = scene[:, ::2] + 0.02 * torch.randn(2, 64, 3)
model = OccupancyDecoder()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)

first_loss = None
for step in range(60):
    opt.zero_grad()
    preds = model(scene)
    losses = [chamfer(p, occupied) for p in preds]
    loss = sum(losses)
    loss.backward()
    if step == 0:
        first_loss = losses[-1].item()
        for i, layer in enumerate(model.layers):
            g = layer.offset.weight.grad
            assert g is not None and g.abs().sum() > 0, f"layer {i} offset head got no gradient"
        assert model.encoder[0].weight.grad.abs().sum() > 0
        assert model.query_feat.grad.abs().sum() > 0 and model.query_pts.grad.abs().sum() > 0
    opt.step()

final_loss = chamfer(model(scene)[-1], occupied).item()
assert final_loss < first_loss, (first_loss, final_loss)
print(f"final-layer chamfer {first_loss:.3f} -> {final_loss:.3f}")
