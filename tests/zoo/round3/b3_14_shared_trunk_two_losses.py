"""expect: none
dynamic: none
source: https://github.com/NVIDIA/apex/issues/934

A user trains one model with one optimizer on two losses whose graphs share the
backbone sub-graph, so the first backward uses retain_graph=True and the second frees
the graph before optimizer.step().  This is the intended use of retain_graph: the graph
lives only within the iteration and the gradients equal those of loss1 + loss2.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ProtoNet(nn.Module):
    def __init__(self, n_classes=5, dim=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, dim))
        self.cls_head = nn.Linear(dim, n_classes)
        self.prototypes = nn.Parameter(torch.randn(n_classes, dim))

    def forward(self, x):
        feat = self.backbone(x)
        return feat, self.cls_head(feat)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def losses(self, x, y):
        feat, logits = self.model(x)
        loss1 = F.cross_entropy(logits, y)
        dist = torch.cdist(feat, self.model.prototypes)
        loss2 = F.cross_entropy(-dist, y)
        return loss1, loss2

    def train_step(self, x, y):
        loss1, loss2 = self.losses(x, y)
        self.optimizer.zero_grad()
        loss1.backward(retain_graph=True)
        loss2.backward()
        self.optimizer.step()
        return loss1, loss2


if __name__ == "__main__":
    torch.manual_seed(0)
    model = ProtoNet()
    trainer = Trainer(model)
    x, y = torch.randn(8, 12), torch.randint(0, 5, (8,))

    l1, l2 = trainer.losses(x, y)
    ref = torch.autograd.grad(l1 + l2, list(model.parameters()))

    trainer.optimizer = torch.optim.SGD(model.parameters(), lr=0.0)
    trainer.train_step(x, y)
    for g, p in zip(ref, model.parameters()):
        assert torch.allclose(g, p.grad, atol=1e-6)

    trainer.optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    sizes = []
    for _ in range(3):
        l1, l2 = trainer.train_step(torch.randn(8, 12), torch.randint(0, 5, (8,)))
        sizes.append(graph_size(l1))
    assert len(set(sizes)) == 1
    print("gradients match loss1 + loss2, graph size constant:", sizes)
