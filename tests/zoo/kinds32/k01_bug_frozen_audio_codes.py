"""
expect: GL004 29
dynamic: confirm
source: kinds check 32, kind 1

Speaker-ID probe: the audio encoder's codes are computed once, with history,
before the epoch loop. Each epoch's loss backpropagates through that same old
encoder graph via retain_graph=True, so the encoder's gradient piles up epoch
after epoch while only the probe head is stepped.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

encoder = nn.Sequential(nn.Conv1d(1, 8, 5, stride=2), nn.ReLU(),
                        nn.AdaptiveAvgPool1d(4), nn.Flatten())
probe = nn.Linear(32, 5)
wave = torch.randn(16, 1, 200)
speaker = torch.randint(0, 5, (16,))


def fit_probe(codes, labels, head, epochs):
    opt = torch.optim.Adam(head.parameters(), lr=1e-2)
    crit = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        opt.zero_grad()
        loss = crit(head(codes), labels)
        loss.backward(retain_graph=True)
        opt.step()
    return loss.item()


codes = encoder(wave)
fit_probe(codes, speaker, probe, epochs=1)
g1 = encoder[0].weight.grad.norm().item()

encoder.zero_grad()
codes = encoder(wave)
fit_probe(codes, speaker, probe, epochs=6)
g6 = encoder[0].weight.grad.norm().item()
assert g6 > 2 * g1, (g1, g6)

# Without retain_graph the second epoch cannot even run.
codes = encoder(wave)
crit = nn.CrossEntropyLoss()
crit(probe(codes), speaker).backward()
try:
    crit(probe(codes), speaker).backward()
    raised = False
except RuntimeError as e:
    raised = "second time" in str(e)
assert raised
print("ok", g1, g6)
