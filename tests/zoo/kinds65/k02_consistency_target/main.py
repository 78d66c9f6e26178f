"""
expect: none
dynamic: dismiss
source: none, invented

A semi-supervised audio tagging script: run() is at the top and calls helpers written below it. The
consistency helper gets the model as `f`, computes its predictions on a clean spectrogram, detaches them
and uses them as the target for predictions on a noise-augmented copy of the same batch. The detach only
stops gradient into the target; the same frontend, projection and tagger are used again on the attached
augmented path, so every parameter the optimizer holds receives a gradient. The asserts check each
parameter has a non-zero gradient and changes after a few steps, and that the supervised loss falls.
"""
import torch
import torch.nn.functional as F

from model import AudioTagger


def run():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    spec = torch.randn(16, 10, 20)
    labels = (torch.rand(16, 5) > 0.5).float()
    f = AudioTagger()
    opt = torch.optim.Adam(f.parameters(), lr=1e-2)
    snapshot = {n: p.detach().clone() for n, p in f.named_parameters()}
    history = []
    for step in range(20):
        opt.zero_grad()
        sup = supervised_loss(f, spec[:8], labels[:8])
        cons = consistency_loss(f, spec[8:])
        (sup + 2.0 * cons).backward()
        if step == 0:
            for n, p in f.named_parameters():
                assert p.grad is not None and p.grad.abs().sum() > 0, n
        opt.step()
        history.append(sup.item())
    for n, p in f.named_parameters():
        assert not torch.equal(snapshot[n], p.detach()), n
    assert history[-1] < history[0]
    print("supervised loss %.4f -> %.4f" % (history[0], history[-1]))


def supervised_loss(f, spec, labels):
    return F.binary_cross_entropy_with_logits(f(spec), labels)


def consistency_loss(f, spec, noise_scale=0.3):
    target = torch.sigmoid(f(spec)).detach()
    noisy = spec + noise_scale * torch.randn_like(spec)
    pred = torch.sigmoid(f(noisy))
    return F.mse_loss(pred, target)


if __name__ == "__main__":
    run()
