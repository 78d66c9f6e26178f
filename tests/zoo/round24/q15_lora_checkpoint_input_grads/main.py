"""
expect: none
dynamic: dismiss
source: https://github.com/locuslab/open-unlearning/issues/178

open-unlearning trained LoRA adapters with reentrant gradient checkpointing and no
enable_input_require_grads(): nothing entering the checkpointed blocks required grad, so the
adapters came out untouched (lora_B all zero). The fix is the transformers helper whose forward
hook calls output.requires_grad_(True) on the frozen input embeddings. That looks like the
usual "patch the error away" switch on a frozen module's output, but it is correct here: the
embeddings stay frozen and the hook only lets checkpointed segments record the LoRA path. The
asserts show the adapters train with the hook, stay zero without it, and embeddings never move.
"""
import torch
import torch.nn.functional as F

from peft_lite import TinyCausalLM, enable_input_require_grads, get_peft_model

torch.manual_seed(0)
torch.set_num_threads(1)


def train(use_hook, steps=5):
    torch.manual_seed(0)
    model = get_peft_model(TinyCausalLM())
    model.gradient_checkpointing = True
    if use_hook:
        enable_input_require_grads(model)
    emb0 = model.embed_tokens.weight.detach().clone()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-2)
    for _ in range(steps):
        ids = torch.randint(0, 40, (4, 9))
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, 40), ids[:, 1:].reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    b_norms = [layer.q_proj.lora_B.norm().item() for layer in model.layers]
    return b_norms, torch.equal(emb0, model.embed_tokens.weight)


b_norms, emb_frozen = train(use_hook=True)
assert all(n > 0 for n in b_norms) and emb_frozen

b_norms, emb_frozen = train(use_hook=False)
assert all(n == 0 for n in b_norms) and emb_frozen
print("q15 ok: requires_grad_ hook on frozen embeddings is what lets checkpointed LoRA train")
