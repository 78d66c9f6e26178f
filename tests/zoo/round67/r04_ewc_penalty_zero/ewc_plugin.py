"""EWC regulariser written as a strategy plugin (avalanche style)."""
import torch
import torch.nn.functional as F


def copy_params_dict(model):
    return [(k, p.data.clone()) for k, p in model.named_parameters()]


def zerolike_params_dict(model):
    return [(k, torch.zeros_like(p)) for k, p in model.named_parameters()]


class EWCPlugin:
    def __init__(self, ewc_lambda, fixed=False):
        self.ewc_lambda = ewc_lambda
        self.fixed = fixed
        self.saved_params = {}
        self.importances = {}

    def penalty(self, model, exp_counter):
        penalty = torch.tensor(0.0)
        for experience in range(exp_counter):
            for (_, cur_param), (_, saved_param), (_, imp) in zip(
                    model.named_parameters(), self.saved_params[experience],
                    self.importances[experience]):
                # dynamic models may add units; new units are not regularised
                n_units = saved_param.shape[0]
                if self.fixed:
                    cur_param = cur_param[:n_units]
                else:
                    cur_param = saved_param[:n_units]
                penalty = penalty + (imp * (cur_param - saved_param).pow(2)).sum()
        return self.ewc_lambda * penalty

    def compute_importances(self, model, xs, ys):
        importances = zerolike_params_dict(model)
        for x, y in zip(xs.split(8), ys.split(8)):
            model.zero_grad()
            F.cross_entropy(model(x), y).backward()
            for (_, p), (_, imp) in zip(model.named_parameters(), importances):
                imp += p.grad.data.clone().pow(2)
        n = len(xs.split(8))
        return [(k, imp / n) for k, imp in importances]

    def after_training_exp(self, model, exp_counter, xs, ys):
        self.importances[exp_counter] = self.compute_importances(model, xs, ys)
        self.saved_params[exp_counter] = copy_params_dict(model)
