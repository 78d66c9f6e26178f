"""
expect: none
dynamic: dismiss
source: https://github.com/microsoft/FIBER/issues/6

CIDEr optimisation for an image captioner, laid out like the captioning objective discussed in the
issue: captions are decoded token by token under torch.no_grad(), turned into strings and scored by
a Python n-gram metric; the model is then run again with gradients on the sampled token ids, the
per-token log-probabilities are gathered, padded positions are zeroed in place, and the
length-normalised log-probability is weighted by (100 * baseline - 100 * torch.tensor(scores)), with
the batch-mean score as baseline (the maintainer notes any reasonable baseline works). Rebuilding
the scores with torch.tensor and sampling under no_grad look like cut paths, but the score is a reward
and must be a constant in this policy-gradient loss; the gradient flows through the re-computed
log-probabilities. The in-place masking edits the output of gather, which no backward formula
saves. The asserts check that the decoder gets a gradient from the CIDEr term, that it equals a
reference built without in-place edits, and that training raises the score of sampled captions.
"""
from collections import Counter

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB = ["<pad>", "<bos>", "<eos>", "a", "dog", "cat", "runs", "sits", "on", "grass", "mat", "red"]
PAD, BOS, EOS = 0, 1, 2
MAX_LEN = 6
REFS = {0: [["a", "dog", "runs", "on", "grass"]], 1: [["a", "cat", "sits", "on", "a", "mat"]]}


class Captioner(nn.Module):
    def __init__(self, feat_dim=8, hidden=32):
        super().__init__()
        self.init_h = nn.Linear(feat_dim, hidden)
        self.embed = nn.Embedding(len(VOCAB), hidden)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, len(VOCAB))

    def logits(self, feats, text_ids):
        h0 = torch.tanh(self.init_h(feats)).unsqueeze(0)
        out, _ = self.gru(self.embed(text_ids), h0)
        return self.out(out)

    @torch.no_grad()
    def sample(self, feats, temperature=1.0):
        ids = torch.full((feats.size(0), 1), BOS, dtype=torch.long)
        ended = torch.zeros(feats.size(0), dtype=torch.bool)
        for t in range(MAX_LEN):
            logits = self.logits(feats, ids)[:, -1] / temperature
            logits[:, PAD] = float("-inf")
            if t == 0:
                logits[:, EOS] = float("-inf")
            probs = F.softmax(logits, dim=-1)
            nxt = torch.multinomial(probs, 1).squeeze(1)
            nxt = torch.where(ended, torch.full_like(nxt, PAD), nxt)
            ended = ended | (nxt == EOS)
            ids = torch.cat([ids, nxt.unsqueeze(1)], dim=1)
        return ids


def ngram_score(words, refs):
    def grams(ws, n):
        return Counter(tuple(ws[i:i + n]) for i in range(len(ws) - n + 1))
    total = 0.0
    for n in (1, 2):
        cand = grams(words, n)
        ref = grams(refs[0], n)
        overlap = sum(min(c, ref[g]) for g, c in cand.items())
        p = overlap / max(sum(cand.values()), 1)
        r = overlap / max(sum(ref.values()), 1)
        total += 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return total / 2


def decode(ids):
    words = []
    for i in ids.tolist()[1:]:
        if i in (EOS, PAD):
            break
        words.append(VOCAB[i])
    return words


def cider_loss(model, feats, image_ids):
    model.eval()
    text_ids = model.sample(feats)
    model.train()
    rl_logits = torch.log(F.softmax(model.logits(feats, text_ids[:, :-1]), dim=-1) + 1e-9)
    rl_labels = text_ids[:, 1:]
    pad_mask = rl_labels == PAD
    rl_probs = rl_logits.gather(dim=-1, index=rl_labels.unsqueeze(-1)).squeeze(-1)
    rl_probs[pad_mask] = 0
    rl_len = torch.sum(1 - pad_mask.float(), dim=-1)
    rl_probs = torch.sum(rl_probs, dim=-1) / (rl_len + 1e-9)
    scores = [ngram_score(decode(ids), REFS[int(k)]) for ids, k in zip(text_ids, image_ids)]
    baseline = sum(scores) / len(scores)
    rl_loss = rl_probs * (100.0 * baseline - 100.0 * torch.tensor(scores))
    return rl_loss.mean(), text_ids, scores


def reference_loss(model, feats, text_ids, scores):
    logp = F.log_softmax(model.logits(feats, text_ids[:, :-1]), dim=-1)
    labels = text_ids[:, 1:]
    keep = (labels != PAD).float()
    tok = torch.log(logp.exp() + 1e-9).gather(-1, labels.unsqueeze(-1)).squeeze(-1) * keep
    seq = tok.sum(-1) / (keep.sum(-1) + 1e-9)
    baseline = sum(scores) / len(scores)
    return (seq * (100.0 * baseline - 100.0 * torch.tensor(scores))).mean()


image_feats = torch.randn(2, 8)
model = Captioner()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

image_ids = torch.tensor([0, 1] * 8)
feats = image_feats[image_ids]
torch.manual_seed(1)
loss, text_ids, scores = cider_loss(model, feats, image_ids)
g = torch.autograd.grad(loss, list(model.parameters()), retain_graph=True)
g_ref = torch.autograd.grad(reference_loss(model, feats, text_ids, scores), list(model.parameters()))
assert any(x.abs().sum() > 0 for x in g)
assert all(torch.allclose(a, b, atol=1e-5) for a, b in zip(g, g_ref))

history = []
for step in range(300):
    loss, _, scores = cider_loss(model, feats, image_ids)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(sum(scores) / len(scores))
early, late = sum(history[:30]) / 30, sum(history[-30:]) / 30
print(f"mean n-gram score of sampled captions: {early:.3f} -> {late:.3f}")
print("sample for image 0:", " ".join(decode(model.sample(image_feats[:1])[0])))
assert late > early + 0.2
