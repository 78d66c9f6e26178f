"""
expect: GL003 64
dynamic: confirm
source: https://github.com/snakers4/silero-models/issues/40

A pretrained speech-to-text model is loaded with a utility written for inference that calls
torch.set_grad_enabled(False) for the whole process (the silero-models utils did this in init_jit_model), and a
small keyword-spotting head is then trained on the STT encoder's features. Because gradient recording is off
globally, the head's output and the loss have no grad_fn, and backward fails with "element 0 of tensors does not
require grad and does not have a grad_fn". Setting loss.requires_grad = True silences the error: backward runs on
a fresh leaf and nothing reaches the head. The asserts show the head's .grad stays None and its weights do not
move, while turning gradient recording back on after loading (what the issue's reporter ended up doing) trains the
head and lowers the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinySTTEncoder(nn.Module):
    def __init__(self, n_mels=16, hidden=24):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 3, padding=1)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)

    def forward(self, mels):                        # [B, n_mels, T] -> [B, hidden]
        h = torch.relu(self.conv(mels)).transpose(1, 2)
        out, _ = self.rnn(h)
        return out.mean(dim=1)


def init_jit_model(seed=1):
    """Loader written for inference: freezes autograd for the whole process."""
    torch.set_grad_enabled(False)
    gen = torch.Generator().manual_seed(seed)
    model = TinySTTEncoder()
    for p in model.parameters():
        p.copy_(torch.randn(p.shape, generator=gen) * 0.2)
    model.eval()
    return model


class KeywordHead(nn.Module):
    def __init__(self, hidden=24, n_keywords=4):
        super().__init__()
        self.fc = nn.Linear(hidden, n_keywords)

    def forward(self, feats):
        return self.fc(feats)


mels = torch.randn(32, 16, 20)
keywords = torch.randint(0, 4, (32,))

stt = init_jit_model()
head = KeywordHead()
opt = torch.optim.SGD(head.parameters(), lr=0.5)
w_before = head.fc.weight.detach().clone()
for _ in range(5):
    loss = F.cross_entropy(head(stt(mels)), keywords)
    loss.requires_grad = True
    opt.zero_grad()
    loss.backward()
    opt.step()
assert head.fc.weight.grad is None
assert torch.equal(head.fc.weight, w_before)
print("grad disabled by the loader: head grad None, weights unchanged")

torch.set_grad_enabled(True)
head2 = KeywordHead()
head2.load_state_dict({"fc.weight": w_before, "fc.bias": head.fc.bias.detach().clone()})
opt2 = torch.optim.SGD(head2.parameters(), lr=0.5)
losses = []
for _ in range(30):
    loss = F.cross_entropy(head2(stt(mels)), keywords)
    opt2.zero_grad()
    loss.backward()
    opt2.step()
    losses.append(loss.item())
assert head2.fc.weight.grad is not None and head2.fc.weight.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("grad re-enabled after loading: loss", round(losses[0], 4), "->", round(losses[-1], 4))
print("ok")
