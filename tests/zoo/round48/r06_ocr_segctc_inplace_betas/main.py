"""expect: GL005 seg_ctc.py:22
dynamic: confirm
source: https://github.com/liuhu-bigeye/enctc.crnn/issues/11

A small CRNN text recognizer (conv features -> BiGRU -> per-frame label log-probs) trained with a
pure-PyTorch segmental CTC-style cost. Like the segmental CTC-entropy code in the report, the forward
recursion keeps its table `betas` preallocated and overwrites the slice `betas[:t+1]` in place at every
frame, while the new values are computed with logaddexp from `betas[:t]`, a view that logaddexp saves for
its backward. Each write bumps the version counter shared by all views of the table, so backward() fails
with "one of the variables needed for gradient computation has been modified by an inplace operation",
the error reported on newer PyTorch. The asserts show that error, and that the same recursion written
out of place (building a new table each frame) backpropagates and lowers the cost.
"""
import torch
import torch.nn as nn

from seg_ctc import emissions, seg_ctc_cost, NEG

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyCRNN(nn.Module):
    def __init__(self, n_classes=12, h=16):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
                                  nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, None)))
        self.rnn = nn.GRU(8, h, bidirectional=True)
        self.fc = nn.Linear(2 * h, n_classes)

    def forward(self, img):
        f = self.conv(img).squeeze(2).permute(2, 0, 1)  # (T, B, C)
        out, _ = self.rnn(f)
        return self.fc(out).log_softmax(-1)


def seg_ctc_cost_out_of_place(pred, targets):
    T, B, _ = pred.shape
    U = targets.size(1)
    emit = emissions(pred, targets)
    blank = pred[:, :, 0]
    betas = torch.cat((emit[0:1], torch.full((T - 1, B, U), NEG)), dim=0)
    for t in range(1, T):
        head = torch.logaddexp(betas[:t], betas[:t] + blank[t, :, None]) + emit[t]
        betas = torch.cat((head, emit[t : t + 1], betas[t + 1 :]), dim=0)
    score = torch.logsumexp(betas[:, :, 0], dim=0)
    for u in range(1, U):
        score = score + torch.logsumexp(betas[:, :, u], dim=0) / (u + 1)
    return -score.mean()


images = torch.randn(4, 1, 8, 14)
labels = torch.randint(1, 12, (4, 3))
model = TinyCRNN()

cost = seg_ctc_cost(model(images), labels)
try:
    cost.backward()
    raise AssertionError("backward unexpectedly succeeded")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
assert all(p.grad is None for p in model.parameters())

# intended: the same recursion without overwriting saved slices trains the recognizer
torch.manual_seed(0)
model = TinyCRNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
ref = seg_ctc_cost(model(images).detach(), labels).item()
first = seg_ctc_cost_out_of_place(model(images), labels)
assert abs(first.item() - ref) < 1e-4  # same value as the in-place version
costs = []
for _ in range(15):
    opt.zero_grad()
    c = seg_ctc_cost_out_of_place(model(images), labels)
    c.backward()
    assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in model.parameters())
    opt.step()
    costs.append(c.item())
assert costs[-1] < costs[0], costs
print(f"in-place table: backward raises; out-of-place table: cost {costs[0]:.3f} -> {costs[-1]:.3f}")
