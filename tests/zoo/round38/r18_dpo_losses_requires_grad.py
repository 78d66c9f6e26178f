"""
expect: GL003 82
dynamic: confirm
source: https://github.com/huggingface/trl/issues/814

Running the DPO example with a LoRA policy under accelerate raised "element 0
of tensors does not require grad"; the workaround passed around for it was to
add `losses.requires_grad_(True)` inside the trainer's loss. The real cause is
upstream: the frozen embedding feeds a reentrant-checkpointed block, so the
policy log-probs come out with no graph and the LoRA adapter is cut off. The
flag only silences the error. The asserts show the adapter gets no gradient and
does not move, while the non-reentrant checkpoint variant trains it.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

warnings.filterwarnings("ignore")
torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, DIM = 40, 16


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4):
        super().__init__()
        self.base = base
        self.A = nn.Parameter(torch.randn(r, base.in_features) * 0.1)
        self.B = nn.Parameter(torch.randn(base.out_features, r) * 0.1)

    def forward(self, x):
        return self.base(x) + x @ self.A.t() @ self.B.t()


class TinyLM(nn.Module):
    def __init__(self, reentrant=True):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.block = LoRALinear(nn.Linear(DIM, DIM))
        self.head = nn.Linear(DIM, VOCAB)
        self.reentrant = reentrant
        for p in [*self.embed.parameters(), *self.block.base.parameters(), *self.head.parameters()]:
            p.requires_grad_(False)  # only the adapter is trainable

    def forward(self, ids):
        h = self.embed(ids)
        h = checkpoint(lambda t: torch.tanh(self.block(t)), h, use_reentrant=self.reentrant)
        return self.head(h)


def sequence_logps(logits, labels):
    logp = F.log_softmax(logits[:, :-1], dim=-1)
    return logp.gather(-1, labels[:, 1:, None]).squeeze(-1).sum(-1)


class DPOTrainer:
    def __init__(self, policy, ref, beta=0.1):
        self.policy, self.ref, self.beta = policy, ref, beta
        self.opt = torch.optim.SGD([p for p in policy.parameters() if p.requires_grad], lr=0.5)

    def concatenated_forward(self, model, chosen, rejected):
        ids = torch.cat([chosen, rejected], 0)
        logps = sequence_logps(model(ids), ids)
        n = chosen.shape[0]
        return logps[:n], logps[n:]

    def dpo_loss(self, pc, pr, rc, rr):
        logits = (pc - pr) - (rc - rr)
        losses = -F.logsigmoid(self.beta * logits)
        return losses

    def step(self, chosen, rejected):
        pc, pr = self.concatenated_forward(self.policy, chosen, rejected)
        with torch.no_grad():
            rc, rr = self.concatenated_forward(self.ref, chosen, rejected)
        losses = self.dpo_loss(pc, pr, rc, rr)
        if not losses.requires_grad:
            losses.requires_grad_(True)  # "fix" for: element 0 of tensors does not require grad
        loss = losses.mean()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


chosen = torch.randint(0, VOCAB, (8, 6))
rejected = torch.randint(0, VOCAB, (8, 6))


def run(reentrant):
    torch.manual_seed(1)
    policy = TinyLM(reentrant=reentrant)
    ref = TinyLM(reentrant=reentrant)
    ref.load_state_dict(policy.state_dict())
    trainer = DPOTrainer(policy, ref)
    a0 = policy.block.A.detach().clone()
    losses = [trainer.step(chosen, rejected) for _ in range(5)]
    return policy, a0, losses


policy, a0, losses = run(reentrant=True)
assert policy.block.A.grad is None
assert torch.equal(a0, policy.block.A)
assert abs(losses[0] - losses[-1]) < 1e-7  # loss never moves

policy, a0, losses = run(reentrant=False)
assert policy.block.A.grad is not None and policy.block.A.grad.abs().sum() > 0
assert not torch.equal(a0, policy.block.A)
assert losses[-1] < losses[0]
print("ok", losses[0], losses[-1])
