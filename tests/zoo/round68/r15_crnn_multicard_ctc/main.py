"""
expect: GL001 function.py:6, GL003 function.py:23
dynamic: confirm
source: https://github.com/Sierkinhane/CRNN_Chinese_Characters_Rec/issues/317

OCR text-line recognition with a CRNN and CTC loss. For multi-card ("8P")
training the batch is split over the cards and the per-card CTC outputs are
merged on the host by gather_outputs(), which detaches each chunk before the
concatenation. The CTC loss built from the merged outputs then has no history,
backward() raises "element 0 of tensors does not require grad", and, as in the
report, loss.requires_grad_(True) was added to make it run; it runs, but the loss
never goes down because no gradient reaches the CRNN. The asserts show that on
the default multi-card path every CRNN parameter keeps grad None and stays
unchanged while the loss stays flat, and that merging the outputs without
detaching (the fix) gives non-zero gradients and a falling CTC loss.
"""
import torch
import torch.nn as nn

import function
from function import train_one_epoch

torch.manual_seed(0)
torch.set_num_threads(1)

ALPHABET = "0123456789"
H, W = 16, 32


class CRNN(nn.Module):
    def __init__(self, nclass=len(ALPHABET) + 1, nh=32):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(True), nn.MaxPool2d(2, 2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(True), nn.MaxPool2d((2, 1), (2, 1)),
            nn.Conv2d(32, 32, (4, 1)), nn.ReLU(True))
        self.rnn = nn.LSTM(32, nh, bidirectional=True)
        self.embedding = nn.Linear(nh * 2, nclass)

    def forward(self, x):
        conv = self.cnn(x).squeeze(2).permute(2, 0, 1)  # (T, B, C)
        rec, _ = self.rnn(conv)
        return self.embedding(rec).log_softmax(2)


class LabelConverter:
    def __init__(self, alphabet):
        self.index = {c: i + 1 for i, c in enumerate(alphabet)}

    def encode(self, labels):
        length = torch.tensor([len(s) for s in labels], dtype=torch.long)
        text = torch.tensor([self.index[c] for s in labels for c in s], dtype=torch.long)
        return text, length


def make_loader(n_batches=4, bs=8):
    g = torch.Generator().manual_seed(1)
    data = []
    for _ in range(n_batches):
        digits = torch.randint(0, 10, (bs, 3), generator=g)
        img = torch.zeros(bs, 1, H, W)
        for b in range(bs):
            for k in range(3):
                d = digits[b, k].item()
                img[b, 0, d:d + 6, k * 10 + 2:k * 10 + 8] = 1.0
        labels = ["".join(str(d.item()) for d in row) for row in digits]
        data.append((img + 0.05 * torch.randn(img.shape, generator=g), labels))
    return data


loader = make_loader()
converter = LabelConverter(ALPHABET)
criterion = nn.CTCLoss(blank=0, zero_infinity=True)
config = {"num_cards": 2}

model = CRNN()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
start = [p.detach().clone() for p in model.parameters()]
hist = []
for epoch in range(5):
    hist += train_one_epoch(config, loader, model, criterion, optimizer, converter)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(p, s) for p, s in zip(model.parameters(), start))
assert all(abs(hist[i] - hist[i + 4]) < 1e-6 for i in range(len(hist) - 4))  # identical every epoch
print("multi-card path: CRNN gets no gradient, loss", round(hist[0], 3), "->", round(hist[-1], 3))

# fixed: keep the graph when merging the per-card outputs
torch.manual_seed(0)
function.gather_outputs = function.gather_outputs_keep_graph
model = CRNN()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
hist = []
for epoch in range(30):
    hist += train_one_epoch(config, loader, model, criterion, optimizer, converter)
    if epoch == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.parameters())
assert sum(hist[-4:]) / 4 < 0.5 * sum(hist[:4]) / 4, (hist[:4], hist[-4:])
print("fixed merge trains, loss", round(sum(hist[:4]) / 4, 3), "->", round(sum(hist[-4:]) / 4, 3))
