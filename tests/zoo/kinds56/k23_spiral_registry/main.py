"""
expect: GL003 main.py:52
dynamic: confirm
source: none, invented

Three-arm spiral classification with a smoothness regularizer, written as a script: everything (data,
model picked from the `MODELS` registry in models.py, optimizer, loop) lives under
`if __name__ == "__main__":`.  The regularizer is an R1-style penalty on the gradient of the
classifier's log-partition with respect to the penultimate features.  Copying the R1 idiom from GAN
code, the `copy` setting takes the features as `model.features(x).detach().requires_grad_(True)` so
that it can differentiate with respect to them; but these features carry history from the backbone,
and re-leafing them makes the head the only trainable part: neither the cross-entropy nor the penalty
reaches `model.features`.  The `shared` setting differentiates with respect to the live features.  The
asserts show that with `copy` every backbone parameter keeps `.grad is None` and its weights stay put,
while with `shared` the backbone trains and test accuracy is clearly higher.
"""
import argparse
import math

import torch
import torch.nn.functional as F

from models import MODELS

if __name__ == "__main__":
    torch.set_num_threads(1)
    parser = argparse.ArgumentParser()
    parser.add_argument("--arch", choices=sorted(MODELS), default="resmlp")
    parser.add_argument("--gamma", type=float, default=0.1)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--penalty-features", choices=["copy", "shared"], default="copy")
    base_args = parser.parse_args()

    def spirals(n, arms=3):
        y = torch.randint(0, arms, (n,))
        r = torch.rand(n)
        theta = 3.0 * r * math.pi + 2 * math.pi * y / arms
        x = torch.stack([r * torch.cos(theta), r * torch.sin(theta)], 1)
        return x + 0.03 * torch.randn(n, 2), y

    results = {}
    for setting in ["copy", "shared"]:
        args = parser.parse_args(["--arch", base_args.arch, "--penalty-features", setting])
        torch.manual_seed(0)
        x_test, y_test = spirals(1000)
        model = MODELS[args.arch](2, 3)
        optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
        backbone_start = {k: v.clone() for k, v in model.features.state_dict().items()}
        for step in range(args.steps):
            x, y = spirals(128)
            if args.penalty_features == "copy":
                feats = model.features(x).detach().requires_grad_(True)
            else:
                feats = model.features(x)
            logits = model.head(feats)
            (g,) = torch.autograd.grad(logits.logsumexp(-1).sum(), feats, create_graph=True)
            loss = F.cross_entropy(logits, y) + args.gamma * g.pow(2).sum(-1).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            acc = (model(x_test).argmax(-1) == y_test).float().mean().item()
        grads = [p.grad for p in model.features.parameters()]
        moved = any(not torch.equal(backbone_start[k], v) for k, v in model.features.state_dict().items())
        results[setting] = (grads, moved, acc)

    grads, moved, acc_copy = results["copy"]
    assert all(g is None for g in grads) and not moved
    grads, moved, acc_shared = results["shared"]
    assert moved and all(g is not None for g in grads)
    assert acc_shared > 0.9 and acc_shared > acc_copy + 0.1, (acc_shared, acc_copy)
    print(f"k23: re-leafed features freeze the backbone (acc {acc_copy:.2f}) vs shared features (acc {acc_shared:.2f})")
