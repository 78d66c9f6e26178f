"""
expect: GL002 46
dynamic: confirm
source: https://github.com/jahedamine/RLHF_Agent/blob/HEAD/ppo_loop.py

A toy RLHF "PPO" loop: the policy samples a response, a frozen reward model
returns reward.item() as a Python float, and the trainer turns it back into a
loss with -torch.tensor(reward, requires_grad=True). That fresh leaf has no link
to the policy's log-probabilities, so backward fills nothing and step() changes
nothing. The asserts show every policy parameter is unchanged (grads None) after
the loop, while a REINFORCE loss built from the sampled log-probs moves them.
"""
import torch
import torch.nn as nn
from reward_model import RewardModel

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB = 12


class TinyPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 16)
        self.out = nn.Linear(16, VOCAB)

    def generate(self, prompt_ids, n_new=4):
        ids, logps = prompt_ids, []
        for _ in range(n_new):
            logits = self.out(self.embed(ids).mean(0))
            dist = torch.distributions.Categorical(logits=logits)
            tok = dist.sample()
            logps.append(dist.log_prob(tok))
            ids = torch.cat([ids, tok.view(1)])
        return ids[len(prompt_ids):], torch.stack(logps)


def ppo_loop(policy, reward_model, prompts, steps=3):
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for _ in range(steps):
        for prompt in prompts:
            response, _ = policy.generate(prompt)
            reward = reward_model.score(prompt, response)
            loss = -torch.tensor(reward, requires_grad=True)
            loss.backward()
            opt.step()
            opt.zero_grad()


def reinforce_loop(policy, reward_model, prompts, steps=3):
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for _ in range(steps):
        for prompt in prompts:
            response, logps = policy.generate(prompt)
            reward = reward_model.score(prompt, response)
            loss = -(reward * logps.sum())
            loss.backward()
            opt.step()
            opt.zero_grad()


prompts = [torch.randint(0, VOCAB, (3,)) for _ in range(4)]
rm = RewardModel(VOCAB)

policy = TinyPolicy()
before = [p.detach().clone() for p in policy.parameters()]
ppo_loop(policy, rm, prompts)
for b, p in zip(before, policy.parameters()):
    assert p.grad is None
    assert torch.equal(b, p.detach()), "policy moved without a gradient path?"

fixed = TinyPolicy()
fixed.load_state_dict({k: v for k, v in zip(fixed.state_dict(), before)})
reinforce_loop(fixed, rm, prompts)
assert any(not torch.equal(b, p.detach()) for b, p in zip(before, fixed.parameters()))
print("ok: rebuilt reward leaf trains nothing; log-prob loss trains the policy")
