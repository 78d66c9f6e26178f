"""Small decoder-only language model with rotary position embeddings (pico-style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RoPE(nn.Module):
    def __init__(self, head_dim, max_seq_len=64, theta=10000.0):
        super().__init__()
        inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(max_seq_len).float(), inv)
        self.register_buffer("freqs_cis", torch.polar(torch.ones_like(angles), angles), persistent=False)

    def get_freqs_cis(self, seq_len):
        return self.freqs_cis[:seq_len]

    @torch.no_grad()
    def forward(self, queries, keys):
        # queries / keys: (batch, heads, seq, head_dim)
        seq_len = queries.shape[2]
        freqs = self.get_freqs_cis(seq_len).view(1, 1, seq_len, -1)
        q_c = torch.view_as_complex(queries.float().reshape(*queries.shape[:-1], -1, 2))
        k_c = torch.view_as_complex(keys.float().reshape(*keys.shape[:-1], -1, 2))
        q_out = torch.view_as_real(q_c * freqs).flatten(3)
        k_out = torch.view_as_real(k_c * freqs).flatten(3)
        return q_out.type_as(queries), k_out.type_as(keys)


class Attention(nn.Module):
    def __init__(self, d_model, n_heads, rope_cls=RoPE):
        super().__init__()
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)
        self.rope = rope_cls(self.head_dim)

    def forward(self, h):
        b, t, _ = h.shape
        split = lambda x: x.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        q, k, v = split(self.q_proj(h)), split(self.k_proj(h)), split(self.v_proj(h))
        q, k = self.rope(q, k)
        out = F.scaled_dot_product_attention(q.contiguous(), k.contiguous(), v.contiguous(), is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, t, -1))


class Pico(nn.Module):
    def __init__(self, vocab=32, d_model=32, n_heads=4, rope_cls=RoPE):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.attn = Attention(d_model, n_heads, rope_cls)
        self.norm = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        h = self.embed(tokens)
        h = h + self.attn(self.norm(h))
        return self.lm_head(h)
