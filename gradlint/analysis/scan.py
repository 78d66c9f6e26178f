"""Syntactic scans the flow walker starts from: what each class of the module holds and
inherits, which functions run under no_grad, which names a loop carries, which leaves a
function makes on purpose. They read the tree (with ``tree.iter_nodes``) and compute no values.
"""
from __future__ import annotations

import re

import libcst as cst

from gradlint.analysis import saves
from gradlint.analysis.imports import ImportTable, dotted
from gradlint.analysis.tree import iter_nodes, walk_with_ends
from gradlint.analysis.values import ModuleInfo


NOGRAD = {
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
}
SET_GRAD_ENABLED = {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"}
ENABLE_GRAD = {"torch.enable_grad", "torch.autograd.enable_grad"}

# Helpers that detach what they are given: `repackage_hidden(h)`, `detach_state(s)`.
DETACHING_HELPERS = re.compile(r"detach|repackage", re.I)
# Calls whose arguments are looked at, not computed with: a `.grad` read there is no use.
_LOGGING = {"info", "debug", "warning", "log", "write", "add_scalar", "append", "log_dict"}

# Base classes that are not nn.Module: a subclass's attributes are settings, not parameters.
_PLAIN_BASES = {"object", "ABC", "Enum", "IntEnum", "NamedTuple", "TypedDict", "Protocol", "Generic", "dict", "list", "tuple", "str", "int", "float"}
_PLAIN_BASE_SUFFIX = re.compile(r"(Dataset|Sampler|Optimizer|Exception|Error|Warning|Enum|Callback|Logger|Loader|Scheduler|Config|Parser|Meta|Mixin|TestCase|Distribution|Family|Transform|Constraint|DataPipe)$")


class ClassInfo:
    def __init__(self, name: str, bases: list[str]):
        self.name = name
        self.bases = bases
        self.attrs: dict[str, ModuleInfo | None] = {}  # self.x -> module it holds (None: plain value)
        self.literal_attrs: set[str] = set()
        self.nograd_call = False
        self.nograd_methods: set[str] = set()
        self.is_module = False
        self.unseen_base = False  # a base class from another file that may be an nn.Module
        self.buffers: set[str] = set()  # self.x registered with register_buffer: tensors, not trained

    @property
    def may_be_module(self) -> bool:
        """An nn.Module, or a class whose bases this file cannot see (they may be one)."""
        return self.is_module or self.unseen_base


def block_body(block) -> list:
    return list(block.body) if type(block) is cst.IndentedBlock else [cst.SimpleStatementLine(list(block.body))]


def decorated_nograd(node: cst.FunctionDef, imports: ImportTable) -> bool:
    for deco in node.decorators:
        expr = deco.decorator
        target = expr.func if type(expr) is cst.Call else expr
        name = imports.qualname(target)
        if name in NOGRAD:
            return True
        if name in SET_GRAD_ENABLED and type(expr) is cst.Call and literal_false(expr.args[0].value if expr.args else None):
            return True
    return False


def literal_false(expr) -> bool:
    return type(expr) is cst.Name and expr.value == "False"


def literal_true(expr) -> bool:
    return type(expr) is cst.Name and expr.value == "True"


def is_literal(expr) -> bool:
    if type(expr) in (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString):
        return True
    if type(expr) is cst.Name and expr.value in ("True", "False", "None"):
        return True
    if type(expr) is cst.UnaryOperation:
        return is_literal(expr.expression)
    if type(expr) in (cst.Tuple, cst.List):
        return all(type(e) is cst.Element and is_literal(e.value) for e in expr.elements)
    if type(expr) in (cst.Dict, cst.Set):
        return not expr.elements  # an empty cache or registry to fill later
    return False


def trains_locally(node: cst.FunctionDef) -> bool:
    return any(
        type(call) is cst.Call and type(call.func) is cst.Attribute
        and call.func.attr.value in ("backward", "step", "manual_backward")
        for call in iter_nodes(node, into_functions=False))


def scan_classes(module: cst.Module, imports: ImportTable) -> dict[str, ClassInfo]:
    classes: dict[str, ClassInfo] = {}

    def scan(node: cst.ClassDef) -> None:
        info = ClassInfo(node.name.value, [imports.qualname(b.value) or "" for b in node.bases])
        classes[info.name] = info
        for stmt in block_body(node.body):
            if type(stmt) is cst.ClassDef:
                scan(stmt)
            if type(stmt) is not cst.FunctionDef:
                continue
            if decorated_nograd(stmt, imports):
                info.nograd_methods.add(stmt.name.value)
                if stmt.name.value in ("forward", "__call__"):
                    info.nograd_call = True
            if stmt.name.value == "__call__" and _wraps_call_in_nograd(stmt, imports):
                info.nograd_call = True
            if returns_under_nograd(stmt, imports):
                info.nograd_methods.add(stmt.name.value)
            for call in iter_nodes(stmt, into_functions=False):
                if type(call) is cst.Call and type(call.func) is cst.Attribute \
                        and call.func.attr.value == "register_buffer" and call.args \
                        and type(call.args[0].value) is cst.SimpleString:
                    # A buffer is state, not a parameter: nothing trains it.
                    info.buffers.add("self." + call.args[0].value.evaluated_value)
            settings = _setting_params(stmt) if stmt.name.value == "__init__" else set()
            for assign in iter_nodes(stmt, into_functions=False):
                if type(assign) is not cst.Assign:
                    continue
                for target in assign.targets:
                    name = dotted(target.target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        if is_literal(assign.value) or (type(assign.value) is cst.Name and assign.value.value in settings):
                            info.literal_attrs.add(name)
                        else:
                            info.attrs[name] = module_info(assign.value, imports, classes)

    for node in iter_nodes(module):
        if type(node) is cst.ClassDef and node.name.value not in classes:
            scan(node)

    def resolve(info: ClassInfo, seen=()) -> None:
        """Inherit flags along base classes defined in this file."""
        for base in info.bases:
            if base.startswith("torch.nn.") or base in ("nn.Module", "Module") or base.endswith(("LightningModule", ".Module")):
                info.is_module = True
            parent = classes.get(base.split(".")[-1])
            if parent is None:
                plain = not base or base.split(".")[-1] in _PLAIN_BASES or _PLAIN_BASE_SUFFIX.search(base)
                info.unseen_base |= not plain
            elif parent is not info and parent.name not in seen:
                resolve(parent, seen + (info.name,))
                info.nograd_call |= parent.nograd_call
                info.is_module |= parent.is_module
                info.unseen_base |= parent.unseen_base
                for key, value in parent.attrs.items():
                    info.attrs.setdefault(key, value)
    for info in list(classes.values()):
        resolve(info)
    return classes


def _setting_params(init: cst.FunctionDef) -> set[str]:
    """``__init__`` parameters that hold settings, not modules or tensors: a literal default
    (``drop=0.``) or a plain annotation (``dim: int``)."""
    found = set()
    params = init.params
    for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
        annotation = param.annotation.annotation if param.annotation is not None else None
        plain = type(annotation) is cst.Name and annotation.value in ("int", "float", "bool", "str")
        if plain or (param.default is not None and is_literal(param.default) and not (
                type(param.default) is cst.Name and param.default.value == "None")):
            found.add(param.name.value)
    return found


def frozen_owners(module: cst.Module) -> set[str]:
    """What the module freezes: ``X`` of ``X.requires_grad_(False)`` and of
    ``for p in X.parameters(): p.requires_grad = False``, as written (``self.backbone``)."""
    found: set[str] = set()
    for node in iter_nodes(module):
        if type(node) is cst.Call and type(node.func) is cst.Attribute \
                and node.func.attr.value == "requires_grad_" and node.args and literal_false(node.args[0].value):
            owner = dotted(node.func.value)
            if owner:
                found.add(owner)
        elif type(node) is cst.Assign and _frozen_on_the_way_in(node.value):
            # self.backbone = backbone.requires_grad_(False): the attribute holds it frozen
            for target in node.targets:
                owner = dotted(target.target)
                if owner:
                    found.add(owner)
        elif type(node) is cst.For:
            owners = _parameter_owners(node)
            for n in iter_nodes(node.body):
                if type(n) is cst.Assign and literal_false(n.value) \
                        and type(n.targets[0].target) is cst.Attribute \
                        and n.targets[0].target.attr.value == "requires_grad":
                    owner = owners.get(dotted(n.targets[0].target.value) or "")
                    if owner:
                        found.add(owner)
    return found


def _frozen_on_the_way_in(expr) -> bool:
    """``backbone.requires_grad_(False)`` (also after ``.eval()``/``.to(...)``) as an assigned value."""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute:
        if expr.func.attr.value == "requires_grad_" and expr.args and literal_false(expr.args[0].value):
            return True
        if expr.func.attr.value not in ("eval", "to", "cuda", "cpu", "float", "half"):
            return False
        expr = expr.func.value
    return False


def _parameter_owners(loop: cst.For) -> dict[str, str]:
    """Loop variable -> the module whose parameters it walks: ``for p in m.parameters()``, and
    ``for q, k in zip(a.parameters(), b.parameters())`` (q -> a, k -> b)."""
    def owner(call) -> str | None:
        if type(call) is cst.Call and type(call.func) is cst.Attribute \
                and call.func.attr.value in ("parameters", "named_parameters"):
            return dotted(call.func.value)
        return None

    target, iterable = loop.target, loop.iter
    if type(target) is cst.Name and owner(iterable):
        return {target.value: owner(iterable)}
    if type(iterable) is cst.Call and type(iterable.func) is cst.Name and iterable.func.value == "zip" \
            and type(target) in (cst.Tuple, cst.List):
        pairs = zip((e.value for e in target.elements), (a.value for a in iterable.args))
        return {t.value: owner(a) for t, a in pairs if type(t) is cst.Name and owner(a)}
    return {}


def nograd_only_callees(module: cst.Module, imports: ImportTable, names: set[str]) -> set[str]:
    """Module-level functions (of ``names``) that are called, and only ever called, under
    no_grad: from a decorated function or inside a ``with torch.no_grad():`` block."""
    if not names or not mentions_grad_mode(module):
        return set()  # no call can be under no_grad
    calls: dict[str, list[bool]] = {}
    nodes, ends = walk_with_ends(module)
    # (where it ends, whether under no_grad): a def sets the context of its subtree (decorated or
    # not), a no_grad block sets it on; the innermost one holds.
    contexts = [(len(nodes), False)]
    for at, node in enumerate(nodes):
        while contexts[-1][0] <= at:
            contexts.pop()
        kind = type(node)
        if kind is cst.FunctionDef:
            contexts.append((ends[at], decorated_nograd(node, imports)))
        elif kind is cst.With and any(
                imports.qualname(i.item.func if type(i.item) is cst.Call else i.item) in NOGRAD
                for i in node.items):
            contexts.append((ends[at], True))
        elif kind is cst.Call and type(node.func) is cst.Name and node.func.value in names:
            calls.setdefault(node.func.value, []).append(contexts[-1][1])
    return {name for name, contexts in calls.items() if all(contexts)}


# The last names of NOGRAD and SET_GRAD_ENABLED: a module naming none of them has no no_grad region.
_GRAD_MODE_NAMES = frozenset({"no_grad", "inference_mode", "set_grad_enabled"})


def mentions_grad_mode(module: cst.Module) -> bool:
    """Whether the module names no_grad, inference_mode or set_grad_enabled anywhere (in an
    import, a decorator, a ``with``): without one, nothing in it runs under no_grad."""
    return any(type(node) is cst.Name and node.value in _GRAD_MODE_NAMES for node in iter_nodes(module))


def returns_under_nograd(node: cst.FunctionDef, imports: ImportTable) -> bool:
    """Every ``return`` of the function is inside a ``with torch.no_grad():`` block (or the
    function is decorated): what it returns has no history."""
    if decorated_nograd(node, imports):
        return True
    if not any(type(child) is cst.With for child in iter_nodes(node, into_functions=False)):
        return False  # (the common case, read without the passes below)
    inside: set[int] = set()  # returns and assignments inside a no_grad block
    returns, bound_outside = [], set()
    for child in iter_nodes(node, into_functions=False):
        if type(child) is cst.With and any(
                imports.qualname(i.item.func if type(i.item) is cst.Call else i.item) in NOGRAD
                for i in child.items):
            inside.update(id(n) for n in iter_nodes(child, into_functions=False)
                          if type(n) in (cst.Return, cst.Assign))
        elif type(child) is cst.Return and child.value is not None:
            returns.append(child)
    for child in iter_nodes(node, into_functions=False):
        if type(child) is cst.Assign and id(child) not in inside:
            bound_outside |= {t.target.value for t in child.targets if type(t.target) is cst.Name}
    bound_inside = {t.target.value for child in iter_nodes(node, into_functions=False)
                    if type(child) is cst.Assign and id(child) in inside
                    for t in child.targets if type(t.target) is cst.Name}

    def nograd_return(ret: cst.Return) -> bool:
        # `with torch.no_grad(): logits = policy(obs)` and then `return logits` after the block
        name = ret.value.value if type(ret.value) is cst.Name else None
        return id(ret) in inside or (name in bound_inside and name not in bound_outside)

    return bool(returns) and all(nograd_return(r) for r in returns)


def _wraps_call_in_nograd(node: cst.FunctionDef, imports: ImportTable) -> bool:
    for with_node in iter_nodes(node, into_functions=False):
        if type(with_node) is cst.With:
            for item in with_node.items:
                call = item.item
                target = call.func if type(call) is cst.Call else call
                if imports.qualname(target) in NOGRAD:
                    return True
    return False


def module_info(expr: cst.BaseExpression, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """What module a constructor call makes: ``nn.Conv2d(…)``, ``nn.ReLU(inplace=True)``, ``nn.Sequential(…)``."""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute and expr.func.attr.value in ("to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_"):
        expr = expr.func.value
    if type(expr) is not cst.Call:
        return None
    name = imports.qualname(expr.func)
    if name is None:
        return None
    inplace = any(a.keyword is not None and a.keyword.value == "inplace" and literal_true(a.value) for a in expr.args)
    at = saves.inplace_argument(name)
    positional = [a.value for a in expr.args if a.keyword is None and not a.star]
    inplace = inplace or (at is not None and len(positional) > at and literal_true(positional[at]))  # nn.ReLU(True)
    if name.startswith("torch.nn.") and name.split(".")[-1][:1].isupper():
        if name == "torch.nn.Sequential":
            return _sequential_info(expr, imports, classes)
        data = saves.module_saves(name)
        if data is None:
            return ModuleInfo(name, inplace=inplace, parameters=not name.endswith("Loss"))
        inplace = inplace and data.inplace_kwarg
        return ModuleInfo(name, inplace=inplace, saves_input=data.input and not inplace,
                          saves_output=data.inplace_output if inplace else data.output,
                          parameters=data.parameters)
    cls = classes.get(name)
    if cls is not None:
        return ModuleInfo(name, nograd_call=cls.nograd_call)
    return None


def _sequential_info(call: cst.Call, imports: ImportTable, classes: dict) -> ModuleInfo:
    items = [module_info(a.value, imports, classes) for a in call.args if a.keyword is None and not a.star]
    if not items:
        return ModuleInfo("torch.nn.Sequential")
    first, last = items[0], items[-1]
    return ModuleInfo(
        "torch.nn.Sequential",
        saves_input=first.saves_input if first is not None else None,
        saves_output=last.saves_output if last is not None else None,
        parameters=any(item is None or item.parameters for item in items),
    )


def is_fresh_copy(expr) -> bool:
    """``x.detach().clone()``, ``x.data.clone()``: a copy made to be a new leaf on purpose."""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute:
        if expr.func.attr.value in ("detach", "clone"):
            return True
        expr = expr.func.value
    return type(expr) is cst.Attribute and expr.attr.value == "data"


def assigned_and_carried(loop) -> tuple[set[str], set[str]]:
    """Names a loop body binds, and those it reads before binding them in the same iteration."""
    carried: set[str] = set()

    def reads(node) -> set[str]:
        found: set[str] = set()
        if node is None:
            return found
        for child in iter_nodes(node, into_functions=False):
            if type(child) is cst.Name:
                found.add(child.value)
            elif type(child) is cst.Attribute:
                name = dotted(child)
                if name is not None and name.startswith("self."):
                    found.add(".".join(name.split(".")[:2]))
        return found

    def writes(target) -> set[str]:
        out: set[str] = set()
        if type(target) is cst.Name:
            out.add(target.value)
        elif type(target) is cst.Attribute:
            name = dotted(target)
            if name is not None and name.startswith("self.") and name.count(".") == 1:
                out.add(name)
        elif type(target) in (cst.Tuple, cst.List):
            for element in target.elements:
                out |= writes(element.value)
        elif type(target) is cst.StarredElement:
            out |= writes(target.value)
        return out

    order: list[tuple[set[str], set[str]]] = []

    def statement(stmt) -> None:
        if type(stmt) is cst.SimpleStatementLine:
            for small in stmt.body:
                if type(small) is cst.Assign:
                    order.append((reads(small.value), set().union(*(writes(t.target) for t in small.targets))))
                elif type(small) is cst.AnnAssign:
                    order.append((reads(small.value), writes(small.target)))
                elif type(small) is cst.AugAssign:
                    names = writes(small.target)
                    order.append((reads(small.value) | names, names))
                else:
                    order.append((reads(small), set()))
        elif type(stmt) is cst.For:
            order.append((reads(stmt.iter), writes(stmt.target)))
            for inner in block_body(stmt.body):
                statement(inner)
        elif type(stmt) in (cst.If, cst.While):
            order.append((reads(stmt.test), set()))
            for inner in block_body(stmt.body):
                statement(inner)
            orelse = stmt.orelse
            while orelse is not None:
                if type(orelse) is cst.If:
                    order.append((reads(orelse.test), set()))
                    for inner in block_body(orelse.body):
                        statement(inner)
                    orelse = orelse.orelse
                else:
                    for inner in block_body(orelse.body):
                        statement(inner)
                    orelse = None
        elif type(stmt) is cst.With:
            for item in stmt.items:
                order.append((reads(item.item), writes(item.asname.name) if item.asname else set()))
            for inner in block_body(stmt.body):
                statement(inner)
        elif type(stmt) in (cst.Try, cst.TryStar):
            for inner in block_body(stmt.body):
                statement(inner)
            for handler in stmt.handlers:
                for inner in block_body(handler.body):
                    statement(inner)

    if type(loop) is cst.For:
        order.append((set(), writes(loop.target)))
    for stmt in block_body(loop.body):
        statement(stmt)
    every_write = set().union(*(w for _, w in order)) if order else set()
    seen: set[str] = set()
    for read, write in order:
        carried |= (read & every_write) - seen
        seen |= write
    return every_write, carried


def detached_in(loop) -> set[str]:
    """Names the loop body rebinds to a detached copy of themselves or detaches in place."""
    found: set[str] = set()
    for node in iter_nodes(loop.body, into_functions=False):
        if type(node) is cst.Assign:
            value = node.value
            cuts = any(
                (type(n) is cst.Call and type(n.func) is cst.Attribute and n.func.attr.value == "detach")
                or (type(n) is cst.Attribute and n.attr.value == "data")
                or (type(n) is cst.Call and type(n.func) is cst.Name and DETACHING_HELPERS.search(n.func.value))
                for n in iter_nodes(value))
            if cuts:
                for target in node.targets:
                    for n in iter_nodes(target.target):
                        name = dotted(n) if type(n) in (cst.Name, cst.Attribute) else None
                        if name:
                            found.add(name)
        elif type(node) is cst.Call and type(node.func) is cst.Attribute and node.func.attr.value == "detach_":
            name = dotted(node.func.value)
            if name:
                found.add(name)
    return found


def intended_leaves(node: cst.FunctionDef | cst.Module, imports: ImportTable) -> set[str]:
    """Names a function differentiates against (``autograd.grad(out, [x])``) or whose ``.grad``
    it computes with: a leaf made there on purpose (WGAN-GP interpolates, adversarial inputs)."""
    found: set[str] = set()

    def names_in(expr) -> None:
        if type(expr) is cst.Name:
            found.add(expr.value)
        elif type(expr) in (cst.List, cst.Tuple):
            for element in expr.elements:
                names_in(element.value)
        elif type(expr) is cst.Dict:  # a param group: {"params": [centers], "lr": …}
            for element in expr.elements:
                if type(element) is cst.DictElement:
                    names_in(element.value)
        elif expr is not None:
            name = dotted(expr)
            if name:
                found.add(name)

    logged: set[int] = set()  # nodes inside print()/logging calls: a .grad read there is a look
    for node_ in iter_nodes(node, into_functions=False):
        if type(node_) is not cst.Call:
            continue
        func = node_.func
        if (type(func) is cst.Name and func.value == "print") or (
                type(func) is cst.Attribute and func.attr.value in _LOGGING):
            logged.update(id(n) for arg in node_.args for n in iter_nodes(arg))
        elif (imports.qualname(func) or "").startswith("torch.optim.") or (
                type(func) is cst.Attribute and func.attr.value == "add_param_group"):
            for arg in node_.args:  # a tensor handed to an optimizer is the thing being solved for
                names_in(arg.value)
        elif imports.qualname(func) == "torch.autograd.grad":
            positional = [a.value for a in node_.args if a.keyword is None]
            keywords = {a.keyword.value: a.value for a in node_.args if a.keyword is not None}
            names_in(keywords.get("inputs", positional[1] if len(positional) > 1 else None))
    for check in iter_nodes(node, into_functions=False):
        if type(check) is cst.Assert:  # `assert x.grad is not None` only looks
            logged.update(id(n) for n in iter_nodes(check))
    for attr in iter_nodes(node, into_functions=False):
        if type(attr) is cst.Attribute and attr.attr.value == "grad" and id(attr) not in logged:
            name = dotted(attr.value)
            if name:
                found.add(name)
    return found
