"""
expect: GL001 85
dynamic: confirm
source: https://github.com/tanxiaobing-hl/neural_network_Temporal_point_process/blob/b04118628f984b663a9ba0deb4f8811125d77c33/pt_tpp/pt_main_train.py

A PyTorch port of the "fully neural network" temporal point process (Omi et
al.): an RNN summarises the event history, a monotone network outputs the
cumulative hazard Phi(tau) of the next inter-event time, the intensity is its
derivative lambda = dPhi/dtau, and the loss is the negative log-likelihood
-(log lambda - Phi). The training script gets lambda with
torch.autograd.grad(int_l, y, grad_outputs=..., retain_graph=True) but without
create_graph=True, so the returned derivative carries no history: log(lambda)
is a constant as far as the optimizer is concerned and only the +Phi term
trains, which simply drives the cumulative hazard (and with it the intensity)
towards zero. The TensorFlow original differentiates through K.gradients, so it
does not have this problem. The asserts show that lambda has no grad_fn, that the
parameter gradient of the full loss equals the gradient of mean(Phi) alone, that
training with the broken loss makes the true negative log-likelihood worse
while create_graph=True improves it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Hazard(nn.Module):
    """Cumulative hazard network, monotone in the elapsed time y."""

    def __init__(self, rnn_dim=8, hidden=16):
        super().__init__()
        self.linear_y = nn.Linear(1, hidden, bias=False)
        self.linear_rnn = nn.Linear(rnn_dim, hidden)
        self.layer = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh())
        self.out = nn.Sequential(nn.Linear(hidden, 1), nn.Softplus())

    def forward(self, h, y):
        hidden = torch.tanh(self.linear_rnn(h) + self.linear_y(torch.log(y)))
        return self.out(self.layer(hidden))

    def positive_parameters(self):
        for mod in (self.linear_y, self.layer, self.out):
            for p in mod.parameters():
                p.data.abs_()


class NPP(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(1, 8, batch_first=True)
        self.hazard = Hazard()

    def forward(self, history, y):
        _, h = self.rnn(history)
        return self.hazard(h[-1], y)


def eval_loss(int_l, y_grad):
    ll = torch.log(1e-10 + y_grad) - int_l
    return -torch.mean(ll)


# toy event stream: exponential gaps with a history-dependent rate
gaps = torch.distributions.Exponential(torch.tensor(2.0)).sample((400,)) + 0.01
hist = torch.stack([gaps[i:i + 5] for i in range(390)]).unsqueeze(-1)
target = gaps[5:395].unsqueeze(-1)


def true_nll(npp):
    y = target.clone().requires_grad_(True)
    int_l = npp(hist, y)
    lam = torch.autograd.grad(int_l.sum(), y)[0]
    return -(torch.log(1e-10 + lam) - int_l).mean().item()


def nll_terms(npp, fixed):
    y = target.clone()
    y.requires_grad = True
    int_l = npp(hist, y)
    int_l_grad = torch.ones(int_l.size())
    if fixed:
        y_grad = torch.autograd.grad(int_l, y, grad_outputs=int_l_grad, create_graph=True)[0]
    else:
        y_grad = torch.autograd.grad(int_l, y, grad_outputs=int_l_grad, retain_graph=True)[0]
    return int_l, y_grad


def train(fixed, steps=150):
    torch.manual_seed(0)
    npp = NPP()
    npp.hazard.positive_parameters()
    opt = torch.optim.Adam(npp.parameters(), lr=1e-2)
    for _ in range(steps):
        int_l, y_grad = nll_terms(npp, fixed)
        loss = eval_loss(int_l, y_grad)
        opt.zero_grad()
        loss.backward()
        opt.step()
        npp.hazard.positive_parameters()
    return npp, y_grad


# one step: the log-intensity term contributes nothing
torch.manual_seed(0)
probe = NPP()
probe.hazard.positive_parameters()
int_l, y_grad = nll_terms(probe, fixed=False)
assert y_grad.grad_fn is None and not y_grad.requires_grad
g_full = torch.autograd.grad(eval_loss(int_l, y_grad), probe.hazard.out[0].weight, retain_graph=True)[0]
g_phi = torch.autograd.grad(int_l.mean(), probe.hazard.out[0].weight)[0]
assert torch.allclose(g_full, g_phi)

start = true_nll(probe)
broken, _ = train(fixed=False)
fixed, lam_fixed = train(fixed=True)
assert lam_fixed.grad_fn is not None
nll_broken, nll_fixed = true_nll(broken), true_nll(fixed)
assert nll_broken > start and nll_fixed < start, (start, nll_broken, nll_fixed)
print("NLL start %.3f | without create_graph %.3f | with create_graph %.3f" % (start, nll_broken, nll_fixed))
