"""
expect: none
dynamic: dismiss
source: https://github.com/kipgparker/soft-prompt-tuning/issues/4

Prompt tuning of a frozen language model, rebuilt small. SoftEmbedding wraps the model's word
embedding table: its learned prompt is initialised from the first n rows of that table with
wte.weight[:n_tokens].clone().detach() and wrapped in nn.Parameter, and forward() prepends the
prompt to the embedded input. Readers of the issue worried that this detach (and the frozen
backbone) means the prompt never learns; in fact the detach only cuts the initial copy from the
embedding table, and the new Parameter is a leaf that the optimizer owns. The asserts show that
the learned prompt moves and the task loss drops while the word embeddings and the frozen body
stay bit-identical.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SoftEmbedding(nn.Module):
    def __init__(self, wte: nn.Embedding, n_tokens: int = 5, initialize_from_vocab: bool = True):
        super().__init__()
        self.wte = wte
        self.n_tokens = n_tokens
        self.learned_embedding = nn.Parameter(self.initialize_embedding(wte, n_tokens, initialize_from_vocab))

    def initialize_embedding(self, wte, n_tokens, initialize_from_vocab):
        if initialize_from_vocab:
            return self.wte.weight[:n_tokens].clone().detach()
        return torch.empty(n_tokens, wte.weight.size(1)).uniform_(-0.5, 0.5)

    def forward(self, tokens):
        input_embedding = self.wte(tokens[:, self.n_tokens:])
        learned = self.learned_embedding.repeat(input_embedding.size(0), 1, 1)
        return torch.cat([learned, input_embedding], dim=1)


class FrozenLM(nn.Module):
    def __init__(self, vocab=40, dim=24, n_cls=3):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.body = nn.Linear(dim, dim)
        self.cls = nn.Linear(dim, n_cls)

    def forward_embeds(self, embeds):
        hidden = torch.tanh(self.body(embeds))
        return self.cls(hidden.mean(dim=1))


lm = FrozenLM()
for p in lm.parameters():
    p.requires_grad_(False)
soft = SoftEmbedding(lm.wte, n_tokens=5)
optimizer = torch.optim.Adam([soft.learned_embedding], lr=5e-2)

n_tokens = 5
text = torch.randint(5, 40, (64, 8))
tokens = torch.cat([torch.zeros(64, n_tokens, dtype=torch.long), text], dim=1)  # dummy prompt slots
with torch.no_grad():  # task labels come from the same frozen LM driven by an unknown prompt
    secret = torch.randn(n_tokens, 24) * 2.0
    target_logits = lm.forward_embeds(torch.cat([secret.repeat(64, 1, 1), lm.wte(text)], dim=1))
    labels = target_logits.argmax(dim=1)

wte_before = lm.wte.weight.clone()
body_before = [p.clone() for p in lm.body.parameters()]
prompt_before = soft.learned_embedding.detach().clone()
losses = []
for _ in range(80):
    optimizer.zero_grad()
    loss = F.cross_entropy(lm.forward_embeds(soft(tokens)), labels)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

assert soft.learned_embedding.is_leaf and soft.learned_embedding.grad is not None
assert not torch.allclose(soft.learned_embedding, prompt_before)
assert losses[-1] < 0.85 * losses[0]
assert torch.equal(lm.wte.weight, wte_before)
assert all(torch.equal(a, b) for a, b in zip(lm.body.parameters(), body_before))
print(f"prompt-tuning loss {losses[0]:.3f} -> {losses[-1]:.3f}; backbone untouched")
