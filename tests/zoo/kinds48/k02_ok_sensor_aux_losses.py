"""
expect: none
dynamic: dismiss
source: kinds check 48, kind 1

A streaming sensor model: a GRU encoder summarises each window, a forecast
head and a reconstruction head share that graph. The helper `step_two_heads`
backpropagates the auxiliary loss with retain_graph=True, then the main loss
through the same graph, then steps. The loop detaches the carried state every
window, so retain_graph is genuinely needed and nothing old stays alive.
"""
import torch
import torch.nn as nn

torch.manual_seed(1)


class SensorNet(nn.Module):
    def __init__(self, ch=6, hid=24):
        super().__init__()
        self.gru = nn.GRU(ch, hid, batch_first=True)
        self.forecast = nn.Linear(hid, ch)
        self.recon = nn.Linear(hid, ch)

    def forward(self, window, state):
        seq, state = self.gru(window, state)
        return self.forecast(seq[:, -1]), self.recon(seq), state


def step_two_heads(aux_loss, main_loss, optimizer):
    optimizer.zero_grad()
    aux_loss.backward(retain_graph=True)
    main_loss.backward()
    optimizer.step()


net = SensorNet()
optimizer = torch.optim.SGD(net.parameters(), lr=0.05)
stream = torch.randn(3, 200, 6).cumsum(1) * 0.1
state = torch.zeros(1, 3, 24)
losses = []
for i in range(0, 180, 20):
    win, target = stream[:, i:i + 20], stream[:, i + 20]
    state = state.detach()
    pred, rec, state = net(win, state)
    main = nn.functional.mse_loss(pred, target)
    aux = nn.functional.mse_loss(rec, win)
    step_two_heads(aux, main, optimizer)
    losses.append(main.item() + aux.item())
assert all(torch.isfinite(torch.tensor(losses)))

# Without retain_graph the second backward through the shared graph fails.
pred, rec, _ = net(stream[:, :20], torch.zeros(1, 3, 24))
nn.functional.mse_loss(rec, stream[:, :20]).backward()
try:
    nn.functional.mse_loss(pred, stream[:, 20]).backward()
    raise AssertionError("second backward should need retain_graph")
except RuntimeError as e:
    assert "second time" in str(e), e
print("ok: retain_graph needed for two losses, state detached, trained")
