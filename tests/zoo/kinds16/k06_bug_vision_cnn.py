"""
expect: GL005 22
dynamic: confirm
source: kind 6

A satellite-tile classifier builds its conv stack from a list filled in a
loop: Conv2d, Tanh, then Dropout2d(inplace=True). Tanh saves its output for
backward; the in-place dropout overwrites that output in train mode, so the
first backward raises "modified by an inplace operation". The asserts catch
and check the RuntimeError, and show the same stack with a non-inplace
dropout trains.
"""
import torch
import torch.nn as nn


def conv_stack(channels, p_drop=0.2):
    layers = []
    for c_in, c_out in zip(channels[:-1], channels[1:]):
        layers.append(nn.Conv2d(c_in, c_out, 3, padding=1))
        layers.append(nn.Tanh())
        layers.append(nn.Dropout2d(p_drop, inplace=True))
        layers.append(nn.MaxPool2d(2))
    return nn.Sequential(*layers)


def conv_stack_fixed(channels, p_drop=0.2):
    layers = []
    for c_in, c_out in zip(channels[:-1], channels[1:]):
        layers += [nn.Conv2d(c_in, c_out, 3, padding=1), nn.Tanh(),
                   nn.Dropout2d(p_drop), nn.MaxPool2d(2)]
    return nn.Sequential(*layers)


class TileClassifier(nn.Module):
    def __init__(self, n_bands=4, n_classes=6, builder=conv_stack):
        super().__init__()
        self.features = builder([n_bands, 16, 32])
        self.head = nn.Linear(32, n_classes)

    def forward(self, tiles):
        return self.head(self.features(tiles).mean(dim=(2, 3)))


def fit(model, steps=5):
    torch.manual_seed(9)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    tiles, labels = torch.randn(8, 4, 16, 16), torch.randint(0, 6, (8,))
    model.train()
    before = model.features[0].weight.detach().clone()
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(tiles), labels).backward()
        opt.step()
    return before


if __name__ == "__main__":
    torch.manual_seed(0)
    try:
        fit(TileClassifier())
        raise AssertionError("backward should have failed")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    torch.manual_seed(0)
    model = TileClassifier(builder=conv_stack_fixed)
    before = fit(model)
    assert not torch.equal(model.features[0].weight, before)
    print("ok: Tanh -> Dropout2d(inplace=True) breaks backward")
