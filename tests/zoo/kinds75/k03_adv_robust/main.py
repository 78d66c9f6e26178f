"""
expect: GL003 attacks.py:21
dynamic: confirm
source: none, invented

Network security / adversarial robustness of a tabular flow classifier. The
attack library (attacks.py) implements PGD and receives the input-gradient
function from its caller through the constructor; here the caller hands in the
bound method RobustnessProbe.input_gradient, which calls torch.autograd.grad.
PGDAttack.perturb is decorated with `@torch.no_grad()`, so the handed function
runs with recording off: its loss has no graph and autograd.grad raises
"does not require grad". The asserts catch that RuntimeError on the default
path and show that StepwisePGD (recording off only around the update) produces
adversarial inputs inside the eps ball that raise the classifier's loss.
"""
import torch
import torch.nn.functional as F

from attacks import PGDAttack, StepwisePGD
from classifier import FlowClassifier, RobustnessProbe


def main():
    torch.manual_seed(0)
    model = FlowClassifier()
    x = torch.randn(64, 20)
    y = torch.randint(0, 3, (64,))
    probe = RobustnessProbe(model)

    attack = PGDAttack(probe.input_gradient, eps=0.1)
    try:
        attack.perturb(x, y)
        raised = None
    except RuntimeError as err:
        raised = err
    assert raised is not None and "does not require grad" in str(raised), raised

    fixed = StepwisePGD(probe.input_gradient, eps=0.1)
    x_adv = fixed.perturb(x, y)
    assert (x_adv - x).abs().max() <= 0.1 + 1e-6
    with torch.no_grad():
        clean = F.cross_entropy(model(x), y)
        adv = F.cross_entropy(model(x_adv), y)
    assert adv > clean, (adv, clean)
    print("k03 ok: autograd.grad inside @no_grad perturb raises; stepwise PGD raises the loss")


if __name__ == "__main__":
    main()
