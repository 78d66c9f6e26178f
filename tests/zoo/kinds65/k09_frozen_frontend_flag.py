"""
expect: GL001 32
dynamic: confirm
source: none, invented

A keyword-spotting experiment that compares two configurations of the same model: one where the
convolutional frontend feeds the classifier normally and one ("cache_frontend") meant to reuse frontend
features without recomputing their gradient. The model's `features()` method returns the frontend output
`.detach()`ed when the setting is on, yet the optimizer is still built over all of model.parameters() and
the frontend is never trained by any other loss, so in that run it gets no gradient at all. The script
loops over both settings; the asserts show that with the setting on the frontend's weight .grad is None
and its weights never move, and with it off (the fixed form) the frontend trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, cache_frontend: bool, n_words=6):
        super().__init__()
        self.cache_frontend = cache_frontend
        self.frontend = nn.Sequential(
            nn.Conv1d(1, 8, kernel_size=5, stride=2), nn.ReLU(),
            nn.Conv1d(8, 16, kernel_size=5, stride=2), nn.ReLU(),
        )
        self.classifier = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, n_words))

    def features(self, wave):
        h = self.frontend(wave.unsqueeze(1))
        if self.cache_frontend:
            return h.detach()
        return h

    def forward(self, wave):
        return self.classifier(self.features(wave).mean(dim=2))


def train(cache_frontend, wave, words, steps=15):
    model = KeywordSpotter(cache_frontend)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    before = model.frontend[0].weight.detach().clone()
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(model(wave), words)
        loss.backward()
        opt.step()
    return model, before, loss.item()


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    wave = torch.randn(32, 100)
    words = torch.randint(0, 6, (32,))
    for cache_frontend in (True, False):
        model, before, loss = train(cache_frontend, wave, words)
        conv = model.frontend[0]
        assert model.classifier[0].weight.grad is not None
        if cache_frontend:
            assert conv.weight.grad is None
            assert torch.equal(before, conv.weight.detach())
        else:
            assert conv.weight.grad is not None and conv.weight.grad.abs().sum() > 0
            assert not torch.equal(before, conv.weight.detach())
        print("cache_frontend=%s loss %.3f" % (cache_frontend, loss))


if __name__ == "__main__":
    main()
