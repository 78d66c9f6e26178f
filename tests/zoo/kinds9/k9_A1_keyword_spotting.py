"""expect: GL005 22
dynamic: confirm

A keyword-spotting model gates its frame features with a sigmoid and, only while training, zeroes random gate units in place as a "gate dropout". The sigmoid saved its output for backward, so the in-place edit in the `if self.training:` branch breaks backpropagation on every training step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=40, hidden=64, n_keywords=10):
        super().__init__()
        self.proj = nn.Linear(n_mels, hidden)
        self.gate = nn.Linear(n_mels, hidden)
        self.classifier = nn.Linear(hidden, n_keywords)

    def forward(self, mels):  # mels: (batch, frames, n_mels)
        g = torch.sigmoid(self.gate(mels))
        if self.training:
            keep = (torch.rand_like(g) > 0.1).float()
            g.mul_(keep)
        h = torch.relu(self.proj(mels)) * g
        return self.classifier(h.mean(dim=1))


def main():
    torch.manual_seed(0)
    model = KeywordSpotter()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    mels = torch.randn(8, 50, 40)
    labels = torch.randint(0, 10, (8,))

    model.train()
    loss = F.cross_entropy(model(mels), labels)
    opt.zero_grad()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("backward should fail: sigmoid output was edited in place")
    assert model.gate.weight.grad is None

    # Eval-mode inference skips the edit and works.
    model.eval()
    with torch.no_grad():
        assert model(mels).shape == (8, 10)
    print("A1 ok: training-branch in-place edit of sigmoid output breaks backward")


if __name__ == "__main__":
    main()
