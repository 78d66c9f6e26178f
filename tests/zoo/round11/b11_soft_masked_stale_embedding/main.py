"""
expect: GL005 31
dynamic: confirm
source: https://github.com/hiyoung123/SoftMaskedBert/issues/16

The report: SoftMaskedBert's loss.backward(retain_graph=True) fails on PyTorch 1.5 with "modified by
an inplace operation: [torch.FloatTensor [768]] is at version 3; expected version 2"; the fix given in
the thread is to compute the [MASK] embedding with .detach(). This program rebuilds it: model.py
computes self.mask_e once in __init__ through the embedding block (whose LayerNorm saves its weight),
every step reuses that recorded graph with retain_graph=True, and optimizer.step() between steps
updates the LayerNorm weight in place. The asserts catch the in-place RuntimeError on the second
step, and show that a detached mask embedding trains for several steps.
"""
import torch
import torch.nn.functional as F

from model import SoftMaskedCorrector


def train(model, steps=3):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    ids = torch.randint(4, 50, (4, 10))
    noisy = ids.clone()
    noisy[:, 2] = 7
    err_labels = (noisy != ids).float()
    for _ in range(steps):
        logits, p = model(noisy)
        loss = 0.8 * F.cross_entropy(logits.transpose(1, 2), ids) + 0.2 * F.binary_cross_entropy(p, err_labels)
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
    return loss.item()


torch.manual_seed(0)
model = SoftMaskedCorrector()
try:
    train(model)
    raise SystemExit("expected the in-place version error")
except RuntimeError as err:
    assert "inplace" in str(err), err
    print("caught:", str(err).split(":")[0])

torch.manual_seed(0)
fixed = SoftMaskedCorrector()
fixed.mask_e = fixed.mask_e.detach()
w0 = fixed.embeddings.norm.weight.detach().clone()
train(fixed)
assert not torch.equal(w0, fixed.embeddings.norm.weight)
print("ok: optimizer step mutated a weight saved by the once-recorded [MASK] embedding graph")
