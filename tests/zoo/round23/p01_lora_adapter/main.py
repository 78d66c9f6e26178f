"""
expect: GL003 main.py:34
dynamic: confirm
source: https://github.com/ludwig-ai/ludwig/pull/3572

The PR let users start LLM fine-tuning from pretrained LoRA weights; after loading them
the loss no longer required grad, so the trainer got `try: loss.requires_grad = True
except RuntimeError: pass`. The loaded adapter is frozen (inference-mode load), so the switch
only silences the "does not require grad" error: backward runs, nothing reaches the adapter.
The asserts show the adapter's grads stay None and its weights never move while a loader
that keeps the adapter trainable lets the same loop update it and lower the loss.
"""
import copy
import torch
import torch.nn.functional as F
from adapters import TinyCausalLM, attach_adapter, load_pretrained_adapter

torch.set_num_threads(1)
torch.manual_seed(0)
VOCAB = 40


class FineTuneTrainer:
    def __init__(self, model, lr=0.5, grad_accum=2):
        self.model = model
        self.grad_accum = grad_accum
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)

    def train_step(self, ids, targets):
        logits = self.model(ids)
        loss = F.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1))
        loss = loss / self.grad_accum
        try:
            loss.requires_grad = True
        except RuntimeError:
            pass
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        return loss.item() * self.grad_accum


def make_batch():
    ids = torch.randint(0, VOCAB, (8, 6))
    return ids, (ids * 7 + 3) % VOCAB   # a learnable token mapping


base = TinyCausalLM(VOCAB)
pretrained = attach_adapter(copy.deepcopy(base))
adapter_state = {k: v.detach().clone() + 0.05 for k, v in pretrained.state_dict().items() if "lora_" in k}

# buggy path: adapter loaded from the checkpoint, trainer "fixes" the error
model = load_pretrained_adapter(copy.deepcopy(base), adapter_state)
trainer = FineTuneTrainer(model)
before = model.mix.lora_b.detach().clone()
batches = [make_batch() for _ in range(30)]
losses = [trainer.train_step(*b) for b in batches]
assert model.mix.lora_a.grad is None and model.mix.lora_b.grad is None
assert torch.equal(before, model.mix.lora_b), "adapter never moves"


def fixed_training(batches):
    m = attach_adapter(copy.deepcopy(base))
    m.load_state_dict(adapter_state, strict=False)        # adapter stays trainable
    opt = torch.optim.SGD([p for p in m.parameters() if p.requires_grad], lr=0.5)
    start = m.mix.lora_b.detach().clone()
    out = []
    for ids, tgt in batches:
        loss = F.cross_entropy(m(ids).reshape(-1, VOCAB), tgt.reshape(-1)) / 2
        loss.backward()
        opt.step()
        opt.zero_grad()
        out.append(loss.item() * 2)
    return start, m, out


start, fixed, fixed_losses = fixed_training(batches)
assert not torch.equal(start, fixed.mix.lora_b), "trainable adapter is updated"
assert sum(fixed_losses[-5:]) < sum(fixed_losses[:5])
bug_eval = F.cross_entropy(model(batches[0][0]).reshape(-1, VOCAB), batches[0][1].reshape(-1)).item()
fix_eval = F.cross_entropy(fixed(batches[0][0]).reshape(-1, VOCAB), batches[0][1].reshape(-1)).item()
assert fix_eval < bug_eval
print("p01 ok: frozen adapter + requires_grad switch -> adapter never trained", bug_eval, fix_eval)
