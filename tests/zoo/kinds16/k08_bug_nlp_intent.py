"""
expect: GL001 28
dynamic: confirm
source: kind 8

An intent classifier over a small GRU sentence encoder cuts the encoder
features with `if self.training: feats = feats.detach()`. That is a mode, not
an option: the model is trained in train mode, so the encoder is always cut
during training and never learns. The asserts show the embedding and GRU get
no gradient and stay unchanged in train mode, while the same model without
the cut trains them.
"""
import torch
import torch.nn as nn


class IntentClassifier(nn.Module):
    def __init__(self, vocab=200, dim=32, n_intents=5):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, n_intents)

    def forward(self, tokens):
        _, h = self.gru(self.embed(tokens))
        feats = h[-1]
        if self.training:
            feats = feats.detach()
        return self.head(feats)


class FixedIntentClassifier(IntentClassifier):
    def forward(self, tokens):
        _, h = self.gru(self.embed(tokens))
        return self.head(h[-1])


def train(model_cls, steps=10):
    torch.manual_seed(13)
    model = model_cls()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    tokens = torch.randint(1, 200, (32, 12))
    intents = tokens[:, 0] % 5
    emb_before = model.embed.weight.detach().clone()
    model.train()
    for _ in range(steps):
        opt.zero_grad()
        nn.functional.cross_entropy(model(tokens), intents).backward()
        grads = (model.embed.weight.grad, model.gru.weight_hh_l0.grad)
        opt.step()
    return model, emb_before, grads


if __name__ == "__main__":
    model, emb_before, grads = train(IntentClassifier)
    assert all(g is None for g in grads)
    assert torch.equal(model.embed.weight, emb_before)
    assert model.head.weight.grad is not None

    model, emb_before, grads = train(FixedIntentClassifier)
    assert all(g is not None and g.abs().sum() > 0 for g in grads)
    assert not torch.equal(model.embed.weight, emb_before)
    print("ok: `if self.training: detach()` starves the encoder in training")
