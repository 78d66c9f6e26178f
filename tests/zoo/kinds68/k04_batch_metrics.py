"""
expect: none
dynamic: dismiss
source: none, invented

A sentiment classifier over bag-of-embeddings features. Each step computes the training loss and, through a
helper decorated with `@torch.no_grad()`, the batch accuracy and mean confidence from the same logits for the
progress log. The helper's results are only turned into Python numbers and stored; nothing from it is added
to the loss, so the no-grad decorator is exactly right. The asserts show every parameter receives a gradient
and the training loss drops.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagClassifier(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=2):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.out = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        return self.out(self.emb(tokens))


@torch.no_grad()
def batch_metrics(logits, labels):
    probs = logits.softmax(-1)
    acc = (probs.argmax(-1) == labels).float().mean()
    conf = probs.max(-1).values.mean()
    return {"acc": acc.item(), "conf": conf.item()}


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = BagClassifier()
    opt = torch.optim.Adam(model.parameters(), lr=5e-2)
    tokens = torch.randint(0, 50, (64, 7))
    labels = (tokens < 25).sum(1).gt(3).long()
    log = []
    for epoch in range(30):
        opt.zero_grad()
        logits = model(tokens)
        loss = F.cross_entropy(logits, labels)
        loss.backward()
        for name, p in model.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
        stats = batch_metrics(logits, labels)
        stats["loss"] = loss.item()
        log.append(stats)
    assert log[-1]["loss"] < log[0]["loss"] * 0.8
    print(f"ok: loss {log[0]['loss']:.3f} -> {log[-1]['loss']:.3f}, acc {log[-1]['acc']:.2f}")


if __name__ == "__main__":
    main()
