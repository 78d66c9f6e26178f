"""``gradlint check --dynamic`` from the command line, on programs a user would write: the
drivers, the options, and the shapes of code the dynamic pass has to see through
(torch.compile, bf16, function-form in-place ops, a coding cookie)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch")

SEED = """\
import torch

scale_a = torch.tensor(0.5, requires_grad=True)
scale_b = torch.tensor(1.0, requires_grad=True)
x, y = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0])


def first_stage(v):
    h = scale_a * v
    return h.detach()


def step():
    loss = ((scale_b * first_stage(x) - y) ** 2).mean()
    loss.backward()
    return scale_a.grad


if __name__ == "__main__":
    print(step())
"""


def gradlint(*args, cwd, stdin=None):
    return subprocess.run([sys.executable, "-m", "gradlint", "check", *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=240)


def verdicts(proc) -> list[tuple[str, int, str, str]]:
    return [(f["code"], f["line"], f["verdict"]["status"], f["verdict"]["evidence"])
            for f in json.loads(proc.stdout)]


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "seed.py").write_text(SEED)
    return tmp_path


def test_driver_callable_confirms_the_finding_in_the_module_it_imports(project):
    proc = gradlint("--driver", "pkg.seed:step", "--output-format", "json", "pkg", cwd=project)
    assert proc.returncode == 1, proc.stderr
    [(code, line, status, evidence)] = verdicts(proc)
    assert (code, line, status) == ("GL001", 10, "confirmed"), evidence
    assert "`scale_a`" in evidence


def test_a_backward_in_a_driver_outside_the_project_is_named_by_its_file_and_line(project, tmp_path_factory):
    """A driver kept beside the project, not under it, whose own code calls backward: the
    evidence names the driver's line, never "line 0"."""
    drivers = tmp_path_factory.mktemp("drivers")
    (drivers / "smoke.py").write_text(textwrap.dedent("""\
        from pkg import seed


        def main():
            loss = ((seed.scale_b * seed.first_stage(seed.x) - seed.y) ** 2).mean()
            loss.backward()
        """))
    proc = subprocess.run([sys.executable, "-m", "gradlint", "check", "--driver", "smoke:main", "--output-format",
                           "json", "pkg"], cwd=project, capture_output=True, text=True, timeout=240,
                          env=dict(os.environ, PYTHONPATH=f"{drivers}{os.pathsep}{project}"))
    [(code, line, status, evidence)] = verdicts(proc)
    assert (code, status) == ("GL001", "confirmed"), evidence
    assert "smoke.py line 6" in evidence and "line 0" not in evidence


@pytest.mark.parametrize("driver, said", [
    ("pkg.seed:stpe", "has no attribute 'stpe'"),
    ("pkg.nomodule:step", "no module named 'pkg.nomodule'"),
    ("pkg.seed:torch", "not a function"),
    (":step", "expected MODULE:FUNCTION"),
    ("pkg/seed.py:step", "expected MODULE:FUNCTION"),
])
def test_a_driver_that_names_nothing_callable_is_a_usage_error(project, driver, said):
    """Exit 2, never a passing CI gate: with --dynamic-only confirmed, an error verdict would
    filter the finding away and exit 0."""
    proc = gradlint("--driver", driver, "--dynamic-only", "confirmed", "pkg", cwd=project)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert said in proc.stderr and "Traceback" not in proc.stderr


def test_dynamic_only_never_hides_a_file_that_was_not_checked(tmp_path):
    (tmp_path / "broken.py").write_text("import torch\nx = torch.ones(\n")
    proc = gradlint("--dynamic-only", "confirmed", "--output-format", "concise", "broken.py", cwd=tmp_path)
    assert proc.returncode == 1 and "GL000" in proc.stdout


def test_standard_input_is_never_run_even_when_named_after_a_file_on_disk(project):
    marker = project / "ran.txt"
    (project / "ondisk.py").write_text(SEED + f"\nopen({str(marker)!r}, 'w').close()\n")
    proc = gradlint("--dynamic", "--output-format", "json", "--stdin-filename", "ondisk.py", "-",
                    cwd=project, stdin=SEED)
    [(_, _, status, evidence)] = verdicts(proc)
    assert status == "not-reached" and "standard input" in evidence
    assert not marker.exists()


