"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/gtn_applications/blob/329521aafd9f7b422ad0da4ad6bee89d20109ab6/utils.py

Handwriting recognition with CTC (gtn_applications style). The CTC criterion is
evaluated outside torch: the emissions are copied out with `.detach().cpu().numpy()`,
the forward-backward runs in NumPy, and the batch loss is rebuilt with
`torch.tensor([losses[b].item() * scales[b] ...])`. Outside a custom Function that would
cut the model off from the loss; here it sits inside `torch.autograd.Function.forward`,
whose `backward` returns the NumPy-computed gradient, so autograd still reaches the
recogniser. The asserts compare the recogniser's parameter gradients with those of
torch.nn.functional.ctc_loss (same reduction) and check that training lowers the loss.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ctc_criterion import CTCLoss  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, FEAT, C = 4, 12, 10, 5  # 4 line images, 12 frames, 4 characters + blank


class LineRecognizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(FEAT, 16, batch_first=True, bidirectional=True)
        self.out = nn.Linear(32, C)

    def forward(self, x):
        h, _ = self.rnn(x)
        return F.log_softmax(self.out(h), dim=-1)  # [B, T, C]


x = torch.randn(B, T, FEAT)
targets = [torch.randint(1, C, (n,)).tolist() for n in (3, 4, 2, 3)]

model = LineRecognizer()

# gradient check against the built-in CTC (mean over label length, then batch)
lp = model(x)
loss = CTCLoss(lp, targets, 0, "mean")
model.zero_grad()
loss.backward()
ours = [p.grad.clone() for p in model.parameters()]

lp = model(x)
flat = torch.tensor(sum(targets, []))
ref = F.ctc_loss(lp.transpose(0, 1), flat, torch.full((B,), T, dtype=torch.long),
                 torch.tensor([len(t) for t in targets]), blank=0, reduction="mean")
model.zero_grad()
ref.backward()
assert torch.allclose(loss, ref, atol=1e-4), (loss.item(), ref.item())
for g, p in zip(ours, model.parameters()):
    assert g.abs().sum() > 0
    assert torch.allclose(g, p.grad, atol=1e-4), (g - p.grad).abs().max()

opt = torch.optim.Adam(model.parameters(), lr=2e-2)
losses = []
for step in range(40):
    loss = CTCLoss(model(x), targets, 0, "mean")
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.3 * losses[0], (losses[0], losses[-1])
print("ctc loss %.3f -> %.3f (gradients match F.ctc_loss)" % (losses[0], losses[-1]))
