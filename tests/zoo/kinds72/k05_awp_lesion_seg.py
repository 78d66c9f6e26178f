"""
expect: GL005 58
dynamic: confirm
source: none, invented

Medical imaging: lesion segmentation on small MRI patches, trained with adversarial weight perturbation
(to be robust to scanner shifts). `PerturbedSegLearner.perturbed_logits` snapshots the network's weights,
nudges them along a random direction, runs the patch batch through the perturbed network and then
restores the snapshot with `self.net.load_state_dict(saved)` before returning the logits. The caller
computes the Dice+BCE loss from those logits and calls backward. load_state_dict copies into the very
parameter tensors that the convolutions saved for backward, so backward raises "modified by an inplace
operation". The asserts catch that error and show that the fixed learner (perturbed weights passed
out of place through torch.func.functional_call, nothing restored) trains: the loss falls.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call


class TinyLesionNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, x):
        return self.head(self.enc(x))


def soft_dice_loss(logits, mask, eps=1.0):
    prob = torch.sigmoid(logits)
    inter = (prob * mask).sum((1, 2, 3))
    union = prob.sum((1, 2, 3)) + mask.sum((1, 2, 3))
    return (1 - (2 * inter + eps) / (union + eps)).mean()


class PerturbedSegLearner:
    def __init__(self, net, rho=0.01, lr=1e-2):
        self.net = net
        self.rho = rho
        self.opt = torch.optim.Adam(net.parameters(), lr=lr)

    def _directions(self):
        return {n: self.rho * p.detach().norm() * F.normalize(torch.randn_like(p).flatten(), dim=0).view_as(p)
                for n, p in self.net.named_parameters()}

    def perturbed_logits(self, patches):
        saved = copy.deepcopy(self.net.state_dict())
        deltas = self._directions()
        with torch.no_grad():
            for n, p in self.net.named_parameters():
                p.add_(deltas[n])
        logits = self.net(patches)
        self.net.load_state_dict(saved)
        return logits

    def step(self, patches, masks):
        self.opt.zero_grad()
        logits = self.perturbed_logits(patches)
        loss = soft_dice_loss(logits, masks) + F.binary_cross_entropy_with_logits(logits, masks)
        loss.backward()
        self.opt.step()
        return loss.item()


class FunctionalPerturbedSegLearner(PerturbedSegLearner):
    def perturbed_logits(self, patches):
        deltas = self._directions()
        params = {n: p + deltas[n] for n, p in self.net.named_parameters()}
        return functional_call(self.net, params, (patches,))


def synthetic_patches(n=16, size=24, seed=0):
    g = torch.Generator().manual_seed(seed)
    yy, xx = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
    cy = torch.randint(6, size - 6, (n,), generator=g).float()
    cx = torch.randint(6, size - 6, (n,), generator=g).float()
    r = 2 + 3 * torch.rand(n, generator=g)
    masks = (((yy - cy[:, None, None]) ** 2 + (xx - cx[:, None, None]) ** 2) < r[:, None, None] ** 2).float()
    patches = masks + 0.4 * torch.randn(n, size, size, generator=g)
    return patches[:, None], masks[:, None]


def main():
    patches, masks = synthetic_patches()

    torch.manual_seed(0)
    learner = PerturbedSegLearner(TinyLesionNet())
    try:
        learner.step(patches, masks)
        raised = None
    except RuntimeError as e:
        raised = str(e)
    assert raised is not None and "inplace operation" in raised, raised
    print("restore-by-load_state_dict raised:", raised.splitlines()[0][:90])

    torch.manual_seed(0)
    learner = FunctionalPerturbedSegLearner(TinyLesionNet())
    losses = [learner.step(patches, masks) for _ in range(40)]
    assert losses[-1] < 0.8 * losses[0], (losses[0], losses[-1])
    print(f"functional perturbation trains: {losses[0]:.3f} -> {losses[-1]:.3f}")


if __name__ == "__main__":
    main()
