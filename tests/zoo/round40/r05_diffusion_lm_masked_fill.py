"""expect: GL005 60
dynamic: confirm
source: https://github.com/thorinf/simple-diffusion-lm/issues/2

A tiny continuous-diffusion language model in the style of the linked project: token ids are embedded, the embeddings
are noised at a random level, a Transformer encoder predicts the clean embeddings, and the loss is the embedding MSE
plus a cross-entropy that reads tokens back through the LM head. The cross-entropy targets are the ids with
conditioning and padding positions set to -100. In the linked issue the user changed `ids.masked_fill(...)` into
`ids.masked_fill_(...)`, which is what compute_loss does: it edits, in place, the very LongTensor that nn.Embedding
saved for its backward (it needs the indices to scatter the weight gradient), so backward raises "modified by an
inplace operation ... torch.LongTensor ... is at version 1; expected version 0". It also silently rewrites the
caller's batch. The file also keeps the project's gradient-scaling blend `s * x + (1 - s) * x.detach()`, a detach on
purpose that still leaves the embedding trainable. The asserts catch the RuntimeError, check that the input batch was
mutated, and show that the out-of-place masked_fill trains the embedding, the denoiser and the LM head.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, LEN = 50, 16, 12


class DiffusionLM(nn.Module):
    def __init__(self, out_of_place=False):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, DIM)
        self.lm_head = nn.Linear(DIM, VOCAB)
        layer = nn.TransformerEncoderLayer(DIM + 1, nhead=1, dim_feedforward=32, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=1, enable_nested_tensor=False)
        self.out = nn.Linear(DIM + 1, DIM)
        self.embedding_grad_scale = 0.5
        self.out_of_place = out_of_place

    def denoise(self, x_t, t):
        h = torch.cat([x_t, t.view(-1, 1, 1).expand(-1, x_t.shape[1], 1)], dim=-1)
        return self.out(self.encoder(h))

    def compute_loss(self, ids, lengths):
        x = self.embedding(ids)
        s = self.embedding_grad_scale
        x = s * x + (1.0 - s) * x.detach()

        len_mask = torch.arange(ids.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
        cond_mask = torch.rand(ids.shape) < 0.1
        diff_mask = len_mask & ~cond_mask

        t = torch.rand(ids.shape[0])
        noise = torch.randn_like(x)
        x_t = torch.where(cond_mask.unsqueeze(-1), x, (1 - t).sqrt().view(-1, 1, 1) * x + t.sqrt().view(-1, 1, 1) * noise)
        x0_hat = self.denoise(x_t, t)
        loss_diff = ((x0_hat - x) ** 2).mean(-1)[diff_mask].mean()

        logits = self.lm_head(x0_hat)
        if self.out_of_place:
            targets = ids.masked_fill(~diff_mask, -100)
        else:
            ids.masked_fill_(~diff_mask, -100)
            targets = ids
        loss_rec = F.cross_entropy(logits.transpose(1, 2), targets, ignore_index=-100)
        return loss_diff + loss_rec


ids = torch.randint(0, VOCAB, (8, LEN))
lengths = torch.randint(6, LEN + 1, (8,))

model = DiffusionLM()
batch = ids.clone()
loss = model.compute_loss(batch, lengths)
try:
    loss.backward()
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised and "LongTensor" in raised
assert (batch == -100).any() and not (ids == -100).any()  # the caller's batch was rewritten

torch.manual_seed(0)
model = DiffusionLM(out_of_place=True)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
emb_before = model.embedding.weight.clone()
first = None
for step in range(40):
    torch.manual_seed(100 + step % 4)
    batch = ids.clone()
    opt.zero_grad()
    loss = model.compute_loss(batch, lengths)
    loss.backward()
    if step == 0:
        first = loss.item()
        for m in (model.embedding, model.lm_head, model.out):
            assert m.weight.grad is not None and m.weight.grad.abs().sum() > 0
    opt.step()
    assert torch.equal(batch, ids)
assert not torch.equal(emb_before, model.embedding.weight)
assert loss.item() < first, (first, loss.item())
print("in-place targets: backward raised; out-of-place targets: loss %.3f -> %.3f" % (first, loss.item()))
