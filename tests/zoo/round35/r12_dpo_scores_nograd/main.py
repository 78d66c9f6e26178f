"""
expect: GL001 dpo_trainer.py:28
dynamic: confirm
source: https://github.com/Goekdeniz-Guelmez/mlx-lm-lora/pull/24

The PR fixes a DPO trainer whose policy scores were computed before and
outside the gradient computation, so the preference loss carried no path
back to the model and only the other loss terms moved it. Here the trainer
scores policy and reference together inside one torch.no_grad() block in
a helper, then adds an SFT term that does keep its graph, so training runs.
The asserts show the policy gradient is identical whatever beta is (the
DPO term is dead) and differs from a fixed trainer that scores the policy
with grad.
"""
import copy

import torch
import torch.nn as nn

from dpo_trainer import DPOTrainer, dpo_loss, sequence_logps

torch.manual_seed(0)
torch.set_num_threads(1)

V = 12


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 16)
        self.out = nn.Linear(16, V)

    def forward(self, tokens):
        return self.out(torch.tanh(self.emb(tokens)))


policy = TinyLM()
reference = copy.deepcopy(policy).eval()
for p in reference.parameters():
    p.requires_grad_(False)

chosen = torch.randint(0, V, (8, 6))
rejected = torch.randint(0, V, (8, 6))


def policy_grad(trainer):
    trainer.opt.zero_grad()
    trainer.loss(chosen, rejected).backward()
    return policy.out.weight.grad.clone()


g_beta_small = policy_grad(DPOTrainer(policy, reference, beta=0.1))
g_beta_large = policy_grad(DPOTrainer(policy, reference, beta=5.0))


class FixedTrainer(DPOTrainer):
    def loss(self, chosen, rejected):
        with torch.no_grad():
            ref_c = sequence_logps(self.reference, chosen)
            ref_r = sequence_logps(self.reference, rejected)
        pol_c = sequence_logps(self.policy, chosen)
        pol_r = sequence_logps(self.policy, rejected)
        pref = dpo_loss(pol_c, pol_r, ref_c, ref_r, self.beta)
        sft = -pol_c.mean() / chosen.shape[1]
        return pref + self.sft_weight * sft


g_fixed = policy_grad(FixedTrainer(policy, reference, beta=5.0))

trainer = DPOTrainer(policy, reference)
for _ in range(5):
    trainer.step(chosen, rejected)

print("beta 0.1 vs 5.0 grad diff:", (g_beta_small - g_beta_large).abs().max().item())
print("buggy vs fixed grad diff:", (g_beta_large - g_fixed).abs().max().item())
assert torch.allclose(g_beta_small, g_beta_large), "beta should matter if DPO trained"
assert not torch.allclose(g_beta_large, g_fixed, atol=1e-4)
print("confirmed: the DPO term sends no gradient to the policy")