def test_show_graph_draws_the_record_in_the_full_format_when_piped(project):
    proc = gradlint("--show-graph", "pkg/seed.py", cwd=project)
    assert "dynamic: confirmed" in proc.stdout
    assert "AccumulateGrad → scale_b" in proc.stdout and "✗ scale_a: not in this record" in proc.stdout


def test_memory_limit_below_what_torch_needs_is_refused(project):
    proc = gradlint("--dynamic", "--memory-limit", "200", "pkg/seed.py", cwd=project)
    assert proc.returncode == 2 and "at least 512 MB" in proc.stderr


PROGRAMS = {
    # torch.compile traces the forward; the probes must run between its graphs.
    "compiled.py": ("""\
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.enc, self.head = nn.Linear(4, 4), nn.Linear(4, 1)

            def forward(self, x):
                return self.head(self.enc(x).detach())

        net = Net()
        opt = torch.optim.SGD(net.parameters(), lr=0.1)
        loss = torch.compile(net, backend="eager")(torch.randn(3, 4)).sum()
        loss.backward()
        opt.step()
        """, "GL001", "`net.enc."),
    # PyTorch names bf16 tensors "CPUBFloat16Type", not "torch.FloatTensor", in its error.
    "bf16.py": ("""\
        import torch

        w = torch.ones(2, 3, dtype=torch.bfloat16, requires_grad=True)
        g = torch.sigmoid(w * 2)
        g.mul_(2)
        g.sum().backward()
        """, "GL005", "saved by SigmoidBackward0"),
    # torch.relu_(g) edits g; torch is the module, not the tensor.
    "function_form.py": ("""\
        import torch

        w = torch.ones(3, requires_grad=True)
        g = torch.sigmoid(w * 2)
        torch.relu_(g)
        g.sum().backward()
        """, "GL005", "`torch.relu_(g)` (line 5) moved it to version 1"),
    # The numbers are pulled in the copied list itself, from tensors a caller hands in: the run
    # follows each pulled tensor's lineage, not the numbers.
    "pulled_in_a_method.py": ("""\
        import torch

        class Learner:
            def __init__(self, policy):
                self.policy = policy
                self.opt = torch.optim.SGD(policy.parameters(), lr=0.1)

            def update(self, xs):
                losses = [self.policy(x).pow(2).sum() for x in xs]
                self.opt.zero_grad()
                self.total(losses).backward()
                self.opt.step()

            def total(self, losses):
                return torch.tensor([l.item() for l in losses], requires_grad=True).sum()

        Learner(torch.nn.Linear(2, 1)).update(torch.randn(3, 2))
        """, "GL002", "`self.policy.weight` influenced the loss (line 11)"),
    # A coding cookie is honoured as Python honours it.
    "latin1.py": ("""\
        # -*- coding: latin-1 -*-
        import torch

        w = torch.tensor(2.0, requires_grad=True)
        v = torch.tensor(1.0, requires_grad=True)
        caf\xe9 = (w * 3).detach()  # caf\xe9 in latin-1
        loss = v * caf\xe9
        loss.backward()
        print(w.grad)
        """, "GL001", "`w`"),
}


def test_the_dynamic_pass_sees_through_compile_bf16_function_forms_and_encodings(tmp_path):
    for name, (text, _, _) in PROGRAMS.items():
        data = textwrap.dedent(text)
        (tmp_path / name).write_bytes(data.encode("latin-1" if "latin-1" in data else "utf-8"))
    proc = gradlint("--dynamic", "--output-format", "json", *PROGRAMS, cwd=tmp_path)
    found = {f["path"]: f for f in json.loads(proc.stdout)}
    for name, (_, code, evidence) in PROGRAMS.items():
        finding = found.get(name)
        assert finding is not None and finding["code"] == code, (name, proc.stdout, proc.stderr)
        assert finding["verdict"]["status"] == "confirmed", (name, finding["verdict"])
        assert evidence in finding["verdict"]["evidence"], (name, finding["verdict"])


def test_a_site_that_ran_only_in_worker_processes_is_not_called_never_run(tmp_path):
    """mp.spawn runs the training in fresh processes the dynamic pass does not follow: the
    verdict says so instead of claiming the code never ran."""
    (tmp_path / "spawned.py").write_text(textwrap.dedent("""\
        import torch
        import torch.multiprocessing as mp

        w = torch.tensor(1.0, requires_grad=True)
        v = torch.tensor(2.0, requires_grad=True)


        def stage(x):
            h = w * x
            return h.detach()


        def worker(rank):
            loss = v * stage(torch.tensor(3.0))
            loss.backward()


        if __name__ == "__main__":
            mp.spawn(worker, nprocs=1)
        """))
    proc = gradlint("--dynamic", "--output-format", "json", "spawned.py", cwd=tmp_path)
    [(code, _, status, evidence)] = verdicts(proc)
    assert (code, status) == ("GL001", "not-reached")
    assert "started 1 other process" in evidence and "not followed" in evidence


