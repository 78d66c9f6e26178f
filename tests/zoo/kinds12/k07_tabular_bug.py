"""
expect: GL003 41
dynamic: confirm
source: kind 7

A tabular model predicts a 1-5 credit grade from customer features as class logits. A
helper decodes the logits with argmax into grade numbers; argmax has no gradient, so the
caller sets requires_grad = True on the decoded grades to get past the "does not require
grad" error, computes a squared-error loss and backpropagates. The loss reaches only that new
leaf: the model's .grad is None and the weights never change, while a variant using the
softmax-expected grade trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_grades(logits):
    return (logits.argmax(-1) + 1).float()


def expected_grade(logits):
    grades = torch.arange(1, logits.shape[-1] + 1, dtype=logits.dtype)
    return (F.softmax(logits, -1) * grades).sum(-1)


def make_model():
    return nn.Sequential(nn.Linear(7, 24), nn.ReLU(), nn.Linear(24, 5))


def main():
    torch.manual_seed(0)
    table = torch.randn(128, 7)
    grade = (table[:, :3].sum(1).clamp(-2, 2) + 3).round()

    model = make_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = model[0].weight.clone()
    for _ in range(3):
        predicted = to_grades(model(table))
        predicted.requires_grad = True
        loss = F.mse_loss(predicted, grade)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert model[0].weight.grad is None
    assert torch.equal(model[0].weight, before)

    ref = make_model()
    ref_opt = torch.optim.Adam(ref.parameters(), lr=1e-2)
    ref_before = ref[0].weight.clone()
    loss = F.mse_loss(expected_grade(ref(table)), grade)
    ref_opt.zero_grad()
    loss.backward()
    ref_opt.step()
    assert not torch.equal(ref[0].weight, ref_before)
    print("ok: grade model never trained from argmax-decoded outputs")


if __name__ == "__main__":
    main()
