"""expect: none
dynamic: dismiss
source: https://github.com/seshadri-c/Machine-Translation-Transformers/blob/HEAD/loss_backprop.py

A small encoder-decoder translation model trained with the Annotated-Transformer style memory trick: the
decoder output is cut into per-position leaves (`Variable(out[:, t].data, requires_grad=True)`), the
vocabulary projection and loss run one position at a time and are backpropagated immediately, and the
gradients collected on the leaves are then pushed into the decoder with `out.backward(gradient=...)`.
The cut looks like a broken graph, but the gradient is carried across it by hand, so every parameter
receives exactly the gradient of the ordinary full loss. The asserts compare all parameter gradients
with a plain `criterion(generator(out))` backward and check that an optimizer step lowers the loss.
"""
import copy

import torch
import torch.nn as nn

from loss import chunked_generator_loss

torch.manual_seed(0)
torch.set_num_threads(1)

V_SRC, V_TGT, D = 30, 40, 32


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(V_SRC, D)
        self.tgt_emb = nn.Embedding(V_TGT, D)
        self.encoder = nn.GRU(D, D, batch_first=True)
        self.decoder = nn.GRU(D, D, batch_first=True)
        self.attn_out = nn.Linear(2 * D, D)

    def forward(self, src, tgt_in):
        mem, h = self.encoder(self.src_emb(src))
        dec, _ = self.decoder(self.tgt_emb(tgt_in), h)
        att = torch.softmax(dec @ mem.transpose(1, 2), dim=-1) @ mem
        return torch.tanh(self.attn_out(torch.cat([dec, att], -1)))


model = Seq2Seq()
generator = nn.Sequential(nn.Linear(D, V_TGT), nn.LogSoftmax(dim=-1))
criterion = nn.NLLLoss(reduction="sum")
src = torch.randint(0, V_SRC, (6, 9))
tgt = torch.randint(0, V_TGT, (6, 8))
n_tokens = tgt.numel()

# reference gradients from the ordinary full loss
ref_model, ref_gen = copy.deepcopy(model), copy.deepcopy(generator)
out_ref = ref_model(src, tgt)
ref_loss = criterion(ref_gen(out_ref).reshape(-1, V_TGT), tgt.reshape(-1)) / n_tokens
ref_loss.backward()

out = model(src, tgt)
total = chunked_generator_loss(generator, criterion, out, tgt, n_tokens)
assert abs(total - ref_loss.item()) < 1e-5
for (n, p), (_, q) in zip(list(model.named_parameters()) + list(generator.named_parameters()),
                          list(ref_model.named_parameters()) + list(ref_gen.named_parameters())):
    assert p.grad is not None, n
    assert torch.allclose(p.grad, q.grad, atol=1e-6), n

opt = torch.optim.Adam(list(model.parameters()) + list(generator.parameters()), lr=1e-2)
losses = []
for _ in range(20):
    opt.zero_grad()
    losses.append(chunked_generator_loss(generator, criterion, model(src, tgt), tgt, n_tokens))
    opt.step()
assert losses[-1] < losses[0], losses
print(f"chunked loss matches full loss gradients; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
