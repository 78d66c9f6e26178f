"""
expect: none
dynamic: dismiss
source: https://github.com/chengtan9907/Co-learning/blob/9d709edbce4a00e68f440cafb934065378116e70/losses/loss_coteaching.py

Co-teaching (learning with noisy labels) trains two networks at once; each network ranks
the batch by its own per-sample loss, keeps the small-loss fraction it believes is clean and
hands those indices to its peer, which is updated only on them.  The repository's loss
function ranks the samples with `np.argsort(loss.data.cpu())` - a `.data` read and a NumPy
round trip in the middle of the loss - and then indexes the logits with the resulting
index array.  That looks like the history is thrown away, but the NumPy array only chooses
which rows to keep: the losses that are back-propagated are recomputed from `y_1[idx]` and
`y_2[idx]`, which still hang on both networks.  This reproduction trains two small MLPs on
a two-class problem with 30% flipped labels.  The asserts show the exchanged losses require
grad, both networks receive non-zero gradients and change, the kept samples are mostly the
clean ones, and both networks end up more accurate on the clean labels than at the start.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def loss_coteaching(y_1, y_2, t, forget_rate):
    loss_1 = F.cross_entropy(y_1, t, reduction="none")
    ind_1_sorted = np.argsort(loss_1.data.cpu().numpy())
    loss_2 = F.cross_entropy(y_2, t, reduction="none")
    ind_2_sorted = np.argsort(loss_2.data.cpu().numpy())

    num_remember = int((1 - forget_rate) * len(ind_1_sorted))
    ind_1_update = torch.from_numpy(ind_1_sorted[:num_remember])
    ind_2_update = torch.from_numpy(ind_2_sorted[:num_remember])
    # exchange: each network learns from the samples its peer considers clean
    loss_1_update = F.cross_entropy(y_1[ind_2_update], t[ind_2_update])
    loss_2_update = F.cross_entropy(y_2[ind_1_update], t[ind_1_update])
    return loss_1_update, loss_2_update, ind_1_update, ind_2_update


n = 512
x = torch.randn(n, 2)
clean = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
flip = torch.rand(n) < 0.3
noisy = torch.where(flip, 1 - clean, clean)

net1 = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
net2 = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
opt1 = torch.optim.SGD(net1.parameters(), lr=0.1)
opt2 = torch.optim.SGD(net2.parameters(), lr=0.1)


def clean_acc(net):
    with torch.no_grad():
        return (net(x).argmax(1) == clean).float().mean().item()


acc_start = (clean_acc(net1), clean_acc(net2))
w1, w2 = net1[0].weight.detach().clone(), net2[0].weight.detach().clone()
kept_clean = []
for epoch in range(60):
    forget = min(0.3, 0.3 * epoch / 10)
    for b in range(0, n, 64):
        xb, tb, fb = x[b:b + 64], noisy[b:b + 64], flip[b:b + 64]
        l1, l2, i1, i2 = loss_coteaching(net1(xb), net2(xb), tb, forget)
        assert l1.requires_grad and l2.requires_grad
        opt1.zero_grad()
        opt2.zero_grad()
        l1.backward()
        l2.backward()
        assert net1[0].weight.grad.abs().sum() > 0 and net2[0].weight.grad.abs().sum() > 0
        opt1.step()
        opt2.step()
        if epoch >= 40:
            kept_clean.append((~fb[i2]).float().mean().item())

assert not torch.equal(net1[0].weight.detach(), w1) and not torch.equal(net2[0].weight.detach(), w2)
assert np.mean(kept_clean) > 0.85, np.mean(kept_clean)
acc_end = (clean_acc(net1), clean_acc(net2))
assert acc_end[0] > acc_start[0] and acc_end[1] > acc_start[1] and min(acc_end) > 0.9, (acc_start, acc_end)
print("kept samples clean: %.2f; clean accuracy %.2f/%.2f -> %.2f/%.2f"
      % (np.mean(kept_clean), acc_start[0], acc_start[1], acc_end[0], acc_end[1]))
