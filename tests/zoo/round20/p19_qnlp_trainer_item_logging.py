"""
expect: none
dynamic: dismiss
source: https://github.com/Quantinuum/lambeq/pull/251

A quantum-NLP toolkit's PyTorch trainer logs `loss.item()` into `self.train_costs`, returns
`loss.item()` from the training step, and computes validation under torch.no_grad() returning
`loss.item()` too. The PR suspected a memory leak there and proposed extra detaches; the reviewer
pointed out that `.item()` already yields a plain Python number, and the extra detach on the
loss was dropped again. Taking the loss out with .item() is correct here because nothing is ever rebuilt
from it and trained through. The program trains a tiny DisCoCat-style sentence model (word
matrices contracted along the sentence) with such a trainer and asserts every parameter gets a
gradient, the logged costs are floats, and the training loss falls.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, DIM = 10, 4


class SentenceModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = nn.Parameter(0.5 * torch.randn(VOCAB, DIM, DIM) + torch.eye(DIM))
        self.readout = nn.Parameter(torch.randn(DIM))

    def forward(self, sentences):
        out = []
        for s in sentences:
            state = torch.ones(DIM) / DIM ** 0.5
            for w in s:
                state = torch.tanh(self.words[w] @ state)
            out.append(state @ self.readout)
        return torch.sigmoid(torch.stack(out))


class PytorchTrainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_function = nn.BCELoss()
        self.train_costs, self.val_costs = [], []

    def training_step(self, batch):
        x, y = batch
        y_hat = self.model(x)
        loss = self.loss_function(y_hat, y)
        self.train_costs.append(loss.item())
        self.optimizer.zero_grad()
        loss.backward()
        self.grads_ok = all(p.grad is not None and p.grad.abs().sum() > 0 for p in self.model.parameters())
        self.optimizer.step()
        return y_hat.detach(), loss.item()

    def validation_step(self, batch):
        x, y = batch
        with torch.no_grad():
            y_hat = self.model(x)
            loss = self.loss_function(y_hat, y)
        self.val_costs.append(loss.item())
        return y_hat, loss.item()


def make_data(n):
    sents = [torch.randint(0, VOCAB, (4,)) for _ in range(n)]
    labels = torch.tensor([float((s < VOCAB // 2).sum() >= 2) for s in sents])
    return sents, labels


train_data, val_data = make_data(48), make_data(16)
trainer = PytorchTrainer(SentenceModel())
for epoch in range(25):
    trainer.training_step(train_data)
    assert trainer.grads_ok
    trainer.validation_step(val_data)

assert all(isinstance(c, float) for c in trainer.train_costs + trainer.val_costs)
print(f"train cost {trainer.train_costs[0]:.3f} -> {trainer.train_costs[-1]:.3f}")
assert trainer.train_costs[-1] < 0.8 * trainer.train_costs[0]
print("OK")
