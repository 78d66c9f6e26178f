"""
expect: none
dynamic: dismiss
source: https://github.com/A1ex-Chen/DL_project_log/blob/HEAD/dataset/CokeBert/CokeBert-1.0/code/DKPLM_RoBERTabase/code/transformers/modeling_xlnet_cache_mem.py

Segment-level recurrence as in XLNet / Transformer-XL language-model pretraining: hidden states
of the previous segment are cached and attended to by the next one. The file's cache_mem
concatenates the old memory with the new output and returns it detached (stop-gradient), so
state crosses iterations but graphs do not. Looks like the classic "carried state" setup, but
it is correct: the asserts show the cached memory has no grad_fn, every segment backpropagates
without retain_graph, the memory still changes the model's output (it is used), and the
LM loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEG, MEM_LEN = 12, 16, 6, 8


class MemLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.attn = nn.MultiheadAttention(DIM, 2, batch_first=True)
        self.out = nn.Linear(DIM, VOCAB)
        self.mem_len = MEM_LEN

    def cache_mem(self, curr_out, prev_mem):
        if prev_mem is None:
            new_mem = curr_out[:, -self.mem_len:]
        else:
            new_mem = torch.cat([prev_mem, curr_out], dim=1)[:, -self.mem_len:]
        return new_mem.detach()

    def forward(self, tokens, mem=None):
        h = self.emb(tokens)
        kv = h if mem is None else torch.cat([mem, h], dim=1)
        a, _ = self.attn(h, kv, kv, need_weights=False)
        h = h + a
        return self.out(h), self.cache_mem(h, mem)


stream = (torch.arange(SEG * 10 + 1)[None, :] * 5 + torch.randint(0, VOCAB, (4, 1))) % VOCAB
model = MemLM()
opt = torch.optim.Adam(model.parameters(), lr=0.02)

first, last = None, None
for epoch in range(6):
    mem = None
    for s in range(10):
        x = stream[:, s * SEG:(s + 1) * SEG]
        y = stream[:, s * SEG + 1:(s + 1) * SEG + 1]
        logits, mem = model(x, mem)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), y.reshape(-1))
        opt.zero_grad()
        loss.backward()  # no retain_graph needed: mem is cut from the old graph
        opt.step()
        assert mem.grad_fn is None and not mem.requires_grad
        first = loss.item() if first is None else first
        last = loss.item()

with torch.no_grad():
    x = stream[:, :SEG]
    _, m = model(x)
    with_mem, _ = model(stream[:, SEG:2 * SEG], m)
    without_mem, _ = model(stream[:, SEG:2 * SEG], None)
assert not torch.allclose(with_mem, without_mem)  # the memory is really used
assert last < 0.5 * first, (first, last)
print("ok", first, last)
