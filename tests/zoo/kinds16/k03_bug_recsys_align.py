"""
expect: GL001 30
dynamic: confirm
source: kind 3

A BPR recommender criterion returns (bpr_loss, align_term). The alignment term
maps positive item embeddings through the criterion's own content projector
and compares them with item text features, but it detaches the projector
output (meant: keep the item table out of it), so the term is built only from
detached values. The trainer adds both and backpropagates; the projector never
trains. The asserts show its grad is None and weights unchanged, while the
variant that detaches the projector input trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BPRWithContentAlignment(nn.Module):
    def __init__(self, dim, content_dim, weight=0.1, fixed=False):
        super().__init__()
        self.proj = nn.Linear(dim, content_dim)
        self.weight, self.fixed = weight, fixed

    def forward(self, u, pos, neg, pos_content):
        bpr = -F.logsigmoid((u * pos).sum(-1) - (u * neg).sum(-1)).mean()
        if self.fixed:
            projected = self.proj(pos.detach())
        else:
            projected = self.proj(pos).detach()
        align = (projected - pos_content).pow(2).mean()
        return bpr, self.weight * align


class Trainer:
    def __init__(self, n_users, n_items, dim=16, content_dim=8, fixed=False):
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.criterion = BPRWithContentAlignment(dim, content_dim, fixed=fixed)
        params = [*self.users.parameters(), *self.items.parameters(),
                  *self.criterion.parameters()]
        self.opt = torch.optim.Adam(params, lr=1e-2)

    def step(self, u, i, j, content):
        self.opt.zero_grad()
        bpr, align = self.criterion(self.users(u), self.items(i), self.items(j), content[i])
        (bpr + align).backward()
        grad = self.criterion.proj.weight.grad
        self.opt.step()
        return grad


def run(fixed):
    torch.manual_seed(3)
    trainer = Trainer(50, 80, fixed=fixed)
    content = torch.randn(80, 8)
    before = trainer.criterion.proj.weight.detach().clone()
    for _ in range(15):
        u, i, j = (torch.randint(0, n, (64,)) for n in (50, 80, 80))
        grad = trainer.step(u, i, j, content)
    return trainer, before, grad


if __name__ == "__main__":
    trainer, before, grad = run(fixed=False)
    assert grad is None
    assert torch.equal(trainer.criterion.proj.weight, before)
    assert trainer.items.weight.grad is not None

    trainer, before, grad = run(fixed=True)
    assert grad is not None and grad.abs().sum() > 0
    assert not torch.equal(trainer.criterion.proj.weight, before)
    print("ok: detached alignment term never trains the content projector")
