"""
expect: GL001 26
dynamic: confirm
source: https://github.com/hht1996ok/ADMap/issues/7

ADMap (online HD-map construction) adds a point-direction loss that compares the vectors
between consecutive predicted polyline points with the ground-truth vectors. Its
`diff_pts_l1_loss` starts with `pred_tmp = pred.detach()` and builds the whole loss from
`pred_tmp` and the targets, which the issue questions. The term is computed, weighted and
added to the total loss, but carries no gradient. The asserts show the head's gradient is
identical with the direction-loss weight at 1 and at 0 while the term itself is non-zero,
and a version without the detach changes the gradient.
"""
import torch
import torch.nn as nn

torch.set_num_threads(1)
torch.manual_seed(0)


def pts_l1_loss(pred, target):
    return (pred - target).abs().mean()


def diff_pts_loss(pred, target, avg_factor):
    pred_tmp = pred.detach()
    vec_pred = (pred_tmp[:, :-1, :] - pred_tmp[:, 1:, :]) + 1e-9
    vec_gt = (target[:, :-1, :] - target[:, 1:, :]) + 1e-9
    turn = torch.sum(vec_gt[:, 1:] * vec_gt[:, :-1], dim=2, keepdim=True) / (
        vec_gt[:, 1:].norm(dim=2, keepdim=True) * vec_gt[:, :-1].norm(dim=2, keepdim=True))
    weight_dir = torch.exp((1.0 - turn) / 2)
    cos = torch.sum(vec_pred * vec_gt, dim=2, keepdim=True) / (
        vec_pred.norm(dim=2, keepdim=True) * vec_gt.norm(dim=2, keepdim=True))
    n = pred.shape[0]
    loss = torch.cat([torch.zeros(n, 1, 1), ((1.0 - cos) / 2)[:, :-1] * weight_dir,
                      torch.zeros(n, 1, 1)], dim=1)
    return loss.sum() / avg_factor


class MapHead(nn.Module):
    def __init__(self, query_dim=16, num_pts=10):
        super().__init__()
        self.num_pts = num_pts
        self.reg = nn.Sequential(nn.Linear(query_dim, 32), nn.ReLU(), nn.Linear(32, num_pts * 2))

    def forward(self, queries):
        return self.reg(queries).view(-1, self.num_pts, 2)


class MapLoss:
    def __init__(self, pts_weight=5.0, dir_weight=0.5):
        self.pts_weight, self.dir_weight = pts_weight, dir_weight

    def __call__(self, pred, target):
        loss_pts = self.pts_weight * pts_l1_loss(pred, target)
        loss_dir = self.dir_weight * diff_pts_loss(pred, target, avg_factor=pred.shape[0])
        return loss_pts + loss_dir, loss_dir


queries = torch.randn(8, 16)
t = torch.linspace(0, 1, 10)
target = torch.stack([torch.stack([t, torch.sin(3 * t + k)], -1) for k in range(8)])


def head_grad(head, criterion):
    head.zero_grad()
    loss, loss_dir = criterion(head(queries), target)
    loss.backward()
    return head.reg[0].weight.grad.clone(), loss_dir.item()


head = MapHead()
g_on, dir_value = head_grad(head, MapLoss(dir_weight=0.5))
g_off, _ = head_grad(head, MapLoss(dir_weight=0.0))
assert dir_value > 1e-3, "the direction term has a value"
assert torch.equal(g_on, g_off), "...but adds no gradient"


def diff_pts_loss_tracked(pred, target, avg_factor):
    vec_pred = pred[:, :-1] - pred[:, 1:] + 1e-9
    vec_gt = target[:, :-1] - target[:, 1:] + 1e-9
    cos = nn.functional.cosine_similarity(vec_pred, vec_gt, dim=2)
    return ((1.0 - cos) / 2).sum() / avg_factor


head.zero_grad()
pred = head(queries)
(5.0 * pts_l1_loss(pred, target) + 0.5 * diff_pts_loss_tracked(pred, target, 8)).backward()
assert not torch.allclose(head.reg[0].weight.grad, g_off)
print("p10 ok: detached direction loss adds", dir_value, "and no gradient")
