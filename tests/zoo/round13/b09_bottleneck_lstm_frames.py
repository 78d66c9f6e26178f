"""
expect: GL004 72
dynamic: confirm
source: https://github.com/vikrant7/mobile-vod-bottleneck-lstm/issues/31

The report: mobile video object detection with a Bottleneck-LSTM between a MobileNet encoder (with
BatchNorm) and the detection head, trained frame by frame with `backward(retain_graph=True)`; the
LSTM state is carried from frame to frame. This program rebuilds that loop: each frame's loss is
backpropagated with retain_graph=True while the hidden and cell state keep their history, and
the optimizer steps once per clip. The asserts show the graph reached from each frame's loss
grows with the frame index (every backward walks back through all earlier frames), while
detaching the carried state keeps it constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class BottleneckLSTMCell(nn.Module):
    def __init__(self, cin, hidden):
        super().__init__()
        self.bottleneck = nn.Conv2d(cin + hidden, hidden, 3, padding=1, groups=1)
        self.gates = nn.Conv2d(hidden, 4 * hidden, 1)

    def forward(self, x, state):
        h, c = state
        b = F.relu6(self.bottleneck(torch.cat([x, h], dim=1)))
        i, f, o, g = self.gates(b).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class VideoDetector(nn.Module):
    def __init__(self, hidden=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.BatchNorm2d(8), nn.ReLU6())
        self.lstm = BottleneckLSTMCell(8, hidden)
        self.head = nn.Conv2d(hidden, 5, 1)  # 4 box offsets + objectness per cell
        self.hidden = hidden
        self.state = None

    def reset_state(self, batch, size):
        z = torch.zeros(batch, self.hidden, size, size)
        self.state = (z, z.clone())

    def forward(self, frame):
        self.state = self.lstm(self.encoder(frame), self.state)
        return self.head(self.state[0])


def train_clip(model, opt, clip, targets, detach_state):
    model.reset_state(clip.shape[1], clip.shape[-1] // 2)
    opt.zero_grad()
    sizes = []
    for frame, target in zip(clip, targets):
        if detach_state:
            model.state = tuple(s.detach() for s in model.state)
        loss = F.smooth_l1_loss(model(frame), target)
        sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)
    opt.step()
    return sizes


torch.manual_seed(0)
model = VideoDetector()
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3)
clip = torch.randn(8, 2, 3, 16, 16)
targets = torch.randn(8, 2, 5, 8, 8)

sizes = train_clip(model, opt, clip, targets, detach_state=False)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] > 4 * sizes[0], sizes
flat = train_clip(model, opt, clip, targets, detach_state=True)
assert len(set(flat)) == 1, flat
print("ok: retained per-frame backward through the carried LSTM state grows", sizes[0], "->", sizes[-1])
