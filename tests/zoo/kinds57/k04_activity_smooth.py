"""
expect: GL003 36
dynamic: confirm
source: none, invented

Human-activity recognition from accelerometer windows: a 1-D conv encoder produces a feature vector and a
linear head classifies it. To keep the head smooth, the step adds a penalty on the gradient of the
cross-entropy with respect to the features, so the author made the features a leaf with
`encoder(x).detach().requires_grad_(True)` to be able to call `torch.autograd.grad` on them. The same
step then calls `loss.backward()` and `optimizer.step()` for encoder and head together, but the switch has
cut the encoder out of the graph: only the head learns. Without the switch the features are a non-leaf that
`autograd.grad` accepts just as well. The asserts show the encoder's `.grad` is None and its weights are
unchanged with the switch, and that the encoder trains when the features are used directly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

def encoder_layers():
    return nn.Sequential(
        nn.Conv1d(3, 16, 5, padding=2), nn.ReLU(),
        nn.Conv1d(16, 16, 5, padding=2), nn.ReLU(),
        nn.AdaptiveAvgPool1d(1), nn.Flatten(),
    )


def fit(encoder, head, windows, activity, legacy_step, steps=30, penalty=0.1):
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=3e-3)
    for step in range(steps):
        idx = torch.randint(0, windows.shape[0], (64,))
        x, y = windows[idx], activity[idx]
        if legacy_step:
            feats = encoder(x).detach().requires_grad_(True)
        else:
            feats = encoder(x)
        ce = F.cross_entropy(head(feats), y)
        g_feats, = torch.autograd.grad(ce, feats, create_graph=True)
        loss = ce + penalty * g_feats.pow(2).sum(1).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def synth_windows(n=512, length=50):
    activity = torch.randint(0, 4, (n,))
    t = torch.linspace(0, 1, length)
    freq = (activity.float() + 1) * 3
    base = torch.sin(2 * torch.pi * freq[:, None] * t)[:, None, :]
    return base.repeat(1, 3, 1) + 0.3 * torch.randn(n, 3, length), activity


if __name__ == "__main__":
    windows, activity = synth_windows()

    torch.manual_seed(1)
    encoder, head = encoder_layers(), nn.Linear(16, 4)
    w0 = encoder[0].weight.detach().clone()
    fit(encoder, head, windows, activity, legacy_step=True)
    assert encoder[0].weight.grad is None
    assert torch.equal(encoder[0].weight, w0)
    assert head.weight.grad is not None

    torch.manual_seed(1)
    encoder, head = encoder_layers(), nn.Linear(16, 4)
    fit(encoder, head, windows, activity, legacy_step=False)
    assert encoder[0].weight.grad is not None and encoder[0].weight.grad.abs().sum() > 0
    assert not torch.equal(encoder[0].weight, w0)
    print("legacy step: encoder untouched; current step: encoder trains")
