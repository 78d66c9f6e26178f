"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 3

A small image classifier on flattened 6x6 digits is trained with cross-entropy
plus a Jacobian (input-gradient) regulariser for smoothness. For each sample the
gradient of its true-class logit with respect to its pixels is taken with
torch.autograd.grad(..., create_graph=True) and its squared norm is appended to a
list. The per-sample terms are combined with torch.stack, which keeps their
double-backward history, so the regulariser does train the weights: the total
gradient differs from the cross-entropy gradient alone and every parameter gets
a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(5)
    clf = nn.Sequential(nn.Linear(36, 20), nn.Tanh(), nn.Linear(20, 10))
    images = torch.rand(6, 36)
    labels = torch.randint(0, 10, (6,))

    penalties = []
    for img, lab in zip(images, labels):
        img = img.unsqueeze(0).requires_grad_(True)
        logit = clf(img)[0, lab]
        g_img, = torch.autograd.grad(logit, img, create_graph=True)
        penalties.append(g_img.pow(2).sum())
    jac_reg = torch.stack(penalties).mean()

    ce = F.cross_entropy(clf(images), labels)
    loss = ce + 0.1 * jac_reg
    assert jac_reg.requires_grad

    params = list(clf.parameters())
    g_total = torch.autograd.grad(loss, params, retain_graph=True)
    g_ce = torch.autograd.grad(ce, params, retain_graph=True)
    assert any(not torch.allclose(a, b) for a, b in zip(g_total, g_ce)), "regulariser inert"
    for g in g_total:
        assert g.abs().sum() > 0
    loss.backward()
    assert all(p.grad is not None for p in params)
    print("k03 ok: Jacobian penalty %.4f trains the classifier" % jac_reg.item())


if __name__ == "__main__":
    main()
