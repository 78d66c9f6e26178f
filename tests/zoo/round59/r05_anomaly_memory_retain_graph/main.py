"""
expect: none
dynamic: dismiss
source: https://github.com/cvlab-yonsei/MNAD/blob/4e108a898605d1fef2dec42a1bbd407cd5062e25/Train.py

MNAD (memory-guided normality for anomaly detection) trains a reconstruction
autoencoder whose bottleneck reads from a set of memory items. The items are a
plain tensor m_items that the training loop threads from one batch to the next
(model.forward(imgs, m_items, True) returns the refreshed items), and the loop
calls loss.backward(retain_graph=True) every iteration. That combination is the
usual recipe for a graph that grows batch after batch, but here it does not:
Memory.update() returns updated_memory.detach(), the losses use detached keys
as targets, and the read path detaches the soft-assignment, so each batch's
graph starts fresh and retain_graph=True only keeps the current graph alive a
little longer. The asserts show that m_items never carries a grad_fn, the
autograd graph has the same number of nodes at every step, the items are really
refreshed, and the autoencoder's reconstruction loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from memory import Memory

torch.manual_seed(0)
torch.set_num_threads(1)

MSIZE, MDIM = 6, 8


class ConvAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(16, MDIM, 3, stride=2, padding=1))
        self.memory = Memory()
        self.decoder = nn.Sequential(nn.ConvTranspose2d(2 * MDIM, 16, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.ConvTranspose2d(16, 1, 4, stride=2, padding=1))

    def forward(self, x, keys):
        fea = self.encoder(x)
        updated_fea, keys, gather, spread = self.memory(fea, keys)
        return self.decoder(updated_fea), keys, gather, spread


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


normal_frames = torch.rand(32, 1, 16, 16) * 0.2 + torch.linspace(0, 1, 16).view(1, 1, 1, 16)
model = ConvAE()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
m_items = F.normalize(torch.rand((MSIZE, MDIM), dtype=torch.float), dim=1)
m_start = m_items.clone()

sizes, losses = [], []
for it in range(40):
    imgs = normal_frames[(it * 8) % 32:(it * 8) % 32 + 8]
    outputs, m_items, compactness_loss, separateness_loss = model(imgs, m_items)
    optimizer.zero_grad()
    loss_pixel = torch.mean(F.mse_loss(outputs, imgs, reduction="none"))
    loss = loss_pixel + 0.1 * compactness_loss + 0.1 * separateness_loss
    sizes.append(graph_size(loss))
    loss.backward(retain_graph=True)
    optimizer.step()
    losses.append(loss_pixel.item())
    assert m_items.grad_fn is None and not m_items.requires_grad

assert len(set(sizes)) == 1, sizes                      # graph does not grow
assert not torch.allclose(m_items, m_start)             # memory items were refreshed
assert model.encoder[0].weight.grad.abs().sum() > 0
assert sum(losses[-5:]) / 5 < 0.5 * sum(losses[:5]) / 5, (losses[:5], losses[-5:])
print("graph nodes per step:", sizes[0], "| recon loss %.4f -> %.4f" % (losses[0], losses[-1]))
