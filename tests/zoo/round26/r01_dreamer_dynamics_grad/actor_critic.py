"""Actor-critic head of a Dreamer-style agent, trained on imagined rollouts."""
import torch
import torch.nn as nn


def mlp(inp, out, hidden=32):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ELU(), nn.Linear(hidden, out))


class ActorCritic(nn.Module):
    def __init__(self, feat_dim, act_dim, gamma=0.99, lam=0.95,
                 entropy_weight=1e-3, actor_grad="dynamics"):
        super().__init__()
        self.actor = mlp(feat_dim, 2 * act_dim)
        self.critic = mlp(feat_dim, 1)
        self.critic_target = mlp(feat_dim, 1)
        self.critic_target.load_state_dict(self.critic.state_dict())
        for p in self.critic_target.parameters():
            p.requires_grad_(False)
        self.gamma = gamma
        self.lam = lam
        self.entropy_weight = entropy_weight
        self.actor_grad = actor_grad

    def act(self, feat):
        mean, log_std = self.actor(feat).chunk(2, dim=-1)
        log_std = log_std.clamp(-5.0, 2.0)
        noise = torch.randn_like(mean)
        action = torch.tanh(mean + log_std.exp() * noise)
        logprob = (-0.5 * noise.pow(2) - log_std).sum(-1)
        entropy = log_std.sum(-1)
        return action, logprob, entropy

    def lambda_return(self, rewards, values):
        out, last = [], values[-1]
        for t in reversed(range(rewards.shape[0])):
            last = rewards[t] + self.gamma * ((1 - self.lam) * values[t + 1] + self.lam * last)
            out.append(last)
        return torch.stack(out[::-1])

    def targets(self, feats, rewards):
        with torch.no_grad():
            value_t = self.critic_target(feats).squeeze(-1)
            target = self.lambda_return(rewards, value_t)
            advantage = target - value_t[:-1]
        return target, advantage

    def training_step(self, feats, rewards, logprobs, entropies):
        """feats [H+1,B,F] imagined states; rewards, logprobs, entropies [H,B]."""
        value = self.critic(feats[:-1].detach()).squeeze(-1)
        target, advantage = self.targets(feats, rewards)
        if self.actor_grad == "dynamics":
            loss_policy = -target
        else:
            loss_policy = -logprobs * advantage
        loss_actor = loss_policy.mean() - self.entropy_weight * entropies.mean()
        loss_critic = 0.5 * (value - target).pow(2).mean()
        return loss_actor, loss_critic
