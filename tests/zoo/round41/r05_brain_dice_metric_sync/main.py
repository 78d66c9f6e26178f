"""
expect: GL003 metrics.py:36
dynamic: confirm
source: https://github.com/sabeenlohawala/tissue_labeling/blob/2c63f79265322534adff1d0931ee941d63168e4a/scratch/test_new_dice.py

A brain-MRI tissue-labelling network is trained with 1 - Dice, where the Dice is a
torchmetrics-style metric object that is synchronised across the data-parallel workers on
every step. The per-batch Dice is computed differentiably in update(), but the sync replaces
it with the average of the gathered per-rank values, and a collective gather returns plain
copies without autograd history. backward() on 1 - dice then fails with "element 0 of
tensors does not require grad", so compute() flips self.dice.requires_grad = True. That makes
the synced Dice a new leaf: the loss backpropagates into nothing, the segmentation weights
never receive a gradient and the optimizer leaves them as they were. The asserts run a few
training steps and check that every weight has grad None and is unchanged and that the loss
stays flat, while the same Dice loss computed from the local, unsynced value trains the net.
"""
import copy

import torch
import torch.nn as nn

from metrics import CustomDice

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES = 4


class TinySegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(),
            nn.Conv2d(8, N_CLASSES, 1),
        )

    def forward(self, x):
        return self.net(x)


def make_batch(n=4):
    image = torch.randn(n, 1, 12, 12)
    mask = (image > 0.5).long() + (image > 0).long() + (image > -0.5).long()
    return image, mask


image, mask = make_batch()
peer_image, peer_mask = make_batch()

model = TinySegNet()
initial = copy.deepcopy(model.state_dict())
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)

with torch.no_grad():  # what the other rank contributes to the all-gather this step
    peer_metric = CustomDice(N_CLASSES, peers=[], dist_sync_on_step=False)
    peer_metric.update(peer_mask, torch.softmax(model(peer_image), dim=1))
    peers = [{"dice": peer_metric.dice, "class_dice": peer_metric.class_dice}]

dice = CustomDice(N_CLASSES, peers=peers)
losses = []
for step in range(5):
    optimizer.zero_grad()
    probs = torch.softmax(model(image), dim=1)
    loss, class_dice = dice(mask, probs)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    assert all(p.grad is None for p in model.parameters()), "a weight received a gradient"

assert all(torch.equal(initial[k], model.state_dict()[k]) for k in initial), "a weight moved"
assert max(losses) - min(losses) < 1e-6, losses

# Intended: backpropagate the local, differentiable Dice (sync only for logging).
model_ok = TinySegNet()
model_ok.load_state_dict(initial)
opt_ok = torch.optim.AdamW(model_ok.parameters(), lr=1e-2)
local = CustomDice(N_CLASSES, peers=[], dist_sync_on_step=False)
losses_ok = []
for step in range(5):
    opt_ok.zero_grad()
    local.update(mask, torch.softmax(model_ok(image), dim=1))
    loss_ok = 1 - local.dice
    loss_ok.backward()
    opt_ok.step()
    losses_ok.append(loss_ok.item())
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model_ok.parameters())
assert losses_ok[-1] < losses_ok[0]

print(f"synced + flagged dice loss stays at {losses[0]:.4f}; local dice loss {losses_ok[0]:.4f} -> {losses_ok[-1]:.4f}")