def test_a_gate_on_confirmed_findings_fails_when_the_run_could_not_decide(project):
    """--dynamic-only confirmed hides dismissed and not-reached findings, but a driver that
    crashed decided nothing: the gate must not pass on it."""
    (project / "pkg" / "smoke.py").write_text("def broken():\n    raise RuntimeError('CUDA not available')\n")
    proc = gradlint("--driver", "pkg.smoke:broken", "--dynamic-only", "confirmed", "pkg", cwd=project)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert "hid 1 error finding" in proc.stderr and "could not decide 1 finding" in proc.stderr


HELPERS = '''\
"""Loss terms, defined here and used by the training script beside this file."""
import torch.nn.functional as F


def terms(critic, fake, real):
    score = critic(fake).detach()
    adv = F.binary_cross_entropy_with_logits(score, torch_ones(score))
    return F.l1_loss(fake, real) + adv


def torch_ones(t):
    return t.new_ones(t.shape)
'''

TRAIN = '''\
import torch
import torch.nn as nn

from losses import terms

torch.manual_seed(0)
gen, critic = nn.Linear(3, 4), nn.Linear(4, 1)
opt = torch.optim.SGD([*gen.parameters(), *critic.parameters()], lr=0.1)
for _ in range(2):
    fake = gen(torch.randn(5, 3))
    loss = terms(critic, fake, torch.randn(5, 4))
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def test_a_finding_at_a_call_is_probed_inside_the_file_it_calls(tmp_path):
    # The cut is in losses.py; the finding is reported in train.py at the call, so its probes
    # go into losses.py when the run imports it.
    (tmp_path / "losses.py").write_text(HELPERS)
    (tmp_path / "train.py").write_text(TRAIN)
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", ".", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert [(f["path"], f["code"], f["verdict"]["status"]) for f in found] == [("train.py", "GL001", "confirmed")], proc.stdout
    assert "`critic`" in found[0]["verdict"]["evidence"] or "critic" in found[0]["verdict"]["evidence"], found[0]


def test_a_helper_file_the_driver_imports_before_the_flagged_one_is_still_probed(tmp_path):
    # The finding is in step.py, its cut in losses.py, which main.py imports first: the
    # probes are placed before the program runs, not when step.py is imported.
    (tmp_path / "losses.py").write_text(HELPERS)
    body = TRAIN.split("\n\n", 2)  # (imports, the import of losses, the loop)
    (tmp_path / "step.py").write_text(body[0] + "\n\n" + body[1] + "\n\n\ndef run():\n" + textwrap.indent(body[2], "    "))
    (tmp_path / "main.py").write_text("import losses  # noqa: F401\nfrom step import run\n\nrun()\n")
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", ".", cwd=tmp_path)
    found = json.loads(proc.stdout)
    assert [(f["path"], f["code"], f["verdict"]["status"]) for f in found] == [("step.py", "GL001", "confirmed")], proc.stdout


MODEL = '''\
"""A block that squashes its input and shifts it in place (its module docstring is all it
runs at import)."""
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        y = torch.sigmoid(self.lin(x))
        y += 1.0
        return y
'''

RUN = '''\
import torch

from model import Block

try:
    Block()(torch.randn(2, 3)).sum().backward()
except RuntimeError:
    pass
