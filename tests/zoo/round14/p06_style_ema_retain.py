"""
expect: GL004 64
dynamic: confirm
source: https://github.com/limingcv/Photorealistic-Style-Transfer/issues/7

The reporter hit "Trying to backward through the graph a second time" in the style-transfer
training loop, set retain_graph=True as the message suggests, and then ran out of GPU memory.
This program rebuilds a small photorealistic stylizer (a learned per-pixel colour transform)
trainer that keeps a running average of its output
across iterations (for a stability term) without cutting it, so the second backward fails
and retain_graph=True is added. The asserts show the autograd graph reachable from each
iteration's loss keeps growing (every earlier iteration stays alive), while the same loop
with the running average detached has a constant-size graph and needs no retain_graph.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class Stylizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.color = nn.Linear(3, 3)

    def forward(self, x):
        return torch.sigmoid(self.color(x.permute(0, 2, 3, 1))).permute(0, 3, 1, 2)


class StyleTrainer:
    def __init__(self, cut_average):
        self.net = Stylizer()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)
        self.avg = None
        self.cut_average = cut_average
        self.sizes = []

    def train_step(self, content, style_mean):
        out = self.net(content)
        if self.avg is None:
            self.avg = out
        else:
            self.avg = 0.9 * self.avg + 0.1 * out
        if self.cut_average:
            self.avg = self.avg.detach()
        loss = F.mse_loss(out, content) + (out.mean() - style_mean) ** 2 + F.mse_loss(out, self.avg)
        self.sizes.append(graph_size(loss))
        self.opt.zero_grad()
        if self.cut_average:
            loss.backward()
        else:
            loss.backward(retain_graph=True)
        self.opt.step()


content = torch.rand(1, 3, 8, 8)
grown = StyleTrainer(cut_average=False)
steady = StyleTrainer(cut_average=True)
for _ in range(6):
    grown.train_step(content, 0.3)
    steady.train_step(content, 0.3)

assert all(b > a for a, b in zip(grown.sizes, grown.sizes[1:])), grown.sizes
assert grown.sizes[-1] >= 4 * grown.sizes[0], grown.sizes
assert len(set(steady.sizes[1:])) == 1, steady.sizes
print("ok: graph per loss grows", grown.sizes, "vs constant", steady.sizes)
