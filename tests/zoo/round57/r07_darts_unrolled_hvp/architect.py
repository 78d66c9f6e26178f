"""Second-order DARTS architecture step: gradient of the validation loss at the
one-step-unrolled weights, with the implicit term from a finite-difference
Hessian-vector product."""
import torch
from torch import autograd, optim


def flatten(tensors):
    return torch.cat([t.reshape(-1) for t in tensors])


class Architect:
    def __init__(self, model, momentum=0.0, weight_decay=3e-4, alpha_lr=3e-2):
        self.model = model
        self.momentum = momentum
        self.wd = weight_decay
        self.optimizer = optim.Adam(model.arch_parameters(), lr=alpha_lr, betas=(0.5, 0.999))

    def comp_unrolled_model(self, x, y, eta):
        loss = self.model.loss(x, y)
        theta = flatten(self.model.weights()).detach()
        dtheta = flatten(autograd.grad(loss, self.model.weights())).data
        theta = theta - eta * (dtheta + self.wd * theta)
        return self.construct_model_from_theta(theta)

    def construct_model_from_theta(self, theta):
        model = self.model.new()
        state = self.model.state_dict()
        offset = 0
        for name, v in self.model.named_parameters():
            if name.startswith("alpha"):
                continue
            n = v.numel()
            state[name] = theta[offset: offset + n].view(v.size())
            offset += n
        assert offset == len(theta)
        model.load_state_dict(state)
        return model

    def step(self, x_train, y_train, x_valid, y_valid, eta):
        self.optimizer.zero_grad()
        unrolled = self.comp_unrolled_model(x_train, y_train, eta)
        unrolled_loss = unrolled.loss(x_valid, y_valid)
        unrolled_loss.backward()
        dalpha = [v.grad for v in unrolled.arch_parameters()]
        vector = [v.grad.data for v in unrolled.weights()]
        implicit = self.hessian_vector_product(vector, x_train, y_train)
        for g, ig in zip(dalpha, implicit):
            g.data.sub_(eta * ig.data)
        for v, g in zip(self.model.arch_parameters(), dalpha):
            if v.grad is None:
                v.grad = g.data.clone()
            else:
                v.grad.data.copy_(g.data)
        self.optimizer.step()

    def hessian_vector_product(self, vector, x, y, r=1e-2):
        R = r / flatten(vector).norm()
        for p, v in zip(self.model.weights(), vector):
            p.data.add_(v, alpha=R)
        loss = self.model.loss(x, y)
        grads_p = autograd.grad(loss, self.model.arch_parameters())

        for p, v in zip(self.model.weights(), vector):
            p.data.sub_(v, alpha=2 * R)
        loss = self.model.loss(x, y)
        grads_n = autograd.grad(loss, self.model.arch_parameters())

        for p, v in zip(self.model.weights(), vector):
            p.data.add_(v, alpha=R)
        return [(gp - gn).div_(2 * R) for gp, gn in zip(grads_p, grads_n)]
