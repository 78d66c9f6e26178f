"""
expect: GL001 43
dynamic: confirm
source: https://github.com/WUR-AI/diffWOFOST/issues/8

diffWOFOST makes the WOFOST crop model differentiable so its parameters can be calibrated by
gradient descent. In review, the leaf-dynamics integrate() step turned out to store the new
state variables with .detach().clone(); forward and backward still ran, but the gradient of
the simulated leaf area with respect to the parameters was wrong, and it matched the numerical
check only after the detach was removed. This file runs a small leaf-dynamics model (age
classes, logistic growth, senescence after SPAN days) for a season and differentiates final
LAI with respect to the growth-rate and life-span parameters; the asserts compare autograd with
central finite differences for the detaching model and for the fixed one.
"""
import torch

torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class LeafDynamics:
    """Leaf biomass by age class; one class per day."""

    def __init__(self, params, n_classes=80):
        self.p = params
        self.age = torch.arange(n_classes, dtype=torch.float64)
        self.LV = torch.cat([params["TDWI"].reshape(1), torch.zeros(n_classes - 1)])

    def leaf_area_index(self):
        """LAI at the end of the current day, including today's pending rates."""
        return self.p["SLA"] * (self.LV.sum() + self.GRLV - self.DALV.sum())

    def calc_rates(self, temp_factor):
        total = self.LV.sum()
        self.GRLV = self.p["RGRLAI"] * temp_factor * total * (1.0 - total / self.p["LVMAX"])
        death = torch.sigmoid((self.age - self.p["SPAN"]) * 2.0)
        self.DALV = self.LV * death

    def integrate(self):
        lv = self.LV - self.DALV
        lv = torch.cat([self.GRLV.reshape(1), lv[:-1]])
        self.LV = lv.detach().clone()


class LeafDynamicsFixed(LeafDynamics):
    def integrate(self):
        lv = self.LV - self.DALV
        self.LV = torch.cat([self.GRLV.reshape(1), lv[:-1]])


def run_season(model_cls, rgr, span, days=70):
    params = {"TDWI": torch.tensor(0.5), "SLA": torch.tensor(0.02), "LVMAX": torch.tensor(150.0),
              "RGRLAI": rgr, "SPAN": span}
    crop = model_cls(params)
    for day in range(days):
        temp_factor = 0.8 + 0.2 * torch.sin(torch.tensor(day / 10.0))
        crop.calc_rates(temp_factor)
        if day < days - 1:
            crop.integrate()
    return crop.leaf_area_index()


def autograd_vs_fd(model_cls, rgr0=0.12, span0=25.0, eps=1e-5):
    rgr = torch.tensor(rgr0, requires_grad=True)
    span = torch.tensor(span0, requires_grad=True)
    lai = run_season(model_cls, rgr, span)
    lai.backward()
    fd_rgr = (run_season(model_cls, torch.tensor(rgr0 + eps), torch.tensor(span0))
              - run_season(model_cls, torch.tensor(rgr0 - eps), torch.tensor(span0))) / (2 * eps)
    fd_span = (run_season(model_cls, torch.tensor(rgr0), torch.tensor(span0 + eps))
               - run_season(model_cls, torch.tensor(rgr0), torch.tensor(span0 - eps))) / (2 * eps)
    return rgr.grad.item(), fd_rgr.item(), span.grad.item(), fd_span.item()


g_rgr, fd_rgr, g_span, fd_span = autograd_vs_fd(LeafDynamics)
# backward ran and produced numbers, but they are far from the true sensitivities
assert abs(g_rgr - fd_rgr) > 0.5 * abs(fd_rgr)
assert abs(g_span - fd_span) > 0.5 * abs(fd_span)

g_rgr, fd_rgr, g_span, fd_span = autograd_vs_fd(LeafDynamicsFixed)
assert abs(g_rgr - fd_rgr) < 1e-4 * max(1.0, abs(fd_rgr))
assert abs(g_span - fd_span) < 1e-4 * max(1.0, abs(fd_span))
print("q08 ok: detaching the state in integrate() silently truncates parameter gradients")
