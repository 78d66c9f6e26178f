"""
expect: GL001 53, GL003 62
dynamic: confirm
source: https://github.com/huggingface/trl/issues/801

Running the DPO script under accelerate raised "element 0 of tensors does not
require grad", and the accepted workaround was `losses.requires_grad_(True)`
in the trainer. Here a tiny DPO trainer shares one `batch_logps` helper
between the policy and the frozen reference and runs it inside one
`torch.no_grad()` block; the loss is then made to "require grad" by hand.
backward runs, but the asserts show the policy gets no gradient and its
weights stay put, while a fixed step moves them.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM, T = 20, 16, 6


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def batch_logps(model, ids):
    logits = model(ids[:, :-1])
    logp = F.log_softmax(logits, dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)
    return logp.sum(-1)


class DPOTrainer:
    def __init__(self, policy, beta=0.1):
        self.policy = policy
        self.ref = copy.deepcopy(policy).eval()
        for p in self.ref.parameters():
            p.requires_grad_(False)
        self.beta = beta
        self.opt = torch.optim.Adam(policy.parameters(), lr=1e-2)

    def dpo_loss(self, chosen, rejected):
        with torch.no_grad():
            ref_c, ref_r = batch_logps(self.ref, chosen), batch_logps(self.ref, rejected)
            pol_c, pol_r = batch_logps(self.policy, chosen), batch_logps(self.policy, rejected)
        logits = self.beta * ((pol_c - ref_c) - (pol_r - ref_r))
        return -F.logsigmoid(logits).mean()

    def step(self, chosen, rejected):
        self.opt.zero_grad()
        losses = self.dpo_loss(chosen, rejected)
        losses.requires_grad_(True)
        losses.backward()
        self.opt.step()
        return losses.detach()


chosen = torch.randint(0, VOCAB, (8, T))
rejected = torch.randint(0, VOCAB, (8, T))

policy = TinyLM()
before = copy.deepcopy(policy.state_dict())
trainer = DPOTrainer(policy)
for _ in range(3):
    trainer.step(chosen, rejected)

assert all(p.grad is None for p in policy.parameters())
for k, v in policy.state_dict().items():
    assert torch.equal(v, before[k]), k


class FixedDPOTrainer(DPOTrainer):
    def dpo_loss(self, chosen, rejected):
        with torch.no_grad():
            ref_c, ref_r = batch_logps(self.ref, chosen), batch_logps(self.ref, rejected)
        pol_c, pol_r = batch_logps(self.policy, chosen), batch_logps(self.policy, rejected)
        logits = self.beta * ((pol_c - ref_c) - (pol_r - ref_r))
        return -F.logsigmoid(logits).mean()


policy2 = TinyLM()
policy2.load_state_dict(before)
fixed = FixedDPOTrainer(policy2)
for _ in range(3):
    fixed.step(chosen, rejected)
assert not torch.equal(policy2.head.weight, before["head.weight"])
print("ok: requires_grad_ hid a loss that trains nothing")
