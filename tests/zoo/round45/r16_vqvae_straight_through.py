"""
expect: none
dynamic: dismiss
source: https://github.com/zalandoresearch/pytorch-vq-vae/issues/6

A VQ-VAE: an encoder maps inputs to continuous codes, a vector quantizer snaps each code
to its nearest codebook entry, and a decoder reconstructs from the quantized codes. The
nearest-neighbour lookup has no useful gradient, so the quantizer returns
inputs + (quantized - inputs).detach(): the forward value is the codebook vector while the
backward pass copies the decoder's gradient straight to the encoder output. The codebook
and commitment losses each detach one side on purpose (codebook entries move toward the
encoder output, the encoder is pulled toward its entry). Every detach here is deliberate and
every parameter still receives the gradient the VQ-VAE objective assigns it. The asserts
check that the reconstruction loss alone reaches the encoder but not the codebook, that the
VQ loss reaches the codebook, and that training lowers the total loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class VectorQuantizer(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, commitment_cost):
        super().__init__()
        self.embedding = nn.Embedding(num_embeddings, embedding_dim)
        self.embedding.weight.data.uniform_(-1 / num_embeddings, 1 / num_embeddings)
        self.commitment_cost = commitment_cost

    def forward(self, inputs):
        distances = (inputs.pow(2).sum(1, keepdim=True) - 2 * inputs @ self.embedding.weight.t()
                     + self.embedding.weight.pow(2).sum(1))
        indices = distances.argmin(1)
        quantized = self.embedding(indices)
        e_latent_loss = F.mse_loss(quantized.detach(), inputs)
        q_latent_loss = F.mse_loss(quantized, inputs.detach())
        loss = q_latent_loss + self.commitment_cost * e_latent_loss
        quantized = inputs + (quantized - inputs).detach()
        avg_probs = F.one_hot(indices, self.embedding.num_embeddings).float().mean(0)
        perplexity = torch.exp(-(avg_probs * torch.log(avg_probs + 1e-10)).sum())
        return loss, quantized, perplexity.detach()


class VQVAE(nn.Module):
    def __init__(self, in_dim=16, code_dim=4, codes=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, code_dim))
        self.vq = VectorQuantizer(codes, code_dim, commitment_cost=0.25)
        self.decoder = nn.Sequential(nn.Linear(code_dim, 32), nn.ReLU(), nn.Linear(32, in_dim))

    def forward(self, x):
        vq_loss, q, perplexity = self.vq(self.encoder(x))
        return vq_loss, self.decoder(q), perplexity


centers = torch.randn(8, 16)
data = centers[torch.randint(0, 8, (256,))] + 0.05 * torch.randn(256, 16)
model = VQVAE()

vq_loss, recon, _ = model(data[:64])
F.mse_loss(recon, data[:64]).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.encoder.parameters())
assert model.vq.embedding.weight.grad is None
model.zero_grad()
vq_loss, _, _ = model(data[:64])
vq_loss.backward()
assert model.vq.embedding.weight.grad.abs().sum() > 0
model.zero_grad()

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
first = last = None
for step in range(800):
    batch = data[torch.randint(0, 256, (64,))]
    vq_loss, recon, perplexity = model(batch)
    loss = F.mse_loss(recon, batch) + vq_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
    last = loss.item()
assert last < 0.1 * first, (first, last)
print(f"VQ-VAE loss {first:.3f} -> {last:.3f}, perplexity {perplexity.item():.1f}")
