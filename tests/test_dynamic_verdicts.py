"""The tracer's decisions, one situation each, with the probes called by hand.

The static pass is precise enough that correct programs rarely reach the dynamic pass, so the
paths that dismiss a finding (and those that cannot decide) are exercised here directly: a
``Tracer`` with one site, the probes ``b``/``a``/``s`` called where the instrumenter would put
them, and the verdict read back.
"""
from __future__ import annotations

import inspect

import pytest

torch = pytest.importorskip("torch")

from gradlint.dynamic.tracer import Tracer  # noqa: E402

HERE = __file__


def _tracer(code: str, line: int = 1, end_line: int | None = None, label: str = "h.detach()", tensor: str = "h"):
    tracer = Tracer({HERE})
    tracer.add_finding(0, {"code": code, "path": HERE, "line": line, "end_line": end_line or line,
                           "label": label, "tensor": tensor})
    return tracer


def _verdict(tracer) -> tuple[str, str]:
    verdict = tracer.verdicts()[0]
    return verdict["status"], verdict["evidence"]


def _line() -> int:
    return inspect.currentframe().f_back.f_lineno


def test_cut_that_starves_an_optimized_leaf_is_confirmed():
    w1 = torch.tensor(0.5, requires_grad=True)
    w2 = torch.tensor(1.0, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w1, w2], lr=0.1)
        f = tracer.a(0, tracer.b(0, w1 * 2).detach())
        loss = (w2 * f - 3) ** 2
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed"
    assert "`w1`" in evidence and "`loss`" in evidence and "an optimizer holds it" in evidence


def test_cut_kept_for_logging_is_dismissed():
    w = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL001")
    logged = []
    with tracer:
        h = w * 2
        logged.append(tracer.a(0, tracer.b(0, h).detach()))
        (h ** 2).backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "never reached a backward root" in evidence


def test_cut_no_backward_could_reach_because_every_loss_was_a_new_leaf_is_inconclusive():
    """Another bug made the loss a leaf first (`torch.tensor(loss.item(), requires_grad=True)`):
    that nothing reached the cut says nothing of it."""
    w = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w], lr=0.1)
        f = tracer.a(0, tracer.b(0, w * 2).detach())
        loss = torch.tensor(((f - 3) ** 2).item(), requires_grad=True)
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "inconclusive" and "started from a leaf" in evidence


def test_cut_whose_values_leave_as_python_numbers_is_inconclusive_not_dismissed():
    """`loss + aux.detach().item()`: the run cannot follow a number to the backward root, so it
    cannot say the cut never reached one."""
    w = torch.tensor(0.5, requires_grad=True)
    v = torch.tensor(2.0, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w, v], lr=0.1)
        aux = tracer.a(0, tracer.b(0, w * 2).detach())
        loss = (v - 1) ** 2 + 0.5 * aux.item()
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "inconclusive" and "Python numbers" in evidence


def test_stop_gradient_beside_an_attached_path_is_dismissed():
    w = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer:
        h1, h2 = w * 2, w * 3
        loss = (h1 - tracer.a(0, tracer.b(0, h2).detach())) ** 2  # SimSiam's symmetric stop-gradient
        loss.backward()
        _ = w.grad
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "through another path" in evidence


def test_cut_whose_leaf_only_a_weight_decay_term_reaches_is_confirmed():
    """The decay term keeps `w` reachable, but never the way the forward pass used it: the cut
    path's gradient is missing (`w.grad` is the decay term's alone)."""
    w = torch.tensor([0.5, -1.0], requires_grad=True)
    tracer = _tracer("GL001", label="logits.data")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w], lr=0.1)
        logits = tracer.a(0, tracer.b(0, torch.tensor([1.0, 2.0]) * w).data)
        loss = ((logits - 1) ** 2).sum() + 1e-3 * (w ** 2).sum()
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "only through PowBackward0" in evidence


