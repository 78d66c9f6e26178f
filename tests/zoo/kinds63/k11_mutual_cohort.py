"""
expect: none
dynamic: dismiss
source: none, invented

Deep mutual learning with a cohort of three small CNN peers on synthetic stripe images. `Cohort.train_batch`
runs every peer, and for each one appends to `self.peer_losses` its cross-entropy plus a KL term pulling it
towards the (detached) average prediction of the other peers, then backpropagates the summed list with
`retain_graph=True` and steps the shared optimizer. The list is emptied with `self.peer_losses.clear()` at the
start of each call, so every backward only covers losses built from this call's forward passes, and the
retained graph is dropped as soon as the list is cleared. The asserts show the list holds exactly one loss per
peer after each call, repeated calls never error, and every peer learns the task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def stripes(n):
    y = torch.randint(0, 3, (n,))
    img = 0.5 * torch.randn(n, 1, 12, 12)
    for i, c in enumerate(y.tolist()):
        if c == 0:
            img[i, 0, ::3, :] += 2
        elif c == 1:
            img[i, 0, :, ::3] += 2
        else:
            img[i, 0].diagonal().add_(3)
    return img, y


def make_peer(width):
    return nn.Sequential(
        nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
        nn.Linear(16 * width, 3),
    )


class Cohort:
    def __init__(self, widths=(4, 6, 8), temperature=2.0):
        self.peers = nn.ModuleList(make_peer(w) for w in widths)
        self.opt = torch.optim.Adam(self.peers.parameters(), lr=5e-3)
        self.temperature = temperature
        self.peer_losses = []

    def train_batch(self, images, labels):
        self.peer_losses.clear()
        logits = [peer(images) for peer in self.peers]
        T = self.temperature
        for i, own in enumerate(logits):
            others = torch.stack([l.detach() for j, l in enumerate(logits) if j != i]).mean(0)
            kl = F.kl_div(F.log_softmax(own / T, -1), F.softmax(others / T, -1), reduction="batchmean")
            self.peer_losses.append(F.cross_entropy(own, labels) + T * T * kl)
        self.opt.zero_grad()
        torch.stack(self.peer_losses).sum().backward(retain_graph=True)
        self.opt.step()
        return [l.item() for l in self.peer_losses]

    @torch.no_grad()
    def accuracies(self, n=600):
        x, y = stripes(n)
        return [(p(x).argmax(1) == y).float().mean().item() for p in self.peers]


cohort = Cohort()
for step in range(120):
    losses = cohort.train_batch(*stripes(32))
    assert len(cohort.peer_losses) == len(cohort.peers)

accs = cohort.accuracies()
assert all(a > 0.9 for a in accs), accs
assert all(p.grad is not None for p in cohort.peers.parameters())
print("ok: cohort accuracies", [round(a, 2) for a in accs])
