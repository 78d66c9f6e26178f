"""
expect: GL005 47
dynamic: error
source: https://github.com/wangyx240/High-Resolution-Image-Inpainting-GAN/issues/7

In High-Resolution-Image-Inpainting-GAN the trainer first calls
`first_MaskL1Loss.backward(retain_graph=True)` and `optimizer_g1.step()` for the
coarse generator, and then builds the total loss
`0.5*lambda_l1*first_MaskL1Loss + lambda_l1*second_MaskL1Loss + ...` and calls
backward on it; issue #7 reports "one of the variables needed for gradient
computation has been modified by an inplace operation ... [1, 32, 3, 3] is at
version 2; expected version 1" (a conv weight). This program has a plain
CoarseToFineTrainer with the same order: the coarse stage's optimizer step
updates the coarse conv weights in place while the retained graph (still used
by the total loss) has them saved, so the second backward raises. The program
asserts that error and that stepping after the single combined backward works.
"""
import torch
import torch.nn as nn


def conv_stage(in_ch):
    return nn.Sequential(nn.Conv2d(in_ch, 8, 3, padding=1), nn.ELU(), nn.Conv2d(8, 3, 3, padding=1))


class CoarseToFineTrainer:
    def __init__(self, lr=1e-3):
        self.coarse = conv_stage(4)
        self.refine = conv_stage(4)
        self.opt_coarse = torch.optim.Adam(self.coarse.parameters(), lr=lr)
        self.opt_all = torch.optim.Adam(list(self.coarse.parameters()) + list(self.refine.parameters()), lr=lr)

    def forward(self, img, mask):
        first = self.coarse(torch.cat([img * (1 - mask), mask], 1))
        merged = img * (1 - mask) + first * mask
        second = self.refine(torch.cat([merged, mask], 1))
        return first, second

    def masked_l1(self, out, img, mask):
        return ((out - img).abs() * mask).sum() / mask.sum()

    def train_step(self, img, mask):
        first, second = self.forward(img, mask)
        first_loss = self.masked_l1(first, img, mask)
        self.opt_coarse.zero_grad()
        first_loss.backward(retain_graph=True)
        self.opt_coarse.step()

        second_loss = self.masked_l1(second, img, mask)
        total = 0.5 * first_loss + second_loss
        self.opt_all.zero_grad()
        total.backward()
        self.opt_all.step()

    def train_step_combined(self, img, mask):
        first, second = self.forward(img, mask)
        total = 0.5 * self.masked_l1(first, img, mask) + self.masked_l1(second, img, mask)
        self.opt_all.zero_grad()
        total.backward()
        self.opt_all.step()


def main():
    torch.manual_seed(0)
    img = torch.rand(2, 3, 16, 16)
    mask = torch.zeros(2, 1, 16, 16)
    mask[:, :, 4:12, 4:12] = 1.0

    trainer = CoarseToFineTrainer()
    try:
        trainer.train_step(img, mask)
        raise AssertionError("expected the in-place modification error")
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)

    trainer = CoarseToFineTrainer()
    trainer.train_step_combined(img, mask)
    assert all(p.grad is not None for p in trainer.coarse.parameters())
    assert all(p.grad is not None for p in trainer.refine.parameters())
    print("coarse optimizer step before the total backward raises: confirmed")


if __name__ == "__main__":
    main()
