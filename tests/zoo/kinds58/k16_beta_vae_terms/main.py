"""
expect: GL002 objectives.py:8
dynamic: confirm
source: none, invented

A beta-VAE on binarised toy "sprites". main.loss_parts computes the reconstruction and KL terms
and returns them as Python floats via .item() (handy for the progress log), and
objectives.weighted_total turns those numbers back into a tensor with
torch.tensor([...], requires_grad=True), weighs them with beta and returns the total that the
loop calls .backward() on. The rebuilt tensor is a fresh leaf with no history, so the backward
succeeds but only fills the gradient of that throwaway leaf: the encoder and decoder never receive
a gradient and Adam never changes them. The asserts show every model .grad stays None and the
weights are identical after the loop; the variant that keeps the tensors (loss_tensors +
weighted_total_v2) gives non-zero gradients and lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from objectives import format_parts, weighted_total, weighted_total_v2


class ConvVAE(nn.Module):
    def __init__(self, z_dim=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1), nn.ReLU(),
                                 nn.Conv2d(16, 32, 4, 2, 1), nn.ReLU(), nn.Flatten())
        self.mu = nn.Linear(32 * 4 * 4, z_dim)
        self.logvar = nn.Linear(32 * 4 * 4, z_dim)
        self.dec_in = nn.Linear(z_dim, 32 * 4 * 4)
        self.dec = nn.Sequential(nn.ConvTranspose2d(32, 16, 4, 2, 1), nn.ReLU(),
                                 nn.ConvTranspose2d(16, 1, 4, 2, 1))

    def forward(self, x):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(self.dec_in(z).view(-1, 32, 4, 4)), mu, logvar


def loss_tensors(model, x):
    logits, mu, logvar = model(x)
    recon = F.binary_cross_entropy_with_logits(logits, x, reduction="sum") / x.shape[0]
    kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
    return {"recon": recon, "kl": kl}


def loss_parts(model, x):
    return {k: v.item() for k, v in loss_tensors(model, x).items()}


def sprites(n):
    img = torch.zeros(n, 1, 16, 16)
    xs, ys = torch.randint(0, 11, (n,)), torch.randint(0, 11, (n,))
    sizes = torch.randint(3, 6, (n,))
    for i in range(n):
        img[i, 0, ys[i]:ys[i] + sizes[i], xs[i]:xs[i] + sizes[i]] = 1.0
    return img


def train(parts_fn, total_fn, beta=4.0, steps=30):
    torch.manual_seed(0)
    model = ConvVAE()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    w0 = [p.detach().clone() for p in model.parameters()]
    data = sprites(128)
    log = []
    for _ in range(steps):
        parts = parts_fn(model, data)
        loss = total_fn(parts, {"recon": 1.0, "kl": beta})
        opt.zero_grad()
        loss.backward()
        opt.step()
        log.append(format_parts(parts))
    unchanged = all(torch.equal(a, b) for a, b in zip(w0, model.parameters()))
    with torch.no_grad():
        torch.manual_seed(1)
        final = sum(v.item() * (beta if k == "kl" else 1.0) for k, v in loss_tensors(model, data).items())
    return model, unchanged, final, log


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model, unchanged, final_a, log = train(loss_parts, weighted_total)
    assert all(p.grad is None for p in model.parameters())
    assert unchanged
    assert len(log) == 30

    model, unchanged, final_b, log = train(loss_tensors, weighted_total_v2)
    assert all(p.grad is not None for p in model.parameters())
    assert model.enc[0].weight.grad.abs().sum() > 0
    assert not unchanged and final_b < 0.8 * final_a, (final_a, final_b)
    print("beta-vae: ok, final loss %.2f vs %.2f" % (final_a, final_b))


if __name__ == "__main__":
    main()
