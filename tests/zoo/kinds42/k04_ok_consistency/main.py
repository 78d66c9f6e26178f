"""
expect: none
dynamic: dismiss
source: kinds check 42, kind 2

Two copies of one patch classifier (copy.deepcopy(base)) are trained by
train(model, ...) with consistency weights 0 and 30. PatchNet.objectives returns
(supervised, agreement); agreement compares the softmax of one noisy view with
the .detach()ed softmax of a second view - a stop-gradient target inside an MSE,
so the first argument still carries the graph. The asserts show the agreement
term requires grad and has nonzero gradients, that the two copies end with
different weights, and that the copy trained with the term disagrees less across
noisy views than the one trained without it.
"""
import copy

import torch

from patchnet import PatchNet


def synthetic_patches(gen, n=512):
    protos = torch.randn(4, 64, generator=gen)
    labels = torch.randint(0, 4, (n,), generator=gen)
    return protos[labels] + 0.3 * torch.randn(n, 64, generator=gen), labels


def train(model, patches, labels, consistency, steps=120, seed=0):
    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for _ in range(steps):
        opt.zero_grad()
        supervised, agreement = model.objectives(patches, labels, noise=4.0, gen=gen)
        (supervised + consistency * agreement).backward()
        opt.step()
    return model


def disagreement(model, patches):
    gen = torch.Generator().manual_seed(99)
    with torch.no_grad():
        _, agreement = model.objectives(patches, torch.zeros(len(patches), dtype=torch.long), 4.0, gen)
    return agreement.item()


def main():
    torch.manual_seed(11)
    patches, labels = synthetic_patches(torch.Generator().manual_seed(12))
    base = PatchNet()

    _, term = base.objectives(patches, labels, 4.0, torch.Generator().manual_seed(1))
    assert term.requires_grad
    term.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in base.parameters())
    base.zero_grad(set_to_none=True)

    loose = train(copy.deepcopy(base), patches, labels, consistency=0.0)
    tight = train(copy.deepcopy(base), patches, labels, consistency=30.0)
    assert any(not torch.equal(a, b) for a, b in zip(loose.parameters(), tight.parameters()))
    d_loose, d_tight = disagreement(loose, patches), disagreement(tight, patches)
    assert d_tight < 0.7 * d_loose, (d_loose, d_tight)
    print(f"view disagreement: weight 0 {d_loose:.4f}, weight 30 {d_tight:.4f}")


if __name__ == "__main__":
    main()
