"""
expect: none
dynamic: dismiss
source: https://github.com/sraashis/deepdyn/blob/3ee02556f544e49bdcb4b0f038465379422f0b87/neuralnet/thrnet/thrnet_trainer.py

A retinal-vessel segmentation helper ("thrnet"): a small CNN looks at an image patch and regresses the
threshold that should binarise the vessel probability map of that patch; the trainer calls
`loss.backward(retain_graph=True)` on every batch. The retain flag is unneeded but harmless here:
nothing is carried from one batch to the next (no hidden state, no running tensor with history), so
each batch's graph is dropped as soon as `loss` and `thr_map` are rebound on the next iteration and
memory stays flat. The asserts count the tensors autograd keeps saved (through saved-tensor hooks)
after every step and show the count does not grow, and that the threshold error goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Saved:
    alive = 0

    def __init__(self, tensor):
        self.tensor = tensor.detach()
        Saved.alive += 1

    def __del__(self):
        Saved.alive -= 1


def pack(tensor):
    return Saved(tensor)


def unpack(box):
    return box.tensor


class ThrNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(2, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                      nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(self.features(x).flatten(1)))


torch.manual_seed(0)
torch.set_num_threads(1)
patches = torch.rand(64, 2, 16, 16)
y_thresholds = 0.3 + 0.4 * patches[:, 1].mean(dim=(1, 2))

model = ThrNet()
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
saved_after_step, rmse = [], []
for epoch in range(6):
    for i in range(0, 64, 16):
        inputs, target = patches[i:i + 16], y_thresholds[i:i + 16]
        optimizer.zero_grad()
        with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
            thr_map = model(inputs).squeeze()
            loss = F.mse_loss(thr_map, target)
        loss.backward(retain_graph=True)
        optimizer.step()
        saved_after_step.append(Saved.alive)
        rmse.append(loss.item() ** 0.5)

assert len(set(saved_after_step)) == 1, saved_after_step
assert rmse[-1] < rmse[0]
print("saved tensors per step: %d (constant); rmse %.3f -> %.3f" % (saved_after_step[0], rmse[0], rmse[-1]))
