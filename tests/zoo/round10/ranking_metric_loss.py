"""
expect: GL003 40
dynamic: confirm
source: https://github.com/Lightning-AI/torchmetrics/issues/388

The torchmetrics issue tries to use a classification metric (AveragePrecision)
directly as a training loss and gets "element 0 of tensors does not require
grad and does not have a grad_fn"; the maintainers answer that the metric is
not differentiable. This program has a plain metric object whose __call__
computes average precision under torch.no_grad() (it sorts and thresholds, so
it is evaluation-only). A retrieval trainer uses `1 - AP` as its loss, hits
the error, and "fixes" it with `loss.requires_grad = True`. Backward and
optimizer.step() then run, but the scorer's weights keep grad None and never
change: the loss is a fresh leaf with no history back to the model.
"""
import torch
import torch.nn as nn


class AveragePrecision:
    """Evaluation metric: mean average precision of scores against 0/1 labels."""

    def __call__(self, scores, labels):
        with torch.no_grad():
            order = torch.argsort(scores, descending=True)
            hits = labels[order].float()
            ranks = torch.arange(1, hits.numel() + 1, dtype=torch.float32)
            precision_at_k = hits.cumsum(0) / ranks
            return (precision_at_k * hits).sum() / hits.sum().clamp(min=1.0)


class RetrievalTrainer:
    def __init__(self, scorer, metric, lr=0.05):
        self.scorer, self.metric = scorer, metric
        self.opt = torch.optim.SGD(scorer.parameters(), lr=lr)

    def train_step(self, queries, labels):
        scores = self.scorer(queries).squeeze(-1)
        loss = 1.0 - self.metric(scores, labels)
        loss.requires_grad = True
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


def main():
    torch.manual_seed(0)
    scorer = nn.Sequential(nn.Linear(8, 16), nn.Tanh(), nn.Linear(16, 1))
    metric = AveragePrecision()
    x = torch.randn(64, 8)
    labels = (x[:, 0] + 0.3 * torch.randn(64) > 0).long()

    loss = 1.0 - metric(scorer(x).squeeze(-1), labels)
    try:
        loss.backward()
        raise AssertionError("expected the does-not-require-grad error")
    except RuntimeError as err:
        assert "does not require grad" in str(err)

    trainer = RetrievalTrainer(scorer, metric)
    before = [p.detach().clone() for p in scorer.parameters()]
    for _ in range(10):
        trainer.train_step(x, labels)
        assert all(p.grad is None for p in scorer.parameters())
    assert all(torch.equal(b, a) for b, a in zip(before, scorer.parameters()))
    print("scorer never trains through the metric loss: confirmed")


if __name__ == "__main__":
    main()
