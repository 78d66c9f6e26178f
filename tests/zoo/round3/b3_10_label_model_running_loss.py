"""expect: none
dynamic: none
source: https://github.com/BatsResearch/labelmodels/issues/4

labelmodels' training loop accumulated running_loss += loss, keeping every batch's graph
alive until the GPU ran out of memory.  The fix (merged) logs running_loss += loss.item(),
so only a Python float is kept; gradients still reach the label model every step.
"""
import torch
import torch.nn as nn


class NaiveBayes(nn.Module):
    """Tiny generative label model over the votes of m labeling functions."""

    def __init__(self, num_classes, num_lfs):
        super().__init__()
        self.class_balance = nn.Parameter(torch.zeros(num_classes))
        self.accuracy = nn.Parameter(torch.full((num_lfs,), 0.7))
        self.num_classes = num_classes

    def _get_norm_class_balance(self):
        return self.class_balance - torch.logsumexp(self.class_balance, dim=0)

    def forward(self, votes):
        # votes: (batch, m) in {0 (abstain), 1..k}
        logacc = torch.log(torch.sigmoid(self.accuracy))
        logerr = torch.log1p(-torch.sigmoid(self.accuracy)) - torch.log(torch.tensor(self.num_classes - 1.0))
        cls = torch.arange(1, self.num_classes + 1).view(1, 1, -1)
        v = votes.unsqueeze(-1)
        ll = torch.where(v == 0, torch.zeros(()), torch.where(v == cls, logacc.view(1, -1, 1), logerr.view(1, -1, 1)))
        return self._get_norm_class_balance() + ll.sum(1)

    def estimate_label_model(self, batches, epochs=2, lr=0.05):
        optimizer = torch.optim.SGD(self.parameters(), lr=lr)
        history = []
        for epoch in range(epochs):
            running_loss = 0.0
            for votes in batches:
                optimizer.zero_grad()
                log_likelihood = torch.logsumexp(self(votes), dim=1)
                loss = -1 * torch.mean(log_likelihood)
                loss.backward()
                optimizer.step()
                running_loss += loss.item()
            history.append(running_loss / len(batches))
        return history


if __name__ == "__main__":
    torch.manual_seed(0)
    model = NaiveBayes(num_classes=3, num_lfs=5)
    batches = [torch.randint(0, 4, (16, 5)) for _ in range(4)]
    acc0 = model.accuracy.detach().clone()
    history = model.estimate_label_model(batches)
    assert all(isinstance(h, float) for h in history)
    assert model.accuracy.grad is not None and model.class_balance.grad is not None
    assert not torch.equal(acc0, model.accuracy)
    print("label model trained; epoch losses", [round(h, 3) for h in history])
