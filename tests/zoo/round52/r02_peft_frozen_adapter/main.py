"""
expect: GL003 main.py:74
dynamic: confirm
source: https://github.com/tloen/alpaca-lora/issues/595

Continued instruction tuning of a causal LM from a saved LoRA adapter. The adapter is
loaded with the loader's default, which is inference mode: every parameter, the LoRA
matrices included, ends up with requires_grad=False (adapter_io.load_adapter). The
language-model loss therefore has no grad_fn and backward() fails with "element 0 of
tensors does not require grad", which is what the report shows. The usual workaround
for that message, flipping loss.requires_grad = True, is applied in train_step: it
turns the loss into a fresh leaf, backward() runs, and nothing is trained. The
asserts show the LoRA matrices get no gradient and do not move over several steps,
while loading the adapter with is_trainable=True gives them gradients and moves them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from adapter_io import inject_lora, load_adapter, lora_parameters

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, SEQ = 50, 32, 12


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.q_proj = nn.Linear(DIM, DIM)
        self.k_proj = nn.Linear(DIM, DIM)
        self.v_proj = nn.Linear(DIM, DIM)
        self.mlp = nn.Sequential(nn.Linear(DIM, 2 * DIM), nn.GELU(), nn.Linear(2 * DIM, DIM))
        self.norm1 = nn.LayerNorm(DIM)
        self.norm2 = nn.LayerNorm(DIM)

    def forward(self, x):
        h = self.norm1(x)
        att = self.q_proj(h) @ self.k_proj(h).transpose(1, 2) / DIM ** 0.5
        causal = torch.ones(x.shape[1], x.shape[1]).triu(1).bool()
        att = att.masked_fill(causal, float("-inf")).softmax(-1)
        x = x + att @ self.v_proj(h)
        return x + self.mlp(self.norm2(x))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        x = self.embed(ids)
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def make_saved_adapter():
    """A previously fine-tuned adapter checkpoint (only the LoRA tensors)."""
    torch.manual_seed(1)
    donor = inject_lora(TinyLM())
    for p in lora_parameters(donor):
        nn.init.normal_(p, std=0.05)
    return {k: v.detach().clone() for k, v in donor.state_dict().items() if "lora_" in k}


def train_step(model, opt, ids):
    logits = model(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, VOCAB), ids[:, 1:].reshape(-1))
    if not loss.requires_grad:
        loss.requires_grad = True
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


adapter = make_saved_adapter()
ids = torch.randint(0, VOCAB, (8, SEQ))

torch.manual_seed(0)
model = load_adapter(TinyLM(), adapter)
lora = lora_parameters(model)
opt = torch.optim.AdamW(lora, lr=1e-2)
before = [p.detach().clone() for p in lora]
for _ in range(5):
    train_step(model, opt, ids)
assert all(p.grad is None for p in lora), "frozen adapter must not receive gradients"
assert all(torch.equal(p, b) for p, b in zip(lora, before)), "adapter must not move"

torch.manual_seed(0)
model2 = load_adapter(TinyLM(), adapter, is_trainable=True)
lora2 = lora_parameters(model2)
opt2 = torch.optim.AdamW(lora2, lr=1e-2)
before2 = [p.detach().clone() for p in lora2]
first = train_step(model2, opt2, ids)
for _ in range(20):
    last = train_step(model2, opt2, ids)
assert all(p.grad is not None for p in lora2)
assert any(not torch.equal(p, b) for p, b in zip(lora2, before2))
assert last < first

print("frozen load + requires_grad flip: adapter unchanged")
print("trainable load: loss %.3f -> %.3f" % (first, last))
