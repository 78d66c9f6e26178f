"""expect: GL002 dice_loss.py:20
dynamic: confirm

A small CT-slice segmentation network is trained with BCE plus the soft Dice loss imported from dice_loss.py in this folder. That module returns `torch.tensor(...)` of the Dice value, so the Dice term carries no gradient and the network's gradients equal those of BCE alone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from dice_loss import SoftDiceLoss


def main():
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
    dice = SoftDiceLoss()
    assert len(list(dice.parameters())) == 0

    slices = torch.randn(4, 1, 24, 24)
    yy, xx = torch.meshgrid(torch.arange(24), torch.arange(24), indexing="ij")
    organ = (((yy - 12) ** 2 + (xx - 12) ** 2) < 36).float().expand(4, 1, 24, 24)
    slices = slices + 2 * organ

    def grads(with_dice):
        net.zero_grad()
        logits = net(slices)
        loss = F.binary_cross_entropy_with_logits(logits, organ)
        if with_dice:
            term = dice(logits, organ)
            assert not term.requires_grad and 0 < term.item() < 1
            loss = loss + term
        loss.backward()
        return [p.grad.clone() for p in net.parameters()]

    for a, b in zip(grads(True), grads(False)):
        assert torch.equal(a, b), "Dice term should not change any gradient"

    # Training on the Dice term alone is impossible: it has no graph.
    try:
        dice(net(slices), organ).backward()
    except RuntimeError as err:
        assert "does not require grad" in str(err), err
    else:
        raise AssertionError("Dice-only backward should fail")
    print("E2 ok: imported Dice loss returning torch.tensor(...) adds no gradient")


if __name__ == "__main__":
    main()
