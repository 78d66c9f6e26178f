"""
expect: GL001 main.py:56
dynamic: confirm
source: none, invented

Fine-tuning a pretrained language model for sentiment, over three files. `models.py` defines a GRU language
model and a classification head, `pretrain.py` trains the LM on next-token prediction and saves it, and
`main.py` loads it and fine-tunes. The optimizer in `finetune` holds both models, the LM with a smaller
learning rate (discriminative fine-tuning), so the LM is meant to adapt to the sentiment labels; but the
sentence features are taken as `lm.encode(tokens).detach()`, which removes the LM's only path to the
classification loss. The LM gets no gradient, Adam skips it, and it ends every epoch identical to the
checkpoint. The asserts check exactly that (grads None, weights equal to the checkpoint) and that
`finetune_through_lm`, which uses the features without `.detach()`, changes the LM and fits the labels better.
"""
import os

import torch
import torch.nn.functional as F

from models import SentimentHead, TinyGRULM
from pretrain import corpus, pretrain_lm

torch.set_num_threads(1)

CKPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "checkpoints", "lm.pt")


def sentiment_data(n=2000):
    tokens = corpus(n, seed=7)
    positive = torch.isin(tokens, torch.tensor([3, 5, 8, 13, 21, 34])).sum(1)
    negative = torch.isin(tokens, torch.tensor([2, 4, 9, 16, 25, 36])).sum(1)
    return tokens, (positive > negative).long()


def load_lm():
    lm = TinyGRULM()
    lm.load_state_dict(torch.load(CKPT))
    return lm


def accuracy(lm, head, tokens, labels):
    head.eval()
    with torch.no_grad():
        acc = (head(lm.encode(tokens)).argmax(-1) == labels).float().mean().item()
    head.train()
    return acc


def finetune(lm, head, tokens, labels, epochs=12):
    opt = torch.optim.Adam([
        {"params": lm.parameters(), "lr": 1e-3},
        {"params": head.parameters(), "lr": 3e-3},
    ])
    for epoch in range(epochs):
        for idx in torch.randperm(tokens.shape[0]).split(64):
            feats = lm.encode(tokens[idx]).detach()
            loss = F.cross_entropy(head(feats), labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return accuracy(lm, head, tokens, labels)


def finetune_through_lm(lm, head, tokens, labels, epochs=12):
    opt = torch.optim.Adam([
        {"params": lm.parameters(), "lr": 1e-3},
        {"params": head.parameters(), "lr": 3e-3},
    ])
    for epoch in range(epochs):
        for idx in torch.randperm(tokens.shape[0]).split(64):
            loss = F.cross_entropy(head(lm.encode(tokens[idx])), labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    return accuracy(lm, head, tokens, labels)


def main():
    if not os.path.exists(CKPT):
        pretrain_lm(CKPT)
    tokens, labels = sentiment_data()
    saved = torch.load(CKPT)

    torch.manual_seed(0)
    lm, head = load_lm(), SentimentHead()
    acc = finetune(lm, head, tokens, labels)
    assert all(p.grad is None for p in lm.parameters())
    assert all(torch.equal(v, lm.state_dict()[k]) for k, v in saved.items())

    torch.manual_seed(0)
    lm2, head2 = load_lm(), SentimentHead()
    acc2 = finetune_through_lm(lm2, head2, tokens, labels)
    assert not torch.equal(saved["rnn.weight_hh_l0"], lm2.rnn.weight_hh_l0)
    assert acc2 > acc, (acc, acc2)
    print(f"sentiment accuracy {acc:.3f} (LM as loaded) vs {acc2:.3f} (LM fine-tuned)")


if __name__ == "__main__":
    main()
