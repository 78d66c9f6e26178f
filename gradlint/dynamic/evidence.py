"""What the run showed about each finding: the tracer's record of it, read by the rules' ``decide``.

What the tracer gathers for a finding depends on the kinds of evidence its rule module names in
``EVIDENCE`` (``KINDS`` below), never on the rule's code: a new rule that needs only these
kinds touches nothing in ``gradlint/dynamic/``.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, field

# What a probe of the finding reads is one of "upstream" and "edits"; the others add to it.
KINDS = {
    "upstream": "a b-probe walks the record from the value it reads to the leaves upstream of it "
                "(every run at first, then every 64th); an a-probe tags its result with that lineage, "
                "and each backward notes which roots the lineage reached",
    "pooled": "with upstream: the lineage an a-probe hands on is every leaf the b-probes saw, not only "
              "the last one's (several .item() calls feed one rebuilt number)",
    "switched": "with upstream: the tensor the b-probe reads becomes a leaf itself (requires_grad_ "
                "switches it on that tensor), so every run is walked and a tensor without grad_fn is "
                "tagged by the b-probe",
    "detached_in_place": "with switched: the tensor the b-probe reads still has its record, which a "
                         "`detach_()` after it removes in place before the switch",
    "history_loss": "an op whose results do not require grad while some of its tensors do (under "
                    "no_grad, a comparison) tags its results with the leaves that influenced them",
    "backward_site": "at each backward call made on the finding's lines, the nodes of the record are "
                     "counted and its roots kept",
    "edits": "a b-probe records the in-place edit about to happen (version, memory, autograd's "
             "sequence number), an a-probe watches the in-place module it is given, and each "
             "backward reads the saved tensors of its record for one the edit made stale",
    "saved_lines": "each node of the record notes the user's line that made it, so that evidence can "
                   "say where a tensor was saved",
    "kept_state": "with backward_site: the finding is about state that keeps each call's graph, which "
                  "the record of the flagged backward does not show",
    "failed_backward": "a backward() that raised for want of history (\"does not require grad\") "
                       "is kept with the user's lines that led to it and the grad mode it ran in, "
                       "even where the program catches the error",
    "rebound": "a b-probe reads the module a name held before it is bound to a new one: the "
               "parameters of it an optimizer holds, and their gradients then, compared at exit",
    "dead_term": "with upstream: the cut value is a term of the loss made of cut values only, so its "
                 "path is missing from the gradient even where the leaves get one by another path",
    "copied_elsewhere": "the tensor's values were copied out of tensors in another file, whose lineage "
                        "the run does not follow to the switch: a tensor seen without leaves upstream "
                        "decides nothing",
}


def kinds_of(rule) -> frozenset:
    """The kinds of evidence a rule module's findings need (its ``EVIDENCE``); none for None."""
    return frozenset(getattr(rule, "EVIDENCE", ()))


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
    """What the run showed about one finding."""

    finding: dict
    kinds: frozenset = frozenset()  # what its rule module needs gathered (KINDS)
    runs: int = 0
    pending: set = field(default_factory=set)  # leaf keys a b-probe saw upstream, for the next a-probe
    last: set = field(default_factory=set)  # what the last walked b-probe saw
    upstream: set = field(default_factory=set)  # every leaf key ever seen upstream
    uses: dict = field(default_factory=dict)  # leaf key -> how the record before the cut used it
    influenced: dict = field(default_factory=dict)  # leaf key -> (root, where, reached from it)
    carried_backwards: int = 0  # backward calls whose roots carried this finding's lineage
    carried_span: tuple = ()  # the first and last of them, as the tracer numbers backward calls
    escaped: bool = False  # its values left the record as Python numbers or an array (`.item()`)
    number: bool = False  # the probed op itself made a Python number of them (`float(x)`)
    # a probe read only Python numbers or an array (no tensor): their lineage is not followed
    opaque: bool = False
    counts: list = field(default_factory=list)  # backward_site: node count at each backward of the site
    # kept_state: at each backward of the site, the nodes of the records the state it names keeps
    kept: list = field(default_factory=list)
    same_root: int = 0  # backward_site: backward calls that started from the previous call's record
    heads: list = field(default_factory=list)  # backward_site: the previous call's root nodes (kept alive)
    # backward_site: calls from a new root whose record reached nodes the previous call's had
    # walked (a tensor recorded before the loop), and the previous call's nodes (kept alive)
    shared: int = 0
    walked: list = field(default_factory=list)
    root: str = "the loss"  # backward_site: the flagged call's root, as the evidence names it
    edits: list = field(default_factory=list)  # edits: what the probes saw (SeenEdit)
    stale: str = ""  # edits: evidence of a saved tensor whose version the edit moved
    checked: bool = False  # edits: a later backward read a record made before the edit
    graph: dict | None = None
    # rebound: (parameter an optimizer holds, its gradient when the name was rebound, backward
    # calls before then) of each module the name held
    rebound: list = field(default_factory=list)
