"""
expect: none
dynamic: dismiss
source: kinds check 34, kind 2

A plain distillation learner for review-sentiment classification keeps a
factory-built student (self.net) and a frozen teacher of the same kind. Only the
student's parameters go to the optimizer; the teacher's soft labels are computed
under torch.no_grad() on purpose, as a fixed target.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def build_classifier(vocab=200, dim=16, n_classes=3):
    return nn.ModuleDict({
        "embed": nn.EmbeddingBag(vocab, dim, mode="mean"),
        "classifier": nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, n_classes)),
    })


class DistillLearner:
    def __init__(self, net, teacher, temperature=2.0, lr=0.1):
        self.net = net
        self.teacher = teacher.eval()
        self.T = temperature
        self.opt = torch.optim.SGD(net.parameters(), lr=lr)

    def loss(self, tokens, offsets, labels):
        with torch.no_grad():
            t_logits = self.teacher["classifier"](self.teacher["embed"](tokens, offsets))
        s_logits = self.net["classifier"](self.net["embed"](tokens, offsets))
        kd = F.kl_div(F.log_softmax(s_logits / self.T, -1), F.softmax(t_logits / self.T, -1),
                      reduction="batchmean") * self.T ** 2
        return kd + F.cross_entropy(s_logits, labels)

    def step(self, tokens, offsets, labels):
        self.opt.zero_grad()
        loss = self.loss(tokens, offsets, labels)
        loss.backward()
        self.opt.step()
        return loss.item()


student, teacher = build_classifier(dim=16), build_classifier(dim=32)
learner = DistillLearner(student, teacher)
lengths = torch.randint(3, 10, (32,))
tokens = torch.randint(0, 200, (int(lengths.sum()),))
offsets = torch.cat([torch.zeros(1, dtype=torch.long), lengths.cumsum(0)[:-1]])
labels = torch.randint(0, 3, (32,))
teacher_before = [p.detach().clone() for p in teacher.parameters()]
losses = [learner.step(tokens, offsets, labels) for _ in range(30)]

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in student.parameters())
assert all(p.grad is None for p in teacher.parameters())
assert all(torch.equal(a, b) for a, b in zip(teacher_before, teacher.parameters()))
assert losses[-1] < losses[0]
print(f"student loss {losses[0]:.3f} -> {losses[-1]:.3f}; teacher fixed")
