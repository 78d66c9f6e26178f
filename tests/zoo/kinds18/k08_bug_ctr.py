"""
expect: GL003 52
dynamic: confirm
source: kind 8

A click-through-rate criterion returns (loss.detach(), logs) so the logs are
"safe"; the trainer then hits "element 0 of tensors does not require grad"
and patches it with loss.requires_grad_(), turning the detached loss into a
fresh leaf. backward() runs but reaches nothing: the model never trains (the
root cut is the .detach() in the criterion's return). The asserts show every
model grad stays None and the weights are unchanged, while the same loop with
the attached loss learns.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CTRModel(nn.Module):
    def __init__(self, n_users=50, n_items=80, dim=8):
        super().__init__()
        self.user = nn.Embedding(n_users, dim)
        self.item = nn.Embedding(n_items, dim)
        self.bias = nn.Parameter(torch.zeros(()))

    def forward(self, users, items):
        return (self.user(users) * self.item(items)).sum(-1) + self.bias


class BCECriterion:
    def __call__(self, logits, clicks):
        loss = F.binary_cross_entropy_with_logits(logits, clicks)
        logs = {"loss": loss.item(), "ctr": clicks.mean().item()}
        return loss.detach(), logs


class AttachedBCECriterion(BCECriterion):
    def __call__(self, logits, clicks):
        loss = F.binary_cross_entropy_with_logits(logits, clicks)
        return loss, {"loss": loss.item(), "ctr": clicks.mean().item()}


def train(model, criterion, steps=100):
    gen = torch.Generator().manual_seed(3)
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(steps):
        users = torch.randint(0, 50, (128,), generator=gen)
        items = torch.randint(0, 80, (128,), generator=gen)
        clicks = ((users % 2) == (items % 2)).float()
        loss, logs = criterion(model(users, items), clicks)
        if not loss.requires_grad:
            loss = loss.requires_grad_()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return logs["loss"]


if __name__ == "__main__":
    torch.manual_seed(0)
    model = CTRModel()
    u0 = model.user.weight.detach().clone()
    end_loss = train(model, BCECriterion())
    assert all(p.grad is None for p in model.parameters())
    assert torch.equal(u0, model.user.weight.detach())

    torch.manual_seed(0)
    fixed = CTRModel()
    fixed_loss = train(fixed, AttachedBCECriterion())
    assert fixed.user.weight.grad is not None
    assert fixed_loss < 0.5 * end_loss, (end_loss, fixed_loss)
    print("ok: requires_grad_ on a detached loss trains nothing; attached loss learns")
