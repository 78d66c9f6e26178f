"""
expect: none
dynamic: dismiss
source: https://discuss.pytorch.org/t/adversarial-training-implementation-in-pytorch/33975

Adversarial training on word embeddings (FGM-style) for a span-prediction reader.
Model.update() computes the clean loss F(x, theta); adversarial_loss() back-props
that loss once with retain_graph=True only to read the gradient of the embedding
matrix, turns it into a normalised perturbation, swaps the perturbed matrix into
embedding.weight.data, runs a second forward for F(x + r, theta), restores the
original matrix and returns the adversarial loss. update() then back-propagates
loss + loss_adv, which walks the clean graph a second time. Here retain_graph=True
is right: the retained graph is reused exactly once inside the same step and is
freed by the second backward, nothing is carried to the next batch, and the
weight swap goes through .data of the embedding matrix, which no recorded op
saved (embedding saves only the indices). The asserts show the final gradient
equals grad F(x) + grad F(x + r) computed from fresh graphs, and that both
losses fall during training.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEQ, B = 50, 16, 12, 8


class LexiconEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)

    def forward(self, tokens):
        return self.embedding(tokens)


class SpanReader(nn.Module):
    def __init__(self):
        super().__init__()
        self.lexicon_encoder = LexiconEncoder()
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.start_head = nn.Linear(DIM, 1)
        self.end_head = nn.Linear(DIM, 1)

    def forward(self, tokens):
        h, _ = self.rnn(self.lexicon_encoder(tokens))
        return self.start_head(h).squeeze(-1), self.end_head(h).squeeze(-1)


class Model:
    def __init__(self, epsilon=1.0):
        self.network = SpanReader()
        self.optimizer = torch.optim.Adam(self.network.parameters(), lr=1e-2)
        self.epsilon = epsilon

    def update(self, batch):
        tokens, y_start, y_end = batch
        self.network.train()
        start, end = self.network(tokens)
        loss = F.cross_entropy(start, y_start) + F.cross_entropy(end, y_end)
        loss_adv = self.adversarial_loss(batch, loss)
        loss_total = loss + loss_adv
        self.optimizer.zero_grad()
        loss_total.backward()
        grads = [p.grad.detach().clone() for p in self.network.parameters()]
        self.optimizer.step()
        return loss.item(), loss_adv.item(), grads

    def adversarial_loss(self, batch, loss):
        tokens, y_start, y_end = batch
        emb = self.network.lexicon_encoder.embedding
        self.optimizer.zero_grad()
        loss.backward(retain_graph=True)
        grad = emb.weight.grad.detach()
        perturb = F.normalize(grad, p=2, dim=1) * self.epsilon
        self.last_perturb = perturb
        original_emb = emb.weight.data
        emb.weight.data = original_emb + perturb
        start_adv, end_adv = self.network(tokens)
        loss_adv = F.cross_entropy(start_adv, y_start) + F.cross_entropy(end_adv, y_end)
        emb.weight.data = original_emb
        return loss_adv


def make_batch():
    tokens = torch.randint(0, VOCAB, (B, SEQ))
    y_start = (tokens % 7).argmax(dim=1)
    y_end = (tokens % 5).argmax(dim=1)
    return tokens, y_start, y_end


model = Model()
batch = make_batch()
params = list(model.network.parameters())
snapshot = [p.detach().clone() for p in params]
loss0, adv0, grads = model.update(batch)

# reference on a copy of the pre-step weights, with independent graphs
ref = SpanReader()
with torch.no_grad():
    for p, s in zip(ref.parameters(), snapshot):
        p.copy_(s)
tokens, ys, ye = batch
g_clean = torch.autograd.grad(sum(F.cross_entropy(o, y) for o, y in zip(ref(tokens), (ys, ye))),
                              list(ref.parameters()))
with torch.no_grad():
    ref.lexicon_encoder.embedding.weight.add_(model.last_perturb)
g_adv = torch.autograd.grad(sum(F.cross_entropy(o, y) for o, y in zip(ref(tokens), (ys, ye))),
                            list(ref.parameters()))
for g, a, b in zip(grads, g_clean, g_adv):
    assert torch.allclose(g, a + b, atol=1e-5), (g - a - b).abs().max()
print("joint gradient == grad F(x) + grad F(x+r)")

history = []
for step in range(60):
    l, la, _ = model.update(batch)
    history.append((l, la))
assert history[-1][0] < loss0 * 0.5 and history[-1][1] < adv0 * 0.5, (loss0, adv0, history[-1])
print("clean loss", round(loss0, 3), "->", round(history[-1][0], 3),
      "| adversarial loss", round(adv0, 3), "->", round(history[-1][1], 3))
