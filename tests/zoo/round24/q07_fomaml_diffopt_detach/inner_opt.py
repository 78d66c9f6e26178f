import torch


class DifferentiableSGD:
    """Unrolled inner-loop SGD in the style of higher's DifferentiableOptimizer.

    With track_higher_grads=False the unrolled step is not differentiated through, which is
    meant to give first-order MAML.
    """

    def __init__(self, lr, track_higher_grads=True):
        self.lr = lr
        self.track_higher_grads = track_higher_grads

    def step(self, loss, params):
        grads = torch.autograd.grad(loss, params, create_graph=self.track_higher_grads)
        new_params = [p - self.lr * g for p, g in zip(params, grads)]
        if not self.track_higher_grads:
            for index, p in enumerate(new_params):
                new_params[index] = p.detach().requires_grad_()
        return new_params
