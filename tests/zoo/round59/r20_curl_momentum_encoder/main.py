"""
expect: none
dynamic: dismiss
source: https://github.com/MishaLaskin/curl/issues/12

In CURL (contrastive representation learning for RL from pixels) a user compared the paper's
pseudocode, which detaches the key encoder output, with the code, which calls
`encode(obs_pos, ema=True)` without `detach=True`, and asked which one is right.  Both are:
the momentum (EMA) encoder is evaluated under `torch.no_grad()` inside `encode`, so the keys
carry no history, while the query encoder is trained by the contrastive loss; the target
encoder only moves through the `.data.copy_` soft update.  The same agent also detaches the
conv features for the actor (only the critic/contrastive losses shape the encoder) and makes
the temperature a leaf with `log_alpha.requires_grad = True` after building it with
torch.tensor.  Every one of these looks like a cut or a late requires_grad switch, and every
one is intended.  The asserts show: the contrastive update changes the query encoder and W
but leaves the target encoder untouched until the soft update moves it; the actor update
trains the actor head without touching the conv weights; the temperature update changes
log_alpha; and the contrastive loss falls over a few steps on augmented random frames.
"""
import torch

from agent import Agent

torch.manual_seed(0)
torch.set_num_threads(1)

frames = torch.rand(32, 3, 15, 15)


def random_shift(x, pad=2):
    padded = torch.nn.functional.pad(x, (pad, pad, pad, pad), mode="replicate")
    out = torch.empty_like(x)
    for i in range(x.shape[0]):
        dx, dy = torch.randint(0, 2 * pad + 1, (2,)).tolist()
        out[i] = padded[i, :, dy:dy + x.shape[2], dx:dx + x.shape[3]]
    return out


agent = Agent()
conv0 = agent.encoder.convs[0].weight.detach().clone()
target0 = agent.encoder_target.convs[0].weight.detach().clone()
W0 = agent.curl.W.detach().clone()

losses = [agent.update_cpc(random_shift(frames), random_shift(frames)) for _ in range(40)]
assert not torch.equal(agent.encoder.convs[0].weight.detach(), conv0), "query encoder trains"
assert not torch.equal(agent.curl.W.detach(), W0), "bilinear W trains"
assert torch.equal(agent.encoder_target.convs[0].weight.detach(), target0), "keys carry no gradient"
assert losses[-1] < losses[0], (losses[0], losses[-1])

agent.update_target()
assert not torch.equal(agent.encoder_target.convs[0].weight.detach(), target0), "soft update moves target"

conv_before = agent.encoder.convs[0].weight.detach().clone()
head_before = agent.actor.head[0].weight.detach().clone()
alpha_before = agent.log_alpha.detach().clone()
agent.encoder_opt.zero_grad(set_to_none=True)
agent.update_actor_and_alpha(frames)
assert torch.equal(agent.encoder.convs[0].weight.detach(), conv_before), "actor does not train the convs"
assert agent.encoder.convs[0].weight.grad is None, "no actor gradient reaches the conv layers"
assert not torch.equal(agent.actor.head[0].weight.detach(), head_before), "actor head trains"
assert agent.log_alpha.grad is not None and not torch.equal(agent.log_alpha.detach(), alpha_before)
print("contrastive loss %.3f -> %.3f; target encoder moved only by the soft update" % (losses[0], losses[-1]))
