"""
expect: GL005 61
dynamic: confirm
source: https://github.com/lweitkamp/option-critic-pytorch/issues/5

The report is an in-place modification error from option-critic training ("[32, 64], which
is output 0 of TBackward, is at version 2; expected version 1"); the author notes the code
was written for PyTorch 1.4 and that newer versions changed how shared-architecture training
behaves. This program rebuilds an option-critic learner with one shared feature trunk: the
actor (intra-option policy and termination) loss and the critic loss are built, the critic
loss is backpropagated and the shared optimizer steps, and then the actor loss is
backpropagated through trunk weights that step just changed. The asserts catch the
RuntimeError mentioning "inplace" and check that one backward of the summed loss trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class OptionCriticNet(nn.Module):
    def __init__(self, obs_dim=6, n_opts=2, n_acts=3):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.q_opt = nn.Linear(64, n_opts)
        self.term = nn.Linear(64, n_opts)
        self.pi = nn.Linear(64, n_opts * n_acts)
        self.n_opts, self.n_acts = n_opts, n_acts

    def forward(self, obs):
        h = self.trunk(obs)
        logits = self.pi(h).view(-1, self.n_opts, self.n_acts)
        return self.q_opt(h), torch.sigmoid(self.term(h)), logits


class Learner:
    def __init__(self):
        self.net = OptionCriticNet()
        self.opt = torch.optim.RMSprop(self.net.parameters(), lr=1e-3)

    def losses(self, obs, next_obs, option, action, reward):
        q, beta, logits = self.net(obs)
        with torch.no_grad():
            q_next, beta_next, _ = self.net(next_obs)
            g = reward + 0.99 * ((1 - beta_next.gather(1, option)) * q_next.gather(1, option)
                                 + beta_next.gather(1, option) * q_next.max(1, keepdim=True)[0])
        q_o = q.gather(1, option)
        critic_loss = F.mse_loss(q_o, g)
        logp = F.log_softmax(logits, -1)[torch.arange(len(obs)), option.squeeze(1)]
        logp_a = logp.gather(1, action)
        adv = (g - q_o).detach()
        term_adv = (q_o - q.max(1, keepdim=True)[0]).detach() + 0.01
        actor_loss = (-logp_a * adv).mean() + (beta.gather(1, option) * term_adv).mean()
        return actor_loss, critic_loss

    def split_update(self, batch):
        actor_loss, critic_loss = self.losses(*batch)
        self.opt.zero_grad()
        critic_loss.backward(retain_graph=True)
        self.opt.step()
        self.opt.zero_grad()
        actor_loss.backward()
        self.opt.step()

    def joint_update(self, batch):
        actor_loss, critic_loss = self.losses(*batch)
        self.opt.zero_grad()
        (actor_loss + critic_loss).backward()
        self.opt.step()


B = 32
batch = (torch.randn(B, 6), torch.randn(B, 6), torch.randint(0, 2, (B, 1)),
         torch.randint(0, 3, (B, 1)), torch.randn(B, 1))
learner = Learner()
raised = False
try:
    learner.split_update(batch)
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised

learner = Learner()
before = [p.detach().clone() for p in learner.net.parameters()]
learner.joint_update(batch)
assert all(not torch.equal(a, b) for a, b in zip(before, learner.net.parameters()))
print("ok: stepping between the critic and actor backward raises the in-place error")
