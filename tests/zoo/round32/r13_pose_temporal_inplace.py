"""
expect: GL005 37
dynamic: confirm

From a pose-estimation toolkit report: training on the toy dataset dies with
"modified by an inplace operation ... output 0 of LinalgVectorNormBackward0".
An unsupervised temporal loss takes the per-keypoint jump between consecutive
frames with torch.linalg.norm and then zeroes small jumps in place with a mask
assignment. Norm saves its own output for backward, so the masked write breaks
it. The asserts show the error for the in-place version, and that a variant
using torch.where gives finite gradients to the keypoint head and trains.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class KeypointHead(nn.Module):
    def __init__(self, n_kp=7):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, n_kp * 2))
        self.n_kp = n_kp

    def forward(self, feats):  # feats: frames x 20
        return self.net(feats).view(-1, self.n_kp, 2)


class TemporalLoss:
    def __init__(self, epsilon=0.5, inplace=True):
        self.epsilon, self.inplace = epsilon, inplace

    def __call__(self, kps):
        jumps = torch.linalg.norm(kps[1:] - kps[:-1], dim=-1)  # (frames-1, kp)
        if self.inplace:
            jumps[jumps < self.epsilon] = 0.0  # ignore jitter below epsilon
        else:
            jumps = torch.where(jumps < self.epsilon, torch.zeros_like(jumps), jumps)
        return jumps.mean()


feats = torch.randn(16, 20)
model = KeypointHead()

raised = False
try:
    TemporalLoss(inplace=True)(model(feats)).backward()
except RuntimeError as e:
    raised = "inplace operation" in str(e)
assert raised

model.zero_grad()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
crit = TemporalLoss(inplace=False)
first = None
for _ in range(10):
    loss = crit(model(feats))
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert torch.isfinite(model.net[0].weight.grad).all()
assert model.net[0].weight.grad.abs().sum() > 0
assert loss.item() < first
print("ok", first, loss.item())
