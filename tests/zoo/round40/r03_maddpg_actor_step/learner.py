"""MADDPG update: centralised critics over the joint action, one actor and one critic optimizer per agent."""
import torch
import torch.nn.functional as F


def learn(agents, batch, gamma=0.95):
    obs, state, actions, rewards, next_obs, next_state = batch
    with torch.no_grad():
        next_joint = torch.cat([ag.target_actor(o) for ag, o in zip(agents, next_obs)], dim=1)
    joint_mu = torch.cat([ag.actor(o) for ag, o in zip(agents, obs)], dim=1)
    old_joint = torch.cat(actions, dim=1)

    for i, ag in enumerate(agents):
        with torch.no_grad():
            target = rewards[:, i] + gamma * ag.target_critic(next_state, next_joint).squeeze(-1)
        q = ag.critic(state, old_joint).squeeze(-1)
        critic_loss = F.mse_loss(q, target)
        ag.critic_opt.zero_grad()
        critic_loss.backward()
        ag.critic_opt.step()

        actor_loss = -ag.critic(state, joint_mu).mean()
        ag.actor_opt.zero_grad()
        actor_loss.backward(retain_graph=True)
        ag.actor_opt.step()
