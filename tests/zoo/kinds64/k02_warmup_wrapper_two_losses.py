"""
expect: none
dynamic: dismiss
source: none, invented

A tiny autoencoder is trained through an OptimizerWrapper that receives the model, builds torch.optim.Adam over
model.parameters() itself and applies a linear learning-rate warmup in step(). Each iteration computes a
reconstruction loss and a separate sparsity penalty on the code, both through the model, and calls backward on
each of them before wrapper.step(). Because every backward happens before the parameters are updated, nothing
is lost or stale: both losses contribute to the update. The asserts check that the warmup reached the target
rate, that both the encoder and decoder moved, and that the reconstruction error fell.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class OptimizerWrapper:
    def __init__(self, model, base_lr=1e-2, warmup_steps=10):
        self.optimizer = torch.optim.Adam(model.parameters(), lr=0.0)
        self.base_lr = base_lr
        self.warmup_steps = warmup_steps
        self.num_steps = 0

    def zero_grad(self):
        self.optimizer.zero_grad(set_to_none=True)

    def step(self):
        self.num_steps += 1
        scale = min(1.0, self.num_steps / self.warmup_steps)
        for group in self.optimizer.param_groups:
            group["lr"] = self.base_lr * scale
        self.optimizer.step()

    @property
    def lr(self):
        return self.optimizer.param_groups[0]["lr"]


class AutoEncoder(nn.Module):
    def __init__(self, dim=16, code=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(dim, 32), nn.ReLU(), nn.Linear(32, code))
        self.decoder = nn.Sequential(nn.Linear(code, 32), nn.ReLU(), nn.Linear(32, dim))

    def forward(self, x):
        z = self.encoder(x)
        return self.decoder(z), z


def main():
    data = torch.randn(256, 4) @ torch.randn(4, 16)
    model = AutoEncoder()
    enc_before = model.encoder[0].weight.detach().clone()
    dec_before = model.decoder[2].weight.detach().clone()
    wrapper = OptimizerWrapper(model)

    first = None
    for it in range(60):
        batch = data[torch.randint(0, data.shape[0], (64,))]
        wrapper.zero_grad()
        recon, code = model(batch)
        recon_loss = nn.functional.mse_loss(recon, batch)
        recon_loss.backward()
        _, code2 = model(batch)
        sparsity = 1e-3 * code2.abs().mean()
        sparsity.backward()
        wrapper.step()
        if first is None:
            first = recon_loss.item()

    with torch.no_grad():
        final = nn.functional.mse_loss(model(data)[0], data).item()
    assert abs(wrapper.lr - 1e-2) < 1e-12
    assert not torch.equal(enc_before, model.encoder[0].weight)
    assert not torch.equal(dec_before, model.decoder[2].weight)
    assert final < first * 0.5, (first, final)
    print("ok: autoencoder trains", round(first, 3), "->", round(final, 3))


if __name__ == "__main__":
    main()
