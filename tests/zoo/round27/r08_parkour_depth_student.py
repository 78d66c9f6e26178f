"""
expect: none
dynamic: dismiss
source: https://github.com/chengxuxin/extreme-parkour/issues/12

A user of a legged-robot parkour codebase asked why the recurrent depth
encoder's hidden state is detached but not reset between episodes; the
authors said it is on purpose. The student rollout carries the GRU state
through the whole rollout, the teacher acts under no_grad, the predicted yaw
is written into a cloned observation through .detach(), and actions are
detached before the simulator. One backward per rollout, then the state is
detached for the next rollout. The asserts show the encoder and actor train,
no backward reaches an old rollout, and no in-place error occurs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_ENV, PROP, DEPTH, ACT, STEPS = 4, 10, 16, 3, 8


class RecurrentDepthBackbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Linear(DEPTH, 32), nn.ELU())
        self.mix = nn.Sequential(nn.Linear(32 + PROP, 32), nn.ELU())
        self.rnn = nn.GRU(32, 32, batch_first=True)
        self.out = nn.Sequential(nn.Linear(32, 16 + 2), nn.Tanh())
        self.hidden_states = None

    def forward(self, depth, prop):
        z = self.mix(torch.cat([self.conv(depth), prop], -1))
        z, self.hidden_states = self.rnn(z[:, None], self.hidden_states)
        return self.out(z.squeeze(1))

    def detach_hidden_states(self):
        self.hidden_states = self.hidden_states.detach().clone()


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(PROP + 16, 64), nn.ELU(), nn.Linear(64, ACT))

    def forward(self, obs, latent):
        return self.net(torch.cat([obs, latent], -1))


class ToyTerrain:
    def __init__(self):
        self.obs = torch.randn(N_ENV, PROP)

    def step(self, action):
        assert not action.requires_grad
        self.obs = 0.9 * self.obs + 0.1 * torch.randn(N_ENV, PROP)
        self.obs[:, :ACT] += 0.05 * action
        return self.obs, torch.randn(N_ENV, DEPTH)


teacher = Actor()
encoder, student = RecurrentDepthBackbone(), Actor()
opt = torch.optim.Adam(list(encoder.parameters()) + list(student.parameters()), lr=3e-3)
env = ToyTerrain()
obs, depth = env.obs.clone(), torch.randn(N_ENV, DEPTH)
losses = []
for it in range(30):
    if it > 0:
        assert encoder.hidden_states.grad_fn is None  # previous rollout is cut off
    a_s, a_t, yaw_s, yaw_t = [], [], [], []
    for _ in range(STEPS):
        out = encoder(depth, obs)
        latent, yaw = out[:, :-2], 1.5 * out[:, -2:]
        with torch.no_grad():
            a_t.append(teacher(obs, torch.zeros(N_ENV, 16)))
        obs_student = obs.clone()
        obs_student[:, 6:8] = yaw.detach()
        act = student(obs_student, latent)
        a_s.append(act)
        yaw_s.append(yaw)
        yaw_t.append(obs[:, 6:8])
        obs, depth = env.step(act.detach())
    loss = F.mse_loss(torch.cat(a_s), torch.cat(a_t)) + F.mse_loss(torch.cat(yaw_s), torch.cat(yaw_t))
    opt.zero_grad()
    loss.backward()
    if it == 0:
        assert encoder.rnn.weight_hh_l0.grad.abs().sum() > 0
        assert student.net[0].weight.grad.abs().sum() > 0
        assert all(p.grad is None for p in teacher.parameters())
    opt.step()
    encoder.detach_hidden_states()
    losses.append(loss.item())

assert sum(losses[-5:]) < sum(losses[:5])
print("ok: student distillation trains,", losses[0], "->", losses[-1])
