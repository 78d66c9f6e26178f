"""
expect: GL002 rescoring.py:43
dynamic: confirm
source: https://github.com/parlance/ctcdecode/issues/213

A CTC acoustic model is fine-tuned with a minimum-word-error objective over the N-best list of a beam search.
The beam search (rescoring.py) runs in NumPy on the model's posteriors, like ctcdecode, whose beam_scores come
back as plain numbers without grad_fn; the reporter of the ctcdecode issue wanted to define a new loss directly
on those beam scores. Here the scores are rebuilt with torch.tensor(..., requires_grad=True) so the expected
error can be backpropagated: backward runs, but it stops at the new leaf and the acoustic model gets no gradient.
The asserts show that every parameter's .grad stays None and the weights do not move, while the rescored
version (each hypothesis scored by the model with the CTC forward algorithm) gives the model a gradient and
lowers the expected error on the batch.
"""
import copy

import torch
import torch.nn as nn

from rescoring import nbest_risk_loss, nbest_risk_loss_rescored

torch.manual_seed(0)
torch.set_num_threads(1)


class AcousticModel(nn.Module):
    def __init__(self, n_feats=10, hidden=24, vocab=5):
        super().__init__()
        self.rnn = nn.GRU(n_feats, hidden)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, feats):                     # feats [T, 1, F]
        h, _ = self.rnn(feats)
        return self.out(h).log_softmax(-1)         # [T, 1, V]


feats = torch.randn(12, 1, 10)
reference = [1, 2, 3, 2]

model = AcousticModel()
model_ref = copy.deepcopy(model)

opt = torch.optim.SGD(model.parameters(), lr=0.5)
before = [p.detach().clone() for p in model.parameters()]
loss = nbest_risk_loss(model(feats), reference)
opt.zero_grad()
loss.backward()
opt.step()
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(a, p) for a, p in zip(before, model.parameters()))
print("beam-score loss:", round(loss.item(), 4), "-> model gradients: none")

opt_ref = torch.optim.SGD(model_ref.parameters(), lr=0.5)
first = nbest_risk_loss_rescored(model_ref(feats), reference)
for _ in range(30):
    loss_ref = nbest_risk_loss_rescored(model_ref(feats), reference)
    opt_ref.zero_grad()
    loss_ref.backward()
    assert model_ref.out.weight.grad is not None and model_ref.out.weight.grad.abs().sum() > 0
    opt_ref.step()
last = nbest_risk_loss_rescored(model_ref(feats), reference)
print("rescored expected error:", round(first.item(), 4), "->", round(last.item(), 4))
assert last.item() < first.item()
print("ok")
