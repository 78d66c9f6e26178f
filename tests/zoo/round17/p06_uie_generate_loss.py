"""
expect: GL003 67
dynamic: confirm
source: https://github.com/ChocoWu/LasUIE/issues/10

LasUIE issue #10: while running the structure-aware post-training of the generative information
extraction model, training crashed with "element 0 of tensors does not require grad and does not
have a grad_fn"; the reporter tried `state.params.requires_grad_(True)` / `loss.requires_grad_(True)`
and the program ran but "didn't work". This program rebuilds that situation in a small seq2seq
extractor: the post-training loss is computed from the scores returned by a generate() method that
(like Hugging Face's) is decorated with @torch.no_grad(), so the loss has no history and the
trainer switches it on with loss.requires_grad_(True). It asserts that training then runs but no
parameter ever receives a gradient or moves, and that scoring the generated structure with a
gradient-enabled teacher-forced pass trains the model and raises the reward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, BOS = 12, 0


class Seq2SeqExtractor(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d)
        self.encoder = nn.GRU(d, d, batch_first=True)
        self.decoder = nn.GRUCell(d, d)
        self.out = nn.Linear(d, VOCAB)

    def decode_logits(self, src, tgt_in):
        _, h = self.encoder(self.embed(src))
        h, logits = h[0], []
        for t in range(tgt_in.shape[1]):
            h = self.decoder(self.embed(tgt_in[:, t]), h)
            logits.append(self.out(h))
        return torch.stack(logits, 1)

    @torch.no_grad()
    def generate(self, src, max_len):
        _, h = self.encoder(self.embed(src))
        h, tok = h[0], torch.full((src.shape[0],), BOS)
        tokens, scores = [], []
        for _ in range(max_len):
            h = self.decoder(self.embed(tok), h)
            logp = F.log_softmax(self.out(h), -1)
            tok = torch.distributions.Categorical(logits=logp).sample()
            tokens.append(tok)
            scores.append(logp.gather(1, tok[:, None]).squeeze(1))
        return torch.stack(tokens, 1), torch.stack(scores, 1)


class StructurePostTrainer:
    def __init__(self, model, grad_scores=False):
        self.model, self.grad_scores = model, grad_scores
        self.opt = torch.optim.Adam(model.parameters(), lr=3e-2)

    def structure_loss(self, src, gold):
        tokens, scores = self.model.generate(src, max_len=gold.shape[1])
        reward = (tokens == gold).float().mean(1, keepdim=True)          # structure F1 proxy
        if self.grad_scores:
            tgt_in = torch.cat([torch.full_like(tokens[:, :1], BOS), tokens[:, :-1]], 1)
            logp = F.log_softmax(self.model.decode_logits(src, tgt_in), -1)
            scores = logp.gather(2, tokens[..., None]).squeeze(-1)
        loss = -((reward - reward.mean()) * scores).mean()
        if not loss.requires_grad:
            loss.requires_grad_(True)
        return loss, reward.mean().item()

    def step(self, src, gold):
        loss, reward = self.structure_loss(src, gold)
        self.opt.zero_grad()
        loss.backward()
        got_grad = any(p.grad is not None for p in self.model.parameters())
        self.opt.step()
        return got_grad, reward


def run(grad_scores, steps=80):
    torch.manual_seed(0)
    model = Seq2SeqExtractor()
    trainer = StructurePostTrainer(model, grad_scores)
    src = torch.randint(1, VOCAB, (32, 6))
    gold = (src[:, :4] + 1) % VOCAB            # target "structure" is a function of the text
    w0 = model.out.weight.detach().clone()
    grads, rewards = [], []
    for _ in range(steps):
        g, r = trainer.step(src, gold)
        grads.append(g)
        rewards.append(r)
    return grads, rewards, not torch.equal(w0, model.out.weight)


grads, rewards, moved = run(grad_scores=False, steps=10)
assert not any(grads) and not moved, "post-training should be a no-op"

grads, rewards_fix, moved = run(grad_scores=True, steps=50)
assert all(grads) and moved
assert sum(rewards_fix[-10:]) / 10 > sum(rewards_fix[:10]) / 10 + 0.05, (rewards_fix[:3], rewards_fix[-3:])
print("p06 ok: loss from a no_grad generate() made trainable with requires_grad_ trains nothing")
