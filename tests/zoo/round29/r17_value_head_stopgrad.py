"""
expect: none
dynamic: dismiss
source: https://github.com/huggingface/trl/issues/1108

A trl user asked whether the hidden states fed to the PPO value head should be
detached so the critic does not disturb the language model. This policy model
takes that option: the value head reads `hidden.detach()` on purpose, while
the LM head and the policy loss still train the trunk. Asserts: the value head
gets gradient, the trunk gets gradient from the policy term, and the value
loss alone leaves the trunk untouched.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PolicyWithValueHead(nn.Module):
    def __init__(self, vocab=30, d=16, detach_value_head=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.trunk = nn.GRU(d, d, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)
        self.v_head = nn.Linear(d, 1)
        self.detach_value_head = detach_value_head

    def forward(self, ids):
        hidden, _ = self.trunk(self.emb(ids))
        v_in = hidden.detach() if self.detach_value_head else hidden
        return self.lm_head(hidden), self.v_head(v_in).squeeze(-1)


def ppo_losses(model, ids, old_logp, adv, returns):
    logits, values = model(ids)
    logp = F.log_softmax(logits, -1).gather(-1, ids[..., None]).squeeze(-1)
    ratio = torch.exp(logp - old_logp)
    pg = -torch.min(ratio * adv, ratio.clamp(0.8, 1.2) * adv).mean()
    vf = F.mse_loss(values, returns)
    return pg, vf


model = PolicyWithValueHead()
ids = torch.randint(0, 30, (4, 7))
old_logp = torch.full((4, 7), -3.0)
adv, returns = torch.randn(4, 7), torch.randn(4, 7)

pg, vf = ppo_losses(model, ids, old_logp, adv, returns)
vf.backward(retain_graph=True)
assert model.v_head.weight.grad.abs().sum() > 0
assert model.trunk.weight_ih_l0.grad is None          # critic does not touch the trunk
pg.backward()
assert model.trunk.weight_ih_l0.grad.abs().sum() > 0  # policy still trains it
assert model.lm_head.weight.grad.abs().sum() > 0
print("ok: value-head stop-gradient is deliberate; both heads train")
