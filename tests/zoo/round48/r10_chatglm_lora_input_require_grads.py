"""expect: none
dynamic: dismiss
source: https://github.com/zai-org/ChatGLM3/pull/846

LoRA fine-tuning of a GLM-style decoder with gradient checkpointing: the whole base model (embedding
included) is frozen and only the LoRA factors on query_key_value train. With reentrant checkpointing a
block whose input does not require grad records nothing, so the loss would come back without a grad_fn
("element 0 of tensors does not require grad"). The merged fix enables gradients for the input embeddings:
a forward hook on the frozen embedding calls output.requires_grad_(True). That looks like switching
requires_grad on the output of a frozen module, but here it is what makes the checkpointed blocks record
their graph: the embedding weight itself stays frozen and the LoRA factors now receive real gradients.
The asserts show the error without the hook, and with it: LoRA grads non-zero, base weights without
grads and unchanged, and the loss going down.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
torch.set_num_threads(1)


class LoRAQKV(nn.Module):
    def __init__(self, d, r=4):
        super().__init__()
        self.query_key_value = nn.Linear(d, 3 * d)
        self.lora_A = nn.Parameter(torch.randn(r, d) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(3 * d, r))

    def forward(self, x):
        return self.query_key_value(x) + x @ self.lora_A.t() @ self.lora_B.t() * 2.0


class GLMBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.attn = LoRAQKV(d)
        self.dense = nn.Linear(d, d)

    def forward(self, h):
        q, k, v = self.attn(self.ln(h)).chunk(3, dim=-1)
        T = h.size(1)
        mask = torch.ones(T, T, dtype=torch.bool).tril()
        a = torch.softmax((q @ k.transpose(1, 2)).masked_fill(~mask, -1e9) / q.size(-1) ** 0.5, -1) @ v
        return h + self.dense(a)


class TinyGLM(nn.Module):
    def __init__(self, vocab=60, d=16, n=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(GLMBlock(d) for _ in range(n))
        self.lm_head = nn.Linear(d, vocab)

    def get_input_embeddings(self):
        return self.word_embeddings

    def forward(self, ids):
        h = self.word_embeddings(ids)
        for layer in self.layers:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                h = checkpoint(layer, h, use_reentrant=True)
        logits = self.lm_head(h)
        return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))


def build():
    torch.manual_seed(1)
    m = TinyGLM()
    for name, p in m.named_parameters():
        p.requires_grad = "lora_" in name
    return m


ids = torch.randint(0, 60, (4, 10))

plain = build()
try:
    plain(ids).backward()
    raise AssertionError("expected the no-grad_fn error without the hook")
except RuntimeError as e:
    assert "does not require grad" in str(e)

model = build()


def make_inputs_require_grad(module, input, output):
    output.requires_grad_(True)


model.get_input_embeddings().register_forward_hook(make_inputs_require_grad)
base_before = {n: p.detach().clone() for n, p in model.named_parameters() if "lora_" not in n}
opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=5e-2)
losses = []
for _ in range(25):
    opt.zero_grad()
    loss = model(ids)
    loss.backward()
    opt.step()
    losses.append(loss.item())
lora = [p for n, p in model.named_parameters() if "lora_" in n]
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in lora)
for n, p in model.named_parameters():
    if "lora_" not in n:
        assert p.grad is None and torch.equal(p, base_before[n]), n
assert losses[-1] < losses[0] - 0.1, losses
print(f"hooked embedding: LoRA factors train, base frozen; loss {losses[0]:.3f} -> {losses[-1]:.3f}")
