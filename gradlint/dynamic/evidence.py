"""What the run showed about each finding: the tracer's record of it, read by the rules' ``decide``."""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field


@dataclass
class SeenEdit:
    """An in-place edit a probe saw about to happen."""

    tensor: weakref.ref
    sizes: frozenset  # numel of the tensor and of its base: a saved view of it may be transposed
    storage: int  # data_ptr of its storage: a `.data` alias dies at once, its memory does not
    version: int  # before the edit
    clock: int  # autograd's sequence number then: nodes numbered below were recorded before it
    after_backwards: int  # backward calls before it
    label: str  # how the evidence names the edited tensor



@dataclass
class Evidence:
    """What the run showed about one evidence."""

    finding: dict
    runs: int = 0
    pending: set = field(default_factory=set)  # leaf keys a b-probe saw upstream, for the next a-probe
    last: set = field(default_factory=set)  # what the last walked b-probe saw
    upstream: set = field(default_factory=set)  # every leaf key ever seen upstream
    uses: dict = field(default_factory=dict)  # leaf key -> how the record before the cut used it
    influenced: dict = field(default_factory=dict)  # leaf key -> (root, where, reached from it)
    carried_backwards: int = 0  # backward calls whose roots carried this finding's lineage
    counts: list = field(default_factory=list)  # GL004: node count at each backward of the site
    same_root: int = 0  # GL004: backward calls that started from the previous call's record
    heads: list = field(default_factory=list)  # GL004: the previous call's root nodes (kept alive)
    root: str = "the loss"  # GL004: the flagged call's root, as the evidence names it
    edits: list = field(default_factory=list)  # GL005
    stale: str = ""  # GL005: evidence of a saved tensor whose version the edit moved
    checked: bool = False  # GL005: a later backward read a record made before the edit
    graph: dict | None = None
