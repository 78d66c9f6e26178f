"""
expect: GL005 main.py:55
dynamic: confirm
source: https://github.com/juliusfrost/dreamer-pytorch/issues/52

A Dreamer-style agent computes three losses from one forward pass: the world-model
loss, the actor loss (imagined rollouts through the transition model and the frozen
reward/value heads) and the value loss. The trainer then steps the world-model
optimizer before it has called backward on the actor loss. The step rewrites the
reward-head weights in place, and those weights were saved by the linear layers the
actor loss goes through, so the later actor backward raises "modified by an inplace
operation" (the error in the linked issue, which appeared once PyTorch 1.5 began
checking this). The program catches that RuntimeError, then shows that doing all
backward calls first and all optimizer steps afterwards trains the actor.
"""
import torch
import torch.nn.functional as F

from models import WorldModel, Actor, ValueModel, FreezeParameters

torch.manual_seed(0)
torch.set_num_threads(1)

HORIZON = 5


def compute_losses(wm, actor, value, obs, act, rew):
    z = wm.encoder(obs)
    recon = wm.decoder(z)
    model_loss = F.mse_loss(recon, obs) + F.mse_loss(wm.reward_head(z).squeeze(-1), rew)

    start = z.detach()
    with FreezeParameters([wm, value]):
        feats, zt = [], start
        for _ in range(HORIZON):
            zt = wm.step(zt, actor(zt))
            feats.append(zt)
        imag = torch.stack(feats)
        imag_reward = wm.reward_head(imag).squeeze(-1)
        imag_value = value(imag).squeeze(-1)
    returns = imag_reward.sum(0) + imag_value[-1]
    actor_loss = -returns.mean()

    value_pred = value(imag.detach()).squeeze(-1)
    value_loss = F.mse_loss(value_pred, returns.detach().expand_as(value_pred))
    return model_loss, actor_loss, value_loss


def optimize_agent(wm, actor, value, opts, batch):
    model_opt, actor_opt, value_opt = opts
    model_loss, actor_loss, value_loss = compute_losses(wm, actor, value, *batch)

    model_opt.zero_grad()
    model_loss.backward()
    model_opt.step()

    actor_opt.zero_grad()
    actor_loss.backward()
    actor_opt.step()

    value_opt.zero_grad()
    value_loss.backward()
    value_opt.step()


def optimize_agent_fixed(wm, actor, value, opts, batch):
    model_opt, actor_opt, value_opt = opts
    model_loss, actor_loss, value_loss = compute_losses(wm, actor, value, *batch)
    for opt in opts:
        opt.zero_grad()
    model_loss.backward()
    actor_loss.backward()
    value_loss.backward()
    for opt in opts:
        opt.step()


def build():
    wm, actor, value = WorldModel(), Actor(), ValueModel()
    opts = (torch.optim.Adam(wm.parameters(), lr=1e-3),
            torch.optim.Adam(actor.parameters(), lr=1e-3),
            torch.optim.Adam(value.parameters(), lr=1e-3))
    return wm, actor, value, opts


obs, act, rew = torch.randn(16, 6), torch.randn(16, 2), torch.randn(16)

wm, actor, value, opts = build()
try:
    optimize_agent(wm, actor, value, opts, (obs, act, rew))
    raised = False
except RuntimeError as err:
    raised = "inplace operation" in str(err)
assert raised, "the actor backward should fail after the world-model step"

torch.manual_seed(0)
wm, actor, value, opts = build()
before = [p.detach().clone() for p in actor.parameters()]
optimize_agent_fixed(wm, actor, value, opts, (obs, act, rew))
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in actor.parameters())
assert any(not torch.equal(b, p) for b, p in zip(before, actor.parameters()))
print("step-before-backward raises; backward-then-step trains the actor")
