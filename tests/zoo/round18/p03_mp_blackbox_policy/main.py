"""
expect: GL002 black_box.py:38
dynamic: confirm
source: https://github.com/ALRhub/fancy_gym/pull/52

The PR "Make get_trajectory work with tensors" explains that the black-box (movement
primitive) wrappers of fancy_gym turned the policy's MP parameters into numpy (np.clip on the
action, get_numpy on the generated positions) before building the trajectory, so gradients
could not pass from a trajectory-level loss back into the policy; the fix keeps torch tensors
end to end. This program rebuilds that: a context-conditioned policy outputs ProMP weights,
black_box.py clips them through numpy and rebuilds a tensor, and the policy is trained by
imitation of demonstrated trajectories plus a small weight-decay term on its action. The
asserts show the imitation term contributes exactly zero gradient (the policy gradient equals
the regulariser's alone) and the imitation error does not improve, while the tensor path fits
the demonstrations.
"""
import torch
import torch.nn as nn
from black_box import BlackBoxWrapper

torch.manual_seed(0)
N_BASIS, N_DOF = 6, 2


class MPPolicy(nn.Module):
    def __init__(self, ctx_dim=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ctx_dim, 32), nn.Tanh(), nn.Linear(32, N_BASIS * N_DOF))

    def forward(self, ctx):
        return self.net(ctx)


def demos(n=16):
    ctx = torch.rand(n, 3)
    t = torch.linspace(0, 1, 50)
    goal = ctx[:, :2] + 1.0
    traj = goal[:, None, :] * torch.sin(t * 3.14159 / 2)[None, :, None]
    return ctx, traj


def imitation_step(policy, env, opt, differentiable):
    ctx, demo = demos()
    action = policy(ctx)
    get = env.get_trajectory_differentiable if differentiable else env.get_trajectory
    pos, vel = get(action)
    imitation = ((pos - demo) ** 2).mean() + 0.1 * (vel ** 2).mean()
    reg = 1e-3 * (action ** 2).mean()
    opt.zero_grad()
    (imitation + reg).backward()
    grads = [p.grad.clone() for p in policy.parameters()]
    opt.step()
    return imitation.item(), grads, reg


if __name__ == "__main__":
    env = BlackBoxWrapper(N_BASIS, N_DOF)
    policy = MPPolicy()
    init = {k: v.clone() for k, v in policy.state_dict().items()}

    # one step: total gradient equals the gradient of the regulariser alone
    torch.manual_seed(1)
    _, g_total, _ = imitation_step(policy, env, torch.optim.SGD(policy.parameters(), lr=0.0), False)
    torch.manual_seed(1)
    ctx, _ = demos()
    policy.zero_grad()
    (1e-3 * (policy(ctx) ** 2).mean()).backward()
    for g, p in zip(g_total, policy.parameters()):
        assert torch.allclose(g, p.grad, atol=1e-10)

    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    errs = [imitation_step(policy, env, opt, False)[0] for _ in range(60)]
    assert errs[-1] > 0.95 * errs[0], (errs[0], errs[-1])

    fixed = MPPolicy()
    fixed.load_state_dict(init)
    opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
    errs_fixed = [imitation_step(fixed, env, opt, True)[0] for _ in range(60)]
    assert errs_fixed[-1] < 0.3 * errs_fixed[0], (errs_fixed[0], errs_fixed[-1])
    print("OK: numpy round-trip hides the trajectory loss from the policy; tensor path learns")