def test_starved_leaf_no_optimizer_holds_is_dismissed():
    teacher = torch.tensor(2.0, requires_grad=True)
    student = torch.tensor(1.0, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([student], lr=0.1)
        target = tracer.a(0, tracer.b(0, teacher * 3).detach())
        ((student * 3 - target) ** 2).backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "no optimizer of the run holds" in evidence


def test_cut_of_a_value_nothing_trainable_produced_is_dismissed():
    tracer = _tracer("GL001")
    w = torch.tensor(1.0, requires_grad=True)
    with tracer:
        data = torch.randn(3) * 2
        loss = (w * tracer.a(0, tracer.b(0, data).detach())).sum()
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "no leaf that requires grad" in evidence


def test_site_that_never_ran_is_not_reached_and_one_without_backward_is_inconclusive():
    tracer = _tracer("GL001")
    with tracer:
        pass
    assert _verdict(tracer)[0] == "not-reached"
    tracer = _tracer("GL001")
    w = torch.tensor(1.0, requires_grad=True)
    with tracer:
        tracer.a(0, tracer.b(0, w * 2).detach())
    assert _verdict(tracer)[0] == "inconclusive"


def test_values_rebuilt_from_item_are_confirmed_even_when_the_leaf_trains_another_way():
    w = torch.tensor(1.5, requires_grad=True)
    tracer = _tracer("GL002", label="torch.tensor(…)")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w], lr=0.1)
        pred = w * 4
        number = tracer.b(0, pred).item()
        dice = tracer.a(0, torch.tensor(number * 2, requires_grad=True))
        loss = (pred - 1) ** 2 + dice  # the BCE-like term trains w; the rebuilt term adds nothing
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "leaves that path out" in evidence
    assert "(it gets a gradient by another path, none through this one)" in evidence, evidence


def test_switch_on_features_from_a_no_grad_region_is_confirmed_naming_the_encoder():
    enc = torch.tensor(1.5, requires_grad=True)
    head = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL003", label="feats.requires_grad_(True)", tensor="feats")
    with tracer:
        with torch.no_grad():
            feats = enc * torch.tensor([1.0, 2.0])
        tracer.b(0, feats).requires_grad_(True)
        ((head * feats - 3) ** 2).mean().backward()
        _ = enc.grad
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "`enc`" in evidence and "reads its .grad" in evidence


def test_switch_on_data_made_under_no_grad_is_dismissed():
    w = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL003", label="target.requires_grad_(True)", tensor="target")
    with tracer:
        with torch.no_grad():
            target = torch.randn(4) * 0.1
        tracer.b(0, target).requires_grad_(True)
        ((w - target) ** 2).mean().backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "no leaf that requires grad" in evidence


def test_switch_on_a_loss_of_frozen_parameters_an_optimizer_holds_is_confirmed():
    # (a LoRA adapter loaded for inference, every parameter switched off, then trained)
    adapter = torch.nn.Parameter(torch.tensor([0.5, 1.0]), requires_grad=False)
    tracer = _tracer("GL003", label="loss.requires_grad_(True)", tensor="loss")
    with tracer, tracer.watch_optimizers_ctx():
        opt = torch.optim.SGD([adapter], lr=0.1)
        loss = ((adapter * torch.tensor([1.0, 2.0]) - 1) ** 2).sum()
        tracer.b(0, loss).requires_grad_(True)
        loss.backward()
        opt.step()
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "`adapter`" in evidence and "an optimizer holds it" in evidence, evidence


def test_cut_of_features_a_frozen_backbone_the_optimizer_holds_computed_is_still_dismissed():
    # (the optimizer handed the whole model, its backbone frozen on purpose)
    backbone = torch.nn.Parameter(torch.tensor(1.5), requires_grad=False)
    head = torch.nn.Parameter(torch.tensor(0.5))
    tracer = _tracer("GL001", label="backbone * x", tensor="feats")
    with tracer, tracer.watch_optimizers_ctx():
        opt = torch.optim.SGD([backbone, head], lr=0.1)
        with torch.no_grad():
            feats = tracer.b(0, backbone * torch.tensor([1.0, 2.0]))
        ((head * feats - 3) ** 2).mean().backward()
        opt.step()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "no leaf that requires grad" in evidence, evidence


def test_edit_of_a_saved_tensor_is_confirmed_naming_the_saving_node_and_versions():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", line=0, label="u.add_(1)", tensor="u")
    with tracer:
        u = w * 3
        v = u ** 2
        line = _line() - 1
        tracer.b(0, u).add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            v.sum().backward()  # PyTorch's own check still fires under the tracer
    status, evidence = _verdict(tracer)
    assert status == "confirmed"
    assert f"PowBackward0 (line {line}) at version 0" in evidence and "to version 1" in evidence


def test_edit_of_a_tensor_nothing_saved_is_dismissed():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", label="u.add_(1)", tensor="u")
    with tracer:
        u = w * 3
        v = u + 1  # add saves neither operand
        tracer.b(0, u).add_(1)
        v.sum().backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "cannot change a gradient" in evidence


