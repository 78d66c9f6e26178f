"""expect: GL003 swe_model.py:9
dynamic: confirm
source: https://github.com/psu-efd/HydroNet/blob/b499ae569023dd1456df3dee8543d0caa1093fca/HydroNet/models/PINN/model.py

A shallow-water PINN sums several loss terms; like the HydroNet model, every term is passed through
a guard that, if the term "is not connected to the graph", replaces it by term.detach()
.requires_grad_(True). In this warm-up stage only the inundation-extent term is active, and it compares
a thresholded wet/dry map (h > h_dry) with an observed flood map, so the term has no history. Without the
guard backward() raises "element 0 of tensors does not require grad"; with it backward() runs, the
switched leaf is the only thing that gets a gradient, and no network weight receives one. The asserts
show the raw term does not require grad, every parameter's .grad is None and the weights are unchanged
after several Adam steps, and that a smooth (sigmoid) wet indicator trains the same network.
"""
import torch

from swe_model import SWEPINN


class SoftExtentPINN(SWEPINN):
    def wet_indicator(self, h):
        return torch.sigmoid((h - self.h_dry) / 0.2)


def make_data(n_col=64, n_obs=64):
    xy_col = torch.rand(n_col, 2)
    xy_obs = torch.rand(n_obs, 2)
    wet_obs = (xy_obs[:, 0:1] < 0.5).float()               # left half of the reach is flooded
    return xy_col, xy_obs, wet_obs


def warm_up(model, steps=20):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    any_grad = False
    hist = []
    xy_col, xy_obs, wet_obs = make_data()
    for _ in range(steps):
        loss, parts = model.compute_total_loss(xy_col, xy_obs, wet_obs)
        opt.zero_grad()
        loss.backward()
        any_grad = any_grad or any(p.grad is not None for p in model.parameters())
        opt.step()
        hist.append(parts["extent"])
    changed = max((p - b).abs().max().item() for p, b in zip(model.parameters(), before))
    return any_grad, changed, hist


torch.manual_seed(0)
torch.set_num_threads(1)

model = SWEPINN(use_pde=False, use_extent=True)
xy_col, xy_obs, wet_obs = make_data()
raw = model.compute_extent_loss(xy_obs, wet_obs)
assert not raw.requires_grad and raw.grad_fn is None        # the term lost its history
try:
    raw.backward()
    raise AssertionError("expected backward on the raw term to fail")
except RuntimeError as err:
    assert "does not require grad" in str(err)

any_grad, changed, _ = warm_up(model)
assert not any_grad and changed == 0.0                       # guard hides it: nothing trains

torch.manual_seed(0)
soft = SoftExtentPINN(use_pde=False, use_extent=True)
any_grad_s, changed_s, hist_s = warm_up(soft, steps=100)
assert any_grad_s and changed_s > 0 and hist_s[-1] < hist_s[0]

print("hard wet/dry warm-up updated weights:", changed > 0, "| soft indicator:", changed_s > 0)
