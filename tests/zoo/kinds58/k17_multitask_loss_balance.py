"""
expect: none
dynamic: dismiss
source: none, invented

A small Transformer text classifier trained with an auxiliary masked-token objective. The
trainer's scalars() helper returns the two loss values as Python floats (.item()), and balance()
turns the recent history of those floats into Dynamic Weight Average task weights (softmax of the
loss-descent rates). The floats are only used as constant coefficients of the still-attached
losses, total = w_cls * cls_loss + w_mlm * mlm_loss, and for the log, so no loss value is rebuilt
into a tensor and both losses keep their graphs. The asserts check that the weights are plain
floats, that the classifier head, the MLM head and the shared encoder all get non-zero gradients,
and that both losses go down.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, MASK_ID, SEQ = 64, 1, 16


class TinyEncoder(nn.Module):
    def __init__(self, dim=48):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, dim)
        self.pos = nn.Parameter(torch.randn(SEQ, dim) * 0.02)
        layer = nn.TransformerEncoderLayer(dim, 4, 96, dropout=0.0, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)

    def forward(self, ids):
        return self.layers(self.tok(ids) + self.pos)


class MultiTaskTrainer:
    def __init__(self, temperature=2.0):
        self.encoder = TinyEncoder()
        self.cls_head = nn.Linear(48, 2)
        self.mlm_head = nn.Linear(48, VOCAB)
        params = [*self.encoder.parameters(), *self.cls_head.parameters(), *self.mlm_head.parameters()]
        self.opt = torch.optim.AdamW(params, lr=2e-3)
        self.temperature = temperature
        self.history = []

    @staticmethod
    def scalars(cls_loss, mlm_loss):
        return cls_loss.item(), mlm_loss.item()

    def balance(self):
        if len(self.history) < 2:
            return 1.0, 1.0
        prev, prev2 = self.history[-1], self.history[-2]
        rates = [prev[k] / max(prev2[k], 1e-8) / self.temperature for k in ("cls", "mlm")]
        exps = [math.exp(r) for r in rates]
        return tuple(2.0 * e / sum(exps) for e in exps)

    def step(self, ids, labels):
        masked = ids.clone()
        pick = torch.rand(ids.shape) < 0.15
        masked[pick] = MASK_ID
        h = self.encoder(masked)
        cls_loss = F.cross_entropy(self.cls_head(h.mean(1)), labels)
        mlm_loss = F.cross_entropy(self.mlm_head(h[pick]), ids[pick])
        w_cls, w_mlm = self.balance()
        total = w_cls * cls_loss + w_mlm * mlm_loss
        self.opt.zero_grad()
        total.backward()
        self.opt.step()
        cls_value, mlm_value = self.scalars(cls_loss, mlm_loss)
        self.history.append({"cls": cls_value, "mlm": mlm_value, "w": (w_cls, w_mlm)})
        return w_cls, w_mlm


def toy_corpus(n):
    ids = torch.randint(2, VOCAB, (n, SEQ))
    labels = (ids[:, :4] > VOCAB // 2).sum(1).ge(2).long()
    ids[:, 8:] = (ids[:, :8] + 1).clamp(max=VOCAB - 1)
    return ids, labels


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    trainer = MultiTaskTrainer()
    ids, labels = toy_corpus(256)
    for i in range(120):
        weights = trainer.step(ids, labels)
        assert all(isinstance(w, float) for w in weights)
        if i == 0:
            assert trainer.cls_head.weight.grad.abs().sum() > 0
            assert trainer.mlm_head.weight.grad.abs().sum() > 0
            assert trainer.encoder.tok.weight.grad.abs().sum() > 0
    first, last = trainer.history[0], trainer.history[-1]
    assert last["cls"] < 0.7 * first["cls"], (first, last)
    assert last["mlm"] < 0.9 * first["mlm"], (first, last)
    print("multitask balance: ok, cls %.3f -> %.3f, mlm %.3f -> %.3f"
          % (first["cls"], last["cls"], first["mlm"], last["mlm"]))


if __name__ == "__main__":
    main()
