"""
expect: GL005 main.py:77
dynamic: confirm
source: https://github.com/maximilianigl/DVRL/issues/2

An n-step A2C learner whose agent keeps a variational belief over a latent state (a GRU
belief, a Gaussian latent with a reconstruction + KL encoding loss, and policy and value
heads on top), trained with backpropagation through time that spans several updates: the
belief is carried from one update to the next and is only detached every
multiplier_backprop_length updates, with backward(retain_graph=True) in between. The
optimizer steps after every update, so the weights that the previous update's graph saved
for its backward (the GRU and head matrices) are modified in place before the next update
backpropagates into that graph again. In PyTorch before 1.5 this silently produced
gradients computed with the wrong weights; today backward raises "one of the variables
needed for gradient computation has been modified by an inplace operation". The carried
graph itself is bounded (it is cut every few updates), so memory does not grow without end;
the defect is the step inside the window. The asserts show the error on the first update
that reaches back, and that stepping only when the window closes trains without error and
keeps the graph size bounded.
"""
import torch

from model import BeliefPolicy

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_PROC, NUM_STEPS, GAMMA = 4, 5, 0.95


def env_step(obs, action):
    reward = (action == obs[:, :3].argmax(1)).float()
    return torch.randn_like(obs), reward


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


def rollout_loss(actor_critic, state):
    obs, prev_action, belief = state
    values, log_probs, entropies, enc, rewards = [], [], [], [], []
    for _ in range(NUM_STEPS):
        out = actor_critic(obs, prev_action, belief)
        obs, reward = env_step(obs, out["action"])
        prev_action, belief = out["action"], out["belief"]
        values.append(out["value"]); log_probs.append(out["log_prob"])
        entropies.append(out["entropy"]); enc.append(out["encoding_loss"]); rewards.append(reward)
    with torch.no_grad():
        ret = actor_critic(obs, prev_action, belief)["value"]
    returns = []
    for r in reversed(rewards):
        ret = r + GAMMA * ret
        returns.insert(0, ret)
    advantages = torch.stack(returns) - torch.stack(values)
    total_loss = (advantages.pow(2).mean() - (advantages.detach() * torch.stack(log_probs)).mean()
                  - 0.01 * torch.stack(entropies).mean() + 0.1 * torch.stack(enc).mean())
    return total_loss, (obs, prev_action, belief)


def train(actor_critic, optimizer, num_updates, multiplier_backprop_length):
    state = (torch.randn(NUM_PROC, 6), torch.zeros(NUM_PROC, dtype=torch.long),
             actor_critic.new_latent_state(NUM_PROC))
    for j in range(num_updates):
        total_loss, state = rollout_loss(actor_critic, state)
        optimizer.zero_grad()
        # only reset the computation graph every multiplier_backprop_length updates
        retain_graph = j % multiplier_backprop_length != 0
        total_loss.backward(retain_graph=retain_graph)
        optimizer.step()
        if not retain_graph:
            state = (state[0], state[1], state[2].detach())


def train_window_step(actor_critic, optimizer, num_updates, multiplier_backprop_length):
    """The reporter's change: accumulate over the window, step when the graph is released."""
    state = (torch.randn(NUM_PROC, 6), torch.zeros(NUM_PROC, dtype=torch.long),
             actor_critic.new_latent_state(NUM_PROC))
    sizes = []
    for j in range(num_updates):
        total_loss, state = rollout_loss(actor_critic, state)
        sizes.append(graph_size(total_loss))
        retain_graph = j % multiplier_backprop_length != 0
        total_loss.backward(retain_graph=retain_graph)
        if not retain_graph:
            optimizer.step()
            optimizer.zero_grad()
            state = (state[0], state[1], state[2].detach())
    return sizes


model = BeliefPolicy()
opt = torch.optim.RMSprop(model.parameters(), lr=7e-4)
try:
    train(model, opt, num_updates=6, multiplier_backprop_length=4)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "backward through the carried graph should hit the stepped weights"

torch.manual_seed(0)
model2 = BeliefPolicy()
opt2 = torch.optim.RMSprop(model2.parameters(), lr=7e-4)
before = [p.detach().clone() for p in model2.parameters()]
sizes = train_window_step(model2, opt2, num_updates=12, multiplier_backprop_length=4)
assert any(not torch.equal(a, b) for a, b in zip(before, model2.parameters()))
window = 4
assert max(sizes) == max(sizes[:window + 1]), "graph must stay bounded across windows"
print("window-end stepping trained; graph sizes per update:", sizes)
