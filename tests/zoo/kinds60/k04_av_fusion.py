"""
expect: GL001 37
dynamic: confirm
source: none, invented

A late-fusion classifier over image, audio and text features. The encoders live in an `nn.ModuleDict`, and the
optimizer is built from all of them with a comprehension (`[p for enc in model.encoders.values() for p in
enc.parameters()]`) plus the fusion head, so the author means to train every encoder. In `embed`, the audio
branch's output is passed through `.detach()` (left over from an experiment with a pretrained audio encoder),
which is the audio encoder's only path to the loss: it gets no gradient and AdamW never moves it, even though
the labels depend on the audio input. The asserts show the audio encoder's `.grad` stays None and its weights
stay equal to their initial values after training while the other encoders move; `FusionClassifierAllBranches`,
which keeps the audio path, trains the audio encoder and reaches a higher accuracy.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

DIMS = {"image": 32, "audio": 20, "text": 16}
N_CLASSES = 4


class FusionClassifier(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.encoders = nn.ModuleDict({
            name: nn.Sequential(nn.Linear(dim, width), nn.GELU(), nn.Linear(width, width))
            for name, dim in DIMS.items()
        })
        self.head = nn.Sequential(nn.LayerNorm(3 * width), nn.Linear(3 * width, N_CLASSES))

    def embed(self, batch):
        img = self.encoders["image"](batch["image"])
        aud = self.encoders["audio"](batch["audio"]).detach()
        txt = self.encoders["text"](batch["text"])
        return torch.cat([img, aud, txt], dim=-1)

    def forward(self, batch):
        return self.head(self.embed(batch))


class FusionClassifierAllBranches(FusionClassifier):
    def embed(self, batch):
        return torch.cat([self.encoders[name](batch[name]) for name in DIMS], dim=-1)


def make_dataset(n=2048):
    proj = {name: torch.randn(dim, N_CLASSES) for name, dim in DIMS.items()}
    batch = {name: torch.randn(n, dim) for name, dim in DIMS.items()}
    score = 0.3 * (batch["image"] @ proj["image"]) + 1.5 * (batch["audio"] @ proj["audio"]) \
        + 0.3 * (batch["text"] @ proj["text"])
    return batch, score.argmax(-1)


def fit(model, data, labels, epochs=25, bs=128):
    params = [p for enc in model.encoders.values() for p in enc.parameters()] + list(model.head.parameters())
    opt = torch.optim.AdamW(params, lr=2e-3, weight_decay=1e-2)
    n = labels.shape[0]
    for epoch in range(epochs):
        perm = torch.randperm(n)
        for start in range(0, n, bs):
            idx = perm[start:start + bs]
            logits = model({k: v[idx] for k, v in data.items()})
            loss = F.cross_entropy(logits, labels[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        return (model(data).argmax(-1) == labels).float().mean().item()


def snapshot(module):
    return [p.detach().clone() for p in module.parameters()]


def unchanged(before, module):
    return all(torch.equal(a, b) for a, b in zip(before, module.parameters()))


def main():
    data, labels = make_dataset()

    model = FusionClassifier()
    audio0, image0 = snapshot(model.encoders["audio"]), snapshot(model.encoders["image"])
    acc = fit(model, data, labels)
    assert all(p.grad is None for p in model.encoders["audio"].parameters())
    assert unchanged(audio0, model.encoders["audio"])
    assert not unchanged(image0, model.encoders["image"])

    torch.manual_seed(0)
    model_all = FusionClassifierAllBranches()
    audio0 = snapshot(model_all.encoders["audio"])
    acc_all = fit(model_all, data, labels)
    assert not unchanged(audio0, model_all.encoders["audio"])
    assert acc_all > acc, (acc, acc_all)
    print(f"train accuracy {acc:.3f} (audio encoder fixed at init) vs {acc_all:.3f} (all encoders)")


if __name__ == "__main__":
    main()
