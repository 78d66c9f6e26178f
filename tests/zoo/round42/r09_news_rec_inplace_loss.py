"""
expect: none
dynamic: dismiss
source: https://github.com/weiyezhimeng/NRMS/blob/HEAD/utils.py

A news recommender in the NRMS style scores candidate news against a user vector built from the user's click
history and trains with a sampled softmax: for every clicked impression, one positive is contrasted with up to
four sampled negatives. The loss routine starts from a plain `loss_all = torch.tensor(0.0)` and accumulates
each impression's negative log-softmax with an in-place `loss_all -= ...`, then divides by the number of
positives. The starting tensor is a constant that no recorded op saved, and in-place subtraction saves none of
its operands, so the accumulated loss keeps a full history to both encoders. The asserts show that the loss
carries a grad_fn, that its gradients equal those of an out-of-place torch.stack formulation, that the shared
news encoder and the user attention both get gradients, and that training drives the impression loss down.
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
random.seed(0)
torch.set_num_threads(1)

VOCAB, DIM, TITLE_LEN = 50, 16, 6


class NewsEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.att = nn.MultiheadAttention(DIM, 2, batch_first=True)
        self.proj = nn.Linear(DIM, DIM)

    def forward(self, titles):
        h = self.emb(titles)
        h, _ = self.att(h, h, h)
        return torch.tanh(self.proj(h.mean(1)))


class UserEncoder(nn.Module):
    def __init__(self, news_encoder):
        super().__init__()
        self.news_encoder = news_encoder
        self.query = nn.Linear(DIM, 1)

    def forward(self, history):
        clicked = self.news_encoder(history)
        w = torch.softmax(self.query(clicked).squeeze(-1), 0)
        return (w[:, None] * clicked).sum(0)


def impression_loss(batch, model_user, model_news):
    num = 0
    loss_all = torch.tensor(0.0)
    for history, positives, negatives in batch:
        user = model_user(history)
        negatives = random.sample(negatives, 4) if len(negatives) > 4 else negatives
        cands = model_news(torch.cat([positives, negatives], 0))
        scores = cands @ user
        score_1, score_0 = scores[: len(positives)], scores[len(positives) :]
        for j in range(len(positives)):
            logits = torch.cat((score_1[j : j + 1], score_0), 0)
            loss_all -= torch.log(F.softmax(logits - logits.max(), 0)[0])
        num += len(positives)
    return loss_all / num


def impression_loss_stacked(batch, model_user, model_news):
    terms = []
    for history, positives, negatives in batch:
        user = model_user(history)
        cands = model_news(torch.cat([positives, negatives], 0))
        scores = cands @ user
        for j in range(len(positives)):
            logits = torch.cat((scores[j : j + 1], scores[len(positives) :]), 0)
            terms.append(-F.log_softmax(logits, 0)[0])
    return torch.stack(terms).mean()


def make_batch(n_users=4):
    batch = []
    for _ in range(n_users):
        topic = random.randint(0, 4)
        history = torch.randint(topic * 10, topic * 10 + 10, (5, TITLE_LEN))
        positives = torch.randint(topic * 10, topic * 10 + 10, (2, TITLE_LEN))
        negatives = torch.randint(0, VOCAB, (4, TITLE_LEN))
        batch.append((history, positives, negatives))
    return batch


model_news = NewsEncoder()
model_user = UserEncoder(model_news)
optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model_user.parameters()), lr=1e-2)
batch = make_batch()

loss = impression_loss(batch, model_user, model_news)
assert loss.grad_fn is not None
params = list(model_user.parameters())
g_inplace = torch.autograd.grad(loss, params)
g_stack = torch.autograd.grad(impression_loss_stacked(batch, model_user, model_news), params)
for a, b in zip(g_inplace, g_stack):
    assert torch.allclose(a, b, atol=1e-5)
assert g_inplace[0].abs().sum() > 0            # news embedding
assert g_inplace[-2].abs().sum() > 0           # user attention query

losses = []
for step in range(40):
    loss = impression_loss(batch, model_user, model_news)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
assert losses[-1] < 0.5 * losses[0]
print("impression loss %.3f -> %.3f" % (losses[0], losses[-1]))
