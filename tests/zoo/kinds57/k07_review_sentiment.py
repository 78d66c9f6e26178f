"""
expect: GL003 45
dynamic: confirm
source: none, invented

A bag-of-embeddings sentiment classifier for product reviews. The trainer keeps every step's loss tensor
in `self.loss_history`; to stop that list from pinning the graphs it calls `loss.detach_()` in place, and
when `backward()` then complained that the loss does not require grad, the call was chained with
`.requires_grad_()`. The in-place detach turns the loss itself into a fresh leaf, so `backward()` only
fills `loss.grad` and the model's parameters never get a gradient; the optimizer steps nothing. The
asserts show the embedding and output weights with `.grad` None and unchanged after an epoch, and the
same trainer learning (weights move, accuracy rises) when it stores `loss.item()` instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, MAXLEN = 500, 20


class ReviewClassifier(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embed = nn.EmbeddingBag(VOCAB, dim, mode="mean", padding_idx=0)
        self.out = nn.Linear(dim, 2)

    def forward(self, tokens):
        return self.out(self.embed(tokens))


class SentimentTrainer:
    def __init__(self, model, keep_tensors=True):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=5e-3)
        self.keep_tensors = keep_tensors
        self.loss_history = []

    def train_step(self, tokens, labels):
        loss = F.cross_entropy(self.model(tokens), labels)
        if self.keep_tensors:
            self.loss_history.append(loss)
            loss.detach_().requires_grad_()
        else:
            self.loss_history.append(loss.item())
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    @torch.no_grad()
    def accuracy(self, tokens, labels):
        return (self.model(tokens).argmax(-1) == labels).float().mean().item()


def make_reviews(n=600):
    labels = torch.randint(0, 2, (n,))
    tokens = torch.randint(1, VOCAB, (n, MAXLEN))
    cue = torch.where(labels[:, None] == 1, torch.randint(1, 20, (n, 4)), torch.randint(20, 40, (n, 4)))
    tokens[:, :4] = cue
    return tokens, labels


def run(keep_tensors):
    torch.manual_seed(0)
    model = ReviewClassifier()
    trainer = SentimentTrainer(model, keep_tensors)
    tokens, labels = make_reviews()
    emb0 = model.embed.weight.detach().clone()
    acc0 = trainer.accuracy(tokens, labels)
    for epoch in range(5):
        for i in range(0, 600, 50):
            trainer.train_step(tokens[i:i + 50], labels[i:i + 50])
    return model, emb0, acc0, trainer.accuracy(tokens, labels)


if __name__ == "__main__":
    model, emb0, acc0, acc = run(keep_tensors=True)
    assert model.embed.weight.grad is None and model.out.weight.grad is None
    assert torch.equal(model.embed.weight, emb0)
    assert acc == acc0

    model, emb0, acc0, acc = run(keep_tensors=False)
    assert model.embed.weight.grad is not None
    assert not torch.equal(model.embed.weight, emb0)
    assert acc > 0.9 and acc > acc0, (acc0, acc)
    print(f"tensor history: no learning; float history: accuracy {acc0:.2f} -> {acc:.2f}")
