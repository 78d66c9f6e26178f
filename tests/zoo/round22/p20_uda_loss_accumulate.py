"""
expect: none
dynamic: dismiss
source: https://github.com/JIA-Lab-research/DecoupleNet/issues/3

A user of a domain-adaptive segmentation codebase warned that losses were recorded with
`+=` and no `.item()`, which would keep every step's graph alive. The maintainer pointed
out that the epoch-level logging already uses `.item()`, and the `+=` lines only sum the
loss terms of the current step, which is rebuilt from zero every iteration and freed by
its backward. This program has that shape: a per-step total built with `+=` from a
source segmentation loss and a target pseudo-label loss (pseudo labels made under
no_grad on purpose), and a meter fed with `.item()`. The asserts show the graph behind
each step's total has the same size every iteration, the meter holds floats, and
training lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


class SegNet(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, n_cls, 1))

    def forward(self, x):
        return self.body(x)


def train_step(model, opt, src, src_lbl, tgt, meter, thresh=0.34):
    loss = 0
    loss_src = F.cross_entropy(model(src), src_lbl)
    loss += loss_src
    with torch.no_grad():
        prob = F.softmax(model(tgt), dim=1)
        conf, pseudo = prob.max(1)
        pseudo[conf < thresh] = 255
    loss_tgt = F.cross_entropy(model(tgt), pseudo, ignore_index=255)
    if torch.isfinite(loss_tgt):
        loss += 0.1 * loss_tgt
    size = graph_size(loss)
    opt.zero_grad()
    loss.backward()
    opt.step()
    meter.update(loss.item(), src.shape[0])
    return size, loss.item()


torch.manual_seed(0)
model = SegNet()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
src, src_lbl = torch.rand(4, 3, 8, 8), torch.randint(0, 3, (4, 8, 8))
tgt = torch.rand(4, 3, 8, 8) * 0.8 + 0.1
meter = AverageMeter()
sizes, totals = [], []
for _ in range(40):
    size, total = train_step(model, opt, src, src_lbl, tgt, meter)
    sizes.append(size)
    totals.append(total)

assert len(set(sizes)) == 1, sizes
assert isinstance(meter.sum, float)
assert totals[-1] < totals[0], totals
print("p20 ok: per-step loss sum with += is rebuilt and freed every iteration")
