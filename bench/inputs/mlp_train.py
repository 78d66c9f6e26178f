"""Bench input for bench/dynamic_overhead.py: a small MLP classifier trained for 200 steps.

Three Linear layers (hidden 256), batch 64, Adam, cross-entropy, on a fixed synthetic data set.
A small gating branch scales the first hidden layer; its helper returns the gate detached, so
``self.gate`` (which Adam holds) never gets a gradient: gradlint's GL001, exercised every step,
so the dynamic pass's probes, lineage tracking and backward interception all run each step.

expect: GL001 30
dynamic: confirm
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

STEPS = 200
BATCH = 64
D_IN, HIDDEN, CLASSES = 32, 256, 10


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(D_IN, HIDDEN)
        self.fc2 = nn.Linear(HIDDEN, HIDDEN)
        self.fc3 = nn.Linear(HIDDEN, CLASSES)
        self.gate = nn.Linear(D_IN, HIDDEN)  # the small extra branch

    def gate_of(self, x):
        g = torch.sigmoid(self.gate(x))
        return g.detach()  # the bug: the gate is meant to train with the rest

    def forward(self, x):
        h = F.relu(self.fc1(x)) * self.gate_of(x)
        h = F.relu(self.fc2(h))
        return self.fc3(h)


def main():
    torch.manual_seed(0)
    teacher = torch.randn(D_IN, CLASSES)
    data = torch.randn(BATCH * 16, D_IN)
    labels = (data @ teacher).argmax(dim=1)
    model = MLP()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(STEPS):
        i = (step % 16) * BATCH
        x, y = data[i:i + BATCH], labels[i:i + BATCH]
        loss = F.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"final loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
