"""
expect: GL001 lif.py:33
dynamic: confirm
source: https://github.com/synsense/sinabs/issues/66

sinabs (spiking layers for event-camera / neuromorphic vision) records the
membrane potential of LIF/IAF layers when record_states=True. Until commit
e03640a the functional LIF loop appended `state[name].detach().clone()` to the
recordings, so a user who put the recorded v_mem history into the loss (the
issue asks for exactly that: a membrane-potential term in the objective, or for
debugging) got a term that is a constant for autograd: it shows up in the loss
value, but contributes no gradient. The maintainers removed the detach in the fix.
Here lif.py holds a small LIF layer with the same recording, and main.py trains
input weights on a toy event stream with a spike-count task loss plus a
membrane regulariser computed from the recordings. The asserts show that, with
the detached recording, the weight gradient of the full loss is identical to
the gradient of the task loss alone (the regulariser is ignored) and the
regulariser alone cannot be trained at all; with the recording kept in the graph
the regulariser changes the gradient and training lowers it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from lif import LIF

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, N_IN, N_HID, N_CLS = 16, 12, 20, 10, 3


def event_batch():
    x = (torch.rand(B, T, N_IN) < 0.2).float()  # sparse ON events
    y = torch.randint(0, N_CLS, (B,))
    return x, y


class SNN(nn.Module):
    def __init__(self, keep_graph_in_record):
        super().__init__()
        self.fc_in = nn.Linear(N_IN, N_HID)
        self.lif = LIF(keep_graph_in_record=keep_graph_in_record)
        self.readout = nn.Linear(N_HID, N_CLS)

    def forward(self, x):
        spikes = self.lif(self.fc_in(x))
        return self.readout(spikes.sum(1))


def losses(net, x, y, v_target=0.2):
    logits = net(x)
    task = F.cross_entropy(logits, y)
    v_rec = net.lif.recordings["v_mem"]
    reg = ((v_rec - v_target) ** 2).mean()
    return task, reg


def grad_of(net, loss):
    net.zero_grad()
    loss.backward()
    return net.fc_in.weight.grad.clone()


x, y = event_batch()

# --- detached recordings (the reported behaviour) ---
torch.manual_seed(1)
bug = SNN(keep_graph_in_record=False)
task, reg = losses(bug, x, y)
assert not reg.requires_grad  # the regulariser is a plain number to autograd
g_total = grad_of(bug, task + 5.0 * reg)
task, reg = losses(bug, x, y)
g_task = grad_of(bug, task)
assert torch.allclose(g_total, g_task)  # the membrane term changed nothing

# --- recordings kept in the graph (fixed) ---
torch.manual_seed(1)
fix = SNN(keep_graph_in_record=True)
task, reg = losses(fix, x, y)
assert reg.requires_grad
g_total = grad_of(fix, task + 5.0 * reg)
task, reg = losses(fix, x, y)
g_task = grad_of(fix, task)
assert not torch.allclose(g_total, g_task)

# training on the regulariser alone only works when the recording keeps its graph
opt = torch.optim.Adam(fix.parameters(), lr=0.05)
_, reg0 = losses(fix, x, y)
for _ in range(60):
    _, reg = losses(fix, x, y)
    opt.zero_grad()
    reg.backward()
    opt.step()
_, reg1 = losses(fix, x, y)
assert reg1.item() < 0.5 * reg0.item()
print("detached v_mem record: regulariser ignored; kept record: reg %.4f -> %.4f"
      % (reg0.item(), reg1.item()))
