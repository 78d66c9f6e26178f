"""
expect: none
dynamic: dismiss
source: https://github.com/PatrickZH/DeepCore/blob/7436c0abb80b547e8b8e28f1d498391ea3e46307/deepcore/methods/grand.py

DeepCore's GraNd coreset method scores each training example by the norm of its last-layer
gradient. It calls outputs.requires_grad_(True) on the model's logits and then takes
torch.autograd.grad(loss, outputs) inside a torch.no_grad() block. Both look like switches on a
value that lost its graph, but the logits come straight from the network and already have one
(requires_grad_ is a no-op), and autograd.grad differentiates the graph recorded before the
no_grad block. The scores are then built in closed form from the logit gradient and the recorded
penultimate embedding. The asserts check that each score equals the norm of that example's
actual last-layer parameter gradient, computed one example at a time with backward().
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES, EMB = 5, 12


class EmbeddingRecorder(nn.Module):
    def __init__(self):
        super().__init__()
        self.record_embedding, self.embedding = False, None

    def forward(self, x):
        if self.record_embedding:
            self.embedding = x
        return x


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, EMB), nn.ReLU())
        self.embedding_recorder = EmbeddingRecorder()
        self.fc = nn.Linear(EMB, N_CLASSES)

    def get_last_layer(self):
        return self.fc

    def forward(self, x):
        return self.fc(self.embedding_recorder(self.features(x)))


def grand_scores(model, inputs, targets, criterion):
    model.embedding_recorder.record_embedding = True
    model.eval()
    outputs = model(inputs)
    loss = criterion(F.softmax(outputs.requires_grad_(True), dim=1), targets).sum()
    batch_num = targets.shape[0]
    with torch.no_grad():
        bias_parameters_grads = torch.autograd.grad(loss, outputs)[0]
        emb = model.embedding_recorder.embedding
        weight_grads = (emb.view(batch_num, 1, EMB).repeat(1, N_CLASSES, 1)
                        * bias_parameters_grads.view(batch_num, N_CLASSES, 1).repeat(1, 1, EMB))
        scores = torch.norm(torch.cat([bias_parameters_grads, weight_grads.view(batch_num, -1)], dim=1), dim=1, p=2)
    model.embedding_recorder.record_embedding = False
    model.train()
    return scores


model = Net()
criterion = nn.CrossEntropyLoss(reduction="none")
x, y = torch.randn(10, 20), torch.randint(0, N_CLASSES, (10,))
before = [p.detach().clone() for p in model.parameters()]
scores = grand_scores(model, x, y, criterion)

reference = []
for i in range(len(x)):
    model.zero_grad()
    out = model(x[i:i + 1])
    criterion(F.softmax(out, dim=1), y[i:i + 1]).sum().backward()
    g = torch.cat([model.fc.bias.grad.flatten(), model.fc.weight.grad.flatten()])
    reference.append(g.norm())
assert torch.allclose(scores, torch.stack(reference), atol=1e-6)
assert all(torch.equal(a, b) for a, b in zip(before, model.parameters()))
assert scores.argsort(descending=True).shape == (10,)
print("q19 ok: GraNd's requires_grad_ on live logits and autograd.grad under no_grad are correct")
