"""
expect: none
dynamic: dismiss
source: https://github.com/yushuiwx/Mixture-of-LoRA-Experts/issues/8

Mixture of LoRA Experts (MoLE) keeps a set of pre-trained LoRA experts frozen and
learns only a gate that mixes their outputs. In the LoRA layer's forward the
gate values are also accumulated into self.gates_record (and the gate entropy
into self.entropy_record) via `+= gates.clone().detach().mean(0)`. The issue
asks how a load-balancing signal can be trained when the gates are detached and
why a detached value is added into an nn.Parameter. It is a logged copy:
mark_only_gate_as_trainable switches requires_grad off for everything whose name
does not contain "wg" (so the in-place += on the record parameters is legal and
records nothing), the training script only reads the records as statistics, and
the gate itself is trained through the main path `expert_out * gates`, which is
never detached. The asserts show that the gate receives gradients and learns to
route each input region to the right expert (loss drops by more than 5x), the
frozen base and experts do not change, and the record parameters accumulate
the mean gate values without ever taking part in the graph.
"""
import torch
import torch.nn.functional as F

from mole_layer import GatedModel, mark_only_gate_as_trainable

torch.manual_seed(0)
torch.set_num_threads(1)

D_IN, D_OUT, E = 6, 4, 3
model = GatedModel(D_IN, D_OUT, E)
mark_only_gate_as_trainable(model)
teacher = [e for e in model.layer.experts]


def target_fn(x):
    # region k of the input space is served by expert k
    region = (x[:, 0] > 0.5).long() + (x[:, 0] > -0.5).long()
    with torch.no_grad():
        outs = torch.stack([e(x) for e in teacher], dim=1)
        return model.layer.base(x) + outs[torch.arange(x.shape[0]), region] * 1.0


frozen_before = {n: p.detach().clone() for n, p in model.named_parameters() if "wg" not in n and "record" not in n}
gate_before = model.wg.weight.detach().clone()
opt = torch.optim.Adam([p for p in model.parameters() if p.requires_grad], lr=5e-2)

x_eval = torch.randn(512, D_IN) * 1.5
loss0 = F.mse_loss(model(x_eval), target_fn(x_eval)).item()
record_after_eval = model.layer.gates_record.detach().clone()

steps = 300
for _ in range(steps):
    x = torch.randn(128, D_IN) * 1.5
    loss = F.mse_loss(model(x), target_fn(x))
    opt.zero_grad()
    loss.backward()
    assert model.wg.weight.grad is not None and model.wg.weight.grad.abs().sum() > 0
    opt.step()

loss1 = F.mse_loss(model(x_eval), target_fn(x_eval)).item()
assert loss1 < loss0 / 5, (loss0, loss1)
assert not torch.equal(gate_before, model.wg.weight.detach())
for n, p in model.named_parameters():
    if n in frozen_before:
        assert torch.equal(frozen_before[n], p.detach()), n
rec = model.layer.gates_record
assert not rec.requires_grad and rec.grad is None
# each forward adds the batch-mean of a softmax, so the record sums to the number of forwards
assert abs(rec.sum().item() - (steps + 2)) < 1e-3
assert abs(record_after_eval.sum().item() - 1.0) < 1e-4
print("gate trained: mse %.4f -> %.4f; gates_record (logged) = %s" % (loss0, loss1, [round(v, 1) for v in rec.tolist()]))
