"""
expect: none
dynamic: dismiss
source: https://github.com/lihe07/llm_qat_test/blob/5ea0ae223cb97e8f76479f6c6fd9e89ce00e81a5/cascade.py

Cascade distillation for switchable-precision quantisation-aware training (InstantNet
style): one set of full-precision weights is run at 32, 8 and 4 bits; each lower
precision is distilled from the detached outputs of the higher ones. The cascade module
calls `loss.backward()` itself for every precision, accumulates the float values into a
fresh tensor and finally sets `total_loss.requires_grad = True` ("some hack to make
Trainer happy") so that the outer trainer's own `backward()` does not raise. That outer
backward only reaches the dummy leaf, but the real gradients were already accumulated by
the inner calls, and the fake-quant straight-through `(q - w).detach()` is the usual
estimator. Nothing is cut that should train: the asserts check that the outer backward
leaves the accumulated gradients unchanged, that the shared weights move, and that the
4-bit loss falls over training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fake_quant(w, bits):
    if bits >= 32:
        return w
    scale = w.abs().max() / (2 ** (bits - 1) - 1)
    q = torch.round(w / scale) * scale
    return w + (q - w).detach()


class QLinear(nn.Linear):
    bits = 32

    def forward(self, x):
        return F.linear(x, fake_quant(self.weight, self.bits), self.bias)


class QAModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = QLinear(16, 32), QLinear(32, 5)

    def set_bits(self, bits):
        self.fc1.bits = self.fc2.bits = bits

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class Cascade(nn.Module):
    def __init__(self, model, policies=(32, 8, 4), dist_weight=1.0):
        super().__init__()
        self.model, self.policies, self.dist_weight = model, policies, dist_weight
        self.hard_loss = nn.CrossEntropyLoss()
        self.dist_loss = nn.KLDivLoss(reduction="batchmean")

    def forward(self, x, y):
        outputs = []
        total_loss = torch.tensor(0.0)
        per_policy = []
        for i, bits in enumerate(self.policies):
            teacher_outputs = outputs[0:i]
            self.model.set_bits(bits)
            logits = self.model(x)
            outputs.append(logits.detach())
            loss = self.hard_loss(logits, y)
            if len(teacher_outputs) > 0:
                distill = torch.tensor(0.0)
                for t in teacher_outputs:
                    distill = distill + self.dist_loss(F.log_softmax(logits, -1), F.softmax(t, -1))
                loss = loss + distill * self.dist_weight / len(teacher_outputs)
            loss.backward()
            per_policy.append(loss.item())
            total_loss += loss.item()
        total_loss.requires_grad = True  # some hack to make Trainer happy
        return total_loss, per_policy


def trainer_step(cascade, optimizer, x, y, check=False):
    optimizer.zero_grad()
    loss, per_policy = cascade(x, y)
    if check:
        inner = [p.grad.clone() for p in cascade.model.parameters()]
    loss.backward()
    if check:
        assert all(torch.equal(a, p.grad) for a, p in zip(inner, cascade.model.parameters()))
        assert all(a.abs().sum() > 0 for a in inner)
    optimizer.step()
    return per_policy


torch.manual_seed(0)
torch.set_num_threads(1)
x = torch.randn(64, 16)
y = (x[:, :5].argmax(1))
model = QAModel()
cascade = Cascade(model)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
w0 = model.fc1.weight.detach().clone()
history = [trainer_step(cascade, optimizer, x, y, check=(i == 0)) for i in range(40)]
assert not torch.equal(w0, model.fc1.weight)
assert history[-1][2] < 0.6 * history[0][2], (history[0], history[-1])
print("4-bit loss:", round(history[0][2], 3), "->", round(history[-1][2], 3))
