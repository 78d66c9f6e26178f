"""
expect: none
dynamic: dismiss
source: none, invented

Self-supervised pre-training of a denoising autoencoder on vibration spectra, with the usual online
linear probe: `OnlineProbe.forward(features, labels)` in `ssl_modules.py` classifies
`features.detach()` so that the labels never shape the representation. The probe loss is simply added to
the reconstruction loss and one optimizer holds the autoencoder and the probe; the probe's own layer is
applied after the detach and trains from its loss, while the encoder trains from the reconstruction
loss. The asserts show the probe's weights receiving gradients and its accuracy rising, the encoder's
gradient being exactly the gradient of the reconstruction loss alone, and the reconstruction error
falling.
"""
import torch
import torch.nn.functional as F

from ssl_modules import DenoisingAutoencoder, OnlineProbe

torch.manual_seed(0)
torch.set_num_threads(1)

N_CLASSES, IN_DIM = 5, 64


def vibration_spectra(n=1000):
    fault = torch.randint(0, N_CLASSES, (n,))
    freqs = torch.arange(IN_DIM).float()
    peak = 8 + 10 * fault.float()
    spectra = torch.exp(-((freqs[None] - peak[:, None]) ** 2) / 8.0)
    spectra += 0.5 * torch.exp(-((freqs[None] - 2 * peak[:, None]) ** 2) / 8.0)
    return spectra + 0.05 * torch.randn(n, IN_DIM), fault


def probe_accuracy(model, probe, x, y):
    with torch.no_grad():
        logits, _ = probe(model.encoder(x), y)
    return (logits.argmax(-1) == y).float().mean().item()


if __name__ == "__main__":
    model, probe = DenoisingAutoencoder(IN_DIM), OnlineProbe(n_classes=N_CLASSES)
    opt = torch.optim.Adam(list(model.parameters()) + list(probe.parameters()), lr=2e-3)
    spectra, fault = vibration_spectra()

    noisy = spectra[:64] + 0.2 * torch.randn(64, IN_DIM)
    z, recon = model(noisy)
    recon_only = F.mse_loss(recon, spectra[:64])
    g_recon = torch.autograd.grad(recon_only, model.encoder[0].weight)[0]
    z, recon = model(noisy)
    _, probe_loss = probe(z, fault[:64])
    opt.zero_grad()
    (F.mse_loss(recon, spectra[:64]) + probe_loss).backward()
    assert torch.allclose(model.encoder[0].weight.grad, g_recon)
    assert probe.fc.weight.grad.abs().sum() > 0

    acc0 = probe_accuracy(model, probe, spectra, fault)
    probe_w0 = probe.fc.weight.detach().clone()
    first = None
    for epoch in range(10):
        for i in range(0, 1000, 100):
            x, y = spectra[i:i + 100], fault[i:i + 100]
            z, recon = model(x + 0.2 * torch.randn_like(x))
            recon_loss = F.mse_loss(recon, x)
            _, probe_loss = probe(z, y)
            loss = recon_loss + probe_loss
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = recon_loss.item() if first is None else first
    acc = probe_accuracy(model, probe, spectra, fault)
    assert not torch.equal(probe.fc.weight, probe_w0)
    assert acc > acc0 and acc > 0.9, (acc0, acc)
    assert recon_loss.item() < 0.5 * first
    print(f"probe accuracy {acc0:.2f} -> {acc:.2f}; reconstruction {first:.4f} -> {recon_loss.item():.4f}")
