"""
expect: GL001 24
dynamic: confirm
source: kinds check 34, kind 1

A callable loss for a speech-enhancement mask network returns a reconstruction
term and a temporal-smoothness penalty. The penalty is reduced from the mask the
network already produced, but inside torch.no_grad(), so adding it to the
reconstruction term raises the reported loss and leaves the gradient untouched.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class MaskedSpectrogramLoss:
    def __init__(self, smooth_weight=0.5):
        self.smooth_weight = smooth_weight

    def __call__(self, mask, noisy_mag, clean_mag):
        enhanced = mask * noisy_mag
        recon = (enhanced - clean_mag).pow(2).mean()
        with torch.no_grad():
            jumps = mask[:, 1:, :] - mask[:, :-1, :]
            smooth = self.smooth_weight * jumps.abs().mean()
        return recon, smooth


class MaskNet(nn.Module):
    def __init__(self, n_freq=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_freq, 32), nn.ReLU(),
                                 nn.Linear(32, n_freq), nn.Sigmoid())

    def forward(self, mag):
        return self.net(mag)


def train_step(model, criterion, noisy, clean, use_smooth=True):
    model.zero_grad()
    mask = model(noisy)
    recon, smooth = criterion(mask, noisy, clean)
    loss = recon + smooth if use_smooth else recon
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


model = MaskNet()
criterion = MaskedSpectrogramLoss()
noisy = torch.rand(4, 20, 16)
clean = noisy * torch.rand(4, 20, 16)

loss_with, g_with = train_step(model, criterion, noisy, clean, use_smooth=True)
loss_without, g_without = train_step(model, criterion, noisy, clean, use_smooth=False)

assert loss_with > loss_without  # the penalty is in the number ...
assert all(torch.equal(a, b) for a, b in zip(g_with, g_without))  # ... not in the gradient
print("smoothness term adds", loss_with - loss_without, "to the loss and nothing to the gradient")
