"""expect: GL001 59
dynamic: confirm
source: https://github.com/lucidrains/compressive-transformer-pytorch/issues/5

A small Compressive Transformer: each attention layer keeps a FIFO memory of
past hidden states and squeezes the oldest ones through a strided Conv1d
compressor. The compressor is meant to be trained only by the auxiliary
attention-reconstruction loss (memories are detached between segments, as in
Transformer-XL, which is intended). The layer detaches the query, the old-memory
keys/values AND the keys/values computed from the compressed memory before the
reconstruction MSE, so the auxiliary loss has no path back to the compressor.
Its weights get no gradient and the compressed memory is never learned.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def attend(q, k, v):
    w = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
    return w @ v


class MemoryCompressor(nn.Module):
    def __init__(self, dim, ratio):
        super().__init__()
        self.conv = nn.Conv1d(dim, dim, ratio, stride=ratio)

    def forward(self, mem):
        return self.conv(mem.transpose(1, 2)).transpose(1, 2)


class CompressiveAttention(nn.Module):
    def __init__(self, dim, mem_len, ratio):
        super().__init__()
        self.mem_len = mem_len
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, 2 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.compress = MemoryCompressor(dim, ratio)

    def forward(self, x, mem, cmem):
        q = self.to_q(x)
        ctx = torch.cat([cmem, mem, x], dim=1)
        k, v = self.to_kv(ctx).chunk(2, dim=-1)
        out = self.to_out(attend(q, k, v))

        full = torch.cat([mem, x], dim=1)
        new_mem, evicted = full[:, -self.mem_len:], full[:, :-self.mem_len]
        aux = torch.zeros(1, requires_grad=True)
        if evicted.shape[1] == 0:
            return out, new_mem, cmem, aux

        squeezed = self.compress(evicted.detach())
        new_cmem = torch.cat([cmem, squeezed], dim=1)

        ck, cv = self.to_kv(squeezed).chunk(2, dim=-1)
        ok, ov = self.to_kv(evicted).chunk(2, dim=-1)
        q, ok, ov, ck, cv = map(torch.detach, (q, ok, ov, ck, cv))
        aux = F.mse_loss(attend(q, ok, ov), attend(q, ck, cv))
        return out, new_mem, new_cmem, aux


class Block(nn.Module):
    def __init__(self, dim, mem_len, ratio):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.attn = CompressiveAttention(dim, mem_len, ratio)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, mem, cmem):
        h, mem, cmem, aux = self.attn(self.norm(x), mem, cmem)
        x = x + h
        return x + self.ff(x), mem, cmem, aux


class TinyCompressiveLM(nn.Module):
    def __init__(self, vocab=20, dim=16, depth=2, mem_len=4, ratio=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim, mem_len, ratio) for _ in range(depth)])
        self.logits = nn.Linear(dim, vocab)

    def forward(self, tokens, memories):
        x = self.embed(tokens)
        next_memories, aux_total = [], 0.0
        for block, (mem, cmem) in zip(self.blocks, memories):
            x, mem, cmem, aux = block(x, mem, cmem)
            next_memories.append((mem.detach(), cmem.detach()))
            aux_total = aux_total + aux
        return self.logits(x), next_memories, aux_total


def main():
    torch.manual_seed(0)
    model = TinyCompressiveLM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    stream = torch.randint(0, 20, (2, 4 * 3 + 1))
    memories = [(torch.zeros(2, 0, 16), torch.zeros(2, 0, 16)) for _ in model.blocks]
    saw_aux = False

    for seg in range(3):
        inp = stream[:, seg * 4: seg * 4 + 4]
        tgt = stream[:, seg * 4 + 1: seg * 4 + 5]
        opt.zero_grad()
        logits, memories, aux = model(inp, memories)
        lm_loss = F.cross_entropy(logits.reshape(-1, 20), tgt.reshape(-1))
        (lm_loss + aux.sum()).backward()
        saw_aux = saw_aux or aux.sum().item() > 0
        for block in model.blocks:
            assert block.attn.compress.conv.weight.grad is None
        opt.step()

    assert saw_aux, "reconstruction loss was computed and is non-zero"
    assert model.blocks[0].attn.to_q.weight.grad is not None
    print("memory compressor never trained by its auxiliary loss")


if __name__ == "__main__":
    main()
