"""
expect: none
dynamic: dismiss
source: none, invented

MoCo v2-style contrastive pretraining of an MLP encoder on augmented tabular rows. The key encoder is an
exponential moving average of the query encoder (updated with `.data` arithmetic in a no_grad method) and the
keys it produces are pushed into a registered `queue` buffer of negatives by _dequeue_and_enqueue, also under
no_grad; later forward passes read the queue as the negative logits. Nothing trained writes into the queue: the
keys come from the EMA encoder, which is deliberately kept out of the optimizer, and the query encoder reaches
the InfoNCE loss directly through the query logits. The asserts show the query encoder gets gradients, the key
encoder has none yet tracks the query encoder, the queue contents change, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

FEATURES, DIM, QUEUE, BATCH = 24, 32, 512, 64
PROTOTYPES = torch.randn(20, FEATURES)


def encoder():
    return nn.Sequential(nn.Linear(FEATURES, 128), nn.ReLU(), nn.Linear(128, DIM))


def rows(n=BATCH):
    return PROTOTYPES[torch.randint(0, 20, (n,))] + 0.3 * torch.randn(n, FEATURES)


def corrupt(x, p=0.2):
    keep = (torch.rand_like(x) > p).float()
    return x * keep + 0.1 * torch.randn_like(x)


class MoCo(nn.Module):
    def __init__(self, m=0.99, temperature=0.1):
        super().__init__()
        self.m, self.t = m, temperature
        self.encoder_q = encoder()
        self.encoder_k = encoder()
        for p_q, p_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            p_k.data.copy_(p_q.data)
            p_k.requires_grad = False
        self.register_buffer("queue", F.normalize(torch.randn(DIM, QUEUE), dim=0))
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for p_q, p_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            p_k.data = p_k.data * self.m + p_q.data * (1.0 - self.m)

    @torch.no_grad()
    def _dequeue_and_enqueue(self, keys):
        ptr = int(self.queue_ptr)
        self.queue[:, ptr:ptr + keys.size(0)] = keys.T
        self.queue_ptr[0] = (ptr + keys.size(0)) % QUEUE

    def forward(self, im_q, im_k):
        q = F.normalize(self.encoder_q(im_q), dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = F.normalize(self.encoder_k(im_k), dim=1)
        l_pos = (q * k).sum(dim=1, keepdim=True)
        l_neg = q @ self.queue.clone().detach()
        logits = torch.cat([l_pos, l_neg], dim=1) / self.t
        labels = torch.zeros(logits.size(0), dtype=torch.long)
        self._dequeue_and_enqueue(k)
        return logits, labels


def main():
    model = MoCo()
    opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
    queue_start = model.queue.clone()
    k_start = model.encoder_k[0].weight.detach().clone()
    losses = []
    for step in range(300):
        x = rows()
        logits, labels = model(corrupt(x), corrupt(x))
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        if step == 0:
            assert all(p.grad is not None for p in model.encoder_q.parameters())
            assert all(p.grad is None for p in model.encoder_k.parameters())
        opt.step()
        losses.append(loss.item())

    assert not torch.equal(model.queue, queue_start)
    assert not torch.equal(model.encoder_k[0].weight, k_start)
    gap = (model.encoder_k[0].weight - model.encoder_q[0].weight).norm()
    assert gap < (k_start - model.encoder_q[0].weight).norm()
    early, late = sum(losses[:20]) / 20, sum(losses[-20:]) / 20
    assert late < early - 0.1, (early, late)
    print(f"k17: InfoNCE {early:.3f} -> {late:.3f}")


if __name__ == "__main__":
    main()