'''


def test_a_flagged_module_with_only_a_docstring_at_top_level_is_run_through_its_importer(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "run.py").write_text(RUN)
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", "model.py", cwd=tmp_path)
    assert [(c, status) for c, _, status, _ in verdicts(proc)] == [("GL005", "confirmed")], proc.stdout


@pytest.mark.parametrize("spelled", ["from nets.model import Block", "from nets import Block"])
def test_a_flagged_module_of_a_package_is_run_through_a_script_above_the_package(tmp_path, spelled):
    # (`models/block.py` imported by `main.py` beside the package, directly or through what the
    # package's `__init__` imports)
    (tmp_path / "nets").mkdir()
    (tmp_path / "nets" / "__init__.py").write_text("from nets.model import Block\n")
    (tmp_path / "nets" / "model.py").write_text(MODEL)
    (tmp_path / "run.py").write_text(RUN.replace("from model import Block", spelled))
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", "nets/model.py", cwd=tmp_path)
    assert [(c, status) for c, _, status, _ in verdicts(proc)] == [("GL005", "confirmed")], proc.stdout


def test_a_script_linted_beside_a_module_it_does_not_import_is_not_blamed_for_it(tmp_path):
    # Two files linted together: the script runs as its own, and says nothing of the module.
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "other.py").write_text(
        "import a_package_nobody_installed\nimport torch\n\nenc = torch.nn.Linear(3, 3)\n"
        "opt = torch.optim.SGD(enc.parameters(), lr=0.1)\nx = torch.randn(2, 3)\n"
        "with torch.no_grad():\n    h = enc(x)\nloss = (h * 2).sum() + enc(x).sum()\nloss.backward()\n")
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", "model.py", "other.py", cwd=tmp_path)
    [(code, _, status, evidence)] = [v for v in verdicts(proc) if v[0] == "GL005"]
    assert status == "not-reached", proc.stdout
    assert "other.py" not in evidence and "never ran" in evidence, evidence


def test_a_not_reached_verdict_says_which_importing_script_ran_and_where_it_stopped(tmp_path):
    # The scripts beside a flagged module that import it are run for it (they may be a real
    # training entry point): where one stops before reaching the module, the verdict says so.
    (tmp_path / "model.py").write_text(MODEL)
    (tmp_path / "run.py").write_text("import a_package_nobody_installed\n" + RUN)
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", "model.py", cwd=tmp_path)
    [(code, _, status, evidence)] = verdicts(proc)
    assert (code, status) == ("GL005", "not-reached"), proc.stdout
    assert "`run.py`, a script beside it that imports it, was run and never reached it" in evidence, evidence
    assert "No module named 'a_package_nobody_installed'" in evidence, evidence


def test_a_script_importing_the_package_it_sits_in_is_told_why_and_where(tmp_path):
    """`from src.lm import helper` in src/decode.py, run as a script from the project's root:
    the script's own folder leads sys.path, so `src` is no name there. The error names the file
    and line, and says so, rather than "run from the project's root" (which the user did)."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "__init__.py").write_text("")
    (tmp_path / "src" / "lm.py").write_text("def helper():\n    return 1\n")
    (tmp_path / "src" / "decode.py").write_text(textwrap.dedent("""\
        import torch
        import torch.nn as nn
        from src.lm import helper

        lin = nn.Linear(2, 2)
        h = lin(torch.randn(3, 2)).detach()
        loss = (lin(h) * helper()).sum()
        loss.backward()
        """))
    proc = gradlint("--no-cache", "--dynamic", "--output-format", "json", "src/decode.py", cwd=tmp_path)
    [(code, _, status, evidence)] = verdicts(proc)
    assert (code, status) == ("GL001", "error"), proc.stdout
    assert f"at {os.path.join('src', 'decode.py')}, line 3" in evidence, evidence
    assert "from inside `src`" in evidence and "--driver" in evidence, evidence


def test_a_verdict_read_from_a_run_that_raised_says_what_it_raised_and_where(tmp_path):
    """A run that stops on an exception after the evidence was gathered (the second backward
    through a retained graph whose saved input was edited): the confirmed verdict says what the
    program raised and where, so the user is not told only half of what happened."""
    (tmp_path / "carried.py").write_text(textwrap.dedent("""\
        import torch, torch.nn as nn
        cell = nn.GRUCell(3, 4)
        opt = torch.optim.SGD(cell.parameters(), lr=0.1)
        h, buf = torch.zeros(2, 4), torch.zeros(2, 3)
        for step in range(3):
            buf.zero_()
            buf[:, step % 3] = 1.0
            h = cell(buf, h)
            loss = h.pow(2).sum()
            opt.zero_grad()
            loss.backward(retain_graph=True)
            opt.step()
        """))
    proc = gradlint("--dynamic", "--output-format", "json", "carried.py", cwd=tmp_path)
    verdict = next(f["verdict"] for f in json.loads(proc.stdout) if f["code"] == "GL004")
    assert verdict["status"] == "confirmed", verdict
    assert "the program then raised RuntimeError at line 11" in verdict["evidence"], verdict
