"""Per-frame training loop for a recurrent video detector (bottleneck-LSTM style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameDetector(nn.Module):
    def __init__(self, in_dim=12, hid=16):
        super().__init__()
        self.encoder = nn.Linear(in_dim, hid)
        self.cell = nn.LSTMCell(hid, hid)
        self.head = nn.Linear(hid, 4)
        self.state = None

    def detach_state(self):
        if self.state is not None:
            self.state = tuple(s.detach() for s in self.state)

    def forward(self, frame):
        feat = torch.relu(self.encoder(frame))
        self.state = self.cell(feat, self.state)
        return self.head(self.state[0])


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        todo.extend(nxt for nxt, _ in node.next_functions)
    return len(seen)


def train_clip(net, optimizer, frames, boxes, sizes):
    optimizer.zero_grad()
    for frame, box in zip(frames, boxes):
        pred = net(frame)
        loss = F.smooth_l1_loss(pred, box)
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
    optimizer.step()
    net.detach_state()
