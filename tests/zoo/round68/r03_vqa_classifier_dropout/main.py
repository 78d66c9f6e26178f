"""
expect: GL005 classifier.py:25
dynamic: confirm
source: https://github.com/hengyuan-hu/bottom-up-attention-vqa/blob/master/classifier.py

Visual question answering (bottom-up top-down attention baseline). The answer
classifier is Linear -> ReLU -> Dropout(inplace=True) -> Linear. ReLU's backward needs
its own output, and the in-place dropout overwrites exactly that tensor while
training, so backward fails with "one of the variables needed for gradient
computation has been modified by an inplace operation ... output 0 of ReluBackward0"
(the error users of forks of this baseline report on current PyTorch). The asserts
catch that error on the default (in-place) model, then show that the same model with
inplace=False trains: the soft-score BCE loss falls and the classifier gets gradients.
"""
import torch
import torch.nn.functional as F
from torch import nn

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from classifier import TopDownVQA

torch.manual_seed(0)
torch.set_num_threads(1)

NTOKEN, V_DIM, HID, NUM_ANS = 50, 20, 32, 12


def make_batch(n=32):
    v = torch.randn(n, 6, V_DIM)
    q = torch.randint(0, NTOKEN, (n, 7))
    answer = (q[:, 0] + v[:, 0, 0].gt(0).long()) % NUM_ANS
    scores = F.one_hot(answer, NUM_ANS).float()
    return v, q, scores


def instance_bce_with_logits(logits, labels):
    return F.binary_cross_entropy_with_logits(logits, labels) * labels.size(1)


def train(model, steps):
    opt = torch.optim.Adamax(model.parameters(), lr=2e-3)
    v, q, a = make_batch()
    losses = []
    model.train()
    for _ in range(steps):
        loss = instance_bce_with_logits(model(v, q), a)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def main():
    buggy = TopDownVQA(NTOKEN, V_DIM, HID, NUM_ANS)
    try:
        train(buggy, 1)
        raise AssertionError("expected the in-place dropout to break backward")
    except RuntimeError as err:
        msg = str(err)
        assert "modified by an inplace operation" in msg, msg
        print("buggy classifier:", msg.split(".")[0])

    fixed = TopDownVQA(NTOKEN, V_DIM, HID, NUM_ANS)
    fixed.classifier.main[2] = nn.Dropout(0.5)  # out-of-place dropout
    losses = train(fixed, 120)
    print(f"fixed classifier loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    assert losses[-1] < 0.5 * losses[0]


if __name__ == "__main__":
    main()
