"""
expect: GL001 32
dynamic: confirm
source: kind A

A sequence-tagging trainer with an LSTM encoder and a linear tag head has a `probe_mode`
option that defaults to True, and the script builds it only with that default; the option cuts the
encoder features from the graph before the tag head, and the tag loss is the only loss, so the
encoder (which its optimizer is supposed to train) gets no gradient. The asserts show the encoder's
.grad stays None and its weights never change, while a hand-written loop that keeps the features
attached trains the encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(1)


class TaggerTrainer:
    def __init__(self, vocab=20, emb=8, hidden=16, n_tags=5, probe_mode=True):
        self.embed = nn.Embedding(vocab, emb)
        self.encoder = nn.LSTM(emb, hidden, batch_first=True)
        self.tag_head = nn.Linear(hidden, n_tags)
        self.probe_mode = probe_mode
        params = [*self.embed.parameters(), *self.encoder.parameters(), *self.tag_head.parameters()]
        self.opt = torch.optim.SGD(params, lr=0.1)

    def train_step(self, tokens, tags):
        feats, _ = self.encoder(self.embed(tokens))
        if self.probe_mode:
            feats = feats.detach()
        logits = self.tag_head(feats)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


tokens = torch.randint(0, 20, (4, 7))
tags = torch.randint(0, 5, (4, 7))

trainer = TaggerTrainer()
enc_before = trainer.encoder.weight_ih_l0.detach().clone()
head_before = trainer.tag_head.weight.detach().clone()
for _ in range(5):
    trainer.train_step(tokens, tags)
assert trainer.encoder.weight_ih_l0.grad is None
assert trainer.embed.weight.grad is None
assert torch.equal(enc_before, trainer.encoder.weight_ih_l0.detach())
assert not torch.equal(head_before, trainer.tag_head.weight.detach())
print("default trainer: encoder untouched, only the tag head moved")

# Fixed variant by hand: same model, features kept in the graph.
embed, encoder, tag_head = nn.Embedding(20, 8), nn.LSTM(8, 16, batch_first=True), nn.Linear(16, 5)
opt = torch.optim.SGD([*embed.parameters(), *encoder.parameters(), *tag_head.parameters()], lr=0.1)
enc0 = encoder.weight_ih_l0.detach().clone()
for _ in range(5):
    feats, _ = encoder(embed(tokens))
    logits = tag_head(feats)
    loss = F.cross_entropy(logits.reshape(-1, 5), tags.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
assert encoder.weight_ih_l0.grad is not None and encoder.weight_ih_l0.grad.abs().sum() > 0
assert not torch.equal(enc0, encoder.weight_ih_l0.detach())
print("ok")
