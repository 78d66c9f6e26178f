"""expect: GL003 51
dynamic: confirm
source: https://github.com/pytorch/xla/pull/9313

Fine-tuning a small text classifier through a "backend" wrapper that was
written for fast inference: it runs the wrapped module's forward under
torch.no_grad(). Reused in the training step, the logits come back without a
grad_fn, so `loss.backward()` raised "element 0 of tensors does not require
grad". The training step "fixes" that with `loss.requires_grad_(True)`, which
only makes the loss itself a new leaf: backward now runs without error, but no
gradient reaches any model parameter and the optimizer never changes the model.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BagOfEmbeddings(nn.Module):
    def __init__(self, vocab=50, dim=16, n_classes=3):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.classifier = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, n_classes))

    def forward(self, tokens):
        return self.classifier(self.embed(tokens))


class BackendModule:
    """Dispatches the wrapped module through the accelerated execution path."""

    def __init__(self, module):
        self.module = module

    def __call__(self, *args):
        with torch.no_grad():
            return self.module(*args)


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model
        self.backend = BackendModule(model)
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)

    def train_one_epoch(self, loader):
        running = 0.0
        for tokens, labels in loader:
            self.optimizer.zero_grad()
            outputs = self.backend(tokens)
            loss = F.cross_entropy(outputs, labels)
            loss.requires_grad_(True)
            loss.backward()
            self.optimizer.step()
            running += loss.item()
        return running / len(loader)


def main():
    torch.manual_seed(0)
    model = BagOfEmbeddings()
    loader = [(torch.randint(0, 50, (8, 5)), torch.randint(0, 3, (8,))) for _ in range(4)]
    before = [p.detach().clone() for p in model.parameters()]
    trainer = Trainer(model)
    for _ in range(3):
        trainer.train_one_epoch(loader)
    assert all(p.grad is None for p in model.parameters())
    assert all(torch.equal(a, b.detach()) for a, b in zip(before, model.parameters()))
    print("loss was turned into a leaf; model parameters never changed")


if __name__ == "__main__":
    main()
