"""
expect: GL004 91
dynamic: confirm
source: https://github.com/meta-llama/llama/issues/841

Fine-tuning a LLaMA-style attention layer that still carries the inference KV cache: every forward
writes the new keys and values into self.cache_k / self.cache_v in place and reads the attended keys
back from the cache. The cache tensors therefore join the autograd graph and stay attached to it
across batches, so the second loss.backward() walks into the first batch's freed graph ("Trying to
backward through the graph a second time", the error in the report). Following the error message and
calling backward(retain_graph=True) silences it, but now every step keeps the previous steps' graphs
alive and backpropagates through all of them: the number of autograd nodes reachable from the loss
grows with every batch. The asserts count those nodes per step (strictly increasing, and an old
batch's node is still reachable), then show that detaching the cache each forward, the fix in the
report, keeps the graph the same size at every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, MAX_BSZ, MAX_LEN = 32, 16, 4, 12


class Attention(nn.Module):
    def __init__(self, detach_cache=False):
        super().__init__()
        self.wq = nn.Linear(DIM, DIM, bias=False)
        self.wk = nn.Linear(DIM, DIM, bias=False)
        self.wv = nn.Linear(DIM, DIM, bias=False)
        self.wo = nn.Linear(DIM, DIM, bias=False)
        self.detach_cache = detach_cache
        self.cache_k = torch.zeros(MAX_BSZ, MAX_LEN, DIM)
        self.cache_v = torch.zeros(MAX_BSZ, MAX_LEN, DIM)

    def forward(self, x, start_pos=0):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        self.cache_k = self.cache_k.to(xq)
        self.cache_v = self.cache_v.to(xq)
        if self.detach_cache:
            self.cache_k = self.cache_k.detach()
            self.cache_v = self.cache_v.detach()
        self.cache_k[:bsz, start_pos:start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos:start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, :start_pos + seqlen]
        values = self.cache_v[:bsz, :start_pos + seqlen]
        scores = xq @ keys.transpose(1, 2) / DIM ** 0.5
        mask = torch.full((seqlen, seqlen), float("-inf")).triu(1)
        out = F.softmax(scores + mask, dim=-1) @ values
        return self.wo(out)


class TinyLlama(nn.Module):
    def __init__(self, detach_cache=False):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, DIM).requires_grad_(False)
        self.attn = Attention(detach_cache)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, tokens):
        h = self.tok(tokens)
        return self.head(h + self.attn(h))


def reachable_nodes(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return seen


def finetune(model, steps, retain):
    opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=1e-2)
    counts, nodes = [], []
    for _ in range(steps):
        tokens = torch.randint(0, VOCAB, (MAX_BSZ, MAX_LEN))
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), tokens[:, 1:].reshape(-1))
        opt.zero_grad()
        reached = reachable_nodes(loss)
        counts.append(len(reached))
        nodes.append(reached)
        if retain:
            loss.backward(retain_graph=True)
        else:
            loss.backward()
        opt.step()
    return counts, nodes


# without retain_graph the carried cache sends the second backward into a freed graph
model = TinyLlama()
try:
    finetune(model, 2, retain=False)
    raise AssertionError("expected the freed-graph error")
except RuntimeError as err:
    assert "second time" in str(err), err

# with retain_graph=True it runs, but each step drags every earlier step's graph along
model = TinyLlama()
counts, nodes = finetune(model, 6, retain=True)
assert all(b > a for a, b in zip(counts, counts[1:])), counts
assert nodes[0] & nodes[5], "step 6 should still reach nodes created in step 1"

# detaching the cache keeps each step's graph to that step
fixed = TinyLlama(detach_cache=True)
fixed_counts, _ = finetune(fixed, 6, retain=False)
assert len(set(fixed_counts)) == 1, fixed_counts
print(f"reachable autograd nodes per step with retain_graph: {counts}; with detached cache: {fixed_counts}")
