"""
expect: none
dynamic: dismiss
source: https://github.com/maple-research-lab/AdCo/issues/4

Adversarial contrast (AdCo): the query encoder is trained with an InfoNCE loss whose negatives are a
memory bank W held as a buffer, while the key encoder is an exponential moving average written through
.data inside a no_grad method, and keys are computed under no_grad, detached and gathered by a no_grad
helper. After loss.backward() and optimizer.step(), the bank is updated by hand under no_grad with
.data assignments, using the analytic gradient of the same contrastive loss with respect to W, so that
the negatives climb the loss (the adversarial step the issue asks about). None of these cuts or in-place
edits sits on a path that is meant to train a parameter, and the .data edits happen after backward.
The asserts check that the query encoder trains, the key encoder only follows its EMA, and the hand-made
bank gradient equals minus the autograd gradient of the loss with respect to W, so the bank step raises
the loss for the current queries.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from adco import AdCo, Adversary_Negatives

torch.manual_seed(0)
torch.set_num_threads(1)


class Args:
    moco_t = 0.2
    mem_t = 0.1
    cluster = 32
    momentum = 0.0
    mem_wd = 0.0
    memory_lr = 3.0


def update_network(model, images, args, Memory_Bank, optimizer, criterion):
    q, k, l_pos = model(im_q=images[0], im_k=images[1])
    d_norm, d, l_neg = Memory_Bank(q)
    logits = torch.cat([l_pos, l_neg], dim=1)
    logits /= args.moco_t
    labels = torch.arange(logits.shape[0], dtype=torch.long)
    total_bsize = logits.shape[1] - args.cluster
    loss = criterion(logits, labels)

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    with torch.no_grad():
        logits = torch.cat([l_pos, l_neg], dim=1) / args.mem_t
        p_qd = F.softmax(logits, dim=1)[:, total_bsize:]
        g = torch.einsum("cn,nk->ck", [q.T, p_qd]) / logits.shape[0] - torch.mul(
            torch.mean(torch.mul(p_qd, l_neg), dim=0), d_norm)
        g = -torch.div(g, torch.norm(d, dim=0)) / args.mem_t
        Memory_Bank.v.data = args.momentum * Memory_Bank.v.data + g + args.mem_wd * Memory_Bank.W.data
        Memory_Bank.W.data = Memory_Bank.W.data - args.memory_lr * Memory_Bank.v.data
    return loss.item(), q.detach(), l_pos.detach(), g


def bank_loss(W, q, l_pos, args):
    labels = torch.arange(q.shape[0])
    logits = torch.cat([l_pos, q @ F.normalize(W, dim=0)], dim=1) / args.mem_t
    return F.cross_entropy(logits, labels)


args = Args()
model = AdCo(lambda: nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 16)))
bank = Adversary_Negatives(args.cluster, 16)
optimizer = torch.optim.SGD(model.encoder_q.parameters(), lr=0.5)
criterion = nn.CrossEntropyLoss()
q0 = [p.detach().clone() for p in model.encoder_q.parameters()]
k0 = [p.detach().clone() for p in model.encoder_k.parameters()]

x = torch.randn(16, 12)
for step in range(5):
    views = (x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    W_before = bank.W.clone()
    loss, q, l_pos, g = update_network(model, views, args, bank, optimizer, criterion)
    if step == 0:
        W_ref = W_before.clone().requires_grad_(True)
        ref = bank_loss(W_ref, q, l_pos, args)
        (dW,) = torch.autograd.grad(ref, W_ref)
        assert torch.allclose(g, -dW, atol=1e-5), "manual bank step is not the loss gradient"
        assert bank_loss(bank.W, q, l_pos, args) > ref.detach(), "bank step should raise the loss"

assert all(p.grad is not None for p in model.encoder_q.parameters())
assert all((p.detach() - p0).abs().max() > 0 for p, p0 in zip(model.encoder_q.parameters(), q0))
assert all(p.grad is None for p in model.encoder_k.parameters())
assert all((p - p0).abs().max() > 0 for p, p0 in zip(model.encoder_k.parameters(), k0))
assert not bank.W.requires_grad
print(f"last contrastive loss {loss:.3f}; bank norm {bank.W.norm():.3f}")
