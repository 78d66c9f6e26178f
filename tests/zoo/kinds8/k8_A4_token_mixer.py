"""expect: none
dynamic: dismiss
source: kinds8 (kind A)

Each feed-forward cell ends in a Linear, which does not save its output, so
clamping that output in place is safe; all parameters get gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FeedForwardCell(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.up = nn.Linear(d, 2 * d)
        self.down = nn.Linear(2 * d, d)

    def forward(self, tok):
        return self.down(torch.relu(self.up(tok)))


class TokenMixer(nn.Module):
    def __init__(self, vocab=30, d=8, depth=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.cells = nn.ModuleList([FeedForwardCell(d) for _ in range(depth)])
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, ids):
        tok = self.embed(ids)
        for cell in self.cells:
            tok = cell(tok)
            tok.clamp_(-5.0, 5.0)
        return self.lm_head(tok)


def main():
    torch.manual_seed(0)
    mixer = TokenMixer()
    ids = torch.randint(0, 30, (2, 7))
    logits = mixer(ids[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, 30), ids[:, 1:].reshape(-1))
    loss.backward()
    for name, prm in mixer.named_parameters():
        assert prm.grad is not None, name
    print("OK")


if __name__ == "__main__":
    main()
