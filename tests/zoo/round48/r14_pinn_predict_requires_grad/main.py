"""
expect: GL003 physics.py:31
dynamic: confirm
source: https://discuss.pytorch.org/t/pinn-pde-loss-error-in-residual/211132

A physics-informed network for a 1-D transport equation is trained on a few observations plus the
PDE residual at collocation points. In the forum thread the residual is built from
u_pred = model(x, t).requires_grad_() with allow_unused=True derivatives; the data loss trains but
the PDE residual stays high. Here the prediction comes from the model's @torch.no_grad() predict
helper, so it has no history; .requires_grad_() turns it into a fresh leaf, which silences the
"does not require grad" error, and the derivatives w.r.t. x and t come back empty (materialized as
zeros here, where the thread raised on None). The residual is then just the source term: the PDE
loss is a constant that never reaches the weights. The asserts show no weight is reachable from the PDE loss,
that training with it leaves the weights exactly where data-only training leaves them, and that
the residual built on the graph gives the weights a gradient and goes down.
"""
import copy

import torch

from physics import TransportPINN, pde_loss, pde_loss_on_graph

torch.manual_seed(0)
torch.set_num_threads(1)

x_obs, t_obs = torch.rand(16, 1), torch.zeros(16, 1)
u_obs = torch.sin(3.0 * x_obs)
x_col, t_col = torch.rand(128, 1), torch.rand(128, 1)

base = TransportPINN()


def train(model, residual_fn, steps=150):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    history = []
    for _ in range(steps):
        opt.zero_grad()
        data = ((model(x_obs, t_obs) - u_obs) ** 2).mean()
        pde = residual_fn(model, x_col.clone(), t_col.clone()) if residual_fn else 0.0
        (data + pde).backward()
        opt.step()
        history.append(float(pde.detach()) if torch.is_tensor(pde) else pde)
    return history


m_probe = copy.deepcopy(base)
probe = pde_loss(m_probe, x_col.clone(), t_col.clone())
probe_grads = torch.autograd.grad(probe, list(m_probe.parameters()), allow_unused=True)
assert all(gr is None for gr in probe_grads), "no weight is reachable from the PDE loss"

m_pde = copy.deepcopy(base)
hist = train(m_pde, pde_loss)
m_data = copy.deepcopy(base)
train(m_data, None)
for p, q in zip(m_pde.parameters(), m_data.parameters()):
    assert torch.allclose(p, q)
assert abs(hist[0] - hist[-1]) < 1e-6, "the PDE term is a constant"

m_fix = copy.deepcopy(base)
g = pde_loss_on_graph(m_fix, x_col.clone(), t_col.clone())
weights = [p for p in m_fix.parameters() if p.dim() == 2]
grads = torch.autograd.grad(g, weights)
assert all(gr.abs().sum() > 0 for gr in grads)
hist_fix = train(m_fix, pde_loss_on_graph)
print(f"PDE loss as written: {hist[0]:.4f} -> {hist[-1]:.4f}; on the graph: "
      f"{hist_fix[0]:.4f} -> {hist_fix[-1]:.4f}")
assert hist_fix[-1] < 0.5 * hist_fix[0]
