"""
expect: GL005 66
dynamic: confirm
source: none, invented

An offline TD3+BC-style agent (one-step, contextual-bandit version) trained from a logged dataset. The actor's
objective is a weighted list of terms: the negated critic value of the actor's action (through the shared
critic) and a behaviour-cloning MSE. `OfflineAgent.train_step` builds the critic's TD loss and the actor terms
from one pass, then updates the critic with `self.critic_opt.step()`, and only afterwards passes the actor
terms to the module-level `backprop_weighted`, which runs `(w * term).backward(retain_graph=True)` term by
term. The Q-term's graph saved the critic's weights before the critic step modified them in place, so its
backward raises "modified by an inplace operation". The asserts catch that; with `actor_after_critic=True` the
actor terms are built after the critic update and the actor converges to the high-reward action.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

S_DIM, A_DIM = 3, 1
w_true = torch.tensor([[0.8], [-0.5], [0.3]])


def best_action(s):
    return torch.tanh(s @ w_true)


def logged_dataset(n=4000):
    s = torch.randn(n, S_DIM)
    a = (best_action(s) + 0.4 * torch.randn(n, A_DIM)).clamp(-1, 1)
    r = -((a - best_action(s)) ** 2).sum(1, keepdim=True)
    return s, a, r


def backprop_weighted(terms, weights):
    for term, w in zip(terms, weights):
        (w * term).backward(retain_graph=True)


class OfflineAgent:
    def __init__(self, alpha=2.5, actor_after_critic=False):
        self.actor = nn.Sequential(nn.Linear(S_DIM, 64), nn.ReLU(), nn.Linear(64, A_DIM), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(S_DIM + A_DIM, 128), nn.ReLU(), nn.Linear(128, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.alpha = alpha
        self.actor_after_critic = actor_after_critic

    def q(self, s, a):
        return self.critic(torch.cat([s, a], 1))

    def actor_terms(self, s, a):
        pi = self.actor(s)
        q_pi = self.q(s, pi)
        lam = self.alpha / q_pi.abs().mean().detach().clamp(min=1e-3)
        return [-q_pi.mean(), F.mse_loss(pi, a)], [lam, 1.0]

    def train_step(self, s, a, r):
        critic_loss = F.mse_loss(self.q(s, a), r)
        terms, weights = self.actor_terms(s, a)

        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()

        if self.actor_after_critic:
            terms, weights = self.actor_terms(s, a)
        self.actor_opt.zero_grad()
        backprop_weighted(terms, weights)
        self.actor_opt.step()
        return critic_loss.item()


S, A, R = logged_dataset()
agent = OfflineAgent()
try:
    agent.train_step(S[:256], A[:256], R[:256])
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

torch.manual_seed(0)
agent = OfflineAgent(actor_after_critic=True)
for it in range(1500):
    idx = torch.randint(0, len(S), (256,))
    agent.train_step(S[idx], A[idx], R[idx])
with torch.no_grad():
    s_test = torch.randn(500, S_DIM)
    gap = (agent.actor(s_test) - best_action(s_test)).abs().mean().item()
assert gap < 0.15, gap
print(f"ok: pre-step actor terms hit the in-place check (as claimed); reordered actor is within {gap:.3f} of the best action")
