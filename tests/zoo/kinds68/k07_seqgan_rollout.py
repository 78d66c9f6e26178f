"""
expect: none
dynamic: dismiss
source: none, invented

The adversarial phase of a SeqGAN-style text generator. The generator is moved and put in train mode by
rebinding (`gen = gen.to(device)`, `gen = gen.train()`), then samples sequences token by token with
`torch.multinomial`; each sampled id is fed back as the next input through `.data`. Integer token ids carry
no gradient anyway, so the `.data` changes nothing: the policy-gradient loss is built from the log-probs that
`log_softmax` produced with full history, weighted by a discriminator reward. The asserts show embedding, GRU
and output layer all receive gradient and change.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, vocab=20, emb=12, hidden=24):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.gru = nn.GRUCell(emb, hidden)
        self.out = nn.Linear(hidden, vocab)
        self.hidden = hidden

    def step(self, tok, h):
        h = self.gru(self.embed(tok), h)
        return F.log_softmax(self.out(h), dim=-1), h


def toy_reward(seqs):
    # stand-in for a discriminator: prefers even token ids
    return (seqs % 2 == 0).float().mean(1)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    device = torch.device("cpu")
    gen = Generator()
    gen = gen.to(device)
    gen = gen.train()
    before = copy.deepcopy(gen.state_dict())
    opt = torch.optim.Adam(gen.parameters(), lr=1e-2)
    batch, seq_len = 16, 10
    for it in range(3):
        tok = torch.zeros(batch, dtype=torch.long, device=device)
        h = torch.zeros(batch, gen.hidden, device=device)
        log_probs, samples = [], []
        for t in range(seq_len):
            logp, h = gen.step(tok, h)
            nxt = torch.multinomial(logp.exp(), 1).squeeze(1)
            log_probs.append(logp.gather(1, nxt.unsqueeze(1)).squeeze(1))
            samples.append(nxt)
            tok = nxt.data
        seqs = torch.stack(samples, 1)
        reward = toy_reward(seqs)
        pg_loss = -(torch.stack(log_probs, 1).sum(1) * (reward - reward.mean())).mean()
        opt.zero_grad()
        pg_loss.backward()
        for name, p in gen.named_parameters():
            assert p.grad is not None and p.grad.abs().sum() > 0, name
        opt.step()
    after = gen.state_dict()
    assert all(not torch.equal(before[k], after[k]) for k in ("embed.weight", "gru.weight_hh", "out.weight"))
    print("ok: generator trains through REINFORCE with sampled ids fed back via .data")


if __name__ == "__main__":
    main()
