"""
expect: none
dynamic: dismiss
source: https://github.com/jingyaogong/minimind/issues/617

A MiniMind user asked why the GRPO loss uses
exp(per_token_logps - per_token_logps.detach()) (new policy minus itself)
instead of new minus old; the maintainer answered with the derivative: the
value is exp(0) = 1, but the gradient is the log-prob gradient, i.e. the
on-policy (one update per batch) GRPO/REINFORCE gradient. Here a tiny
token policy is fine-tuned with that loss inside a trainer class. The asserts
show the loss value carries no information (ratio exactly 1) while its gradient
equals the explicit advantage-weighted log-prob gradient, and that the mean
reward rises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

V, L, G = 8, 4, 8        # vocab, completion length, group size


class TinyPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.pos = nn.Embedding(L, 16)
        self.head = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, V))

    def logits(self, prev_tokens):                      # (B, L) -> (B, L, V)
        return self.head(self.emb(prev_tokens) + self.pos.weight)


def reward_fn(prompts, completions):
    want = (prompts[:, None] + 1 + torch.arange(L)) % V
    return (completions == want).float().mean(1)


class GRPOTrainer:
    def __init__(self, policy, lr=0.05):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters(), lr=lr)

    @torch.no_grad()
    def generate(self, prompts, g):
        prev = prompts[:, None]
        toks = []
        for t in range(L):
            full = torch.cat([prev, torch.zeros(len(prompts), L - prev.shape[1], dtype=torch.long)], 1)
            probs = F.softmax(self.policy.logits(full)[:, t], -1)
            nxt = torch.multinomial(probs, 1, generator=g)
            toks.append(nxt)
            prev = torch.cat([prev, nxt], 1)
        return torch.cat(toks, 1), prev[:, :L]

    def per_token_logps(self, prev, completions):
        logp = F.log_softmax(self.policy.logits(prev), -1)
        return logp.gather(-1, completions[..., None]).squeeze(-1)

    def compute_loss(self, prev, completions, advantages):
        per_token_logps = self.per_token_logps(prev, completions)
        # x - x.detach(): value 1, gradient d(logp) -> on-policy GRPO with one update
        ratio = torch.exp(per_token_logps - per_token_logps.detach())
        per_token_loss = -ratio * advantages[:, None]
        return per_token_loss.mean(), ratio

    def step(self, prompts, g):
        completions, prev = self.generate(prompts, g)
        r = reward_fn(prompts, completions).view(-1, G)
        adv = ((r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + 1e-4)).view(-1)
        loss, ratio = self.compute_loss(prev, completions, adv)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return r.mean().item(), loss.item(), ratio, prev, completions, adv


if __name__ == "__main__":
    torch.manual_seed(0)
    policy = TinyPolicy()
    trainer = GRPOTrainer(policy)
    g = torch.Generator().manual_seed(0)
    prompts = torch.arange(V).repeat_interleave(G)

    # gradient check on one batch against the explicit policy-gradient surrogate
    completions, prev = trainer.generate(prompts, g)
    r = reward_fn(prompts, completions).view(-1, G)
    adv = ((r - r.mean(1, keepdim=True)) / (r.std(1, keepdim=True) + 1e-4)).view(-1)
    loss, ratio = trainer.compute_loss(prev, completions, adv)
    assert torch.allclose(ratio, torch.ones_like(ratio))
    assert abs(loss.item() + adv.mean().item()) < 1e-5     # value is just -mean(adv)
    g1 = torch.autograd.grad(loss, list(policy.parameters()))
    surrogate = -(trainer.per_token_logps(prev, completions) * adv[:, None]).mean()
    g2 = torch.autograd.grad(surrogate, list(policy.parameters()))
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(g1, g2))
    assert sum(a.abs().sum().item() for a in g1) > 0

    rewards = [trainer.step(prompts, g)[0] for _ in range(60)]
    print("mean reward first/last 10:", sum(rewards[:10]) / 10, sum(rewards[-10:]) / 10)
    assert sum(rewards[-10:]) / 10 > sum(rewards[:10]) / 10 + 0.2
    print("OK")
