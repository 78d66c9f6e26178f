"""
expect: GL002 46
dynamic: confirm
source: https://github.com/huggingface/transformers/issues/1648

The report modifies GPT-2's LM-head forward to add a rhyme reward: the logits are pulled out with
`.cpu().data.numpy()`, greedily decoded to text, scored by a rhyme-length metric in Python, and
the score is turned back into a tensor and added to the cross-entropy loss; the combined loss
"did not change". This program rebuilds that forward on a tiny GRU language model: the rhyme term
is a tensor rebuilt from a Python float, so it is trained through but carries no graph. The
asserts show the model gradient is identical whatever the rhyme weight beta, while a REINFORCE
surrogate of the same reward (log-probs times reward) does change the gradient.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, DIM = 30, 16


def avg_rhyme_length(token_ids):
    """Toy stand-in for the Lyrics rhyme scorer: how many line endings share a suffix class."""
    line_ends = token_ids[3::4]
    classes = [t % 5 for t in line_ends]
    return 1.0 + sum(1 for a, b in zip(classes, classes[1:]) if a == b)


class RhymeLM(nn.Module):
    def __init__(self, beta=1.0):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.lm_head = nn.Linear(DIM, VOCAB)
        self.beta = beta

    def forward(self, input_ids, labels):
        hidden, _ = self.rnn(self.emb(input_ids))
        logits = self.lm_head(hidden)
        shift_logits, shift_labels = logits[:, :-1], labels[:, 1:]
        ce = F.cross_entropy(shift_logits.reshape(-1, VOCAB), shift_labels.reshape(-1))
        all_logits = shift_logits[0].cpu().data.numpy()
        sampled = [int(np.argmax(row)) for row in all_logits]
        rl = avg_rhyme_length(sampled)
        rl_loss = torch.tensor(self.beta / rl, dtype=ce.dtype)
        return ce + rl_loss, logits


def grads(model, ids):
    loss, _ = model(ids, ids)
    return torch.cat([g.flatten() for g in torch.autograd.grad(loss, list(model.parameters()))])


ids = torch.randint(0, VOCAB, (2, 17))
model = RhymeLM(beta=1.0)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(5):
    loss, _ = model(ids, ids)
    opt.zero_grad()
    loss.backward()
    opt.step()

g_beta = grads(model, ids)
model.beta = 0.0
g_zero = grads(model, ids)
assert torch.allclose(g_beta, g_zero), "rhyme term must not change the gradient (it is a constant)"


# fixed variant: score-function surrogate keeps the reward attached to the log-probs
def surrogate_grads(model, ids, beta):
    loss, logits = model(ids, ids)
    logp = F.log_softmax(logits[0, :-1], -1)
    sampled = logp.argmax(-1)
    reward = avg_rhyme_length(sampled.tolist())
    chosen = logp.gather(1, sampled[:, None]).sum()
    total = loss - beta * reward * chosen
    return torch.cat([g.flatten() for g in torch.autograd.grad(total, list(model.parameters()))])


assert not torch.allclose(surrogate_grads(model, ids, 1.0), surrogate_grads(model, ids, 0.0))
print("p03 ok: the rhyme reward rebuilt from a Python float never trains the LM")
