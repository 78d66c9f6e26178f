"""expect: none
dynamic: dismiss
source: https://github.com/pytorch/examples/blob/main/word_language_model/main.py

Two files, in the shape of pytorch/examples' word language model before it used torch.optim: `helpers.WordLM.init_hidden` allocates the state with `weight.new_zeros`, `helpers.repackage` detaches the hidden state between chunks (truncated BPTT), and `helpers.sgd_step` is a hand-written clipped SGD over `p.grad.data` with `p.data.add_`. The `.item()` in the clipping only yields a Python scale factor. All intended; the model trains and the loss falls.
"""
import torch
import torch.nn.functional as F

from helpers import WordLM, repackage, sgd_step

torch.manual_seed(0)
model = WordLM()
params = list(model.parameters())
data = torch.randint(0, 40, (81, 4))
hidden = model.init_hidden(4)
losses = []
for epoch in range(3):
    for i in range(0, 80, 10):
        inp, tgt = data[i:i + 10], data[i + 1:i + 11]
        hidden = repackage(hidden)
        logits, hidden = model(inp, hidden)
        loss = F.cross_entropy(logits.reshape(-1, 40), tgt.reshape(-1))
        loss.backward()
        sgd_step(params, lr=1.0, clip=0.25)
        losses.append(loss.item())
print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}")
assert losses[-1] < losses[0]
