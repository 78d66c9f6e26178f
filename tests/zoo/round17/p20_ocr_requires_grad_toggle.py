"""
expect: none
dynamic: dismiss
source: https://github.com/clovaai/deep-text-recognition-benchmark/issues/47

clovaai/deep-text-recognition-benchmark issue #47 ("requires_grad"): a reader pointed out that
train.py/test.py switch requires_grad off and back on for the model parameters by hand around
validation instead of using torch.no_grad(); the maintainer agreed it was unnecessary and tidied it,
noting everything worked fine. Flipping requires_grad back to True here is done on leaf parameters,
not on a tensor that lost its history, so training resumes normally. This program rebuilds a tiny
CRNN text recogniser trained with CTC that freezes its parameters with requires_grad = False for
each validation pass and re-enables them afterwards, and asserts the validation outputs carry no
graph, every parameter gets a gradient again after validation, and the CTC loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_CLASSES = 6  # blank + 5 characters


class CRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)))
        self.rnn = nn.GRU(16 * 4, 32, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(64, N_CLASSES)

    def forward(self, img):                     # img: (B, 1, 8, W)
        f = self.cnn(img)                       # (B, 16, 4, W)
        f = f.permute(0, 3, 1, 2).flatten(2)    # (B, W, 64)
        return self.fc(self.rnn(f)[0]).log_softmax(-1)


def render(labels, width=16):
    """Draw each character as a column pattern; label k lights row k."""
    img = torch.zeros(len(labels), 1, 8, width)
    for b, seq in enumerate(labels):
        for i, ch in enumerate(seq):
            img[b, 0, ch, 3 * i + 1: 3 * i + 3] = 1.0
    return img + 0.05 * torch.randn_like(img)


def batch(gen, size=16):
    labels = torch.randint(1, N_CLASSES, (size, 4), generator=gen)
    return render(labels.tolist()), labels


def validation(model, gen):
    for p in model.parameters():
        p.requires_grad = False
    img, labels = batch(gen)
    log_probs = model(img)
    assert log_probs.grad_fn is None
    acc = (log_probs.argmax(-1) != 0).float().mean().item()
    for p in model.parameters():
        p.requires_grad = True
    return acc


torch.manual_seed(0)
model = CRNN()
ctc = nn.CTCLoss(blank=0)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
gen = torch.Generator().manual_seed(0)
losses = []
for it in range(60):
    img, labels = batch(gen)
    log_probs = model(img).transpose(0, 1)     # (T, B, C) for CTC
    loss = ctc(log_probs, labels, torch.full((16,), 16, dtype=torch.long), torch.full((16,), 4, dtype=torch.long))
    opt.zero_grad()
    loss.backward()
    if it > 0 and it % 10 == 1:                # first step after a validation pass
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
    opt.step()
    losses.append(loss.item())
    if it % 10 == 0:
        validation(model, gen)

assert sum(losses[-5:]) / 5 < 0.6 * sum(losses[:5]) / 5, (losses[:3], losses[-3:])
print("p20 ok: toggling requires_grad on parameters around validation leaves training intact")
