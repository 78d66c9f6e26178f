"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/pytorch/issues/3863

A multi-task sequence tagger (POS + NER + chunk heads on a shared BiLSTM) returns a dict
of outputs, and the training loop back-propagates each task's loss separately with
`loss.backward(retain_graph=True)` before a single optimizer step. retain_graph is
needed because the heads share the encoder graph within a batch; nothing is carried from
one batch to the next (the forward pass is rebuilt every iteration and no state keeps the
old graph), so the graph does not grow. The program asserts a constant graph size per
batch, that the accumulated gradients equal those of the summed loss, and that
all parameters train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

VOCAB, DIM = 60, 16
TASKS = {"pos": 6, "ner": 5, "chunk": 4}


class MultiTaskTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.LSTM(DIM, DIM, batch_first=True, bidirectional=True)
        self.heads = nn.ModuleDict({name: nn.Linear(2 * DIM, n) for name, n in TASKS.items()})

    def forward(self, tokens):
        h, _ = self.encoder(self.embed(tokens))
        return {name: head(h) for name, head in self.heads.items()}


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(fn for fn, _ in node.next_functions)
    return len(seen)


def make_batch(n=8, length=10):
    tokens = torch.randint(0, VOCAB, (n, length))
    targets = {name: (tokens * (i + 3)) % k for i, (name, k) in enumerate(TASKS.items())}
    return tokens, targets


model = MultiTaskTagger()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()
before = {n: p.detach().clone() for n, p in model.named_parameters()}
sizes = []
for it in range(6):
    tokens, target = make_batch()
    model.zero_grad()
    outputs = model(tokens)
    batch_size_nodes = 0
    for output_label, output in outputs.items():
        loss = criterion(output.flatten(0, 1), target[output_label].flatten())
        loss.backward(retain_graph=True)
        batch_size_nodes += graph_size(loss)
    sizes.append(batch_size_nodes)
    if it == 5:
        accumulated = [p.grad.clone() for p in model.parameters()]
        model.zero_grad()
        total = sum(criterion(o.flatten(0, 1), target[k].flatten()) for k, o in model(tokens).items())
        total.backward()
        assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(accumulated, model.parameters()))
    optimizer.step()

assert len(set(sizes)) == 1, sizes
assert all(not torch.equal(before[n], p) for n, p in model.named_parameters())

print("OK")
