"""
expect: GL005 48
dynamic: confirm
source: none, invented

An observation autoencoder for a model-based RL agent. The model has two members, `self.enc` and `self.dec`,
and the trainer gives each one its own Adam optimizer with its own learning rate. `train_step` computes the
reconstruction loss (through enc and dec) and the encoder loss (reconstruction plus a latent L2 penalty, so it
also flows through dec), then runs the decoder's backward and `self.dec_opt.step()` before the encoder
loss's backward. That step changes the decoder weights in place while `enc_loss` still needs the old values
for its backward through the decoder, so autograd raises "modified by an inplace operation" on the first batch.
The asserts catch that error and show the encoder never got an update. `train_step_joint`, which runs one
backward and then steps both optimizers, trains both members and lowers the reconstruction error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ObsAutoencoder(nn.Module):
    def __init__(self, obs_dim=24, latent_dim=6, hidden=64):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ELU(), nn.Linear(hidden, latent_dim))
        self.dec = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ELU(), nn.Linear(hidden, obs_dim))

    def forward(self, obs):
        z = self.enc(obs)
        return z, self.dec(z)


class AETrainer:
    def __init__(self, model, enc_lr=3e-4, dec_lr=1e-3, latent_penalty=1e-3):
        self.model = model
        self.enc_opt = torch.optim.Adam(self.model.enc.parameters(), lr=enc_lr)
        self.dec_opt = torch.optim.Adam(self.model.dec.parameters(), lr=dec_lr)
        self.latent_penalty = latent_penalty

    def train_step(self, obs):
        z, recon = self.model(obs)
        rec_loss = F.mse_loss(recon, obs)
        enc_loss = rec_loss + self.latent_penalty * z.pow(2).sum(-1).mean()

        self.dec_opt.zero_grad()
        rec_loss.backward(retain_graph=True)
        self.dec_opt.step()

        self.enc_opt.zero_grad()
        enc_loss.backward()
        self.enc_opt.step()
        return rec_loss.item()

    def train_step_joint(self, obs):
        z, recon = self.model(obs)
        rec_loss = F.mse_loss(recon, obs)
        enc_loss = rec_loss + self.latent_penalty * z.pow(2).sum(-1).mean()

        self.enc_opt.zero_grad()
        self.dec_opt.zero_grad()
        enc_loss.backward()
        self.dec_opt.step()
        self.enc_opt.step()
        return rec_loss.item()


def make_observations(n=512, obs_dim=24, true_dim=4):
    mixing = torch.randn(true_dim, obs_dim)
    factors = torch.randn(n, true_dim)
    return torch.tanh(factors @ mixing) + 0.05 * torch.randn(n, obs_dim)


def main():
    data = make_observations()
    batches = data.split(64)

    model = ObsAutoencoder()
    trainer = AETrainer(model)
    enc_before = [p.detach().clone() for p in model.enc.parameters()]
    try:
        trainer.train_step(batches[0])
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised
    assert all(torch.equal(a, b) for a, b in zip(enc_before, model.enc.parameters()))

    torch.manual_seed(0)
    model = ObsAutoencoder()
    trainer = AETrainer(model)
    enc_before = [p.detach().clone() for p in model.enc.parameters()]
    dec_before = [p.detach().clone() for p in model.dec.parameters()]
    first = trainer.train_step_joint(batches[0])
    for epoch in range(30):
        for obs in batches:
            last = trainer.train_step_joint(obs)
    assert last < 0.5 * first, (first, last)
    assert not any(torch.equal(a, b) for a, b in zip(enc_before, model.enc.parameters()))
    assert not any(torch.equal(a, b) for a, b in zip(dec_before, model.dec.parameters()))
    print(f"reconstruction mse {first:.4f} -> {last:.4f}")


if __name__ == "__main__":
    main()
