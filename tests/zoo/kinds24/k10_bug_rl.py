"""
expect: GL001 30
dynamic: confirm
source: kinds check 24, kind 10 (written for this check)

A Proto-RL style observation encoder keeps a memory of learned prototypes as an `nn.Parameter`
that Adam trains with `model.parameters()`, but the assignment scores read it only as
`self.prototypes.detach()`, so the swapped-prediction loss between an observation and its next
observation never moves the prototypes. The asserts show the encoder trains while the
prototypes get no gradient and stay unchanged; a separate subclass reading them attached
trains them.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class ProtoObsEncoder(nn.Module):
    def __init__(self, obs_dim=12, d=16, n_protos=8, tau=0.1):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, d))
        self.prototypes = nn.Parameter(F.normalize(torch.randn(n_protos, d), dim=1))
        self.tau = tau

    def scores(self, obs):
        z = F.normalize(self.encoder(obs), dim=1)
        memory = F.normalize(self.prototypes.detach(), dim=1)
        return z @ memory.t() / self.tau

    def loss(self, obs, next_obs):
        with torch.no_grad():
            target = F.softmax(self.scores(next_obs) / 0.5, dim=1)
        return -(target * F.log_softmax(self.scores(obs), dim=1)).sum(1).mean()


class ProtoObsEncoderFixed(ProtoObsEncoder):
    def scores(self, obs):
        z = F.normalize(self.encoder(obs), dim=1)
        return z @ F.normalize(self.prototypes, dim=1).t() / self.tau


def update(agent_model, obs, next_obs, steps=3):
    opt = torch.optim.Adam(agent_model.parameters(), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        agent_model.loss(obs, next_obs).backward()
        opt.step()


obs = torch.randn(32, 12)
next_obs = obs + 0.1 * torch.randn(32, 12)
model = ProtoObsEncoder()
protos_before = model.prototypes.detach().clone()
enc_before = model.encoder[0].weight.detach().clone()
update(model, obs, next_obs)
assert model.prototypes.grad is None
assert torch.equal(model.prototypes, protos_before)
assert not torch.equal(model.encoder[0].weight, enc_before)

fixed = ProtoObsEncoderFixed()
fixed.load_state_dict(model.state_dict())
update(fixed, obs, next_obs)
assert fixed.prototypes.grad.abs().sum() > 0
assert not torch.equal(fixed.prototypes, protos_before)
print("bug confirmed: learned prototypes read only detached never train")
