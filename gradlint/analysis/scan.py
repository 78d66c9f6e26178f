"""Syntactic scans the flow walker starts from: what each class of the module holds and
inherits, which functions run under no_grad, which names a loop carries, which leaves a
function makes on purpose. They read the tree (with ``tree.iter_nodes``) and compute no values.
"""
from __future__ import annotations

import ast
import copy
from dataclasses import replace

from gradlint.analysis import saves
from gradlint.analysis.imports import ImportTable, dotted
from gradlint.analysis.settings import defaults_of
from gradlint.analysis.tree import enclosing, iter_nodes, once, statements, walk_with_ends
from gradlint.analysis.values import ModuleInfo


NOGRAD = {
    "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad",
    "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
}
INFERENCE_MODE = {"torch.inference_mode", "torch.autograd.grad_mode.inference_mode"}  # (of NOGRAD)
SET_GRAD_ENABLED = {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled"}
ENABLE_GRAD = {"torch.enable_grad", "torch.autograd.enable_grad"}

# Calls whose arguments are looked at, not computed with: a `.grad` read there is no use.
_LOGGING = {"info", "debug", "warning", "log", "write", "add_scalar", "append", "log_dict"}

# Base classes that are not nn.Module: a subclass's attributes are settings, not parameters.
_PLAIN_BASES = {"object", "ABC", "Enum", "IntEnum", "NamedTuple", "TypedDict", "Protocol", "Generic", "dict", "list", "tuple", "str", "int", "float"}
# A class whose base this file cannot see is taken for a module by what its body does
# (``acts_as_module``), not by the words of its base's name.
_CONTAINER_PROTOCOL = {"__getitem__", "__len__", "__iter__", "__next__"}

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_FORS = (ast.For, ast.AsyncFor)
_WITHS = (ast.With, ast.AsyncWith)
_TRIES = (ast.Try, getattr(ast, "TryStar", ast.Try))


class ClassInfo:
    def __init__(self, name: str, bases: list[str]):
        self.name = name
        self.bases = bases
        self.attrs: dict[str, ModuleInfo | None] = {}  # self.x -> module it holds (None: plain value)
        self.literal_attrs: set[str] = set()
        # self.x that __init__ sets True as the class is built by default (`self.inplace = inplace`
        # of `inplace=True`)
        self.true_attrs: set[str] = set()
        self.nograd_call = False
        self.nograd_region = None  # the decorator that runs its forward under no_grad, where one does
        self.nograd_methods: set[str] = set()
        self.is_module = False
        self.unseen_base = False  # a base class from another file that may be an nn.Module
        self.buffers: set[str] = set()  # self.x registered with register_buffer: tensors, not trained
        # self.x every assignment binds to a function itself (`F.softplus`, `kaldi.fbank`): no parameter
        self.functions: set[str] = set()
        self.acts_as_module = False  # its body does what a module's does (acts_as_module)
        # self.x -> what the methods walked so far assign it, joined (the flow walker fills it,
        # walking __init__ first when an attribute is looked up before it was: ``init``)
        self.assigned: dict = {}
        # self.opt -> what the optimizer built there updates (``Walker.coverage``), as the walks
        # of its methods found it: a summary reads which members a method's step updates
        self.optimizers: dict = {}
        self.init: ast.AST | None = None  # its __init__
        self.init_walked = False
        self.walked: set = set()  # the attributes the walk of the file has assigned
        self.settings: set[str] = set()  # self.x set from an __init__ argument, read as a number (_settings)
        self.methods: set[str] = set()  # the methods its body defines (``self.poly_kernel``: no submodule)
        self.properties: set[str] = set()  # of them, those read as attributes (``@property``)
        self.node: ast.ClassDef | None = None
        self.filled: set[str] = set()  # the buffers (``self.memory``) whose filling methods were walked
        self.stored: set[str] = set()  # the attributes whose methods storing a cut value were walked
        # its instances may hold parameters; False for a module of torch.nn.Module whose methods
        # register none (a memory bank of buffers, a loss): calling one trains nothing
        self.parameters = True

    @property
    def may_be_module(self) -> bool:
        """An nn.Module, or a class whose bases this file cannot see (they may be one)."""
        return self.is_module or self.unseen_base


def first_argument(call: ast.Call) -> ast.expr | None:
    """The value of a call's first argument as written, positional or keyword (``f(x=False)``
    gives ``False``; ``*a`` and ``**k`` give ``a`` and ``k``). ``ast`` lists keywords apart from
    positionals, so the two heads are ordered by position."""
    args, keywords = call.args, call.keywords
    if args and (not keywords or (args[0].lineno, args[0].col_offset) < (keywords[0].lineno, keywords[0].col_offset)):
        first = args[0]
        return first.value if type(first) is ast.Starred else first
    return keywords[0].value if keywords else None


def _argument_values(call: ast.Call) -> list[ast.expr]:
    """Every argument's value (``*a``/``**k`` give ``a``/``k``): positionals, then keywords."""
    return [a.value if type(a) is ast.Starred else a for a in call.args] + [k.value for k in call.keywords]


def decorated_nograd(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> bool:
    return nograd_decorator(node, imports) is not None


def nograd_decorator(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> ast.expr | None:
    """The decorator that runs the function under no_grad (``@torch.no_grad()``), if one does."""
    for expr in node.decorator_list:
        target = expr.func if type(expr) is ast.Call else expr
        name = imports.qualname(target)
        if name in NOGRAD:
            return expr
        if name in SET_GRAD_ENABLED and type(expr) is ast.Call and literal_false(first_argument(expr)):
            return expr
        if name is not None and not name.startswith("torch.") and _project_nograd(name, imports):
            return expr
    return None


def _project_nograd(name: str, imports: ImportTable) -> bool:
    """Whether ``name`` is a function of this file or the project's that runs what it decorates
    under no_grad: a factory returning ``torch.inference_mode()(fn)`` (yolov5's
    ``smart_inference_mode``), or a wrapper calling it in a ``with torch.no_grad():``."""
    found = None
    if "." not in name and name in imports.defined:
        found = imports.defined[name], imports
    elif imports.project is not None:
        where = imports.target(name)
        loaded = imports.project.load(*where) if where is not None else None
        if loaded is not None and len(loaded[1]) == 1:
            module, (attr,) = loaded
            node = module.imports.defined.get(attr)
            if node is not None:
                found = node, module.imports
    return found is not None and once("nograd-wrapper", found[0], _wraps_nograd, found[1])


def _wraps_nograd(node, imports: ImportTable) -> bool:
    for child in iter_nodes(node):
        kind = type(child)
        if kind is ast.Return and child.value is not None:
            if any(type(n) in (ast.Name, ast.Attribute) and imports.qualname(n) in NOGRAD
                   for n in ast.walk(child.value)):
                return True  # `return torch.inference_mode()(fn)`
        elif kind is ast.Call and type(child.func) is ast.Call and child.args and (
                imports.qualname(child.func.func) in NOGRAD):
            return True  # `wrapped = torch.inference_mode()(fn)`, returned wrapped again
        elif kind in _WITHS and child is not node and any(opens_nograd(i.context_expr, imports) for i in child.items) \
                and any(type(f) in _FUNCTIONS and f is not node for f in iter_nodes(node)):
            return True  # a wrapper it defines runs the function inside `with torch.no_grad():`
    return False


def literal_false(expr) -> bool:
    return type(expr) is ast.Constant and expr.value is False


def literal_true(expr) -> bool:
    return type(expr) is ast.Constant and expr.value is True


def is_literal(expr) -> bool:
    kind = type(expr)
    if kind is ast.Constant:
        return expr.value is not Ellipsis  # `...` is a placeholder, not a setting
    if kind is ast.JoinedStr:
        return True
    if kind is ast.UnaryOp:
        return is_literal(expr.operand)
    if kind in (ast.Tuple, ast.List):
        return all(is_literal(e) for e in expr.elts)  # a `*x` element is never a literal
    if kind is ast.Dict:
        return not expr.keys  # an empty cache or registry to fill later
    if kind is ast.Set:
        return not expr.elts
    return False


def trains_locally(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """It calls backward() or an optimizer's step() itself, or a function it defines and calls
    does (an attack's `get_adv_examples(x)` inside its `forward`)."""
    called, inner = set(), []
    for child in iter_nodes(node, into_functions=False):
        kind = type(child)
        if kind is ast.Call:
            func = child.func
            if type(func) is ast.Attribute and (func.attr in ("backward", "manual_backward") or (
                    # (an optimizer's step takes at most a closure: a beam search's
                    # `self.search.step(step, lprobs, scores)` is none)
                    func.attr == "step" and len(child.args) + len(child.keywords) <= 1)):
                return True
            if type(func) is ast.Name:
                called.add(func.id)
        elif (kind is ast.FunctionDef or kind is ast.AsyncFunctionDef) and child is not node:
            inner.append(child)
    return any(fn.name in called and trains_locally(fn) for fn in inner)


def scan_classes(module: ast.Module, imports: ImportTable) -> dict[str, ClassInfo]:
    classes: dict[str, ClassInfo] = {}

    def scan(node: ast.ClassDef) -> None:
        # (`class BetaHLoss(object):` is `class BetaHLoss:`, a plain class, in Python 3)
        info = ClassInfo(node.name, [
            imports.qualname(b.value if type(b) is ast.Starred else b) or "" for b in node.bases
            if not (type(b) is ast.Name and b.id == "object" and "object" not in imports.names)])
        classes[info.name] = info
        info.node = node
        info.acts_as_module = acts_as_module(node)
        references: dict = {}  # self.x -> whether every assignment binds a function itself
        for stmt in node.body:
            if type(stmt) is ast.ClassDef:
                scan(stmt)
            if type(stmt) not in _FUNCTIONS:
                continue
            info.methods.add(stmt.name)
            if any(type(d) is ast.Name and d.id == "property" for d in stmt.decorator_list):
                info.properties.add(stmt.name)
            decorator = nograd_decorator(stmt, imports)
            if decorator is not None:
                info.nograd_methods.add(stmt.name)
                if stmt.name in ("forward", "__call__"):
                    info.nograd_call = True
                    info.nograd_region = decorator
            if stmt.name == "__call__" and _wraps_call_in_nograd(stmt, imports):
                info.nograd_call = True
            if returns_under_nograd(stmt, imports):
                info.nograd_methods.add(stmt.name)
            for call in iter_nodes(stmt, into_functions=False):
                if type(call) is ast.Call and type(call.func) is ast.Attribute \
                        and call.func.attr == "register_buffer":
                    first = first_argument(call)
                    if type(first) is ast.Constant and type(first.value) is str:
                        # A buffer is state, not a parameter: nothing trains it.
                        info.buffers.add("self." + first.value)
            if stmt.name == "__init__":
                info.init = stmt
            settings = _setting_params(stmt) if stmt.name == "__init__" else set()
            flags = _true_flags(stmt, node.name, module) if stmt.name == "__init__" else set()
            named = _named_defaults(stmt, node.name, module, imports) if stmt.name == "__init__" else {}
            for assign in iter_nodes(stmt, into_functions=False):
                if type(assign) is ast.Call and stmt.name == "__init__" and type(assign.func) is ast.Attribute \
                        and assign.func.attr == "append" and len(assign.args) == 1:
                    held = dotted(assign.func.value)  # `self.blocks.append(Block(d))`
                    if held and held.startswith("self.") and held.count(".") == 1:
                        appended.append((info, held, assign.args[0]))
                    continue
                if type(assign) is not ast.Assign:
                    continue
                pairs = [(target, assign.value) for target in assign.targets]
                for target, value in list(pairs):
                    # `self.q_a, self.q_b = mlp(…), mlp(…)`: each element its own attribute
                    if type(target) is ast.Tuple and type(value) is ast.Tuple and len(target.elts) == len(value.elts) \
                            and not any(type(e) is ast.Starred for e in (*target.elts, *value.elts)):
                        pairs += list(zip(target.elts, value.elts))
                for target, value in pairs:
                    name = dotted(target)
                    if name and name.startswith("self.") and name.count(".") == 1:
                        references[name] = references.get(name, True) and _function_reference(value, imports)
                        if literal_true(value) or (type(value) is ast.Name and value.id in flags):
                            info.true_attrs.add(name)
                        if is_literal(value) or (type(value) is ast.Name and value.id in settings):
                            info.literal_attrs.add(name)
                        else:
                            value = _with_flags(_with_locals(_with_defaults(value, named), stmt, flags), flags, imports)
                            info.attrs[name] = module_info(value, imports, classes) \
                                or _factory_module(value, imports, classes)
                            if type(value) is ast.Call and (info.attrs[name] is None or (
                                    info.attrs[name].qualname == "torch.nn.ModuleList" and info.attrs[name].items is None)):
                                later.append((info, name, value))  # a class defined further down
        info.settings = _settings(node, info.init)
        info.functions = {name for name, only in references.items() if only}

    later: list = []
    appended: list = []
    for node in statements(module):  # (classes are statements: no expression need be walked)
        if type(node) is ast.ClassDef and node.name not in classes:
            scan(node)
    for info, name, value in later:
        held = info.attrs.get(name)
        if held is None or held.items is None:
            info.attrs[name] = module_info(value, imports, classes) or held
    _fill_module_lists(appended, later, imports, classes)

    def resolve(info: ClassInfo, seen=()) -> None:
        """Inherit flags along base classes defined in this file."""
        for base in info.bases:
            if base.startswith("torch.nn.") or base in ("nn.Module", "Module") or base.endswith(("LightningModule", ".Module")):
                info.is_module = True
            parent = classes.get(base.split(".")[-1])
            if parent is None:
                # torch's own classes outside torch.nn (Dataset, Optimizer, Function,
                # Distribution) are not modules; another file's class is one if this class
                # acts like a module.
                plain = not base or base.split(".")[-1] in _PLAIN_BASES or (
                    base.startswith("torch.") and not base.startswith("torch.nn.")) or not info.acts_as_module
                info.unseen_base |= not plain
            elif parent is not info and parent.name not in seen:
                resolve(parent, seen + (info.name,))
                info.nograd_call |= parent.nograd_call
                info.nograd_region = info.nograd_region or parent.nograd_region
                info.is_module |= parent.is_module
                info.unseen_base |= parent.unseen_base
                for key, value in parent.attrs.items():
                    info.attrs.setdefault(key, value)
                # (`self.smoothing` a base class's `__init__` sets from a number is one in
                # every subclass that does not bind it to a module of its own)
                # (not one the base only stores and a subclass calls: `self.policy = policy` in an
                # algorithm's base, `self.policy(obs)` in the subclass)
                info.settings |= {k for k in parent.settings if info.attrs.get(k) is None
                                  and (info.node is None or _read_as_number_only(info.node, k))}
                info.literal_attrs |= {k for k in parent.literal_attrs if info.attrs.get(k) is None}
                info.true_attrs |= {k for k in parent.true_attrs if info.attrs.get(k) is None}
                info.properties |= parent.properties - info.methods
    for info in list(classes.values()):
        resolve(info)
    _find_parameterless(classes, imports)
    # A nested function that calls itself is a cycle (it holds its own cell), and this one holds
    # the classes and their trees: unlinked, they go when the lint ends, without a collection.
    del scan, resolve
    return classes


# What registers a parameter or a submodule with a module other than an attribute assignment.
_REGISTERS = {"register_parameter", "add_module", "register_module", "setattr", "__setattr__",
              "load_state_dict", "Parameter", "ParameterList", "ParameterDict", "UninitializedParameter"}
# Calls whose result is no module and holds no parameter: Python's own, and torch's functions.
_DATA_CALLS = {"int", "float", "bool", "str", "len", "tuple", "list", "dict", "set", "range", "min", "max",
               "abs", "round", "sorted", "sum", "isinstance", "getattr", "hasattr", "zip", "enumerate"}
_MODULE_BASES = {"torch.nn.Module", "torch.nn.modules.module.Module"}


def _function_reference(expr, imports) -> bool:
    """`F.softplus`, `torchaudio.compliance.kaldi.fbank`, a `def` of the file: a function itself,
    not called (a module's class is capitalised, `nn.Linear`), which holds no parameter."""
    if type(expr) is ast.IfExp:
        return _function_reference(expr.body, imports) and _function_reference(expr.orelse, imports)
    if type(expr) is ast.Name:
        full = imports.names.get(expr.id)
        return expr.id in imports.defined or (full is not None and "." in full
                                               and full.rpartition(".")[2][:1].islower())
    if type(expr) is ast.Attribute:
        name = dotted(expr)
        return name is not None and name.partition(".")[0] in imports.names and expr.attr[:1].islower()
    return False


def _find_parameterless(classes: dict, imports: ImportTable) -> None:
    """``ClassInfo.parameters`` = False for each ``nn.Module`` of the file that can hold no
    parameter: its bases are ``nn.Module`` or such classes of the file, nothing in its methods
    registers one (``nn.Parameter``, ``register_parameter``, ``add_module``, ``setattr``), and each
    attribute it assigns holds a module of torch without parameters, such a class of the file, or
    data: a literal, a number or tuple computed from its arguments' literal defaults, a tensor
    torch makes, a buffer. An attribute set from an argument without a literal default (a model
    handed in) or from a call this file cannot see may hold a model: the class then may too."""
    deciding: set[str] = set()
    decided: dict[str, bool] = {}

    def free(info: ClassInfo) -> bool:
        if info.name in decided:
            return decided[info.name]
        if info.name in deciding:
            return False  # (a class built from itself)
        deciding.add(info.name)
        try:
            result = _parameterless(info, imports, classes, free)
        finally:
            deciding.discard(info.name)
        decided[info.name] = result
        info.parameters = not result
        return result

    for info in classes.values():
        free(info)
    del free  # (it calls itself: a cycle, as in ``scan_classes``)
    for info in classes.values():  # the attributes that hold one are no trainables
        for name, held in list(info.attrs.items()):
            owner = classes.get(held.qualname) if held is not None else None
            if owner is not None and held.parameters and not owner.parameters:
                info.attrs[name] = replace(held, parameters=False)


def _kept_frozen(call: ast.Call, cls: ast.ClassDef) -> bool:
    """``nn.Parameter(w, requires_grad=False)`` in a class that never switches requires_grad
    back on: a codebook an EMA updates, a fixed table; it holds nothing an optimizer trains."""
    return _frozen_parameter(call) and not any(
        (type(n) is ast.Attribute and n.attr == "requires_grad" and type(n.ctx) is ast.Store)
        or (type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "requires_grad_")
        for n in ast.walk(cls))


def _parameterless(info: ClassInfo, imports: ImportTable, classes: dict, free) -> bool:
    if not info.is_module or info.node is None or not info.bases:
        return False
    for base in info.bases:
        own = classes.get(base.split(".")[-1])
        if base not in _MODULE_BASES and (own is None or own is info or not free(own)):
            return False
    for held in info.attrs.values():  # (most modules: a layer with weights, known without a walk)
        if held is not None and held.parameters and held.qualname not in classes \
                and not held.qualname.endswith(".Parameter"):  # (a Parameter call: judged where it is made, below)
            return False
    for stmt in info.node.body:
        if type(stmt) not in _FUNCTIONS:
            continue
        args = stmt.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([p.arg for p in positional][len(positional) - len(args.defaults):], args.defaults))
        defaults.update((p.arg, d) for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
        params = {p.arg for p in [*positional, *args.kwonlyargs]}
        local: dict[str, list] = {}
        assigns = []
        for node in iter_nodes(stmt, into_functions=False):
            kind = type(node)
            if kind is ast.Call:
                func = node.func
                called = func.attr if type(func) is ast.Attribute else func.id if type(func) is ast.Name else ""
                if called in _REGISTERS and not (called == "Parameter" and _kept_frozen(node, info.node)):
                    return False
            elif kind in (ast.Assign, ast.AnnAssign):
                targets = node.targets if kind is ast.Assign else [node.target]
                for target in targets:
                    if type(target) is ast.Name and node.value is not None:
                        local.setdefault(target.id, []).append(node.value)
                    elif node.value is not None:
                        assigns.append((target, node.value))
            elif kind is ast.AugAssign or kind in (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.NamedExpr):
                for target in ([node.target] if kind is not ast.With and kind is not ast.AsyncWith
                               else [item.optional_vars for item in node.items if item.optional_vars is not None]):
                    if type(target) is ast.Name:
                        local.setdefault(target.id, []).append(None)  # (bound in a way not followed)

        # (`num_tokens: int`: annotated as a plain value, a setting like a literal default)
        local[_PLAIN_PARAMS] = [p.arg for p in [*positional, *args.kwonlyargs]
                                if type(p.annotation) is ast.Name and p.annotation.id in ("int", "float", "bool", "str")]
        local[_BUFFERS] = info.buffers
        scope = (params, defaults, local, imports, classes)
        for target, value in assigns:
            name = dotted(target)
            if not (name and name.startswith("self.")):
                continue  # (an item of a local container, an attribute of another object)
            if name.count(".") != 1:
                return False  # (`self.head.weight = …`)
            held = info.attrs.get(name)
            if held is not None and not held.qualname.endswith(".Parameter"):
                owner = classes.get(held.qualname)
                if (owner is not None and free(owner)) or (owner is None and not held.parameters):
                    continue
                return False
            if not _data(value, scope):
                return False
    return True


_PLAIN_PARAMS = "%plain"  # (a key no Python name can be: the method's plainly annotated parameters)
_BUFFERS = "%buffers"  # (and the class's registered buffers, `self.pointer`)

# The operands a composite expression's value is made of, by the expression's class.
_DATA_PARTS = {
    ast.Tuple: lambda e: e.elts, ast.List: lambda e: e.elts, ast.Set: lambda e: e.elts,
    ast.BinOp: lambda e: (e.left, e.right), ast.UnaryOp: lambda e: (e.operand,),
    ast.BoolOp: lambda e: e.values, ast.IfExp: lambda e: (e.body, e.orelse),
    ast.Subscript: lambda e: (e.value,),
}


def _data(expr, scope, seen=frozenset()) -> bool:
    """Whether ``expr``, assigned to an attribute in a method, holds data, not a module or a
    parameter (``_parameterless``); ``scope``: the method's parameters, their defaults, what it
    binds to each local name, the import table and the file's classes."""
    params, defaults, local, imports, classes = scope
    kind = type(expr)
    if kind is ast.Constant or kind is ast.JoinedStr or kind is ast.Compare:
        return True
    parts = _DATA_PARTS.get(kind)
    if parts is not None:  # (data made of data: a tuple of sizes, `size * 2`, `a if c else b`)
        return all(_data(part, scope, seen) for part in parts(expr))
    if kind is ast.Name:
        if expr.id in params:
            default = defaults.get(expr.id)
            return (default is not None and is_literal(default)) or expr.id in local.get(_PLAIN_PARAMS, ())
        if expr.id in seen:
            return True
        values = local.get(expr.id)
        return values is not None and all(v is not None and _data(v, scope, seen | {expr.id}) for v in values)
    if kind is ast.Attribute and (expr.attr in _METADATA or dotted(expr) in local.get(_BUFFERS, ())):
        return True  # (a size, `x.shape[0]`; a registered buffer, `self.pointer + n`: data)
    if kind is ast.Call:
        name = imports.qualname(expr.func) or ""
        if _frozen_parameter(expr):
            return True  # (frozen where it is made: `_kept_frozen` says nothing switches it back)
        if name in _DATA_CALLS or name.startswith(("math.", "numpy.", "torch.nn.functional.")) \
                or (name.startswith("torch.") and not name.startswith("torch.nn.")):
            return True
        if type(expr.func) is ast.Attribute and not name and _data(expr.func.value, scope, seen):
            return True  # (a method of a tensor or tuple: `torch.randn(n).type_as(self.bank)`)
        held = module_info(expr, imports, classes)
        return held is not None and not held.parameters and held.qualname.startswith("torch.nn.")
    return False


# Where an expression is read as a number is read: an operand of arithmetic or of a comparison,
# a condition, a value formatted into a string.
_NUMBER_READS = {
    ast.BinOp: ("left", "right"), ast.UnaryOp: ("operand",), ast.Compare: ("left", "comparators"),
    ast.AugAssign: ("value",), ast.If: ("test",), ast.While: ("test",), ast.IfExp: ("test",),
    ast.Assert: ("test",), ast.BoolOp: ("values",), ast.FormattedValue: ("value",),
}


def _settings(node: ast.ClassDef, init) -> set[str]:
    """The attributes ``__init__`` sets from one of its arguments (``self.tau = tau``) and the
    class reads only as a number is read (``logits / self.tau``, ``self.tau ** 2``, ``if
    self.k > 0``): a temperature, a weight, a size. A submodule handed in is called or handed on,
    a tensor indexed or given to a torch function; an attribute read only by arithmetic holds a
    setting, not something trained."""
    if init is None:
        return set()
    args = init.args
    params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    reads, numeric, stores = _attribute_uses(node)
    from_argument: dict[str, int] = {}
    for inner in iter_nodes(node):
        if type(inner) is ast.Assign and len(inner.targets) == 1 and type(inner.targets[0]) is ast.Attribute \
                and _argument_or_number(inner.value, params) and _within_init(inner, init):
            target = inner.targets[0]
            if type(target.value) is ast.Name and target.value.id == "self":
                name = "self." + target.attr
                from_argument[name] = from_argument.get(name, 0) + 1
    return {name for name, n in from_argument.items()
            if stores.get(name) == n and reads.get(name, 0) == numeric.get(name, 0)}


def _attribute_uses(node: ast.ClassDef) -> tuple[dict, dict, dict]:
    """Per attribute of the receiver (``self.tau``) in the class's body: how often it is read, how
    often it is read as a number is (an operand of arithmetic or a comparison), and how often it
    is stored (a del counts as a store)."""
    reads: dict[str, int] = {}
    numeric: dict[str, int] = {}
    stores: dict[str, int] = {}
    for inner in iter_nodes(node):
        kind = type(inner)
        if kind is ast.Attribute and type(inner.value) is ast.Name and inner.value.id == "self":
            name = "self." + inner.attr
            counts = reads if type(inner.ctx) is ast.Load else stores
            counts[name] = counts.get(name, 0) + 1
            continue
        for field_name in _NUMBER_READS.get(kind) or ():
            operands = getattr(inner, field_name)
            for operand in operands if type(operands) is list else (operands,):
                if type(operand) is ast.Attribute and type(operand.value) is ast.Name and operand.value.id == "self":
                    name = "self." + operand.attr
                    numeric[name] = numeric.get(name, 0) + 1
    return reads, numeric, stores


def _read_as_number_only(node: ast.ClassDef, name: str) -> bool:
    """Every read of ``name`` (``self.tau``) in the class's body is one a number's is."""
    reads, numeric, _ = _attribute_uses(node)
    return reads.get(name, 0) == numeric.get(name, 0)


def _argument_or_number(expr, params: set[str]) -> bool:
    """An argument of ``__init__`` or a field of one (a config's ``c.vae.capacity``), or one
    defaulted to a number where it is not given (``tau if tau is not None else 4.0``, ``tau or
    4.0``): what it holds is the argument's or a number."""
    def argument(e) -> bool:
        while type(e) is ast.Attribute:
            e = e.value
        return type(e) is ast.Name and e.id in params

    if type(expr) is ast.IfExp:
        parts = [expr.body, expr.orelse]
    elif type(expr) is ast.BoolOp and type(expr.op) is ast.Or:
        parts = expr.values
    else:
        parts = [expr]
    return all(argument(e) or _number_or_none(e) for e in parts) and any(argument(e) for e in parts)


def _number_or_none(expr) -> bool:
    if type(expr) is ast.UnaryOp and type(expr.op) in (ast.USub, ast.UAdd):
        expr = expr.operand
    return type(expr) is ast.Constant and (expr.value is None or type(expr.value) in (int, float))


def _within_init(assign: ast.Assign, init) -> bool:
    return init.lineno <= assign.lineno <= (init.end_lineno or init.lineno)


def acts_as_module(node: ast.ClassDef) -> bool:
    """The class's body does what a module's does: it defines ``forward``, calls ``self(…)`` or
    an attribute that is not one of its own methods (``self.backbone(x)``, held by a base class
    maybe), or takes ``self.parameters()``. A class with the container protocol
    (``__getitem__``, ``__len__``, ``__iter__``: a dataset, a sampler) holds data, whatever it calls."""
    methods = {stmt.name for stmt in node.body if type(stmt) in _FUNCTIONS}
    if methods & _CONTAINER_PROTOCOL:
        return False
    if "forward" in methods:
        return True
    for call in iter_nodes(node):
        if type(call) is not ast.Call:
            continue
        func = call.func
        if type(func) is ast.Name and func.id == "self":
            return True
        if type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id == "self":
            if func.attr in ("parameters", "named_parameters", "modules", "children") or func.attr not in methods:
                return True
    return False


def _setting_params(init: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``__init__`` parameters that hold settings, not modules or tensors: a literal default
    (``drop=0.``) or a plain annotation (``dim: int``)."""
    found = set()
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    # `defaults` belong to the last positional parameters, `kw_defaults` (None: none) to kwonlyargs.
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for param, default in [*zip(positional, defaults), *zip(args.kwonlyargs, args.kw_defaults)]:
        annotation = param.annotation
        plain = type(annotation) is ast.Name and annotation.id in ("int", "float", "bool", "str")
        if plain or (default is not None and is_literal(default) and not (
                type(default) is ast.Constant and default.value is None)):
            found.add(param.arg)
    return found


def frozen_owners(module: ast.Module) -> set[str]:
    """What the module freezes: ``X`` of ``X.requires_grad_(False)`` and of
    ``for p in X.parameters(): p.requires_grad = False``, as written (``self.backbone``)."""
    found: set[str] = set()
    parts: dict[str, set] = {}  # owner -> which of its `weight` and `bias` are frozen one by one
    for node in iter_nodes(module):
        kind = type(node)
        if kind is ast.Call and type(node.func) is ast.Attribute \
                and node.func.attr == "requires_grad_" and literal_false(first_argument(node)):
            receiver = node.func.value
            if type(receiver) is ast.Attribute and receiver.attr in ("weight", "bias") and dotted(receiver.value):
                parts.setdefault(dotted(receiver.value), set()).add(receiver.attr)
            # (`extractor.eval().requires_grad_(False)`: the module the chain returns is itself)
            while type(receiver) is ast.Call and type(receiver.func) is ast.Attribute \
                    and receiver.func.attr in ("eval", "train", "to", "cuda", "cpu", "float", "half"):
                receiver = receiver.func.value
            owner = dotted(receiver)
            if owner:
                found.add(owner)
        elif kind is ast.Assign and _frozen_on_the_way_in(node.value):
            # self.backbone = backbone.requires_grad_(False): the attribute holds it frozen
            for target in node.targets:
                owner = dotted(target)
                if owner:
                    found.add(owner)
        elif kind is ast.Assign and type(node.targets[0]) in (ast.Attribute, ast.Name) \
                and getattr(node.targets[0], "attr", None) != "weight" and dotted(node.targets[0]) \
                and (_frozen_parameter(node.value) or (
                    _parameter_call(node.value) and dotted(node.targets[0]) in once("read-as-data", module, _read_as_data))):
            # (also `self.progress = nn.Parameter(torch.tensor(0.))` read only as
            # `self.progress.data`: a value kept with the module's state for checkpoints, a
            # schedule the trainer fills, which no loss is meant to reach)
            # `self._support = nn.Parameter(values, requires_grad=False)`, `codebook =
            # nn.Parameter(c, requires_grad=False)`: a constant kept with the module's state (an
            # EMA codebook), which nothing trains
            found.add(dotted(node.targets[0]))
        elif kind is ast.Assign and type(node.targets[0]) is ast.Attribute and (
                (node.targets[0].attr == "requires_grad" and literal_false(node.value))
                or (node.targets[0].attr == "weight" and _frozen_parameter(node.value))):
            # `self.emb.weight.requires_grad = False`, `self.emb.weight = nn.Parameter(w,
            # requires_grad=False)`: a module of torch whose one parameter is its weight (an
            # embedding) is frozen whole
            held = node.targets[0].value if node.targets[0].attr == "requires_grad" else node.targets[0]
            if type(held) is ast.Attribute and held.attr in ("weight", "bias") and dotted(held.value) \
                    and node.targets[0].attr == "requires_grad":
                parts.setdefault(dotted(held.value), set()).add(held.attr)
            if type(held) is ast.Attribute and held.attr == "weight":
                owner = dotted(held.value)
                if owner and owner in _weight_only_modules(module):
                    found.add(owner)
        elif kind in _FORS:
            owners = _parameter_owners(node)
            for stmt in node.body:
                for n in iter_nodes(stmt):
                    if type(n) is ast.Assign and literal_false(n.value) \
                            and type(n.targets[0]) is ast.Attribute \
                            and n.targets[0].attr == "requires_grad":
                        owner = owners.get(dotted(n.targets[0].value) or "")
                        if owner:
                            found.add(owner)
                    elif type(n) is ast.Call and type(n.func) is ast.Attribute \
                            and n.func.attr == "requires_grad_" and literal_false(first_argument(n)):
                        owner = owners.get(dotted(n.func.value) or "")  # p.requires_grad_(False)
                        if owner:
                            found.add(owner)
    # `enc.weight.requires_grad = False` and `enc.bias.requires_grad = False`: a layer frozen
    # parameter by parameter is frozen whole
    found.update(owner for owner, frozen in parts.items() if frozen >= {"weight", "bias"})
    # `self.features = features` in the constructor that freezes its argument `features`: the
    # attribute holds the frozen module
    for node in iter_nodes(module):
        if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef) and node.name == "__init__":
            for stmt in iter_nodes(node):
                if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.value) is ast.Name \
                        and stmt.value.id in found and (dotted(stmt.targets[0]) or "").startswith("self."):
                    found.add(dotted(stmt.targets[0]))
    return found


def _parameter_call(expr) -> bool:
    return type(expr) is ast.Call and (dotted(expr.func) or "").rpartition(".")[2] == "Parameter"


def _read_as_data(module: ast.Module) -> set[str]:
    """The names (``self.progress``) of attributes the module reads only through ``.data`` (or
    copies of ``.detach()``) and sets by hand through ``.data`` (``…progress.data.fill_(it / max_iter)``): values kept in a
    Parameter for the checkpoint, which no loss is meant to reach."""
    parents = {child: up for up in ast.walk(module) for child in ast.iter_child_nodes(up)}
    through, otherwise, set_by_hand = set(), set(), set()
    names = {}
    for node in ast.walk(module):
        if type(node) is not ast.Attribute or type(node.ctx) is not ast.Load:
            continue
        name = dotted(node)
        if name is None:
            continue
        up = parents.get(node)
        if type(up) is ast.Call and node in up.args and (dotted(up.func) or "").rpartition(".")[2] in _COMPARES:
            continue  # (`torch.allclose(model.prior, counts)`: a check of its value, no use of it)
        if type(up) is ast.Attribute and up.attr == "detach" and type(parents.get(up)) is ast.Call:
            through.add(node.attr)  # (a copy without history, `codebook.detach().clone()`, is a read of the data)
            names.setdefault(node.attr, set()).add(name)
        elif type(up) is ast.Attribute and up.attr == "data":
            through.add(node.attr)
            names.setdefault(node.attr, set()).add(name)
            call = parents.get(parents.get(up))
            if type(parents.get(up)) is ast.Attribute and parents[up].attr.endswith("_") \
                    and type(call) is ast.Call and call.func is parents[up]:
                set_by_hand.add(node.attr)
        elif not (type(up) is ast.Attribute and up.attr in _METADATA):
            otherwise.add(node.attr)
    return {name for attr in (through & set_by_hand) - otherwise for name in names[attr]}


# torch's comparisons of whole tensors, which give a bool: a read of the values, no use of them.
_COMPARES = frozenset({"equal", "allclose", "isclose"})

# What reading gives no value to compute with: a tensor's gradient, its flags, its shape.
_METADATA = frozenset({"grad", "requires_grad", "shape", "device", "dtype", "is_leaf"})


def _frozen_parameter(expr) -> bool:
    """``nn.Parameter(w, requires_grad=False)``."""
    return type(expr) is ast.Call and (dotted(expr.func) or "").rpartition(".")[2] == "Parameter" and any(
        k.arg == "requires_grad" and literal_false(k.value) for k in expr.keywords)


# The modules of torch whose only parameter is ``weight``.
WEIGHT_ONLY = frozenset({"Embedding", "EmbeddingBag"})


def _weight_only_modules(module: ast.Module) -> set[str]:
    """The names the module binds to a module of torch whose only parameter is its weight
    (``self.emb = nn.Embedding(n, d)``), as written."""
    return once("weight-only", module, lambda m: {
        name for node in iter_nodes(m) if type(node) is ast.Assign and type(node.value) is ast.Call
        and (dotted(node.value.func) or "").rpartition(".")[2] in WEIGHT_ONLY
        for name in map(dotted, node.targets) if name})


def _frozen_on_the_way_in(expr) -> bool:
    """``backbone.requires_grad_(False)`` (also after ``.eval()``/``.to(...)``) as an assigned value."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute:
        if expr.func.attr == "requires_grad_" and literal_false(first_argument(expr)):
            return True
        if expr.func.attr not in ("eval", "to", "cuda", "cpu", "float", "half"):
            return False
        expr = expr.func.value
    return False


def _parameter_owners(loop: ast.For | ast.AsyncFor) -> dict[str, str]:
    """Loop variable -> the module whose parameters it walks: ``for p in m.parameters()``, and
    ``for q, k in zip(a.parameters(), b.parameters())`` (q -> a, k -> b)."""
    def owner(call) -> str | None:
        if type(call) is ast.Call and type(call.func) is ast.Attribute \
                and call.func.attr in ("parameters", "named_parameters"):
            return dotted(call.func.value)
        return None

    target, iterable = loop.target, loop.iter
    if type(target) is ast.Name and owner(iterable):
        return {target.id: owner(iterable)}
    if type(iterable) is ast.Call and type(iterable.func) is ast.Name and iterable.func.id == "zip" \
            and type(target) in (ast.Tuple, ast.List):
        # (`for *q, k in zip(…)`: a starred target still pairs with its argument)
        targets = (e.value if type(e) is ast.Starred else e for e in target.elts)
        pairs = zip(targets, _argument_values(iterable))
        return {t.id: owner(a) for t, a in pairs if type(t) is ast.Name and owner(a)}
    return {}


def nograd_only_callees(module: ast.Module, imports: ImportTable, names: set[str],
                        methods: frozenset = frozenset()) -> set[str]:
    """Module-level functions (of ``names``) that are called, and only ever called, under
    no_grad: from a decorated function or inside a ``with torch.no_grad():`` block. Of the
    ``methods`` (names of methods of the module's classes), those every ``….name(…)`` call of
    the module makes under no_grad, as ``.name`` (an agent's `self.encode(obs)`, called only in
    `with torch.no_grad():`)."""
    if not (names or methods) or not mentions_grad_mode(module):
        return set()  # no call can be under no_grad

    def called(node: ast.Call) -> str | None:
        func = node.func
        if type(func) is ast.Name and func.id in names:
            return func.id
        if type(func) is ast.Attribute and func.attr in methods:
            return "." + func.attr
        return None

    return _only_under_nograd(_call_contexts(module, imports, names, methods, called))


def helper_of_nograd_methods(module: ast.Module, cls: ast.ClassDef, method, imports: ImportTable) -> bool:
    """A module's method that the file calls only as ``self.<name>(…)`` from the class's own methods
    decorated to run under no_grad (a beam search's ``_generate`` behind ``@torch.no_grad()``
    ``forward`` and ``generate``): it runs under no_grad too. Calls inside the method itself run
    where it does; one from anywhere else (another receiver, an undecorated method) may record."""
    if not mentions_grad_mode(module):
        return False
    decorated = {stmt.name for stmt in cls.body if type(stmt) in _FUNCTIONS and decorated_nograd(stmt, imports)}
    if not decorated or method.name in decorated:
        return False
    sites = [node for node in once("method-calls", module, _method_calls).get(method.name, ())
             if not _within(node, method)]
    return bool(sites) and all(
        dotted(node.func.value) == "self" and any(
            type(stmt) in _FUNCTIONS and stmt.name in decorated and _within(node, stmt) for stmt in cls.body)
        for node in sites)


def _method_calls(module: ast.Module) -> dict:
    """Attribute name -> the file's calls ``….name(…)``."""
    found: dict = {}
    for node in iter_nodes(module):
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            found.setdefault(node.func.attr, []).append(node)
    return found


def _within(node, outer) -> bool:
    return (outer.lineno, outer.col_offset) <= (node.lineno, node.col_offset) \
        and (node.end_lineno, node.end_col_offset) <= (outer.end_lineno, outer.end_col_offset)


def called_only_under_nograd_in(module: ast.Module, imports: ImportTable, target) -> bool | None:
    """Whether every call ``target(call)`` picks out in ``module`` (another file's calls of a
    function: ``utils.multi_scale(x, model)``) runs under no_grad, directly or from a function
    of the module that only ever runs under it; None where the module makes no such call."""
    if not mentions_grad_mode(module):
        return False if any(type(n) is ast.Call and target(n) for n in iter_nodes(module)) else None
    names = {stmt.name for stmt in module.body if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef)}

    def called(node: ast.Call) -> str | None:
        if target(node):
            return _TARGET
        func = node.func
        return func.id if type(func) is ast.Name and func.id in names else None

    calls = _call_contexts(module, imports, names, frozenset(), called)
    if _TARGET not in calls:
        return None
    return _TARGET in _only_under_nograd(calls)


def instances_called_only_in_eval(module: ast.Module, imports: ImportTable, target) -> bool | None:
    """Whether every instance that ``module`` builds by a call ``target(call)`` picks out (a
    module class of another file), bound to a name or an attribute, is called only where
    nothing is recorded: under no_grad, or in an eval-mode branch of a model's method (``else``
    of ``if self.training:``, after ``if self.training: return …``). None where the module
    builds none or never calls one; False where an instance is handed on or called elsewhere."""
    from gradlint.analysis.tree import parents

    bound = set()
    for node in iter_nodes(module):
        if type(node) is ast.Call and target(node):
            up = parents(module).get(node)
            if type(up) is not ast.Assign or len(up.targets) != 1 or dotted(up.targets[0]) is None:
                return False  # (built and handed on, or called where it is built)
            bound.add(dotted(up.targets[0]))
    if not bound:
        return None
    calls = [node for node in iter_nodes(module) if type(node) is ast.Call and dotted(node.func) in bound]
    if not calls:
        return None
    return all(_recorded_nowhere(call, module, imports) for call in calls)


def instances_fed_activations(module: ast.Module, target, index: int, name: str) -> bool:
    """Whether an instance that ``module`` builds by a call ``target(call)`` picks out (a module
    class of another file) as a member (``self.segmenter = Segmenter(…)``) is called in a method
    of that class on what another member computed there (``self.segmenter(self.encoder(x))``, or
    a name bound to it): its forward's argument at ``index`` (or keyword ``name``) is an
    activation of a model, not data."""
    from gradlint.analysis.tree import parents

    up_of = parents(module)
    for node in iter_nodes(module):
        if type(node) is not ast.Call or not target(node):
            continue
        up = up_of.get(node)
        holder = enclosing(up, up_of, (ast.ClassDef,))
        if holder is None or type(up) is not ast.Assign or len(up.targets) != 1:
            continue
        member = dotted(up.targets[0])
        if member is None or not member.startswith("self."):
            continue
        # (the holder's other members built by a call: its layers and submodules)
        layers = {dotted(t) for n in iter_nodes(holder) if type(n) is ast.Assign and type(n.value) is ast.Call
                  for t in n.targets if dotted(t) not in (None, member) and dotted(t).startswith("self.")}
        for method in holder.body:
            if type(method) not in _FUNCTIONS:
                continue
            computed = {}  # name -> whether a member layer computed it, in this method
            for n in iter_nodes(method):
                if type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name:
                    computed[n.targets[0].id] = _of_layers(n.value, layers, computed)
            for call in iter_nodes(method):
                if type(call) is not ast.Call or dotted(call.func) != member:
                    continue
                given = call.args[index] if index < len(call.args) and type(call.args[index]) is not ast.Starred \
                    else next((k.value for k in call.keywords if k.arg == name), None)
                if given is not None and _of_layers(given, layers, computed):
                    return True
    return False


def _of_layers(expr, layers: set, computed: dict) -> bool:
    """``expr`` computes from a call of one of ``layers`` (``self.encoder(x)``,
    ``torch.tanh(self.encoder(x)).flatten(1)``) or from a name ``computed`` says one computed."""
    return any((type(n) is ast.Call and dotted(n.func) in layers)
               or (type(n) is ast.Name and type(n.ctx) is ast.Load and computed.get(n.id, False))
               for n in ast.walk(expr))


def instances_optimized_in(module: ast.Module, imports: ImportTable, target, within=frozenset()) -> bool | None:
    """Whether an instance that ``module`` builds by a call ``target(call)`` picks out (a module
    class of another file), bound to a name or an attribute, has its ``.parameters()`` handed to
    one of torch's optimizers there (``blk = Block(4)``, then ``SGD(blk.parameters())``): the class
    is trained. None where the module builds none."""
    from gradlint.analysis.tree import parents

    bound = set()
    up_of = parents(module)
    functions = _module_functions(module)
    holders = set()  # the module's classes that build the instance as a member of their own
    for node in iter_nodes(module):
        if type(node) is ast.Call and target(node):
            holder = enclosing(up_of.get(node), up_of, (ast.ClassDef,))
            if holder is not None and holder.name not in holders and holder.name not in within:
                holders.add(holder.name)
                # (`self.encoder = encoders.ContextEncoder(…)` in `Tagger`: a trained `Tagger`
                # trains it)
                if instances_optimized_in(module, imports, lambda call, name=holder.name: type(call.func) is ast.Name
                                          and call.func.id == name, within | {holder.name}):
                    return True
            up = up_of.get(node)
            while type(up) is ast.Attribute and type(up_of.get(up)) is ast.Call and up_of[up].func is up \
                    or type(up) is ast.Call and up.args and up.args[0] is node \
                    and not (type(up.func) is ast.Name and up.func.id in functions):
                # (`Model().cuda()`, `nn.DataParallel(Model())`: the instance as placed and wrapped)
                node = up_of[up] if type(up) is ast.Attribute else up
                up = up_of.get(node)
            if type(up) is ast.Assign and len(up.targets) == 1 and dotted(up.targets[0]) is not None:
                bound.add(dotted(up.targets[0]))
            elif type(up) is ast.Call and node in up.args:
                bound |= _handed_to(up, up.args.index(node), functions)
    if not bound:
        return None
    for _ in range(3):
        # (handed on: `run(net)` doing `model = nn.DataParallel(net)` and then `train(model)`)
        more = set()
        for node in iter_nodes(module):
            if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                value = node.value
                while type(value) is ast.Call and (type(value.func) is ast.Attribute and value.func.attr in (
                        "cuda", "to", "train", "float") or value.args and type(value.func) in (ast.Name, ast.Attribute)
                        and dotted(value.func) not in functions):
                    value = value.func.value if type(value.func) is ast.Attribute and value.func.attr in (
                        "cuda", "to", "train", "float") else value.args[0]
                if dotted(value) in bound:
                    more.add(node.targets[0].id)
            elif type(node) is ast.Call:
                for i, arg in enumerate(node.args):
                    if dotted(arg) in bound:
                        more |= _handed_to(node, i, functions)
        if more <= bound:
            break
        bound |= more
    for node in iter_nodes(module):
        if type(node) is ast.Call and node.args and not _an_optimizer(imports.qualname(node.func), imports):
            # (`WarmupStepper(model, lr)`, `Trainer(model)`: a class that keeps an optimizer over
            # the model its constructor is handed)
            holder = _class_named(imports.qualname(node.func), module, imports)
            if holder is not None and any(
                    index < len(node.args) and dotted(node.args[index]) in bound
                    for index, _ in _optimized_init(holder)):
                return True
            # (`fit(model, batches)` of another file, building `Adam(model.parameters())`)
            elsewhere = _function_elsewhere(imports.qualname(node.func), imports)
            if elsewhere is not None and any(dotted(arg) in bound and _optimizes_argument(*elsewhere, index)
                                             for index, arg in enumerate(node.args)):
                return True
        if type(node) is ast.Call and _an_optimizer(imports.qualname(node.func), imports):
            # (or of each member the instance yields, `chain(*(m.parameters() for m in
            # model.blocks()))`, `[p for m in model.stages for p in m.parameters()]`)
            members = {g.target.id for inner in ast.walk(node)
                       if type(inner) in (ast.ListComp, ast.GeneratorExp, ast.SetComp)
                       for g in inner.generators if type(g.target) is ast.Name
                       and _root_name(g.iter) in {b.split(".")[0] for b in bound}}
            for inner in ast.walk(node):
                if type(inner) is ast.Call and type(inner.func) is ast.Attribute \
                        and inner.func.attr in ("parameters", "named_parameters") \
                        and (dotted(inner.func.value) in bound or dotted(inner.func.value) in members):
                    return True
    return False


def _function_elsewhere(qualname: str | None, imports: ImportTable):
    """(the module-level function of another file of the project that ``qualname`` names, that
    file's tree), or None."""
    if not qualname or qualname.startswith("torch") or imports.project is None or (
            "." not in qualname and qualname not in imports.sources):
        return None
    target = imports.target(qualname)
    found = imports.project.load(*target) if target is not None else None
    if found is None or len(found[1]) != 1:
        return None
    module, (name,) = found
    function = next((stmt for stmt in module.tree.body if type(stmt) in _FUNCTIONS and stmt.name == name), None)
    return (function, module.tree) if function is not None else None


def _optimizes_argument(function, tree, index: int, depth: int = 2) -> bool:
    """``function`` hands the ``.parameters()`` of its positional parameter ``index`` to one of
    torch's optimizers (spelled as its own file imports it: ``torch.optim.Adam``, ``optim.SGD``,
    ``Adam``), itself or through a function of its file it hands the parameter on to
    (`opt = build_optimizer(model, cfg)`)."""
    params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if index >= len(params):
        return False
    helpers = {stmt.name: stmt for stmt in tree.body if type(stmt) in _FUNCTIONS}
    for node in ast.walk(function):
        if type(node) is not ast.Call:
            continue
        if is_optimizer_class(f"torch.optim.{(dotted(node.func) or '').rsplit('.', 1)[-1]}"):
            if any(type(inner) is ast.Call and type(inner.func) is ast.Attribute
                   and inner.func.attr in ("parameters", "named_parameters") and dotted(inner.func.value) == params[index]
                   for inner in ast.walk(node)):
                return True
        elif depth > 0 and type(node.func) is ast.Name and node.func.id in helpers and helpers[node.func.id] is not function:
            if any(dotted(arg) == params[index] and _optimizes_argument(helpers[node.func.id], tree, i, depth - 1)
                   for i, arg in enumerate(node.args)):
                return True
    return False


def _class_named(qualname: str | None, module: ast.Module, imports: ImportTable):
    """The class definition ``qualname`` names: the module's own, or another file's of the project."""
    if not qualname or qualname.startswith("torch"):
        return None
    own = next((c for c in module.body if type(c) is ast.ClassDef and c.name == qualname), None)
    if own is not None or imports.project is None or "." not in qualname and qualname not in imports.sources:
        return own
    return imports.project.class_def(qualname)


def _optimized_init(cls) -> tuple:
    from gradlint.analysis.summaries import optimized_init_parameters

    return optimized_init_parameters(cls)


def _module_functions(module: ast.Module) -> dict:
    return {f.name: f for f in module.body if type(f) in (ast.FunctionDef, ast.AsyncFunctionDef)}


def _handed_to(call: ast.Call, index: int, functions: dict) -> set:
    """The parameter of the module's own function (of ``functions``) that ``call`` hands its
    ``index``-th argument."""
    fn = functions.get(call.func.id) if type(call.func) is ast.Name else None
    if fn is None or any(type(a) is ast.Starred for a in call.args[:index + 1]):
        return set()
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    return {params[index]} if index < len(params) else set()


def _an_optimizer(name: str | None, imports: ImportTable) -> bool:
    """One of torch's optimizer classes, or, in a file that star-imports its names (`from network
    import *` bringing `torch as t`), one spelled as such (`t.optim.Adam`)."""
    return is_optimizer_class(name) or bool(
        imports.stars and name and name.split(".")[-2:-1] == ["optim"] and name.split(".")[-1][:1].isupper())


def _root_name(expr) -> str | None:
    """``model`` of ``model.blocks()``, ``model.stages``, ``model.layers[1:]``."""
    while type(expr) in (ast.Call, ast.Attribute, ast.Subscript):
        expr = expr.func if type(expr) is ast.Call else expr.value
    return expr.id if type(expr) is ast.Name else None


def _recorded_nowhere(node: ast.AST, module: ast.Module, imports: ImportTable) -> bool:
    """``node`` runs under no_grad or only in a model's eval mode, as its enclosing statements
    within its function say."""
    from gradlint.analysis.tree import parents

    up = parents(module)
    child, parent = node, up.get(node)
    while parent is not None:
        kind = type(parent)
        if kind in _WITHS and any(opens_nograd(i.context_expr, imports) for i in parent.items):
            return True
        if kind is ast.If:
            mode = _training_test(parent.test)
            if (mode is True and child in parent.orelse) or (mode is False and child in parent.body):
                return True
        for field in ("body", "orelse"):
            block = getattr(parent, field, None)
            if type(block) is list and child in block:
                # (`if self.training: …; return losses` before it: what follows runs in eval only)
                earlier = block[:block.index(child)]
                if any(type(s) is ast.If and _training_test(s.test) is True and s.body
                       and type(s.body[-1]) in (ast.Return, ast.Raise) for s in earlier):
                    return True
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            return decorated_nograd(parent, imports)
        child, parent = parent, up.get(parent)
    return False


def _training_test(test) -> bool | None:
    """True for ``self.training``, False for ``not self.training``, else None."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        inner = _training_test(test.operand)
        return None if inner is None else not inner
    if type(test) is ast.Attribute and test.attr == "training" and dotted(test.value) == "self":
        return True
    return None


_TARGET = "\0target"  # (no identifier: the key of the calls asked about)


def _call_contexts(module: ast.Module, imports: ImportTable, names, methods, called) -> dict:
    """key -> (under no_grad, the enclosing def's key) for each call ``called`` names by a key."""
    calls: dict[str, list[tuple[bool, str | None]]] = {}
    nodes, ends = walk_with_ends(module)
    # (where it ends, whether under no_grad, the enclosing def's key): a def sets the context of
    # its subtree (decorated or not), a no_grad block sets it on; the innermost one holds.
    contexts: list[tuple[int, bool, str | None]] = [(len(nodes), False, None)]
    for at, node in enumerate(nodes):
        while contexts[-1][0] <= at:
            contexts.pop()
        kind = type(node)
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            key = node.name if node.name in names else "." + node.name if node.name in methods else None
            contexts.append((ends[at], decorated_nograd(node, imports), key))
        elif kind in _WITHS and any(opens_nograd(i.context_expr, imports) for i in node.items):
            contexts.append((ends[at], True, contexts[-1][2]))
        elif kind is ast.Call:
            key = called(node)
            if key is not None:
                calls.setdefault(key, []).append(contexts[-1][1:])
    return calls


def _only_under_nograd(calls: dict) -> set[str]:
    # A helper called only from helpers that run only under no_grad runs under it too (a
    # translator's `translate_batch` opens the region; what it calls, and what they call, too).
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for name, sites in calls.items():
            if name not in found and all(under or (caller is not None and caller in found and caller != name)
                                         for under, caller in sites):
                found.add(name)
                changed = True
    return found


def opens_nograd(item: ast.expr, imports: ImportTable) -> bool:
    """A ``with`` item that switches recording off: ``torch.no_grad()``, ``torch.inference_mode()``,
    ``torch.set_grad_enabled(False)``."""
    name = imports.qualname(item.func if type(item) is ast.Call else item)
    return name in NOGRAD or (name in SET_GRAD_ENABLED and type(item) is ast.Call
                              and literal_false(first_argument(item)))


# The last names of NOGRAD and SET_GRAD_ENABLED: a module naming none of them has no no_grad region.
GRAD_MODE_NAMES = frozenset({"no_grad", "inference_mode", "set_grad_enabled"})


def mentions_grad_mode(module: ast.Module) -> bool:
    """Whether the module names no_grad, inference_mode or set_grad_enabled anywhere (in an
    import, a decorator, a ``with``): without one, nothing in it runs under no_grad."""
    for node in iter_nodes(module):
        if type(node) is ast.Name:
            if node.id in GRAD_MODE_NAMES:
                return True
        elif not GRAD_MODE_NAMES.isdisjoint(_identifiers(node)):
            return True
    return False


def _identifiers(node: ast.AST) -> list[str]:
    """The identifiers a node holds as plain strings besides ``Name`` nodes: an attribute's
    name, a keyword argument's, a parameter's, a def's, an import's parts. libcst made each
    of them a ``Name`` node, so the scans that collected names from every ``Name`` saw them."""
    kind = type(node)
    if kind is ast.Attribute:
        return [node.attr]
    if kind is ast.keyword or kind is ast.arg:
        return [node.arg] if node.arg is not None else []
    if kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
        return [node.name]
    if kind is ast.alias:
        parts = node.name.split(".") if node.name != "*" else []
        return parts + [node.asname] if node.asname else parts
    if kind is ast.ImportFrom:
        return node.module.split(".") if node.module else []
    if kind is ast.Global or kind is ast.Nonlocal:
        return list(node.names)
    if kind is ast.ExceptHandler or kind is ast.MatchAs or kind is ast.MatchStar:
        return [node.name] if node.name else []
    if kind is ast.MatchMapping:
        return [node.rest] if node.rest else []
    if kind is ast.MatchClass:
        return list(node.kwd_attrs)
    if kind.__name__ in ("TypeVar", "ParamSpec", "TypeVarTuple"):  # 3.12+
        return [node.name]
    return []


def returns_under_nograd(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> bool:
    """Every ``return`` of the function is inside a ``with torch.no_grad():`` block (or the
    function is decorated): what it returns has no history."""
    from gradlint.analysis.tree import once

    return once("nograd-returns", node, _returns_under_nograd, imports)


def _returns_under_nograd(node, imports: ImportTable) -> bool:
    if decorated_nograd(node, imports):
        return True
    if not _holds_with(node):
        return False  # (the common case, read without the passes below)
    inside: set[int] = set()  # returns and assignments inside a no_grad block
    returns, bound_outside = [], set()
    for child in iter_nodes(node, into_functions=False):
        if type(child) in _WITHS and any(opens_nograd(i.context_expr, imports) for i in child.items):
            inside.update(id(n) for n in iter_nodes(child, into_functions=False)
                          if type(n) in (ast.Return, ast.Assign))
        elif type(child) is ast.Return and child.value is not None:
            returns.append(child)
    for child in iter_nodes(node, into_functions=False):
        if type(child) is ast.Assign and id(child) not in inside:
            bound_outside |= {t.id for t in child.targets if type(t) is ast.Name}
    bound_inside = {t.id for child in iter_nodes(node, into_functions=False)
                    if type(child) is ast.Assign and id(child) in inside
                    for t in child.targets if type(t) is ast.Name}

    def nograd_return(ret: ast.Return) -> bool:
        # `with torch.no_grad(): logits = policy(obs)` and then `return logits` after the block
        name = ret.value.id if type(ret.value) is ast.Name else None
        return id(ret) in inside or (name in bound_inside and name not in bound_outside)

    return bool(returns) and all(nograd_return(r) for r in returns)


def _holds_with(function) -> bool:
    """Whether a ``with`` statement is in the function's own body (not in a nested def or class):
    a statement, so only blocks of statements are looked into, not their expressions."""
    todo = [function.body]
    while todo:
        for stmt in todo.pop():
            kind = type(stmt)
            if kind in _WITHS:
                return True
            if kind in _FUNCTIONS or kind is ast.ClassDef:
                continue
            for name in ("body", "orelse", "finalbody"):
                block = getattr(stmt, name, None)
                if type(block) is list and block:
                    todo.append(block)
            for holder in getattr(stmt, "handlers", None) or getattr(stmt, "cases", None) or ():
                todo.append(holder.body)
    return False


def _wraps_call_in_nograd(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> bool:
    """``__call__`` returns what it computes inside a ``with torch.no_grad():`` block: every
    return is in one, and it backpropagates nothing (a probe that fits with backward() and only
    scores under no_grad is no such call)."""
    inside: set[int] = set()
    returns = []
    for child in iter_nodes(node, into_functions=False):
        if type(child) in _WITHS and any(opens_nograd(i.context_expr, imports) for i in child.items):
            inside.update(id(n) for n in iter_nodes(child, into_functions=False))
        elif type(child) is ast.Return:
            returns.append(child)
    return bool(inside) and all(id(r) in inside for r in returns) and not trains_locally(node)


def listed_modules(function, name: str, before: ast.AST, flags=frozenset()) -> list:
    """The expressions a function puts in the list ``name`` before ``before``, in source order
    (`layers = [...]`, `layers += [...]`, `layers.extend([...])`, `layers.append(m)`). Of an
    ``if flag:`` whose flag is one of ``flags`` (true wherever the class is built) only the arm that
    runs adds; where either arm may run and both add as many, each place holds one or the other
    (``nn.Sigmoid() if gated else nn.Identity()``: a stand-in node, read only by callers)."""
    return _listed_in(function.body, name, (before.lineno, before.col_offset), flags)


def _listed_in(block, name: str, point: tuple, flags) -> list:
    items = []
    for stmt in block:
        if type(stmt) in _FUNCTIONS or type(stmt) is ast.ClassDef:
            continue
        if type(stmt) is ast.If:
            arm = _flag_arm(stmt.test, flags)
            body = _listed_in(stmt.body, name, point, flags) if arm is not False else []
            orelse = _listed_in(stmt.orelse, name, point, flags) if arm is not True else []
            if arm is None and body and orelse and len(body) == len(orelse):
                items += [ast.copy_location(ast.IfExp(test=stmt.test, body=a, orelse=b), a)
                          for a, b in zip(body, orelse)]
            else:
                items += body + orelse
        elif any(type(getattr(stmt, f, None)) is list for f in ("body", "orelse", "finalbody", "handlers")):
            for field in ("body", "orelse", "finalbody"):
                items += _listed_in(getattr(stmt, field, None) or [], name, point, flags)
            for handler in getattr(stmt, "handlers", None) or ():
                items += _listed_in(handler.body, name, point, flags)
        elif (stmt.lineno, stmt.col_offset) < point:
            items += _added_to(stmt, name)
    return items


def _added_to(stmt, name: str) -> list:
    """The elements one statement adds to the list ``name``."""
    value = None
    if type(stmt) in (ast.Assign, ast.AugAssign):
        targets = stmt.targets if type(stmt) is ast.Assign else [stmt.target]
        if any(type(t) is ast.Name and t.id == name for t in targets):
            value = stmt.value
    elif type(stmt) is ast.Expr and type(stmt.value) is ast.Call:
        call = stmt.value
        if type(call.func) is ast.Attribute and type(call.func.value) is ast.Name \
                and call.func.value.id == name and len(call.args) == 1:
            if call.func.attr == "append":
                return [call.args[0]]
            if call.func.attr == "extend":
                value = call.args[0]
    return list(value.elts) if type(value) in (ast.List, ast.Tuple) else []


def _flag_arm(test, flags) -> bool | None:
    """Which arm of ``if test:`` runs where ``flags`` are true: the body (True), the ``else`` (False),
    or either (None)."""
    if type(test) is ast.Name and test.id in flags:
        return True
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not and type(test.operand) is ast.Name \
            and test.operand.id in flags:
        return False
    return None


def _built_by_adding(function, name: str) -> bool:
    """The list ``name`` is only built up (bound to displays, added to, appended, extended): not
    sliced, rebound to something else, or changed by item (`rep[0] = nn.ReLU()`, `rep = rep[1:]`),
    so ``listed_modules`` reads its layers in order."""
    for node in iter_nodes(function, into_functions=False):
        if type(node) is ast.Assign:
            for target in node.targets:
                if type(target) is ast.Subscript and dotted(target.value) == name:
                    return False
                if type(target) is ast.Name and target.id == name and type(node.value) not in (ast.List, ast.Tuple):
                    return False
        elif type(node) is ast.Call and type(node.func) is ast.Attribute and dotted(node.func.value) == name \
                and node.func.attr in ("insert", "pop", "remove", "reverse", "sort", "clear"):
            return False
    return True


def _with_locals(value, function, flags=frozenset()):
    """``nn.Sequential(conv, SamePad(k))`` with ``conv = nn.Conv1d(…)`` bound once above it in
    the same method: the call with each such local replaced by what it was bound to, so what the
    container's layers save is read as if written in place (a stand-in node, read only here)."""
    if type(value) is ast.Call and len(value.args) == 1 and type(value.args[0]) is ast.Starred \
            and type(value.args[0].value) is ast.Name:
        # `nn.Sequential(*layers)`: the modules the method put in `layers`, in order
        name = value.args[0].value.id
        listed = listed_modules(function, name, value, flags) if _built_by_adding(function, name) else []
        return ast.copy_location(ast.Call(func=value.func, args=listed, keywords=value.keywords), value) \
            if listed else value
    # (also `nn.Sequential(self.relu, conv)` with `self.relu = nn.ReLU(inplace=True)` bound in the
    # same `__init__`: the layer its attribute holds; and `self.pos_conv = conv` itself)
    if not (type(value) is ast.Name or (type(value) is ast.Call and any(
            type(a) is ast.Name or _own_attribute(a) for a in value.args))):
        return value
    bound: dict[str, list] = {}
    for node in iter_nodes(function, into_functions=False):
        if type(node) is ast.Assign and len(node.targets) == 1 and (
                type(node.targets[0]) is ast.Name or _own_attribute(node.targets[0])):
            bound.setdefault(dotted(node.targets[0]), []).append(node.value)
    for name, values in bound.items():
        if len(values) > 1 and all(_reparametrized(v, name) for v in values[1:]):
            # (`conv = weight_norm(conv, …)`: the module bound first, its weight reparametrized)
            bound[name] = values[:1]
    if type(value) is ast.Name:
        found = bound.get(value.id, ())
        return found[0] if len(found) == 1 and type(found[0]) is ast.Call else value
    args = [bound[dotted(a)][0] if (type(a) is ast.Name or _own_attribute(a)) and len(bound.get(dotted(a), ())) == 1
            and type(bound[dotted(a)][0]) is ast.Call else a for a in value.args]
    if all(a is b for a, b in zip(args, value.args)):
        return value
    return ast.copy_location(ast.Call(func=value.func, args=args, keywords=value.keywords), value)


def _reparametrized(value, name: str) -> bool:
    """``weight_norm(conv, …)`` of the local ``conv``: a call whose last name is one of torch's
    reparametrizations (``PARAMETRIZATIONS``), handed that local first."""
    return type(value) is ast.Call and bool(value.args) and type(value.args[0]) is ast.Name \
        and value.args[0].id == name and (dotted(value.func) or "").rpartition(".")[2] in (
            "weight_norm", "spectral_norm", "orthogonal")


def _own_attribute(expr) -> bool:
    """``self.x``: an attribute of the receiver itself."""
    return type(expr) is ast.Attribute and type(expr.value) is ast.Name and expr.value.id == "self"


def _named_defaults(init, class_name: str, module: ast.Module, imports: ImportTable) -> dict:
    """``__init__`` parameters defaulting to a name (``block=ResidualBlock``, a class it builds
    its layers with) that some construction in the file or the project's files near it leaves so
    (or that none is found): parameter -> that name."""
    found = {name: d for name, d in defaults_of(init).items() if type(d) is ast.Name}
    if not found:
        return {}
    _, built = once("constructions", module, _constructions)
    names = [p.arg for p in [*init.args.posonlyargs, *init.args.args]][1:]  # (the receiver is not handed)
    calls = [call for call, _ in built.get(class_name, ())]
    if imports.project is not None:
        calls += imports.project.constructions(class_name)

    def omits(call, name) -> bool:
        if any(type(a) is ast.Starred for a in call.args) or any(k.arg in (None, name) for k in call.keywords):
            return False
        return name not in names or names.index(name) >= len(call.args)

    return {name: d for name, d in found.items() if not calls or any(omits(c, name) for c in calls)}


def _with_defaults(value, named: dict):
    """``nn.ModuleList(block(c, d) for i in range(n))`` with ``block`` one of ``named``: its calls
    of such a parameter made calls of the default (a stand-in copy, read only here)."""
    if not named or not any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in named
                            for n in ast.walk(value)):
        return value

    copied = copy.deepcopy(value)
    for call in ast.walk(copied):
        if type(call) is ast.Call and type(call.func) is ast.Name and call.func.id in named:
            call.func = ast.copy_location(ast.Name(id=named[call.func.id].id, ctx=ast.Load()), call.func)
    return copied


def _true_flags(init, class_name: str, module: ast.Module) -> set[str]:
    """``__init__`` parameters defaulting to ``True`` (``inplace=True``) that some construction in
    the file leaves so (or that none is in the file): True wherever the class is built as it is by
    default, which is how a flag handed on is read (``nn.ReLU(inplace=inplace)`` runs in place
    then, as an ``if inplace:`` arm is walked)."""
    return {name for name, default in defaults_of(init).items()
            if literal_true(default) and _may_be_true(class_name, name, module, ())}


def _may_be_true(class_name: str, flag: str, module: ast.Module, seen: tuple) -> bool:
    """Whether some construction of ``class_name`` in the file leaves ``flag`` True: omitted
    (its default), handed a true literal, or handed a flag of the constructor it is built in
    that may be True itself (``GatedFusion(c, inplace=inplace)`` in ``TinySegNet.__init__``)."""
    inits, built = once("constructions", module, _constructions)
    init = inits.get(class_name)
    if init is None:
        return True
    defaults = defaults_of(init)
    names = [p.arg for p in [*init.args.posonlyargs, *init.args.args]][1:]  # (the receiver is not handed)
    calls = built.get(class_name, ())
    if not calls:
        return literal_true(defaults.get(flag))
    for call, owner in calls:
        if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
            return True
        handed = {k.arg: k.value for k in call.keywords}
        handed.update(zip(names, call.args))
        value = handed.get(flag)
        if value is None:
            if literal_true(defaults.get(flag)):
                return True
        elif type(value) is ast.Constant:
            if value.value:
                return True
        elif type(value) is not ast.Name or owner is None or value.id not in _parameter_names(inits[owner]) \
                or ((owner, value.id) not in seen and _may_be_true(owner, value.id, module, seen + ((owner, value.id),))):
            return True
    return False


def _parameter_names(function) -> set[str]:
    args = function.args
    return {p.arg for p in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def class_constructions(module: ast.Module) -> dict:
    """Class of the file -> the calls that construct it, each with the class whose ``__init__``
    makes it (or None)."""
    return once("constructions", module, _constructions)[1]


def _constructions(module: ast.Module) -> tuple[dict, dict]:
    """(class name -> its ``__init__``, class name -> [(a call of that name, the class whose
    ``__init__`` makes it or None)]) over the file."""
    inits: dict = {}
    owners: dict = {}
    for node in iter_nodes(module):
        if type(node) is ast.ClassDef:
            for stmt in node.body:
                if type(stmt) in _FUNCTIONS and stmt.name == "__init__":
                    inits[node.name] = stmt
                    for call in iter_nodes(stmt):
                        if type(call) is ast.Call:
                            owners[id(call)] = node.name
    built: dict = {}
    for node in iter_nodes(module):
        if type(node) is ast.Call and dotted(node.func) is not None:
            name = dotted(node.func).rpartition(".")[2]
            if name in inits:
                built.setdefault(name, []).append((node, owners.get(id(node))))
    return inits, built


def _with_flags(value, flags: set[str], imports: ImportTable):
    """``nn.ReLU(inplace=inplace)`` (also nested, ``nn.Sequential(…, nn.ReLU(inplace=inplace))``)
    with ``inplace`` one of ``flags``: the call with the flag written ``True`` (a stand-in node, read
    only here; what is unchanged keeps its identity)."""
    if not flags or type(value) is not ast.Call:
        return value
    args = [_with_flags(a, flags, imports) for a in value.args]
    keywords = value.keywords
    if any(k.arg == "inplace" and type(k.value) is ast.Name and k.value.id in flags for k in keywords):
        keywords = [ast.keyword(arg=k.arg, value=ast.copy_location(ast.Constant(True), k.value))
                    if k.arg == "inplace" and type(k.value) is ast.Name and k.value.id in flags else k
                    for k in keywords]
    at = saves.inplace_argument(imports.qualname(value.func) or "")
    if at is not None and len(args) > at and type(args[at]) is ast.Name and args[at].id in flags:
        args[at] = ast.copy_location(ast.Constant(True), args[at])
    if keywords is value.keywords and all(a is b for a, b in zip(args, value.args)):
        return value
    return ast.copy_location(ast.Call(func=value.func, args=args, keywords=keywords), value)


# torch's reparametrizations of a module's weight: each returns the module it is given, which
# saves what it saved before (its weight is recomputed from the new parameters at each call)
PARAMETRIZATIONS = frozenset({
    f"torch.nn.utils.{where}{name}" for where in ("", "parametrizations.")
    for name in ("weight_norm", "spectral_norm")} | {"torch.nn.utils.parametrizations.orthogonal"})


def module_info(expr: ast.expr, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """What module a constructor call makes: ``nn.Conv2d(…)``, ``nn.ReLU(inplace=True)``, ``nn.Sequential(…)``;
    also where it is the default of a name (``sched or Cosine(…)``, ``Cosine(…) if sched is None
    else sched``): what stands in for it is meant to be one of those."""
    if type(expr) in (ast.BoolOp, ast.IfExp):
        return _defaulted_module(expr, imports, classes)
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in ("to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_"):
        expr = expr.func.value
    if type(expr) is ast.Call and expr.args and imports.qualname(expr.func) in PARAMETRIZATIONS:
        return module_info(expr.args[0], imports, classes)
    if type(expr) is not ast.Call:
        return None
    name = imports.qualname(expr.func)
    if name is None:
        return None
    inplace = any(k.arg == "inplace" and literal_true(k.value) for k in expr.keywords)
    at = saves.inplace_argument(name)
    positional = [a for a in expr.args if type(a) is not ast.Starred]
    inplace = inplace or (at is not None and len(positional) > at and literal_true(positional[at]))  # nn.ReLU(True)
    if name.startswith("torch.nn.") and name.split(".")[-1][:1].isupper():
        if name == "torch.nn.Sequential":
            return _sequential_info(expr, imports, classes)
        if name == "torch.nn.ModuleList":
            # (its own `saves_output`: what a forward chaining its layers, `for layer in
            # self.layers: x = layer(x)`, returns saved, the last layer's output)
            return ModuleInfo(name, items=_elements_info(expr, imports, classes),
                              saves_output=_chain_end_saves(expr, imports, classes))
        data = saves.module_saves(name)
        if data is None:
            return ModuleInfo(name, inplace=inplace, parameters=not name.endswith("Loss"))
        inplace = inplace and data.inplace_kwarg
        if name.startswith("torch.nn.AdaptiveAvgPool") and positional and _all_ones(positional[0]):
            # torch computes an adaptive average pool to size 1 as a mean, which keeps only the
            # input's sizes (measured: MeanBackward1), not the input
            return ModuleInfo(name, parameters=False)
        return ModuleInfo(name, inplace=inplace, saves_input=data.input and not inplace,
                          saves_output=data.inplace_output if inplace else data.output,
                          parameters=data.parameters, saves_args=frozenset(i for i in data.inputs if i > 0),
                          renorms=name in MAX_NORM_AT and _given(expr, "max_norm", MAX_NORM_AT[name]))
    cls = classes.get(name)
    if cls is not None:
        layers = _sequential_layers(cls)
        if layers is not None:
            # (`class ConvBNReLU(nn.Sequential)` handing its layers to `super().__init__`: what
            # it saves is what that Sequential saves)
            info = _sequential_info(layers, imports, classes)
            return ModuleInfo(name, inplace=info.inplace, saves_input=info.saves_input,
                              saves_output=info.saves_output, nograd_call=cls.nograd_call, parameters=cls.parameters)
        return ModuleInfo(name, nograd_call=cls.nograd_call, parameters=cls.parameters)
    return None


def _sequential_layers(cls) -> ast.Call | None:
    """A subclass of ``nn.Sequential`` with no forward of its own whose ``__init__`` hands its layers
    to ``super().__init__(…)``: that call."""
    if "torch.nn.Sequential" not in cls.bases or cls.init is None or "forward" in cls.methods:
        return None
    calls = [n for n in ast.walk(cls.init) if type(n) is ast.Call and type(n.func) is ast.Attribute
             and n.func.attr == "__init__" and type(n.func.value) is ast.Call
             and type(n.func.value.func) is ast.Name and n.func.value.func.id == "super"]
    return calls[0] if len(calls) == 1 and calls[0].args and not any(type(a) is ast.Starred for a in calls[0].args) else None


# The lookups that renormalise their weight's rows in place when given `max_norm`, and its place
MAX_NORM_AT = {"torch.nn.Embedding": 3, "torch.nn.EmbeddingBag": 2}


def _given(call: ast.Call, name: str, at: int) -> bool:
    """The call hands argument ``name`` (or position ``at``) something other than ``None``."""
    value = next((k.value for k in call.keywords if k.arg == name), None)
    if value is None and len(call.args) > at and not any(type(a) is ast.Starred for a in call.args[:at + 1]):
        value = call.args[at]
    return value is not None and not (type(value) is ast.Constant and value.value is None)


def _all_ones(expr) -> bool:
    """``1`` or ``(1, 1)``: an output size of one element per channel."""
    items = expr.elts if type(expr) is ast.Tuple else [expr]
    return bool(items) and all(type(e) is ast.Constant and e.value == 1 for e in items)


def _defaulted_module(expr, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    if type(expr) is ast.BoolOp:
        if type(expr.op) is not ast.Or:
            return None
        parts = expr.values
    else:
        parts = [expr.body, expr.orelse]
    made = [part for part in parts if not (type(part) is ast.Name or _number_or_none(part))]
    if len(made) == 2 and type(expr) is ast.IfExp:
        # one of two built (`nn.Sequential(*layers, nn.Tanh()) if tanh else nn.Sequential(*layers)`)
        from gradlint.analysis.values import joined_module

        return joined_module(module_info(made[0], imports, classes), module_info(made[1], imports, classes))
    if len(made) != 1:  # (the others: the argument, or None)
        return None
    return module_info(made[0], imports, classes)


def _fill_module_lists(appended: list, built: list, imports: ImportTable, classes: dict) -> None:
    """``self.blocks = nn.ModuleList()`` filled in ``__init__`` by ``self.blocks.append(Block(d))``
    with one constructor only: each element is that module."""
    empty = {(id(info), name) for info, name, value in built
             if type(value) is ast.Call and not value.args and not value.keywords}
    found: dict = {}
    for info, name, value in appended:
        found.setdefault((id(info), name), (info, name, set()))[2].add(module_info(value, imports, classes))
    for key, (info, name, infos) in found.items():
        held = info.attrs.get(name)
        if key in empty and held is not None and held.qualname == "torch.nn.ModuleList" \
                and len(infos) == 1 and None not in infos:
            info.attrs[name] = replace(held, items=infos.pop())


def _elements_info(call: ast.Call, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """What every element of ``nn.ModuleList([Block(d) for _ in range(n)])`` or
    ``nn.ModuleList([Block(d), Block(d)])`` is, where all are built by one constructor: a block
    taken out of the list by index or by a ``for`` is that module."""
    arg = first_argument(call)
    if type(arg) in (ast.ListComp, ast.GeneratorExp):
        elements = [arg.elt]
    elif type(arg) in (ast.List, ast.Tuple) and arg.elts:
        elements = arg.elts
    else:
        return None
    infos = {module_info(e, imports, classes) for e in elements}
    return infos.pop() if len(infos) == 1 else None


def _chain_end_saves(call: ast.Call, imports: ImportTable, classes: dict) -> bool | None:
    """Whether the last layer of ``nn.ModuleList([conv, bn, nn.ReLU()])`` saves its output (what
    a loop applying each layer to the last one's output leaves); None where unknown."""
    arg = first_argument(call)
    if type(arg) in (ast.ListComp, ast.GeneratorExp):
        last = module_info(arg.elt, imports, classes)
    elif type(arg) in (ast.List, ast.Tuple) and arg.elts and not any(type(e) is ast.Starred for e in arg.elts):
        layers = [module_info(e, imports, classes) for e in arg.elts]
        while len(layers) > 1 and layers[-1] is not None and layers[-1].qualname in _HANDS_ON:
            layers.pop()
        last = layers[-1]
    elif type(arg) is ast.Name:
        last = _last_added(arg, call, imports, classes)
    else:
        return None
    return last.saves_output if last is not None else None


def _last_added(name: ast.Name, call: ast.Call, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """The layer a list handed by its name (`nn.ModuleList(layers)`) ends with, as the function
    building it fills it (`layers = […]`, `layers += [nn.Linear(h, n), nn.Sigmoid()]`,
    `layers.append(…)`): its last statement at the function's own level that adds to it, where
    that statement's last element is written out; None where unknown."""
    functions = [*imports.defined.values(),
                 *(c.init for c in getattr(classes, "values", lambda: ())() if getattr(c, "init", None) is not None)]
    function = next((f for f in functions if f.lineno <= call.lineno <= (f.end_lineno or f.lineno)), None)
    if function is None:
        return None
    last = None
    for stmt in function.body:
        if stmt.lineno >= call.lineno:
            break
        if not any(type(n) is ast.Name and n.id == name.id for n in ast.walk(stmt)):
            continue
        added = None
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name \
                and stmt.targets[0].id == name.id:
            added = stmt.value
        elif type(stmt) is ast.AugAssign and type(stmt.target) is ast.Name and stmt.target.id == name.id \
                and type(stmt.op) is ast.Add:
            added = stmt.value
        elif type(stmt) is ast.Expr and type(stmt.value) is ast.Call and type(stmt.value.func) is ast.Attribute \
                and dotted(stmt.value.func.value) == name.id and stmt.value.func.attr in ("append", "extend") \
                and len(stmt.value.args) == 1:
            added = stmt.value.args[0]
            if stmt.value.func.attr == "append":
                added = ast.List(elts=[added], ctx=ast.Load())
        if type(added) in (ast.List, ast.Tuple) and added.elts and type(added.elts[-1]) is not ast.Starred:
            last = module_info(added.elts[-1], imports, classes)
        else:
            last = None  # (filled in a loop, or by what the walk cannot read: unknown from here)
    return last


def _factory_module(value: ast.expr, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """What a function of the module called there builds (`self.down = stage(8, 16)` of `def
    stage(…): return nn.Sequential(…)`): the module its every return constructs, where all agree."""
    if type(value) is not ast.Call or type(value.func) is not ast.Name or value.func.id not in imports.defined:
        return None
    function = imports.defined[value.func.id]
    return _agreed([module_info(n.value, imports, classes) for n in ast.walk(function)
                    if type(n) is ast.Return and n.value is not None])


def _bound_module(name: ast.expr, call: ast.Call, imports: ImportTable, classes: dict) -> ModuleInfo | None:
    """A layer handed by a name a factory of the module binds (`act = nn.LeakyReLU(0.2,
    inplace=True)`, then `nn.Sequential(act, conv)`): the module every assignment of it there
    builds, where all agree."""
    if type(name) is not ast.Name or id(call) in _BINDING:
        return None
    function = next((f for f in imports.defined.values()
                     if f.lineno <= call.lineno <= (f.end_lineno or f.lineno)), None)
    if function is None:
        return None
    # (`op = nn.Sequential(op, DropPath())` binds the name from itself: read once, not again)
    _BINDING.add(id(call))
    try:
        built = [module_info(n.value, imports, classes) for n in ast.walk(function)
                 if type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name
                 and n.targets[0].id == name.id]
    finally:
        _BINDING.discard(id(call))
    return _agreed(built)


_BINDING: set = set()  # the Sequential calls whose named layers are being read (``_bound_module``)


def _agreed(built: list) -> ModuleInfo | None:
    """The one module every entry of ``built`` is, or None (none, an unknown one, or two kinds)."""
    return built[0] if built and built[0] is not None and all(b == built[0] for b in built) else None


# Layers whose output is their input itself or a view of it: an edit of it edits what came before
_HANDS_ON = frozenset({"torch.nn.Identity", "torch.nn.Flatten", "torch.nn.Unflatten"})


def _sequential_info(call: ast.Call, imports: ImportTable, classes: dict) -> ModuleInfo:
    items = [module_info(a, imports, classes) or _bound_module(a, call, imports, classes)
             for a in call.args if type(a) is not ast.Starred]
    if not items:
        return ModuleInfo("torch.nn.Sequential")
    first, last = items[0], items[-1]
    ends = len(items) - 1
    while ends and last is not None and last.qualname in _HANDS_ON:
        # (`nn.Sequential(conv, nn.Sigmoid(), nn.Identity())`: the container's output is the sigmoid's)
        ends -= 1
        last = items[ends]
    return ModuleInfo(
        "torch.nn.Sequential",
        # (`nn.Sequential(nn.LeakyReLU(0.2, inplace=True), conv)`: its first layer edits the
        # input it is handed in place)
        inplace=first.inplace if first is not None else False,
        saves_input=first.saves_input if first is not None else None,
        saves_output=last.saves_output if last is not None else None,
        parameters=any(item is None or item.parameters for item in items),
    )


def is_fresh_copy(expr) -> bool:
    """``x.detach().clone()``, ``x.data.clone()``: a copy made to be a new leaf on purpose."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute:
        if expr.func.attr in ("detach", "clone"):
            return True
        expr = expr.func.value
    return type(expr) is ast.Attribute and expr.attr == "data"


# Statements that hold other statements and that the loop scan does not enter.
_NOT_ENTERED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match)


def assigned_and_carried(loop) -> tuple[set[str], set[str]]:
    """Names a loop body binds, and those it reads before binding them in the same iteration."""
    from gradlint.analysis.tree import once

    return once("carried", loop, _assigned_and_carried)


def _assigned_and_carried(loop) -> tuple[set[str], set[str]]:
    carried: set[str] = set()

    def reads(node) -> set[str]:
        # (an attribute's or a keyword's name reads no variable: `log_prob = dist.log_prob(a)`
        # carries nothing from the last iteration)
        found: set[str] = set()
        if node is None:
            return found
        for child in iter_nodes(node, into_functions=False):
            kind = type(child)
            if kind is ast.Name:
                found.add(child.id)
                continue
            if kind is ast.Attribute:
                name = dotted(child)
                if name is not None and "." in name:
                    # (`model.states` of an object the function holds too, as `self.states`)
                    found.add(".".join(name.split(".")[:2]))
                continue
            elif kind is ast.alias or kind is ast.ImportFrom:  # `import self.x` was an Attribute too
                name = child.name if kind is ast.alias else child.module
                if name and name.startswith("self."):
                    found.add(".".join(name.split(".")[:2]))
            if kind is not ast.keyword:
                found.update(_identifiers(child))
        return found

    def writes(target) -> set[str]:
        out: set[str] = set()
        if type(target) is ast.Name:
            out.add(target.id)
        elif type(target) is ast.Attribute:
            name = dotted(target)
            if name is not None and name.count(".") == 1:
                out.add(name)
        elif type(target) in (ast.Tuple, ast.List):
            for element in target.elts:
                out |= writes(element)
        elif type(target) is ast.Starred:
            out |= writes(target.value)
        elif type(target) is ast.Subscript and type(target.value) in (ast.Name, ast.Attribute):
            out |= writes(target.value)  # `memory["h"] = …`: the container's state changes
        return out

    order: list[tuple[set[str], set[str]]] = []

    def statement(stmt) -> None:
        kind = type(stmt)
        if kind is ast.Assign:
            order.append((reads(stmt.value), set().union(*(writes(t) for t in stmt.targets))))
        elif kind is ast.AnnAssign:
            order.append((reads(stmt.value), writes(stmt.target)))
        elif kind is ast.AugAssign:
            names = writes(stmt.target)
            order.append((reads(stmt.value) | names, names))
        elif kind in _FORS:
            order.append((reads(stmt.iter), writes(stmt.target)))
            for inner in stmt.body:
                statement(inner)
        elif kind is ast.If or kind is ast.While:
            # an `elif` is an If inside `orelse`: its test is read in the same order
            order.append((reads(stmt.test), set()))
            for inner in stmt.body:
                statement(inner)
            for inner in stmt.orelse:
                statement(inner)
        elif kind in _WITHS:
            for item in stmt.items:
                order.append((reads(item.context_expr),
                              writes(item.optional_vars) if item.optional_vars is not None else set()))
            for inner in stmt.body:
                statement(inner)
        elif kind in _TRIES:
            for inner in stmt.body:
                statement(inner)
            for handler in stmt.handlers:
                for inner in handler.body:
                    statement(inner)
        elif kind is ast.Expr and type(stmt.value) is ast.Call and type(stmt.value.func) is ast.Attribute \
                and stmt.value.func.attr in _FILLS:
            # `history.append(loss)`: the list read, then holding one more item
            order.append((reads(stmt), writes(stmt.value.func.value)))
        elif kind not in _NOT_ENTERED:
            order.append((reads(stmt), set()))

    if type(loop) in _FORS:
        order.append((set(), writes(loop.target)))
    for stmt in loop.body:
        statement(stmt)
    del statement, writes  # (each calls itself: a cycle, as in ``scan_classes``)
    every_write = set().union(*(w for _, w in order)) if order else set()
    seen: set[str] = set()
    for read, write in order:
        carried |= (read & every_write) - seen
        seen |= write
    return every_write, carried


_FILLS = ("append", "extend", "insert")


def detached_in(loop, module=None) -> set[str]:
    """Names the loop body rebinds to a detached copy of themselves or detaches in place.

    A cut counts for a target only when what it cuts reads that target (``h = h.detach()``,
    ``h = repackage_hidden(h)``, ``state = {k: v.detach() for k, v in state.items()}``):
    ``h = cell(x.detach(), h)`` cuts the input, and ``h`` keeps its history."""
    from gradlint.analysis.tree import once

    helpers = once("cutting-helpers", module, _cutting_helpers) if module is not None else frozenset()
    return once("detached", loop, _detached_in, helpers)


def _cutting_helpers(module) -> frozenset:
    """The module's functions each of whose returns is a detached copy of what it is handed
    (``def detach_var(v): var = v.detach().requires_grad_(); var.retain_grad(); return var``)."""
    found = set()
    # (and the classes' methods, called on `self`: `state = self._truncate(state)`)
    methods = [(f"self.{m.name}", m) for c in module.body if type(c) is ast.ClassDef
               for m in c.body if type(m) is ast.FunctionDef]
    for name, fn in [(getattr(f, "name", None), f) for f in module.body] + methods:
        if type(fn) is not ast.FunctionDef:
            continue
        made = {dotted(t) for n in iter_nodes(fn, into_functions=False) if type(n) is ast.Assign
                and _wholly_cut(n.value) for t in n.targets if type(t) is ast.Name}
        returns = [n for n in iter_nodes(fn, into_functions=False) if type(n) is ast.Return]
        if any(r.value is None for r in returns):
            continue
        # (each arm of a conditional return, `return h.detach() if … else tuple(fresh(v) for v in h)`)
        values = [v for r in returns for v in _arms_of(r.value)]
        # (a recursion over nested state, `return tuple(fresh(v) for v in h)`, cuts what its base
        # case cuts)
        recursive = [v for v in values if _cut_whole(v, by=fn.name)]
        if values and len(recursive) < len(values) and all(
                v in recursive or _cut_whole(v) or (type(v) is ast.Name and v.id in made) for v in values):
            found.add(name)
    return frozenset(found)


def _arms_of(expr) -> list:
    """The values a conditional expression may take (each arm, nested), or the expression."""
    if type(expr) is ast.IfExp:
        return _arms_of(expr.body) + _arms_of(expr.orelse)
    return [expr]


def _cut_whole(expr, by: str | None = None) -> bool:
    """``expr`` is cut whole, or is a tuple or list each of whose items is (``tuple(s.detach() for s
    in state)``, ``(h.detach(), c.detach())``); with ``by``, each item a call of that function
    instead (its recursion)."""
    def cut(e) -> bool:
        return type(e) is ast.Call and type(e.func) is ast.Name and e.func.id == by if by else _wholly_cut(e)

    if type(expr) is ast.Call and type(expr.func) is ast.Name and expr.func.id in ("tuple", "list") \
            and len(expr.args) == 1:
        expr = expr.args[0]
    if type(expr) in (ast.GeneratorExp, ast.ListComp):
        return cut(expr.elt)
    if type(expr) in (ast.Tuple, ast.List):
        return bool(expr.elts) and all(cut(e) for e in expr.elts)
    return cut(expr)


def _detached_in(loop, helpers=frozenset()) -> set[str]:
    found: set[str] = set()
    for stmt in loop.body:
        for node in iter_nodes(stmt, into_functions=False):
            if type(node) is ast.Assign:
                value = node.value
                drawn: dict[str, set[str]] = {}  # a comprehension variable -> what it is drawn from
                for n in iter_nodes(value):
                    if type(n) in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
                        for comp in n.generators:
                            source = _read_names(comp.iter)
                            for target in _read_names(comp.target):
                                drawn.setdefault(target, set()).update(source)
                cut_reads: set[str] = set()
                for n in iter_nodes(value):
                    if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "detach":
                        cut_reads |= _read_names(n.func.value)
                    elif type(n) is ast.Attribute and n.attr == "data":
                        cut_reads |= _read_names(n.value)
                    # (a helper that detaches, `repackage_hidden(h)`, is known by its body: the
                    # summary of its call carries the cut, whatever the helper is named)
                for n in iter_nodes(value):
                    if type(n) is ast.Call and type(n.func) in (ast.Name, ast.Attribute) and dotted(n.func) in helpers:
                        cut_reads |= set().union(*(_read_names(a) for a in n.args)) if n.args else set()
                for name in list(cut_reads):
                    cut_reads |= drawn.get(name, set())
                if _wholly_cut(value) \
                        or (type(value) is ast.Call and type(value.func) in (ast.Name, ast.Attribute) and dotted(value.func) in helpers):
                    # (`current = message.detach().requires_grad_(True)`, `h = fresh(h)`: whatever
                    # it held, the name holds no history from earlier iterations)
                    found |= {dotted(t) for t in node.targets if type(t) in (ast.Name, ast.Attribute) and dotted(t)}
                if not cut_reads:
                    continue
                for target in node.targets:
                    names: set[str] = set()
                    for n in iter_nodes(target):
                        # every name in the target, the attribute names of `self.h` included
                        name = dotted(n) if type(n) in (ast.Name, ast.Attribute) else None
                        if name:
                            names.add(name)
                        if type(n) is not ast.Name:
                            names.update(_identifiers(n))
                    if names & cut_reads:
                        found |= names
            elif type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "detach_":
                name = dotted(node.func.value)
                if name:
                    found.add(name)
    # (`loss.backward(retain_graph=True)` … `loss = 0.0` in one block: the sum starts afresh
    # right after each backward of it, and holds no earlier history then)
    for node in iter_nodes(loop, into_functions=False):
        for block in (getattr(node, "body", None), getattr(node, "orelse", None)):
            if type(block) is not list:
                continue
            backed = set()
            for stmt in block:
                if type(stmt) is ast.Expr and type(stmt.value) is ast.Call and type(stmt.value.func) is ast.Attribute \
                        and stmt.value.func.attr == "backward":
                    # (`(window_loss / window).backward(…)`: the sums its root is scaled from)
                    root = stmt.value.func.value
                    while type(root) is ast.BinOp and type(root.right) in (ast.Name, ast.Constant):
                        root = root.left
                    if dotted(root):
                        backed.add(dotted(root))
                elif type(stmt) is ast.Assign and type(stmt.value) is ast.Constant \
                        and type(stmt.value.value) in (int, float):
                    found |= {dotted(t) for t in stmt.targets if dotted(t) in backed}
    return found


# Methods that keep what a cut leaves cut: a copy, a cast, a move, a leaf switched on.
_KEEPS_CUT = frozenset({"requires_grad_", "clone", "to", "float", "double", "half", "cpu", "cuda", "contiguous"})


def _wholly_cut(expr) -> bool:
    """``expr`` is a `.detach()` (or `.data`) at the top, possibly copied, cast or switched on
    after it: the value has no history, whatever it was taken from."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in _KEEPS_CUT:
        expr = expr.func.value
    return (type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr == "detach") or (
        type(expr) is ast.Attribute and expr.attr == "data")


def _read_names(expr) -> set[str]:
    """The names and dotted names (``self.h``, ``state.h``) an expression reads."""
    found: set[str] = set()
    for n in iter_nodes(expr):
        if type(n) in (ast.Name, ast.Attribute):
            name = dotted(n)
            if name:
                found.add(name)
    return found


def intended_leaves(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Module, imports: ImportTable) -> set[str]:
    """Names a function differentiates against (``autograd.grad(out, [x])``) or whose ``.grad``
    it computes with: a leaf made there on purpose (WGAN-GP interpolates, adversarial inputs).
    Asked by each walk of the function (its summary, the file's walk, a silent walk): read once
    per lint (the set is shared, not to be changed)."""
    from gradlint.analysis.tree import once

    return once("leaves", node, _intended_leaves, imports)


def _intended_leaves(node, imports: ImportTable) -> set[str]:
    found: set[str] = set()
    followed: set[str] = set()
    bound: dict[str, list] = {}  # name -> what the body assigns or appends to it

    def names_in(expr) -> None:
        if type(expr) is ast.Starred:
            expr = expr.value
        if type(expr) is ast.Name:
            found.add(expr.id)
            if expr.id not in followed:  # `params = [z]; params += noises; Adam(params)`
                followed.add(expr.id)
                for value in bound.get(expr.id, ()):
                    names_in(value)
        elif type(expr) is ast.BinOp and type(expr.op) is ast.Add:  # `[latent] + noises`
            names_in(expr.left)
            names_in(expr.right)
        elif type(expr) in (ast.List, ast.Tuple):
            for element in expr.elts:
                names_in(element)
        elif type(expr) is ast.Dict:  # a param group: {"params": [centers], "lr": …}
            for key, value in zip(expr.keys, expr.values):
                if key is not None:
                    names_in(value)
        elif expr is not None:
            name = dotted(expr)
            if name:
                found.add(name)

    calls, asserts, grads = [], [], []
    for node_ in iter_nodes(node, into_functions=False):
        kind = type(node_)
        if kind is ast.Call:
            calls.append(node_)
            func = node_.func
            if type(func) is ast.Attribute and func.attr in ("append", "extend") and type(func.value) is ast.Name \
                    and node_.args:
                bound.setdefault(func.value.id, []).append(node_.args[0])
        elif kind is ast.Attribute and node_.attr == "grad":
            grads.append(node_)
        elif kind is ast.Assert:
            asserts.append(node_)
        elif kind is ast.Assign and len(node_.targets) == 1 and type(node_.targets[0]) is ast.Name:
            bound.setdefault(node_.targets[0].id, []).append(node_.value)
        elif kind is ast.AugAssign and type(node_.target) is ast.Name:
            bound.setdefault(node_.target.id, []).append(node_.value)
    logged: set[int] = set()  # nodes inside print()/logging calls: a .grad read there is a look
    for node_ in calls:
        func = node_.func
        if (type(func) is ast.Name and func.id == "print") or (
                type(func) is ast.Attribute and func.attr in _LOGGING):
            if grads:
                logged.update(id(n) for arg in [*node_.args, *node_.keywords] for n in iter_nodes(arg))
            continue
        qual = imports.qualname(func) or ""
        if qual.startswith("torch.optim.") or (type(func) is ast.Attribute and func.attr == "add_param_group"):
            for value in _argument_values(node_):  # a tensor handed to an optimizer is the thing being solved for
                names_in(value)
        elif qual == "torch.autograd.grad":
            # `*a` and `**k` have no keyword: they count among the positionals, as written
            positional = [a.value if type(a) is ast.Starred else a for a in node_.args] + [
                k.value for k in node_.keywords if k.arg is None]
            keywords = {k.arg: k.value for k in node_.keywords if k.arg is not None}
            names_in(keywords.get("inputs", positional[1] if len(positional) > 1 else None))
    if grads:
        for check in asserts:  # `assert x.grad is not None` only looks
            logged.update(id(n) for n in iter_nodes(check))
    for attr in grads:
        if id(attr) not in logged:
            name = dotted(attr.value)
            if name:
                found.add(name)
    del names_in  # (it calls itself: a cycle, as in ``scan_classes``)
    return found


def leaves_handed_on(node, module: ast.Module, imports: ImportTable) -> set[str]:
    """Names a function hands to a function of this file, or to a method of its class
    (``self.penalty(…)``), at a place that function differentiates against: the gradient
    penalty's ``compute_grad2(d_fake, x_fake)`` around ``autograd.grad(d_out.sum(), x_in)``.
    A leaf made for that is made on purpose, as where the call to ``grad`` is the function's own;
    so does a function of another file of the project (``from utils import r1_reg``)."""
    places = leaf_places(module, imports)
    view = imports.project
    if not places and view is None:
        return set()
    found = set()
    for call in iter_nodes(node, into_functions=False):
        if type(call) is not ast.Call:
            continue
        func = call.func
        name = func.id if type(func) is ast.Name else func.attr if (
            type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id == "self") else None
        wanted = places.get(name)
        if not wanted and view is not None and (type(func) is ast.Name or (
                type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id != "self")):
            # (a gradient penalty imported from a helpers file: `r1_reg(out, real)`)
            written = dotted(func)
            qualname = imports.qualname(func) if written and written.split(".")[0] in imports.sources else (
                written if written and imports.stars and "." not in written else None)
            wanted = view.leaf_places(qualname) if qualname and not qualname.startswith("torch.") else None
        if not wanted:
            continue
        for key, arg in [*enumerate(call.args), *((k.arg, k.value) for k in call.keywords)]:
            if key in wanted and dotted(arg):
                found.add(dotted(arg))
    return found


def leaf_places(module: ast.Module, imports: ImportTable) -> dict[str, set]:
    """``_leaf_places``, once per module."""
    from gradlint.analysis.tree import once

    return once("leaf-places", module, _leaf_places, imports)


def _leaf_places(module: ast.Module, imports: ImportTable) -> dict[str, set]:
    """Function or method name -> the places (argument position as called, parameter name) of
    the parameters it differentiates against."""
    out: dict[str, set] = {}
    for fn in ast.walk(module):
        if type(fn) not in _FUNCTIONS or "grad" not in {n.attr for n in ast.walk(fn) if type(n) is ast.Attribute} | {
                n.id for n in ast.walk(fn) if type(n) is ast.Name}:
            continue
        params = [p.arg for p in [*fn.args.posonlyargs, *fn.args.args]]
        if params and params[0] in ("self", "cls"):
            params = params[1:]
        leaves = intended_leaves(fn, imports)
        mine = {i for i, p in enumerate(params) if p in leaves} | {p for p in params if p in leaves}
        if mine:
            out.setdefault(fn.name, set()).update(mine)
    return out


def custom_functions(module: ast.Module, imports: ImportTable) -> frozenset[str]:
    """The names of the module's ``torch.autograd.Function`` subclasses."""
    return frozenset(stmt.name for stmt in module.body if type(stmt) is ast.ClassDef and any(
        imports.qualname(base) == "torch.autograd.Function" for base in stmt.bases))


def function_saves(module: ast.Module, imports: ImportTable) -> dict[str, frozenset]:
    """The ``torch.autograd.Function`` subclasses of the module, as called (``Splat.apply`` and
    a name bound to it, ``splat = Splat.apply``) -> the positions of the arguments its
    ``forward`` hands to ``ctx.save_for_backward`` as given: an edit in place of such an
    argument after the call breaks the backward."""
    from gradlint.analysis.tree import once

    return once("function-saves", module, _function_saves, imports)


def _function_saves(module: ast.Module, imports: ImportTable) -> dict[str, frozenset]:
    found: dict[str, frozenset] = {}
    for stmt in module.body:
        if type(stmt) is not ast.ClassDef or not any(
                imports.qualname(base) == "torch.autograd.Function" for base in stmt.bases):
            continue
        forward = next((f for f in stmt.body if type(f) in _FUNCTIONS and f.name == "forward"), None)
        if forward is None:
            continue
        params = [p.arg for p in [*forward.args.posonlyargs, *forward.args.args]]
        if not params:
            continue
        ctx, inputs = params[0], params[1:]
        rebound = {t.id for n in iter_nodes(forward) if type(n) in (ast.Assign, ast.AugAssign)
                   for t in (n.targets if type(n) is ast.Assign else [n.target]) if type(t) is ast.Name}
        saved = set()
        for call in iter_nodes(forward):
            if type(call) is ast.Call and type(call.func) is ast.Attribute and call.func.attr == "save_for_backward" \
                    and type(call.func.value) is ast.Name and call.func.value.id == ctx:
                saved |= {inputs.index(a.id) for a in call.args
                          if type(a) is ast.Name and a.id in inputs and a.id not in rebound}
        if saved:
            found[f"{stmt.name}.apply"] = frozenset(saved)
    return _with_apply_aliases(found, module)


def _with_apply_aliases(found: dict, module: ast.Module) -> dict:
    """``found`` (keyed ``Splat.apply``) with the names the module binds to those (``splat =
    Splat.apply``) under the same value."""
    for stmt in module.body:
        if type(stmt) is ast.Assign and len(stmt.targets) == 1 and type(stmt.targets[0]) is ast.Name \
                and dotted(stmt.value) in found:
            found[stmt.targets[0].id] = found[dotted(stmt.value)]
    return found


def function_edits(module: ast.Module, imports: ImportTable) -> dict:
    """The ``torch.autograd.Function`` subclasses of the module, as called (``Splat.apply``, or a
    name bound to it) -> {position: (the edit, as written)} for each input its ``forward`` edits
    in place (``ctx.mark_dirty`` or not), directly or through a rebinding that may be the same
    tensor (``logits = logits.float()`` of float32 logits, ``.contiguous()``, ``.view(…)``): the
    caller's tensor is edited, and what an op of the caller saved of it is stale at backward."""
    return once("function-edits", module, _function_edits, imports)


_SAME_TENSOR = {"float", "contiguous", "to", "type_as", "view", "reshape", "view_as", "flatten", "squeeze",
                "unsqueeze", "permute", "transpose", "t"}


def _function_edits(module: ast.Module, imports: ImportTable) -> dict:
    found: dict = {}
    for stmt, inputs, events in _function_forwards(module, imports):
        edits: dict = {}
        for kind, node, name, of_input in events:
            if kind == "edit" and of_input and inputs.index(name) not in edits:
                edits[inputs.index(name)] = node
        if edits:
            found[f"{stmt.name}.apply"] = edits
    return _with_apply_aliases(found, module)


def _function_forwards(module: ast.Module, imports: ImportTable):
    """Each ``torch.autograd.Function`` subclass of the module, its ``forward``'s inputs (after
    ``ctx``), and what that forward does, in source order: ``("edit", node, name, of_input)`` for
    an in-place edit of ``name`` (the input it may still be, through rebindings that may be the
    same tensor: ``logits = logits.float()``; a rebinding to anything else ends it), and
    ``("save_for_backward" | "mark_dirty", call, names, False)`` for those calls on ``ctx``."""
    from gradlint.analysis import saves

    for stmt in module.body:
        if type(stmt) is not ast.ClassDef or not any(
                imports.qualname(base) == "torch.autograd.Function" for base in stmt.bases):
            continue
        forward = next((f for f in stmt.body if type(f) in _FUNCTIONS and f.name == "forward"), None)
        params = [p.arg for p in [*forward.args.posonlyargs, *forward.args.args]] if forward is not None else []
        if len(params) < 2:
            continue
        ctx, inputs = params[0], params[1:]
        holds = {name: name for name in inputs}  # name -> the input it may still be
        events = []
        for node in iter_nodes(forward):
            if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                value, name = node.value, node.targets[0].id
                same = type(value) is ast.Call and type(value.func) is ast.Attribute \
                    and value.func.attr in _SAME_TENSOR and type(value.func.value) is ast.Name \
                    and value.func.value.id in holds
                if same:
                    holds[name] = holds[value.func.value.id]
                else:
                    holds.pop(name, None)
                continue
            if type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name \
                    and node.func.value.id == ctx and node.func.attr in ("save_for_backward", "mark_dirty"):
                events.append((node.func.attr, node,
                               frozenset(holds.get(a.id, a.id) for a in node.args if type(a) is ast.Name), False))
                continue
            target = None
            if type(node) is ast.AugAssign and type(node.target) is ast.Name:
                target = node.target.id
            elif type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Subscript \
                    and type(node.targets[0].value) is ast.Name:
                target = node.targets[0].value.id
            elif type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name \
                    and saves.is_inplace_method(node.func.attr):
                target = node.func.value.id
            if target is not None:
                events.append(("edit", node, holds.get(target, target), target in holds))
        yield stmt, inputs, events


def function_saved_edits(module: ast.Module, imports: ImportTable) -> list:
    """``(edit, name saved, the save_for_backward call)`` for each in-place edit a
    ``torch.autograd.Function``'s ``forward`` makes, after handing it to ``ctx.save_for_backward``,
    of a tensor it does not declare with ``ctx.mark_dirty`` (an input also through a rebinding
    that may be the same tensor, ``scores = logits.float()``). A Function's saved tensors are
    packed when ``forward`` returns, so no version check catches it: backward silently reads the
    edited values, not those saved (an edit before the save is saved as edited, on purpose)."""
    return once("function-saved-edits", module, _function_saved_edits, imports)


def _function_saved_edits(module: ast.Module, imports: ImportTable) -> list:
    found = []
    for _, _, events in _function_forwards(module, imports):
        saved_at: dict = {}  # the input or name saved -> the save call
        dirty = frozenset().union(*(names for kind, _, names, _ in events if kind == "mark_dirty"))
        for kind, node, names, _ in events:
            if kind == "save_for_backward":
                for name in names:
                    saved_at.setdefault(name, node)
            # (an edit before the save is saved as edited, which the author reads so on purpose:
            # a normalization constant set in `params` and then saved)
            elif kind == "edit" and names in saved_at and names not in dirty:
                found.append((node, names, saved_at[names]))
    return found


def handed_instances(module: ast.Module, classes, imports: ImportTable) -> dict:
    """(``Class.__init__``, position or keyword) -> the classes of this file each constructor
    call of ``Class`` hands it an instance of (``ParagraphClassifier(encoder)`` with ``encoder =
    SentenceEncoder()``), or the ``ModuleInfo`` of a network of torch's built there
    (``NonLinear(300, 784, activation=nn.Sigmoid())``); None for anything else, read from the
    calls as written: the walk's own ``init_instances`` before any call site is walked."""
    built: dict[str, str | None] = {}
    for node in iter_nodes(module):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            name = node.targets[0].id
            made = _constructed(node.value, classes)
            built[name] = made if name not in built else None  # (a name bound twice: unknown)

    def instance(arg):
        if type(arg) is ast.Name:
            return built.get(arg.id)
        made = _constructed(arg, classes)
        if made is None and type(arg) is ast.Call and (imports.qualname(arg.func) or "").startswith("torch.nn."):
            return module_info(arg, imports, classes)
        return made

    out: dict = {}
    for node in iter_nodes(module):
        if type(node) is not ast.Call or type(node.func) is not ast.Name or node.func.id not in classes:
            continue
        key = f"{node.func.id}.__init__"
        for i, arg in enumerate(node.args):
            if type(arg) is ast.Starred:
                break
            out.setdefault((key, i), set()).add(instance(arg))
        for keyword in node.keywords:
            if keyword.arg is not None:
                out.setdefault((key, keyword.arg), set()).add(instance(keyword.value))
    return out


def _constructed(expr, classes) -> str | None:
    """The class of this file ``expr`` calls (``SentenceEncoder()``), if it is one."""
    if type(expr) is ast.Call and type(expr.func) is ast.Name and expr.func.id in classes:
        return expr.func.id
    return None


def local_functions(module: ast.Module) -> dict:
    """Functions defined below the top level, in a module-level function's body or under a
    top-level ``if``/``try``/``with`` (``def create_model(ema=False)`` in ``main()`` or under
    ``if __name__ == "__main__":``), whose name the module defines once and binds to nothing at
    its top level -> the def: a factory there builds the models the rest of the body trains,
    and a call of it by that name is a call of it."""
    return once("local-functions", module, _local_functions)


def _local_functions(module: ast.Module) -> dict:
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    top = {s.name for s in module.body if type(s) in (*kinds, ast.ClassDef)}
    top |= {t.id for s in module.body if type(s) is ast.Assign for t in s.targets if type(t) is ast.Name}
    counts: dict = {}
    for node in ast.walk(module):
        if type(node) in (*kinds, ast.ClassDef):
            counts[node.name] = counts.get(node.name, 0) + 1
    found: dict = {}
    # (a stack, not a recursive closure: a closure calling itself is a reference cycle that
    # would keep the tree alive past the lint)
    todo = [(module.body, False)]
    while todo:
        stmts, inside_function = todo.pop()
        for stmt in stmts:
            if type(stmt) in kinds:
                if stmts is module.body:
                    todo.append((stmt.body, True))
                elif counts.get(stmt.name) == 1 and stmt.name not in top:
                    found[stmt.name] = stmt
            elif type(stmt) in (ast.If, ast.Try, ast.With, ast.For, ast.While) and (
                    inside_function or type(stmt) is not ast.For and type(stmt) is not ast.While):
                todo += [(getattr(stmt, field, []), inside_function) for field in ("body", "orelse", "finalbody")]
                todo += [(handler.body, inside_function) for handler in getattr(stmt, "handlers", [])]
    return found


def hook_outputs(module: ast.Module) -> dict:
    """Each function the file registers as a forward hook (``layer.register_forward_hook(fn)``:
    a function, a method ``self.keep``, a closure, through ``functools.partial``) -> the name of
    its parameter that receives the hooked module's output. That output is an activation with
    the history of the module's parameters and of its input: a hook storing it cut
    (``self.stored = output.detach()``) keeps a value that trains nothing behind it."""
    return once("hook-outputs", module, _hook_outputs)[0]


def hooked_members(module: ast.Module) -> dict:
    """Each function the file registers as a forward hook on a layer of one of its object's own
    members (``getattr(self.vit, name).register_forward_hook(self._hook)``, a loop over
    ``self.backbone.named_modules()``) -> that member as the object's walk names it
    (``self.vit``): what computed the hooked output, whatever called the layer."""
    return once("hook-outputs", module, _hook_outputs)[1]


def _hooked_member(layer, scope) -> str | None:
    """The ``self.<member>`` that ``layer``, a registration's receiver, is a part of."""
    bound: dict = {}
    for node in iter_nodes(scope, into_functions=False):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            bound.setdefault(node.targets[0].id, []).append(node.value)
        elif type(node) in (ast.For, ast.comprehension):
            targets = node.target.elts if type(node.target) is ast.Tuple else [node.target]
            for t in targets:
                if type(t) is ast.Name:
                    bound.setdefault(t.id, []).append(node.iter)
    seen = set()
    while True:
        if type(layer) is ast.Attribute:
            if type(layer.value) is ast.Name and layer.value.id == "self":
                return f"self.{layer.attr}"
            layer = layer.value
        elif type(layer) is ast.Subscript:
            layer = layer.value
        elif type(layer) is ast.Call and type(layer.func) is ast.Name and layer.func.id == "getattr" and layer.args:
            layer = layer.args[0]
        elif type(layer) is ast.Call and type(layer.func) is ast.Attribute and layer.func.attr in (
                "named_modules", "modules", "children", "named_children", "get_submodule"):
            layer = layer.func.value
        elif type(layer) is ast.Call and type(layer.func) is ast.Name and layer.func.id in ("dict", "list", "enumerate"):
            if not layer.args:
                return None
            layer = layer.args[0]
        elif type(layer) is ast.Name and layer.id not in seen and len(bound.get(layer.id, ())) == 1:
            seen.add(layer.id)
            layer = bound[layer.id][0]
        else:
            return None


def _hook_outputs(module: ast.Module) -> tuple:
    found: dict = {}
    members: dict = {}
    for scope, cls in _scopes(module):
        defs = {}
        for node in iter_nodes(scope, into_functions=False):
            if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef) and node is not scope:
                defs[node.name] = node
        methods = {s.name: s for s in cls.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)} \
            if cls is not None else {}
        for node in iter_nodes(scope, into_functions=False):
            if not (type(node) is ast.Call and type(node.func) is ast.Attribute
                    and node.func.attr == "register_forward_hook" and node.args):
                continue
            hook, bound = node.args[0], 0
            if type(hook) is ast.Call and dotted(hook.func) in ("partial", "functools.partial") and hook.args:
                hook, bound = hook.args[0], len(hook.args) - 1
            target, receiver = None, 0
            if type(hook) is ast.Call and type(hook.func) is ast.Name:
                # `layer.register_forward_hook(get_activation("fc2"))`: the closure a factory returns
                factory = defs.get(hook.func.id) or next(
                    (s for s in module.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name == hook.func.id), None)
                hook = _returned_closure(factory) if factory is not None else None
                target = hook
            elif type(hook) is ast.Call and type(hook.func) is ast.Attribute and type(hook.func.value) is ast.Name \
                    and hook.func.value.id == "self" and hook.func.attr in methods:
                # `block.register_forward_hook(self._capture(i))`: the closure a method returns
                target = _returned_closure(methods[hook.func.attr])
            elif type(hook) is ast.Name:
                target = defs.get(hook.id) or next(
                    (s for s in module.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef) and s.name == hook.id), None)
            elif type(hook) is ast.Attribute and type(hook.value) is ast.Name and hook.value.id == "self":
                target, receiver = methods.get(hook.attr), 1
            if target is None:
                continue
            with_kwargs = any(k.arg == "with_kwargs" and literal_true(k.value) for k in node.keywords)
            params = [p.arg for p in (*target.args.posonlyargs, *target.args.args)]
            at = receiver + bound + (3 if with_kwargs else 2)
            if at < len(params):
                found[target] = params[at]
                member = _hooked_member(node.func.value, scope) if cls is not None else None
                if member is not None:
                    members[target] = member
    return found, members


def _scopes(module: ast.Module):
    """The module and each function in it, with the class a function is (or is nested in) a
    method of."""
    yield module, None
    yield from _inside(module, None)


def _inside(node, cls):
    for child in ast.iter_child_nodes(node):
        if type(child) is ast.ClassDef:
            yield from _inside(child, child)
        elif type(child) in (ast.FunctionDef, ast.AsyncFunctionDef):
            yield child, cls
            yield from _inside(child, cls)
        else:
            yield from _inside(child, cls)


def _returned_closure(factory):
    """The function ``factory`` defines and returns (``def hook(m, i, o): …; return hook``)."""
    inner = {s.name: s for s in factory.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    for stmt in factory.body:
        if type(stmt) is ast.Return and type(stmt.value) is ast.Name and stmt.value.id in inner:
            return inner[stmt.value.id]
    return None


def hook_stores(module: ast.Module) -> dict:
    """Where the file's forward hooks keep their output cut from the record: (the class whose
    ``self`` holds it, or None for a name of the module; the attribute or name) -> the cut
    nodes (``output.detach()``, ``output.data``), each with whether it is kept in a container
    (a list it appends to, a dict it fills by key), the hook, its output parameter and its
    class. A conditional cut (``out.detach() if self.detach else out``) is an option, not kept
    here."""
    return once("hook-stores", module, _hook_stores)


def _hook_stores(module: ast.Module) -> dict:
    outputs = hook_outputs(module)
    if not outputs:
        return {}
    owners = {id(fn): (cls.name if cls is not None else None) for fn, cls in _scopes(module) if fn is not module}
    found: dict = {}
    for fn, output in outputs.items():
        owner = owners.get(id(fn))
        for node in iter_nodes(fn, into_functions=False):
            if type(node) is ast.Assign and len(node.targets) == 1:
                target, value = node.targets[0], node.value
                container = type(target) is ast.Subscript
                holder = target.value if container else target
            elif type(node) is ast.Expr and type(node.value) is ast.Call and type(node.value.func) is ast.Attribute \
                    and node.value.func.attr in ("append", "extend") and len(node.value.args) == 1:
                holder, value, container = node.value.func.value, node.value.args[0], True
            else:
                continue
            cut = _cut_of_name(value, output)
            if cut is None:
                continue
            if type(holder) is ast.Attribute and type(holder.value) is ast.Name and holder.value.id == "self" \
                    and owner is not None:
                found.setdefault((owner, holder.attr), []).append((cut, container, fn, output, owner))
            elif type(holder) is ast.Name:
                found.setdefault((None, holder.id), []).append((cut, container, fn, output, owner))
    return found


def _cut_of_name(value, name: str):
    """The ``.detach()`` or ``.data`` of ``name`` that ``value`` is made of, as it is written
    (``output.detach().cpu()``, ``output.data``); None where the value may keep history (an
    arm of a conditional)."""
    node = value
    if type(node) is ast.Call and not (type(node.func) is ast.Attribute and node.func.attr in ("detach", "clone")):
        # `apply(lambda t: t.clone().detach(), output)`, `tuple(map(lambda t: t.detach(), output))`:
        # a function that cuts its argument, applied to the output (or to each of its tensors)
        args = [a for a in node.args if type(a) is not ast.Starred]
        if any(type(a) is ast.Call and a.args for a in args):
            args = [b for a in args for b in ((a, *a.args) if type(a) is ast.Call else (a,))]
        lambdas = [a for a in args if type(a) is ast.Lambda and len(a.args.args) == 1]
        if any(type(a) is ast.Name and a.id == name for a in args):
            for fn in lambdas:
                cut = _cut_of_name(fn.body, fn.args.args[0].arg)
                if cut is not None:
                    return cut
    if type(node) is ast.Call and len(node.args) == 1 and type(node.args[0]) is ast.GeneratorExp:
        node = node.args[0]  # `tuple(o.detach() for o in output)`
    if type(node) in (ast.GeneratorExp, ast.ListComp) and len(node.generators) == 1 \
            and type(node.generators[0].iter) is ast.Name and node.generators[0].iter.id == name \
            and type(node.generators[0].target) is ast.Name:
        return _cut_of_name(node.elt, node.generators[0].target.id)
    while True:
        if type(node) is ast.Call and type(node.func) is ast.Attribute:
            if node.func.attr == "detach" and _copy_of(node.func.value, name):
                return node
            node = node.func.value
        elif type(node) is ast.Attribute:
            if node.attr == "data" and _copy_of(node.value, name):
                return node
            node = node.value
        elif type(node) is ast.Subscript:
            node = node.value
        else:
            return None


def _copy_of(node, name: str) -> bool:
    """``node`` is ``name`` or a copy, cast or part of it (``output.clone()``, ``output[0]``)."""
    while True:
        if type(node) is ast.Name:
            return node.id == name
        if type(node) is ast.Call and type(node.func) is ast.Attribute \
                and node.func.attr in ("clone", "contiguous", "float", "cpu", "to", "double", "half"):
            node = node.func.value
        elif type(node) is ast.Subscript:
            node = node.value
        else:
            return False


def ancestors(name: str | None, module: ast.Module) -> set[str]:
    """The classes of this file that the class ``name`` derives from, through every level."""
    bases = once("class-bases", module, _class_bases)
    out, todo = set(), [name]
    while todo:
        for base in bases.get(todo.pop(), ()):
            if base not in out:
                out.add(base)
                todo.append(base)
    return out


def _class_bases(module: ast.Module) -> dict:
    return {node.name: [dotted(b) for b in node.bases] for node in ast.walk(module) if type(node) is ast.ClassDef}


def is_optimizer_class(name: str | None) -> bool:
    """``torch.optim.Adam``: one of torch's optimizer classes (capitalized; not a learning-rate
    scheduler, `lr_scheduler.MultiStepLR(opt, …)`, whose `step()` updates no parameter, nor what
    `swa_utils` makes)."""
    return name is not None and name.startswith("torch.optim.") and name.split(".")[-1][:1].isupper() \
        and not name.startswith(("torch.optim.lr_scheduler.", "torch.optim.swa_utils."))


def handed_trained_models(module: ast.Module, imports: ImportTable) -> dict:
    """(``Class.__init__``, position or keyword) -> the one model every constructor call of this
    file's class hands there, where an optimizer of torch's built in the call's scope holds its
    ``.parameters()`` (``solver = ODESolver(vel)`` beside ``Adam(vel.parameters())``): the object
    keeps a network trained elsewhere, and what its methods compute from it trains that."""
    handed: dict = {}
    for scope, _ in _scopes(module):
        optimized = set()
        calls = []
        for node in iter_nodes(scope, into_functions=False):
            if type(node) is not ast.Call:
                continue
            name = imports.qualname(node.func)
            if is_optimizer_class(name):
                optimized |= {dotted(inner.func.value) for inner in iter_nodes(node)
                              if type(inner) is ast.Call and type(inner.func) is ast.Attribute
                              and inner.func.attr in ("parameters", "named_parameters")}
            elif type(node.func) is ast.Name:
                calls.append(node)
        for call in calls:
            key = f"{call.func.id}.__init__"
            given = [*((i, a) for i, a in enumerate(call.args) if type(a) is not ast.Starred),
                     *((k.arg, k.value) for k in call.keywords if k.arg is not None)]
            for where, arg in given:
                name = dotted(arg)
                handed.setdefault((key, where), set()).add(name if name in optimized else None)
    return {key: next(iter(names)) for key, names in handed.items() if len(names) == 1 and None not in names}


def members_handed_trained(cls: ast.ClassDef, module: ast.Module, imports: ImportTable) -> dict:
    """The members (``self.velocity``) that ``cls.__init__`` sets from a parameter every
    constructor call hands one model an optimizer holds (``handed_trained_models``) -> that
    model's name at the calls."""
    init = next((s for s in cls.body if type(s) in (ast.FunctionDef, ast.AsyncFunctionDef)
                 and s.name == "__init__"), None)
    if init is None:
        return {}
    trained = once("handed-trained", module, handed_trained_models, imports)
    params = [p.arg for p in [*init.args.posonlyargs, *init.args.args][1:]]
    found = {}
    for node in iter_nodes(init):
        if type(node) is ast.Assign and type(node.value) is ast.Name and node.value.id in params:
            model = trained.get((f"{cls.name}.__init__", params.index(node.value.id))) \
                or trained.get((f"{cls.name}.__init__", node.value.id))
            if model is not None:
                found.update({f"self.{t.attr}": model for t in node.targets
                              if type(t) is ast.Attribute and dotted(t.value) == "self"})
    return found


def without_history_test(test) -> str | None:
    """The tensor an ``if`` test asks has no history (`not x.requires_grad`, as written), or None:
    its body runs only where autograd recorded nothing for it."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not and type(test.operand) is ast.Attribute \
            and test.operand.attr == "requires_grad":
        return ast.unparse(test.operand.value)
    return None


def rewrapped_parameters(module: ast.Module, imports) -> list[tuple]:
    """``(assignment, target, method, classes)`` for each ``self.linear.weight =
    nn.Parameter(F.normalize(self.linear.weight))`` that a module's forward runs at every call
    (in ``forward`` itself, or in a method ``forward`` calls on ``self``, unconditionally): each
    call binds the attribute to a new leaf made from its own values, so the parameter an
    optimizer was given before the first call is never used again. ``classes``: the classes
    of the file whose instances run it (the class and the subclasses that inherit the method)."""
    from gradlint.analysis.flow import PARAMETER

    found = []
    bases = once("class-bases", module, _class_bases)
    for cls in (n for n in module.body if type(n) is ast.ClassDef):
        methods = {m.name: m for m in cls.body if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef)}
        forward = methods.get("forward")
        run = {"forward"} if forward is not None else set()
        for stmt in forward.body if forward is not None else ():
            for node in ast.walk(stmt):
                if type(node) is ast.Call and type(node.func) is ast.Attribute \
                        and type(node.func.value) is ast.Name and node.func.value.id == "self" \
                        and node.func.attr in methods and not _conditional(stmt, node):
                    run.add(node.func.attr)
        for name in sorted(run - {"__init__"}):
            for stmt in methods[name].body:
                if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or type(stmt.value) is not ast.Call:
                    continue
                target = dotted(stmt.targets[0])
                call = stmt.value
                if target is None or not target.startswith("self.") or imports.qualname(call.func) not in PARAMETER \
                        or len(call.args) != 1 or not any(dotted(n) == target for n in ast.walk(call.args[0])):
                    continue
                heirs = {cls.name} | {c for c in bases if cls.name in ancestors(c, module)
                                      and not _overrides(module, c, name, cls.name)}
                found.append((stmt, target, name, frozenset(heirs)))
    return found


def _conditional(stmt, node) -> bool:
    """``node`` lies under an ``if``, loop or ``try`` inside ``stmt`` (or ``stmt`` is one)."""
    return any(type(n) in (ast.If, ast.For, ast.While, ast.Try, ast.IfExp) and any(m is node for m in ast.walk(n))
               for n in ast.walk(stmt))


def _overrides(module: ast.Module, cls: str, method: str, base: str) -> bool:
    """The class ``cls``, or a class between it and ``base``, defines ``method`` itself."""
    classes = {n.name: n for n in ast.walk(module) if type(n) is ast.ClassDef}
    line = [cls, *(c for c in ancestors(cls, module) if base in ancestors(c, module))]
    return any(any(type(m) in (ast.FunctionDef, ast.AsyncFunctionDef) and m.name == method
                   for m in classes[c].body) for c in line if c in classes)
