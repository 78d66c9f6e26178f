"""
expect: GL005 backbone.py:36
dynamic: confirm
source: https://github.com/NINAnor/rare_species_detections/commit/e0a972d1d476a379cd9e0e089b661eb42b480a2d

Fine-tuning a BEATs-style audio transformer for few-shot bioacoustic event
classification. Log-mel patches are projected to tokens, the encoder adds a
convolutional positional embedding and runs two transformer layers, and a linear
head classifies the pooled clip. In the encoder (backbone.py) the positional branch
is added back with x += x_conv. The convolution saved its input, a transposed view
of that same x, for its weight gradient, so the in-place add invalidates it and the
first fine-tuning backward() raises "modified by an inplace operation" (the
repository's fix was x = x.clone() + x_conv). Training only the head does not hit
it, because then nothing needs the saved input. The asserts catch the error when the
backbone is fine-tuned and check that the out-of-place residual fine-tunes the
positional convolution and lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from backbone import TransformerEncoder

torch.manual_seed(0)
torch.set_num_threads(1)

N_MELS, PATCH, DIM, N_CLASSES = 16, 4, 32, 5


class BEATsClassifier(nn.Module):
    def __init__(self, residual_clone=False):
        super().__init__()
        self.patch_embed = nn.Linear(N_MELS * PATCH, DIM)
        self.encoder = TransformerEncoder(dim=DIM, residual_clone=residual_clone)
        self.head = nn.Linear(DIM, N_CLASSES)

    def forward(self, fbank):
        b, t, f = fbank.shape
        patches = fbank.reshape(b, t // PATCH, PATCH * f)
        tokens = self.encoder.extract_features(self.patch_embed(patches))
        return self.head(tokens.mean(dim=1))


fbank = torch.randn(8, 32, N_MELS)
labels = torch.randint(0, N_CLASSES, (8,))

model = BEATsClassifier()
model.train()
try:
    F.cross_entropy(model(fbank), labels).backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised

torch.manual_seed(0)
model_ok = BEATsClassifier(residual_clone=True)
model_ok.train()
opt = torch.optim.AdamW(model_ok.parameters(), lr=3e-3)
history = []
for _ in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(model_ok(fbank), labels)
    loss.backward()
    opt.step()
    history.append(loss.item())
pos_conv = model_ok.encoder.pos_conv[0]
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in pos_conv.parameters())
assert history[-1] < history[0]
print("x += x_conv: backward raised (%s...)" % raised[:40])
print("x.clone() + x_conv: loss %.3f -> %.3f" % (history[0], history[-1]))
