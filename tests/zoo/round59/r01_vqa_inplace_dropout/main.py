"""
expect: GL005 classifier.py:28
dynamic: confirm
source: https://github.com/BierOne/bottom-up-attention-vqa/issues/6

The VQA answer classifier in this repository (a fork of the bottom-up/top-down
baseline) builds its MLP as Linear -> ReLU -> Dropout(p, inplace=True) -> Linear.
ReLU keeps its own output for the backward pass (the gradient mask is read from
the result), and the in-place dropout then scales and zeroes that very tensor,
bumping its version counter. Training therefore dies at loss.backward() with
"one of the variables needed for gradient computation has been modified by an
inplace operation ... output 0 of ReluBackward0, is at version 1", exactly the
message in the issue; the suggested fix is inplace=False. This reduction trains
the head on random question/image vectors with soft answer scores: the in-place
head raises the error on its first backward (asserted), the out-of-place head
trains and its loss drops (asserted). In eval mode the dropout is a no-op, which
is why the model still "works" at inference.
"""
import torch
import torch.nn.functional as F

from classifier import SimpleClassifier, OutOfPlaceClassifier

torch.manual_seed(0)
torch.set_num_threads(1)

N_Q, N_V, N_ANS = 12, 20, 8
q = torch.randn(64, N_Q)
v = torch.randn(64, N_V)
w_true = torch.randn(N_Q + N_V, N_ANS)
scores = torch.sigmoid(torch.cat([q, v], 1) @ w_true)   # VQA soft targets in [0, 1]


def train(model, steps=60):
    opt = torch.optim.Adamax(model.parameters(), lr=2e-2)
    model.train()
    losses = []
    for _ in range(steps):
        logits = model(q, v)
        loss = F.binary_cross_entropy_with_logits(logits, scores)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


buggy = SimpleClassifier((N_Q, N_V), (32, 32), N_ANS, dropout=0.3)
try:
    train(buggy)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised
assert "output 0 of Relu" in raised

# evaluation still runs, which hides the problem until training starts
buggy.eval()
with torch.no_grad():
    assert buggy(q, v).shape == (64, N_ANS)

fixed = OutOfPlaceClassifier((N_Q, N_V), (32, 32), N_ANS, dropout=0.3)
hist = train(fixed)
assert hist[-1] < 0.9 * hist[0], hist
print("in-place dropout head: backward refused as expected")
print("out-of-place head loss %.3f -> %.3f" % (hist[0], hist[-1]))
