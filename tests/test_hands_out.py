"""Results a method hands out: an explainer module (its base class in another file the linter
cannot read) puts the model it is handed in eval mode and returns attributions detached; a
class that builds the model it detaches, or steps an optimizer, is still reported."""
from __future__ import annotations

from gradlint import engine

EXPLAINER = '''
import torch
from captum.attr import LayerGradCam

from .base_explainer import WalkBase


class GradCAM(WalkBase):
    def __init__(self, model, explain_graph=False):
        super().__init__(model=model, explain_graph=explain_graph)

    def forward(self, x, edge_index, **kwargs):
        self.model.eval()
        self.explain_method = LayerGradCam(self.model, self.model.convs[-1])
        masks = []
        for label in range(kwargs.get("num_classes")):
            attr = self.explain_method.attribute(x, label, additional_forward_args=edge_index).detach()
            masks.append(attr.relu())
        return masks, attr
'''


def _codes(src: str, tmp_path) -> list[tuple[str, int]]:
    path = tmp_path / "explainer.py"
    path.write_text(src, encoding="utf-8")
    return [(f.code, f.line) for f in engine.lint_source(src, str(path))]


def test_an_explainer_evaluating_the_model_it_is_handed_hands_out_its_masks(tmp_path):
    assert _codes(EXPLAINER, tmp_path) == []


def test_a_class_that_steps_an_optimizer_trains_what_it_returns(tmp_path):
    src = EXPLAINER + "\n    def update(self):\n        self.opt.step()\n"
    assert ("GL001", 17) in _codes(src, tmp_path)


def test_a_model_the_class_builds_itself_is_trained_through_what_it_returns(tmp_path):
    src = EXPLAINER.replace("        super().__init__(model=model, explain_graph=explain_graph)\n",
                            "        super().__init__(model=model, explain_graph=explain_graph)\n"
                            "        self.model = torch.nn.Linear(4, 4)\n")
    assert ("GL001", 18) in _codes(src, tmp_path)
