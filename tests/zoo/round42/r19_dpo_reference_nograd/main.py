"""
expect: none
dynamic: dismiss
source: https://github.com/eric-mitchell/direct-preference-optimization/blob/5815fab23a10509b7ee7088be27f8979bd26c96a/trainers.py

Look-alike (reference DPO trainer). The reference model's log-probabilities are computed
under torch.no_grad(), the implicit rewards are .detach()ed, metrics leave through
.detach().cpu().numpy().tolist(), and _get_batch_logps() writes a dummy token into the labels
in place (labels[labels == -100] = 0) before torch.gather. All correct: the reference is a
frozen baseline that must not train, rewards and metrics are logging only, and the in-place
write hits a fresh clone of an integer tensor, after the mask was taken and before any op saved
it. The DPO loss trains the policy through its own log-probabilities. The asserts check the
policy gets gradients while the reference stays bit-identical with no grads, that the in-place
label fill gives the same values and logit gradients as an out-of-place version, that the
metrics carry no graph, and that the preference margin grows.
"""
import copy

import torch
import torch.nn as nn

from dpo import _get_batch_logps, concatenated_forward, dpo_loss

torch.manual_seed(0)
torch.set_num_threads(1)
V, T, B = 11, 8, 6


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.rnn = nn.GRU(16, 16, batch_first=True)
        self.out = nn.Linear(16, V)

    def forward(self, ids):
        return self.out(self.rnn(self.emb(ids))[0])


def make_batch():
    prompt = torch.randint(0, V, (B, 3))
    chosen = torch.cat([prompt, torch.full((B, T - 3), 1)], 1)
    rejected = torch.cat([prompt, torch.randint(2, V, (B, T - 3))], 1)
    lab_c, lab_r = chosen.clone(), rejected.clone()
    lab_c[:, :3] = -100
    lab_r[:, :3] = -100
    return {"chosen_input_ids": chosen, "rejected_input_ids": rejected,
            "chosen_labels": lab_c, "rejected_labels": lab_r}


policy = TinyLM()
reference_model = copy.deepcopy(policy)
reference_model.eval()
ref0 = [p.detach().clone() for p in reference_model.parameters()]
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
batch = make_batch()


def get_batch_metrics(batch, beta=0.1):
    metrics = {}
    policy_chosen_logps, policy_rejected_logps = concatenated_forward(policy, batch)
    with torch.no_grad():
        reference_chosen_logps, reference_rejected_logps = concatenated_forward(reference_model, batch)
    losses, chosen_rewards, rejected_rewards = dpo_loss(
        policy_chosen_logps, policy_rejected_logps, reference_chosen_logps, reference_rejected_logps, beta)
    metrics["rewards/margins"] = (chosen_rewards - rejected_rewards).cpu().numpy().tolist()
    metrics["logps/chosen"] = policy_chosen_logps.detach().cpu().numpy().tolist()
    assert not chosen_rewards.requires_grad and not rejected_rewards.requires_grad
    return losses.mean(), metrics


# the in-place dummy-label write equals an out-of-place gather, in value and in gradient
logits = torch.randn(4, T, V, requires_grad=True)
labels = torch.randint(0, V, (4, T))
labels[:, :3] = -100
a = _get_batch_logps(logits, labels)
ga, = torch.autograd.grad(a.sum(), logits)
lab = labels[:, 1:]
safe = torch.where(lab == -100, torch.zeros_like(lab), lab)
tok = torch.gather(logits[:, :-1].log_softmax(-1), 2, safe.unsqueeze(2)).squeeze(2)
b = (tok * (lab != -100)).sum(-1)
gb, = torch.autograd.grad(b.sum(), logits)
assert torch.allclose(a, b) and torch.allclose(ga, gb)
assert (labels[:, :3] == -100).all(), "caller's labels untouched (clone before the fill)"

margins = []
for step in range(40):
    loss, metrics = get_batch_metrics(batch)
    optimizer.zero_grad()
    loss.backward()
    if step == 0:
        assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
        assert all(p.grad is None for p in reference_model.parameters())
    optimizer.step()
    margins.append(sum(metrics["rewards/margins"]) / B)
assert all(torch.equal(p, q) for p, q in zip(reference_model.parameters(), ref0))
assert margins[-1] > margins[0] + 0.5, (margins[0], margins[-1])
print(f"DPO reward margin {margins[0]:.3f} -> {margins[-1]:.3f}; reference model unchanged")
