"""
expect: GL001 agent.py:49
dynamic: confirm
source: https://github.com/rll-research/url_benchmark/issues/16

The report points out that the ICM-APT agent takes an update_encoder flag and detaches
obs/next_obs only when it is False, but a few lines later detaches them again
unconditionally, so the flag does nothing and the encoder never learns from the ICM loss.
This program rebuilds that agent split over two files: CuriosityAgent.update in agent.py
passes obs.detach()/next_obs.detach() to the ICM step. The asserts show that even with
update_encoder=True every encoder parameter has .grad None and keeps its value after the
step, while the ICM heads train; the fixed variant gives the encoder a gradient.
"""
import torch
from agent import CuriosityAgent

torch.manual_seed(0)
agent = CuriosityAgent()
raw_obs = torch.randn(64, 8)
raw_next = torch.randn(64, 8)
action = torch.rand(64, 2) * 2 - 1

enc_before = [p.detach().clone() for p in agent.encoder.parameters()]
icm_before = [p.detach().clone() for p in agent.icm.parameters()]
for _ in range(3):
    agent.update(raw_obs, action, raw_next, update_encoder=True)

assert all(p.grad is None for p in agent.encoder.parameters())
assert all(torch.equal(a, b) for a, b in zip(enc_before, agent.encoder.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(icm_before, agent.icm.parameters()))

agent.update_fixed(raw_obs, action, raw_next, update_encoder=True)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in agent.encoder.parameters())
assert any(not torch.equal(a, b) for a, b in zip(enc_before, agent.encoder.parameters()))
print("ok: encoder receives no gradient through update(); update_fixed trains it")
