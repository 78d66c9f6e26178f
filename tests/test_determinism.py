"""Output is a function of the input: no message, detail or order may follow the iteration order of
a set (string hashes change with PYTHONHASHSEED, node hashes with memory addresses), so a cached,
a ``-j 1`` and a ``-j 2`` run print the same bytes."""
from __future__ import annotations

import os
import subprocess
import sys

from gradlint import engine

# Three saves by one module, on three lines: their order in GL005's message once followed the
# order of a set of records hashed by node identity. (The module is built and handed activations:
# a module the program never builds may be handed anything, and is not judged.)
SAVES = """\
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.ff = nn.Linear(dim, dim)

    def forward(self, x):
        x = x * 1.0
        h = self.ff(self.norm(x))
        h = self.ff(self.norm(x))
        h = self.ff(self.norm(x))
        x.mul_(0.5)
        return x + h


model = nn.Sequential(nn.Linear(4, 4), M(4))
model(torch.randn(2, 4)).sum().backward()
"""


def test_gl005_names_its_saves_in_source_order():
    for _ in range(20):  # fresh trees, fresh node addresses
        [finding] = [f for f in engine.lint_source(SAVES, "m.py") if f.code == "GL005"]
        assert "`self.norm` (line 13) and `self.norm` (line 14) and `self.norm` (line 15)" in finding.message
        assert [finding.details[f"save{i}_line"] for i in range(3)] == [13, 14, 15]


# A tensor switched to require grad after a value computed from two no_grad regions, then
# backpropagated alone (through the critic, which the step trains, the switch would silence
# nothing): GL003 names one region, once picked by a set's iteration order (the line changed
# from run to run).
REGIONS = """\
import torch
import torch.nn as nn

encoder, decoder, critic = nn.Linear(4, 4), nn.Linear(4, 4), nn.Linear(4, 1)
opt = torch.optim.Adam(critic.parameters())
with torch.no_grad():
    codes = encoder(torch.randn(8, 4))
with torch.no_grad():
    style = decoder(torch.randn(8, 4))
with torch.no_grad():
    target = codes + style
target.requires_grad_()
(target ** 2).mean().backward()
opt.step()
"""


def test_gl003_names_the_last_region_before_the_switch_that_lost_history():
    for _ in range(20):  # fresh trees, fresh node addresses
        [finding] = [f for f in engine.lint_source(REGIONS, "m.py") if f.code == "GL003"]
        assert "(line 8)" in finding.message, finding.message


def test_the_same_program_gives_the_same_output_in_every_process(tmp_path):
    (tmp_path / "m.py").write_text(SAVES)
    outputs = set()
    for seed in ("0", "1", "2", "3", "random"):
        proc = subprocess.run(
            [sys.executable, "-m", "gradlint", "check", "--no-cache", "--output-format", "json", "m.py"],
            cwd=tmp_path, env=dict(os.environ, PYTHONHASHSEED=seed), capture_output=True, text=True,
            timeout=120, stdin=subprocess.DEVNULL)
        assert proc.returncode == 1, proc.stderr
        outputs.add(proc.stdout)
    assert len(outputs) == 1


def test_one_process_a_pool_and_the_cache_print_the_same_bytes(tmp_path, fixture_set):
    import shutil

    shutil.copytree(fixture_set, tmp_path / "fixtures", ignore=shutil.ignore_patterns("*.expected"))
    (tmp_path / "fixtures" / "m.py").write_text(SAVES)
    outputs = []
    for seed, args in (("1", ["--no-cache", "-j", "1"]), ("2", ["--cache-dir", "c", "-j", "2"]),
                       ("3", ["--cache-dir", "c", "-j", "2"])):  # the last one from the cache
        proc = subprocess.run(
            [sys.executable, "-m", "gradlint", "check", *args, "--output-format", "json", "fixtures"],
            cwd=tmp_path, env=dict(os.environ, PYTHONHASHSEED=seed), capture_output=True, text=True,
            timeout=600, stdin=subprocess.DEVNULL)
        assert proc.returncode == 1, proc.stderr[-2000:]
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
