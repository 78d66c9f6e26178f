"""
expect: none
dynamic: dismiss
source: https://github.com/geoelements/gns/blob/3b8fb5cc143690f061a721b63bde3e49eb8f8520/meshnet/normalization.py#L20

The MeshNet/GNS learned simulator normalises node features and target
accelerations with an online Normalizer: every training call accumulates
running sums into plain tensors with in-place `+=` (`self._acc_sum += ...`),
from `batched_data.detach()`, and then returns (x - mean) / std computed from
those running sums. An in-place update of state that lives across iterations,
fed from a detached value, looks like either a cut graph or a graph that
leaks into the next step. It is neither: the statistics are meant to be
constants, the normalised output still depends on x through the subtraction and
division, and because the accumulation is detached the buffers never join a
graph. The program trains a small acceleration predictor for a particle
simulation (gravity, drag, noisy input velocities as in GNS training) and also
runs an inverse problem where the initial velocity itself requires grad: the
model trains, the running mean matches the data, the buffers never require
grad, and repeated backward passes through fresh graphs work.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Normalizer(nn.Module):
    def __init__(self, size, max_accumulations=10 ** 6, std_epsilon=1e-8):
        super().__init__()
        self._max_accumulations = max_accumulations
        self._std_epsilon = torch.tensor(std_epsilon)
        self._acc_count = torch.tensor(0.0)
        self._num_accumulations = torch.tensor(0.0)
        self._acc_sum = torch.zeros(1, size)
        self._acc_sum_squared = torch.zeros(1, size)

    def forward(self, batched_data, accumulate=True):
        if accumulate and self._num_accumulations < self._max_accumulations:
            self._accumulate(batched_data.detach())
        return (batched_data - self._mean()) / self._std_with_epsilon()

    def inverse(self, normalized):
        return normalized * self._std_with_epsilon() + self._mean()

    def _accumulate(self, batched_data):
        self._acc_sum += batched_data.sum(dim=0, keepdim=True)
        self._acc_sum_squared += (batched_data ** 2).sum(dim=0, keepdim=True)
        self._acc_count += batched_data.shape[0]
        self._num_accumulations += 1

    def _mean(self):
        return self._acc_sum / torch.clamp(self._acc_count, min=1.0)

    def _std_with_epsilon(self):
        count = torch.clamp(self._acc_count, min=1.0)
        std = torch.sqrt(torch.clamp(self._acc_sum_squared / count - self._mean() ** 2, min=0.0))
        return torch.maximum(std, self._std_epsilon)


GRAVITY, DRAG, DT = torch.tensor([0.0, -9.8]), 0.3, 0.05


def true_acceleration(vel):
    return GRAVITY - DRAG * vel


class LearnedSimulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.node_normalizer = Normalizer(2)
        self.output_normalizer = Normalizer(2)
        self.mlp = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))

    def predict_normalized(self, vel):
        return self.mlp(self.node_normalizer(vel, accumulate=self.training))

    def acceleration(self, vel):
        return self.output_normalizer.inverse(self.predict_normalized(vel))


sim = LearnedSimulator()
opt = torch.optim.Adam(sim.mlp.parameters(), lr=1e-2)
losses = []
for step in range(300):
    vel = torch.randn(64, 2) * 3.0 + torch.tensor([1.0, -2.0])
    noisy_vel = vel + 0.05 * torch.randn_like(vel)            # GNS-style input noise
    target = sim.output_normalizer(true_acceleration(vel), accumulate=True)
    loss = ((sim.predict_normalized(noisy_vel) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())

assert sum(losses[-20:]) / 20 < 0.1 * sum(losses[:20]) / 20, (losses[:3], losses[-3:])
for buf in (sim.node_normalizer._acc_sum, sim.output_normalizer._acc_sum_squared):
    assert not buf.requires_grad and buf.grad_fn is None
assert torch.allclose(sim.node_normalizer._mean(), torch.tensor([[1.0, -2.0]]), atol=0.15)
print(f"training loss {sum(losses[:20]) / 20:.3f} -> {sum(losses[-20:]) / 20:.4f}")

# inverse problem: the input of the normalizer requires grad, stats keep accumulating
v0 = torch.tensor([[0.0, 0.0]], requires_grad=True)
target_pos = torch.tensor([[2.0, 1.0]])
inv_opt = torch.optim.Adam([v0], lr=0.1)
for it in range(60):
    pos, vel = torch.zeros(1, 2), v0
    for _ in range(10):
        vel = vel + DT * sim.acceleration(vel)
        pos = pos + DT * vel
    miss = ((pos - target_pos) ** 2).sum()
    inv_opt.zero_grad()
    miss.backward()               # a fresh graph each iteration; no "second time" error
    inv_opt.step()
    if it == 0:
        first_miss = miss.item()
assert miss.item() < 0.1 * first_miss, (first_miss, miss.item())
assert sim.node_normalizer._acc_sum.grad_fn is None
print(f"inverse problem miss {first_miss:.3f} -> {miss.item():.4f}")
