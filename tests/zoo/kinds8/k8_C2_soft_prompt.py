"""expect: none
dynamic: dismiss
source: kinds8 (kind C)

The soft prompt is copied from frozen token embeddings taken under no_grad and made
a new leaf on purpose; it reaches SGD through a list built first and appended to.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenTinyLM(nn.Module):
    def __init__(self, vocab=40, d=8, n_cls=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d)
        self.mix = nn.Linear(d, d)
        self.cls = nn.Linear(d, n_cls)
        self.requires_grad_(False)

    def forward(self, embeds):
        return self.cls(torch.tanh(self.mix(embeds)).mean(1))


def main():
    torch.manual_seed(0)
    lm = FrozenTinyLM()
    seed_ids = torch.tensor([3, 7, 11, 5])
    with torch.no_grad():
        seed_vecs = lm.tok_emb(seed_ids)

    soft_prompt = seed_vecs.detach().clone().requires_grad_()
    label_bias = nn.Parameter(torch.zeros(2))
    tunables = [label_bias]
    tunables.append(soft_prompt)
    opt = torch.optim.SGD(tunables, lr=0.1)

    ids = torch.randint(0, 40, (3, 6))
    labels = torch.randint(0, 2, (3,))
    for _ in range(3):
        opt.zero_grad()
        prompt = soft_prompt.unsqueeze(0).expand(3, -1, -1)
        embeds = torch.cat([prompt, lm.tok_emb(ids)], dim=1)
        loss = F.cross_entropy(lm(embeds) + label_bias, labels)
        loss.backward()
        assert soft_prompt.grad is not None
        assert label_bias.grad is not None
        opt.step()
    for w in lm.parameters():
        assert w.grad is None
    print("OK")


if __name__ == "__main__":
    main()
