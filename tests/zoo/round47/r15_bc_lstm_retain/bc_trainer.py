"""Behavior-cloning pre-training over one long expert demonstration split into chunks."""
import torch.nn.functional as F


def pretrain_on_demo(policy, demo_chunks, optimizer, start_lstm_state, on_loss=None):
    lstm_states = start_lstm_state
    optimizer.zero_grad()
    for index, (obs_chunk, expert_actions) in enumerate(demo_chunks):
        predicted, lstm_states = policy(obs_chunk, lstm_states)
        loss = F.mse_loss(predicted, expert_actions)
        if on_loss is not None:
            on_loss(index, loss, lstm_states)
        loss.backward(retain_graph=True)
    optimizer.step()
    return lstm_states
