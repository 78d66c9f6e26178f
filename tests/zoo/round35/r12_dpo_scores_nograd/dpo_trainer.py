import torch
import torch.nn.functional as F


def sequence_logps(model, tokens):
    logits = model(tokens[:, :-1])
    logp = F.log_softmax(logits, dim=-1)
    return logp.gather(-1, tokens[:, 1:, None]).squeeze(-1).sum(-1)


def dpo_loss(pol_c, pol_r, ref_c, ref_r, beta):
    margin = (pol_c - ref_c) - (pol_r - ref_r)
    return -F.logsigmoid(beta * margin).mean()


class DPOTrainer:
    """DPO with an SFT term on the chosen answers (RPO style)."""

    def __init__(self, policy, reference, beta=0.5, sft_weight=0.1, lr=0.05):
        self.policy = policy
        self.reference = reference
        self.beta = beta
        self.sft_weight = sft_weight
        self.opt = torch.optim.SGD(policy.parameters(), lr=lr)

    def score(self, chosen, rejected):
        # all four score sets in one pass, outside the gradient step
        with torch.no_grad():
            pol_c = sequence_logps(self.policy, chosen)
            pol_r = sequence_logps(self.policy, rejected)
            ref_c = sequence_logps(self.reference, chosen)
            ref_r = sequence_logps(self.reference, rejected)
        return pol_c, pol_r, ref_c, ref_r

    def loss(self, chosen, rejected):
        pol_c, pol_r, ref_c, ref_r = self.score(chosen, rejected)
        pref = dpo_loss(pol_c, pol_r, ref_c, ref_r, self.beta)
        sft = -sequence_logps(self.policy, chosen).mean() / chosen.shape[1]
        return pref + self.sft_weight * sft

    def step(self, chosen, rejected):
        self.opt.zero_grad()
        loss = self.loss(chosen, rejected)
        loss.backward()
        self.opt.step()
        return loss.item()