def test_inplace_module_built_but_never_called_is_not_reached_not_ran():
    """`nn.Sequential(..., nn.Sigmoid(), nn.ReLU(inplace=True))` built and never called: building
    the module is not running it (the verdict said "ran, but edited no tensor")."""
    tracer = _tracer("GL005", label="nn.ReLU(inplace=True)", tensor="")
    with tracer:
        tracer.a(0, torch.nn.ReLU(inplace=True))
    status, evidence = _verdict(tracer)
    assert status == "not-reached" and "never ran" in evidence


def test_inplace_module_called_without_a_backward_ran():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", label="nn.ReLU(inplace=True)", tensor="")
    with tracer:
        relu = tracer.a(0, torch.nn.ReLU(inplace=True))
        relu(torch.sigmoid(w * 3))
    status, evidence = _verdict(tracer)
    assert status == "inconclusive" and "no backward() followed it" in evidence


def test_edit_with_no_backward_after_it_is_inconclusive():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", label="u.add_(1)", tensor="u")
    with tracer:
        u = w * 3
        _ = u ** 2
        tracer.b(0, u).add_(1)
    assert _verdict(tracer)[0] == "inconclusive"


def test_edit_through_data_is_confirmed_though_pytorch_cannot_see_it():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", label="u.data.add_(1)", tensor="u")
    with tracer:
        u = w * 3
        v = u ** 2
        tracer.b(0, u.data).add_(1)
        v.sum().backward()  # no error: the gradient is silently wrong
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "through .data" in evidence


def _scaled(tracer, edit_a_clone: bool):
    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            y = x.clone() if edit_a_clone else x
            tracer.b(0, y).div_(2)
            return y * 1

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x

    return Scaled


@pytest.mark.parametrize("edit_a_clone", [False, True])
def test_custom_function_editing_what_it_saved_is_confirmed(edit_a_clone):
    """A custom Function's saved tensors are packed when forward returns: the version counter
    never sees its forward's edit, and the saved memory says it."""
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = _tracer("GL005", label="x.div_(2)", tensor="x")
    with tracer:
        _scaled(tracer, edit_a_clone).apply(w * 3).sum().backward()
    status, evidence = _verdict(tracer)
    if edit_a_clone:
        assert status == "dismissed", evidence
    else:
        assert status == "confirmed" and "custom Function" in evidence, evidence


def test_loss_detached_in_place_then_switched_on_is_confirmed():
    """`loss.detach_().requires_grad_()`: read before the in-place detach, the loss's record names
    the leaves that the new leaf, the same tensor, keeps from the backward."""
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = Tracer({HERE})
    tracer.add_finding(0, {"code": "GL003", "path": HERE, "line": 1, "end_line": 1,
                           "label": "loss.detach_().requires_grad_()", "tensor": "loss",
                           "kinds": ["detached_in_place"]})
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w], lr=0.1)
        loss = (w * 3).sum()
        tracer.b(0, loss).detach_().requires_grad_()
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed", evidence
    assert w.grad is None


def _loop(tracer, carry: bool, steps: int = 4):
    w = torch.tensor(0.9, requires_grad=True)
    state = torch.tensor(1.0)
    line = 0
    for _ in range(steps):
        state = w * state + 1 if carry else w * torch.tensor(1.0) + 1
        loss = state ** 2
        line = _line() + 1
        loss.backward(retain_graph=True)
    return line


def test_retained_record_that_grows_is_confirmed_and_a_flat_one_dismissed():
    for carry, expected in ((True, "confirmed"), (False, "dismissed")):
        line = _loop(Tracer({HERE}), carry, steps=1)  # learn the backward's line
        tracer = _tracer("GL004", line=line, label="loss.backward(retain_graph=True)", tensor="loss")
        with tracer:
            _loop(tracer, carry)
        status, evidence = _verdict(tracer)
        assert status == expected, evidence
        assert ("grew from" in evidence) == carry


def _loop_on_a_tensor_from_before(tracer, steps: int = 4):
    w = torch.tensor(0.9, requires_grad=True)
    codes = w * 2  # recorded once, before the loop
    line = 0
    for step in range(steps):
        loss = (codes + step) ** 2  # a new root each iteration, of the same old record
        line = _line() + 1
        loss.backward(retain_graph=True)
    return line


def test_new_roots_walking_a_record_made_before_the_loop_are_confirmed():
    line = _loop_on_a_tensor_from_before(Tracer({HERE}), steps=1)
    tracer = _tracer("GL004", line=line, label="loss.backward(retain_graph=True)", tensor="loss")
    with tracer:
        _loop_on_a_tensor_from_before(tracer)
    status, evidence = _verdict(tracer)
    assert status == "confirmed", evidence
    assert "walked nodes" in evidence and "4 backward calls" in evidence


