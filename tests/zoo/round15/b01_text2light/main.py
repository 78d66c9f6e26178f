"""
expect: GL001 clip_loss.py:36
dynamic: confirm
source: https://github.com/FrozenBurning/Text2Light/issues/10

The report noticed that the contrastive (CLIP) loss of the global sampler could not move the
network: the generated panorama was decoded and embedded inside `torch.no_grad()`, so the loss
was a constant for autograd. This program rebuilds a sampler whose code-projection layer only
influences the output through that helper in clip_loss.py; after backward the projection's
weight.grad is None while the token head (trained by the NLL term) gets a gradient, and a copy of
the helper without the no-grad block gives the projection a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from clip_loss import FrozenDecoder, FrozenImageEmbedder, alignment_loss

torch.manual_seed(0)

CODE_DIM, PIXELS, EMB, VOCAB, BATCH = 16, 48, 12, 10, 6


class GlobalSampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_in = nn.Linear(EMB, 32)
        self.token_head = nn.Linear(32, VOCAB)
        self.code_proj = nn.Linear(VOCAB, CODE_DIM)

    def forward(self, text_emb):
        h = torch.tanh(self.text_in(text_emb))
        token_logits = self.token_head(h)
        soft_codes = self.code_proj(F.softmax(token_logits, dim=-1))
        return token_logits, soft_codes


class SamplerTrainer:
    def __init__(self):
        self.sampler = GlobalSampler()
        self.decoder = FrozenDecoder(CODE_DIM, PIXELS)
        self.embedder = FrozenImageEmbedder(PIXELS, EMB)
        self.opt = torch.optim.Adam(self.sampler.parameters(), lr=1e-2)

    def step(self, text_emb, tokens, align_weight=1.0, loss_fn=alignment_loss):
        self.opt.zero_grad()
        token_logits, soft_codes = self.sampler(text_emb)
        nll = F.cross_entropy(token_logits, tokens)
        align = loss_fn(self.decoder, self.embedder, soft_codes, text_emb)
        total = nll + align_weight * align
        total.backward()
        grads = {n: (None if p.grad is None else p.grad.clone()) for n, p in self.sampler.named_parameters()}
        self.opt.step()
        return align, grads


def alignment_loss_with_grad(decoder, embedder, soft_codes, text_emb, temperature=0.07):
    img_emb = F.normalize(embedder(decoder(soft_codes)), dim=-1)
    txt = F.normalize(text_emb, dim=-1)
    logits = img_emb @ txt.t() / temperature
    return F.cross_entropy(logits, torch.arange(logits.shape[0]))


text_emb = torch.randn(BATCH, EMB)
tokens = torch.randint(0, VOCAB, (BATCH,))

trainer = SamplerTrainer()
align, grads = trainer.step(text_emb, tokens)
assert not align.requires_grad, "alignment term should carry no autograd history"
assert grads["code_proj.weight"] is None, "code projection should get no gradient"
assert grads["token_head.weight"] is not None and grads["token_head.weight"].abs().sum() > 0

before = trainer.sampler.code_proj.weight.detach().clone()
for _ in range(5):
    trainer.step(text_emb, tokens)
assert torch.equal(before, trainer.sampler.code_proj.weight.detach()), "code_proj never moves"

fixed = SamplerTrainer()
align2, grads2 = fixed.step(text_emb, tokens, loss_fn=alignment_loss_with_grad)
assert align2.requires_grad
assert grads2["code_proj.weight"] is not None and grads2["code_proj.weight"].abs().sum() > 0
print("ok: alignment term under no_grad never reaches code_proj")
