"""Miniature DeepSpeed-Chat style PPO trainer for RLHF with actor, reference, critic and reward models."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, seq):
        h, _ = self.rnn(self.embed(seq))
        return self.head(h)


class Critic(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.v = nn.Linear(hidden, 1)

    def forward_value(self, seq):
        h, _ = self.rnn(self.embed(seq))
        return self.v(h).squeeze(-1)


class RewardModel(nn.Module):
    """Scores a sequence by how often a preferred token appears in the response."""

    def __init__(self, vocab, preferred):
        super().__init__()
        self.token_score = nn.Embedding(vocab, 1)
        with torch.no_grad():
            self.token_score.weight.fill_(-0.2)
            self.token_score.weight[preferred] = 1.0

    def forward(self, seq, prompt_len):
        return self.token_score(seq[:, prompt_len:]).squeeze(-1).mean(1)


def gather_log_probs(logits, labels):
    return F.log_softmax(logits, dim=-1).gather(-1, labels.unsqueeze(-1)).squeeze(-1)


class PPOTrainer:
    def __init__(self, actor, critic, reward_model, kl_ctl=0.05, clip=0.2, gamma=1.0, lam=0.95, lr=3e-2):
        self.actor = actor
        self.ref = copy.deepcopy(actor).eval()
        self.critic = critic
        self.reward_model = reward_model.eval()
        self.kl_ctl, self.cliprange, self.gamma, self.lam = kl_ctl, clip, gamma, lam
        self.actor_opt = torch.optim.Adam(actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(critic.parameters(), lr=lr)

    @torch.no_grad()
    def _generate(self, prompts, new_tokens):
        seq = prompts
        for _ in range(new_tokens):
            probs = F.softmax(self.actor(seq)[:, -1], dim=-1)
            seq = torch.cat([seq, torch.multinomial(probs, 1)], dim=1)
        return seq

    def generate_experience(self, prompts, new_tokens):
        seq = self._generate(prompts, new_tokens)
        mask = torch.ones_like(seq)
        with torch.no_grad():
            logits = self.actor(seq)
            logits_ref = self.ref(seq)
            reward_score = self.reward_model(seq, prompts.size(1)).detach()
            values = self.critic.forward_value(seq).detach()[:, :-1]
        return {
            "prompts": prompts,
            "logprobs": gather_log_probs(logits[:, :-1], seq[:, 1:]),
            "ref_logprobs": gather_log_probs(logits_ref[:, :-1], seq[:, 1:]),
            "value": values,
            "rewards": reward_score,
            "input_ids": seq,
            "attention_mask": mask,
        }

    def compute_rewards(self, prompts, log_probs, ref_log_probs, reward_score, action_mask):
        rewards = -self.kl_ctl * (log_probs - ref_log_probs)
        start = prompts.shape[1] - 1
        ends = start + action_mask[:, start:].sum(1) + 1
        reward_clip = torch.clamp(reward_score, -5.0, 5.0)
        for j in range(log_probs.shape[0]):
            rewards[j, start:ends[j]][-1] += reward_clip[j]
        return rewards

    def get_advantages_and_returns(self, values, rewards, start):
        lastgaelam = 0
        advantages_reversed = []
        length = rewards.size(-1)
        for t in reversed(range(start, length)):
            nextvalues = values[:, t + 1] if t < length - 1 else 0.0
            delta = rewards[:, t] + self.gamma * nextvalues - values[:, t]
            lastgaelam = delta + self.gamma * self.lam * lastgaelam
            advantages_reversed.append(lastgaelam)
        advantages = torch.stack(advantages_reversed[::-1], dim=1)
        returns = advantages + values[:, start:]
        return advantages.detach(), returns

    def actor_loss_fn(self, logprobs, old_logprobs, advantages, mask):
        ratio = torch.exp((logprobs - old_logprobs) * mask)
        pg1 = -advantages * ratio
        pg2 = -advantages * torch.clamp(ratio, 1.0 - self.cliprange, 1.0 + self.cliprange)
        return torch.sum(torch.max(pg1, pg2) * mask) / mask.sum()

    def critic_loss_fn(self, values, old_values, returns, mask):
        clipped = torch.clamp(values, old_values - 0.2, old_values + 0.2)
        loss = torch.max((values - returns) ** 2, (clipped - returns) ** 2)
        return 0.5 * torch.sum(loss * mask) / mask.sum()

    def train_rlhf(self, inputs):
        prompts = inputs["prompts"]
        log_probs = inputs["logprobs"]
        seq = inputs["input_ids"]
        values = inputs["value"]
        action_mask = inputs["attention_mask"][:, 1:]
        start = prompts.size(-1) - 1

        old_values = values
        with torch.no_grad():
            old_rewards = self.compute_rewards(prompts, log_probs, inputs["ref_logprobs"],
                                               inputs["rewards"], action_mask)
            ends = start + action_mask[:, start:].sum(1) + 1
            for i in range(old_rewards.shape[0]):
                old_rewards[i, ends[i]:] = 0
                old_values[i, ends[i]:] = 0
            advantages, returns = self.get_advantages_and_returns(old_values, old_rewards, start)

        actor_log_prob = gather_log_probs(self.actor(seq)[:, :-1], seq[:, 1:])
        actor_loss = self.actor_loss_fn(actor_log_prob[:, start:], log_probs[:, start:],
                                        advantages, action_mask[:, start:].float())
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

        value = self.critic.forward_value(seq)[:, :-1]
        critic_loss = self.critic_loss_fn(value[:, start:], old_values[:, start:], returns,
                                          action_mask[:, start:].float())
        self.critic_opt.zero_grad()
        critic_loss.backward()
        self.critic_opt.step()
        return actor_loss.item(), critic_loss.item()
