"""
expect: GL005 27
dynamic: confirm
source: kinds check 55, kind 6

Daily rainfall forecaster built by a factory defined inside main(). The model
predicts log-rain; exp() turns it into millimetres and saves its output for
backward, and the script then caps the forecast with an in-place clamp_, so
backward raises on the modified saved tensor.
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
    rain = torch.exp(model(lags))
    rain.clamp_(max=200.0)
    loss = F.poisson_nll_loss(rain, rain_mm, log_input=False)
    opt.zero_grad()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
        print("ok: backward raised:", str(err)[:70])
    else:
        raise AssertionError("backward should have failed")


if __name__ == "__main__":
    main()
