"""
expect: GL005 world_model.py:44
dynamic: confirm
source: none, invented

A stripped-down Dreamer loop. A world model (encoder, GRU dynamics, decoder, reward head) is fit to replayed
trajectories, and an actor is trained by imagining rollouts through the learned dynamics and maximising the
predicted reward. In learn() the imagined actor loss is built right after the world-model loss, from the same
posterior latents, and then WorldModelTrainer.train_step runs the world-model backward and Adam step in
world_model.py. Only after that does learn() backpropagate the actor loss, whose graph saved the dynamics and
reward-head weights that the trainer's step has just modified in place, so the actor backward raises the
"modified by an inplace operation" error and the actor never learns. The asserts catch it and check the actor is
unchanged; learn_imagine_after_update() imagines from the detached latents after the world model has stepped
(as Dreamer does) and the actor's weights move.
"""
import torch
import torch.nn as nn

from world_model import WorldModel, WorldModelTrainer

torch.manual_seed(0)
torch.set_num_threads(1)

OBS_DIM, ACT_DIM, LATENT, HORIZON = 8, 2, 32, 5


def collect(T=10, B=16):
    obs = torch.randn(T, B, OBS_DIM)
    actions = torch.tanh(torch.randn(T - 1, B, ACT_DIM))
    rewards = (actions * obs[1:, :, :ACT_DIM]).sum(-1)
    return obs, actions, rewards


class Dreamer:
    def __init__(self):
        torch.manual_seed(0)
        self.wm = WorldModel(OBS_DIM, ACT_DIM, LATENT)
        self.wm_trainer = WorldModelTrainer(self.wm)
        self.actor = nn.Sequential(nn.Linear(LATENT, 64), nn.ELU(), nn.Linear(64, ACT_DIM), nn.Tanh())
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-4)

    def learn(self, obs, actions, rewards):
        wm_loss, posts = self.wm.loss(obs, actions, rewards)
        start = posts.flatten(0, 1)
        actor_loss = -self.wm.imagine(start, self.actor, HORIZON).mean()

        self.wm_trainer.train_step(wm_loss)

        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()

    def learn_imagine_after_update(self, obs, actions, rewards):
        wm_loss, posts = self.wm.loss(obs, actions, rewards)
        self.wm_trainer.train_step(wm_loss)

        start = posts.detach().flatten(0, 1)
        actor_loss = -self.wm.imagine(start, self.actor, HORIZON).mean()
        self.actor_opt.zero_grad()
        actor_loss.backward()
        self.actor_opt.step()


def main():
    agent = Dreamer()
    start = [p.detach().clone() for p in agent.actor.parameters()]
    try:
        agent.learn(*collect())
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    assert all(torch.equal(p, p0) for p, p0 in zip(agent.actor.parameters(), start))

    agent = Dreamer()
    start = [p.detach().clone() for p in agent.actor.parameters()]
    wm_start = agent.wm.dynamics.weight_hh.detach().clone()
    for _ in range(20):
        agent.learn_imagine_after_update(*collect())
    assert all(not torch.equal(p, p0) for p, p0 in zip(agent.actor.parameters(), start))
    assert not torch.equal(agent.wm.dynamics.weight_hh, wm_start)
    print("k05: imagination after the world-model update trains the actor")


if __name__ == "__main__":
    main()
