"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 6

Daily rainfall forecaster built by a factory defined inside main(). The model
predicts log-rain; exp() turns it into millimetres and the forecast is capped
with an out-of-place clamp, so the tensor saved by exp() is intact and the
model trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)

    def create_model(n_lags=14, hidden=24):
        return nn.Sequential(nn.Linear(n_lags, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    model = create_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    lags = torch.randn(32, 14)
    rain_mm = torch.rand(32, 1) * 20
    w0 = model[0].weight.clone()
    rain = torch.exp(model(lags))
    rain = rain.clamp(max=200.0)
    loss = F.poisson_nll_loss(rain, rain_mm, log_input=False)
    opt.zero_grad()
    loss.backward()
    opt.step()
    assert not torch.equal(w0, model[0].weight)
    print("ok: forecaster trained")


if __name__ == "__main__":
    main()
