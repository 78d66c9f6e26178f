"""
expect: GL001 51
dynamic: confirm
source: https://github.com/atomistic-machine-learning/schnetpack/issues/279

In the atomistic potential library the output module derives forces as -dE/dR with
torch.autograd.grad and decides whether to build a differentiable graph of that derivative
with `create_graph = self.create_graph if self.training else False`.  A user whose model has
dropout layers switched the model to eval() while still relying on autograd for the forces;
in eval mode the force tensor then comes back without any history (the maintainers made the
flag configurable in a follow-up change).  When such a model is fine-tuned in eval mode with
an energy + force loss - a common way to keep dropout off - the force term is built from a
result that is cut from the record: it only adds a constant and the network learns from the
energies alone.  The asserts show that in eval mode the forces do not require grad and the
gradient of (energy loss + force loss) equals the gradient of the energy loss alone, while
a module that keeps create_graph in eval mode trains the force error down.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

N_ATOMS = 4
PAIRS = torch.combinations(torch.arange(N_ATOMS), r=2)


class PairEnergy(nn.Module):
    def __init__(self, n_rbf=16, hidden=32):
        super().__init__()
        self.register_buffer("centers", torch.linspace(0.6, 3.0, n_rbf))
        self.net = nn.Sequential(nn.Linear(n_rbf, hidden), nn.Tanh(),
                                 nn.Dropout(0.2), nn.Linear(hidden, 1))

    def forward(self, R):
        d = (R[:, PAIRS[:, 0]] - R[:, PAIRS[:, 1]]).norm(dim=-1)
        rbf = torch.exp(-4.0 * (d[..., None] - self.centers) ** 2)
        return self.net(rbf).sum(dim=(1, 2))


class EnergyAndForces(nn.Module):
    def __init__(self, create_graph=True, create_graph_in_eval=False):
        super().__init__()
        self.energy = PairEnergy()
        self.create_graph = create_graph
        self.create_graph_in_eval = create_graph_in_eval

    def forward(self, R):
        E = self.energy(R)
        create_graph = self.create_graph if (self.training or self.create_graph_in_eval) else False
        F_ = -torch.autograd.grad(E.sum(), R, create_graph=create_graph, retain_graph=True)[0]
        return E, F_


def reference(R):
    d = (R[:, PAIRS[:, 0]] - R[:, PAIRS[:, 1]]).norm(dim=-1)
    return ((1.0 - torch.exp(-1.5 * (d - 1.2))) ** 2).sum(-1)


R_data = torch.randn(64, N_ATOMS, 3) * 0.2 + torch.tensor([[0.0, 0, 0], [1.2, 0, 0], [0, 1.2, 0], [0, 0, 1.2]])
R_ref = R_data.clone().requires_grad_()
E_ref = reference(R_ref)
F_ref = -torch.autograd.grad(E_ref.sum(), R_ref)[0]
E_ref, F_ref = E_ref.detach(), F_ref.detach()


def energy_loss(E):
    return ((E - E_ref) ** 2).mean()


def force_loss(F_):
    return ((F_ - F_ref) ** 2).mean()


def grads(model, loss):
    model.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


def finetune(create_graph_in_eval, steps=150):
    torch.manual_seed(1)
    model = EnergyAndForces(create_graph_in_eval=create_graph_in_eval)
    model.eval()  # dropout off while fine-tuning
    R = R_data.clone().requires_grad_()
    E, F_ = model(R)
    g_e = grads(model, energy_loss(E))
    E, F_ = model(R)
    g_ef = grads(model, energy_loss(E) + 10.0 * force_loss(F_))
    same = all(torch.allclose(a, b) for a, b in zip(g_e, g_ef))
    forces_tracked = F_.requires_grad
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    start = force_loss(model(R)[1]).item()
    for _ in range(steps):
        opt.zero_grad()
        E, F_ = model(R)
        (energy_loss(E) + 10.0 * force_loss(F_)).backward()
        opt.step()
    end = force_loss(model(R)[1]).item()
    return forces_tracked, same, start, end


tracked_bug, same_bug, s_bug, e_bug = finetune(create_graph_in_eval=False)
assert tracked_bug is False, "eval mode: forces carry no graph"
assert same_bug, "eval mode: the force term adds nothing to the gradient"

tracked_fix, same_fix, s_fix, e_fix = finetune(create_graph_in_eval=True)
assert tracked_fix is True and not same_fix
assert e_fix < 0.5 * s_fix, (s_fix, e_fix)
assert e_fix < e_bug, (e_fix, e_bug)
print("eval-mode forces without graph: force MSE %.4f -> %.4f" % (s_bug, e_bug))
print("eval-mode forces with graph:    force MSE %.4f -> %.4f" % (s_fix, e_fix))
