"""
expect: none
dynamic: dismiss
source: https://github.com/megvii-research/mdistiller/blob/a08d46f10d6102bd6e3f258ca5ac880b020ea259/mdistiller/engine/trainer.py

Knowledge distillation with the Distillation-Oriented Trainer (DOT): one student forward produces a
cross-entropy loss and a KD loss against a teacher run under no_grad. The KD loss is backpropagated
with retain_graph=True, the optimizer's step_kd() only stashes those gradients, the gradients are
cleared, and the CE loss is backpropagated through the same graph before step() applies both momenta.
The retained graph is needed for the second backward and is released at the end of the iteration,
and step_kd() edits no parameter between the two backward calls. The asserts check that step_kd leaves
every parameter's version counter unchanged, that dropping retain_graph makes the second backward
fail, that the stashed KD gradients differ from the CE gradients, that the teacher never changes,
and that both losses fall over training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from dot_optimizer import DOTOptimizer

torch.manual_seed(0)
torch.set_num_threads(1)

X = torch.randn(256, 10)
y = (X[:, :3].sum(1) > 0).long() + (X[:, 3] > 1).long()
teacher = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 3))
t_opt = torch.optim.Adam(teacher.parameters(), lr=1e-2)
for _ in range(200):
    t_opt.zero_grad()
    F.cross_entropy(teacher(X), y).backward()
    t_opt.step()
teacher.eval()
teacher_state = {k: v.clone() for k, v in teacher.state_dict().items()}

student = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
opt = DOTOptimizer(student.parameters(), lr=0.05)
T = 4.0


def losses(xb, yb):
    logits = student(xb)
    with torch.no_grad():
        t_logits = teacher(xb)
    ce = F.cross_entropy(logits, yb)
    kd = F.kl_div(F.log_softmax(logits / T, 1), F.softmax(t_logits / T, 1), reduction="batchmean") * T * T
    return ce, kd


# without retain_graph the second backward through the shared graph is impossible
ce, kd = losses(X[:32], y[:32])
kd.backward()
try:
    ce.backward()
    raise AssertionError("expected the freed-graph error")
except RuntimeError as err:
    assert "second time" in str(err), err
student.zero_grad(set_to_none=True)

hist = []
for it in range(150):
    idx = torch.randint(0, 256, (64,))
    ce, kd = losses(X[idx], y[idx])
    opt.zero_grad(set_to_none=True)
    kd.backward(retain_graph=True)
    versions = [p._version for p in student.parameters()]
    opt.step_kd()
    assert versions == [p._version for p in student.parameters()]
    kd_grads = [g.clone() for g in opt._kd_grads]
    opt.zero_grad(set_to_none=True)
    ce.backward()
    if it == 0:
        assert any(not torch.allclose(g, p.grad) for g, p in zip(kd_grads, student.parameters()))
    opt.step()
    hist.append((ce.item(), kd.item()))

for k, v in teacher.state_dict().items():
    assert torch.equal(v, teacher_state[k]), k
ce0 = sum(h[0] for h in hist[:10]) / 10
ce1 = sum(h[0] for h in hist[-10:]) / 10
kd0 = sum(h[1] for h in hist[:10]) / 10
kd1 = sum(h[1] for h in hist[-10:]) / 10
assert ce1 < ce0 and kd1 < kd0, (ce0, ce1, kd0, kd1)
print(f"DOT distillation: CE {ce0:.3f} -> {ce1:.3f}, KD {kd0:.3f} -> {kd1:.3f}")
