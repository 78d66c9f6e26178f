"""
expect: none
dynamic: dismiss
source: none, invented

A small keyword-spotting network (conv front end + GRU) is trained on synthetic log-mel clips through its
own `forward`. The class also has a `@torch.no_grad()` method, `cached_states`, which runs the encoder
chunk by chunk and carries the GRU state the way a streaming device would; it is called only after each
epoch to measure streaming accuracy and to print it. Because no loss is built from what it returns, the
decorator is exactly what is wanted there. The asserts show that every layer (front end, GRU, classifier)
receives gradients and changes, that training accuracy rises, and that the streaming states agree with
the full-clip states.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_MELS, N_FRAMES, N_WORDS = 20, 32, 4


class KeywordSpotter(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.frontend = nn.Conv1d(N_MELS, hidden, kernel_size=1)
        self.gru = nn.GRU(hidden, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, N_WORDS)

    def encode(self, mel, state=None):
        x = F.relu(self.frontend(mel)).transpose(1, 2)
        out, state = self.gru(x, state)
        return out, state

    def forward(self, mel):
        out, _ = self.encode(mel)
        return self.classifier(out[:, -1])

    @torch.no_grad()
    def cached_states(self, mel, chunk=8):
        state, outs = None, []
        for t in range(0, mel.shape[-1], chunk):
            out, state = self.encode(mel[..., t:t + chunk], state)
            outs.append(out)
        return torch.cat(outs, 1)


def synth_clips(n):
    words = torch.randint(0, N_WORDS, (n,))
    mel = 0.3 * torch.randn(n, N_MELS, N_FRAMES)
    for w in range(N_WORDS):
        mel[words == w, w * 5:(w + 1) * 5, :] += 1.0
    return mel, words


def streaming_accuracy(model, mel, words):
    states = model.cached_states(mel)
    pred = model.classifier(states[:, -1]).argmax(-1)
    return (pred == words).float().mean().item()


def main():
    model = KeywordSpotter()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    mel, words = synth_clips(256)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    acc0 = streaming_accuracy(model, mel, words)
    for epoch in range(4):
        for i in range(0, 256, 32):
            logits = model(mel[i:i + 32])
            loss = F.cross_entropy(logits, words[i:i + 32])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = streaming_accuracy(model, mel, words)
        print(f"epoch {epoch} loss {loss.item():.3f} streaming acc {acc:.2f}")

    for name, p in model.named_parameters():
        assert p.grad is not None, name
        assert not torch.equal(p, before[name]), name
    assert acc > acc0 and acc > 0.9
    with torch.no_grad():
        full, _ = model.encode(mel[:8])
    assert torch.allclose(full, model.cached_states(mel[:8]), atol=1e-5)


if __name__ == "__main__":
    main()
