"""
expect: GL003 evaluator.py:17
dynamic: confirm
source: none, invented

Scientific ML / physics-informed networks. A PINN for the 1-D heat equation is
trained on its PDE residual, and a PeriodicEvaluator (evaluator.py) is handed the
bound method `HeatResidual.validation_residual` in its constructor to log the
residual on a validation grid. The evaluator keeps the function and calls it inside
its own `with torch.no_grad():` block, but the residual differentiates the network
output with `torch.autograd.grad` (u' and u''), which needs a recorded graph: the
first evaluation raises "element 0 of tensors does not require grad". The asserts
catch that error around the training run, and show that an evaluator which calls the
metric with recording on logs residuals that fall as the PINN trains.
"""
import torch

from evaluator import PeriodicEvaluator
from pinn import HeatPINN, HeatResidual


class RecordingEvaluator(PeriodicEvaluator):
    def maybe_evaluate(self, step, model):
        if step % self.every != 0:
            return None
        value = self.metric_fn(model).item()
        self.log.append((step, value))
        return value


def train(model, physics, evaluator, steps=200):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for step in range(steps):
        opt.zero_grad()
        loss = physics.residual(model)
        loss.backward()
        opt.step()
        evaluator.maybe_evaluate(step, model)
    return evaluator.log


def main():
    physics = HeatResidual()

    torch.manual_seed(0)
    model = HeatPINN()
    evaluator = PeriodicEvaluator(physics.validation_residual, every=25, name="val_residual")
    error = None
    try:
        train(model, physics, evaluator)
    except RuntimeError as exc:
        error = exc
    assert error is not None and "does not require grad" in str(error)
    assert evaluator.log == []

    torch.manual_seed(0)
    model = HeatPINN()
    fixed = RecordingEvaluator(physics.validation_residual, every=25, name="val_residual")
    log = train(model, physics, fixed)
    print("fixed log:", [(s, round(v, 3)) for s, v in log])
    assert len(log) == 8
    assert log[-1][1] < 0.1 * log[0][1]
    print("OK")


if __name__ == "__main__":
    main()
