"""
expect: none
dynamic: dismiss
source: kinds check 11, kind 5

FixMatch-style semi-supervised learning for small images. The model's scores on
weakly augmented unlabeled images are detached to act as a teacher; max(dim=1)
on their softmax gives confidences and pseudo-label indices, and a comparison of
the confidences with a threshold gives a mask. Only the indices (as targets) and
the mask (as weights) are used, applied to the ATTACHED logits on strongly
augmented images, next to a supervised cross-entropy term. Nothing that should
be trained passes through the detached values, and every parameter receives a
gradient from the unlabeled term as well.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(8)
    model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    lab_x = torch.rand(8, 3, 8, 8)
    lab_y = torch.randint(0, 5, (8,))
    unlab = torch.rand(16, 3, 8, 8)
    weak = unlab + 0.02 * torch.randn_like(unlab)
    strong = unlab.flip(-1) + 0.2 * torch.randn_like(unlab)

    teacher = model(weak).softmax(dim=1).detach()
    conf, pseudo = teacher.max(dim=1)
    mask = (conf > conf.median()).float()
    assert mask.sum() > 0

    sup = F.cross_entropy(model(lab_x), lab_y)
    unsup = (F.cross_entropy(model(strong), pseudo, reduction="none") * mask).mean()
    loss = sup + unsup

    params = list(model.parameters())
    g_unsup = torch.autograd.grad(unsup, params, retain_graph=True)
    assert all(g.abs().sum() > 0 for g in g_unsup), "unlabeled term inert"
    opt.zero_grad()
    loss.backward()
    for p in params:
        assert p.grad is not None and p.grad.abs().sum() > 0
    opt.step()
    print("k05 ok: pseudo-label term trains the model (masked %d/16)" % int(mask.sum()))


if __name__ == "__main__":
    main()