def test_a_site_counted_past_its_limit_says_it_counted_the_first_calls():
    from gradlint.dynamic.backwards import COUNT_LIMIT

    line = _loop_on_a_tensor_from_before(Tracer({HERE}), steps=1)
    tracer = _tracer("GL004", line=line, label="loss.backward(retain_graph=True)", tensor="loss")
    with tracer:
        _loop_on_a_tensor_from_before(tracer, steps=COUNT_LIMIT + 20)
    status, evidence = _verdict(tracer)
    assert status == "confirmed", evidence
    assert f"the first {COUNT_LIMIT} backward calls" in evidence


def test_retained_record_backpropagated_once_is_inconclusive():
    line = _loop(Tracer({HERE}), True, steps=1)
    tracer = _tracer("GL004", line=line, label="loss.backward(retain_graph=True)", tensor="loss")
    with tracer:
        _loop(tracer, True, steps=1)
    assert _verdict(tracer)[0] == "inconclusive"


class _Trainer:
    """Keeps a running total of its losses with their records (`self.total = self.total + loss`)."""

    def __init__(self, detach: bool):
        self.w = torch.tensor(0.7, requires_grad=True)
        self.total, self.detach = 0.0, detach

    def step(self) -> int:
        loss = (self.w * 3) ** 2
        line = _line() + 1
        loss.backward(retain_graph=True)
        self.total = self.total + (loss.detach() if self.detach else loss)
        return line


def _kept_state_verdict(detach: bool, trainers: int = 1) -> tuple[str, str]:
    line = _Trainer(detach).step()
    tracer = _tracer("GL004", line=line, label="loss.backward(retain_graph=True)", tensor="loss")
    tracer.evidence[0].finding["state"] = ["self.total"]
    tracer.evidence[0].kinds |= {"kept_state"}
    with tracer:
        for _ in range(trainers):
            trainer = _Trainer(detach)
            for _ in range(4):
                trainer.step()
    return _verdict(tracer)


def test_state_that_keeps_each_calls_record_is_confirmed_by_its_own_growth():
    status, evidence = _kept_state_verdict(detach=False, trainers=2)  # (the second one starts small again)
    assert status == "confirmed", evidence
    assert "`self.total`" in evidence and "grew from" in evidence and "3 successive" in evidence


def test_state_kept_detached_holds_no_record_and_stays_undecided():
    status, evidence = _kept_state_verdict(detach=True)
    assert status == "inconclusive" and "held no record" in evidence


def test_leaf_held_by_a_plain_object_is_named_through_its_attribute():
    class Agent:  # (no nn.Module: a trainer or agent holding its network)
        def __init__(self):
            self.critic = torch.nn.Linear(2, 1)

    agent = Agent()
    tracer = _tracer("GL001", label="agent.critic(x).detach()")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD(agent.critic.parameters(), lr=0.1)
        f = tracer.a(0, tracer.b(0, agent.critic(torch.ones(1, 2))).detach())
        w = torch.tensor(1.0, requires_grad=True)
        ((w * f - 3) ** 2).sum().backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed"
    assert "`agent.critic.weight`" in evidence, evidence


def test_saving_line_in_another_file_than_the_finding_names_that_file():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    tracer = Tracer({HERE})
    tracer.add_finding(0, {"code": "GL005", "path": "elsewhere.py", "line": 0, "end_line": 0,
                           "label": "u.add_(1)", "tensor": "u"})
    with tracer:
        u = w * 3
        v = u ** 2
        line = _line() - 1
        tracer.b(0, u).add_(1)
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            v.sum().backward()
    status, evidence = _verdict(tracer)
    assert status == "confirmed"
    assert f"PowBackward0 (test_dynamic_verdicts.py line {line}) at version 0" in evidence, evidence


