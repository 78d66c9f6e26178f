"""
expect: none
dynamic: dismiss
source: https://github.com/hkproj/pytorch-stable-diffusion/issues/29

The question: CLIPEmbedding in clip.py does `x += self.position_embedding` right after the token
embedding; "could this cause PyTorch autograd errors since x += ... is an in-place operation?"
The embedding lookup saves only the token indices for its backward, not its output, so editing
that fresh output in place is safe. This folder trains the text encoder (clip.py) with a small
pooled-classification head. The asserts show the token and position embeddings both get
gradients equal to those of an out-of-place `x = x + pos` version, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from clip import CLIP


class OutOfPlaceEmbedding(nn.Module):
    def __init__(self, emb):
        super().__init__()
        self.inner = emb

    def forward(self, tokens):
        return self.inner.token_embedding(tokens) + self.inner.position_embedding


def grads(model, head, tokens, labels):
    model.zero_grad()
    head.zero_grad()
    loss = F.cross_entropy(head(model(tokens).mean(1)), labels)
    loss.backward()
    return loss, model.embedding.position_embedding.grad.clone(), model.embedding.token_embedding.weight.grad.clone()


torch.manual_seed(0)
model, head = CLIP(), nn.Linear(32, 3)
with torch.no_grad():
    model.embedding.position_embedding.normal_(std=0.02)
tokens, labels = torch.randint(0, 60, (6, 10)), torch.randint(0, 3, (6,))

_, g_pos, g_tok = grads(model, head, tokens, labels)
inplace_embedding = model.embedding
model.embedding = OutOfPlaceEmbedding(inplace_embedding)
model.embedding.position_embedding = inplace_embedding.position_embedding
model.embedding.token_embedding = inplace_embedding.token_embedding
_, h_pos, h_tok = grads(model, head, tokens, labels)
model.embedding = inplace_embedding
assert g_pos.abs().sum() > 0 and torch.allclose(g_pos, h_pos) and torch.allclose(g_tok, h_tok)

opt = torch.optim.Adam(list(model.parameters()) + list(head.parameters()), lr=3e-3)
first = None
for _ in range(25):
    opt.zero_grad()
    loss = F.cross_entropy(head(model(tokens).mean(1)), labels)
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < 0.5 * first, (first, loss.item())
print("ok: in-place position add on the embedding output trains", round(first, 3), "->", round(loss.item(), 3))
