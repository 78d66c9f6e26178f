"""
expect: GL005 losses.py:15
dynamic: confirm
source: https://github.com/autogluon/autogluon/pull/1983

Output-feature distillation with the RKD distance loss (student and teacher embedding
distances, normalised by their mean, compared with smooth-L1). The helper that builds
the pairwise distance matrix takes `res.sqrt()` and then zeroes the diagonal with
`res[range(n), range(n)] = 0`. In the reviewed pull request a reviewer asked why the
copied helper has a `res = res.clone()` right before that line; the author removed it
and got a RuntimeError. sqrt saves its output for backward, so writing the diagonal in
place changes a tensor the graph still needs: the teacher side (under no_grad) works,
the student side fails at backward with "modified by an inplace operation". The program
asserts that error for the helper in losses.py, then shows the cloned variant trains
the student (its loss goes down and the student weights receive gradients).
"""
import torch
import torch.nn as nn

from losses import RKDDistance, pairwise_distance_cloned

torch.manual_seed(0)
torch.set_num_threads(1)

teacher = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16)).eval()
student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 6))
x = torch.randn(12, 10)

# helper without the clone: the student's backward breaks
criterion = RKDDistance()
loss = criterion(student(x), teacher(x))
msg = ""
try:
    loss.backward()
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg

# helper with the clone: distillation trains the student
torch.manual_seed(0)
student = nn.Sequential(nn.Linear(10, 8), nn.ReLU(), nn.Linear(8, 6))
criterion = RKDDistance(dist_fn=pairwise_distance_cloned)
opt = torch.optim.Adam(student.parameters(), lr=0.01)
losses = []
for step in range(60):
    opt.zero_grad()
    loss = criterion(student(x), teacher(x))
    loss.backward()
    assert all(p.grad is not None for p in student.parameters())
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.5 * losses[0], (losses[0], losses[-1])
print("r04 ok: in-place diagonal breaks backward; cloned RKD loss %.4f -> %.4f" % (losses[0], losses[-1]))
