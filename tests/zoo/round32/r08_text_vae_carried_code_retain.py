"""
expect: GL004 66
dynamic: confirm
source: https://github.com/GBLin5566/toward-controlled-generation-of-text-pytorch/issues/7

In a controlled-text-generation VAE, adding an extra loss next to the VAE loss made backward
complain about traversing the graph twice, and the suggested cure was retain_graph=True. Here
the trainer keeps a running latent "style centroid" across mini-batches without detaching it,
feeds it into the extra loss, accumulates gradients over an epoch and calls
backward(retain_graph=True) on every batch. Each backward re-walks every earlier batch's
graph: the graph grows batch after batch and early batches are counted again and again. The
asserts show the growing graph and that the accumulated gradient differs from the detached fix.
"""
import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TextVAE(nn.Module):
    def __init__(self, vocab=30, emb=16, z=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.enc = nn.GRU(emb, 32, batch_first=True)
        self.to_stats = nn.Linear(32, 2 * z)
        self.dec = nn.Linear(z + emb, vocab)

    def forward(self, tokens):
        e = self.emb(tokens)
        _, h = self.enc(e)
        mu, logvar = self.to_stats(h[-1]).chunk(2, -1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        logits = self.dec(torch.cat([z[:, None].expand(-1, e.size(1), -1), e], -1))
        return logits, mu, logvar, z


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class Trainer:
    def __init__(self, model, detach_state):
        self.model, self.detach_state = model, detach_state
        self.centroid = torch.zeros(4)
        self.sizes = []

    def batch_step(self, tokens):
        logits, mu, logvar, z = self.model(tokens)
        rec = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
        kld = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(-1).mean()
        self.centroid = 0.8 * self.centroid + 0.2 * z.mean(0)
        if self.detach_state:
            self.centroid = self.centroid.detach()
        extra = ((z - self.centroid) ** 2).mean()  # pull codes towards the running style centroid
        loss = rec + 0.1 * kld + extra
        self.sizes.append(graph_size(loss))
        loss.backward(retain_graph=True)

    def epoch(self, batches):
        self.model.zero_grad()
        for b in batches:
            self.batch_step(b)
        return torch.cat([p.grad.flatten() for p in self.model.parameters()])


batches = [torch.randint(0, 30, (8, 12)) for _ in range(6)]
base = TextVAE()

torch.manual_seed(1)
buggy = Trainer(TextVAE(), detach_state=False)
buggy.model.load_state_dict(base.state_dict())
g_bug = buggy.epoch(batches)

torch.manual_seed(1)
fixed = Trainer(TextVAE(), detach_state=True)
fixed.model.load_state_dict(base.state_dict())
g_fix = fixed.epoch(batches)

assert all(b > a for a, b in zip(buggy.sizes, buggy.sizes[1:])), buggy.sizes  # graph keeps growing
assert len(set(fixed.sizes)) == 1, fixed.sizes
assert (g_bug - g_fix).abs().max() > 1e-3  # earlier batches are re-counted
print("ok", buggy.sizes, fixed.sizes)
