"""expect: none
dynamic: dismiss
source: https://github.com/DReiser7/w2v_did/blob/HEAD/TrainDidModel.py

A dialect-identification model (a wav2vec-style convolutional feature encoder, mean pooling and a
linear classifier) is trained on raw waveforms. The training loop calls data.requires_grad_() on every
input batch "to set requires_grad to True for training". The batch is fresh data from the loader, a
leaf with no history, so the switch does not hide any cut: the loss still depends on every weight, the
only effect is that backward also computes an unused gradient for the waveform. The asserts compare the
weight gradients with and without the switch (identical), check that data.grad is filled, and that the
loss drops over a few epochs.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DialectNet(nn.Module):
    def __init__(self, n_dialects=10):
        super().__init__()
        self.feature_encoder = nn.Sequential(
            nn.Conv1d(1, 16, kernel_size=10, stride=5), nn.GELU(),
            nn.Conv1d(16, 32, kernel_size=3, stride=2), nn.GELU(),
            nn.Conv1d(32, 32, kernel_size=3, stride=2), nn.GELU())
        self.classifier = nn.Linear(32, n_dialects)

    def forward(self, wav):                                # wav: [batch, samples]
        feats = self.feature_encoder(wav.unsqueeze(1)).mean(dim=-1)
        return {"x": F.log_softmax(self.classifier(feats), dim=-1).unsqueeze(1)}   # [batch, 1, 10]


def make_loader(n=64, batch=16, samples=800):
    target = torch.randint(0, 10, (n,))
    t = torch.linspace(0, 1, samples)
    wav = torch.sin(2 * torch.pi * (50 + 20 * target[:, None]) * t) + 0.3 * torch.randn(n, samples)
    return [(wav[i:i + batch], target[i:i + batch]) for i in range(0, n, batch)]


def train(model, optimizer, loader):
    model.train()
    total = 0.0
    for data, target in loader:
        optimizer.zero_grad()
        data = data.requires_grad_()  # set requires_grad to True for training
        output = model(data)
        output = output["x"].permute(1, 0, 2)              # [1, batch, 10]
        loss = F.nll_loss(output[0], target)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader), data


torch.manual_seed(0)
torch.set_num_threads(1)
loader = make_loader()

model = DialectNet()
x, y = loader[0]
model.zero_grad()
F.nll_loss(model(x.clone().requires_grad_())["x"][:, 0], y).backward()
g_switch = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
F.nll_loss(model(x.clone())["x"][:, 0], y).backward()
g_plain = [p.grad.clone() for p in model.parameters()]
assert all(torch.equal(a, b) for a, b in zip(g_switch, g_plain))

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
history = []
for epoch in range(8):
    mean_loss, last_batch = train(model, opt, loader)
    history.append(mean_loss)
assert last_batch.grad is not None                         # extra, unused input gradient
assert history[-1] < history[0]

print("nll per epoch:", [round(v, 3) for v in history])
