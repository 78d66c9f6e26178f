"""expect: GL002 54
dynamic: confirm
source: https://github.com/isayev/ReLeaSE/issues/39

Policy-gradient fine-tuning of a character-level SMILES generator against a reward model.
To dodge a device error the per-step term is written with `log_prob.item()`, so the loss is
a Python float; it is then rebuilt with torch.tensor(..., requires_grad=True) so backward()
runs, but the generator's weights get no gradient and never change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = "<>CNOc1()=#"
GAMMA = 0.97


class SmilesGenerator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.embed = nn.Embedding(len(VOCAB), hidden)
        self.gru = nn.GRUCell(hidden, hidden)
        self.out = nn.Linear(hidden, len(VOCAB))

    def step(self, token, h):
        h = self.gru(self.embed(token), h)
        return F.log_softmax(self.out(h), dim=-1), h


def reward_fn(chars):
    return sum(c in "cN" for c in chars) / max(len(chars), 1)


torch.manual_seed(0)
gen = SmilesGenerator()
opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
snapshot = [p.detach().clone() for p in gen.parameters()]

for it in range(5):
    token, h = torch.tensor([0]), torch.zeros(1, 32)
    chosen_log_probs, chars = [], []
    for _ in range(12):
        log_probs, h = gen.step(token, h)
        top_i = torch.multinomial(log_probs.exp(), 1).item()
        chosen_log_probs.append(log_probs[0, top_i])
        chars.append(VOCAB[top_i])
        token = torch.tensor([top_i])

    discounted_reward = reward_fn(chars)
    rl_loss = 0.0
    for lp in reversed(chosen_log_probs):
        rl_loss -= lp.item() * discounted_reward
        discounted_reward *= GAMMA
    rl_loss = torch.tensor(rl_loss, requires_grad=True)

    opt.zero_grad()
    rl_loss.backward()
    opt.step()

assert all(p.grad is None for p in gen.parameters())
assert all(torch.equal(a, b) for a, b in zip(snapshot, gen.parameters()))
print("ok: generator never trained")
