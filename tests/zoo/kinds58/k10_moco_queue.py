"""
expect: none
dynamic: dismiss
source: none, invented

A MoCo-v2 style learner for small vision batches. The query path (conv encoder + MLP projector)
is trained by InfoNCE; the key encoder is a deep copy updated only by momentum under
torch.no_grad(), computes the keys under no_grad as well, and pushes them into a FIFO queue of
negatives (a registered buffer). Keys and the queue are targets, so their lack of gradient is
intended; the query, the only trained path, stays attached from the encoder to the loss. The
asserts check that the projector and encoder of the query path get non-zero gradients and change,
that no key parameter ever holds a gradient, that the key weights still move (through the EMA) and
that the queue pointer advances.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvEncoder(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(),
        )
        self.projector = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return self.projector(self.features(x))


class MoCo(nn.Module):
    def __init__(self, dim=64, queue_size=256, momentum=0.99, temperature=0.2):
        super().__init__()
        self.encoder_q = ConvEncoder(dim)
        self.encoder_k = copy.deepcopy(self.encoder_q)
        for p in self.encoder_k.parameters():
            p.requires_grad = False
        self.m, self.t = momentum, temperature
        self.register_buffer("queue", F.normalize(torch.randn(queue_size, dim), dim=1))
        self.register_buffer("queue_ptr", torch.zeros((), dtype=torch.long))

    @torch.no_grad()
    def _momentum_update(self):
        for pq, pk in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            pk.mul_(self.m).add_(pq.detach(), alpha=1 - self.m)

    @torch.no_grad()
    def _enqueue(self, keys):
        n, ptr = keys.shape[0], int(self.queue_ptr)
        self.queue[ptr:ptr + n] = keys
        self.queue_ptr.fill_((ptr + n) % self.queue.shape[0])

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(1, keepdim=True)
        l_neg = q @ self.queue.clone().t()
        logits = torch.cat([l_pos, l_neg], 1) / self.t
        labels = torch.zeros(logits.shape[0], dtype=torch.long)
        loss = F.cross_entropy(logits, labels)
        self._enqueue(k)
        return loss


def two_views(images):
    def aug(x):
        flip = torch.rand(x.shape[0], 1, 1, 1) < 0.5
        x = torch.where(flip, x.flip(3), x)
        return x * (0.8 + 0.4 * torch.rand(x.shape[0], 3, 1, 1)) + 0.05 * torch.randn_like(x)
    return aug(images), aug(images)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = MoCo()
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9)
    proj_w0 = model.encoder_q.projector[2].weight.detach().clone()
    conv_w0 = model.encoder_q.features[0].weight.detach().clone()
    key_w0 = model.encoder_k.projector[2].weight.detach().clone()
    images = torch.rand(32, 3, 16, 16)
    losses = []
    for step in range(6):
        im_q, im_k = two_views(images)
        loss = model(im_q, im_k)
        opt.zero_grad()
        loss.backward()
        assert model.encoder_q.projector[2].weight.grad.abs().sum() > 0
        assert model.encoder_q.features[0].weight.grad.abs().sum() > 0
        assert all(p.grad is None for p in model.encoder_k.parameters())
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(proj_w0, model.encoder_q.projector[2].weight)
    assert not torch.equal(conv_w0, model.encoder_q.features[0].weight)
    assert not torch.equal(key_w0, model.encoder_k.projector[2].weight)
    assert int(model.queue_ptr) == (6 * 32) % 256
    print("moco queue: ok, queue_ptr=%d, last loss %.3f" % (int(model.queue_ptr), losses[-1]))


if __name__ == "__main__":
    main()
