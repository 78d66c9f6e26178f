"""
expect: none
dynamic: dismiss
source: kinds check 53, kind 2

Same sensor-drift regressor, but SensorOffset in blocks.py adds its bias out of
place (x + offset), so the sigmoid output stays intact and everything trains.
"""
import torch
import torch.nn as nn

from blocks import CalibrationBlock

torch.manual_seed(0)


class DriftRegressor(nn.Module):
    def __init__(self, n_in, dim):
        super().__init__()
        self.enc = nn.Linear(n_in, dim)
        self.block = CalibrationBlock(dim)

    def forward(self, x):
        h = torch.sigmoid(self.enc(x))
        return self.block(h)


def main():
    model = DriftRegressor(6, 16)
    x, y = torch.randn(32, 6), torch.randn(32, 1)
    loss = ((model(x) - y) ** 2).mean()
    try:
        loss.backward()
        failed = False
    except RuntimeError as e:
        assert "inplace" in str(e), e
        failed = True
    EXPECT_FAIL = False
    assert failed == EXPECT_FAIL
    if not failed:
        assert model.enc.weight.grad is not None
        assert model.block.offset.offset.grad is not None
    print("ok: backward failed =", failed)


if __name__ == "__main__":
    main()
