"""A frozen CLIP-like text tower with learnable prompt tokens, as in prompt-tuned zero-shot anomaly detection."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenTextTower(nn.Module):
    def __init__(self, vocab=30, width=16, embed_dim=12):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.block = nn.Sequential(nn.Linear(width, width), nn.GELU(), nn.Linear(width, width))
        self.text_projection = nn.Linear(width, embed_dim, bias=False)
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, embeds):                      # [N, L, width] -> [N, embed_dim]
        h = embeds + self.block(embeds)
        attn = torch.softmax(h @ h.transpose(1, 2) / h.shape[-1] ** 0.5, dim=-1)
        return self.text_projection((attn @ h)[:, -1])


class PromptedTextEncoder(nn.Module):
    def __init__(self, tower, n_prompt=3, width=16):
        super().__init__()
        self.tower = tower
        self.prompt = nn.Parameter(torch.randn(n_prompt, width) * 0.02)

    def embed_sentences(self, token_ids):           # [N, L] template token ids
        tok = self.tower.token_embedding(token_ids)
        prompt = self.prompt.unsqueeze(0).expand(tok.shape[0], -1, -1)
        return torch.cat([prompt, tok], dim=1)

    def encode_text(self, token_ids):
        class_embeddings = self.tower(self.embed_sentences(token_ids))
        class_embeddings /= class_embeddings.norm(dim=-1, keepdim=True)
        class_embedding = class_embeddings.mean(dim=0)
        class_embedding /= class_embedding.norm()
        return class_embedding

    def encode_text_out_of_place(self, token_ids):
        class_embeddings = F.normalize(self.tower(self.embed_sentences(token_ids)), dim=-1)
        return F.normalize(class_embeddings.mean(dim=0), dim=0)
