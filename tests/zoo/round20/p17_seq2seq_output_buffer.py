"""
expect: none
dynamic: dismiss
source: https://github.com/intel/BigDL/pull/3642

A time-series forecasting toolkit's PyTorch Seq2Seq model preallocates
`decoder_output = torch.zeros(batch, future_seq_len, output_dim)` and fills it step by step with
`decoder_output[:, i:i+1, :] = out_step` inside the decoding loop (the review only discussed the
slice syntax). The slice assignment is an in-place write, but into a fresh buffer that no recorded
operation has saved; autograd records each write, so gradients reach every step. The program
trains such an encoder-decoder on noisy sine windows and asserts that every parameter gets a
nonzero gradient, that the gradient matches the one obtained by stacking the steps instead,
and that the forecasting loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)
PAST, FUTURE, FEAT, HID = 12, 4, 2, 24


class Seq2SeqForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm_encoder = nn.LSTM(FEAT, HID, batch_first=True)
        self.lstm_decoder = nn.LSTM(FEAT, HID, batch_first=True)
        self.fc = nn.Linear(HID, FEAT)

    def forward(self, input_seq, use_buffer=True):
        _, (hidden, cell) = self.lstm_encoder(input_seq)
        decoder_input = input_seq[:, -1:, :]
        decoder_output = torch.zeros(input_seq.shape[0], FUTURE, FEAT)
        steps = []
        for i in range(FUTURE):
            decoder_output_step, (hidden, cell) = self.lstm_decoder(decoder_input, (hidden, cell))
            out_step = self.fc(decoder_output_step)
            if use_buffer:
                decoder_output[:, i:i + 1, :] = out_step
            steps.append(out_step)
            decoder_input = out_step
        return decoder_output if use_buffer else torch.cat(steps, dim=1)


def windows(n=128):
    t = torch.rand(n, 1) * 6.28 + torch.arange(PAST + FUTURE) * 0.3
    x = torch.stack([torch.sin(t), torch.cos(1.5 * t)], dim=-1) + 0.02 * torch.randn(n, PAST + FUTURE, FEAT)
    return x[:, :PAST], x[:, PAST:]


model = Seq2SeqForecaster()
x, y = windows()
F.mse_loss(model(x), y).backward()
g_buf = [p.grad.clone() for p in model.parameters()]
model.zero_grad()
F.mse_loss(model(x, use_buffer=False), y).backward()
assert all(g.abs().sum() > 0 for g in g_buf)
assert all(torch.allclose(a, p.grad, atol=1e-6) for a, p in zip(g_buf, model.parameters()))
model.zero_grad()

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
losses = []
for _ in range(60):
    loss = F.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"forecast loss {losses[0]:.4f} -> {losses[-1]:.4f}")
assert losses[-1] < 0.3 * losses[0]
print("OK")
