"""
expect: GL001 model.py:17
dynamic: confirm
source: none, invented

A part-of-speech style tagger: embedding -> BiGRU -> readout MLP. The model's forward
hands the GRU states to its own `readout` method, which normalises `h.data` before the
MLP and output layer. `.data` cuts the states out of the graph, so the tagging loss only
reaches the LayerNorm, MLP and output layer; the embedding table and the GRU are in the
optimizer but never receive a gradient and keep their initial weights. The asserts show
`embed.weight.grad` and the GRU weight grads are None after backward and the embedding is
unchanged after training, while `SequenceTaggerV2` (readout on `h` itself) trains them.
"""
import torch
import torch.nn.functional as F

from model import SequenceTagger, SequenceTaggerV2

torch.manual_seed(0)
torch.set_num_threads(1)


def fit(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    for _ in range(steps):
        tokens = torch.randint(0, 200, (4, 12))
        tags = torch.randint(0, 7, (4, 12))
        logits = model(tokens)
        loss = F.cross_entropy(logits.reshape(-1, 7), tags.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


torch.manual_seed(0)
tagger = SequenceTagger()
emb_before = tagger.embed.weight.detach().clone()
fit(tagger)
assert tagger.embed.weight.grad is None
assert tagger.rnn.weight_ih_l0.grad is None
assert tagger.out.weight.grad is not None
assert torch.equal(tagger.embed.weight, emb_before)

torch.manual_seed(0)
tagger2 = SequenceTaggerV2()
emb_before = tagger2.embed.weight.detach().clone()
fit(tagger2)
assert tagger2.embed.weight.grad is not None
assert tagger2.rnn.weight_ih_l0.grad.abs().sum() > 0
assert not torch.equal(tagger2.embed.weight, emb_before)
print("ok")