def test_many_starved_leaves_are_named_by_the_modules_that_hold_them():
    from gradlint.dynamic.verdicts import owners

    few = ["`net.w`", "`net.b`"]
    assert owners(few) == "`net.w`, `net.b`"
    generator = [f"`G.block{i}.{p}`" for i in range(3) for p in ("weight", "bias")] + ["`G.block2.scale`"]
    assert owners(generator) == "`G.block0` (2 tensors), `G.block1` (2 tensors), `G.block2` (3 tensors)"
    flat = [f"`w{i}`" for i in range(6)]
    assert owners(flat) == "`w0`, `w1` and 4 more"
    # (one layer of each of a model's blocks: the layer, its block's index a wildcard)
    gates = [f"`model.res{i}.1.conv_du.{j}.{p}`" for i in range(1, 6) for j in (0, 2) for p in ("weight", "bias")]
    assert owners(gates) == "`model.res*.1.conv_du` (20 tensors)"
    # (a module's single leaf among groups: the leaf itself, not "(1 tensors)")
    mixed = ["`G.down.0.weight`", "`G.down.1.weight`", "`G.up.0.weight`", "`G.up.1.weight`", "`G.mid.weight`"]
    assert owners(mixed) == "`G.down` (2 tensors), `G.up` (2 tensors), `G.mid.weight`"


def test_raised_message_is_cut_at_a_word():
    """The program's exception, quoted in a verdict, ends at a whole word and says it was cut."""
    from gradlint.dynamic.tracer import _first_words

    text = ("one of the variables needed for gradient computation has been modified by an inplace "
            "operation: [torch.FloatTensor [5, 8]], which is output 0 of Mul, is at version 1; expected "
            "version 0 instead.")
    cut = _first_words(text)
    assert len(cut) <= 162 and cut.endswith(" …")
    assert text.startswith(cut[:-2]) and text[len(cut) - 2] == " "
    assert _first_words("short message") == "short message"


def test_cut_of_sampled_token_ids_lost_no_history_whatever_drew_them():
    """Token ids drawn by `torch.multinomial` from a model's probabilities carry no history by
    nature: their `.data` cuts nothing, though the model influenced them and got no gradient."""
    w = torch.tensor([0.2, 0.5, 0.3], requires_grad=True)
    v = torch.tensor(1.0, requires_grad=True)
    tracer = _tracer("GL001", label="samples.data", tensor="samples")
    tracer.track_history_loss = True  # (as another finding's rebuild asks)
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([w, v], lr=0.1)
        samples = torch.multinomial(torch.softmax(w, 0), 4, replacement=True)
        targets = tracer.a(0, tracer.b(0, samples).data)
        loss = (v * targets.float()).sum()
        loss.backward()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "no leaf" in evidence, evidence


def test_cut_starving_a_freed_models_parameters_in_a_run_without_optimizer_is_confirmed():
    """A check that builds its model in a function, backpropagates once and reads the gradients
    there: no optimizer says what was to train, and the model is gone by the verdict; the check
    read their gradients (and they required grad, which would be reason enough)."""
    tracer = _tracer("GL001")

    def check_once():
        net = torch.nn.Linear(3, 1)
        w = torch.tensor(0.5, requires_grad=True)
        cut = tracer.a(0, tracer.b(0, net(torch.ones(1, 3))).detach())
        (w * cut).sum().backward()
        return [p.grad for p in net.parameters()]

    with tracer:
        grads = check_once()
    assert all(g is None for g in grads)
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "reads its .grad" in evidence, evidence


def test_starved_leaf_whose_gradient_the_program_reads_is_confirmed_though_optimizers_hold_others():
    # (an SRGAN check: the generator's gradient read by hand with a term cut, while an optimizer
    # trains only the discriminator; the generator is built in a function the run leaves)
    disc = torch.tensor(0.3, requires_grad=True)
    tracer = _tracer("GL001")

    def step():
        gen = torch.tensor(0.5, requires_grad=True)
        other = torch.tensor(2.0, requires_grad=True)
        f = tracer.a(0, tracer.b(0, gen * 2).detach())
        ((other * f - 3) ** 2 + disc ** 2).backward()
        return gen.grad  # (None: the read is what says it was to train)

    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([disc], lr=0.1)
        step()
    status, evidence = _verdict(tracer)
    assert status == "confirmed" and "reads its .grad" in evidence, evidence


def test_starved_leaf_only_torch_reads_the_gradient_of_is_still_dismissed_with_optimizers():
    # (linear probing: `model.zero_grad()` goes over the frozen backbone's gradients too)
    enc = torch.nn.Linear(1, 1)
    head = torch.tensor(0.5, requires_grad=True)
    tracer = _tracer("GL001")
    with tracer, tracer.watch_optimizers_ctx():
        torch.optim.SGD([head], lr=0.1)
        f = tracer.a(0, tracer.b(0, enc(torch.ones(1, 1))).detach())
        ((head * f - 3) ** 2).sum().backward()
        enc.zero_grad()
    status, evidence = _verdict(tracer)
    assert status == "dismissed" and "left out on purpose" in evidence, evidence
