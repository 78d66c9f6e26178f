"""
expect: none
dynamic: dismiss
source: https://github.com/rasbt/LLMs-from-scratch/pull/119

The PR "use torch no grad for loss" wraps the loss computation of the evaluation helper in
`torch.no_grad()` as an efficiency change. gpt_train.py rebuilds the chapter-5 helpers:
calc_loss_batch is shared by training and evaluation, evaluate_model computes the
train/validation loss under no_grad and calc_loss_loader reduces it with `.item()`, while
train_model_simple backpropagates calc_loss_batch with grad on. The asserts show a tiny GPT-style
model gets gradients on every parameter, its training and validation losses fall, evaluation
does not change the weights, and grad mode is back on after evaluation.
"""
import torch
import torch.nn as nn

from gpt_train import calc_loss_batch, evaluate_model, train_model_simple


class TinyGPT(nn.Module):
    def __init__(self, vocab=40, d=32, ctx=8):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d)
        self.pos_emb = nn.Embedding(ctx, d)
        self.block = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True)
        self.out_head = nn.Linear(d, vocab, bias=False)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(ctx))

    def forward(self, idx):
        n = idx.shape[1]
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(n))
        return self.out_head(self.block(x, src_mask=self.mask[:n, :n], is_causal=True))


torch.manual_seed(0)
text = torch.arange(0, 400) % 40
chunks = text.unfold(0, 9, 9)
batches = [(c[:, :-1], c[:, 1:]) for c in chunks.split(4)]
train_loader, val_loader = batches[:8], batches[8:]
model = TinyGPT()
opt = torch.optim.AdamW(model.parameters(), lr=3e-3)

loss = calc_loss_batch(*train_loader[0], model)
loss.backward()
assert all(p.grad is not None for p in model.parameters())
opt.zero_grad()

w = model.out_head.weight.detach().clone()
evaluate_model(model, train_loader, val_loader, eval_iter=2)
assert torch.equal(w, model.out_head.weight) and torch.is_grad_enabled() and model.training

tr, va = train_model_simple(model, train_loader, val_loader, opt, num_epochs=6, eval_freq=8, eval_iter=2)
assert tr[-1] < tr[0] and va[-1] < va[0], (tr, va)
print("ok: no_grad evaluation helper, training loss", round(tr[0], 2), "->", round(tr[-1], 2))
