"""expect: GL005 32
dynamic: confirm
source: https://github.com/KevinMusgrave/powerful-benchmarker/issues/78

powerful-benchmarker (deep metric learning) builds its embedder and its
classifier from the same MLP helper, which puts an in-place ReLU in front of
every Linear layer except the last (pre-activation style). With the
TrainWithClassifier trainer the classifier MLP is applied to the embedder's
output, so its first in-place ReLU overwrites the embeddings that the metric
loss has already used and saved for backward; training crashes with "one of
the variables needed for gradient computation has been modified by an
inplace operation" (had the classifier run first, the metric loss would
instead have silently seen ReLU-clipped embeddings). The reporter removed
`inplace=True` from the MLP; the maintainer agreed it only saves memory.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    # layer_sizes[0] is the input size, layer_sizes[-1] the output size
    def __init__(self, layer_sizes, final_relu=False):
        super().__init__()
        n_layers = len(layer_sizes) - 1
        self.final_relu_layer = n_layers if final_relu else n_layers - 1
        self.linears = nn.ModuleList(nn.Linear(a, b) for a, b in zip(layer_sizes, layer_sizes[1:]))

    def forward(self, x):
        for i, linear in enumerate(self.linears):
            if i < self.final_relu_layer:
                x = F.relu(x, inplace=True)
            x = linear(x)
        return x


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, images):
        return F.adaptive_avg_pool2d(F.relu(self.conv(images)), 1).flatten(1)


def contrastive_metric_loss(embeddings, labels, margin=0.5):
    z = F.normalize(embeddings, dim=1)
    sim = z @ z.t()
    same = labels[:, None] == labels[None, :]
    eye = torch.eye(len(labels), dtype=torch.bool)
    pos = (1 - sim)[same & ~eye]
    neg = F.relu(sim - margin)[~same]
    return pos.mean() + neg.mean()


class TrainWithClassifier:
    def __init__(self, trunk, embedder, classifier, lr=1e-3):
        self.trunk, self.embedder, self.classifier = trunk, embedder, classifier
        params = [p for m in (trunk, embedder, classifier) for p in m.parameters()]
        self.optimizer = torch.optim.Adam(params, lr=lr)

    def compute_embeddings(self, images):
        return self.embedder(self.trunk(images))

    def train_step(self, images, labels):
        self.optimizer.zero_grad()
        embeddings = self.compute_embeddings(images)
        metric = contrastive_metric_loss(embeddings, labels)
        logits = self.classifier(embeddings)
        total = metric + F.cross_entropy(logits, labels)
        total.backward()
        self.optimizer.step()


torch.manual_seed(0)
trainer = TrainWithClassifier(Trunk(), MLP([8, 16]), MLP([16, 16, 4]))
images, labels = torch.randn(8, 3, 12, 12), torch.tensor([0, 0, 1, 1, 2, 2, 3, 3])
raised = False
try:
    trainer.train_step(images, labels)
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised
print("OK")
