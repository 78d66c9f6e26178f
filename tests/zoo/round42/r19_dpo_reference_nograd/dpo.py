"""DPO loss, per-sequence log-probabilities and the concatenated chosen/rejected forward."""
import torch
import torch.nn.functional as F


def dpo_loss(policy_chosen_logps, policy_rejected_logps, reference_chosen_logps,
             reference_rejected_logps, beta, reference_free=False):
    pi_logratios = policy_chosen_logps - policy_rejected_logps
    ref_logratios = reference_chosen_logps - reference_rejected_logps
    if reference_free:
        ref_logratios = 0
    logits = pi_logratios - ref_logratios
    losses = -F.logsigmoid(beta * logits)
    chosen_rewards = beta * (policy_chosen_logps - reference_chosen_logps).detach()
    rejected_rewards = beta * (policy_rejected_logps - reference_rejected_logps).detach()
    return losses, chosen_rewards, rejected_rewards


def _get_batch_logps(logits, labels, average_log_prob=False):
    assert logits.shape[:-1] == labels.shape
    labels = labels[:, 1:].clone()
    logits = logits[:, :-1, :]
    loss_mask = labels != -100
    labels[labels == -100] = 0  # dummy token; masked out below
    per_token_logps = torch.gather(logits.log_softmax(-1), dim=2, index=labels.unsqueeze(2)).squeeze(2)
    if average_log_prob:
        return (per_token_logps * loss_mask).sum(-1) / loss_mask.sum(-1)
    return (per_token_logps * loss_mask).sum(-1)


def concatenated_forward(model, batch):
    input_ids = torch.cat([batch["chosen_input_ids"], batch["rejected_input_ids"]], 0)
    labels = torch.cat([batch["chosen_labels"], batch["rejected_labels"]], 0)
    all_logps = _get_batch_logps(model(input_ids).float(), labels)
    n = batch["chosen_input_ids"].shape[0]
    return all_logps[:n], all_logps[n:]
