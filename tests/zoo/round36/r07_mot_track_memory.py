"""
expect: GL004 59
dynamic: confirm
source: https://github.com/yinizhizhu/GNMOT/issues/12

A graph-network multi-object tracker is trained frame by frame; the report
hits "Trying to backward through the graph a second time ... Specify
retain_graph=True". Here the tracker keeps a per-track appearance memory that
it updates each frame from the network's embeddings without detaching, so
the suggested retain_graph=True silences the error while every frame's loss
now reaches back through all earlier frames. The asserts show the graph
behind each frame's loss grows with the frame index (each backward walks
all earlier frames again), the carried memory holds the clip's whole graph,
and detaching the memory keeps the graph size constant.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

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


class AppearanceNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 8))

    def forward(self, crops):
        return F.normalize(self.enc(crops), dim=-1)


class Tracker:
    def __init__(self, net, n_tracks, detach_memory=False, momentum=0.8):
        self.net = net
        self.memory = torch.zeros(n_tracks, 8)
        self.detach_memory = detach_memory
        self.m = momentum

    def reset(self):
        self.memory = torch.zeros_like(self.memory)

    def step(self, crops):
        emb = self.net(crops)
        affinity = emb @ self.memory.t() + emb @ emb.t()
        target = torch.arange(crops.shape[0])
        loss = F.cross_entropy(affinity * 5.0, target)
        loss.backward(retain_graph=True)
        new_mem = self.m * self.memory + (1 - self.m) * emb
        self.memory = new_mem.detach() if self.detach_memory else new_mem
        return loss


def train_sequence(tracker, opt, frames):
    """One video clip: per-frame backward, one optimizer step per clip."""
    tracker.reset()
    opt.zero_grad()
    sizes = []
    for crops in frames:
        loss = tracker.step(crops)
        sizes.append(graph_size(loss))
    opt.step()
    return sizes


def run(detach_memory, n_frames=6):
    torch.manual_seed(0)
    net = AppearanceNet()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    tracker = Tracker(net, n_tracks=4, detach_memory=detach_memory)
    base = torch.randn(4, 12)
    sizes = None
    for clip in range(2):
        frames = [base + 0.05 * torch.randn(4, 12) for _ in range(n_frames)]
        sizes = train_sequence(tracker, opt, frames)
    return sizes, tracker


sizes_bug, tr = run(detach_memory=False)
sizes_fix, _ = run(detach_memory=True)

assert all(b > a for a, b in zip(sizes_bug[1:], sizes_bug[2:])), sizes_bug
assert sizes_bug[-1] > 2 * sizes_bug[1]
assert len(set(sizes_fix[1:])) == 1, sizes_fix
# the carried memory still holds the whole history of frames
assert tr.memory.grad_fn is not None and graph_size(tr.memory) > sizes_bug[2]
print("ok", sizes_bug, sizes_fix)
