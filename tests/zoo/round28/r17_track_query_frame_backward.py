"""
expect: GL004 64
dynamic: confirm
source: https://github.com/a1600012888/MUTR3D/issues/8

In a query-based 3D multi-object tracker the loss of every frame is summed
and backpropagated once per clip; the author suggests backpropagating each
frame on its own to save memory. The naive version of that, shown here in
ClipTrainer, calls loss.backward(retain_graph=True) per frame while the track
queries carried to the next frame are never detached, so every backward walks
back through all earlier frames and the whole clip's graph stays alive. The
asserts count the autograd nodes reachable from each frame's loss: they grow
with the frame index, while detaching the carried queries keeps them flat.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

NQ, D = 6, 16


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class QueryTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(8, D), nn.ReLU())
        self.update = nn.GRUCell(D, D)
        self.box_head = nn.Linear(D, 4)
        self.init_queries = nn.Parameter(torch.randn(NQ, D) * 0.1)

    def step(self, queries, frame_points):
        ctx = self.backbone(frame_points).mean(dim=0, keepdim=True).expand(NQ, D)
        queries = self.update(ctx, queries)
        return queries, self.box_head(queries)


class ClipTrainer:
    def __init__(self, model, detach_queries=False):
        self.model = model
        self.detach_queries = detach_queries
        self.opt = torch.optim.SGD(model.parameters(), lr=1e-2)

    def train_clip(self, frames, boxes):
        self.opt.zero_grad()
        queries = self.model.init_queries
        sizes = []
        for pts, gt in zip(frames, boxes):
            queries, pred = self.model.step(queries, pts)
            loss = F.l1_loss(pred, gt)
            sizes.append(graph_size(loss))
            loss.backward(retain_graph=True)      # per-frame backward
            if self.detach_queries:
                queries = queries.detach()
        self.opt.step()
        return sizes


frames = [torch.randn(30, 8) for _ in range(8)]
boxes = [torch.randn(NQ, 4) for _ in range(8)]

sizes = ClipTrainer(QueryTracker()).train_clip(frames, boxes)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] >= 4 * sizes[0], sizes

flat = ClipTrainer(QueryTracker(), detach_queries=True).train_clip(frames, boxes)
assert len(set(flat[1:])) == 1 and flat[-1] < sizes[-1], flat
print("carried queries: graph per frame", sizes, "| detached:", flat)
