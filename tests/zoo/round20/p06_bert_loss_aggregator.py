"""
expect: GL002 43
dynamic: confirm
source: https://github.com/NVIDIA-NeMo/Speech/pull/152

A toolkit's LossAggregator neural module summed several losses as `loss = values[0]` followed by
`loss = loss.add(loss_i.item())` for the others; the PR calls it "not differentiable" and says it
prevented BERT pretraining. Every loss after the first becomes a Python float, so the total still
prints the right value but only the first loss trains anything. This program pretrains a tiny
BERT-like encoder with a masked-LM head and a next-sentence head through such an aggregator and
asserts the NSP head never gets a gradient and the encoder gradient equals the MLM-only one,
while the tensor-only sum trains both heads.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, HID, SEQ = 50, 32, 12


class LossNM(nn.Module):
    def forward(self, **kwargs):
        return self._loss_function(**kwargs)


class MaskedLMLoss(LossNM):
    def _loss_function(self, logits, labels, mask):
        return F.cross_entropy(logits[mask], labels[mask])


class NSPLoss(LossNM):
    def _loss_function(self, logits, labels):
        return F.cross_entropy(logits, labels)


class LossAggregator(LossNM):
    def _loss_function(self, **kwargs):
        values = [kwargs[k] for k in sorted(kwargs.keys())]
        loss = values[0]
        for loss_i in values[1:]:
            loss = loss.add(loss_i.item())
        return loss


class TensorAggregator(LossNM):
    def _loss_function(self, **kwargs):
        return torch.stack([kwargs[k] for k in sorted(kwargs.keys())]).sum()


class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, HID)
        self.enc = nn.Sequential(nn.Linear(HID, HID), nn.GELU(), nn.Linear(HID, HID))
        self.mlm_head = nn.Linear(HID, VOCAB)
        self.nsp_head = nn.Linear(HID, 2)

    def forward(self, ids):
        h = self.enc(self.emb(ids))
        return self.mlm_head(h), self.nsp_head(h[:, 0])


def step(agg, use_nsp=True):
    torch.manual_seed(7)
    model = TinyBert()
    ids = torch.randint(0, VOCAB, (8, SEQ))
    mask = torch.rand(8, SEQ) < 0.3
    mask[:, 1] = True
    nsp_labels = torch.randint(0, 2, (8,))
    mlm_logits, nsp_logits = model(ids)
    losses = {"loss_1": MaskedLMLoss()(logits=mlm_logits, labels=ids, mask=mask)}
    if use_nsp:
        losses["loss_2"] = NSPLoss()(logits=nsp_logits, labels=nsp_labels)
    total = agg(**losses)
    total.backward()
    return model, total


model, total = step(LossAggregator())
mlm_only, mlm_total = step(TensorAggregator(), use_nsp=False)
print(f"reported: total={total.item():.3f} (MLM alone {mlm_total.item():.3f}) nsp grad={model.nsp_head.weight.grad}")
assert total.item() > mlm_total.item() + 0.1, "the NSP value is in the printed total"
assert model.nsp_head.weight.grad is None, "but the NSP head gets no gradient"
assert torch.allclose(model.enc[0].weight.grad, mlm_only.enc[0].weight.grad), "encoder sees MLM only"

fixed, _ = step(TensorAggregator())
assert fixed.nsp_head.weight.grad is not None and fixed.nsp_head.weight.grad.abs().sum() > 0
assert not torch.allclose(fixed.enc[0].weight.grad, mlm_only.enc[0].weight.grad)
print("fixed: NSP head and encoder receive the NSP gradient")
print("OK")
