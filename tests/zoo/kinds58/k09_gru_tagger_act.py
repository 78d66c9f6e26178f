"""
expect: none
dynamic: dismiss
source: none, invented

A BiGRU sequence tagger (a toy NER task on padded token batches). tag_features picks the
activation of the feature layer with an if/else whose arms apply different ops: GELU for the
"gelu" config, leaky ReLU otherwise. Right after that it zeroes the padding positions in place,
feats.mul_(mask). Both GELU and leaky ReLU keep their input, not their output, for backward, and
the in-place multiply by a constant mask only needs the mask, so the edited tensor is not one that
any earlier node saved. The asserts train taggers with both configurations, check that the loss
falls and that the feature layer and the GRU receive non-zero gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0
N_TAGS = 5


def tag_features(hidden, mask, layer, act="gelu"):
    pre = layer(hidden)
    if act == "gelu":
        feats = F.gelu(pre)
    else:
        feats = F.leaky_relu(pre, negative_slope=0.1)
    feats.mul_(mask.unsqueeze(-1).to(feats.dtype))
    return feats


class BiGRUTagger(nn.Module):
    def __init__(self, vocab=120, emb=32, hidden=48, act="gelu"):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb, padding_idx=PAD)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=True)
        self.feat = nn.Linear(2 * hidden, hidden)
        self.tag_head = nn.Linear(hidden, N_TAGS)
        self.act = act

    def forward(self, tokens):
        mask = tokens != PAD
        out, _ = self.rnn(self.emb(tokens))
        feats = tag_features(out, mask, self.feat, act=self.act)
        return self.tag_head(feats)


def synthetic_batch(n=64, max_len=14):
    lengths = torch.randint(5, max_len + 1, (n,))
    tokens = torch.randint(1, 120, (n, max_len))
    tokens[torch.arange(max_len)[None] >= lengths[:, None]] = PAD
    tags = (tokens // 25).clamp(max=N_TAGS - 1)
    prev = torch.roll(tokens, 1, dims=1)
    tags = torch.where((prev % 7 == 0) & (tokens != PAD), torch.full_like(tags, 4), tags)
    tags[tokens == PAD] = -100
    return tokens, tags


def fit(act):
    torch.manual_seed(0)
    model = BiGRUTagger(act=act)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    tokens, tags = synthetic_batch()
    losses = []
    for _ in range(40):
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, N_TAGS), tags.reshape(-1), ignore_index=-100)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    for act in ("gelu", "leaky"):
        model, losses = fit(act)
        assert losses[-1] < 0.5 * losses[0], (act, losses[0], losses[-1])
        assert model.feat.weight.grad.abs().sum() > 0
        assert model.rnn.weight_ih_l0.grad.abs().sum() > 0
        print("gru tagger (%s): ok, ce %.3f -> %.3f" % (act, losses[0], losses[-1]))


if __name__ == "__main__":
    main()
