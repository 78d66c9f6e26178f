"""
expect: GL003 58
dynamic: confirm
source: https://github.com/starVLA/starVLA/pull/427

The PR: RoboTTT training crashed at the first evaluation step (`eval_action_model` ->
`RoboTTT.predict_action` -> ... -> `TTTLayer.forward` -> `torch.autograd.grad`) with
"element 0 of tensors does not require grad". The test-time-training layer updates its fast
weights with an inner gradient computed under a local `torch.enable_grad()`, which is meant
to run inside a no_grad caller; but `predict_action` was decorated with
`@torch.inference_mode()`, which a nested enable_grad does not override, so the inner loss
has no grad_fn. The fix swapped the decorator for `@torch.no_grad()`. This program rebuilds
a small action head with a TTT layer, trains it, and evaluates it. The asserts show the
inference-mode predict_action raises in the inner backward, and the no_grad version runs the
inner update (its actions differ from a head with the inner step disabled).
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class TTTLayer(nn.Module):
    def __init__(self, d, inner_lr=0.5):
        super().__init__()
        self.W0 = nn.Parameter(torch.eye(d) + 0.01 * torch.randn(d, d))
        self.qkv = nn.Linear(d, 3 * d)
        self.inner_lr = inner_lr
        self.enabled = True

    def forward(self, tokens):                         # tokens: (B, T, d)
        q, k, v = self.qkv(tokens).chunk(3, dim=-1)
        W = self.W0
        if self.enabled:
            with torch.enable_grad():
                inner = ((k @ W - v) ** 2).mean()
                (g,) = torch.autograd.grad(inner, W, create_graph=self.training)
            W = W - self.inner_lr * g
        return q @ W


class ActionHead(nn.Module):
    def __init__(self, obs_dim=6, d=8, act_dim=4):
        super().__init__()
        self.inp = nn.Linear(obs_dim, d)
        self.ttt = TTTLayer(d)
        self.out = nn.Linear(d, act_dim)

    def forward(self, obs):                            # obs: (B, T, obs_dim)
        return self.out(self.ttt(torch.tanh(self.inp(obs)))).mean(dim=1)


class RoboTTTPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.action_model = ActionHead()

    @torch.inference_mode()
    def predict_action(self, obs):
        return self.action_model(obs)

    @torch.no_grad()
    def predict_action_no_grad(self, obs):
        return self.action_model(obs)


def demos(n=16):
    obs = torch.randn(n, 5, 6)
    return obs, torch.tanh(obs[:, :, :4].mean(dim=1) * 2)


if __name__ == "__main__":
    policy = RoboTTTPolicy()
    opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
    for _ in range(50):
        obs, act = demos()
        loss = ((policy.action_model(obs) - act) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert policy.action_model.ttt.W0.grad is not None

    policy.eval()
    obs, _ = demos(4)
    try:
        policy.predict_action(obs)
        raise AssertionError("inference_mode should break the inner gradient")
    except RuntimeError as e:
        assert "does not require grad" in str(e), e

    a_ttt = policy.predict_action_no_grad(obs)
    policy.action_model.ttt.enabled = False
    a_plain = policy.predict_action_no_grad(obs)
    assert not torch.allclose(a_ttt, a_plain)          # the inner update really ran
    print("OK: inference_mode breaks the TTT inner gradient; no_grad + enable_grad works")
