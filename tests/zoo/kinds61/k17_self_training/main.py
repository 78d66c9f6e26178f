"""
expect: none
dynamic: dismiss
source: none, invented

Self-training of a small MLP classifier on three Gaussian blobs with only 30 labelled points. For each
unlabelled batch, labeling.py turns the model's logits into confident hard pseudo-labels in NumPy (from
`logits.detach().cpu().numpy()`) and returns them rebuilt with `torch.tensor`/`torch.from_numpy`. main.py
uses those rebuilt labels only as the target of `F.cross_entropy(strong_logits[mask], pseudo[mask])`
computed on a second, noisier view; the predictions being trained stay in the graph. The asserts show the
combined loss reaches the weights (non-zero gradients, moving weights), more unlabelled
points pass the confidence threshold as training goes on, and test accuracy ends high.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from labeling import class_balance, confident_pseudo_labels

torch.manual_seed(0)
torch.set_num_threads(1)

CENTERS = torch.tensor([[0.0, 2.0], [-1.8, -1.0], [1.8, -1.0]])


def blobs(n, g):
    y = torch.randint(0, 3, (n,), generator=g)
    return CENTERS[y] + 0.6 * torch.randn(n, 2, generator=g), y


def main():
    g = torch.Generator().manual_seed(0)
    x_lab, y_lab = blobs(30, g)
    x_unl, _ = blobs(900, g)
    x_test, y_test = blobs(300, g)
    model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 3))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    w0 = model[0].weight.detach().clone()
    accepted = []
    for step in range(300):
        idx = torch.randint(0, len(x_unl), (128,), generator=g)
        xu = x_unl[idx]
        sup = F.cross_entropy(model(x_lab), y_lab)
        weak_logits = model(xu + 0.05 * torch.randn_like(xu))
        pseudo, mask = confident_pseudo_labels(weak_logits, threshold=0.9)
        strong_logits = model(xu + 0.4 * torch.randn_like(xu))
        if mask.any():
            unsup = F.cross_entropy(strong_logits[mask], pseudo[mask])
        else:
            unsup = strong_logits.sum() * 0.0
        loss = sup + 1.0 * unsup
        opt.zero_grad()
        loss.backward()
        if mask.any():
            assert model[0].weight.grad.abs().sum() > 0
        opt.step()
        accepted.append(mask.float().mean().item())

    with torch.no_grad():
        acc = (model(x_test).argmax(1) == y_test).float().mean().item()
    balance = class_balance(pseudo, mask, 3)
    assert not torch.equal(model[0].weight.detach(), w0)
    assert sum(accepted[-30:]) > sum(accepted[:30])
    assert acc > 0.9, acc
    assert (balance > 0.15).all(), balance
    print(f"k17: self-training reaches test accuracy {acc:.2f}")


if __name__ == "__main__":
    main()
