"""
expect: none
dynamic: dismiss
source: https://github.com/HFAiLab/clip-gen/issues/2

CLIP-GEN trains a transformer to predict VQGAN codebook indices from a CLIP image
embedding. Besides the token cross-entropy it can add a CLIP reconstruction loss:
decode the predicted codes with the frozen VQGAN decoder, re-embed the image with the
frozen CLIP encoder and match the target embedding. Asked how that loss can update
anything when the decoder and CLIP are frozen, the authors point to the trick in
logits_to_z: onehot = probs + (onehot - probs).detach(), a straight-through
estimator. The detach is on purpose: the forward pass uses the hard argmax codes,
the backward pass uses the softmax probabilities, so the CLIP loss does reach the
transformer. Targets are prepared under torch.no_grad() on purpose too. The asserts
show the CLIP term alone gives the transformer a nonzero gradient and that training
lowers both losses.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, CODE_DIM, L, CLIP_DIM, IMG = 16, 6, 4, 8, 24


class FrozenVQGAN(nn.Module):
    def __init__(self):
        super().__init__()
        self.codebook = nn.Embedding(VOCAB, CODE_DIM)
        self.enc = nn.Linear(IMG, L * CODE_DIM)
        self.dec = nn.Linear(L * CODE_DIM, IMG)
        self.requires_grad_(False)

    def encode(self, x):
        z = self.enc(x).view(-1, L, CODE_DIM)
        dist = ((z.unsqueeze(2) - self.codebook.weight) ** 2).sum(-1)
        return dist.argmin(-1)

    def decode(self, z):
        return self.dec(z.flatten(1))


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CLIP_DIM, 64), nn.GELU(), nn.Linear(64, L * VOCAB))

    def forward(self, clip_emb):
        return self.net(clip_emb).view(-1, L, VOCAB)


def logits_to_z(vqgan, logits):
    probs = F.softmax(logits, dim=-1)
    onehot = F.one_hot(logits.argmax(-1), VOCAB).float()
    onehot = probs + (onehot - probs).detach()
    return onehot @ vqgan.codebook.weight


vqgan = FrozenVQGAN()
clip = nn.Linear(IMG, CLIP_DIM).requires_grad_(False)
gpt = TinyGPT()
opt = torch.optim.Adam(gpt.parameters(), lr=3e-3)
x = torch.randn(64, IMG)

with torch.no_grad():
    indices = vqgan.encode(x)
    embeddings = F.normalize(clip(x), dim=-1)


def losses():
    logits = gpt(embeddings)
    loss_gpt = F.cross_entropy(logits.reshape(-1, VOCAB), indices.reshape(-1))
    x_recon = vqgan.decode(logits_to_z(vqgan, logits))
    loss_clip = F.mse_loss(F.normalize(clip(x_recon), dim=-1), embeddings)
    return loss_gpt, loss_clip


loss_gpt, loss_clip = losses()
grads = torch.autograd.grad(loss_clip, list(gpt.parameters()))
assert all(g.abs().sum() > 0 for g in grads), "the CLIP term must reach the transformer"
first = (loss_gpt.item(), loss_clip.item())

for _ in range(300):
    loss_gpt, loss_clip = losses()
    opt.zero_grad()
    (loss_gpt + loss_clip).backward()
    opt.step()

loss_gpt, loss_clip = losses()
assert loss_gpt.item() < first[0] and loss_clip.item() < first[1], (first, loss_gpt.item(), loss_clip.item())
print(f"straight-through codes train the transformer: ce {first[0]:.2f}->{loss_gpt.item():.2f}, "
      f"clip {first[1]:.3f}->{loss_clip.item():.3f}")
