"""
expect: none
dynamic: dismiss
source: kind 8

A label-smoothed cross-entropy criterion for a toy token-level translation
model subclasses BaseCriterion from base.py, which defines compute_accuracy.
forward() returns (loss, logging_output), and logging_output stores
n_correct.data / total.data from the inherited compute_accuracy: integer
counts that never needed a gradient. The loss itself is returned attached, so
the trainer's backward trains the model; the asserts show the weights change,
the loss falls and the logged accuracy rises.
"""
import torch
import torch.nn as nn

from base import BaseCriterion


class LabelSmoothedCrossEntropy(BaseCriterion):
    def __init__(self, padding_idx=0, eps=0.1):
        super().__init__(padding_idx)
        self.eps = eps

    def forward(self, model, sample):
        lprobs = model(sample["src"]).log_softmax(-1)
        target = sample["tgt"]
        mask = target.ne(self.padding_idx)
        nll = -lprobs.gather(-1, target.unsqueeze(-1)).squeeze(-1)
        smooth = -lprobs.mean(-1)
        loss = ((1 - self.eps) * nll + self.eps * smooth).masked_select(mask).sum()
        n_correct, total = self.compute_accuracy(lprobs, target)
        logging_output = {
            "loss": loss.item(),
            "n_correct": n_correct.data,
            "total": total.data,
            "ntokens": int(mask.sum()),
        }
        return loss, logging_output


def make_batch(vocab=30, bsz=16, max_len=9):
    src = torch.randint(1, vocab, (bsz, max_len))
    lengths = torch.randint(3, max_len + 1, (bsz,))
    src[torch.arange(max_len) >= lengths.unsqueeze(1)] = 0
    tgt = torch.where(src > 0, (src * 7) % (vocab - 1) + 1, src)
    return {"src": src, "tgt": tgt}


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(30, 32, padding_idx=0), nn.ReLU(), nn.Linear(32, 30))
    criterion = LabelSmoothedCrossEntropy()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = model[2].weight.detach().clone()
    first = last = None
    for step in range(150):
        loss, log = criterion(model, make_batch())
        opt.zero_grad()
        (loss / log["ntokens"]).backward()
        opt.step()
        stats = criterion.reduce_metrics([log])
        first = first or (log["loss"] / log["ntokens"], stats["accuracy"])
        last = (log["loss"] / log["ntokens"], stats["accuracy"])
    assert not log["n_correct"].requires_grad and log["n_correct"].dtype == torch.int64
    assert not torch.equal(w0, model[2].weight.detach())
    assert last[0] < 0.5 * first[0] and last[1] > 0.9, (first, last)
    print("ok: criterion trains the model; logged accuracy", first[1], "->", last[1])
