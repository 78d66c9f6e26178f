"""
expect: none
dynamic: dismiss
source: https://github.com/nayeon7lee/bert-summarization/issues/7

The question: in `train_one_batch`, the refine step calls `generate_refinement_output`,
which wraps work in `torch.no_grad()` - "does that mean you do not track gradients during
training?" No: in that code only the frozen BERT encoder runs under no_grad (once for the
source, and once per position for the masked draft/target with `mask[i] = 0` edited in
place); the refine decoder is called outside the no_grad block on the resulting context
vectors, so it and the generator still train. The in-place mask edit touches plain input
tensors inside no_grad, nothing a recorded op saved. This program rebuilds that two-stage
draft/refine summariser with a small frozen encoder standing in for BERT; the asserts show
the draft decoder, refine path and generator all get gradients and move, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, D, SRC, TGT = 30, 16, 10, 6


class FrozenEncoder(nn.Module):                     # stands in for pretrained BERT
    def __init__(self):
        super().__init__()
        self.tok, self.proj = nn.Embedding(VOCAB, D), nn.Linear(D, D)
        self.requires_grad_(False)

    def forward(self, ids, attention_mask):
        h = self.tok(ids) * attention_mask.unsqueeze(-1)
        return torch.tanh(self.proj(h))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.mix = nn.Linear(D, D), nn.Linear(2 * D, D)

    def forward(self, x, memory):
        att = torch.softmax(self.q(x) @ memory.transpose(1, 2) / D ** 0.5, dim=-1)
        return torch.tanh(self.mix(torch.cat([x, att @ memory], dim=-1)))


class DraftRefineSummarizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = FrozenEncoder()
        self.embedding = nn.Embedding(VOCAB, D)
        self.decoder = Decoder()
        self.generator = nn.Linear(D, VOCAB)

    def generate_refinement_output(self, encoder_outputs, input_ids_batch, input_mask_batch):
        logits = []
        for i in range(TGT):
            with torch.no_grad():
                context_input_mask_batch = []
                for mask in input_mask_batch:
                    mask[i] = 0
                    context_input_mask_batch.append(mask)
                context_input_mask_batch = torch.stack(context_input_mask_batch)
                context_vector = self.encoder(input_ids_batch, context_input_mask_batch)
            out = self.decoder(context_vector, encoder_outputs)
            logits.append(out[:, i:i + 1, :])
        return torch.cat(logits, dim=1)

    def train_one_batch(self, src, tgt):
        with torch.no_grad():
            encoder_outputs = self.encoder(src, torch.ones_like(src, dtype=torch.float))
        sos = torch.zeros(src.size(0), 1, dtype=torch.long)
        dec_in = self.embedding(torch.cat([sos, tgt[:, :-1]], dim=1))
        loss1 = F.cross_entropy(self.generator(self.decoder(dec_in, encoder_outputs)).flatten(0, 1), tgt.flatten())
        pre_logit2 = self.generate_refinement_output(encoder_outputs, tgt, torch.ones_like(tgt, dtype=torch.float))
        loss2 = F.cross_entropy(self.generator(pre_logit2).flatten(0, 1), tgt.flatten())
        return loss1 + loss2


if __name__ == "__main__":
    model = DraftRefineSummarizer()
    trainable = [p for p in model.parameters() if p.requires_grad]
    init = {n: p.detach().clone() for n, p in model.named_parameters()}
    opt = torch.optim.Adam(trainable, lr=1e-2)
    src = torch.randint(1, VOCAB, (8, SRC))
    tgt = src[:, :TGT].flip(1)
    losses = []
    for _ in range(60):
        loss = model.train_one_batch(src, tgt)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    for n, p in model.named_parameters():
        if p.requires_grad:
            assert p.grad is not None and not torch.equal(p.detach(), init[n]), n
    assert losses[-1] < 0.6 * losses[0], (losses[0], losses[-1])
    print(f"OK: decoder/generator train despite no_grad encoder calls; loss {losses[0]:.2f} -> {losses[-1]:.2f}")
