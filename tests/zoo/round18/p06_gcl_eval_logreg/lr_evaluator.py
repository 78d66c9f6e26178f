"""Linear-probe evaluator for graph contrastive learning embeddings (in the style of
PyGCL's LREvaluator): fits a logistic regression on frozen node embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LogisticRegression(nn.Module):
    def __init__(self, num_features, num_classes):
        super().__init__()
        self.fc = nn.Linear(num_features, num_classes)

    def forward(self, x):
        return self.fc(x)


class LREvaluator:
    def __init__(self, num_epochs=200, learning_rate=0.05):
        self.num_epochs = num_epochs
        self.learning_rate = learning_rate

    def __call__(self, x, y, split):
        x = x.detach()
        classifier = LogisticRegression(x.size(1), int(y.max()) + 1)
        optimizer = torch.optim.Adam(classifier.parameters(), lr=self.learning_rate)
        for _ in range(self.num_epochs):
            classifier.train()
            optimizer.zero_grad()
            output = classifier(x[split["train"]])
            loss = F.nll_loss(F.log_softmax(output, dim=-1), y[split["train"]])
            loss.backward()
            optimizer.step()
        classifier.eval()
        with torch.no_grad():
            pred = classifier(x[split["test"]]).argmax(-1)
        return {"micro_f1": (pred == y[split["test"]]).float().mean().item()}
