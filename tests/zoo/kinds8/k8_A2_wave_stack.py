"""expect: GL005 33
dynamic: confirm
source: kinds8 (kind A)

Each dilated layer ends in tanh, which saves its output; the residual is then added
into that output in place (`act += h`), so backward raises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class WaveLayer(nn.Module):
    def __init__(self, ch, dil):
        super().__init__()
        self.dconv = nn.Conv1d(ch, ch, 3, padding=dil, dilation=dil)

    def forward(self, sig):
        return torch.tanh(self.dconv(sig))


class TinyWaveStack(nn.Module):
    def __init__(self, ch=6, n_layers=4):
        super().__init__()
        self.inp = nn.Conv1d(1, ch, 1)
        self.layers = nn.ModuleList([WaveLayer(ch, 2 ** k) for k in range(n_layers)])
        self.proj = nn.Conv1d(ch, 1, 1)

    def forward(self, wav):
        h = self.inp(wav)
        for i in range(len(self.layers)):
            act = self.layers[i](h)
            act += h
            h = act
        return self.proj(h)


def main():
    torch.manual_seed(0)
    stack = TinyWaveStack()
    clean = torch.randn(3, 1, 64)
    noisy = clean + 0.1 * torch.randn_like(clean)
    loss = F.mse_loss(stack(noisy), clean)
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("expected an in-place RuntimeError")
    print("OK")


if __name__ == "__main__":
    main()
