"""
expect: none
dynamic: dismiss
source: https://github.com/theolepage/sslsv/blob/10a718bbaebd5ecb18ce7f46bf6f55ccceed93c1/sslsv/methods/MoCo/MoCo.py

sslsv trains self-supervised speaker embeddings with MoCo v2: two crops of an
utterance go through the encoder/projector (queries) and through a momentum
copy (keys); negatives come from a queue buffer of past keys. In train_step the
loss is built from "queue = self.queue.clone().detach()", and the keys of the
current batch are written into self.queue in place (self.queue[:, :, ptr:ptr+b]
= keys) before the trainer calls backward. The in-place write on a tensor that
was just used in the loss, the gradient-free key branch and the in-place momentum update
under no_grad all look like autograd hazards, but the clone gives the
einsum its own copy, so the enqueue cannot invalidate anything saved for
backward, and the keys are meant to be constants. The asserts show that backward
succeeds after the enqueue, that the online encoder gets gradients and moves,
that the momentum branch gets no gradients and follows the EMA, and that the
queue really changed.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MoCoLoss(nn.Module):
    def __init__(self, temperature=0.2):
        super().__init__()
        self.temperature = temperature

    def forward(self, query, key, queue):
        pos = torch.einsum("nc,nc->n", (query, key)).unsqueeze(-1)
        neg = torch.einsum("nc,ck->nk", (query, queue))
        logits = torch.cat((pos, neg), dim=1) / self.temperature
        labels = torch.zeros(query.size(0), dtype=torch.long)
        return F.cross_entropy(logits, labels)


class MoCo(nn.Module):
    def __init__(self, feat_dim=20, emb_dim=16, queue_size=64, tau=0.99):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(feat_dim, 32), nn.ReLU(), nn.Linear(32, 32))
        self.projector = nn.Sequential(nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, emb_dim))
        self.encoder_momentum = copy.deepcopy(self.encoder)
        self.projector_momentum = copy.deepcopy(self.projector)
        for p in list(self.encoder_momentum.parameters()) + list(self.projector_momentum.parameters()):
            p.requires_grad = False
        self.tau = tau
        self.queue_size = queue_size
        self.register_buffer("queue", torch.randn(2, emb_dim, queue_size))
        self.queue = F.normalize(self.queue, dim=1)
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))
        self.loss_fn = MoCoLoss()

    def embed(self, x, momentum=False):
        if momentum:
            return self.projector_momentum(self.encoder_momentum(x))
        return self.projector(self.encoder(x))

    @torch.no_grad()
    def update_momentum(self):
        pairs = [(self.encoder, self.encoder_momentum), (self.projector, self.projector_momentum)]
        for online, target in pairs:
            for p, pm in zip(online.parameters(), target.parameters()):
                pm.mul_(self.tau).add_(p, alpha=1 - self.tau)

    @torch.no_grad()
    def _enqueue(self, keys):
        batch_size = keys.size(1)
        ptr = int(self.queue_ptr)
        self.queue[:, :, ptr:ptr + batch_size] = keys.permute(0, 2, 1)
        self.queue_ptr[0] = (ptr + batch_size) % self.queue_size

    def train_step(self, X):
        Q_1 = F.normalize(self.embed(X[:, 0]), p=2, dim=1)
        Q_2 = F.normalize(self.embed(X[:, 1]), p=2, dim=1)
        K_1 = F.normalize(self.embed(X[:, 0], momentum=True), p=2, dim=1)
        K_2 = F.normalize(self.embed(X[:, 1], momentum=True), p=2, dim=1)
        queue = self.queue.clone().detach()
        loss_1 = self.loss_fn(Q_1, K_2, queue[1])
        loss_2 = self.loss_fn(Q_2, K_1, queue[0])
        loss = (loss_1 + loss_2) / 2
        self._enqueue(torch.stack((K_1, K_2)))
        return loss


speakers = torch.randn(8, 20)
def batch(n=16):
    spk = torch.randint(0, 8, (n,))
    base = speakers[spk]
    return torch.stack([base + 0.3 * torch.randn(n, 20), base + 0.3 * torch.randn(n, 20)], 1)


model = MoCo()
opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
enc0 = model.encoder[0].weight.detach().clone()
mom0 = model.encoder_momentum[0].weight.detach().clone()
queue0 = model.queue.clone()
losses = []
for step in range(80):
    loss = model.train_step(batch())       # queue already overwritten here
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.update_momentum()
    losses.append(loss.item())

assert model.encoder[0].weight.grad.abs().sum() > 0
assert model.encoder_momentum[0].weight.grad is None
assert not torch.equal(enc0, model.encoder[0].weight)
assert not torch.equal(mom0, model.encoder_momentum[0].weight)   # moved only by the EMA
assert not torch.equal(queue0, model.queue)
assert sum(losses[-10:]) / 10 < sum(losses[:10]) / 10, (losses[:3], losses[-3:])
print("MoCo with cloned queue: loss %.3f -> %.3f" % (sum(losses[:10]) / 10, sum(losses[-10:]) / 10))
