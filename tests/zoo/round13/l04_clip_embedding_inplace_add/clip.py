import torch
from torch import nn


class CLIPEmbedding(nn.Module):
    def __init__(self, n_vocab, n_embd, n_token):
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_embd)
        self.position_embedding = nn.Parameter(torch.zeros((n_token, n_embd)))

    def forward(self, tokens):
        x = self.token_embedding(tokens)
        x += self.position_embedding
        return x


class CLIPLayer(nn.Module):
    def __init__(self, n_head, n_embd):
        super().__init__()
        self.layernorm_1 = nn.LayerNorm(n_embd)
        self.attention = nn.MultiheadAttention(n_embd, n_head, batch_first=True)
        self.layernorm_2 = nn.LayerNorm(n_embd)
        self.linear_1 = nn.Linear(n_embd, 4 * n_embd)
        self.linear_2 = nn.Linear(4 * n_embd, n_embd)

    def forward(self, x):
        residue = x
        x = self.layernorm_1(x)
        n = x.shape[1]
        causal = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
        x, _ = self.attention(x, x, x, attn_mask=causal, need_weights=False)
        x = x + residue
        residue = x
        x = self.linear_1(self.layernorm_2(x))
        x = x * torch.sigmoid(1.702 * x)  # QuickGELU
        return self.linear_2(x) + residue


class CLIP(nn.Module):
    def __init__(self, n_vocab=60, n_embd=32, n_token=10):
        super().__init__()
        self.embedding = CLIPEmbedding(n_vocab, n_embd, n_token)
        self.layers = nn.ModuleList([CLIPLayer(4, n_embd) for _ in range(2)])
        self.layernorm = nn.LayerNorm(n_embd)

    def forward(self, tokens):
        state = self.embedding(tokens.long())
        for layer in self.layers:
            state = layer(state)
        return self.layernorm(state)
