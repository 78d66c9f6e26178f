"""
expect: GL005 timegan.py:45
dynamic: confirm
source: https://github.com/AlanDongMu/TimeGAN_PytorchRebuild/issues/1

A PyTorch rebuild of TimeGAN for time-series synthesis runs one forward pass per batch (embedder, recovery,
generator, supervisor, discriminator) and then, in joint training, calls train_generator() and
train_embedder() on that same forward. The issue pointed out that the embedder loss E_loss was never
backpropagated; once E_loss.backward() is added, the generator's backward has already freed the shared graph,
so the generator backward is given retain_graph=True, and the generator step then updates the supervisor's
weights in place (opt_s.step()) while the retained graph still holds them for H_hat_supervise =
supervisor(H). E_loss backpropagates through that supervisor node into the embedder, so backward raises
"modified by an inplace operation". The program shows the RuntimeError in the shared-forward layout and that
re-running the forward before the embedder update (what the repository later added as batch_forward())
trains the embedder without error.
"""
import torch

from timegan import TimeGAN

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.rand(16, 12, 3)
z = torch.rand(16, 12, 3)

model = TimeGAN()
model.gen_batch(x, z)
model.train_generator()
raised = False
try:
    model.train_embedder()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "expected the supervisor step to invalidate the shared graph"

# intended: a fresh forward after the generator step
torch.manual_seed(0)
model2 = TimeGAN()
emb_before = [p.detach().clone() for p in model2.embedder.parameters()]
for _ in range(5):
    model2.gen_batch(x, z)
    model2.train_generator()
    model2.gen_batch(x, z)
    model2.train_embedder()
moved = any(not torch.equal(a, b.detach()) for a, b in zip(emb_before, model2.embedder.parameters()))
assert moved
print("shared forward: embedder backward raised; re-forward: E_loss %.4f" % model2.E_loss.item())
