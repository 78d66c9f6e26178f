"""
expect: GL005 42
dynamic: confirm
source: none, invented

NLP / paraphrase embeddings. A bag-of-embeddings sentence encoder with a tanh projection is
trained on paraphrase pairs with a Barlow-Twins-style redundancy-reduction objective: the
cross-correlation matrix of the two views' standardised embeddings should be the identity.
The loss module's `forward` standardises the embeddings it is handed in place, via its method
`_standardise` (`z.sub_(...).div_(...)`). Those tensors are the encoder's outputs, produced by `tanh`, which
saves its output for backward; `std` also saves its input before `div_` overwrites it. The
in-place edit therefore bumps the version counter of saved tensors and `backward()` raises
"modified by an inplace operation". The asserts catch that error on the buggy path and show
that the out-of-place variant of the same loss trains: the redundancy loss on a held-out batch
of paraphrase pairs (same topic, different words) drops to well under half its initial value.
"""
import torch
import torch.nn as nn


VOCAB, DIM, SEQ = 500, 32, 12


class SentenceEncoder(nn.Module):
    def __init__(self, vocab=VOCAB, dim=DIM):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, 64, mode="mean")
        self.proj = nn.Linear(64, dim)

    def forward(self, tokens):
        return torch.tanh(self.proj(self.emb(tokens)))


class RedundancyReductionLoss(nn.Module):
    def __init__(self, off_diag_weight=5e-3, inplace_norm=True):
        super().__init__()
        self.off_diag_weight = off_diag_weight
        self.inplace_norm = inplace_norm

    def _standardise(self, z):
        if self.inplace_norm:
            z.sub_(z.mean(0)).div_(z.std(0) + 1e-5)
            return z
        return (z - z.mean(0)) / (z.std(0) + 1e-5)

    def forward(self, za, zb):
        n = za.shape[0]
        za = self._standardise(za)
        zb = self._standardise(zb)
        c = za.T @ zb / n
        on = (torch.diagonal(c) - 1).pow(2).sum()
        off = (c - torch.diag(torch.diagonal(c))).pow(2).sum()
        return on + self.off_diag_weight * off


def paraphrase_batch(n=64, n_topics=20, per_topic=20):
    """Two paraphrases share a topic: half their tokens come from the topic's word list,
    half are unrelated filler drawn from the whole vocabulary."""
    topic = torch.randint(0, n_topics, (n, 1))
    def view():
        content = topic * per_topic + torch.randint(0, per_topic, (n, SEQ // 2))
        filler = torch.randint(0, VOCAB, (n, SEQ - SEQ // 2))
        return torch.cat([content, filler], dim=1)
    return view(), view()


def train(inplace, steps=150, seed=0):
    torch.manual_seed(seed)
    enc = SentenceEncoder()
    crit = RedundancyReductionLoss(inplace_norm=inplace)
    opt = torch.optim.Adam(enc.parameters(), lr=5e-3)
    hist = []
    for _ in range(steps):
        a, b = paraphrase_batch()
        loss = crit(enc(a), enc(b))
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    return enc, hist


def heldout_loss(enc, seed=99):
    torch.manual_seed(seed)
    a, b = paraphrase_batch(1024)
    crit = RedundancyReductionLoss(inplace_norm=False)
    with torch.no_grad():
        return crit(enc(a), enc(b)).item()


def main():
    torch.set_num_threads(1)
    err = None
    try:
        train(inplace=True, steps=3)
    except RuntimeError as exc:
        err = exc
    assert err is not None, "in-place standardisation of encoder outputs must break backward"
    assert "inplace operation" in str(err), err

    torch.manual_seed(0)
    before = heldout_loss(SentenceEncoder())
    enc, hist = train(inplace=False)
    after = heldout_loss(enc)
    print(f"fixed: held-out redundancy loss {before:.2f} -> {after:.2f}")
    assert after < 0.6 * before, (before, after)
    print("k05 OK: in-place standardisation of model outputs inside the loss raises at backward")


if __name__ == "__main__":
    main()
