"""
expect: GL002 52
dynamic: confirm
source: https://github.com/LongyuanCode/OpenRLHF/blob/HEAD/openrlhf/trainer/rlaif_trainer.py

In one revision of this fork's RLAIF DPO trainer the driver asks its Ray
actor groups for log-probabilities and rebuilds them with
torch.tensor(list(itertools.chain.from_iterable(...))) for the reference
and the policy alike, then takes the DPO loss. For the policy the rebuild
cuts every path to the weights. Here workers return floats and the trainer
rebuilds policy log-probs as a requires_grad leaf so backward runs; the
asserts show the gradient stops on that leaf, the policy weights get none,
and a fixed step that keeps the log-probs in the graph does reach them.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from workers import ModelWorker, WorkerGroup

torch.manual_seed(0)
torch.set_num_threads(1)

V = 10


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.out = nn.Linear(16, V)

    def forward(self, t):
        return self.out(torch.tanh(self.emb(t)))


def dpo_loss(pc, pr, rc, rr, beta=1.0):
    return -F.logsigmoid(beta * ((pc - rc) - (pr - rr))).mean()


class RLAIFTrainer:
    def __init__(self, policy, reference):
        self.policy = policy
        self.policy_group = WorkerGroup([ModelWorker(policy), ModelWorker(policy)])
        self.reference_group = WorkerGroup([ModelWorker(reference), ModelWorker(reference)])
        self.opt = torch.optim.SGD(policy.parameters(), lr=0.1)

    def gather(self, group, contexts, targets, requires_grad=False):
        values = group.run_batch("batch_logp", contexts, targets)
        return torch.tensor(values, requires_grad=requires_grad)

    def step(self, contexts, chosen, rejected):
        with torch.no_grad():
            ref_c = self.gather(self.reference_group, contexts, chosen)
            ref_r = self.gather(self.reference_group, contexts, rejected)
        pol_c = self.gather(self.policy_group, contexts, chosen, requires_grad=True)
        pol_r = self.gather(self.policy_group, contexts, rejected, requires_grad=True)
        loss = dpo_loss(pol_c, pol_r, ref_c, ref_r)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss, pol_c


policy = TinyLM()
reference = copy.deepcopy(policy)
contexts = torch.randint(0, V, (8, 4))
chosen = torch.randint(0, V, (8, 3))
rejected = torch.randint(0, V, (8, 3))

trainer = RLAIFTrainer(policy, reference)
before = policy.out.weight.detach().clone()
loss, pol_c = trainer.step(contexts, chosen, rejected)
print("grad on rebuilt leaf:", pol_c.grad.abs().sum().item(),
      "policy weight grad:", policy.out.weight.grad)
assert pol_c.grad is not None and pol_c.grad.abs().sum() > 0
assert policy.out.weight.grad is None
assert torch.equal(before, policy.out.weight)

# fixed: keep the policy log-probs as graph tensors on the trainer side
tokens_c = torch.cat([contexts, chosen], 1)
tokens_r = torch.cat([contexts, rejected], 1)


def logps(model, tokens):
    lp = F.log_softmax(model(tokens[:, :-1]), -1).gather(-1, tokens[:, 1:, None]).squeeze(-1)
    return lp[:, contexts.shape[1] - 1:].sum(-1)


with torch.no_grad():
    rc, rr = logps(reference, tokens_c), logps(reference, tokens_r)
fixed = dpo_loss(logps(policy, tokens_c), logps(policy, tokens_r), rc, rr)
fixed.backward()
assert policy.out.weight.grad.abs().sum() > 0
print("confirmed: rebuilding policy log-probs from floats trains nothing")
