"""
expect: none
dynamic: dismiss
source: https://github.com/ibm-research-tokyo/graph_grammar/issues/3

The molecular hypergraph-grammar VAE encodes a sequence of production rules,
samples z with a reparameterisation written with in-place ops
(logvar.mul(0.5).exp_() and eps.mul(std).add_(mu)), and decodes with a GRU
whose hidden state is re-created every batch by init_hidden() as
torch.zeros(..., requires_grad=False); feed_hidden() then writes the projected
latent into the first layer with an in-place slice assignment
(hidden["h"][0] = latent2hidden(z)). The issue asked whether requires_grad=False
blocks the gradient; the reporter noticed that requires_grad turns True right
after feed_hidden, and the maintainer replied it "should be True", but the code
is right as written: the zeros are a fresh leaf nobody saved, the slice copy
records a CopySlices node, and the in-place exp_/add_ touch tensors no backward
formula needs. The embeddings are also initialised through .data. Asserts: the
hidden buffer starts without grad and requires grad after the write, the
encoder, the latent heads and latent2hidden all get gradients, and the
reconstruction loss falls.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, MAX_LEN, BATCH, HID, LATENT, LAYERS = 14, 9, 16, 24, 6, 2


class GRUDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.GRU(8, HID, LAYERS, batch_first=True)
        self.hidden_dict = {}
        self.init_hidden()

    def init_hidden(self):
        self.hidden_dict["h"] = torch.zeros((LAYERS, BATCH, HID), requires_grad=False)

    def feed_hidden(self, hidden_dict_0):
        for key in self.hidden_dict.keys():
            self.hidden_dict[key][0] = hidden_dict_0[key]

    def forward_one_step(self, emb):
        out, self.hidden_dict["h"] = self.model(emb.view(BATCH, 1, -1), self.hidden_dict["h"])
        return out


class GrammarSeq2SeqVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_embedding = nn.Embedding(VOCAB, 8)
        self.tgt_embedding = nn.Embedding(VOCAB, 8)
        self.encoder = nn.GRU(8, HID, batch_first=True)
        self.hidden2mean = nn.Linear(HID, LATENT)
        self.hidden2logvar = nn.Linear(HID, LATENT)
        self.latent2hidden = nn.Linear(LATENT, HID)
        self.decoder = GRUDecoder()
        self.dec2vocab = nn.Linear(HID, VOCAB)
        self.src_embedding.weight.data.uniform_(-0.1, 0.1)
        self.tgt_embedding.weight.data.uniform_(-0.1, 0.1)

    def reparameterize(self, mu, logvar):
        std = logvar.mul(0.5).exp_()
        eps = std.new_empty(std.size()).normal_()
        return eps.mul(std).add_(mu)

    def forward(self, seq):
        src_h, _ = self.encoder(self.src_embedding(seq))
        mu, logvar = self.hidden2mean(src_h[:, -1]), self.hidden2logvar(src_h[:, -1])
        z = self.reparameterize(mu, logvar)
        self.decoder.init_hidden()
        before = self.decoder.hidden_dict["h"].requires_grad
        self.decoder.feed_hidden({"h": torch.tanh(self.latent2hidden(z))})
        after = self.decoder.hidden_dict["h"].requires_grad
        tgt_emb = self.tgt_embedding(seq)
        logits = []
        for t in range(MAX_LEN):
            prev = tgt_emb[:, t - 1] if t > 0 else torch.zeros(BATCH, 8)
            logits.append(self.dec2vocab(self.decoder.forward_one_step(prev).squeeze(1)))
        return torch.stack(logits, 1), mu, logvar, (before, after)


rng = np.random.default_rng(0)
corpus = torch.tensor(np.mod(rng.integers(0, VOCAB, (BATCH, 1)) + np.arange(MAX_LEN), VOCAB))
model = GrammarSeq2SeqVAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
hist = []
for step in range(120):
    logits, mu, logvar, flags = model(corpus)
    rec = F.cross_entropy(logits.reshape(-1, VOCAB), corpus.reshape(-1))
    kl = -0.5 * torch.mean(1 + logvar - mu ** 2 - logvar.exp())
    loss = rec + 0.01 * kl
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(rec.item())

assert flags == (False, True)
for mod in (model.encoder, model.hidden2mean, model.hidden2logvar, model.latent2hidden, model.src_embedding):
    g = next(mod.parameters()).grad
    assert g is not None and g.abs().sum() > 0, mod
assert hist[-1] < 0.5 * hist[0], (hist[0], hist[-1])
print("hidden buffer requires_grad before/after feed:", flags, "| rec loss %.3f -> %.3f" % (hist[0], hist[-1]))
