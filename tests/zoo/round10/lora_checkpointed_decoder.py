"""
expect: none
dynamic: dismiss
source: https://github.com/lm-sys/FastChat/issues/581

FastChat issue #581 ("Some tensor not requiring a grad"): LoRA fine-tuning with
gradient checkpointing fails because the frozen embedding layer produces
hidden states that do not require grad, and reentrant checkpointing then
yields no gradients for the LoRA weights inside the checkpointed blocks. The
workaround given there (and later packaged by transformers as
enable_input_require_grads) is to set `requires_grad = True` on the embedding
output. That switch is deliberate: the embedding is meant to stay frozen and
nothing upstream of it should train. This program builds a tiny decoder with
frozen embeddings and LoRA adapters inside reentrant-checkpointed blocks; the
asserts show the adapters receive exactly the gradients of a run without
checkpointing, the frozen weights receive none, and that without the switch
the adapters would get no gradient at all.
"""
import warnings

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, dim, rank=2):
        super().__init__()
        self.base = nn.Linear(dim, dim)
        self.base.requires_grad_(False)
        self.lora_a = nn.Parameter(torch.randn(rank, dim) * 0.1)
        self.lora_b = nn.Parameter(torch.randn(dim, rank) * 0.1)

    def forward(self, x):
        return self.base(x) + x @ self.lora_a.T @ self.lora_b.T


class TinyDecoder(nn.Module):
    def __init__(self, vocab=20, dim=12, n_layers=2, use_checkpoint=True, enable_input_grads=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.embed.requires_grad_(False)
        self.layers = nn.ModuleList([LoRALinear(dim) for _ in range(n_layers)])
        self.lm_head = nn.Linear(dim, vocab)
        self.lm_head.requires_grad_(False)
        self.use_checkpoint = use_checkpoint
        self.enable_input_grads = enable_input_grads

    def forward(self, tokens):
        hidden = self.embed(tokens)
        if self.enable_input_grads:
            hidden.requires_grad_(True)
        for layer in self.layers:
            block = lambda h, layer=layer: torch.tanh(layer(h)) + h
            hidden = checkpoint(block, hidden, use_reentrant=True) if self.use_checkpoint else block(hidden)
        return self.lm_head(hidden)


def lora_grads(model, tokens):
    model.zero_grad(set_to_none=True)
    logits = model(tokens[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), tokens[:, 1:].reshape(-1))
    if loss.requires_grad:
        loss.backward()
    return [p.grad for layer in model.layers for p in (layer.lora_a, layer.lora_b)]


def main():
    torch.manual_seed(0)
    tokens = torch.randint(0, 20, (3, 9))
    model = TinyDecoder()
    state = model.state_dict()

    got = lora_grads(model, tokens)
    assert all(g is not None and g.abs().sum() > 0 for g in got)
    assert model.embed.weight.grad is None and model.lm_head.weight.grad is None

    reference = TinyDecoder(use_checkpoint=False, enable_input_grads=False)
    reference.load_state_dict(state)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(got, lora_grads(reference, tokens)))

    without = TinyDecoder(enable_input_grads=False)
    without.load_state_dict(state)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert all(g is None for g in lora_grads(without, tokens))
    print("requires_grad on frozen embedding output lets checkpointed adapters train")


if __name__ == "__main__":
    main()
