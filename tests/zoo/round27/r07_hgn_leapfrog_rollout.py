"""
expect: none
dynamic: dismiss
source: https://github.com/CampusAI/Hamiltonian-Generative-Networks/issues/23

The authors of a Hamiltonian Generative Network port asked whether their
leapfrog integrator should keep retain_graph=True; the answer was that the
rollout must be backpropagated through, so the graph is needed. Here the
integrator calls autograd.grad(energy, q, create_graph=True,
retain_graph=True) at every step inside the rollout loop and logs the energy
through .detach().cpu().numpy(). All of it is one graph per batch with a
single backward at the end, and nothing is carried between batches. The
asserts show encoder, Hamiltonian and decoder all get gradients and train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, LAT, T = 10, 4, 6


class Potential(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(LAT, 32), nn.Softplus(), nn.Linear(32, 1))

    def forward(self, q):
        return self.net(q)


class Leapfrog:
    def __init__(self, dt=0.1):
        self.dt = dt
        self.energy_log = []

    def _force(self, q, potential, log=False):
        energy = potential(q)
        dp = -torch.autograd.grad(energy, q, grad_outputs=torch.ones_like(energy),
                                  create_graph=True, retain_graph=True)[0]
        if log:
            self.energy_log.append(energy.detach().cpu().numpy().mean())
        return dp

    def step(self, q, p, potential):
        p_half = p + 0.5 * self.dt * self._force(q, potential, log=True)
        q_next = q + self.dt * p_half
        p_next = p_half + 0.5 * self.dt * self._force(q_next, potential)
        return q_next, p_next


class HGN(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(OBS * 2, LAT * 2)
        self.potential = Potential()
        self.decoder = nn.Linear(LAT, OBS)
        self.integrator = Leapfrog()

    def forward(self, first_two_frames, steps):
        z = self.encoder(first_two_frames)
        q, p = z[:, :LAT], z[:, LAT:]
        frames = [self.decoder(q)]
        for _ in range(steps - 1):
            q, p = self.integrator.step(q, p, self.potential)
            frames.append(self.decoder(q))
        return torch.stack(frames, 1)


model = HGN()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
seq = torch.sin(torch.linspace(0, 3, T)[None, :, None] + torch.randn(8, 1, OBS))
losses = []
for it in range(25):
    opt.zero_grad()
    pred = model(seq[:, :2].reshape(8, -1), T)
    loss = F.mse_loss(pred, seq)
    loss.backward()
    if it == 0:
        grads = {n: p.grad is not None and p.grad.abs().sum().item() > 0 for n, p in model.named_parameters()}
    opt.step()
    losses.append(loss.item())

# the energy's constant offset cannot affect a force, every other weight is reached
grads.pop("potential.net.2.bias")
assert all(grads.values()), grads
assert losses[-1] < 0.5 * losses[0]
assert len(model.integrator.energy_log) == 25 * (T - 1)
print("ok: rollout trains end to end,", losses[0], "->", losses[-1])
