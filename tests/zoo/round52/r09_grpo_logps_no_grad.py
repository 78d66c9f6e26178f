"""
expect: GL001 50
dynamic: confirm
source: https://github.com/PrimeIntellect-ai/prime-rl/pull/67

The clipped GRPO objective used for RL fine-tuning of a language model: the policy's
per-token log-probabilities of the sampled completion are compared with the log-probs
recorded at rollout time, the ratio is clipped, and the advantage-weighted surrogate
is minimised. The linked change ("fix no propagate throw own log probs") moved the
temperature scaling and the log-prob gather under torch.no_grad() and detached the
result. Those log-probs are the only path from the objective to the policy, so the
surrogate becomes a constant: the loss has no grad_fn, backward() refuses to run,
and no policy parameter could ever get a gradient from it. The asserts show the cut
loss has no graph (backward raises, the policy's gradients stay None) while the same
objective with the log-probs left in the graph gives every policy layer a gradient
and changes the policy after one step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEQ, GROUP = 30, 24, 10, 6


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.lm_head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.embed(ids))
        return self.lm_head(h)


def token_logprobs(logits, ids):
    return torch.gather(logits.log_softmax(-1), -1, ids.unsqueeze(-1)).squeeze(-1)


def grpo_loss(logits, input_ids, advantages, old_logprobs, mask, temperature,
              epsilon=0.2, cut=True):
    input_ids, old_logprobs, mask = input_ids[:, 1:], old_logprobs[:, 1:], mask[:, 1:]
    logits = logits[:, :-1, :]
    if cut:
        with torch.no_grad():
            logps = token_logprobs(logits / temperature, input_ids).detach()
    else:
        logps = token_logprobs(logits / temperature, input_ids)
    ratio = torch.exp(logps - old_logprobs)
    clipped = torch.clamp(ratio, 1 - epsilon, 1 + epsilon)
    adv = advantages.unsqueeze(1)
    per_token = -torch.min(ratio * adv, clipped * adv)
    return (per_token * mask).sum() / mask.sum()


policy = Policy()
ids = torch.randint(0, VOCAB, (GROUP, SEQ))
mask = torch.ones(GROUP, SEQ)
rewards = torch.randn(GROUP)
advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-6)
with torch.no_grad():
    old_logprobs = F.pad(token_logprobs(policy(ids)[:, :-1] / 0.7, ids[:, 1:]), (1, 0))

opt = torch.optim.SGD(policy.parameters(), lr=0.5)
loss = grpo_loss(policy(ids), ids, advantages, old_logprobs, mask, 0.7, cut=True)
assert loss.grad_fn is None and not loss.requires_grad
try:
    loss.backward()
    raised = False
except RuntimeError:
    raised = True
assert raised
assert all(p.grad is None for p in policy.parameters())

loss_ok = grpo_loss(policy(ids), ids, advantages, old_logprobs, mask, 0.7, cut=False)
opt.zero_grad()
loss_ok.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
before = policy.lm_head.weight.detach().clone()
opt.step()
assert not torch.equal(before, policy.lm_head.weight)
print("cut log-probs: loss has grad_fn =", loss.grad_fn is not None)
print("in-graph log-probs: lm_head grad norm %.4f" % policy.lm_head.weight.grad.norm().item())
