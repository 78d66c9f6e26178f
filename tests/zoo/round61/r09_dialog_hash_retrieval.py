"""
expect: none
dynamic: dismiss
source: https://github.com/gmftbyGMFTBY/SimpleReDial-v1/blob/4363374756ccd2949e37438a075b728c218da236/simpleredial/model/RepresentationModels/hash_bert.py

Response selection for retrieval dialog systems with deep hashing: a dual
encoder embeds the dialog context and the candidate responses, two small hash
encoders map the embeddings to K-dim codes, and the model is trained with a
reconstruction (cosine) loss, a hash loss that asks the context/response code
products to be K for the true response and 0 for the hard negative, and a
quantization loss ||h - sign(h).detach()||. It is full of cut-looking lines:
the binary targets are sign(...).detach(), the accuracy is computed from the
detached codes and read with .item(), the label mask is written in place, and
the index builder get_cand is a @torch.no_grad() method that packs the codes
with NumPy. All of these are right: sign has zero gradient anyway, so its
detached copy is a fixed target for the continuous code; the metric and the
index are never trained through; the mask is a fresh tensor nothing saved.
The asserts train for a while, check every encoder, hash and decoder weight
gets a gradient and moves, the quantization and hash losses fall, and that
building the index between backward() and step() changes no gradient.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
VOCAB, D, HIDDEN, K, GRAY = 40, 32, 32, 16, 1


def mlp(i, o):
    return nn.Sequential(nn.Linear(i, HIDDEN), nn.LeakyReLU(), nn.Dropout(p=0.1), nn.Linear(HIDDEN, o))


class HashDualEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.hash_code_size = K
        self.ctx_encoder = nn.EmbeddingBag(VOCAB, D)
        self.can_encoder = nn.EmbeddingBag(VOCAB, D)
        self.ctx_hash_encoder, self.can_hash_encoder = mlp(D, K), mlp(D, K)
        self.ctx_hash_decoder, self.can_hash_decoder = mlp(K, D), mlp(K, D)

    @staticmethod
    def compact_binary_vectors(codes):
        bits = codes.cpu().numpy().astype("int")
        return np.packbits(bits, axis=-1)

    @torch.no_grad()
    def get_cand(self, ids):
        rid_rep = self.can_encoder(ids)
        hash_code = torch.sign(self.can_hash_encoder(rid_rep))
        hash_code = torch.where(hash_code == -1, torch.zeros_like(hash_code), hash_code)
        return torch.from_numpy(self.compact_binary_vectors(hash_code))

    def forward(self, cid, rid):
        cid_rep, rid_rep = self.ctx_encoder(cid), self.can_encoder(rid)
        batch_size = cid_rep.shape[0]
        ctx_hash_code = self.ctx_hash_encoder(cid_rep)
        can_hash_code = self.can_hash_encoder(rid_rep)
        ctx_re = self.ctx_hash_decoder(ctx_hash_code)
        can_re = self.can_hash_decoder(can_hash_code)

        kl_loss = -(F.cosine_similarity(ctx_re, cid_rep, -1).mean()
                    + F.cosine_similarity(can_re, rid_rep, -1).mean())

        ctx_hash_code_h, can_hash_code_h = torch.sign(ctx_hash_code).detach(), torch.sign(can_hash_code).detach()
        quantization_loss = (torch.norm(ctx_hash_code - ctx_hash_code_h, p=2, dim=1).mean()
                             + torch.norm(can_hash_code - can_hash_code_h, p=2, dim=1).mean())

        matrix = torch.matmul(ctx_hash_code, can_hash_code.T)
        mask = torch.zeros_like(matrix)
        mask[torch.arange(batch_size), torch.arange(0, len(rid_rep), GRAY + 1)] = 1.
        hash_loss = torch.norm(matrix - self.hash_code_size * mask, p=2).mean() * 0.05

        matrix = torch.matmul(ctx_hash_code_h, can_hash_code_h.t())
        hamming_distance = 0.5 * (self.hash_code_size - matrix)
        acc_num = (hamming_distance.min(dim=-1)[1] == torch.arange(0, len(rid), GRAY + 1)).sum().item()
        return kl_loss, hash_loss, quantization_loss, acc_num / batch_size


def make_batch(b=16):
    topic = torch.randint(0, 4, (b,))
    cid = topic[:, None] * 10 + torch.randint(0, 10, (b, 6))
    pos = topic[:, None] * 10 + torch.randint(0, 10, (b, 6))
    neg = ((topic[:, None] + 1) % 4) * 10 + torch.randint(0, 10, (b, 6))
    rid = torch.stack([pos, neg], 1).reshape(b * (GRAY + 1), 6)
    return cid, rid


model = HashDualEncoder()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
before = [p.detach().clone() for p in model.parameters()]
history = []
for step in range(150):
    cid, rid = make_batch()
    kl_loss, hash_loss, q_loss, acc = model(cid, rid)
    opt.zero_grad()
    (kl_loss + hash_loss + q_loss).backward()
    grads = [p.grad.clone() for p in model.parameters()]
    index = model.get_cand(rid)                     # build the retrieval index mid-step
    assert index.dtype == torch.uint8 and index.shape == (len(rid), K // 8)
    assert all(torch.equal(g, p.grad) for g, p in zip(grads, model.parameters()))
    opt.step()
    history.append((hash_loss.item(), q_loss.item(), acc))

assert all(p.grad is not None for p in model.parameters())
assert all(not torch.equal(b, p) for b, p in zip(before, model.parameters()))
first, last = np.mean(history[:20], 0), np.mean(history[-20:], 0)
assert last[0] < first[0] and last[1] < first[1]
print("r09 ok: detached sign targets, no_grad index and in-place mask all leave training intact")
