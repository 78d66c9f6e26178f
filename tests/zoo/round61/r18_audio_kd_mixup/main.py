"""
expect: none
dynamic: dismiss
source: https://github.com/fschmid56/EfficientAT/blob/a425fdce92572e602a1d5634799bd9f1f2efa806/ex_audioset.py

EfficientAT trains small CNN audio taggers on AudioSet by knowledge distillation from
a PaSST ensemble whose logits are loaded from a NumPy file. The training step mixes
spectrograms with mixup (weights drawn with NumPy), computes a per-clip BCE
distillation loss against the teacher probabilities, and then, for clips whose
teacher prediction is missing, zeroes the loss in place with an indexed assignment
before taking the mean; the teacher tensor is marked requires_grad = False, and the
repo's MixStyle helper detaches the frequency statistics. All of these look like
autograd hazards but are fine: the per-clip loss that is edited in place is the output
of a sum/mul that autograd never saved, the NumPy data (teacher logits, mixup
weights) are constants rather than round-tripped model outputs, and the detached
MixStyle statistics are a deliberate stop-gradient on the augmentation. Here main.py
holds the distillation step and helpers.py the mixup/MixStyle code; the asserts check
that the in-place zeroing gives exactly the gradients of an out-of-place masked
version, that clips without a teacher get only the label-loss gradient, and that the
tagger trains (loss falls, weights move).
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from helpers import mixup, freq_mixstyle

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)

N_CLASSES, N_MELS, N_FRAMES = 10, 16, 24
KD_LAMBDA, TEMP = 0.5, 2.0


class TinyTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, N_CLASSES)

    def forward(self, x):
        return self.head(self.conv(x).mean(dim=(2, 3)))


def load_teacher(n_clips):
    logits = np.random.randn(n_clips, N_CLASSES).astype(np.float32) * 3.0  # stands in for the .npy file
    teacher = torch.sigmoid(torch.from_numpy(logits) / TEMP)
    teacher.requires_grad = False
    return teacher


def train_step(model, x, y, teacher_rows, unknown, partner, lam, inplace_zero=True):
    bs = x.size(0)
    x = x * lam.view(bs, 1, 1, 1) + x[partner] * (1.0 - lam.view(bs, 1, 1, 1))
    y_hat = model(x)
    y_mix = y * lam.view(bs, 1) + y[partner] * (1.0 - lam.view(bs, 1))
    label_loss = F.binary_cross_entropy_with_logits(y_hat, y_mix, reduction="none").mean()

    kd = F.binary_cross_entropy_with_logits(y_hat, teacher_rows, reduction="none").mean(dim=1) * lam + \
        F.binary_cross_entropy_with_logits(y_hat, teacher_rows[partner], reduction="none").mean(dim=1) * (1.0 - lam)
    if inplace_zero:
        kd[unknown] = kd[unknown] * 0
    else:
        kd = torch.where(unknown, torch.zeros_like(kd), kd)
    kd = kd.mean()
    return KD_LAMBDA * label_loss + (1 - KD_LAMBDA) * kd, y_hat


def make_data(n=16):
    x = torch.randn(n, 1, N_MELS, N_FRAMES)
    y = (torch.rand(n, N_CLASSES) < 0.2).float()
    x = x + y[:, :N_MELS].sum(dim=1).view(n, 1, 1, 1)      # make labels learnable
    return x, y


def main():
    x, y = make_data()
    teacher = load_teacher(100)
    clip_index = torch.tensor([3, 17, -1, 42, 8, -1, 55, 61, 70, 12, 9, -1, 33, 28, 90, 4])
    unknown = clip_index == -1
    teacher_rows = teacher[clip_index]
    partner, lam = mixup(x.size(0), alpha=0.3)

    model = TinyTagger()
    grads = []
    for inplace in (True, False):
        model.zero_grad()
        loss, _ = train_step(model, x, y, teacher_rows, unknown, partner, lam, inplace_zero=inplace)
        loss.backward()
        grads.append([p.grad.clone() for p in model.parameters()])
    assert all(torch.allclose(a, b, atol=1e-7) for a, b in zip(*grads))

    # rows of clips without a teacher: only the label loss reaches their logits
    no_mix = torch.arange(x.size(0))
    ones = torch.ones(x.size(0))
    loss, y_hat = train_step(model, x, y, teacher_rows, unknown, no_mix, ones)
    g_full = torch.autograd.grad(loss, y_hat)[0]
    _, y_hat2 = train_step(model, x, y, teacher_rows, unknown, no_mix, ones)
    label_only = KD_LAMBDA * F.binary_cross_entropy_with_logits(y_hat2, y, reduction="none").mean()
    g_label = torch.autograd.grad(label_only, y_hat2)[0]
    assert torch.allclose(g_full[unknown], g_label[unknown], atol=1e-7)
    assert not torch.allclose(g_full[~unknown], g_label[~unknown])

    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    w0 = model.conv[0].weight.detach().clone()
    losses = []
    for _ in range(40):
        partner, lam = mixup(x.size(0), alpha=0.3)
        xb = freq_mixstyle(x, p=0.5)
        loss, _ = train_step(model, xb, y, teacher_rows, unknown, partner, lam)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(model.conv[0].weight.detach(), w0)
    assert np.mean(losses[-5:]) < np.mean(losses[:5])

    xs = x.clone().requires_grad_()
    freq_mixstyle(xs, p=1.0).sum().backward()
    assert xs.grad is not None and torch.isfinite(xs.grad).all()

    print("KD step with in-place zeroing: gradients match masked version; loss %.3f -> %.3f"
          % (np.mean(losses[:5]), np.mean(losses[-5:])))


if __name__ == "__main__":
    main()
