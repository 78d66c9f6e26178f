"""
expect: GL005 52
dynamic: error
source: kinds check 11, kind 7

A speech-enhancement denoiser is trained with a reconstruction loss plus a
mean-teacher consistency loss against an EMA helper built once from the model.
In the loop the consistency loss is recorded (a student forward on a jittered
input, which saves the student's weights) BEFORE the reconstruction loss is
backpropagated and the optimizer steps. The step updates the student's weights
in place, and only afterwards is the consistency loss backpropagated, so
autograd finds saved weights modified by an inplace operation and raises. The
mistake is the optimizer step taken while that earlier-recorded graph is still
waiting for its backward.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class EMATeacher:
    def __init__(self, model, decay=0.9):
        self.decay = decay
        self.shadow = copy.deepcopy(model).requires_grad_(False)

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.mul_(self.decay).add_(p, alpha=1 - self.decay)

    @torch.no_grad()
    def __call__(self, x):
        return self.shadow(x)


def main():
    torch.manual_seed(13)
    model = nn.Sequential(nn.Linear(32, 64), nn.Tanh(), nn.Linear(64, 32))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ema = EMATeacher(model)
    raised = False
    try:
        for step in range(2):
            clean = torch.randn(16, 32)
            noisy = clean + 0.3 * torch.randn_like(clean)
            recon = F.mse_loss(model(noisy), clean)
            consistency = F.mse_loss(model(noisy + 0.01 * torch.randn_like(noisy)), ema(noisy))
            opt.zero_grad()
            recon.backward()
            opt.step()
            ema.update(model)
            consistency.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        raised = True
        print("k07 bug: raised as expected:", str(err).splitlines()[0][:90])
    assert raised, "expected the in-place autograd error"


if __name__ == "__main__":
    main()
