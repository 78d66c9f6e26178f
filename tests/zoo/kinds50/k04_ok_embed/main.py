"""
expect: none
dynamic: dismiss
source: kinds check 50, kind 2

Bag-of-tokens topic classifier: the encoder in encoder.py does its cumulative pooling and
unit normalisation with torch.cumsum / norm, so the embedding and projection layers
before the processing train along with the classifier.
"""
import torch
import torch.nn.functional as F
from encoder import TokenBagEncoder

torch.manual_seed(3)
model = TokenBagEncoder()
opt = torch.optim.Adam(model.parameters(), lr=0.02)
tokens = torch.randint(0, 50, (96, 7))
labels = tokens[:, 0] % 3
emb0 = model.emb.weight.detach().clone()
first = None
for _ in range(120):
    opt.zero_grad()
    loss = F.cross_entropy(model(tokens), labels)
    loss.backward()
    assert model.emb.weight.grad is not None and model.proj.weight.grad.abs().sum() > 0
    opt.step()
    first = loss.item() if first is None else first
assert not torch.equal(model.emb.weight, emb0)
assert loss.item() < 0.7 * first, (first, loss.item())
print("k04 ok:", first, "->", loss.item())
