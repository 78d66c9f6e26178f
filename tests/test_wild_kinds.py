"""Kinds the wild corpus's false alarms taught, in library files no script of theirs calls (a
loss module a trainer of another package imports), linted as source: what a runnable fixture
cannot show, since its own calls decide what the module's inputs hold."""
from __future__ import annotations

from pathlib import Path

from gradlint import engine

ROOT = Path(__file__).resolve().parents[1]
# The fixture's loss module without the driver after it, as a library file has it.
GRADIENT_CACHE = (ROOT / "fixtures/GL001/good_gradient_cache_hands_the_embedding_gradient_back_by_a_loss_hook.py"
                  ).read_text().split("\ndef fit(")[0]


def _codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in engine.lint_source(source, "losses.py", project=False)]


def test_a_loss_that_caches_gradients_and_hands_them_back_by_a_hook_on_the_loss_is_no_finding():
    # (sentence-transformers' Cached* losses: the cuts and the new leaves are the method)
    assert _codes(GRADIENT_CACHE) == []


def test_the_same_loss_without_the_hook_starves_the_model_it_embeds_with():
    # Without the hook nothing hands the cached gradient back: the model trains on nothing.
    without = GRADIENT_CACHE.replace(
        "        loss.register_hook(partial(_replay, batches=batches, loss_obj=self))\n", "")
    assert without != GRADIENT_CACHE
    assert _codes(without), "the cut of the embeddings, made leaves, is reported once nothing hands their gradient back"


NNCLR = '''
import torch
from torch import nn
from lightly.loss import NTXentLoss
from lightly.models.modules import NNMemoryBankModule


class NNCLR(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone
        self.projection_head = nn.Linear(512, 128)
        self.prediction_head = nn.Linear(128, 128)

    def forward(self, x):
        y = self.backbone(x).flatten(start_dim=1)
        z = self.projection_head(y)
        p = self.prediction_head(z)
        z = z.detach()
        return z, p


class ContrastiveLoss(nn.Module):
    def __init__(self, size=0):
        super().__init__()
        self.bank = NNMemoryBankModule(size=size)

    def forward(self, out0, out1):
        out1, negatives = self.bank.forward(out1, update=True)
        return -(nn.functional.normalize(out0, dim=1) * nn.functional.normalize(out1, dim=1)).sum(1).mean()


model = NNCLR(nn.Sequential(nn.Conv2d(3, 512, 3), nn.AdaptiveAvgPool2d(1)))
memory_bank = NNMemoryBankModule(size=(4096, 128))
criterion = ContrastiveLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.06)
for x0, x1 in batches:
    z0, p0 = model(x0)
    z1, p1 = model(x1)
    z0 = memory_bank(z0, update=False)
    z1 = memory_bank(z1, update=True)
    loss = 0.5 * (criterion(z0, p1) + criterion(z1, p0))
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
'''


def test_a_detached_projection_returned_beside_the_prediction_and_swapped_through_a_memory_bank_is_no_finding():
    # (lightly's NNCLR example: the projection, detached, is the other view's target, looked up
    # in a memory bank of a library; the library's loss object, built from settings, hands back
    # the prediction it is given, and the bank, which no optimizer holds, is no other model)
    assert _codes(NNCLR) == []


def test_the_same_projection_alone_as_a_term_is_dead():
    # The detached projections alone make a term: it adds a number and trains nothing.
    dead = NNCLR.replace("    z0 = memory_bank(z0, update=False)\n", "").replace(
        "    loss = 0.5 * (criterion(z0, p1) + criterion(z1, p0))", "    loss = criterion(p0, p1) + z0.pow(2).mean()")
    assert dead != NNCLR
    assert [code for code, _ in _codes(dead)] == ["GL001"]


GREEDY = '''
import torch
from torch.autograd import Variable
from modules.custom_mod import JaggedMaxModule


def greedy_actions(q_values, v_p):
    q_values = q_values.data.clone()
    jmax = JaggedMaxModule()
    values, actions = jmax(Variable(q_values), v_p)
    return actions.data, values.data


class QNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear_out = torch.nn.Linear(8, 1)

    def forward(self, embed, prefix_sum, actions, greedy_acts=False):
        raw_pred = self.linear_out(embed)
        if greedy_acts:
            actions, _ = greedy_actions(raw_pred, prefix_sum)
        return actions, raw_pred, prefix_sum
'''


def test_a_module_built_afresh_in_each_call_and_only_called_trains_nothing():
    # (GraphCL's DQN attack: an op module of a compiled extension, built in the function that
    # calls it; whatever it makes starts afresh each call, and no optimizer can hold it)
    assert _codes(GREEDY) == []


def test_the_same_module_kept_on_the_model_is_its_member():
    kept = GREEDY.replace("def greedy_actions(q_values, v_p):", "def greedy_actions(self, q_values, v_p):").replace(
        "    jmax = JaggedMaxModule()\n", "    jmax = self.jmax = JaggedMaxModule()\n")
    assert kept != GREEDY
    assert "jmax" not in once_called(kept)


def once_called(source):
    import ast

    from gradlint.analysis.flow import _only_called
    fn = next(n for n in ast.parse(source).body if type(n) is ast.FunctionDef)
    return {name for name, only in _only_called(fn).items() if only}


# The fixture's criterion without the driver after it: its model, a parameter no call resolves,
# reports extra losses of unknown history.
LOGGED_TERMS = (ROOT / "fixtures/GL001/good_criterion_logs_each_extra_loss_detached_in_a_loop.py"
                ).read_text().split("\ndef train_step(")[0]


def test_a_criterion_logging_each_term_detached_in_a_loop_is_no_finding():
    # (fairseq's wav2vec criterion: `for i, l in enumerate(losses): logging[f"loss_{i}"] = l.detach()`;
    # `l` is an element of the terms, no input of the forward whose caller's model it would starve)
    assert _codes(LOGGED_TERMS) == []


# The fixture's quantization-noise helper without the model after it, as a library ships it.
QUANT_NOISE = (ROOT / "fixtures/GL001/good_quant_noise_hook_closure_adds_detached_noise.py"
               ).read_text().split("\nmodel = ")[0]


def test_a_hook_closure_reading_its_helpers_statistics_is_no_finding():
    # (fairseq's ActivationQuantizer: `self.scale`, `self.bits` read in a hook defined in a method
    # are the helper object's statistics and settings, no trainable the straight-through estimator
    # could starve)
    assert _codes(QUANT_NOISE) == []


# The fixture's prior loss without the engine and the driver: its language model is whatever
# object a caller of another package hands the constructor.
PRIOR_LOSS = (ROOT / "fixtures/GL005/good_lm_prior_scores_copied_from_an_external_model_edited_in_place.py"
              ).read_text().split("\n\n\ndecoder = ")[0]
PRIOR_LOSS = PRIOR_LOSS[:PRIOR_LOSS.index("class ExternalLM")] + PRIOR_LOSS[PRIOR_LOSS.index("class PriorLoss"):]


def test_scores_an_external_engine_returns_copied_with_as_tensor_have_no_history():
    # (OpenNMT-py's LM prior: `torch.as_tensor` of what an inference engine returns is a copy of its
    # data, so the log-softmax edited in place saved nothing a backward reads)
    assert _codes(PRIOR_LOSS) == []
