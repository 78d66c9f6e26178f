"""
expect: none
dynamic: dismiss
source: https://github.com/HarryVolek/PyTorch_Speaker_Verification/blob/master/utils.py

Speaker verification with the GE2E loss (d-vector LSTM embedder). The helper
module builds the similarity matrix and the per-utterance loss by writing
element by element into freshly allocated torch.zeros buffers
(cossim[j][i][k] = ..., per_embedding_loss[j][i] = ...) and takes the log of the
softmax denominator with an in-place log_(). These look like the in-place edits
that break autograd, but they are correct: the buffers are new tensors that no
recorded op has saved before the writes (the writes are recorded as CopySlices
and carry the gradient), and log_() acts on a temporary sum that nothing saved.
The asserts show that the loss back-propagates into the LSTM and into the
learnable scale w and bias b, that the gradient equals the one of a vectorised
out-of-place GE2E, and that a few optimizer steps lower the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ge2e_utils import get_centroids, get_cossim, calc_loss

torch.manual_seed(0)
torch.set_num_threads(1)

N_SPK, M_UTT, FRAMES, MELS = 4, 3, 12, 10


class SpeechEmbedder(nn.Module):
    def __init__(self, n_mels=MELS, hidden=24, proj=16):
        super().__init__()
        self.lstm = nn.LSTM(n_mels, hidden, batch_first=True)
        self.projection = nn.Linear(hidden, proj)

    def forward(self, mels):
        out, _ = self.lstm(mels)
        x = self.projection(out[:, -1])
        return x / torch.norm(x, dim=1, keepdim=True)


class GE2ELoss(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.tensor(10.0))
        self.b = nn.Parameter(torch.tensor(-5.0))

    def forward(self, embeddings):
        torch.clamp(self.w, 1e-6)
        centroids = get_centroids(embeddings)
        cossim = get_cossim(embeddings, centroids)
        sim_matrix = self.w * cossim + self.b
        loss, _ = calc_loss(sim_matrix)
        return loss


def reference_ge2e(embeddings, w, b):
    n, m, _ = embeddings.shape
    sums = embeddings.sum(dim=1)
    cent = sums / m
    excl = (sums.unsqueeze(1) - embeddings) / (m - 1)
    sim = F.cosine_similarity(embeddings.unsqueeze(2), cent.view(1, 1, n, -1), dim=3)
    own = F.cosine_similarity(embeddings, excl, dim=2)
    idx = torch.arange(n)
    mask = torch.zeros(n, m, n, dtype=torch.bool)
    mask[idx, :, idx] = True
    sim = torch.where(mask, own.unsqueeze(2).expand(n, m, n), sim) + 1e-6
    s = w * sim + b
    pos = s[idx, :, idx]
    return -(pos - torch.log(torch.exp(s).sum(dim=2) + 1e-6)).sum()


embedder = SpeechEmbedder()
ge2e = GE2ELoss()
mels = torch.randn(N_SPK * M_UTT, FRAMES, MELS) + torch.arange(N_SPK).repeat_interleave(M_UTT).view(-1, 1, 1) * 0.5

emb = embedder(mels).view(N_SPK, M_UTT, -1)
loss = ge2e(emb)
params = list(embedder.parameters()) + [ge2e.w, ge2e.b]
grads = torch.autograd.grad(loss, params)
emb_ref = embedder(mels).view(N_SPK, M_UTT, -1)
ref = reference_ge2e(emb_ref, ge2e.w, ge2e.b)
ref_grads = torch.autograd.grad(ref, params)
assert torch.allclose(loss, ref, atol=1e-4), (loss.item(), ref.item())
for g, r in zip(grads, ref_grads):
    assert torch.allclose(g, r, atol=1e-4, rtol=1e-3)
assert all(g.abs().sum() > 0 for g in grads)
print("GE2E with buffer writes matches vectorised GE2E, loss", round(loss.item(), 4))

optimizer = torch.optim.SGD(params, lr=0.05)
first = None
for step in range(30):
    emb = embedder(mels).view(N_SPK, M_UTT, -1)
    loss = ge2e(emb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    first = loss.item() if first is None else first
assert loss.item() < first, (first, loss.item())
print("loss", round(first, 3), "->", round(loss.item(), 3))
