"""
expect: none
dynamic: dismiss
source: none, invented

Sentiment classification of synthetic "reviews" (token ids drawn from positive, negative and neutral
vocabularies) with adversarial training in embedding space (FGM).  Each step embeds the tokens, makes a
probe copy with `emb.detach().requires_grad_()`, and takes the gradient of the loss with respect to that
probe only to find the worst-case direction; the perturbation `delta` is then added to the live
embeddings, and both the clean and the adversarial loss are trained through the model.  Re-leafing the
embeddings is deliberate here: the probe loss is never back-propagated into the weights.  The asserts
check that the perturbation is non-zero with the requested norm, that the embedding table and the
encoder get gradient from the combined loss, and that accuracy on held-out reviews is high.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, SEQ, PAD = 60, 20, 0
POS_WORDS, NEG_WORDS = torch.arange(1, 11), torch.arange(11, 21)


def reviews(n):
    label = torch.randint(0, 2, (n,))
    tokens = torch.randint(21, VOCAB, (n, SEQ))
    lengths = torch.randint(8, SEQ + 1, (n,))
    for i in range(n):
        pool = POS_WORDS if label[i] == 1 else NEG_WORDS
        k = torch.randint(0, lengths[i].item(), (3,))
        tokens[i, k] = pool[torch.randint(0, 10, (3,))]
        tokens[i, lengths[i]:] = PAD
    return tokens, label


class ReviewClassifier(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim, padding_idx=PAD)
        self.gru = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * dim, 2)

    def classify(self, emb, mask):
        h, _ = self.gru(emb)
        h = h * mask.unsqueeze(-1)
        pooled = h.sum(1) / mask.sum(1, keepdim=True)
        return self.out(pooled)


def fgm_step(model, opt, tokens, labels, eps=0.5):
    mask = (tokens != PAD).float()
    emb = model.embed(tokens)
    probe = emb.detach().requires_grad_()
    probe_loss = F.cross_entropy(model.classify(probe, mask), labels)
    (g,) = torch.autograd.grad(probe_loss, probe)
    delta = eps * g / (g.norm(dim=-1, keepdim=True) + 1e-12)
    clean = F.cross_entropy(model.classify(emb, mask), labels)
    adv = F.cross_entropy(model.classify(emb + delta, mask), labels)
    opt.zero_grad()
    (clean + adv).backward()
    return delta, clean.item()


model = ReviewClassifier()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(150):
    tokens, labels = reviews(64)
    delta, clean = fgm_step(model, opt, tokens, labels)
    if step == 0:
        norms = delta.norm(dim=-1)[tokens != PAD]
        assert torch.allclose(norms, torch.full_like(norms, 0.5), atol=1e-3)
        assert model.embed.weight.grad.abs().sum() > 0
        assert all(p.grad is not None for p in model.gru.parameters())
    opt.step()

with torch.no_grad():
    tokens, labels = reviews(500)
    acc = (model.classify(model.embed(tokens), (tokens != PAD).float()).argmax(-1) == labels).float().mean().item()
assert acc > 0.9, acc
print(f"k15: FGM with a re-leafed embedding probe; held-out accuracy {acc:.2f}")
