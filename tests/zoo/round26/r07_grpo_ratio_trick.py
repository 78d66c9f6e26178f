"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/trl/issues/2769

In TRL's GRPO trainer the per-token loss is exp(logps - logps.detach()) * advantages;
the issue asked whether the ratio, always 1 in value, makes the update useless. It does
not: the detach only freezes the denominator, so the gradient of exp(l - sg(l)) is
dl, i.e. the usual policy-gradient term weighted by the group-normalised advantage.
Here a tiny token policy is trained with a GRPOTrainer-like class; the asserts check
that the loss value equals -mean(advantage) exactly, that the gradient equals that of
-(logps * advantages), and that the policy moves toward higher-reward completions.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, LEN, GROUP = 6, 5, 8


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.logits = nn.Parameter(torch.zeros(LEN, VOCAB))

    def forward(self, n):
        return self.logits.expand(n, LEN, VOCAB)


class GRPOTrainer:
    def __init__(self, model, beta=0.0):
        self.model = model
        self.beta = beta
        self.opt = torch.optim.SGD(model.parameters(), lr=1.0)

    def reward(self, completions):
        return (completions == 3).float().mean(-1)

    def per_token_logps(self, completions):
        lp = self.model(completions.shape[0]).log_softmax(-1)
        return lp.gather(-1, completions[..., None]).squeeze(-1)

    def compute_loss(self, completions):
        rewards = self.reward(completions)
        advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
        per_token_logps = self.per_token_logps(completions)
        per_token_loss = torch.exp(per_token_logps - per_token_logps.detach()) * advantages.unsqueeze(1)
        return -per_token_loss.mean(), per_token_logps, advantages

    def step(self):
        with torch.no_grad():
            dist = torch.distributions.Categorical(logits=self.model(GROUP))
            completions = dist.sample()
        loss, _, _ = self.compute_loss(completions)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


model = TinyLM()
trainer = GRPOTrainer(model)
completions = torch.randint(0, VOCAB, (GROUP, LEN))
completions[0, :] = 3
loss, logps, adv = trainer.compute_loss(completions)
assert torch.allclose(loss, -adv.mean().expand(()), atol=1e-6)
g_trick = torch.autograd.grad(loss, model.logits)[0]
ref = -(trainer.per_token_logps(completions) * adv.unsqueeze(1)).mean()
g_ref = torch.autograd.grad(ref, model.logits)[0]
assert torch.allclose(g_trick, g_ref, atol=1e-6) and g_trick.abs().sum() > 0

p_before = model.logits.softmax(-1)[:, 3].mean().item()
for _ in range(150):
    trainer.step()
p_after = model.logits.softmax(-1)[:, 3].mean().item()
assert p_after > p_before + 0.2, (p_before, p_after)
print("ok: exp(l - l.detach()) carries the policy gradient; p(token 3)", round(p_before, 2), "->", round(p_after, 2))
