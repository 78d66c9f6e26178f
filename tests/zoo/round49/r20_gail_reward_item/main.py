"""
expect: none
dynamic: dismiss
source: https://github.com/Khrylx/PyTorch-RL/blob/72069237b4d86bcb9675b899ea94228019a4f003/gail/gail_gym.py

Generative adversarial imitation learning on a toy 2-D reaching task. The reward the policy is trained on is
computed from the discriminator under no_grad and turned into a Python float with .item() and math.log, then the
floats are collected into a returns tensor that weights the PPO surrogate. That looks like a graph being cut and
rebuilt, but it is the algorithm: in GAIL the reward is a fixed signal for the policy-gradient step, the
discriminator is trained by its own classification loss, and the policy is trained through its log-probabilities.
The asserts show that the discriminator, the value net and the policy all receive gradients and move, and that
the discriminator loss goes down.
"""
import torch
import torch.nn as nn

from gail import Discriminator, GaussianPolicy, expert_reward, update_params

torch.manual_seed(0)
torch.set_num_threads(1)

S, A, T = 2, 2, 32
policy = GaussianPolicy(S, A)
value_net = nn.Sequential(nn.Linear(S, 32), nn.Tanh(), nn.Linear(32, 1))
discrim = Discriminator(S + A)
opt_pi = torch.optim.Adam(policy.parameters(), lr=3e-3)
opt_v = torch.optim.Adam(value_net.parameters(), lr=3e-3)
opt_d = torch.optim.Adam(discrim.parameters(), lr=3e-3)

# expert: moves straight toward the origin
expert_states = torch.randn(256, S)
expert_sa = torch.cat([expert_states, -0.5 * expert_states], 1)

start_pi = [p.detach().clone() for p in policy.parameters()]
start_d = [p.detach().clone() for p in discrim.parameters()]
d_losses = []
for it in range(30):
    s = torch.randn(1, S)
    states, actions, rewards = [], [], []
    for t in range(T):
        with torch.no_grad():
            a = policy.dist(s).sample()
        rewards.append(expert_reward(discrim, s, a))
        states.append(s[0])
        actions.append(a[0])
        s = s + 0.5 * a
    states, actions = torch.stack(states), torch.stack(actions)
    assert all(isinstance(r, float) for r in rewards)
    d_loss, _ = update_params(policy, value_net, discrim, opt_pi, opt_v, opt_d, states, actions, rewards,
                              expert_sa[torch.randint(0, 256, (T,))])
    d_losses.append(d_loss)
    assert all(p.grad is not None for p in discrim.parameters())
    assert all(p.grad is not None for p in policy.parameters())
    assert all(p.grad is not None for p in value_net.parameters())

assert all(not torch.equal(a, b) for a, b in zip(start_pi, policy.parameters()))
assert all(not torch.equal(a, b) for a, b in zip(start_d, discrim.parameters()))
assert sum(d_losses[-5:]) < sum(d_losses[:5])
print("GAIL with float rewards: discriminator loss %.3f -> %.3f, policy updated" % (d_losses[0], d_losses[-1]))
