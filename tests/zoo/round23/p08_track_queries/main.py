"""
expect: GL004 main.py:46
dynamic: confirm
source: https://github.com/TRI-ML/PF-Track/issues/42

PF-Track propagates track queries from frame to frame and computes a loss per frame. The
issue points out that the carried `track_instances` keep their autograd history, so each
per-frame backward has to go through every earlier frame; with `retain_graph=True` on the
per-frame backward the graph, its saved activations and the backward time grow with the
sequence, and the reporter proposes detaching the carried queries. The asserts count the
autograd nodes reachable from each frame's loss: they grow every frame in the reported loop
and stay constant once the carried queries are detached, which still trains the tracker.
"""
import torch
import torch.nn.functional as F
from tracker import QueryTracker, TrackInstances

torch.set_num_threads(1)
torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


NUM_FRAMES = 20
frames = [torch.randn(6, 10) for _ in range(NUM_FRAMES)]
gt_boxes = [torch.randn(6, 3) * 0.1 + 0.05 * i for i in range(NUM_FRAMES)]

tracker = QueryTracker()
opt = torch.optim.Adam(tracker.parameters(), lr=1e-2)
tracks = tracker.init_tracks()
sizes = []
opt.zero_grad()
for frame_idx in range(NUM_FRAMES):
    boxes, tracks = tracker(frames[frame_idx], tracks)
    loss = F.l1_loss(boxes, gt_boxes[frame_idx])
    sizes.append(graph_size(loss))
    loss.backward(retain_graph=True)
opt.step()
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] > 10 * sizes[0]


def train_detached(model, optimizer, epochs=15):
    history, sizes = [], []
    for _ in range(epochs):
        tracks, total = model.init_tracks(), 0.0
        optimizer.zero_grad()
        for frame_idx in range(NUM_FRAMES):
            boxes, tracks = model(frames[frame_idx], tracks)
            loss = F.l1_loss(boxes, gt_boxes[frame_idx])
            sizes.append(graph_size(loss))
            loss.backward()
            tracks = TrackInstances(tracks.query.detach(), tracks.ref_pts.detach())
            total += loss.item()
        optimizer.step()
        history.append(total)
    return history, sizes


fixed = QueryTracker()
history, fixed_sizes = train_detached(fixed, torch.optim.Adam(fixed.parameters(), lr=1e-2))
assert len(set(fixed_sizes)) <= 2 and max(fixed_sizes) <= sizes[1], "bounded graph per frame"
assert history[-1] < history[0]
print("p08 ok: carried track queries grow the graph", sizes[:3], sizes[-1], "vs", fixed_sizes[1])
