"""
expect: none
dynamic: dismiss
source: https://github.com/nikhilbarhate99/PPO-PyTorch/issues/35

PPO update for a continuous-action actor-critic with separate actor and
critic networks. The advantage is formed from state_values.detach(), which a
reader may take to mean the critic is cut off and never trained. It is not:
the detached copy is used only inside the clipped surrogate, while the same
loss also carries 0.5 * MSE(state_values, rewards) on the undetached values.
The critic's gradient is exactly the gradient of that MSE term, its weights
change on every step, the value loss falls over the K epochs, and the actor
is still driven by the surrogate.
"""
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
torch.set_num_threads(1)

S_DIM, A_DIM, N, K_EPOCHS, EPS = 5, 2, 64, 20, 0.2


class ActorCritic(nn.Module):
    def __init__(self, action_std=0.5):
        super().__init__()
        self.L0, self.L1 = nn.Linear(64, 32), nn.Linear(64, 32)
        self.network_act = nn.Sequential(nn.Linear(S_DIM, 64), nn.Tanh(), self.L0, nn.Tanh(), nn.Linear(32, A_DIM), nn.Tanh())
        self.network_critic = nn.Sequential(nn.Linear(S_DIM, 64), nn.Tanh(), self.L1, nn.Tanh(), nn.Linear(32, 1))
        self.action_var = torch.full((A_DIM,), action_std ** 2)

    def evaluate(self, state, action):
        mean = self.network_act(state)
        dist = MultivariateNormal(mean, torch.diag_embed(self.action_var.expand_as(mean)))
        return dist.log_prob(action), self.network_critic(state), dist.entropy()


policy = ActorCritic()
policy_old = ActorCritic()
policy_old.load_state_dict(policy.state_dict())
optimizer = torch.optim.Adam(policy.parameters(), lr=3e-3)
mse = nn.MSELoss()

old_states = torch.randn(N, S_DIM)
with torch.no_grad():
    mean = policy_old.network_act(old_states)
    dist = MultivariateNormal(mean, torch.diag_embed(policy_old.action_var.expand_as(mean)))
    old_actions = dist.sample()
    old_logprobs = dist.log_prob(old_actions)
rewards = -((old_actions - old_states[:, :A_DIM].clamp(-1, 1)) ** 2).sum(1) + old_states[:, 2]
rewards = (rewards - rewards.mean()) / (rewards.std() + 1e-5)

critic_params = list(policy.network_critic.parameters())
actor_params = list(policy.network_act.parameters())
L1_before = policy.L1.weight.detach().clone()
value_losses = []
for k in range(K_EPOCHS):
    logprobs, state_values, dist_entropy = policy.evaluate(old_states, old_actions)
    state_values = torch.squeeze(state_values)
    ratios = torch.exp(logprobs - old_logprobs.detach())
    advantages = rewards - state_values.detach()
    surr1 = ratios * advantages
    surr2 = torch.clamp(ratios, 1 - EPS, 1 + EPS) * advantages
    loss = -torch.min(surr1, surr2) + 0.5 * mse(state_values, rewards) - 0.01 * dist_entropy
    if k == 0:
        g_total = torch.autograd.grad(loss.mean(), critic_params, retain_graph=True)
        g_mse = torch.autograd.grad(0.5 * mse(state_values, rewards), critic_params, retain_graph=True)
        assert all(torch.allclose(a, b, atol=1e-7) for a, b in zip(g_total, g_mse))
        assert all(g.abs().sum() > 0 for g in g_total)
    optimizer.zero_grad()
    loss.mean().backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in actor_params)
    optimizer.step()
    value_losses.append(mse(state_values, rewards).item())

policy_old.load_state_dict(policy.state_dict())
assert not torch.equal(L1_before, policy.L1.weight)
assert value_losses[-1] < 0.8 * value_losses[0]
print(f"critic trained through the MSE term: value loss {value_losses[0]:.3f} -> {value_losses[-1]:.3f}")
