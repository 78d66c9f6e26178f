"""source: https://github.com/Paper99/SRFBN_CVPR19/issues/4

A feedback super-resolution net refines its output over three unrolled iterations
inside one forward pass and gets an L1 loss per iteration.  The per-iteration
losses are backpropagated one at a time, all but the last with retain_graph=True,
because they share one forward graph; the feedback state starts from zero in every
forward, so each batch's graph has the same size.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class FeedbackSR(nn.Module):
    def __init__(self, ch=8, steps=3):
        super().__init__()
        self.steps = steps
        self.head = nn.Conv2d(1, ch, 3, padding=1)
        self.block = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, lr_img):
        feat = F.relu(self.head(lr_img))
        fb = torch.zeros_like(feat)  # feedback state is fresh per forward
        outs = []
        for _ in range(self.steps):
            fb = F.relu(self.block(torch.cat([feat, fb], 1)))
            outs.append(self.up(fb))
        return outs


torch.manual_seed(0)
model = FeedbackSR()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
sizes = []
for it in range(4):
    lr_img, hr_img = torch.rand(2, 1, 8, 8), torch.rand(2, 1, 16, 16)
    outs = model(lr_img)
    optimizer.zero_grad()
    for out in outs[:-1]:
        F.l1_loss(out, hr_img).backward(retain_graph=True)
    last = F.l1_loss(outs[-1], hr_img)
    sizes.append(graph_size(last))
    last.backward()
    optimizer.step()

assert len(set(sizes)) == 1, sizes
print("graph constant:", sizes)
