"""
expect: none
dynamic: dismiss
source: https://github.com/billy-enrizky/openbrowser-ai/pull/64

Flow-GRPO style policy-gradient step for a small masked-diffusion language model.
Trajectories are sampled under @torch.no_grad() and kept only as token ids; the update
recomputes per-step log-probs with gradient, builds index tensors with
`torch.tensor(list_of_ints)` and writes each sample's log-prob into a `torch.zeros(B)`
buffer with `step_log_prob[b] = ...`. A reviewer flagged that write as cutting the
gradient, but indexed assignment into a fresh buffer is recorded (CopySlices), nothing
saved the buffer, and the index tensors are data. The program asserts the policy gets
non-zero gradients equal to those of a torch.stack formulation.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, MASK_ID, DIM = 20, 19, 32


class MaskedDenoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.pos = nn.Parameter(torch.randn(16, DIM) * 0.02)
        self.mix = nn.Sequential(nn.Linear(DIM, DIM), nn.GELU(), nn.Linear(DIM, DIM))
        self.out = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        h = self.embed(ids) + self.pos[: ids.shape[1]]
        h = h + self.mix(h.mean(dim=1, keepdim=True) + h)
        return self.out(h)


@torch.no_grad()
def sample_trajectory(model, prompt, length=6, steps=3):
    batch = prompt.shape[0]
    current = torch.full((batch, length), MASK_ID, dtype=torch.long)
    trajectory = []
    for s in range(steps):
        state = torch.cat([prompt, current], dim=1)
        logits = model(state)[:, prompt.shape[1]:]
        masked = current == MASK_ID
        conf = logits.softmax(-1).max(-1).values.masked_fill(~masked, -1.0)
        picked = conf.topk(length // steps, dim=-1).indices
        tokens = logits.argmax(-1).gather(1, picked)
        trajectory.append((state.clone(), picked.tolist(), tokens.tolist()))
        current.scatter_(1, picked, tokens)
    return trajectory


def compute_step_log_prob(model, state, positions, tokens, prompt_len):
    log_probs = F.log_softmax(model(state)[:, prompt_len:], dim=-1)
    batch = state.shape[0]
    step_log_prob = torch.zeros(batch)
    for b in range(batch):
        idx_t = torch.tensor(positions[b], dtype=torch.long)
        tok_t = torch.tensor(tokens[b], dtype=torch.long)
        step_log_prob[b] = log_probs[b, idx_t, tok_t].sum()
    return step_log_prob


def step_log_prob_stacked(model, state, positions, tokens, prompt_len):
    log_probs = F.log_softmax(model(state)[:, prompt_len:], dim=-1)
    rows = [log_probs[b, torch.tensor(positions[b]), torch.tensor(tokens[b])].sum()
            for b in range(state.shape[0])]
    return torch.stack(rows)


def policy_loss(model, trajectory, advantages, prompt_len, fn):
    total = sum(fn(model, s, p, t, prompt_len) for s, p, t in trajectory)
    return -(advantages * total).mean()


model = MaskedDenoiser()
prompt = torch.randint(0, VOCAB - 1, (4, 4))
trajectory = sample_trajectory(model, prompt)
advantages = torch.tensor([1.0, -0.5, 0.25, -0.75])

model.zero_grad()
policy_loss(model, trajectory, advantages, 4, compute_step_log_prob).backward()
grads = [p.grad.clone() for p in model.parameters()]
assert all(g.abs().sum() > 0 for g in grads)

model.zero_grad()
policy_loss(model, trajectory, advantages, 4, step_log_prob_stacked).backward()
assert all(torch.allclose(g, p.grad, atol=1e-6) for g, p in zip(grads, model.parameters()))

print("OK")
