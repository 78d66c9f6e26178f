"""
expect: none
dynamic: dismiss
source: none, invented

Teacher-student distillation on a citation graph: the teacher is a two-layer GCN-style model that produces node
embeddings and class logits; the student is a graph-free MLP that predicts embeddings and logits from node
features alone. The loss module trains the teacher with cross-entropy on its logits and pulls the student's
embeddings towards the teacher's embeddings `.detach()`ed (plus a student CE term). The detach is correct: it
keeps the distillation term from dragging the teacher towards the student, while the teacher's own supervised
term still trains every teacher parameter (embeddings feed the teacher's logits). Everything trains: not a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphTeacher(nn.Module):
    def __init__(self, in_dim, hid, n_cls):
        super().__init__()
        self.l1 = nn.Linear(in_dim, hid)
        self.l2 = nn.Linear(hid, hid)
        self.cls = nn.Linear(hid, n_cls)

    def forward(self, x, adj):
        h = F.relu(adj @ self.l1(x))
        emb = adj @ self.l2(h)
        return emb, self.cls(F.relu(emb))


class MLPStudent(nn.Module):
    def __init__(self, in_dim, hid, n_cls):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(in_dim, hid), nn.ReLU(), nn.Linear(hid, hid))
        self.cls = nn.Linear(hid, n_cls)

    def forward(self, x):
        emb = self.body(x)
        return emb, self.cls(F.relu(emb))


class CoTrainedPair(nn.Module):
    def __init__(self, in_dim=20, hid=32, n_cls=4):
        super().__init__()
        self.teacher = GraphTeacher(in_dim, hid, n_cls)
        self.student = MLPStudent(in_dim, hid, n_cls)

    def forward(self, x, adj):
        t_emb, t_logits = self.teacher(x, adj)
        s_emb, s_logits = self.student(x)
        return {"teacher_emb": t_emb, "teacher_logits": t_logits, "student_emb": s_emb, "student_logits": s_logits}


class DistillLoss(nn.Module):
    def __init__(self, alpha=1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, out, labels):
        teacher_ce = F.cross_entropy(out["teacher_logits"], labels)
        student_ce = F.cross_entropy(out["student_logits"], labels)
        match = F.mse_loss(out["student_emb"], out["teacher_emb"].detach())
        return teacher_ce + student_ce + self.alpha * match


def main():
    torch.manual_seed(0)
    n = 50
    x = torch.randn(n, 20)
    a = (torch.rand(n, n) < 0.1).float()
    a = ((a + a.t() + torch.eye(n)) > 0).float()
    adj = a / a.sum(1, keepdim=True)
    labels = torch.randint(0, 4, (n,))

    model = CoTrainedPair()
    criterion = DistillLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = {k: v.detach().clone() for k, v in model.named_parameters()}
    first = None
    for step in range(30):
        loss = criterion(model(x, adj), labels)
        opt.zero_grad()
        loss.backward()
        for k, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, f"{k} got no gradient"
        opt.step()
        first = loss.item() if first is None else first
    for k, p in model.named_parameters():
        assert not torch.equal(before[k], p), f"{k} did not change"
    assert loss.item() < first
    print(f"ok: all teacher and student parameters train, loss {first:.3f} -> {loss.item():.3f}")


if __name__ == "__main__":
    main()
