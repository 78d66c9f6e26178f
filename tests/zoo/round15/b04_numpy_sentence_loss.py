"""
expect: GL002 40
dynamic: confirm
source: https://github.com/huggingface/transformers/issues/7130

In the thread, a custom model's forward scored generated sentences with a NumPy routine
(`eval_sentence`) and turned the NumPy result back into a tensor as the loss; a maintainer
explained that everything before the NumPy step is wiped out for autograd, which matched the
reporter's observation that the first training run did not seem to learn. This program rebuilds a
tiny language-model head whose forward computes the sentence loss in NumPy and returns
`torch.tensor(..., requires_grad=True)`. The embedding and projection weights get no gradient and do
not change after Adam steps, whereas the same loss written with torch ops trains them.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def eval_sentence(log_probs, token_ids):
    """Average negative log-likelihood of the observed tokens, in NumPy."""
    picked = np.take_along_axis(log_probs, token_ids[..., None], axis=-1)[..., 0]
    return float(-picked.mean())


class SentenceScorer(nn.Module):
    def __init__(self, vocab=25, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, vocab)

    def forward(self, input_ids, numpy_loss=True):
        logits = self.proj(torch.tanh(self.embed(input_ids[:, :-1])))
        log_probs = F.log_softmax(logits, dim=-1)
        targets = input_ids[:, 1:]
        if numpy_loss:
            score = eval_sentence(log_probs.detach().cpu().numpy(), targets.numpy())
            return torch.tensor(score, requires_grad=True)
        return -log_probs.gather(-1, targets[..., None]).mean()


def train(model, batches, numpy_loss):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for ids in batches:
        opt.zero_grad()
        loss = model(ids, numpy_loss=numpy_loss)
        loss.backward()
        opt.step()
    return loss


batches = [torch.randint(0, 25, (4, 9)) for _ in range(5)]

model = SentenceScorer()
snapshot = {n: p.detach().clone() for n, p in model.named_parameters()}
train(model, batches, numpy_loss=True)
for name, p in model.named_parameters():
    assert p.grad is None, name
    assert torch.equal(snapshot[name], p.detach()), name

torch.manual_seed(0)
ref = SentenceScorer()
ref_snapshot = {n: p.detach().clone() for n, p in ref.named_parameters()}
train(ref, batches, numpy_loss=False)
assert all(not torch.equal(ref_snapshot[n], p.detach()) for n, p in ref.named_parameters())

# Both versions report the same number, so the loss curve alone does not reveal the problem.
ids = batches[0]
assert abs(model(ids, True).item() - model(ids, False).item()) < 1e-5
print("ok: NumPy round trip leaves the scorer untrained")
