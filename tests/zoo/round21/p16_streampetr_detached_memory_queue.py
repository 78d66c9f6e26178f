"""
expect: none
dynamic: dismiss
source: https://github.com/exiawsh/StreamPETR/issues/63

StreamPETR (streaming multi-view 3D detection) carries a memory queue of top-k object
queries from frame to frame, and post_update_memory stores them with .detach(). A user
asked why; the author explained that in streaming training the memory must be detached,
otherwise backward fails with "Trying to backward through the graph a second time". The
detach is deliberate: each frame's loss trains the current computation, including the
layers that read the memory. This program trains a tiny streaming head frame by frame.
The asserts show backward succeeds on every frame without retain_graph, the graph size is
the same for every frame, the memory-reading layer gets gradients, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def topk_gather(feat, topk_indexes):
    return feat.gather(1, topk_indexes.expand(-1, -1, feat.shape[-1]))


def graph_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class StreamHead(nn.Module):
    def __init__(self, dim=16, n_query=12, topk=4, memory_len=8):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.memory_proj = nn.Linear(dim, dim)           # reads the propagated queries
        self.score = nn.Linear(dim, 1)
        self.box = nn.Linear(dim, 3)
        self.topk, self.memory_len, self.dim = topk, memory_len, dim
        self.memory_embedding = None

    def reset_memory(self, batch):
        self.memory_embedding = torch.zeros(batch, self.memory_len, self.dim)

    def forward(self, feats):
        q = self.query(feats)                            # B x n_query x dim
        mem = self.memory_proj(self.memory_embedding)    # B x memory_len x dim
        attn = torch.softmax(q @ mem.transpose(1, 2) / self.dim ** 0.5, dim=-1)
        out = q + attn @ mem
        rec_score = self.score(out)
        self.post_update_memory(out, rec_score)
        return self.box(out)

    def post_update_memory(self, rec_memory, rec_score):
        _, topk_indexes = torch.topk(rec_score, self.topk, dim=1)
        rec_memory = topk_gather(rec_memory, topk_indexes).detach()
        self.memory_embedding = torch.cat([rec_memory, self.memory_embedding], dim=1)[:, :self.memory_len]


head = StreamHead()
opt = torch.optim.Adam(head.parameters(), lr=5e-3)
frames = [torch.randn(2, 12, 16) for _ in range(6)]      # one short video, streamed
targets = [f[..., :3] * 0.5 for f in frames]

sizes, epoch_losses = [], []
for epoch in range(25):
    head.reset_memory(batch=2)
    total = 0.0
    for t, (feats, tgt) in enumerate(zip(frames, targets)):
        loss = F.mse_loss(head(feats), tgt)
        opt.zero_grad()
        loss.backward()                                  # no retain_graph needed
        if t > 0:                                        # memory holds real queries from frame 2 on
            assert head.memory_proj.weight.grad.abs().sum() > 0, "memory reader is trained"
            sizes.append(graph_nodes(loss))
        opt.step()
        total += loss.item()
    epoch_losses.append(total / len(frames))

assert len(set(sizes)) == 1, f"per-frame graph does not grow: {sorted(set(sizes))}"
assert epoch_losses[-1] < epoch_losses[0], "streaming training makes progress"
print(f"ok: detached memory queue, constant graph; loss {epoch_losses[0]:.3f} -> {epoch_losses[-1]:.3f}")
