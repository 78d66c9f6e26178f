"""
expect: GL003 main.py:51
dynamic: confirm
source: none, invented

Agriculture / remote sensing. The yield-training script reuses the spectral-index
helper ``vegetation_features`` from predict_parcels.py, the team's inference demo.
That demo calls ``torch.set_grad_enabled(False)`` at module level, so merely
importing it switches autograd off for the whole training process. ``main`` then
calls ``train_step`` (which calls ``loss.backward()``) and the backward raises
"does not require grad". The asserts check that grad mode is off right after the
import, catch the error from the buggy call, then show that running the same
training steps under ``torch.enable_grad()`` lowers the yield MSE.
"""
import torch
import torch.nn.functional as F

from model import YieldRegressor
from predict_parcels import vegetation_features


def synthetic_season(n_parcels=256, n_dates=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    bands = 0.05 + 0.4 * torch.rand(n_parcels, n_dates, 6, generator=g)
    vigour = torch.rand(n_parcels, 1, generator=g)
    bands[..., 4] += 0.4 * vigour  # nir up with vigour
    bands[..., 2] -= 0.1 * vigour  # red down
    yields = 2.0 + 6.0 * vigour.squeeze(1) + 0.2 * torch.randn(n_parcels, generator=g)
    return bands.clamp(0.01, 1.0), yields


def train_step(model, optimizer, feats, target):
    optimizer.zero_grad()
    loss = F.mse_loss(model(feats), target)
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    assert not torch.is_grad_enabled(), "importing predict_parcels disabled autograd"
    torch.manual_seed(0)
    bands, yields = synthetic_season()
    feats = vegetation_features(bands)
    model = YieldRegressor(n_features=feats.shape[1])
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)

    # --- buggy path ---
    err = None
    try:
        train_step(model, optimizer, feats, yields)
    except RuntimeError as exc:
        err = exc
    assert err is not None and "does not require grad" in str(err), err
    print("buggy: backward failed after importing the demo script:", str(err).splitlines()[0])

    # --- fixed: re-enable autograd for training ---
    with torch.enable_grad():
        first = train_step(model, optimizer, feats, yields)
        for _ in range(150):
            last = train_step(model, optimizer, feats, yields)
    assert last < 0.2 * first, (first, last)
    print("fixed: mse %.3f -> %.3f" % (first, last))


if __name__ == "__main__":
    main()
