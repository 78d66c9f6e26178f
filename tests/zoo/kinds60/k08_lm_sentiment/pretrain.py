import os
import sys

import torch
import torch.nn.functional as F

from models import VOCAB, TinyGRULM

SEQ_LEN = 12


def corpus(n, seed=0):
    """Token streams from a fixed random bigram table, so there is something to learn."""
    g = torch.Generator().manual_seed(seed)
    table = torch.softmax(torch.randn(VOCAB, VOCAB, generator=g) * 3, dim=-1)
    table[:, 0] = 0
    seqs = torch.zeros(n, SEQ_LEN, dtype=torch.long)
    seqs[:, 0] = torch.randint(1, VOCAB, (n,), generator=g)
    for i in range(1, SEQ_LEN):
        seqs[:, i] = torch.multinomial(table[seqs[:, i - 1]], 1, generator=g).squeeze(1)
    return seqs


def pretrain_lm(ckpt_path, epochs=8):
    torch.manual_seed(0)
    seqs = corpus(4000)
    lm = TinyGRULM()
    opt = torch.optim.Adam(lm.parameters(), lr=3e-3)
    for epoch in range(epochs):
        for batch in seqs[torch.randperm(seqs.shape[0])].split(64):
            logits = lm(batch[:, :-1])
            loss = F.cross_entropy(logits.reshape(-1, VOCAB), batch[:, 1:].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
    os.makedirs(os.path.dirname(ckpt_path) or ".", exist_ok=True)
    torch.save(lm.state_dict(), ckpt_path)
    return loss.item()


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "checkpoints/lm.pt"
    print("final lm loss", pretrain_lm(path))
