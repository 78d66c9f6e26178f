"""
expect: GL002 68
dynamic: confirm
source: https://github.com/ZiyuGuo99/Image-Generation-CoT/issues/22

In this text-to-image DPO trainer the total loss is DPO + reward_coef * reward_loss,
where reward_loss asks a VLM judge whether freshly generated images match the prompt.
The images are sampled under no_grad, decoded, turned into uint8 arrays for the judge,
and the judge's per-prompt probabilities are collected in a list and rebuilt with
torch.tensor(...). The issue points out this term cannot update any model. Here the
same structure (policy over image tokens, frozen VQ decoder, Judge in reward.py) is
trained a few steps; the asserts show reward_loss has no graph and that the policy
gradient is identical with reward_coef 0 and 1, so the reward term is inert.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from reward import Judge

torch.manual_seed(0)
torch.set_num_threads(1)
N_PROMPTS, SEQ, VOCAB, BETA = 4, 16, 12, 0.1


class TokenPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.prompt_emb = nn.Embedding(N_PROMPTS, 32)
        self.pos = nn.Parameter(torch.randn(SEQ, 32) * 0.1)
        self.out = nn.Linear(32, VOCAB)

    def forward(self, prompt_ids):
        h = self.prompt_emb(prompt_ids)[:, None, :] + self.pos[None]
        return self.out(torch.tanh(h))             # [B, SEQ, VOCAB]

    def logp(self, prompt_ids, tokens):
        lp = self(prompt_ids).log_softmax(-1)
        return lp.gather(-1, tokens[..., None]).squeeze(-1).sum(-1)


codebook = torch.rand(VOCAB, 3)                  # frozen "VQ decoder"


def decode(tokens):
    img = codebook[tokens].view(-1, 4, 4, 3)
    return (img.clamp(0, 1) * 255).numpy().astype(np.uint8)


policy, ref = TokenPolicy(), TokenPolicy()
ref.load_state_dict(policy.state_dict())
judge = Judge(N_PROMPTS)
opt = torch.optim.AdamW(policy.parameters(), lr=1e-3)


def compute_loss(prompts, chosen, rejected, reward_coef):
    pi = policy.logp(prompts, chosen) - policy.logp(prompts, rejected)
    with torch.no_grad():
        rf = ref.logp(prompts, chosen) - ref.logp(prompts, rejected)
    dpo = -F.logsigmoid(BETA * (pi - rf)).mean()
    with torch.no_grad():
        sampled = torch.distributions.Categorical(logits=policy(prompts)).sample()
    images = decode(sampled)
    reward_loss = []
    for i, p in enumerate(prompts.tolist()):
        reward_loss.append(judge.yes_probability(images[i], p))
    reward_loss = -torch.log(torch.clamp(torch.tensor(reward_loss), min=1e-7))
    return dpo + reward_coef * reward_loss.mean(), reward_loss


def grads(loss):
    policy.zero_grad()
    loss.backward()
    return [p.grad.clone() for p in policy.parameters()]


for step in range(4):
    prompts = torch.randint(0, N_PROMPTS, (8,))
    chosen, rejected = torch.randint(0, VOCAB, (2, 8, SEQ))
    loss, _ = compute_loss(prompts, chosen, rejected, reward_coef=1.0)
    opt.zero_grad()
    loss.backward()
    opt.step()

prompts = torch.randint(0, N_PROMPTS, (8,))
chosen, rejected = torch.randint(0, VOCAB, (2, 8, SEQ))
torch.manual_seed(7)
loss1, reward_loss = compute_loss(prompts, chosen, rejected, reward_coef=1.0)
torch.manual_seed(7)
loss0, _ = compute_loss(prompts, chosen, rejected, reward_coef=0.0)
assert not reward_loss.requires_grad and reward_loss.grad_fn is None
assert abs(loss1.item() - loss0.item()) > 1e-3       # the term changes the logged loss...
for a, b in zip(grads(loss1), grads(loss0)):
    assert torch.allclose(a, b)                      # ...but not a single gradient
print("ok: judge reward term is a constant; update identical with coef 0 or 1")
