"""
expect: GL001 contrast.py:28, GL005 contrast.py:21
dynamic: confirm
source: https://github.com/OliverHxh/SkeletonGCL/issues/6

In the SkeletonGCL issue a user hit "modified by an inplace operation" (the
memory bank is overwritten in place after einsum saved it) and "fixed" it by
detaching the normalized features inside the contrastive loss; the maintainer
replied that then the contrastive loss no longer reaches the encoder. Here a
small skeleton GCN is trained with CE + graph contrastive loss from contrast.py.
Asserts: the original raises the version error (GL005, in-place enqueue), the detach variant gives the
encoder exactly the CE-only gradient, and snapshotting the bank instead trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from contrast import InfoNCEGraph, InfoNCEGraphNoDetach

torch.manual_seed(0)
torch.set_num_threads(1)

V = 5  # joints: a small chain skeleton
A = torch.eye(V)
for a, b in [(0, 1), (1, 2), (2, 3), (3, 4)]:
    A[a, b] = A[b, a] = 1.0
deg = A.sum(1)
A_hat = A / torch.sqrt(deg[:, None] * deg[None, :])


class SkeletonGCN(nn.Module):
    def __init__(self, c_in=3, hidden=16, num_classes=3):
        super().__init__()
        self.w1 = nn.Linear(c_in, hidden)
        self.w2 = nn.Linear(hidden, hidden)
        self.head = nn.Linear(hidden, num_classes)

    def embed(self, x):                    # x: (N, V, C)
        h = F.relu(A_hat @ self.w1(x))
        h = F.relu(A_hat @ self.w2(h))
        return h.mean(1)

    def forward(self, x):
        f = self.embed(x)
        return self.head(f), f


def encoder_grad(model, crit, w_con, x, y):
    model.zero_grad()
    logits, f = model(x)
    loss = F.cross_entropy(logits, y) + w_con * crit(f, y)
    loss.backward()
    return torch.cat([model.w1.weight.grad.flatten(), model.w2.weight.grad.flatten()]).clone()


model = SkeletonGCN()
x = torch.randn(8, V, 3)
y = torch.randint(0, 3, (8,))

# 1) what the author started from: in-place bank update breaks backward
try:
    encoder_grad(model, InfoNCEGraphNoDetach(16), 1.0, x, y)
    raised = False
except RuntimeError as e:
    raised = "inplace" in str(e)
assert raised

# 2) the detach "fix": contrastive weight changes nothing for the encoder
g_ce = encoder_grad(model, InfoNCEGraph(16), 0.0, x, y)
g_con = encoder_grad(model, InfoNCEGraph(16), 1.0, x, y)
assert torch.allclose(g_ce, g_con)

# 3) snapshotting the bank keeps the encoder in the contrastive graph
g_fix = encoder_grad(model, InfoNCEGraph(16, snapshot_bank=True), 1.0, x, y)
assert not torch.allclose(g_ce, g_fix)
print("ok: detached contrastive term adds nothing;", (g_fix - g_ce).abs().max().item())
