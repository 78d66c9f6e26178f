"""
expect: none
dynamic: dismiss
source: kinds check 21, kind 2 (written for this check)

Multi-task language model with a POS-tagging head: the tag loss is rescaled each
step to a fixed share of the LM loss with a coefficient built from .item() values,
a constant on purpose (loss balancing, not a gradient path); .item() also feeds the
log and a ReduceLROnPlateau scheduler. The tag loss itself stays a tensor. The
asserts show every parameter gets a nonzero gradient, and that the tag term really
trains (tag head and LSTM gradients differ between tag share 0 and 0.5).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiTaskLM(nn.Module):
    def __init__(self, vocab, n_tags, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)
        self.tag_head = nn.Linear(dim, n_tags)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.lm_head(h), self.tag_head(h)


class BalancedTrainer:
    def __init__(self, model, tag_share=0.5, lr=1e-2):
        self.model, self.tag_share = model, tag_share
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.sched = torch.optim.lr_scheduler.ReduceLROnPlateau(self.opt, patience=2)
        self.log = []

    def loss(self, tokens, tags):
        lm_logits, tag_logits = self.model(tokens[:, :-1])
        lm = F.cross_entropy(lm_logits.flatten(0, 1), tokens[:, 1:].flatten())
        tag = F.cross_entropy(tag_logits.flatten(0, 1), tags[:, :-1].flatten())
        coef = self.tag_share * lm.item() / max(tag.item(), 1e-8)
        self.log.append({"lm": lm.item(), "tag": tag.item(), "coef": coef})
        return lm + coef * tag

    def step(self, tokens, tags):
        self.opt.zero_grad()
        loss = self.loss(tokens, tags)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        self.sched.step(loss.item())
        return loss.item()


def grads(trainer, tokens, tags):
    trainer.opt.zero_grad()
    trainer.loss(tokens, tags).backward()
    return {n: p.grad.clone() for n, p in trainer.model.named_parameters()}


if __name__ == "__main__":
    torch.manual_seed(5)
    vocab, n_tags = 40, 6
    tokens, tags = torch.randint(0, vocab, (8, 12)), torch.randint(0, n_tags, (8, 12))
    trainer = BalancedTrainer(MultiTaskLM(vocab, n_tags))
    g = grads(trainer, tokens, tags)
    for name, gr in g.items():
        assert gr.abs().sum() > 0, name
    trainer.tag_share = 0.0
    g_off = grads(trainer, tokens, tags)
    assert torch.count_nonzero(g_off["tag_head.weight"]) == 0
    assert not torch.allclose(g["rnn.weight_hh_l0"], g_off["rnn.weight_hh_l0"])
    trainer.tag_share = 0.5
    losses = [trainer.step(tokens, tags) for _ in range(5)]
    assert losses[-1] < losses[0] and len(trainer.log) == 7
    print("ok: .item() only builds a constant coefficient, logs and the scheduler")
