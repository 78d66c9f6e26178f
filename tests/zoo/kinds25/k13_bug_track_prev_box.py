"""
expect: GL001 55
dynamic: confirm
source: kinds check 25, kind 4

Online single-object tracker: a small regressor predicts the box in each frame of a clip, one
optimizer step per frame. To enforce temporal consistency the author adds a term saying the
previous frame's predicted box, moved by the known camera motion, should land on the current
ground truth. The previous prediction is carried over with .detach() to avoid keeping the old
graph, so that term is built from a cut value and constants only: it never trains anything.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

T, C = 12, 16


class BoxRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(C, 32), nn.ReLU(), nn.Linear(32, 4))

    def forward(self, f):
        return self.net(f)


model = BoxRegressor()
opt = torch.optim.SGD(model.parameters(), lr=1e-2)
frames = torch.randn(T, 8, C)
motion = torch.randn(T, 8, 4) * 0.1
gt = torch.cumsum(motion, dim=0) + torch.randn(1, 8, 4)
lam = 0.5

prev_pred = None
checked = 0
for t in range(T):
    pred = model(frames[t])
    task = F.smooth_l1_loss(pred, gt[t])
    loss = task
    if prev_pred is not None:
        consistency = ((prev_pred + motion[t]) - gt[t]).pow(2).mean()
        loss = task + lam * consistency
        g_task = torch.autograd.grad(task, list(model.parameters()), retain_graph=True)
    opt.zero_grad()
    loss.backward()
    if prev_pred is not None:
        assert consistency.item() > 0.0
        assert all(torch.equal(p.grad, g) for p, g in zip(model.parameters(), g_task)), t
        checked += 1
    opt.step()
    prev_pred = pred.detach()

assert checked == T - 1
print("ok: consistency term was dead on", checked, "frames")
