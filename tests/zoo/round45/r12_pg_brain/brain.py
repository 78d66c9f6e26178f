"""Policy-gradient agent: picks actions from a softmax policy and learns from whole episodes."""
import numpy as np
import torch as t
import torch.nn as nn
import torch.optim as optim


class PolicyGradient(nn.Module):
    def __init__(self, n_actions, n_features, learning_rate=0.01, reward_decay=0.95):
        super().__init__()
        self.n_actions = n_actions
        self.n_features = n_features
        self.lr = learning_rate
        self.gamma = reward_decay
        self.ep_obs, self.ep_as, self.ep_rs, self.ep_saved_log_probs = [], [], [], []
        self.net = nn.Sequential(
            nn.Linear(n_features, 32),
            nn.ReLU(),
            nn.Linear(32, n_actions),
            nn.Softmax(dim=1),
        )
        self.optimizer = optim.Adam(self.net.parameters(), lr=learning_rate)

    def choose_action(self, observation):
        x = t.unsqueeze(t.FloatTensor(observation), 0)
        prob_weights = self.net(x).detach()
        # np.random.choice wants a plain array whose entries sum to one
        action = np.random.choice(range(prob_weights.shape[1]), p=prob_weights.squeeze(dim=0).numpy())
        self.ep_saved_log_probs.append(prob_weights.log()[0][action].unsqueeze(dim=0))
        return action

    def store_transition(self, s, a, r):
        self.ep_obs.append(s)
        self.ep_as.append(a)
        self.ep_rs.append(r)

    def learn(self):
        policy_loss = []
        ep_rs_tensor = t.FloatTensor(np.array(self._discount_and_norm_rewards()))
        for log_prob, R in zip(self.ep_saved_log_probs, ep_rs_tensor):
            policy_loss.append(-log_prob * R)
        self.optimizer.zero_grad()
        policy_loss = t.cat(policy_loss).sum()
        policy_loss = policy_loss.requires_grad_(True)
        policy_loss.backward()
        self.optimizer.step()
        self.ep_obs, self.ep_as, self.ep_rs, self.ep_saved_log_probs = [], [], [], []
        return ep_rs_tensor

    def _discount_and_norm_rewards(self):
        discounted = np.zeros(len(self.ep_rs), dtype=np.float64)
        running_add = 0.0
        for i in reversed(range(len(self.ep_rs))):
            running_add = running_add * self.gamma + self.ep_rs[i]
            discounted[i] = running_add
        discounted -= np.mean(discounted)
        discounted /= np.std(discounted) + 1e-8
        return discounted
