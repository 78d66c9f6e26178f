"""
expect: GL004 71
dynamic: confirm
source: https://github.com/fangwei123456/Spike-Element-Wise-ResNet/issues/19

The report: training a detector with a SEW-ResNet spiking backbone failed in `loss.backward()`
with "Trying to backward through the graph a second time"; the user added
`retain_graph=True` and still had problems. The maintainer's answer: check whether the
network state is reset after backward - spiking neurons keep their membrane potential on
the module, so without `functional.reset_net` every batch's graph hangs off the previous
batch's. This program rebuilds a tiny spiking backbone (neurons.py) with a detection-style
head (objectness + box regression) trained over several batches with
`backward(retain_graph=True)` and no reset. The asserts count the autograd nodes reachable
from each batch's loss: they grow every iteration, while resetting the neurons keeps the
graph the same size.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from neurons import LIFNode, reset_net

torch.manual_seed(0)
T = 4


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class SpikingDetector(nn.Module):
    def __init__(self, in_dim=32, hid=24):
        super().__init__()
        self.stem = nn.Linear(in_dim, hid)
        self.sn = LIFNode()
        self.obj_head = nn.Linear(hid, 1)
        self.box_head = nn.Linear(hid, 4)

    def forward(self, frames):                        # frames: (B, in_dim), repeated over T
        x_seq = self.stem(frames).unsqueeze(0).repeat(T, 1, 1)
        rate = self.sn(x_seq).mean(dim=0)
        return self.obj_head(rate).squeeze(-1), self.box_head(rate)


def batch(b=16):
    x = torch.randn(b, 32)
    obj = (x[:, 0] > 0).float()
    box = torch.sigmoid(x[:, 1:5])
    return x, obj, box


def fit_one_epoch(model, opt, steps, reset):
    sizes = []
    for _ in range(steps):
        x, obj, box = batch()
        obj_logit, box_pred = model(x)
        loss = F.binary_cross_entropy_with_logits(obj_logit, obj) + F.l1_loss(box_pred, box)
        sizes.append(graph_size(loss))
        opt.zero_grad()
        if reset:
            loss.backward()
            opt.step()
            reset_net(model)
        else:
            loss.backward(retain_graph=True)
            opt.step()
    return sizes


if __name__ == "__main__":
    model = SpikingDetector()
    sizes = fit_one_epoch(model, torch.optim.SGD(model.parameters(), lr=0.05), 6, reset=False)
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

    model2 = SpikingDetector()
    sizes2 = fit_one_epoch(model2, torch.optim.SGD(model2.parameters(), lr=0.05), 6, reset=True)
    assert len(set(sizes2)) == 1, sizes2
    print("OK: graph grows", sizes, "without reset; constant", sizes2[0], "with reset_net")
