"""
expect: none
dynamic: dismiss
source: https://github.com/dvgodoy/PyTorchStepByStep/issues/23

Sequence-to-sequence translation with attention. In the book's Attention module the
attention weights are stored on the module with `self.alphas = alphas.detach()`, and a
reader asked why the scores are detached. The detach only applies to the copy kept for
plotting the alignment matrix; the context vector that the decoder uses is computed from
the live `alphas`, so the query/key projections are still trained through the attention.
seq2seq_model.py mirrors that structure (encoder GRU, attention decoder, teacher forcing)
and main.py trains it on a toy "reverse the sentence" translation task, which cannot be
solved without attention-based alignment. The asserts show that the stored alignment has
no grad_fn while the query and key projections get non-zero gradients, that the
gradient is identical to a run where the copy is not stored at all, and that token
accuracy reaches near 100%.
"""
import torch
import torch.nn.functional as F

from seq2seq_model import EncoderDecoderAttn

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, LEN, BOS = 10, 5, 0


def batch(n):
    src = torch.randint(1, VOCAB, (n, LEN))
    tgt = torch.flip(src, dims=[1])
    return src, tgt


model = EncoderDecoderAttn(VOCAB, hidden_dim=32, target_len=LEN, bos=BOS)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

# gradient check on one batch
src, tgt = batch(32)
logits = model(src, tgt)
loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
loss.backward()
attn = model.decoder.attn
assert model.alignments[0].grad_fn is None and not model.alignments[0].requires_grad
assert attn.linear_query.weight.grad.abs().sum() > 0
assert attn.linear_key.weight.grad.abs().sum() > 0
grads_with_copy = [p.grad.clone() for p in model.parameters()]

# same forward without storing the copy: gradients are identical
model.zero_grad()
orig_forward = attn.forward


def forward_no_store(query):
    alphas = F.softmax(attn.score_function(query), dim=-1)
    return torch.bmm(alphas, attn.values)


attn.forward = forward_no_store
out2 = model(src, tgt)
F.cross_entropy(out2.reshape(-1, VOCAB), tgt.reshape(-1)).backward()
for g1, p in zip(grads_with_copy, model.parameters()):
    assert torch.allclose(g1, p.grad, atol=1e-6)
attn.forward = orig_forward
model.zero_grad()

for step in range(300):
    src, tgt = batch(64)
    opt.zero_grad()
    logits = model(src, tgt)
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), tgt.reshape(-1))
    loss.backward()
    opt.step()

src, tgt = batch(256)
with torch.no_grad():
    acc = (model(src, tgt).argmax(-1) == tgt).float().mean().item()
print(f"final loss {loss.item():.4f} token accuracy {acc:.3f}")
assert acc > 0.95
print("OK: alphas.detach() only feeds the stored alignment; attention trains")
