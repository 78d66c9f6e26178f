"""Frozen language model with trainable gated cross-attention to video features, run with gradient checkpointing."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class GatedXAttnBlock(nn.Module):
    def __init__(self, d, d_media):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))   # frozen LM layer
        self.xq = nn.Linear(d, d)                                                        # trainable adapter
        self.xkv = nn.Linear(d_media, 2 * d)
        self.gate = nn.Parameter(torch.tensor(0.5))
        self.media = None                                 # set by the model before each forward

    def forward(self, h):
        h = h + self.mlp(h)
        k, v = self.xkv(self.media).chunk(2, dim=-1)
        attn = torch.softmax(self.xq(h) @ k.transpose(1, 2) / h.shape[-1] ** 0.5, dim=-1)
        return h + torch.tanh(self.gate) * (attn @ v)


class VideoLM(nn.Module):
    def __init__(self, vocab=50, d=16, d_media=12, n_layers=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(GatedXAttnBlock(d, d_media) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab)
        self.gradient_checkpointing = True

    def freeze_language_model(self):
        for module in [self.embed_tokens, self.lm_head] + [layer.mlp for layer in self.layers]:
            for p in module.parameters():
                p.requires_grad_(False)

    def enable_input_require_grads(self):
        def make_inputs_require_grads(module, inputs, output):
            output.requires_grad_(True)

        return self.embed_tokens.register_forward_hook(make_inputs_require_grads)

    def forward(self, tokens, media):
        for layer in self.layers:
            layer.media = media
        h = self.embed_tokens(tokens)
        for layer in self.layers:
            h = checkpoint(layer, h, use_reentrant=True) if self.gradient_checkpointing else layer(h)
        return self.lm_head(h)
