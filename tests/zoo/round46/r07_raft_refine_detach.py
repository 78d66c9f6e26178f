"""
expect: none
dynamic: dismiss
source: https://github.com/princeton-vl/RAFT/issues/116

A miniature RAFT-style optical-flow model: a feature encoder for both frames, a context encoder, and a
recurrent update block that refines the flow over several iterations by sampling frame-2 features at
the current correspondence `coords1`. Every iteration starts with `coords1 = coords1.detach()`, as in
RAFT; the maintainers answer that this is deliberate (training is worse and less stable without it).
The detach only stops gradients from flowing back through earlier flow estimates; every prediction is
still `coords0 + sum of delta_flow`, and each delta comes from the update block, while the sampled
correlation features keep the feature encoder in the graph. The asserts show all three modules
receiving gradients from the sequence loss and the end-point error going down with training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def coords_grid(b, h, w):
    ys, xs = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    return torch.stack([xs, ys], dim=0)[None].repeat(b, 1, 1, 1)


def sample_at(fmap, coords):
    h, w = fmap.shape[-2:]
    gx = 2.0 * coords[:, 0] / (w - 1) - 1.0
    gy = 2.0 * coords[:, 1] / (h - 1) - 1.0
    return F.grid_sample(fmap, torch.stack([gx, gy], dim=-1), align_corners=True)


class UpdateBlock(nn.Module):
    def __init__(self, hidden=16, feat=8):
        super().__init__()
        self.gru = nn.Conv2d(hidden + feat + feat + 2, hidden, 3, padding=1)
        self.flow_head = nn.Conv2d(hidden, 2, 3, padding=1)

    def forward(self, net, inp, corr, flow):
        net = torch.tanh(self.gru(torch.cat([net, inp, corr, flow], dim=1)))
        return net, self.flow_head(net)


class TinyRAFT(nn.Module):
    def __init__(self):
        super().__init__()
        self.fnet = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1))
        self.cnet = nn.Conv2d(3, 16 + 8, 3, padding=1)
        self.update_block = UpdateBlock()

    def forward(self, image1, image2, iters=4):
        fmap1, fmap2 = self.fnet(image1), self.fnet(image2)
        net, inp = torch.split(self.cnet(image1), [16, 8], dim=1)
        net, inp = torch.tanh(net), torch.relu(inp)
        b, _, h, w = image1.shape
        coords0 = coords_grid(b, h, w)
        coords1 = coords0.clone()
        predictions = []
        for _ in range(iters):
            coords1 = coords1.detach()
            corr = sample_at(fmap2, coords1) * fmap1
            flow = coords1 - coords0
            net, delta_flow = self.update_block(net, inp, corr, flow)
            coords1 = coords1 + delta_flow
            predictions.append(coords1 - coords0)
        return predictions


def sequence_loss(predictions, flow_gt, gamma=0.8):
    n = len(predictions)
    return sum(gamma ** (n - i - 1) * (p - flow_gt).abs().mean() for i, p in enumerate(predictions))


torch.manual_seed(0)
torch.set_num_threads(1)
image1 = torch.randn(4, 3, 12, 12)
image2 = torch.roll(image1, shifts=-1, dims=3)
flow_gt = torch.zeros(4, 2, 12, 12)
flow_gt[:, 0] = 1.0

model = TinyRAFT()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
epe = []
for step in range(40):
    opt.zero_grad()
    preds = model(image1, image2)
    loss = sequence_loss(preds, flow_gt)
    loss.backward()
    if step == 0:
        for part in (model.fnet, model.cnet, model.update_block):
            assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in part.parameters())
    opt.step()
    epe.append((preds[-1] - flow_gt).norm(dim=1).mean().item())
assert epe[-1] < 0.5 * epe[0]
print("end-point error %.3f -> %.3f" % (epe[0], epe[-1]))
