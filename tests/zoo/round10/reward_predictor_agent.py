"""
expect: GL001 32
dynamic: confirm
source: https://github.com/DarkMatterAI/mrl/pull/13

In the mrl library (molecular RL), PredictiveAgent.predict_dataset() and
predict_dataset_batch() always returned `preds.detach().cpu()`. Those
predictions were also what the PredictiveBuffer used to compute the predictive
agent's training loss against observed rewards, so the reward model silently
never learned; PR #13 ("detach bug fix") made the detach optional. This program
has a plain PredictiveAgent class whose predict() detaches, a policy trained
with REINFORCE, and a trainer that adds policy loss and reward-model loss into one
objective. After backward the policy receives gradients but the reward model's
weights get none (grad is None), because the predictions it is trained through
were cut from the graph inside predict().
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_ACTIONS = 6


class PredictiveAgent:
    """Wraps a reward model; used for scoring samples and for its own training."""

    def __init__(self):
        self.model = nn.Sequential(nn.Linear(N_ACTIONS, 16), nn.ReLU(), nn.Linear(16, 1))

    def predict(self, features):
        preds = self.model(features).squeeze(-1)
        return preds.detach()


class PolicyAgent:
    def __init__(self):
        self.logits = nn.Parameter(torch.zeros(N_ACTIONS))

    def sample(self, n):
        dist = torch.distributions.Categorical(logits=self.logits)
        actions = dist.sample((n,))
        return actions, dist.log_prob(actions)


class Trainer:
    def __init__(self, policy, predictor):
        self.policy, self.predictor = policy, predictor
        params = [policy.logits] + list(predictor.model.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-2)
        self.true_reward = torch.linspace(-1.0, 1.0, N_ACTIONS)

    def step(self, n=64):
        actions, log_probs = self.policy.sample(n)
        rewards = self.true_reward[actions] + 0.05 * torch.randn(n)
        preds = self.predictor.predict(F.one_hot(actions, N_ACTIONS).float())
        predictor_loss = F.mse_loss(preds, rewards)
        policy_loss = -(log_probs * (rewards - rewards.mean())).mean()
        loss = policy_loss + predictor_loss
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        return predictor_loss


def main():
    torch.manual_seed(0)
    policy, predictor = PolicyAgent(), PredictiveAgent()
    trainer = Trainer(policy, predictor)
    before = [p.detach().clone() for p in predictor.model.parameters()]
    for _ in range(20):
        trainer.step()
        assert policy.logits.grad is not None and policy.logits.grad.abs().sum() > 0
        assert all(p.grad is None for p in predictor.model.parameters())
        trainer.opt.step()
    after = list(predictor.model.parameters())
    assert all(torch.equal(b, a) for b, a in zip(before, after))
    print("reward model never receives a gradient: confirmed")


if __name__ == "__main__":
    main()
