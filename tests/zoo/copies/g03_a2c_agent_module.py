"""expect: GL002 51
dynamic: confirm
source: https://github.com/lijunfeng99/CS5446Project/blob/1a6b89dd4f360a79f4967954c56bcc89256c6b05/utilis/A2C_agent.py

An advantage actor-critic agent is an nn.Module holding an actor and a critic. During an episode
it appends each step's log-probability and value to lists; at the end it builds the returns and
the loss actor_term + 0.5 * critic_term - 0.001 * entropy. The log-probabilities are turned into
a tensor with torch.tensor(), which copies them into a leaf with no history, so the policy-
gradient term no longer depends on the actor. The critic term and the entropy bonus still
backpropagate, so the optimizer steps and training appears to run, but the actor only ever
sees the tiny entropy gradient, never the policy gradient.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCriticAgent(nn.Module):
    def __init__(self, n_obs=6, n_act=3, gamma=0.99):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, n_act))
        self.critic = nn.Sequential(nn.Linear(n_obs, 32), nn.ReLU(), nn.Linear(32, 1))
        self.gamma = gamma
        self.opt = torch.optim.Adam(self.parameters(), lr=1e-2)

    def forward(self, obs):
        return Categorical(logits=self.actor(obs)), self.critic(obs)

    def discounted(self, bootstrap, rewards, masks):
        running, out = bootstrap, []
        for r, m in zip(reversed(rewards), reversed(masks)):
            running = r + self.gamma * running * m
            out.insert(0, running)
        return out

    def run_episode(self, steps=8):
        log_probs, values, rewards, masks = [], [], [], []
        entropy = 0
        obs = torch.randn(6)
        for t in range(steps):
            dist, value = self(obs)
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            entropy = entropy + dist.entropy()
            values.append(value)
            rewards.append(float(action.item() == 1))
            masks.append(0.0 if t == steps - 1 else 1.0)
            obs = torch.randn(6)
        _, last_value = self(obs)
        returns = torch.cat(self.discounted(last_value, rewards, masks)).detach()
        lp = torch.tensor(log_probs)
        values = torch.cat(values)
        advantage = returns - values
        actor_term = -(lp * advantage).mean()
        critic_term = advantage.pow(2).mean()
        loss = actor_term + 0.5 * critic_term - 0.001 * entropy
        self.opt.zero_grad()
        loss.backward()
        grads = {n: (p.grad.clone() if p.grad is not None else None) for n, p in self.named_parameters()}
        self.opt.step()
        return lp, grads


torch.manual_seed(0)
agent = ActorCriticAgent()
copied_log_probs, grads = agent.run_episode()

print("copied log-probs requires_grad:", copied_log_probs.requires_grad)
print("max |grad| on actor output layer:", grads["actor.2.weight"].abs().max().item())
assert not copied_log_probs.requires_grad and copied_log_probs.grad_fn is None
assert grads["critic.2.weight"].abs().sum() > 0
# Only the tiny entropy bonus reaches the actor; the policy-gradient signal is gone.
assert grads["actor.2.weight"].abs().max() < 1e-2
print("the actor only sees the entropy bonus; the policy gradient is lost")
