"""
expect: GL002 30
dynamic: confirm
source: none, invented

Multi-task dense prediction (semantic segmentation + depth) with homoscedastic-uncertainty loss
weighting (Kendall et al.): a shared conv trunk, two heads, and a learned log-variance per task.
SceneTrainer.task_losses returns each task loss as a Python float (via float(...)), and
UncertaintyWeighting.forward rebuilds them with torch.as_tensor before computing
sum(exp(-s_i) * L_i + s_i). The rebuilt vector has no history, so the backward still runs (the
log-variances require grad) and the log-variances move, but the trunk and both heads get no
gradient and Adam leaves them untouched. The asserts show the network's .grad stays None and its
weights are unchanged while log_vars changed; with the tensors kept (combine_tensors), the trunk
and heads get non-zero gradients and both task losses drop.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 3


class UncertaintyWeighting(nn.Module):
    def __init__(self, tasks):
        super().__init__()
        self.tasks = list(tasks)
        self.log_vars = nn.Parameter(torch.zeros(len(self.tasks)))

    def forward(self, task_values):
        losses = torch.as_tensor([task_values[t] for t in self.tasks], dtype=torch.float32)
        return (torch.exp(-self.log_vars) * losses + self.log_vars).sum()

    def combine_tensors(self, task_values):
        losses = torch.stack([task_values[t] for t in self.tasks])
        return (torch.exp(-self.log_vars) * losses + self.log_vars).sum()


class SceneNet(nn.Module):
    def __init__(self, width=24):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Conv2d(3, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.BatchNorm2d(width), nn.ReLU())
        self.seg_head = nn.Conv2d(width, N_CLASSES, 1)
        self.depth_head = nn.Sequential(nn.Conv2d(width, 1, 1), nn.Softplus())

    def forward(self, img):
        f = self.trunk(img)
        return self.seg_head(f), self.depth_head(f).squeeze(1)


class SceneTrainer:
    def __init__(self, keep_tensors=False):
        self.net = SceneNet()
        self.weighting = UncertaintyWeighting(["seg", "depth"])
        self.opt = torch.optim.Adam([*self.net.parameters(), *self.weighting.parameters()], lr=3e-3)
        self.keep_tensors = keep_tensors

    def task_losses(self, img, seg_gt, depth_gt, as_float=True):
        seg_logits, depth = self.net(img)
        losses = {"seg": F.cross_entropy(seg_logits, seg_gt),
                  "depth": F.l1_loss(depth, depth_gt)}
        if as_float:
            return {k: float(v.detach()) for k, v in losses.items()}
        return losses

    def step(self, batch):
        if self.keep_tensors:
            values = self.task_losses(*batch, as_float=False)
            total = self.weighting.combine_tensors(values)
            values = {k: v.item() for k, v in values.items()}
        else:
            values = self.task_losses(*batch)
            total = self.weighting(values)
        self.opt.zero_grad()
        total.backward()
        self.opt.step()
        return values


def synthetic_scenes(n=32, size=12):
    depth = torch.rand(n, 1, 1) * 3 + torch.linspace(0, 2, size).view(1, size, 1).expand(n, size, size)
    seg = (depth > 2.5).long() + (depth > 3.5).long()
    img = torch.stack([depth / 5, (seg == 1).float(), torch.rand(n, size, size) * 0.2], 1)
    return img + 0.05 * torch.randn_like(img), seg, depth


def run(keep_tensors, steps=40):
    torch.manual_seed(0)
    trainer = SceneTrainer(keep_tensors=keep_tensors)
    w0 = [p.detach().clone() for p in trainer.net.parameters()]
    batch = synthetic_scenes()
    hist = [trainer.step(batch) for _ in range(steps)]
    moved = any(not torch.equal(a, b) for a, b in zip(w0, trainer.net.parameters()))
    return trainer, moved, hist


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    trainer, moved, hist = run(keep_tensors=False)
    assert all(p.grad is None for p in trainer.net.parameters())
    assert not moved
    assert trainer.weighting.log_vars.grad is not None
    assert trainer.weighting.log_vars.abs().sum() > 0

    trainer, moved, hist = run(keep_tensors=True)
    assert trainer.net.trunk[0].weight.grad.abs().sum() > 0
    assert trainer.net.seg_head.weight.grad.abs().sum() > 0
    assert moved
    assert hist[-1]["seg"] < 0.5 * hist[0]["seg"] and hist[-1]["depth"] < 0.5 * hist[0]["depth"], hist[-1]
    print("uncertainty weighting: ok, seg %.3f -> %.3f, depth %.3f -> %.3f"
          % (hist[0]["seg"], hist[-1]["seg"], hist[0]["depth"], hist[-1]["depth"]))


if __name__ == "__main__":
    main()
