"""
expect: none
dynamic: dismiss
source: https://github.com/icoz69/DeepEMD/blob/8e9c53c37061e1523f7abd6d34567d04aba24979/Models/models/Network.py

DeepEMD's few-shot evaluation runs inside torch.no_grad(), yet for 5-shot episodes it fine-tunes a set of
class prototypes (the "SFC" layer) on the support set: the prototypes start as a detached clone of the
mean support features wrapped in a new nn.Parameter, the support features are passed with .detach(), and
the SGD loop that calls loss.backward() is wrapped in torch.enable_grad(). That is a backward call inside a
caller's no_grad plus several detaches, which looks like a broken or pointless update. It is neither: the
enable_grad block turns recording back on for the inner loop, the prototypes are the only thing meant to be
trained at test time, and the detaches keep the frozen encoder out of it. sfc.py holds the fine-tuning
helper and main.py runs an evaluation episode with a small encoder under no_grad. The asserts show that the
prototypes move away from their initial means and the support loss falls, that the encoder gets no
gradient and keeps its weights, and that the same loop without enable_grad would fail inside no_grad.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from sfc import get_sfc, metric_logits

torch.manual_seed(0)
torch.set_num_threads(1)

WAY, SHOT, QUERY, DIM = 3, 5, 6, 16

encoder = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, DIM))
encoder_before = [p.detach().clone() for p in encoder.parameters()]

centers = 2.0 * torch.randn(WAY, 10)
support_x = (centers.repeat(SHOT, 1) + 1.2 * torch.randn(WAY * SHOT, 10))  # shot-major order
query_x = centers.repeat(QUERY, 1) + 1.2 * torch.randn(WAY * QUERY, 10)
query_y = torch.arange(WAY).repeat(QUERY)

encoder.eval()
with torch.no_grad():
    support = encoder(support_x)
    query = encoder(query_x)
    assert not support.requires_grad
    sfc, init, history = get_sfc(support, WAY, SHOT)
    acc = (metric_logits(sfc, query).argmax(1) == query_y).float().mean().item()

assert not torch.allclose(sfc.detach(), init), "prototypes should have been fine-tuned"
assert history[-1] < history[0], history
assert all(p.grad is None for p in encoder.parameters())
assert all(torch.equal(a, b) for a, b in zip(encoder_before, encoder.parameters()))


# without enable_grad the same inner step cannot run inside the caller's no_grad
def one_step_without_enable_grad(support):
    proto = nn.Parameter(support.view(SHOT, WAY, -1).mean(0).clone())
    loss = F.cross_entropy(metric_logits(proto, support), torch.arange(WAY).repeat(SHOT))
    loss.backward()


failed = False
with torch.no_grad():
    try:
        one_step_without_enable_grad(support)
    except RuntimeError as err:
        failed = "does not require grad" in str(err)
assert failed
print("SFC fine-tuning under no_grad: support loss %.3f -> %.3f, query acc %.2f, encoder untouched"
      % (history[0], history[-1], acc))
