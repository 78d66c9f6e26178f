"""expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/DPR/issues/196

Dense Passage Retrieval bi-encoder trained with in-batch negatives while the
passage (context) encoder is deliberately kept fixed (fix_ctx_encoder=True,
as when the passage index must stay valid, e.g. in RAG). get_representation
runs the fixed encoder under torch.no_grad() and then calls requires_grad_()
on its outputs. Cutting the context encoder off is the intended behaviour and
the requires_grad_ calls are a harmless leftover; the question encoder, which
is what is being trained, receives full gradients through the dot-product
scores.
"""
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, vocab=60, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True, dropout=0.0)

    def forward(self, ids, segments, attn_mask):
        seq = self.layer(self.embed(ids), src_key_padding_mask=~attn_mask.bool())
        return seq, seq[:, 0], None


class BiEncoder(nn.Module):
    def __init__(self, question_model, ctx_model, fix_q_encoder=False, fix_ctx_encoder=False):
        super().__init__()
        self.question_model = question_model
        self.ctx_model = ctx_model
        self.fix_q_encoder = fix_q_encoder
        self.fix_ctx_encoder = fix_ctx_encoder

    @staticmethod
    def get_representation(sub_model, ids, segments, attn_mask, fix_encoder=False):
        if fix_encoder:
            with torch.no_grad():
                sequence_output, pooled_output, hidden_states = sub_model(ids, segments, attn_mask)
            if sub_model.training:
                sequence_output.requires_grad_(requires_grad=True)
                pooled_output.requires_grad_(requires_grad=True)
        else:
            sequence_output, pooled_output, hidden_states = sub_model(ids, segments, attn_mask)
        return sequence_output, pooled_output, hidden_states

    def forward(self, q_ids, q_segments, q_mask, ctx_ids, ctx_segments, ctx_mask) -> Tuple[torch.Tensor, torch.Tensor]:
        _, q_pooled, _ = self.get_representation(self.question_model, q_ids, q_segments, q_mask, self.fix_q_encoder)
        _, ctx_pooled, _ = self.get_representation(self.ctx_model, ctx_ids, ctx_segments, ctx_mask, self.fix_ctx_encoder)
        return q_pooled, ctx_pooled


def in_batch_nll(q_vectors, ctx_vectors, positive_idx):
    scores = q_vectors @ ctx_vectors.t()
    return F.nll_loss(F.log_softmax(scores, dim=1), positive_idx)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = BiEncoder(Encoder(), Encoder(), fix_ctx_encoder=True)
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    q_ids, ctx_ids = torch.randint(1, 60, (4, 6)), torch.randint(1, 60, (8, 10))
    q_mask, ctx_mask = torch.ones_like(q_ids), torch.ones_like(ctx_ids)
    positives = torch.tensor([0, 2, 4, 6])
    optimizer.zero_grad()
    q_vec, ctx_vec = model(q_ids, torch.zeros_like(q_ids), q_mask, ctx_ids, torch.zeros_like(ctx_ids), ctx_mask)
    loss = in_batch_nll(q_vec, ctx_vec, positives)
    loss.backward()
    optimizer.step()
    for name, p in model.question_model.named_parameters():
        assert p.grad is not None, name
    assert model.question_model.embed.weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in model.ctx_model.parameters())   # frozen on purpose
    print("OK: question encoder trains; the fixed passage encoder is intentionally untouched")
