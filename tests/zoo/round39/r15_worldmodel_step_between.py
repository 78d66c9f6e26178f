"""
expect: GL005 52
dynamic: confirm
source: https://github.com/hughplay/memo/blob/HEAD/code/snippet/pytorch.py

A common "fix" for "Trying to backward through the graph a second time": run the trunk once,
backward the first head's loss with retain_graph=True, step its optimizer, then backward the
second head's loss through the same trunk output. Here a pixel-based agent encodes frames once,
trains the world model (encoder + dynamics) and steps, then backprops the policy loss through the
same latent. The step edits the encoder weights in place after the graph saved them, so the
second backward needs the old weights. The asserts show the second backward fails with the
in-place/version error, and that the reordered update (both backward calls, then the step) runs
and gives the encoder a gradient from both losses.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class PixelAgent(nn.Module):
    def __init__(self, n_act=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.Flatten(),
                                     nn.Linear(8 * 7 * 7, 32), nn.Tanh())
        self.dynamics = nn.Linear(32 + n_act, 32)
        self.reward_head = nn.Linear(32, 1)
        self.policy = nn.Linear(32, n_act)
        self.n_act = n_act
        self.wm_params = (list(self.encoder.parameters()) + list(self.dynamics.parameters())
                          + list(self.reward_head.parameters()))
        self.wm_opt = torch.optim.Adam(self.wm_params, lr=1e-3)
        self.pi_opt = torch.optim.Adam(self.policy.parameters(), lr=1e-3)

    def world_model_loss(self, z, act, z_next, rew):
        a = F.one_hot(act, self.n_act).float()
        pred = self.dynamics(torch.cat([z, a], 1))
        return F.mse_loss(pred, z_next.detach()) + F.mse_loss(self.reward_head(z).squeeze(1), rew)

    def policy_loss(self, z, adv, act):
        logp = F.log_softmax(self.policy(z), 1).gather(1, act[:, None]).squeeze(1)
        return -(logp * adv).mean()

    def update(self, obs, act, next_obs, rew, adv):
        z = self.encoder(obs)
        with torch.no_grad():
            z_next = self.encoder(next_obs)
        self.wm_opt.zero_grad()
        self.world_model_loss(z, act, z_next, rew).backward(retain_graph=True)
        self.wm_opt.step()
        self.pi_opt.zero_grad()
        self.policy_loss(z, adv, act).backward()
        self.pi_opt.step()

    def update_fixed(self, obs, act, next_obs, rew, adv):
        z = self.encoder(obs)
        with torch.no_grad():
            z_next = self.encoder(next_obs)
        self.wm_opt.zero_grad()
        self.pi_opt.zero_grad()
        self.world_model_loss(z, act, z_next, rew).backward(retain_graph=True)
        self.policy_loss(z, adv, act).backward()
        self.wm_opt.step()
        self.pi_opt.step()


obs, next_obs = torch.rand(6, 3, 16, 16), torch.rand(6, 3, 16, 16)
act = torch.randint(0, 3, (6,))
rew, adv = torch.randn(6), torch.randn(6)

agent = PixelAgent()
try:
    agent.update(obs, act, next_obs, rew, adv)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "inplace operation" in raised

torch.manual_seed(0)
agent2 = PixelAgent()
enc_w = agent2.encoder[0].weight
agent2.wm_opt.zero_grad()
z = agent2.encoder(obs)
agent2.policy_loss(z, adv, act).backward()
g_pi_only = enc_w.grad.clone()
torch.manual_seed(0)
agent3 = PixelAgent()
agent3.update_fixed(obs, act, next_obs, rew, adv)
assert agent3.encoder[0].weight.grad is not None
assert not torch.allclose(agent3.encoder[0].weight.grad, g_pi_only)
print("ok: step between the two backward calls breaks the second one:", raised[:60])
