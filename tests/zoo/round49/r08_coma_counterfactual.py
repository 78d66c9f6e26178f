"""
expect: none
dynamic: dismiss
source: https://github.com/Bigpig4396/PyTorch-Counterfactual-Multi-Agent-Policy-Gradients-COMA/blob/master/COMA2.py

A two-agent COMA learner: a centralised critic outputs Q for every joint action, each actor is
trained with a counterfactual advantage. Several lines look like cut or broken autograd records but
are deliberate. The TD targets are written in place, row by row, into a clone of the critic output
(each row reads the next row, whose values a multiplication has saved), and the target is then
used only through .detach(), so nothing backpropagates through those edits. The joint policy is
assembled by assigning products of the two agents' probabilities into a zeros tensor. The
counterfactual baseline is filled element by element into another zeros tensor, and the advantage
is turned into a Python float with .item() before it scales the log-probability: the advantage
must be a constant in the policy gradient and the actor loss must not train the critic. The
asserts check that the critic gradient equals the one from a separately computed target, that each
actor gradient equals the REINFORCE gradient with a detached advantage, that the actor losses give
the critic no gradient, and that the critic ranks the rewarded joint action first while both
actors learn to coordinate.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical

torch.manual_seed(0)
torch.set_num_threads(1)
N_ACTION, OBS, T, GAMMA = 3, 4, 6, 0.9


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(OBS, 16), nn.ReLU(), nn.Linear(16, N_ACTION))

    def get_action(self, obs):
        probs = F.softmax(self.net(obs), dim=1)
        return Categorical(probs.squeeze(0)).sample().item(), probs


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * OBS, 32), nn.ReLU(), nn.Linear(32, N_ACTION * N_ACTION))

    def forward(self, o1, o2):
        return self.net(torch.cat([o1, o2], dim=1))


def cross_prod(pi_a1, pi_a2):
    new_pi = torch.zeros(1, N_ACTION * N_ACTION)
    for i in range(N_ACTION):
        for j in range(N_ACTION):
            new_pi[0, i * N_ACTION + j] = pi_a1[0, i] * pi_a2[0, j]
    return new_pi


def rollout(actor1, actor2):
    o1s, o2s, a1s, a2s, p1s, p2s, rs = [], [], [], [], [], [], []
    for _ in range(T):
        o1, o2 = torch.randn(1, OBS), torch.randn(1, OBS)
        a1, p1 = actor1.get_action(o1)
        a2, p2 = actor2.get_action(o2)
        rs.append(1.0 if a1 == a2 == 1 else (0.2 if a1 == a2 else 0.0))
        for lst, v in zip((o1s, o2s, a1s, a2s, p1s, p2s), (o1, o2, a1, a2, p1, p2)):
            lst.append(v)
    return torch.cat(o1s), torch.cat(o2s), a1s, a2s, p1s, p2s, rs


def critic_target(Q, a1s, a2s, p1s, p2s, rs):
    Q_est = Q.clone()
    for t in range(T - 1):
        a_index = a1s[t] * N_ACTION + a2s[t]
        Q_est[t][a_index] = rs[t] + GAMMA * torch.sum(cross_prod(p1s[t + 1], p2s[t + 1]) * Q_est[t + 1, :])
    Q_est[T - 1][a1s[T - 1] * N_ACTION + a2s[T - 1]] = rs[T - 1]
    return Q_est


def reference_target(Q, a1s, a2s, p1s, p2s, rs):
    with torch.no_grad():
        target = Q.detach().clone()
        for t in range(T - 1):
            joint = torch.outer(p1s[t + 1][0], p2s[t + 1][0]).reshape(-1)
            target[t, a1s[t] * N_ACTION + a2s[t]] = rs[t] + GAMMA * (joint * target[t + 1]).sum()
        target[T - 1, a1s[T - 1] * N_ACTION + a2s[T - 1]] = rs[T - 1]
    return target


def advantages(Q, a1s, a2s, p1s, p2s, agent):
    out = []
    for t in range(T):
        temp_Q = torch.zeros(1, N_ACTION)
        for a in range(N_ACTION):
            idx = a * N_ACTION + a2s[t] if agent == 1 else a1s[t] * N_ACTION + a
            temp_Q[0, a] = Q[t][idx]
        pi = p1s[t] if agent == 1 else p2s[t]
        out.append(Q[t, a1s[t] * N_ACTION + a2s[t]] - torch.sum(pi * temp_Q))
    return out


def actor_loss(A_list, p_list, a_list):
    loss = torch.FloatTensor([0.0])
    for t in range(T):
        loss = loss + A_list[t].item() * torch.log(p_list[t][0, a_list[t]])
    return -loss / T


actor1, actor2, critic = Actor(), Actor(), Critic()
opt_a1 = torch.optim.Adam(actor1.parameters(), lr=1e-2)
opt_a2 = torch.optim.Adam(actor2.parameters(), lr=1e-2)
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-2)
checked, c_losses, returns = False, [], []

for episode in range(150):
    o1, o2, a1s, a2s, p1s, p2s, rs = rollout(actor1, actor2)
    returns.append(sum(rs))
    Q = critic(o1, o2)
    Q_est = critic_target(Q, a1s, a2s, p1s, p2s, rs)
    c_loss = F.mse_loss(Q, Q_est.detach())
    if not checked:
        ref = F.mse_loss(Q, reference_target(Q, a1s, a2s, p1s, p2s, rs))
        g_ours = torch.autograd.grad(c_loss, list(critic.parameters()), retain_graph=True)
        g_ref = torch.autograd.grad(ref, list(critic.parameters()), retain_graph=True)
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g_ours, g_ref))
    opt_c.zero_grad()
    c_loss.backward()
    opt_c.step()
    c_losses.append(c_loss.item())

    A1 = advantages(Q, a1s, a2s, p1s, p2s, agent=1)
    A2 = advantages(Q, a1s, a2s, p1s, p2s, agent=2)
    l1 = actor_loss(A1, p1s, a1s)
    l2 = actor_loss(A2, p2s, a2s)
    if not checked:
        ref1 = -sum(A1[t].detach() * torch.log(p1s[t][0, a1s[t]]) for t in range(T)) / T
        g1 = torch.autograd.grad(l1, list(actor1.parameters()), retain_graph=True)
        g1_ref = torch.autograd.grad(ref1, list(actor1.parameters()), retain_graph=True)
        assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, g1_ref))
        assert any(g.abs().sum() > 0 for g in g1)
        g_critic = torch.autograd.grad(l1 + l2, list(critic.parameters()), retain_graph=True, allow_unused=True)
        assert all(g is None for g in g_critic)
        checked = True
    opt_a1.zero_grad()
    l1.backward()
    opt_a1.step()
    opt_a2.zero_grad()
    l2.backward()
    opt_a2.step()

early, late = sum(returns[:30]) / 30, sum(returns[-30:]) / 30
with torch.no_grad():
    q_mean = critic(torch.randn(256, OBS), torch.randn(256, OBS)).mean(0)
best_joint = int(q_mean.argmax())
print(f"mean return {early:.2f} -> {late:.2f}; critic's best joint action = {divmod(best_joint, N_ACTION)}")
assert late > early
assert best_joint == 1 * N_ACTION + 1
