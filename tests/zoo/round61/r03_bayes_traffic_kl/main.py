"""
expect: GL004 main.py:70
dynamic: confirm
source: https://github.com/wuyingvia/CQA/blob/7b871b1706461260f1a97c0c7f6ec51a2626c03c/results/%E8%A1%A8%E6%A0%BC%E7%9A%84%E7%BB%93%E6%9E%9C/pred_METR-LA_LSTNet12_Bayesian_2209042015/pred_LSTNet12.py

Uncertainty-aware traffic-speed forecasting (METR-LA, LSTNet with Bayesian
layers): the training function evaluates the KL regulariser
kl = kl_loss(model) once, before the epoch loop, and then inside every batch
does cost = loss + kl_weight * kl; cost.backward(retain_graph=True). The KL
graph built from the initial weights is carried into every later iteration;
without retain_graph the second batch would raise "backward through the graph
a second time", and retain_graph=True only hides that. Each step re-runs the
same stale KL graph, so the regulariser always pushes with the gradient of the
initial posterior, however far the optimiser has moved the means and
log-sigmas, and its reported value never changes. The asserts train three
epochs, check the weights moved while the KL tensor the loop used still has its
initial value and still yields the initial gradient, and that the true KL
gradient at the trained weights is different. The fixed loop recomputes the KL
every batch with a plain backward, and its KL gradient follows the weights.
"""
import numpy as np
import torch
import torch.nn as nn

from bayes_layers import BayesLinear, BKLLoss

torch.manual_seed(0)
torch.set_num_threads(1)
N_NODE, T_IN, KL_WEIGHT = 5, 12, 0.5


class BayesLSTNet(nn.Module):
    def __init__(self, n_node=N_NODE, hid_cnn=8, hid_rnn=8, kernel=3):
        super().__init__()
        self.conv = nn.Conv1d(n_node, hid_cnn, kernel)
        self.gru = nn.GRU(hid_cnn, hid_rnn, batch_first=True)
        self.out = BayesLinear(prior_mu=0.0, prior_sigma=0.1, in_features=hid_rnn, out_features=n_node)
        self.highway = nn.Linear(T_IN, 1)

    def forward(self, x):                       # x: (B, T, N)
        c = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        _, h = self.gru(c)
        res = self.out(h[-1])
        return res + self.highway(x.transpose(1, 2)).squeeze(-1)


def make_data(steps=200):
    t = np.arange(steps)[:, None]
    series = np.sin(2 * np.pi * t / 24 + np.arange(N_NODE)) + 0.1 * np.random.default_rng(0).standard_normal((steps, N_NODE))
    xs = np.stack([series[i:i + T_IN] for i in range(steps - T_IN - 1)])
    ys = np.stack([series[i + T_IN] for i in range(steps - T_IN - 1)])
    return torch.tensor(xs, dtype=torch.float32), torch.tensor(ys, dtype=torch.float32)


def kl_grad(kl, model):
    return torch.autograd.grad(kl, model.out.weight_log_sigma, retain_graph=True)[0]


def train_model(model, loader, epochs):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    kl_loss = BKLLoss()
    kl = kl_loss(model)
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            y_pred = model(x)
            loss = criterion(y_pred, y)
            cost = loss + KL_WEIGHT * kl
            cost.backward(retain_graph=True)
            optimizer.step()
    return kl


def train_model_fixed(model, loader, epochs):
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
    kl_loss = BKLLoss()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            kl = kl_loss(model)
            cost = criterion(model(x), y) + KL_WEIGHT * kl
            cost.backward()
            optimizer.step()


xs, ys = make_data()
loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(xs, ys), batch_size=32, shuffle=True)

model = BayesLSTNet()
init_ls = model.out.weight_log_sigma.detach().clone()
g_init = kl_grad(BKLLoss()(model), model)
kl_init = BKLLoss()(model).item()
stale_kl = train_model(model, loader, epochs=3)
assert not torch.equal(init_ls, model.out.weight_log_sigma.detach())   # weights moved
assert stale_kl.item() == kl_init                                      # KL the loop used never moved
assert torch.equal(kl_grad(stale_kl, model), g_init)                   # so its push never changed
g_true = kl_grad(BKLLoss()(model), model)
assert not torch.allclose(g_true, g_init, atol=1e-4)                   # the real KL gradient did

torch.manual_seed(0)
fixed = BayesLSTNet()
f_init = kl_grad(BKLLoss()(fixed), fixed)
train_model_fixed(fixed, loader, epochs=3)
f_end = kl_grad(BKLLoss()(fixed), fixed)
assert not torch.allclose(f_init, f_end, atol=1e-4)
print("r03 ok: KL graph built once is replayed stale every step; recomputed KL tracks the weights")
