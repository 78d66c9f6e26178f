"""
expect: GL003 62
dynamic: confirm
source: none, invented

Medical / ECG arrhythmia screening. A small 1-D CNN scores single-lead ECG windows for atrial
fibrillation. Missing an arrhythmia is costlier than a false alarm, so the training loop adds
a "miss-rate" term, 1 - sensitivity, to the BCE loss. Sensitivity is computed by thresholding
the probabilities at 0.5 and counting true positives, which is piecewise constant and has no
gradient; when autograd complained, the author switched the term's `requires_grad` on. That
makes the term a fresh leaf: `backward()` now runs, but the term contributes nothing to the
parameter gradients, so the sensitivity pressure never reaches the model. The asserts show the
term is a leaf with no grad_fn, that the parameter gradients are identical with and without the
term, and that a fixed soft-sensitivity term (sum of probabilities on positives) changes the
gradients and yields higher recall on held-out windows than plain BCE after the same training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AFibDetector(nn.Module):
    def __init__(self, channels=16):
        super().__init__()
        self.conv = nn.Conv1d(1, channels, kernel_size=7, padding=3)
        self.head = nn.Linear(channels, 1)

    def forward(self, ecg):
        h = F.relu(self.conv(ecg.unsqueeze(1)))
        return self.head(h.abs().mean(dim=-1)).squeeze(-1)


def synth_ecg(n, pos_frac=0.3, length=64):
    """AF windows carry extra irregular high-frequency energy, weakly."""
    y = (torch.rand(n) < pos_frac).float()
    t = torch.linspace(0, 8 * 3.1416, length)
    x = torch.sin(t).expand(n, length).clone() + 0.6 * torch.randn(n, length)
    x += y.unsqueeze(1) * 0.5 * torch.randn(n, length)
    return x, y


def sensitivity(probs, y):
    pred = (probs > 0.5).float()
    tp = (pred * y).sum()
    return tp / y.sum().clamp(min=1.0)


def soft_sensitivity(probs, y):
    return (probs * y).sum() / y.sum().clamp(min=1.0)


def grads(model):
    return [p.grad.clone() for p in model.parameters()]


def objective(model, x, y, mode, lam=0.5):
    logits = model(x)
    probs = torch.sigmoid(logits)
    loss = F.binary_cross_entropy_with_logits(logits, y)
    if mode == "buggy":
        miss = 1.0 - sensitivity(probs, y)
        miss.requires_grad = True
        loss = loss + lam * miss
    elif mode == "fixed":
        loss = loss + lam * (1.0 - soft_sensitivity(probs, y))
    return loss


def train(mode, steps=80, seed=0):
    torch.manual_seed(seed)
    model = AFibDetector()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        x, y = synth_ecg(64)
        loss = objective(model, x, y, mode)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def recall(model, seed=123):
    torch.manual_seed(seed)
    x, y = synth_ecg(2000)
    with torch.no_grad():
        return sensitivity(torch.sigmoid(model(x)), y).item()


def main():
    torch.set_num_threads(1)
    torch.manual_seed(7)
    model = AFibDetector()
    x, y = synth_ecg(128)

    with torch.no_grad():
        hard = sensitivity(torch.sigmoid(model(x)), y)
    assert hard.grad_fn is None          # counting metric: nothing to differentiate

    g = {}
    for mode in ("buggy", "plain", "fixed"):
        model.zero_grad()
        objective(model, x, y, mode).backward()
        g[mode] = grads(model)
    assert all(torch.equal(a, b) for a, b in zip(g["buggy"], g["plain"])), "term adds no gradient"
    assert any(not torch.allclose(a, b) for a, b in zip(g["fixed"], g["plain"]))

    r_bug = recall(train("buggy"))
    r_plain = recall(train("plain"))
    r_fix = recall(train("fixed"))
    print(f"recall plain={r_plain:.3f} buggy={r_bug:.3f} fixed={r_fix:.3f}")
    assert abs(r_bug - r_plain) < 1e-6, "buggy term changes nothing"
    assert r_fix > r_plain + 0.05
    print("k03 OK: thresholded sensitivity with requires_grad switched on gives no gradient")


if __name__ == "__main__":
    main()
