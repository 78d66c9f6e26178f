"""
expect: GL001 main.py:40
dynamic: confirm
source: kinds check 51, kind 1

A face-swap generator is trained with a pixel loss plus an identity loss from a
frozen recognizer. IdentityLoss detaches the swapped faces before embedding them,
so the identity term carries no autograd history and never trains the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from id_losses import IdentityLoss

torch.manual_seed(0)

generator = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1))
recognizer = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2), nn.Flatten(), nn.Linear(4 * 7 * 7, 16))
recognizer.requires_grad_(False)
recognizer.eval()

id_loss = IdentityLoss(recognizer)
opt = torch.optim.Adam(generator.parameters(), lr=1e-3)


def intended_id_grad(target_faces, source_faces):
    generator.zero_grad()
    swapped = generator(target_faces)
    e1 = recognizer(swapped)
    e2 = recognizer(source_faces)
    (1 - F.cosine_similarity(e1, e2, dim=1)).mean().backward()
    return generator[0].weight.grad.clone()


for step in range(3):
    target_faces = torch.rand(4, 3, 16, 16)
    source_faces = torch.rand(4, 3, 16, 16)
    swapped = generator(target_faces)
    id_term = id_loss(swapped, source_faces)
    pix_term = F.l1_loss(swapped, target_faces)
    assert not id_term.requires_grad and id_term.grad_fn is None
    assert pix_term.requires_grad
    total = pix_term + 0.5 * id_term
    opt.zero_grad()
    total.backward()
    opt.step()

# the identity term alone cannot reach the generator
generator.zero_grad()
swapped = generator(target_faces)
term = id_loss(swapped, source_faces)
assert term.grad_fn is None
g = intended_id_grad(target_faces, source_faces)
assert g.abs().sum() > 0, "without the detach the identity term would train the generator"
print("ok: identity term is dead, intended version has gradient", float(g.abs().sum()))
