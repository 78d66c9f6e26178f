"""
expect: GL004 45
dynamic: confirm

From a PyTorch issue about an LSTM-cell policy whose memory grows every
iteration. Here a track-level motion model keeps its LSTMCell state (h, c) on
the tracker object across frames and never detaches it; because backward
complains on frame 2, the step uses retain_graph=True. Each frame's loss graph
then reaches back through every earlier frame (grads accumulate and the
optimizer steps once per clip), so graph and backward work grow linearly. The asserts count autograd nodes reachable from the
loss: they grow with the frame index, and stay flat once the state is
detached between frames.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
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


class MotionTracker(nn.Module):
    def __init__(self, detach_state):
        super().__init__()
        torch.manual_seed(0)
        self.cell = nn.LSTMCell(4, 16)
        self.box_head = nn.Linear(16, 4)
        self.detach_state = detach_state
        self.state = (torch.zeros(1, 16), torch.zeros(1, 16))

    def train_frame(self, box_in, box_next):
        h, c = self.cell(box_in, self.state)
        self.state = (h.detach(), c.detach()) if self.detach_state else (h, c)
        loss = (self.box_head(h) - box_next).pow(2).mean()
        loss.backward(retain_graph=True)  # grads accumulate over the clip
        return graph_size(loss)


boxes = torch.cumsum(torch.randn(12, 1, 4) * 0.1, 0)


def run(detach_state):
    trk = MotionTracker(detach_state)
    opt = torch.optim.SGD(trk.parameters(), lr=0.01)
    sizes = []
    opt.zero_grad()
    for t in range(len(boxes) - 1):
        sizes.append(trk.train_frame(boxes[t], boxes[t + 1]))
    opt.step()
    return sizes


bad = run(detach_state=False)
good = run(detach_state=True)
assert bad[-1] > 3 * bad[0], bad
assert all(b < a for b, a in zip(bad, bad[1:]))
assert good[0] == good[-1], good
print("ok", bad[0], bad[-1], good[-1])
