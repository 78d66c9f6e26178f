"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 6

A galaxy-morphology classifier (science) is trained with a class-balanced loss.
ClassWeighter, an nn.Module defined after the code that uses it, detaches its
input in forward and turns class counts into normalised inverse-frequency
weights. Every call hands it counts collected under torch.no_grad(): the label
counts of the training catalogue and the predicted-class counts of an evaluation
pass. Those inputs have no history, so the detach loses nothing, and the
weighted cross-entropy on the attached logits trains every model parameter.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(11)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    photometry = torch.randn(64, 10)
    morph = torch.randint(0, 4, (64,))
    weighter = ClassWeighter(power=0.5)

    with torch.no_grad():
        label_counts = torch.bincount(morph, minlength=4).float() + 1.0
        model.eval()
        pred_counts = torch.bincount(model(photometry).argmax(dim=1), minlength=4).float() + 1.0
        model.train()
    assert not label_counts.requires_grad and not pred_counts.requires_grad

    w = weighter(label_counts) * weighter(pred_counts)
    per_item = F.cross_entropy(model(photometry), morph, reduction="none")
    loss = (w[morph] * per_item).sum() / w[morph].sum()
    opt.zero_grad()
    loss.backward()
    for p in model.parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0
    opt.step()
    print("k06 ok: class-weighted loss %.3f trains every parameter" % loss.item())


class ClassWeighter(nn.Module):
    def __init__(self, power=1.0):
        super().__init__()
        self.power = power

    def forward(self, counts):
        counts = counts.detach()
        w = (counts.sum() / counts) ** self.power
        return w / w.mean()


if __name__ == "__main__":
    main()
