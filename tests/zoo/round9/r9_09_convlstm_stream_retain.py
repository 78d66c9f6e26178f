"""
expect: GL004 79
dynamic: confirm
source: https://github.com/automan000/Convolutional_LSTM_PyTorch/issues/2

Next-frame prediction with a ConvLSTM: the predictor keeps its (h, c) state on the
module between calls and the trainer back-propagates each frame's loss as it goes,
stepping the optimizer once per clip. Because the state carried into frame t+1 still
holds the graph of frames 0..t, the second backward fails unless retain_graph=True is
passed, and with it every backward walks (and keeps alive) the whole history, so the
graph grows with every frame. The program measures the number of autograd nodes
reachable from each frame's loss and asserts it grows every step (while a detached state
keeps it constant), and shows the plain second backward raising.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        self.hid_ch = hid_ch
        self.gates = nn.Conv2d(in_ch + hid_ch, 4 * hid_ch, k, padding=k // 2)

    def forward(self, x, state):
        h, c = state
        i, f, o, g = self.gates(torch.cat([x, h], dim=1)).chunk(4, dim=1)
        c = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
        h = torch.sigmoid(o) * torch.tanh(c)
        return h, c


class FramePredictor(nn.Module):
    def __init__(self, hid_ch=8, detach_state=False):
        super().__init__()
        self.cell = ConvLSTMCell(1, hid_ch)
        self.head = nn.Conv2d(hid_ch, 1, 1)
        self.detach_state = detach_state
        self.state = None

    def reset_state(self):
        self.state = None

    def forward(self, frame):
        if self.state is None:
            zeros = frame.new_zeros(frame.shape[0], self.cell.hid_ch, *frame.shape[2:])
            self.state = (zeros, zeros)
        h, c = self.cell(frame, self.state)
        self.state = (h.detach(), c.detach()) if self.detach_state else (h, c)
        return torch.sigmoid(self.head(h))


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def train_clip(self, clip):
        self.model.reset_state()
        self.optimizer.zero_grad()
        sizes = []
        for t in range(clip.shape[1] - 1):
            pred = self.model(clip[:, t])
            loss = F.binary_cross_entropy(pred, clip[:, t + 1])
            loss.backward(retain_graph=True)
            sizes.append(graph_size(loss))
        self.optimizer.step()
        return sizes


def moving_square_clip(batch=2, frames=10, size=12):
    clip = torch.zeros(batch, frames, 1, size, size)
    for b in range(batch):
        x0 = int(torch.randint(0, 4, (1,)))
        for t in range(frames):
            x = (x0 + t) % (size - 3)
            clip[b, t, 0, 4:7, x:x + 3] = 1.0
    return clip


clip = moving_square_clip()
sizes = Trainer(FramePredictor()).train_clip(clip)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] > 5 * sizes[0], sizes

flat = Trainer(FramePredictor(detach_state=True)).train_clip(clip)
assert len(set(flat)) == 1, flat

model = FramePredictor()
first = F.binary_cross_entropy(model(clip[:, 0]), clip[:, 1])
first.backward()
second = F.binary_cross_entropy(model(clip[:, 1]), clip[:, 2])
try:
    second.backward()
    raise AssertionError("second backward should need the freed graph")
except RuntimeError as err:
    assert "backward through the graph a second time" in str(err)

print("OK")
