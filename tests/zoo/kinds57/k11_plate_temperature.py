"""
expect: GL002 51
dynamic: confirm
source: none, invented

A neural surrogate predicts the steady-state temperature (in Celsius) at sensor positions on a heated
plate from the heater power settings; the thermocouple readings are in kelvin. The fitting class converts
the prediction with a helper, `Variable(to_kelvin(pred.data), requires_grad=True)`, and adds an L2
penalty on the weights. Going through `.data` and re-wrapping makes the converted prediction a new leaf,
so the data term carries no gradient to the network; only the weight penalty does, and the steps merely
shrink the weights. The asserts show that each parameter's gradient equals exactly the penalty gradient
`2 * wd * p` (the data term contributes nothing), that the sensor error does not improve, and that
converting the tensor itself gives different gradients and a much better fit.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)

N_HEATERS, N_SENSORS = 4, 10


def to_kelvin(t_celsius):
    return t_celsius + 273.15


def plate_physics(power):
    xs = torch.linspace(0, 1, N_SENSORS)
    centers = torch.linspace(0.1, 0.9, N_HEATERS)
    kernel = torch.exp(-((xs[None, :] - centers[:, None]) ** 2) / 0.02)
    return 20.0 + 30.0 * power @ kernel


class SurrogateFit:
    def __init__(self, wd=1e-3, legacy=True):
        torch.manual_seed(0)
        self.net = nn.Sequential(nn.Linear(N_HEATERS, 32), nn.Tanh(), nn.Linear(32, N_SENSORS))
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.05)
        self.wd = wd
        self.legacy = legacy

    def penalty(self):
        return sum((p ** 2).sum() for p in self.net.parameters())

    def loss(self, power, measured_k):
        pred = self.net(power) * 10.0
        if self.legacy:
            temp_k = Variable(to_kelvin(pred.data), requires_grad=True)
        else:
            temp_k = to_kelvin(pred)
        return F.mse_loss(temp_k, measured_k) / 100.0 + self.wd * self.penalty()

    def step(self, power, measured_k):
        loss = self.loss(power, measured_k)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def sensor_rmse(self, power, measured_k):
        return F.mse_loss(to_kelvin(self.net(power) * 10.0), measured_k).sqrt().item()


if __name__ == "__main__":
    power = torch.rand(256, N_HEATERS)
    measured_k = to_kelvin(plate_physics(power)) + 0.2 * torch.randn(256, N_SENSORS)

    legacy = SurrogateFit(legacy=True)
    rmse0 = legacy.sensor_rmse(power, measured_k)
    legacy.opt.zero_grad()
    legacy.loss(power, measured_k).backward()
    for p in legacy.net.parameters():
        assert torch.allclose(p.grad, 2 * legacy.wd * p.detach())
    legacy_grads = [p.grad.clone() for p in legacy.net.parameters()]
    for _ in range(300):
        legacy.step(power, measured_k)
    rmse_legacy = legacy.sensor_rmse(power, measured_k)
    assert rmse_legacy > 0.9 * rmse0, (rmse0, rmse_legacy)

    fixed = SurrogateFit(legacy=False)
    fixed.opt.zero_grad()
    fixed.loss(power, measured_k).backward()
    assert not all(torch.allclose(a, p.grad) for a, p in zip(legacy_grads, fixed.net.parameters()))
    for _ in range(300):
        fixed.step(power, measured_k)
    rmse_fixed = fixed.sensor_rmse(power, measured_k)
    assert rmse_fixed < 0.3 * rmse0, (rmse0, rmse_fixed)
    print(f"sensor RMSE (K): start {rmse0:.2f}, legacy {rmse_legacy:.2f}, direct {rmse_fixed:.2f}")
