"""
expect: GL005 40
dynamic: confirm
source: https://github.com/AnujMahajanOxf/MAVEN/issues/3

A value-decomposition learner (QMIX-style, as in MAVEN's noise learner) stacks the
per-agent Q-values into mac_out, gathers the Q-value of each taken action from the
slice mac_out[:, :-1], and later masks unavailable actions with an in-place write
mac_out[avail == 0] = -9999999 before feeding a softmax to the discriminator. gather
saved the slice of mac_out for backward; the masked write bumps the version counter
that slice shares with mac_out, so loss.backward() raises "modified by an inplace
operation" (the SliceBackward error of the linked issue). The program catches the
error, then shows that masking a clone of mac_out lets the agent network train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

B, T, N_AGENTS, N_ACT, OBS = 4, 6, 3, 5, 7


class AgentNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, N_ACT))

    def forward(self, obs):
        return self.fc(obs)


def learner_loss(agent, discrim, obs, actions, avail, targets, noise_label, mask_clone):
    mac_out = agent(obs)                                    # [B, T, agents, actions]
    chosen = torch.gather(mac_out[:, :-1], dim=3, index=actions).squeeze(3)
    td_loss = ((chosen - targets) ** 2).mean()
    if mask_clone:
        mac_out = mac_out.clone()
    mac_out[avail == 0] = -9999999
    soft = F.softmax(mac_out[:, :-1], dim=3).reshape(B * (T - 1), -1)
    disc_loss = F.cross_entropy(discrim(soft), noise_label)
    return td_loss + 0.1 * disc_loss


def make_batch():
    obs = torch.randn(B, T, N_AGENTS, OBS)
    avail = (torch.rand(B, T, N_AGENTS, N_ACT) > 0.3).long()
    avail[..., 0] = 1
    actions = torch.zeros(B, T - 1, N_AGENTS, 1, dtype=torch.long)
    targets = torch.randn(B, T - 1, N_AGENTS)
    noise_label = torch.randint(0, 4, (B * (T - 1),))
    return obs, actions, avail, targets, noise_label


obs, actions, avail, targets, noise_label = make_batch()
agent = AgentNet()
discrim = nn.Linear(N_AGENTS * N_ACT, 4)
opt = torch.optim.RMSprop(list(agent.parameters()) + list(discrim.parameters()), lr=5e-4)

loss = learner_loss(agent, discrim, obs, actions, avail, targets, noise_label, mask_clone=False)
try:
    loss.backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "masking mac_out in place should break the gathered slice"

opt.zero_grad()
loss = learner_loss(agent, discrim, obs, actions, avail, targets, noise_label, mask_clone=True)
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in agent.parameters())
before = [p.detach().clone() for p in agent.parameters()]
opt.step()
assert any(not torch.equal(b, p) for b, p in zip(before, agent.parameters()))
print("in-place mask on mac_out raises; masking a clone trains the agents")
