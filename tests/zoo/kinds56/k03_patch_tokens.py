"""
expect: none
dynamic: dismiss
source: none, invented

A tiny vision transformer classifies synthetic 16x16 images of bright horizontal or vertical bars.
Images are cut into 4x4 patches, a linear layer embeds each patch, and the helper `add_positions`
adds the learned position table to those token embeddings in place (`tokens += pos`).  The tensor
edited is the fresh output of the patch embedding linear layer: the matmul keeps its inputs, not
its output, and the in-place add needs nothing saved, so autograd has no stale copy to complain
about.  The second helper `jitter_tokens` perturbs a clone during training.  The asserts check that
the position table and the patch embedding get gradient and that the classifier learns the task.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

IMG, PATCH, DIM = 16, 4, 32
N_PATCHES = (IMG // PATCH) ** 2


def patchify(images):
    b = images.shape[0]
    p = images.unfold(1, PATCH, PATCH).unfold(2, PATCH, PATCH)
    return p.reshape(b, N_PATCHES, PATCH * PATCH)


def add_positions(tokens, pos):
    tokens += pos
    return tokens


def jitter_tokens(tokens, scale):
    noisy = tokens.clone()
    noisy.add_(scale * torch.randn_like(noisy))
    return noisy


class TinyViT(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.embed = nn.Linear(PATCH * PATCH, DIM)
        self.pos = nn.Parameter(0.02 * torch.randn(1, N_PATCHES, DIM))
        self.cls = nn.Parameter(torch.zeros(1, 1, DIM))
        layer = nn.TransformerEncoderLayer(DIM, 4, 64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(DIM, n_classes)

    def forward(self, images, noise=0.0):
        tokens = self.embed(patchify(images))
        tokens = add_positions(tokens, self.pos)
        if noise > 0:
            tokens = jitter_tokens(tokens, noise)
        cls = self.cls.expand(tokens.shape[0], -1, -1)
        x = self.blocks(torch.cat([cls, tokens], dim=1))
        return self.head(x[:, 0])


def bars(n):
    labels = torch.randint(0, 2, (n,))
    images = 0.3 * torch.randn(n, IMG, IMG)
    idx = torch.randint(0, IMG, (n,))
    for i in range(n):
        if labels[i] == 0:
            images[i, idx[i], :] += 2.0
        else:
            images[i, :, idx[i]] += 2.0
    return images, labels


def main():
    model = TinyViT()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    for step in range(80):
        images, labels = bars(64)
        loss = F.cross_entropy(model(images, noise=0.05), labels)
        opt.zero_grad()
        loss.backward()
        assert model.pos.grad is not None and model.pos.grad.abs().sum() > 0
        assert model.embed.weight.grad.abs().sum() > 0
        opt.step()
    model.eval()
    with torch.no_grad():
        images, labels = bars(400)
        acc = (model(images).argmax(-1) == labels).float().mean().item()
    assert acc > 0.9, acc
    print(f"k03: patch tokens edited in place after the linear layer; accuracy {acc:.2f}")


if __name__ == "__main__":
    main()
