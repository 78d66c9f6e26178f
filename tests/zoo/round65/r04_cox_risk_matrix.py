"""
expect: none
dynamic: dismiss
source: https://github.com/mahmoodlab/PathomicFusion/pull/9

Survival analysis with a Cox partial-likelihood loss (PathomicFusion-style CoxLoss). The
loss builds the risk-set indicator matrix R[i, j] = (T_j >= T_i) in a NumPy double loop
from the survival times and wraps it with torch.FloatTensor, and the censoring flags are
also converted on the way. That resembles "rebuilding the loss from NumPy", but only the
labels take that route: the predicted log-hazards stay tensors with history and the loss
is differentiable in them. The asserts show the hazard network's weights get non-zero
gradients, the loss falls, and the concordance index on the training cohort ends high.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)


def CoxLoss(survtime, censor, hazard_pred, device):
    current_batch_len = len(survtime)
    R_mat = np.zeros([current_batch_len, current_batch_len], dtype=int)
    for i in range(current_batch_len):
        for j in range(current_batch_len):
            R_mat[i, j] = survtime[j] >= survtime[i]
    R_mat = torch.FloatTensor(R_mat).to(device)
    theta = hazard_pred.reshape(-1)
    exp_theta = torch.exp(theta)
    loss_cox = -torch.mean((theta - torch.log(torch.sum(exp_theta * R_mat, dim=1))) * censor)
    return loss_cox


def concordance_index(times, events, risks):
    num, den = 0.0, 0.0
    for i in range(len(times)):
        if not events[i]:
            continue
        for j in range(len(times)):
            if times[j] > times[i]:
                den += 1
                num += 1.0 if risks[i] > risks[j] else (0.5 if risks[i] == risks[j] else 0.0)
    return num / den


class HazardMLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


N, D = 96, 6
x = torch.randn(N, D)
true_w = torch.tensor([1.5, -1.0, 0.5, 0.0, 0.0, 0.0])
rate = torch.exp(x @ true_w)
event_time = torch.distributions.Exponential(rate).sample()
censor_time = torch.distributions.Exponential(torch.full((N,), 0.3)).sample()
survtime = torch.minimum(event_time, censor_time)
censor = (event_time <= censor_time).float()  # 1 = event observed

model = HazardMLP(D)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
device = torch.device("cpu")
losses = []
for epoch in range(150):
    hazard = model(x)
    loss = CoxLoss(survtime.numpy(), censor, hazard, device)
    opt.zero_grad()
    loss.backward()
    if epoch == 0:
        g = model.net[0].weight.grad
        assert g is not None and g.abs().sum() > 0
        assert loss.grad_fn is not None
    opt.step()
    losses.append(loss.item())

with torch.no_grad():
    risks = model(x).view(-1).numpy()
ci = concordance_index(survtime.numpy(), censor.numpy().astype(bool), risks)
assert losses[-1] < losses[0] - 0.2, (losses[0], losses[-1])
assert ci > 0.75, ci
print("cox loss %.3f -> %.3f, c-index %.3f" % (losses[0], losses[-1], ci))
