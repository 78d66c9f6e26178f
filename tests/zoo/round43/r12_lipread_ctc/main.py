"""
expect: GL003 main.py:30
dynamic: confirm
source: https://github.com/thenhz/elipsys_p/commit/e0c0cb7349b67a51c8f57081904d399ac22d7439

A lip-reading model (frame encoder + GRU + character head) is trained with CTC loss. To get past an autograd
error the training step feeds CTC with `log_softmax(...).detach().requires_grad_()`: the log-probabilities are
cut from the model and turned into a brand-new leaf that requires grad, so backward() runs without complaint
but stops at that leaf. The commit that introduced the line is titled "running but loss is not decreasing".
The asserts show that after backward every model parameter still has grad None and the weights do not move
after optimizer.step(), while the same step without detach/requires_grad_ gives every parameter a gradient.
"""
import torch
import torch.nn as nn

from frontend import LipReader

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, CROP, VOCAB, LABEL_LEN = 3, 12, 8, 6, 4
ctc = nn.CTCLoss(blank=0, zero_infinity=True)


def train_step(model, optimizer, videos, labels, input_len, label_len, cut=True):
    optimizer.zero_grad()
    logits = model(videos)
    per_time = logits.permute(1, 0, 2)  # (T, B, C) as CTC expects
    if cut:
        loss = ctc(per_time.log_softmax(2).detach().requires_grad_(), labels, input_len, label_len)
    else:
        loss = ctc(per_time.log_softmax(2), labels, input_len, label_len)
    loss.backward()
    optimizer.step()
    return loss.item()


videos = torch.rand(B, T, CROP, CROP)
labels = torch.randint(1, VOCAB, (B, LABEL_LEN))
input_len = torch.full((B,), T, dtype=torch.long)
label_len = torch.full((B,), LABEL_LEN, dtype=torch.long)

model = LipReader(crop=CROP, vocab=VOCAB)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
before = [p.detach().clone() for p in model.parameters()]
losses = [train_step(model, opt, videos, labels, input_len, label_len, cut=True) for _ in range(3)]
assert all(p.grad is None for p in model.parameters()), "CTC gradient never reaches the lip reader"
assert all(torch.equal(a, p) for a, p in zip(before, model.parameters())), "weights did not move"
assert losses[0] == losses[-1], losses

fixed = LipReader(crop=CROP, vocab=VOCAB)
opt2 = torch.optim.Adam(fixed.parameters(), lr=1e-2)
fixed_losses = [train_step(fixed, opt2, videos, labels, input_len, label_len, cut=False) for _ in range(20)]
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.parameters())
assert fixed_losses[-1] < fixed_losses[0]
print("cut CTC loss stays at", round(losses[-1], 4), "| attached loss", round(fixed_losses[0], 3), "->", round(fixed_losses[-1], 3))
