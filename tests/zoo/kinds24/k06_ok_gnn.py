"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 6 (written for this check)

The distillation model's forward runs its teacher GCN inside `with torch.no_grad():`; the
teacher is pretrained (weights loaded with `load_state_dict`), frozen with
`requires_grad_(False)` and put in eval mode, and it only produces soft targets for the
attached student. The asserts show every student parameter gets a nonzero gradient and moves,
and the teacher is unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class GCN(nn.Module):
    def __init__(self, d_in=8, d_h=16, n_cls=3, p_drop=0.2):
        super().__init__()
        self.gc1, self.gc2 = nn.Linear(d_in, d_h), nn.Linear(d_h, n_cls)
        self.drop = nn.Dropout(p_drop)

    def forward(self, x, a_norm):
        return a_norm @ self.gc2(self.drop(torch.relu(a_norm @ self.gc1(x))))


class DistilledGCN(nn.Module):
    def __init__(self, teacher_state, temperature=2.0):
        super().__init__()
        self.teacher = GCN(d_h=32)
        self.teacher.load_state_dict(teacher_state)
        self.teacher.requires_grad_(False)
        self.teacher.eval()
        self.student = GCN(d_h=8)
        self.t = temperature

    def forward(self, x, a_norm):
        with torch.no_grad():
            soft = F.softmax(self.teacher(x, a_norm) / self.t, dim=1)
        logits = self.student(x, a_norm)
        return logits, soft


n = 12
adj = (torch.rand(n, n) > 0.7).float()
adj = ((adj + adj.t() + torch.eye(n)) > 0).float()
a_norm = adj / adj.sum(1, keepdim=True)
x, y = torch.randn(n, 8), torch.randint(0, 3, (n,))

pretrained = GCN(d_h=32)
pre_opt = torch.optim.Adam(pretrained.parameters(), lr=1e-2)
for _ in range(5):
    pre_opt.zero_grad()
    F.cross_entropy(pretrained(x, a_norm), y).backward()
    pre_opt.step()

model = DistilledGCN(pretrained.state_dict())
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
before = {k: v.clone() for k, v in model.state_dict().items()}
logits, soft = model(x, a_norm)
kd = F.kl_div(F.log_softmax(logits / model.t, 1), soft, reduction="batchmean") * model.t ** 2
loss = F.cross_entropy(logits, y) + kd
opt.zero_grad()
loss.backward()
opt.step()
for name, p in model.student.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
    assert not torch.equal(p, before["student." + name]), name
assert all(torch.equal(v, before["teacher." + k]) for k, v in model.teacher.state_dict().items())
print("ok: the no_grad region only runs the frozen pretrained teacher")
