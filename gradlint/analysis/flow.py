"""Walk each function body once, in source order, and record the facts the checks read.

The walker is a small abstract interpreter over ``ast`` nodes. Each name holds a ``Value``:
which trainables its autograd history reaches (``self.encoder``, a global leaf made with
``requires_grad=True``, a module object), which ``.detach()`` cuts, ``no_grad`` regions and
``.item()`` pulls it descends from, and which recorded ops saved it for backward. Branches are
walked separately and joined; loop bodies are walked twice so values carried from one
iteration to the next are seen. Calls into other functions are summarised, not followed
(docs/design.md says what crosses them).
"""
from __future__ import annotations

import ast
import dataclasses
import heapq
import io
import keyword
import re
import tokenize

from gradlint.analysis import saves, settings, torch_types
from gradlint.analysis.summaries import SYMBOL, optimized_init_parameters
from gradlint.analysis.settings import defaults_of, set_from_parameters
from gradlint.analysis.facts import (
    IMPLICIT, REBUILD, STATE_DICT, STORAGE_REBOUND, UNRECORDED_GRAD, BackpropUnderNoGrad, Backward, Cut, Edit, Function, ModuleFacts, Rebound, Rebuild, Return, SequentialEdit, StepBetween, Switch,
    source_segment,
)
from gradlint.analysis.imports import collect_imports
from gradlint.analysis.imports import dotted as _dotted
from gradlint.analysis.project import origin
from gradlint.analysis.sequence import ENTRY, Event, replay, scenarios
from gradlint.analysis.scan import (
    PARAMETRIZATIONS,
    custom_functions, helper_of_nograd_methods, nograd_decorator,
    _PLAIN_BASES as PLAIN_BASES, ENABLE_GRAD, GRAD_MODE_NAMES, INFERENCE_MODE, NOGRAD, SET_GRAD_ENABLED, ClassInfo, assigned_and_carried,
    decorated_nograd, detached_in, frozen_owners, intended_leaves, is_fresh_copy, leaves_handed_on, literal_false, opens_nograd,
    is_optimizer_class, listed_modules, members_handed_trained,
    ancestors, class_constructions, function_edits, function_saves, hook_outputs, hook_stores, hooked_members, literal_true, local_functions, module_info, nograd_only_callees, returns_under_nograd, scan_classes,
    rewrapped_parameters, trains_locally, without_history_test,
)
from gradlint.analysis.tree import iter_nodes, once, stand_in
from gradlint.analysis.tree import parents as tree_parents
from gradlint.analysis.tree import DEFS, enclosing as enclosing_scope
from gradlint.analysis.values import ModuleInfo, joined_module
from gradlint.analysis.values import CONST, EMPTY, LIVE, NOTHING_YET, PLAIN, UNKNOWN, Save, Value, joined_rows, replace, union, with_row

REBUILDERS = {
    "torch.tensor", "torch.as_tensor", "torch.from_numpy", "torch.Tensor", "torch.FloatTensor",
    "torch.DoubleTensor", "torch.HalfTensor", "torch.LongTensor", "torch.IntTensor",
    "torch.cuda.FloatTensor", "torch.autograd.Variable",
}
INTEGER_DTYPES = frozenset(f"torch.{t}" for t in (
    "long", "int", "int64", "int32", "int16", "int8", "uint8", "short", "bool"))
# The legacy constructors: handed one tensor, they return an alias of it.
LEGACY_CONSTRUCTORS = frozenset({"torch.Tensor", "torch.FloatTensor", "torch.DoubleTensor", "torch.HalfTensor",
                                 "torch.cuda.FloatTensor"})
FACTORIES = {
    "zeros", "ones", "empty", "full", "randn", "rand", "randint", "randperm", "arange", "linspace",
    "logspace", "eye", "zeros_like", "ones_like", "empty_like", "full_like", "randn_like",
    "rand_like", "randint_like", "normal", "bernoulli", "multinomial",
}
PARAMETER = {"torch.nn.Parameter", "torch.nn.parameter.Parameter"}
BACKWARD_FUNCS = {"torch.autograd.backward", "torch.autograd.grad"}
PULL_METHODS = {"item", "tolist", "numpy"}
# torch.distributions' methods of a value (`prior.log_prob(z)`): what they return carries the
# history of the value and of the distribution's own parameters
DISTRIBUTION_METHODS = frozenset({"log_prob", "cdf", "icdf"})
# What only a tensor has, not a NumPy array (``Walker.used_as_tensor``)
TENSOR_ONLY = frozenset({"data", "detach", "unsqueeze", "view", "clone", "requires_grad", "grad", "numel",
                         "masked_fill", "permute", "index_select", "to", "cuda", "cpu", "size", "dim"})
INTEGER_CASTS = {"long", "int", "short", "byte", "char", "bool"}
CAST_METHODS = {
    "cpu", "cuda", "to", "float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
    "type", "type_as", "contiguous", "clone", "view", "view_as", "reshape", "flatten", "squeeze",
    "unsqueeze", "permute", "transpose", "t", "expand", "expand_as", "repeat", "chunk", "split",
}
# Methods whose result shares storage (and the version counter) with the receiver.
VIEW_METHODS = {"view", "view_as", "transpose", "permute", "t", "squeeze", "unsqueeze", "expand",
                "expand_as", "narrow", "select", "unfold", "diagonal", "as_strided", "unflatten"}
MAY_ALIAS = {"contiguous", "to", "cpu", "cuda", "float", "double", "half", "type", "type_as", "reshape", "flatten"}
TENSOR_ONLY_METHODS = CAST_METHODS - {"reshape", "flatten", "squeeze", "repeat", "transpose", "split"} | {
    "detach", "sigmoid", "softmax", "log_softmax", "relu", "requires_grad_", "backward", "masked_fill",
    "new_tensor", "new_zeros", "new_ones", "numel", "dim", "size",
}
METADATA = {"shape", "dtype", "device", "ndim", "requires_grad", "is_leaf", "grad_fn", "is_cuda"}
METADATA_METHODS = {"size", "dim", "numel", "nelement", "element_size", "stride", "is_contiguous", "data_ptr", "get_device"}
# Methods NumPy arrays share with tensors: on a value not known to be a tensor they may be NumPy's.
NDARRAY_METHODS = {
    "sum", "mean", "max", "min", "prod", "std", "var", "clip", "round", "cumsum", "cumprod", "dot",
    "reshape", "transpose", "astype", "copy", "fill", "argmax", "argmin", "all", "any", "squeeze",
    "flatten", "ravel", "repeat", "take", "tolist", "item", "nonzero", "sort", "argsort", "conj",
    "diagonal", "trace", "swapaxes", "view", "abs", "__abs__",
}
CONTAINER_METHODS = {"keys", "values", "items", "get", "pop", "append", "extend", "insert", "update",
                     "setdefault", "copy", "index", "count", "sort", "reverse", "clear", "add", "remove",
                     "discard", "join", "split", "format", "replace", "strip", "startswith", "endswith"}
PASSTHROUGH_BUILTINS = {"list", "tuple", "sorted", "reversed", "enumerate", "zip", "sum", "max", "min", "abs", "iter", "next", "dict", "set"}
# The standard library's containers: what one holds is what it was given, as with dict().
STDLIB_CONTAINERS = frozenset({"collections.OrderedDict", "collections.defaultdict", "collections.deque"})
CONST_BUILTINS = {"len", "range", "print", "isinstance", "hasattr", "getattr", "str", "repr", "round", "type", "id", "callable", "format"}
# Builtins whose result is never a tensor (``getattr`` may return one).
PLAIN_BUILTINS = CONST_BUILTINS - {"getattr"} | {"bool", "bin", "hex", "oct", "ord", "chr", "hash", "divmod"}
# Libraries that make no torch tensor: what their functions return, and their constants, are plain
# values (``sympy.S.One``, ``math.pi``, ``np.mean(a)``, ``argparse.ArgumentParser().parse_args()``).
PLAIN_LIBRARIES = frozenset({
    "math", "cmath", "numpy", "sympy", "random", "argparse", "os", "sys", "time", "json", "re",
    "string", "datetime", "pathlib", "logging", "statistics", "fractions", "decimal", "yaml",
    "pickle", "csv", "shutil", "glob", "pandas", "scipy", "sklearn", "PIL", "cv2", "omegaconf",
    "cuml", "xgboost", "lightgbm", "catboost", "faiss",  # estimators and indexes of NumPy (or CuPy) arrays
    "matplotlib", "seaborn", "imageio", "skimage",  # plots, colormaps and images of NumPy arrays
})
# Tensor methods whose result is a new tensor of the receiver's dtype and device whose values do
# not come from the receiver (``weight.new(n, h).zero_()``, ``x.data.new(...).bernoulli_(p)``):
# no history, and nothing of a cut receiver's values.
ALLOCATION_METHODS = {"new", "new_zeros", "new_ones", "new_empty", "new_full"}
# Annotations of a parameter that holds no tensor.
PLAIN_ANNOTATIONS = {"int", "float", "bool", "str", "complex", "bytes"}
MODULE_ITERATORS = {"children", "modules", "parameters", "named_parameters", "named_children", "named_modules", "values"}
# What the file does with an object of a class it cannot see that only a module answers to (an
# optimizer or scheduler has state_dict() and step(), a data loader is iterated, a config read).
MODULE_USES = {"parameters", "named_parameters", "modules", "named_modules", "children", "named_children",
               "buffers", "named_buffers", "train", "eval", "requires_grad_", "apply", "register_forward_hook"}
# Module methods that return the module itself (`model = model.eval()`, `.to(device)`)
SAME_MODULE = frozenset({"eval", "train", "to", "cuda", "cpu", "float", "double", "half", "bfloat16"})
# What only an nn.Module has (a tensor has requires_grad_, an optimizer zero_grad and state_dict).
MODULE_ONLY = {"parameters", "named_parameters", "modules", "named_modules", "children", "named_children",
               "buffers", "named_buffers", "train", "eval", "register_forward_hook", "register_forward_pre_hook"}
MODULE_LIKE = re.compile(r"^(?:model|net|network|module|encoder|decoder|backbone|generator|discriminator|critic|actor|policy|teacher|student|classifier|head|block|layer|[a-z]+_(?:model|net|encoder|decoder))s?$|^net(?-i:[A-Z_])", re.I)
OPERATORS = {
    ast.Mult: ("operator.mul", "*"), ast.Pow: ("operator.pow", "**"),
    ast.MatMult: ("operator.matmul", "@"), ast.Div: ("operator.truediv", "/"),
    ast.Add: ("operator.add", "+"), ast.Sub: ("operator.sub", "-"),
}
AUG_OPERATORS = {
    ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.Div: "/=", ast.Pow: "**=", ast.MatMult: "@=",
}
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)  # an async def is walked as a def
LOOPS = (ast.For, ast.AsyncFor, ast.While)
FORS = (ast.For, ast.AsyncFor)
WITHS = (ast.With, ast.AsyncWith)
TRIES = (ast.Try, getattr(ast, "TryStar", ast.Try))
MATCH = getattr(ast, "Match", None)
# The simple statements the walker reads (global, import, pass, del and their kin bind or
# compute nothing it follows), and the compound ones that hold blocks.
SMALL = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return, ast.Raise, ast.Assert)
COMPOUND = (*FUNCTIONS, ast.ClassDef, ast.If, *LOOPS, *WITHS, *TRIES, *((MATCH,) if MATCH else ()))


# torch's calls that pack a batch of sequences into a ``PackedSequence``
PACKS = frozenset({"pack_sequence", "pack_padded_sequence", "PackedSequence"})

# torch's containers of parameters: an item is one of its parameters.
PARAMETER_CONTAINERS = frozenset({"torch.nn.ParameterDict", "torch.nn.ParameterList"})
# torch's containers: what one holds is the modules it was built from, not new ones.
CONTAINERS = frozenset({"torch.nn.Sequential", "torch.nn.ModuleList", "torch.nn.ModuleDict"})


def walk_module(module: ast.Module, lines: list[str], project=None, path: str | None = None) -> ModuleFacts:
    imports = collect_imports(module)
    if project is not None and path is not None:
        project.view(path, imports)  # the imports, followed into the project's other files
    facts = ModuleFacts(module=module, imports=imports)
    facts.lines = lines
    iter_nodes(module)  # the module's order first: each later walk of a node of it is a slice
    classes = scan_classes(module, imports)
    if imports.project is not None:  # classes of other files, known by their own definitions
        from gradlint.analysis.project import ClassTable

        _see_plain_bases(classes, imports.project)
        for info in classes.values():
            # (a buffer a base of another file registers, or an attribute its `__init__` sets
            # from a number, is no parameter of the subclass; what the base only stores, read
            # here, is this file's to judge)
            for parent in filter(None, (imports.project.base_class(b) for b in info.bases if b)):
                info.buffers |= parent.buffers
                info.literal_attrs |= {k for k in parent.literal_attrs if info.attrs.get(k) is None}
        classes = ClassTable(classes, imports.project)
    # module-level function -> what it returns has no history; and a factory defined in one
    # (`def create_model()` in `main()`), called by its name as one is
    defs = [stmt for stmt in module.body if type(stmt) in FUNCTIONS] + list(local_functions(module).values())
    functions = {stmt.name: returns_under_nograd(stmt, imports) for stmt in defs}
    facts.parameters = {stmt.name: [p.arg for p in [*stmt.args.posonlyargs, *stmt.args.args]] for stmt in defs}
    if imports.project is not None:
        called_here = {node.func.id for node in ast.walk(module) if type(node) is ast.Call and type(node.func) is ast.Name}
        defs_here = {stmt.name: stmt for stmt in module.body if type(stmt) in FUNCTIONS}
        for stmt in module.body:
            params = _trained_through_parameters(stmt, defs_here) if getattr(stmt, "name", None) not in called_here else ()
            if params:
                # (`train_step(trainer, opt_d, …)` called from main.py with `trainer = Trainer()`:
                # what its forward returns is that class's)
                for param, cls in imports.project.handed_classes(stmt.name, facts.parameters[stmt.name]).items():
                    if param in params and (type(cls) is ModuleInfo or cls in classes):
                        facts.param_instances.setdefault(f"{param}@{stmt.name}", set()).add(cls)
                        facts.caller_instances.add(f"{param}@{stmt.name}")
        _seed_handed_functions(module, facts, imports.project, called_here, imports)
    text = "".join(lines)
    # A scan of every node for what only some words spell is skipped where the text has none of
    # them (in ASCII text: elsewhere an identifier may be spelled in characters Python folds).
    spells = text.__contains__ if text.isascii() else lambda word: True
    nograd_only = nograd_only_callees(module, imports, set(functions), _plain_method_names(module)) \
        if any(spells(word) for word in GRAD_MODE_NAMES) else set()
    facts.frozen = frozen_owners(module) if spells("requires_grad") or spells("Parameter") else set()
    if facts.frozen:
        facts.frozen |= _frozen_by_their_class(classes)
        facts.switched_off = set(facts.frozen)
        facts.switched_off |= _frozen_instances(module, imports, classes, facts.switched_off)
    if spells("load_state_dict") and spells("eval"):
        facts.frozen |= pretrained_for_inference(classes)
    if spells("eval"):
        facts.frozen |= trained_then_evaluated(module)
    facts.frozen |= facts.switched_off
    facts.handed_members = _handed_members(module)
    facts.rewrapped = rewrapped_parameters(module, imports) if spells("Parameter") else []
    facts.summaries = _summaries(module, lines, imports, classes, functions)
    top = Function(module, "<module>")
    walker = Walker(facts, classes, functions, globals_env={}, function=top)
    walker.intended_leaves = intended_leaves(module, imports) | leaves_handed_on(module, module, imports)
    walker.block(module.body)
    globals_env = walker.env
    # A call site seeds its callee's parameters (``facts.live_arguments`` and kin): each definition
    # is walked after the ones that call it.
    queue = [(stmt, None, None) for stmt in callers_first(walker.deferred)]
    while queue:
        node, cls, enclosing = queue.pop(0)
        if type(node) is ast.ClassDef:
            info = classes.get(node.name)
            queue[0:0] = [(s, info, None) for s in node.body]
            continue
        if type(node) not in FUNCTIONS:
            continue
        # (a helper only ever called under no_grad records nothing; one that backpropagates
        # there fails at its backward instead, GL003's at the call)
        only = not trains_locally(node) and (
            (cls is None and node.name in nograd_only)
            or (cls is not None and "." + node.name in nograd_only
                and (not cls.is_module or _only_called_by_name(module, node.name)))
            or (cls is not None and cls.is_module and cls.node is not None
                and helper_of_nograd_methods(module, cls.node, node, imports)))
        if only:
            summary = facts.summaries.get(f"{cls.name}.{node.name}" if cls is not None else node.name)
            only = summary is None or summary.inference_backward is None
        # (a custom autograd Function's methods run with recording off: its backward is written)
        nograd = decorated_nograd(node, imports) or bool(
            cls is not None and cls.nograd_call and node.name in ("forward", "__call__")) or only \
            or bool(cls is not None and cls.name in custom_functions(module, imports))
        function = Function(
            node, node.name, cls.name if cls else None, nograd=nograd,
            trains_locally=trains_locally(node),
        )
        inner = Walker(facts, classes, functions, globals_env, function, cls=cls)
        inner.closure_cls = enclosing
        if inner.nograd is None and facts.import_switch is not None and walker.nograd is facts.import_switch:
            # (an imported script switched recording off for the process, and this module never
            # switches it back on: its functions run without recording wherever they are called)
            inner.nograd = facts.import_switch
        inner.function_body(node)
        # (a function defined in a method, a forward hook's closure, reads `self` of that method)
        queue.extend((d, None, cls or enclosing) for d in inner.deferred)
    for method, cls in _inherited_with_overrides(module, classes):
        # (a base's `train_node` calling `self.loss(…)`, which a subclass of the file overrides:
        # on the subclass's instances it runs the override, and adds what the override adds)
        nograd = decorated_nograd(method, imports) or bool(cls.nograd_call and method.name in ("forward", "__call__"))
        function = Function(method, method.name, cls.name, nograd=nograd, trains_locally=trains_locally(method))
        Walker(facts, classes, functions, globals_env, function, cls=cls).function_body(method)
    replay(facts)
    _frozen_through_constructors(facts, module)
    _close_coverage(facts, classes)
    return facts


def callers_first(definitions: list) -> list:
    """The module's definitions ordered so that each comes after every other one that names it
    (calls it, builds it, hands it on); among those free to go, the last defined first, as
    callers usually follow their helpers; a cycle is broken the same way."""
    index = {d.name: i for i, d in enumerate(definitions)}
    callers: dict = {i: set() for i in range(len(definitions))}
    for i, definition in enumerate(definitions):
        for node in ast.walk(definition):
            if type(node) is ast.Name and type(node.ctx) is ast.Load:
                j = index.get(node.id)
                if j is not None and j != i:
                    callers[j].add(i)
    callees: dict = {i: set() for i in callers}
    for j, named_by in callers.items():
        for i in named_by:
            callees[i].add(j)
    waiting = {i: len(named_by) for i, named_by in callers.items()}
    free = [-i for i, n in waiting.items() if n == 0]
    heapq.heapify(free)
    order, done = [], set()
    while len(order) < len(definitions):
        if not free:  # (a cycle: the last defined of what is left goes first)
            heapq.heappush(free, -max(i for i in waiting if i not in done))
        chosen = -heapq.heappop(free)
        if chosen in done:
            continue
        done.add(chosen)
        order.append(definitions[chosen])
        for j in callees[chosen]:
            waiting[j] -= 1
            if waiting[j] == 0 and j not in done:
                heapq.heappush(free, -j)
    return order


# Attribute dictionaries of common libraries: `Munch(generator=G())`, read as `nets.generator`
ATTRIBUTE_DICTS = frozenset({"munch.Munch", "munch.munchify", "easydict.EasyDict", "addict.Dict",
                             "types.SimpleNamespace", "argparse.Namespace", "dict"})


def _module_entries(expr, imports, classes) -> list | None:
    """``[(key, ModuleInfo)]`` for a mapping built of modules, each entry a constructor call of a
    module with parameters: a dict display with string keys, `dict(…)`, an attribute dictionary
    (`Munch(…)`, `EasyDict(…)`, a `dict` subclass of this file) called with keywords; else None."""
    if type(expr) is ast.Dict:
        if not expr.keys or not all(type(k) is ast.Constant and type(k.value) is str for k in expr.keys):
            return None
        pairs = list(zip((k.value for k in expr.keys), expr.values))
    elif type(expr) is ast.Call and not expr.args and expr.keywords and all(k.arg for k in expr.keywords):
        qualname = imports.qualname(expr.func) or ""
        cls = classes.get(qualname) if type(expr.func) is ast.Name else None
        if qualname not in ATTRIBUTE_DICTS and not (cls is not None and cls.node is not None and any(
                dotted(b) == "dict" for b in cls.node.bases)):
            return None
        pairs = [(k.arg, k.value) for k in expr.keywords]
    else:
        return None
    out = []
    for key, value in pairs:
        module = module_info(value, imports, classes) if type(value) is ast.Call else None
        if module is None or not module.parameters:
            return None
        out.append((key, module))
    return out


def _bound_attributes(function) -> set:
    """The receiver's attributes ``function`` binds (``self.fake = …``, each of a tuple)."""
    found = set()
    for node in iter_nodes(function, into_functions=False):
        targets = node.targets if type(node) is ast.Assign else [node.target] if type(node) is ast.AnnAssign else []
        for target in targets:
            for t in (target.elts if type(target) in (ast.Tuple, ast.List) else [target]):
                if type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self":
                    found.add(f"self.{t.attr}")
    return found


def _method_bound_attributes(cls_node) -> frozenset:
    """The attributes a class's methods other than ``__init__`` bind (``self.pred_fake = …``):
    what a method reads there may be what an earlier call left."""
    return frozenset(name[5:] for method in cls_node.body if type(method) in FUNCTIONS and method.name != "__init__"
                     for name in once("binds-attributes", method, _bound_attributes))


def _called_between(function, name: str, first, last) -> bool:
    """``name`` (a module) is called in ``function`` after ``first`` and before ``last``
    (``self.net(xq)`` between the rebinding and the backward), as written."""
    start, end = (first.lineno, first.col_offset), (last.lineno, last.col_offset)
    return any(type(n) is ast.Call and dotted(n.func) == name and start < (n.lineno, n.col_offset) < end
               for n in iter_nodes(function))


def _calls_super_init(init) -> bool:
    """``init`` runs its base's ``__init__``: ``super().__init__(…)``."""
    return any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "__init__"
               and type(n.func.value) is ast.Call and type(n.func.value.func) is ast.Name
               and n.func.value.func.id == "super" for n in iter_nodes(init))


def _inherited_with_overrides(module: ast.Module, classes) -> list:
    """(method, subclass) for each method a class of this file inherits from a base of this file
    and does not define, that calls a method of its own (``self.loss(…)``) the subclass overrides."""
    found = []
    for stmt in module.body:
        if type(stmt) is not ast.ClassDef:
            continue
        cls = classes.get(stmt.name)
        own = {s.name for s in stmt.body if type(s) in FUNCTIONS}
        for base in (b.id for b in stmt.bases if type(b) is ast.Name):
            parent = next((s for s in module.body if type(s) is ast.ClassDef and s.name == base), None)
            if parent is None or cls is None:
                continue
            for method in (s for s in parent.body if type(s) in FUNCTIONS):
                if method.name in own or method.name.startswith("__"):
                    continue
                called = {n.func.attr for n in iter_nodes(method) if type(n) is ast.Call
                          and type(n.func) is ast.Attribute and type(n.func.value) is ast.Name
                          and n.func.value.id == "self"}
                if called & own:
                    found.append((method, cls))
    return found


def _frozen_through_constructors(facts: ModuleFacts, module: ast.Module) -> None:
    """`StyleLoss(extractor)` with `extractor` frozen, every call: the attribute `__init__` keeps
    it in (`self.extractor = extractor`) holds a frozen model (``facts.init_frozen``, read once
    every call site has been walked)."""
    if not any(facts.init_frozen.values()):
        return
    for cls, index, param, name in _kept_arguments(module):
        key = f"{cls}.__init__"
        if facts.init_frozen.get((key, index)) or facts.init_frozen.get((key, param)):
            facts.frozen.add(name)


def _frozen_instances(module: ast.Module, imports, classes, frozen: set) -> set:
    """`id_loss = IdentityLoss(recognizer)` with `recognizer` frozen: an object whose class
    keeps its constructor's arguments (`self.recognizer = recognizer`) and calls, as models, only
    members so kept, each handed a frozen model here. What its calls apply trains nothing."""
    found = set()
    for node in iter_nodes(module):
        if type(node) is not ast.Assign or len(node.targets) != 1 or type(node.value) is not ast.Call:
            continue
        target, call = dotted(node.targets[0]), node.value
        key = dotted(call.func)
        info = classes.get(key) if key is not None else None
        if info is None and key is not None:  # (a class another file defines, as the walk names it)
            qualname = imports.qualname(call.func)
            info = classes.get(qualname) if qualname else None
        cls = getattr(info, "node", None)
        if target is None or type(cls) is not ast.ClassDef:
            continue
        init = next((f for f in cls.body if type(f) in FUNCTIONS and f.name == "__init__"), None)
        if init is None:
            continue
        ordered = [p.arg for p in [*init.args.posonlyargs, *init.args.args][1:]]
        kept = {}  # self.x -> the parameter __init__ keeps in it
        for stmt in iter_nodes(init):
            if type(stmt) is ast.Assign and type(stmt.value) is ast.Name and stmt.value.id in ordered:
                for t in stmt.targets:
                    name = dotted(t)
                    if name is not None and name.startswith("self.") and name.count(".") == 1:
                        kept[name] = stmt.value.id
        called = {dotted(n.func) for n in iter_nodes(cls) if type(n) is ast.Call and type(n.func) is ast.Attribute
                  and type(n.func.value) is ast.Name and n.func.value.id == "self"
                  and not any(type(f) in FUNCTIONS and f.name == n.func.attr for f in cls.body)}
        if not called or not called <= set(kept):
            continue
        given = {ordered[i]: arg for i, arg in enumerate(call.args) if i < len(ordered) and type(arg) is not ast.Starred}
        given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
        handed = [given.get(kept[member]) for member in called]
        if all(value is not None and dotted(value) in frozen for value in handed):
            found.add(target)
    return found


def _frozen_by_their_class(classes) -> set:
    """``self.tower`` holding a ``VisionTower(…)`` whose own ``__init__`` freezes it
    (``for p in self.parameters(): p.requires_grad = False``)."""
    freezing = {name for name, info in classes.items()
                if info.init is not None and "self" in frozen_owners(info.init)}
    if not freezing:
        return set()
    return {attr for info in classes.values() for attr, module in info.attrs.items()
            if module is not None and module.qualname in freezing}


def pretrained_for_inference(classes) -> set:
    """``self.model`` that its class's ``__init__`` loads from a checkpoint
    (``self.model.load_state_dict(…)``) and that the class puts in eval mode and never back in
    training mode: a pretrained component run for inference (a vocoder), whose detached output
    starves nothing meant to train."""
    found = set()
    for info in classes.values():
        if info.init is None or info.node is None:
            continue
        loaded = {dotted(n.func.value) for n in iter_nodes(info.init) if type(n) is ast.Call
                  and type(n.func) is ast.Attribute and n.func.attr == "load_state_dict"}
        modes = [(dotted(n.func.value), n.func.attr) for n in iter_nodes(info.node) if type(n) is ast.Call
                 and type(n.func) is ast.Attribute and n.func.attr in ("eval", "train")]
        found |= {name for name in loaded if name is not None and name.startswith("self.") and name.count(".") == 1
                  and (name, "eval") in modes and (name, "train") not in modes}
    return found


def trained_then_evaluated(module: ast.Module) -> set:
    """A model of the module's top level trained first and then put in eval mode for good
    (`t_opt.step()` in a teacher's training loop, then `teacher.eval()`, never `teacher.train()`
    or a step of its optimizers after): what follows runs it for inference (a teacher whose
    outputs a student distils), and a no_grad region there starves nothing meant to train."""
    optimizers: dict = {}  # optimizer name -> the models it was built over
    steps: dict = {}  # optimizer name -> the lines it steps at
    modes: dict = {}  # model -> [(line, "eval"/"train")]
    # (the top level only, read in order: a function's `model.eval()` says nothing of when it runs)
    for node in iter_nodes(module, into_functions=False):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and type(node.value) is ast.Call:
            owners = {dotted(n.func.value) for n in iter_nodes(node.value) if type(n) is ast.Call
                      and type(n.func) is ast.Attribute and n.func.attr in ("parameters", "named_parameters")}
            if owners and (dotted(node.value.func) or "").rpartition(".")[0].endswith("optim"):
                optimizers[node.targets[0].id] = {o for o in owners if o}
        elif type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Name:
            if node.func.attr == "step":
                steps.setdefault(node.func.value.id, []).append(node.lineno)
            elif node.func.attr in ("eval", "train") and not (node.func.attr == "train" and node.args
                                                              and literal_false(node.args[0])):
                modes.setdefault(node.func.value.id, []).append((node.lineno, node.func.attr))
    found = set()
    for model, seen in modes.items():
        last = max(seen)
        if last[1] != "eval":
            continue
        stepped = [line for opt, owners in optimizers.items() if model in owners for line in steps.get(opt, ())]
        if stepped and max(stepped) < last[0]:
            found.add(model)
    return found


def _handed_members(module: ast.Module) -> set:
    """``Class.self.x`` for each ``self.x = x`` in a class's ``__init__``, ``x`` its parameter."""
    return {f"{cls}.{name}" for cls, _, _, name in _kept_arguments(module)}


def _returned_so_far(returns) -> Value:
    """The join of what these returns give, with each position of a returned tuple kept apart
    where every one returns a tuple of that length."""
    value = returns[0].value
    for ret in returns[1:]:
        value = value.join(ret.value)
    parts = None
    if all(ret.parts for ret in returns) and len({len(ret.parts) for ret in returns}) == 1:
        parts = tuple(returns[0].parts[i][1] for i in range(len(returns[0].parts)))
        for ret in returns[1:]:
            parts = tuple(a.join(b[1]) for a, b in zip(parts, ret.parts))
    return replace(value, computed=True, saved=EMPTY, parts=parts)


def _kept_arguments(module: ast.Module):
    """(class, position after ``self`` or None for keyword-only, parameter, ``self.x``) for each
    ``self.x = param`` in the ``__init__`` of a class of the module."""
    for stmt in module.body:
        if type(stmt) is not ast.ClassDef:
            continue
        for init in stmt.body:
            if type(init) not in FUNCTIONS or init.name != "__init__":
                continue
            ordered = [p.arg for p in [*init.args.posonlyargs, *init.args.args][1:]]
            params = {*ordered, *(p.arg for p in init.args.kwonlyargs)}
            for node in iter_nodes(init):
                if type(node) is ast.Assign and type(node.value) is ast.Name and node.value.id in params:
                    param = node.value.id
                    for target in node.targets:
                        name = dotted(target)
                        if name is not None and name.startswith("self.") and name.count(".") == 1:
                            yield stmt.name, ordered.index(param) if param in ordered else None, param, name


def _zeroed_and_stepped(module: ast.Module) -> frozenset:
    """The names the module calls both ``zero_grad()`` and ``step()`` on."""
    calls: dict[str, set] = {}
    for node in iter_nodes(module):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("zero_grad", "step"):
            name = dotted(node.func.value)
            if name is not None:
                calls.setdefault(name, set()).add(node.func.attr)
    return frozenset(name for name, seen in calls.items() if len(seen) == 2)


def _unstepped_optimizers(fn) -> frozenset:
    """The calls of ``fn`` bound to a local name that nothing can step: every read of the name
    hands it to a call whose result is bound back to it (``model_ema, opt_ema =
    amp.initialize(model_ema, opt_ema)``), and it is never returned, stored or read otherwise.
    An optimizer that is never stepped updates nothing (apex's placeholder for an EMA model)."""
    if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return frozenset()
    shared = {n for node in ast.walk(fn) if type(node) in (ast.Global, ast.Nonlocal) for n in node.names}
    bound: dict[str, list] = {}
    rebinding: dict[int, ast.Assign] = {}  # id(call) -> the assignment binding its result
    for node in ast.walk(fn):
        if type(node) is ast.Assign and type(node.value) is ast.Call:
            rebinding[id(node.value)] = node
            if len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                bound.setdefault(node.targets[0].id, []).append(node.value)
    parents = None
    out = set()
    for name, calls in bound.items():
        if name in shared:
            continue
        if parents is None:
            parents = {child: up for up in ast.walk(fn) for child in ast.iter_child_nodes(up)}
        loads = [n for n in ast.walk(fn) if type(n) is ast.Name and n.id == name and type(n.ctx) is ast.Load]
        if all(_bound_back(load, name, parents, rebinding) for load in loads):
            out.update(calls)
    return frozenset(out)


def _bound_back(load, name: str, parents, rebinding) -> bool:
    """``load`` is an argument of a call whose result is bound back to ``name``."""
    call = parents.get(load)
    if type(call) is not ast.Call or load not in call.args:
        return False
    assign = rebinding.get(id(call))
    if assign is None:
        return False
    targets = [t for target in assign.targets
               for t in (target.elts if type(target) in (ast.Tuple, ast.List) else [target])]
    return any(type(t) is ast.Name and t.id == name for t in targets)


def _steps(cls: ast.ClassDef, imports) -> bool:
    """The class builds an optimizer of torch's, steps one (``self.optimizer.step()``, no
    argument: an environment's ``env.step(action)`` is no optimizer) or clears gradients; or it
    backpropagates its own losses (``loss.backward()``, a tracker whose caller steps) and reads
    no gradient by hand (an attack's ``x.grad``)."""
    backpropagates = reads_grad = False
    for node in iter_nodes(cls):
        if type(node) is ast.Call:
            if type(node.func) is ast.Attribute and (
                    (node.func.attr == "step" and not node.args) or node.func.attr == "zero_grad"):
                return True
            name = imports.qualname(node.func)
            if is_optimizer_class(name):
                return True
            if name is not None and name.startswith("torch.autograd."):
                reads_grad = True
            if type(node.func) is ast.Attribute and node.func.attr == "backward" and not node.args:
                backpropagates = True
        elif type(node) is ast.Attribute and node.attr == "grad" and not (
                (dotted(node.value) or "").startswith("self.") and (dotted(node.value) or "").count(".") >= 2):
            # (a gradient of its input, not of a member's parameter: `self.model.user.weight.grad`
            # is what the class trains, read back)
            reads_grad = True
    return backpropagates and not reads_grad


def _as_members(value: Value, owner: str | None) -> frozenset | None:
    """The trainables of ``value``, all members of the object ``owner`` names (``gan.netG``), as
    its methods name them (``self.netG``); empty where it has none, None where some are not."""
    if owner is None:
        return None
    found = set()
    for name in value.trainables:
        if not name.startswith(owner + "."):
            return None
        found.add("self." + name[len(owner) + 1:])
    return frozenset(found)


def _seed_handed_functions(module: ast.Module, facts, project, called_here: set, imports) -> None:
    """``facts.handed_functions`` for the parameters of this file's module-level functions that
    the project's other files hand a function of theirs (`train_and_evaluate_kd(…, loss_fn_kd,
    …)` in main.py, `loss_fn_kd` bound to `loss_kd` there): called in a function that trains,
    directly or through the functions of this file it is handed on to (`train_kd(…, loss_fn_kd,
    …)`), each call reads the summary of the function handed; so does a call inside a no_grad
    region of this file (`with torch.no_grad(): return event_fn(t, y)` of a solver): a function
    handed there that differentiates what it computes raises."""
    defs = {stmt.name: stmt for stmt in module.body if type(stmt) in FUNCTIONS}
    called = {name: _trained_through_parameters(stmt) | _called_unrecorded(stmt, imports) for name, stmt in defs.items()}
    passes: list = []  # (caller, its parameter, callee, the callee's parameter)
    for name, stmt in defs.items():
        own = {p.arg for p in [*stmt.args.posonlyargs, *stmt.args.args]}
        for node in ast.walk(stmt):
            if type(node) is ast.Call and type(node.func) is ast.Name and node.func.id in defs:
                params = facts.parameters[node.func.id]
                given = [(params[i], a) for i, a in enumerate(node.args) if i < len(params) and type(a) is not ast.Starred]
                given += [(k.arg, k.value) for k in node.keywords if k.arg]
                passes += [(name, a.id, node.func.id, p) for p, a in given if type(a) is ast.Name and a.id in own]
    changed = True
    while changed:  # (a parameter handed on to one that calls it is called)
        changed = False
        for caller, param, callee, inner in passes:
            if inner in called[callee] and param not in called[caller]:
                called[caller].add(param)
                changed = True
    handed: dict = {}
    for name, params in called.items():
        if params and name not in called_here:
            for param, functions in project.handed_functions(name, facts.parameters[name]).items():
                if param in params:
                    handed[f"{param}@{name}"] = {f"::{path}::{fn}" for path, fn in functions}
    changed = bool(handed)
    while changed:
        changed = False
        for caller, param, callee, inner in passes:
            found = handed.get(f"{param}@{caller}")
            if found and inner in called[callee] and not found <= handed.get(f"{inner}@{callee}", set()):
                handed.setdefault(f"{inner}@{callee}", set()).update(found)
                changed = True
    facts.handed_functions.update({key: frozenset(found) for key, found in handed.items()})


def _fixed_settings(module: ast.Module) -> frozenset:
    """``self.attr`` names a constructor sets to a false literal (`self.affine = False`) that
    nothing in the module assigns again (no `x.affine = …`, no `setattr`): an `if self.affine:`
    body never runs."""
    stores: dict = {}
    for node in iter_nodes(module):
        if type(node) is ast.Attribute and type(node.ctx) is ast.Store:
            stores.setdefault(node.attr, []).append(node)
        elif type(node) is ast.Call and type(node.func) is ast.Name and node.func.id == "setattr":
            return frozenset()  # (attributes set by name: any may be)
    up = tree_parents(module)
    fixed = set()
    for attr, targets in stores.items():
        if len(targets) != 1 or dotted(targets[0].value) != "self":
            continue
        assign = up.get(targets[0])
        function = enclosing_scope(targets[0], up, DEFS)
        if type(assign) is ast.Assign and len(assign.targets) == 1 and function is not None \
                and function.name == "__init__" and type(assign.value) is ast.Constant \
                and assign.value.value in (False, None, 0) and type(up.get(function)) is ast.ClassDef:
            fixed.add(attr)
    return frozenset(fixed)


def _fixed_setting(test, fixed: frozenset) -> bool | None:
    """Which arm ``if self.attr:`` (``if not self.attr:``) takes where ``attr`` is fixed false."""
    negated = type(test) is ast.UnaryOp and type(test.op) is ast.Not
    inner = test.operand if negated else test
    if type(inner) is ast.Attribute and dotted(inner.value) == "self" and inner.attr in fixed:
        return negated
    return None


def _forward_handed(cls: ast.ClassDef) -> dict:
    """{method: {its parameter: (place, name) of the forward's input handed to it as it is}}
    (`rbf = self.features(positions)`): there it is the forward's activation."""
    methods = {d.name: d for d in cls.body if type(d) in FUNCTIONS}
    forward = methods.get("forward")
    if forward is None:
        return {}
    inputs = {p.arg: i for i, p in enumerate([*forward.args.posonlyargs, *forward.args.args][1:])}
    found: dict = {}
    for node in ast.walk(forward):
        if type(node) is not ast.Call or type(node.func) is not ast.Attribute or dotted(node.func.value) != "self" \
                or node.func.attr not in methods or node.func.attr == "forward":
            continue
        method = methods[node.func.attr]
        params = [p.arg for p in [*method.args.posonlyargs, *method.args.args]][1:]
        given = [(params[i], a) for i, a in enumerate(node.args) if i < len(params) and type(a) is not ast.Starred]
        given += [(k.arg, k.value) for k in node.keywords if k.arg in params]
        found.setdefault(method.name, {}).update(
            (p, (inputs[a.id], a.id)) for p, a in given if type(a) is ast.Name and a.id in inputs)
    return found


def _called_unrecorded(stmt, imports) -> set:
    """The parameters a function calls inside a no_grad or inference_mode region of its own
    (`with torch.no_grad(): return event_fn(t, y)`)."""
    params = {p.arg for p in [*stmt.args.posonlyargs, *stmt.args.args, *stmt.args.kwonlyargs]}
    out = set()
    for node in ast.walk(stmt):
        if type(node) in (ast.With, ast.AsyncWith) and any(opens_nograd(item.context_expr, imports)
                                                           for item in node.items):
            out |= {n.func.id for n in ast.walk(node)
                    if type(n) is ast.Call and type(n.func) is ast.Name and n.func.id in params}
    return out


def _trained_through_parameters(stmt, defs: dict | None = None) -> set:
    """The parameters a module-level function calls (`losses = trainer(x, mask)`), or hands to a
    function of ``defs`` that calls it (`pose, inv = both_ways(pose_net, a, b)`), where it also
    differentiates or steps: a training step handed its model, whose class only its callers
    know."""
    if type(stmt) not in FUNCTIONS:
        return set()
    params = {p.arg for p in [*stmt.args.posonlyargs, *stmt.args.args]}
    called, trains = set(), False
    for node in ast.walk(stmt):
        if type(node) is ast.Call:
            if type(node.func) is ast.Name and node.func.id in params:
                called.add(node.func.id)
            elif type(node.func) is ast.Attribute and (node.func.attr in ("backward", "step") or (
                    node.func.attr == "grad" and dotted(node.func.value) in ("torch.autograd", "autograd"))):
                trains = True  # (`forces = -torch.autograd.grad(energy, pos, …)`: differentiated too)
            elif defs and type(node.func) is ast.Name and node.func.id in defs and defs[node.func.id] is not stmt:
                helper = defs[node.func.id]
                inner = [p.arg for p in [*helper.args.posonlyargs, *helper.args.args]]
                calls = {n.func.id for n in ast.walk(helper) if type(n) is ast.Call and type(n.func) is ast.Name}
                given = [(inner[i], a) for i, a in enumerate(node.args) if i < len(inner) and type(a) is not ast.Starred]
                given += [(k.arg, k.value) for k in node.keywords if k.arg]
                called |= {a.id for p, a in given if type(a) is ast.Name and a.id in params and p in calls}
    return called if trains else set()


def _optimized_members(cls: ast.ClassDef, imports) -> frozenset:
    """The members (`self.acmodel`) whose `.parameters()` an optimizer of torch's built in the
    class is given."""
    found = set()
    # (`self.net = net` beside `Adam(net.parameters())` in `__init__`: the member is the argument)
    kept = {node.value.id: f"self.{target.attr}" for node in iter_nodes(cls)
            if type(node) is ast.Assign and type(node.value) is ast.Name
            for target in node.targets if type(target) is ast.Attribute and dotted(target.value) == "self"}
    for node in iter_nodes(cls):
        if type(node) is not ast.Call:
            continue
        name = imports.qualname(node.func)
        if not is_optimizer_class(name):
            continue
        for inner in iter_nodes(node):
            if type(inner) is ast.Call and type(inner.func) is ast.Attribute \
                    and inner.func.attr in ("parameters", "named_parameters"):
                owner = dotted(inner.func.value)
                if owner is not None and owner.startswith("self.") and owner.count(".") == 1:
                    found.add(owner)
                elif owner in kept:
                    found.add(kept[owner])
        if node.args and type(node.args[0]) in (ast.List, ast.Tuple):
            # `Adam([self.patch], lr=…)`: a tensor the class made a leaf, trained as it is
            found |= {dotted(e) for e in node.args[0].elts
                      if (dotted(e) or "").startswith("self.") and dotted(e).count(".") == 1}
    return frozenset(found)


def _submodule_parameter(name: str | None) -> bool:
    """``self.item_emb.weight``: a parameter of a submodule, named as written."""
    return name is not None and name.startswith("self.") and name.count(".") == 2 \
        and name.rpartition(".")[2] in ("weight", "bias")


def _grad_reads(node) -> frozenset:
    """The names whose ``.grad`` the function reads, looked at or computed with."""
    return frozenset(n.value.id for n in iter_nodes(node, into_functions=False)
                     if type(n) is ast.Attribute and n.attr == "grad" and type(n.value) is ast.Name
                     and type(n.ctx) is ast.Load)


def _no_history(value: Value) -> bool:
    """Data as far as the walk can tell: nothing with history, no model, nothing cut."""
    return not (value.attached or value.live or value.trainables or value.post or value.inputs or value.cuts
                or value.nograd or value.carried or value.pulled or value.rebuilt or value.module is not None)


def _members_run(cls, method: str) -> frozenset:
    """The module members with parameters that ``method`` of ``cls`` calls (`self.encoder(x)`), also
    through the methods of its own it calls (`self.encode(x)`)."""
    methods = {m.name: m for m in cls.node.body if type(m) in FUNCTIONS} if cls.node is not None else {}
    todo, seen, out = [method], set(), set()
    while todo:
        name = todo.pop()
        if name in seen or name not in methods:
            continue
        seen.add(name)
        for n in ast.walk(methods[name]):
            if type(n) is ast.Call and type(n.func) is ast.Attribute and type(n.func.value) is ast.Name \
                    and n.func.value.id == "self":
                if n.func.attr in methods:
                    todo.append(n.func.attr)
                elif getattr(cls.attrs.get(f"self.{n.func.attr}"), "parameters", True):
                    # (a member of a known class with parameters, or one a library built: `timm`'s)
                    out.add(f"self.{n.func.attr}")
    return frozenset(out)


def _init_only_helpers(cls) -> list:
    """The methods of ``cls`` its ``__init__`` calls on ``self`` and nothing else calls, in the
    order of the calls."""
    if cls.node is None or cls.init is None:
        return []
    methods = {m.name: m for m in cls.node.body if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    calls = [n for n in ast.walk(cls.node) if type(n) is ast.Call and type(n.func) is ast.Attribute
             and type(n.func.value) is ast.Name and n.func.value.id == "self" and n.func.attr in methods]
    in_init = {id(n) for n in ast.walk(cls.init)}
    out = []
    for call in sorted((c for c in calls if id(c) in in_init), key=lambda c: (c.lineno, c.col_offset)):
        name = call.func.attr
        if name != "__init__" and all(id(c) in in_init for c in calls if c.func.attr == name) \
                and methods[name] not in out:
            out.append(methods[name])
    return out


def _constructed_attribute(cls, attr: str, walker) -> bool:
    """``self.attr`` is a tensor the class's ``__init__`` computed with history from its own
    members (no module, no cut), and no other method of the class binds it."""
    if not cls.init_walked:
        walker.walk_init(cls)
    seen = cls.assigned.get(f"self.{attr}")
    if seen is None or not (seen.computed and seen.attached) or seen.cuts or seen.nograd \
            or seen.container or seen.module is not None or cls.attrs.get(f"self.{attr}") is not None:
        return False
    if not all(t.startswith("self.") for t in seen.trainables):
        return False  # (what the constructor is handed: its caller's to judge)
    # (a helper the constructor alone calls, `self.add_regularization_loss(…)`, binds it there)
    calls = [n for n in ast.walk(cls.node) if type(n) is ast.Call and type(n.func) is ast.Attribute
             and type(n.func.value) is ast.Name and n.func.value.id == "self"]
    init_only = {m.name for m in cls.node.body if type(m) in (ast.FunctionDef, ast.AsyncFunctionDef)
                 and any(c.func.attr == m.name for c in calls)
                 and all(c.func.attr != m.name or (cls.init is not None and any(c is n for n in ast.walk(cls.init)))
                         for c in calls)}
    for method in cls.node.body:
        if type(method) not in (ast.FunctionDef, ast.AsyncFunctionDef) or method.name == "__init__" \
                or method.name in init_only:
            continue
        for n in ast.walk(method):
            targets = n.targets if type(n) is ast.Assign else [n.target] if type(n) in (ast.AugAssign, ast.AnnAssign) else []
            if any(type(t) is ast.Attribute and t.attr == attr and type(t.value) is ast.Name and t.value.id == "self"
                   for target in targets for t in ast.walk(target)):
                return False
    return True


def _chosen_functions(expr, functions) -> frozenset | None:
    """The functions of this file a conditional expression chooses between (`a if c else b`),
    or None where an arm is anything else."""
    if type(expr) is ast.IfExp:
        body, orelse = _chosen_functions(expr.body, functions), _chosen_functions(expr.orelse, functions)
        return body | orelse if body and orelse else None
    return frozenset({expr.id}) if type(expr) is ast.Name and expr.id in functions else None


def _symbolic(value: Value, walker) -> bool:
    """In a summary walk, a parameter as handed (``%k``): what each call hands it."""
    return walker.summarizing and bool(value.trainables) \
        and all(r.startswith("%") for r in value.trainables)


def _a_parameter(value: Value) -> bool:
    """A model's parameter itself, not computed (``model.weight``, an item of ``[net.weight,
    net.bias]``): what ``.data`` or ``.detach()`` can be taken of, no module; not the name of what
    is taken for a model itself (``self.model.data``: no module has ``.data``). (A leaf made here,
    `x.detach().clone().requires_grad_()`, is copied more often than starved.) A
    summary walk's parameter (``%k``) is judged where each call hands it (``handed_as_is``), and
    a function's parameter taken for a model (``h@repackage_hidden``) is a tensor if it is cut."""
    # (`self.fc.weight`, a submodule's parameter read by its name, is a tensor: ``alias``)
    return not value.computed and value.module is None and not value.container \
        and (not value.tensor or value.alias is not None) \
        and not any(r.startswith("%") or "@" in r for r in value.trainables)


def _loaded_names(loop) -> set:
    """The plain names the loop's body reads as tensors: operands of arithmetic, indexed,
    handed by position, receivers of a method (not an object only handed by keyword,
    ``trainer=local_trainer``)."""
    found = set()
    for stmt in loop.body:
        for n in iter_nodes(stmt):
            operands = [n.left, n.right] if type(n) is ast.BinOp else [n.operand] if type(n) is ast.UnaryOp \
                else [n.value] if type(n) in (ast.Subscript, ast.Attribute) else n.args if type(n) is ast.Call else []
            found.update(o.id for o in operands if type(o) is ast.Name)
    return found


def _called_names(loop) -> set:
    """The plain names the loop's body calls (``classifier(batch)``): models, not tensors."""
    return {n.func.id for stmt in loop.body for n in iter_nodes(stmt) if type(n) is ast.Call and type(n.func) is ast.Name}


def _under_requires_grad_test(node, module: ast.Module) -> bool:
    """``node`` runs under an ``if`` that tests ``requires_grad`` (``if not image.requires_grad:``):
    only on the path where the tensor has no history."""
    tree, up = tree_parents(module), tree_parents(module).get(node)
    while up is not None and type(up) not in FUNCTIONS:
        if type(up) is ast.If and any(type(n) is ast.Attribute and n.attr == "requires_grad" for n in ast.walk(up.test)):
            return True
        up = tree.get(up)
    return False


def _history_kept(value: Value, loss: Value) -> bool:
    """``value`` is a tensor with history (computed from trainables, or a function's input that
    may require grad) whose history ``loss`` carries: not a model, a leaf or data."""
    if value.module is not None or value.plain or value.container or value.optimizer:
        return False
    if value.computed and value.tensor and value.trainables and not value.cuts:
        return bool(value.trainables & loss.trainables)
    return value.live and not value.trainables and loss.live and not (value.cuts or value.nograd)


def _only_called_by_name(module: ast.Module, name: str) -> bool:
    """A module's method that the file only ever calls by name (``self.update_stats(x)`` inside
    the base class's ``with torch.no_grad():``): not ``forward``, which every call of an instance
    runs, nor one handed on as a value (a hook, ``register_forward_hook(self.capture)``)."""
    if name in ("forward", "__call__"):
        return False
    up = tree_parents(module)
    return all(type(up.get(node)) is ast.Call and up[node].func is node
               for node in iter_nodes(module) if type(node) is ast.Attribute and node.attr == name)


def _plain_method_names(module: ast.Module) -> frozenset:
    """The names of the methods the module's classes define, whose calls by name
    (``obj.encode(…)``) ``nograd_only_callees`` follows; only a plain class's method is then
    read as running under no_grad (a module's are reached through its instances' calls and
    hooks too)."""
    found = set()
    for stmt in module.body:
        if type(stmt) is ast.ClassDef:
            found.update(inner.name for inner in stmt.body
                         if type(inner) in FUNCTIONS and not inner.name.startswith("__"))
    return frozenset(found)


def _see_plain_bases(classes: dict, view) -> None:
    """A class whose base this file cannot see is taken to be a module if its body acts like
    one (``self.ensure_min_length(x)`` calling an inherited method); where that base is a plain
    class of another file of the project (``class Strategy(object)``), it is not one, and its
    attributes are no parameters. Only classes the file's scan left unsure are looked up."""
    unsure = [info for info in classes.values() if info.unseen_base and not info.is_module]
    changed = True
    while unsure and changed:
        changed = False
        for info in list(unsure):
            def plain(base: str) -> bool:
                own = classes.get(base.split(".")[-1])
                if own is not None and own is not info:
                    return not own.is_module and not own.unseen_base
                return base.split(".")[-1] in PLAIN_BASES or view.plain_class(base)
            if all(plain(base) for base in info.bases if base):
                info.unseen_base = False
                unsure.remove(info)
                changed = True


def _summaries(module: ast.Module, lines: list[str], imports, classes: dict, functions: dict) -> dict:
    """The summaries of the module's functions and methods (``summaries.Table``), walked with
    the globals a silent walk of the module's top level binds (a global model a function calls).
    Lazy (``summaries.Table``): each is computed when a call site first asks for it."""
    from gradlint.analysis.summaries import Table

    def prepare():
        scratch = ModuleFacts(module=module, imports=imports)
        scratch.lines = lines
        top = Walker(scratch, classes, functions, globals_env={}, function=Function(module, "<module>"))
        top.record = False
        try:
            top.block(module.body)
        except RecursionError:
            return None
        return top.env

    return Table(module, lines, imports, classes, functions, _Globals(module, functions, prepare))


class _Globals:
    """The globals a summary walk sees: what the silent walk of the module's top level binds.
    That walk costs as much as the top level (a script's whole training loop), and most summary
    walks look up no name it binds other than a function or class defined at the top level, whose
    value is known without it: the walk runs when a summary first asks for any other name the
    top level's statements mention (the only names its environment can hold)."""

    __slots__ = ("mentioned", "defined", "prepare", "env")

    def __init__(self, module: ast.Module, functions: dict, prepare):
        self.prepare, self.env = prepare, None
        self.defined: dict[str, Value] = {}
        self.mentioned: set[str] = set()
        for stmt in module.body:
            kind = type(stmt)
            if kind in FUNCTIONS or kind is ast.ClassDef:
                nograd = kind in FUNCTIONS and functions.get(stmt.name, False)
                if stmt.name in self.defined:
                    self.mentioned.add(stmt.name)
                self.defined[stmt.name] = NOGRAD_DEFINITION if nograd else DEFINITION
            elif kind in COMPOUND or kind in SMALL:
                for node in iter_nodes(stmt):
                    if type(node) is ast.Name:
                        self.mentioned.add(node.id)
                    elif type(node) in FUNCTIONS or type(node) is ast.ClassDef:
                        self.mentioned.add(node.name)

    def _walked(self) -> dict:
        if self.env is None:
            from gradlint.analysis.summaries import _deep

            self.env = _deep(self.prepare)
            if self.env is None:
                self.env = False
        if self.env is False:
            raise RecursionError("the module's top level is too deep to walk")
        return self.env

    def __contains__(self, name: str) -> bool:
        head = name.partition(".")[0]
        if head in self.mentioned:
            return name in self._walked()
        return name in self.defined

    def __getitem__(self, name: str) -> Value:
        head = name.partition(".")[0]
        if head in self.mentioned:
            return self._walked()[name]
        return self.defined[name]


def _close_coverage(facts: ModuleFacts, classes: dict) -> None:
    """An optimizer that updates a model of this file's class ``Net`` (``Net.*``) updates the
    submodules ``Net`` is built with (``self.stem = Stem()``: ``Stem.*``) and theirs in turn;
    one given ``Net.self.stem`` updates ``Stem.*`` too."""
    def closure(keys) -> frozenset:
        out = set(keys)
        todo = list(keys)
        while todo:
            key = todo.pop()
            owner, _, rest = key.partition(".")
            cls = classes.get(owner)
            if cls is None:
                continue
            # (and what `__init__` keeps of what every constructor call hands it: `self.encoder = encoder`)
            held = {name: v.module for name, v in cls.assigned.items() if v.module is not None
                    and cls.attrs.get(name) is None and not (v.computed or v.attached or v.live)}
            members = {**cls.attrs, **held}
            attrs = members.items() if rest == "*" else [(rest, members.get(rest))] if rest.startswith("self.") else []
            for _, info in attrs:
                if info is not None and info.qualname in classes and f"{info.qualname}.*" not in out:
                    out.add(f"{info.qualname}.*")
                    todo.append(f"{info.qualname}.*")
        return frozenset(out)

    facts.optimized = set(closure(facts.optimized))
    for name, keys in list(facts.optimizers.items()):
        if keys is not None:
            facts.optimizers[name] = closure(keys)


DEFINITION = Value()  # what a def or class statement binds its name to (compared by identity)
NOGRAD_DEFINITION = Value()  # the same, for a function whose results have no history
# A parameter every call in the file hands one of the file's functions (``train(net, scale_fn=rescale)``):
# a call through it is a call of those functions (``Walker.handed``)
HANDED = Value()
BUFFER = Value(tensor=True, const=True)  # a registered buffer: a tensor nothing trains


# Marks a method's rebound receiver attribute (``self.hidden``) in the values the walk computes
# from what it held on entry: a summary reads from it whether the method carries state from call
# to call (``Summary.state``), and the method's own walk whether a backward reaches that state.
STATE_MARK = "\1"


def _marked(entry: Value, mark: str) -> Value:
    """What a name holds at the start of an iteration, for following it through the iteration:
    its own history set aside (a computed tensor's grad_fn leads back to before the iteration)
    and ``mark`` in its place."""
    kept = EMPTY if entry.computed else entry.trainables
    return replace(entry, trainables=kept, post=EMPTY if entry.computed else entry.post,
                   carried=frozenset({mark}), cuts={})


class _Loop:
    def __init__(self, node, assigned: set[str], carried: set[str] = frozenset()):
        self.node = node
        self.assigned = assigned
        self.carried = carried
        # the carried names whose value at the end of an iteration holds history that iteration
        # recorded (set once the silent pass has shown it)
        self.grown: frozenset = EMPTY
        # a model's attributes its calls in the iteration carry into the next (``Summary.state``)
        self.state: frozenset = EMPTY
        self.backwards: list[Backward] = []
        # the trainables of the modules an iteration hands carried state to (``rnn(x, h)``): the
        # earlier iterations' records saved their weights for that state's gradient
        self.fed: frozenset = EMPTY
        self.bound_before: frozenset = EMPTY  # the names bound when the loop starts


class Walker:
    """Walks one function body (or the module's top level) in source order."""

    def __init__(self, facts: ModuleFacts, classes: dict, functions: dict, globals_env: dict,
                 function: Function, cls: ClassInfo | None = None):
        self.facts = facts
        self.imports = facts.imports
        self.classes = classes
        self.functions = functions
        self.globals = globals_env
        self.function = function
        self.cls = cls
        self.env: dict[str, Value] = {}
        self.born: dict[str, int] = {}
        self.seq = 0
        self.rebinds: list = []  # (assignment, name, key, seq): a name bound to a module made anew
        self.optimizer_built: dict = {}  # optimizer key -> the statement that built it here
        self.bound_at: dict = {}  # name -> the statement that last bound it here
        self.backward_seq = -1  # the statement of the last backward
        self.statement_node = None  # the statement being walked
        self.nograd: ast.AST | None = function.node if function.nograd else None
        self.record = True
        self.loops: list[_Loop] = []
        self.forced_arms: dict = {}  # if statement -> the arm the walk takes (a loop's last iteration)
        self.retained: list[Backward] = []  # retain_graph=True backwards not yet followed by a free
        self.pending_steps: list[tuple[ast.Call, str, int, Backward]] = []
        self.kept_steps: frozenset = EMPTY  # pending steps kept past a backward that did not reach them
        # lists whose losses a loop backpropagated one by one (`for l in losses: l.backward()`):
        # their graphs are freed, so a step after it leaves nothing of theirs stale
        self.consumed: set[str] = set()
        self.last_backward: Backward | None = None  # (``note_step``)
        # the last backwards of the other arms of an `if` both of whose arms backpropagate
        # (`if fixed: (loss + reg).backward(retain_graph=True) else: loss.backward()`): a step
        # after the `if` follows each
        self.other_last: tuple = ()
        # a step of an optimizer whose parameters this file cannot name -> the backward it follows
        self.stepped_after: dict[ast.AST, Backward] = {}
        self.deferred: list[ast.stmt] = []
        self.intended_leaves: set[str] = set()
        self.copies: set[str] = set()  # names bound to a copy made to be a new leaf (`is_fresh_copy`)
        self.hooked: frozenset = EMPTY  # a forward hook's output, as its walk names it (`output@input`)
        # names bound to an element of what an unknown call returned (`feats, out = net.extract(x)`):
        # a list as likely as a tensor, so an index of one is no known view
        self.opaque: set[str] = set()
        # Each expression node's value within the current statement: an argument is looked at
        # by more than one rule of a call, and must be evaluated (and its facts recorded) once,
        # or nested calls cost time exponential in their depth.
        self.memo: dict[int, Value] = {}
        self.inlining: frozenset = frozenset()  # the local lambdas and helpers being read at a call
        self.save_log: list[tuple[str, Save]] = []  # (name, save) in the order ops saved them
        self.objects: set[str] = set()  # names bound to an object of a plain class of the project
        # A call whose summary knows what saved each element of its returned tuple -> those Saves.
        self.element_saves: dict = {}
        # A call whose summary knows which elements of its returned tuple are models or
        # optimizers it builds (a setup function) -> those parts (``Summary.built_parts``).
        self.element_built: dict = {}
        # A call whose summary knows what each element of its returned tuple carries -> per
        # element, the trainables (``Summary.trained_parts``, in this walk's names).
        self.element_trained: dict = {}
        self.element_cuts: dict = {}  # a call returning a tuple -> per element, the callee's cuts it holds
        self.element_post: dict = {}  # the same -> per element, what is applied after its cuts
        self.element_shape: dict = {}  # such a call -> its tuple's nesting (``Summary.part_shape``)
        self.element_pulled: dict = {}  # such a call -> per element, its pulls (``Summary.pulled_parts``)
        self.element_const: dict = {}  # such a call -> per element, known to require no grad
        self.element_container: dict = {}  # such a call -> per element, a list, tuple or dict
        # A rebuild inside a called function of this file -> the trainables this walk handed it.
        self.rebuilt_from: dict = {}
        # (name, constant key) -> what `storage["log_prob"] = …` stored there, for a container the
        # walk knows by name: a read of that key gets it, not everything the container holds.
        self.items: dict = {}
        # A summarized method's rebound receiver attributes -> what each held on entry, and what
        # they hold at its exits, joined (``summary_body``).
        self.state_entries: dict[str, Value] = {}
        self.state_exits: dict[str, Value] = {}
        self.state_names: set[str] = set()  # the models' state its calls carried (``carry_state``)
        self.state_called: frozenset = EMPTY  # the state the receiver's own methods it calls carry
        self.handed: dict[str, frozenset] = {}  # parameter bound to HANDED -> the functions it may be
        self.closure_cls: ClassInfo | None = None  # for a function defined in a method: the method's class
        self.events: list | None = None  # a method's events on its receiver (``sequence``)
        self.renamed: set[str] = set()  # names bound to another name's tensor as it is (`a = b`)
        # names that may be another's tensor after an `if` (`_may_alias`) -> len(save_log) there:
        # only what an op saved of that tensor after the `if` is saved of it on that arm
        self.may_alias: dict[str, int] = {}
        self.summarizing = False  # a summary's walk (``summary_body``), not one that records findings
        # (edit node, receiver attribute, Edit): a member's method editing the member's own tensors,
        # in a summary walk: the owner's edits too (``summaries._children_edits``)
        self.member_edits: list = []

    # ---- statements -------------------------------------------------------------------------

    def function_body(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.cls is not None and self.record and not self.summarizing:
            self.events = []
            self.facts.member_events[(self.cls.name, node.name)] = (self.events, scenarios(node))
        self.intended_leaves = intended_leaves(node, self.imports) | leaves_handed_on(node, self.facts.module, self.imports)
        params = node.args
        # A module's forward() receives activations that require grad while training.
        forward = self.cls is not None and self.cls.is_module and node.name == "forward"
        plain = _plain_parameters(params, self.facts.module)
        if self.cls is None:
            plain |= once("numbers-handed", self.facts.module, _numbers_handed).get(node.name, set())
        if self.cls is not None and (forward or node.name == "__init__"):
            # the arguments every call of this module (or constructor of this class) in the file
            # passes as plain values
            key = self.cls.name if forward else f"{self.cls.name}.__init__"
            ordered = [*params.posonlyargs, *params.args][1:]
            plain |= {p.arg for i, p in enumerate(ordered)
                      if self.facts.forward_plain.get((key, i)) or self.facts.forward_plain.get((key, p.arg))}
            # a forward input every call in the file hands without history (a teacher's logits
            # computed under no_grad) does not require grad there
            still = {p.arg for i, p in enumerate(ordered)
                     if self.facts.forward_still.get((key, i)) or self.facts.forward_still.get((key, p.arg))}
            # a forward input some call hands as a tensor an op saved (the block before it ends in
            # tanh or sigmoid): editing it in place here breaks that caller's backward
            handed_saved = {p.arg: self.facts.forward_saved.get((key, i), set()) | self.facts.forward_saved.get((key, p.arg), set())
                            for i, p in enumerate(ordered)} if forward else {}
            handed_models = {p.arg for i, p in enumerate(ordered)
                             if (key, i) in self.facts.forward_models or (key, p.arg) in self.facts.forward_models}
        else:
            still, handed_saved, handed_models = set(), {}, set()
        uses = _module_uses(node)
        for i, param in enumerate([*params.posonlyargs, *params.args, *params.kwonlyargs]):
            name = param.arg
            key = f"{name}@{node.name}" if self.cls is None else None
            live = (forward and i > 0 and name not in still) or key in self.facts.live_arguments or (
                self.cls is not None and not forward and f"{name}@{self.cls.name}.{node.name}" in self.facts.live_arguments)
            saved = self.facts.saved_arguments.get(key)
            if saved:
                # (activations a caller's model computed, `h = net(x)` saved by its `head(h)`,
                # still named for what computed them)
                computed = key in self.facts.param_sources and key not in self.facts.model_arguments
                # (live only as its callers hand it: integer actions an op saved as its target
                # are no activations)
                self.env[name] = Value(live=live, tensor=True, saved=frozenset(saved),
                                       inputs=frozenset({f"{name}@input"}) if computed else EMPTY)
            elif name in plain:
                # `def forward(self, x, temperature=1.0)`, `lr: float`: a number, not an activation.
                self.env[name] = PLAIN
            elif not (i == 0 and self.cls is not None) and (
                    key in self.facts.param_sources or uses.get(name) in ("module", "modules")
                    or (uses.get(name) == "called" and (name in handed_models or MODULE_LIKE.search(name)))):
                # A parameter that holds a model: a caller in the file hands it one
                # (`embed(encoder, x)`), or the body uses it as one (`net.parameters()`,
                # `model.eval()`). One only called (`encoder(x)`) may as well be a function
                # (`loss_fn(pred, y)`): there a name like a model's adds the evidence; alone it
                # decides nothing. Scoped to the function: another function's `model` is another.
                model = key not in self.facts.param_sources or key in self.facts.model_arguments \
                    or uses.get(name) in ("module", "modules")
                if model:
                    self.env[name] = Value(trainables=frozenset({f"{name}@{node.name}"}), live=live)
                    n = self.facts.param_positions.get(key)
                    if n and all(f"{name}#{j}@{node.name}" in self.facts.param_sources for j in range(n)):
                        # (`net_g, net_d = nets` of `[net_g, net_d]`: each position its own model)
                        self.env[name] = replace(self.env[name], parts=tuple(
                            Value(trainables=frozenset({f"{name}#{j}@{node.name}"}), live=live) for j in range(n)))
                else:
                    # What every call hands it computed (`attention_loss(crit, acts_s, …)` with
                    # the activations `snet(img)` returned) is no model: it requires grad, and is
                    # named as a forward's input is, so that a cut of it starves the caller's model.
                    self.env[name] = Value(live=True, inputs=frozenset({f"{name}@input"}))
            elif live and forward:
                # (named, so that a cut of what it computes is told from one beside it)
                self.env[name] = Value(live=True, inputs=frozenset({f"{name}@input"}),
                                       saved=frozenset(handed_saved.get(name, ())),
                                       tensor=bool(handed_saved.get(name)))
            elif self.cls is not None and self.cls.is_module and self.cls.node is not None and i > 0 \
                    and not forward and name not in plain and self.handed_live_input(node.name, name):
                # (a helper of the forward handed its input, `self.features(pos)`: named as the
                # forward's input is, so that a cut of it here starves what computed it)
                self.env[name] = Value(live=True, inputs=frozenset({f"{name}@input"}))
                self.facts.forward_helpers.add((self.cls.name, node.name))
            else:
                self.env[name] = LIVE if live else UNKNOWN
        if self.cls is not None and self.facts.member_arguments:
            for param in [*params.posonlyargs, *params.args][1:]:
                members = self.facts.member_arguments.get(f"{param.arg}@{self.cls.name}.{node.name}")
                value = self.env.get(param.arg)
                if members and value is not None and not value.trainables:
                    self.env[param.arg] = Value(trainables=members, live=True, tensor=True, computed=True)
        output = hook_outputs(self.facts.module).get(node)
        if output is not None:
            # a forward hook's output: the hooked module's activation, with the history of what
            # computed it (named as a forward's input is, so a cut of it starves that)
            self.env[output] = Value(live=True, tensor=True, inputs=frozenset({f"{output}@input"}))
            self.hooked = frozenset({f"{output}@input"})
        for star in (params.vararg, params.kwarg):
            if star is not None:
                # (a constructor's `**kwargs`: its settings, a tuple or dict in which nn.Module
                # registers no parameter, whatever is kept of it)
                self.env[star.arg] = NOTHING_YET if node.name == "__init__" and self.cls is not None else UNKNOWN
        if self.cls is None and self.facts.handed_functions:
            for param in [*params.posonlyargs, *params.args, *params.kwonlyargs]:
                targets = self.facts.handed_functions.get(f"{param.arg}@{node.name}")
                if targets:
                    self.env[param.arg] = HANDED
                    self.handed[param.arg] = targets
        if self.cls is None and self.facts.handed_rows:
            for name, value in list(self.env.items()):
                rows = self.facts.handed_rows.get(f"{name}@{node.name}")
                if rows is not None:  # `update(actor, …, collect(actor, 8))`: what each row holds
                    self.env[name] = replace(value, container=True, tensor=False, rows=rows)
        if self.facts.pulled_arguments:
            where = node.name if self.cls is None else f"{self.cls.name}.{node.name}"
            for name, value in list(self.env.items()):
                pulled = self.facts.pulled_arguments.get(f"{name}@{where}")
                if pulled:  # values some caller pulled out of tensors and handed on
                    value = replace(value, pulled=value.pulled | frozenset(pulled))
                    fields = self.facts.pulled_fields.get(f"{name}@{where}")
                    if fields is not None:  # (`episode["rewards"]` holds only what was stored there)
                        value = replace(value, fields=tuple((k, replace(value, pulled=p)) for k, p in fields))
                    self.env[name] = value
        self.seed_instances(node)
        rebound = _rebound_attributes(node) if self.cls is not None else _rebound_globals(node)
        if rebound:
            # what the method may carry from call to call: a backward here of what depends on
            # it reaches every earlier call's graph (kept once the walk shows it carried)
            self.mark_state(rebound)
        if self.cls is not None and node.name == "__init__":
            # `GFlowNetAgent(GridEnv(...))`: every call hands `env` a GridEnv
            ordered = [*params.posonlyargs, *params.args][1:]
            for i, p in enumerate(ordered):
                found = self.facts.init_instances.get((f"{self.cls.name}.__init__", i), set()) \
                    | self.facts.init_instances.get((f"{self.cls.name}.__init__", p.arg), set())
                found = _one_lineage(found, self.classes, self.facts.module) or found
                value = self.env.get(p.arg)
                if len(found) > 1 and all(type(f) is ModuleInfo for f in found) and len(
                        {(f.inplace, f.saves_input, f.saves_output, f.parameters) for f in found}) == 1:
                    # (`activation=nn.Tanh()` in one call, `nn.Sigmoid()` in another: torch's
                    # modules that save alike, read as the first of them)
                    found = {min(found, key=lambda f: f.qualname)}
                if len(found) == 1 and None not in found and value is not None and value.module is None:
                    (qualname,) = found
                    # (an object, not a number, though built from numbers; a network of torch's
                    # as its constructor says)
                    info = qualname if type(qualname) is ModuleInfo else module_info_of_class(qualname, self.classes)
                    self.env[p.arg] = replace(value, module=info, plain=False)
        backwards = len(self.facts.backwards)
        self.block(node.body)
        if rebound:
            self.note_state()
            # (state the method detaches on some path, `if … and not self.full_bptt: self.state =
            # self.state.detach()`, is truncated on purpose, as in a loop; a flag the file hands
            # one way is decided by its own walk, `settings`)
            state = self.carried_state() - detached_in(node, self.facts.module)
            for site in self.facts.backwards[backwards:]:
                site.across_calls &= state

    def block(self, statements) -> None:
        previous = None
        excluded: dict = {}  # name -> the kinds of holder `if isinstance(name, …): return` ruled out
        for at, stmt in enumerate(statements):
            if excluded:
                for name in [n for n, kinds in excluded.items() if kinds >= HOLDERS]:
                    # (`return obj` after the tensor, dict, list and tuple cases returned: a
                    # number, a string, None; nothing with history)
                    self.env[name] = PLAIN
                    del excluded[name]
            if previous is not None and type(stmt) not in COMPOUND and type(previous) not in COMPOUND \
                    and previous.end_lineno == stmt.lineno:
                # `loss = f(x); opt.step()`: statements joined by semicolons share one step of
                # the statement order, as the line they make up always did (a loss bound on the
                # step's own line does not count as computed before the step).
                self.small(stmt)
            else:
                self.statement(stmt)
            if _jumps([stmt]):
                return  # (what follows in the block never runs: a setting's arm kept as written)
            if type(stmt) is ast.If and self.record:
                mode = self.mode_test(stmt.test)
                trains = stmt.body if mode is True else stmt.orelse if mode is False else None
                if trains and _jumps(trains):
                    # (`if self.training: return x`: what follows runs only in eval mode)
                    self.branch(statements[at + 1:], evaluating=True)
                    return
            name, kinds = self.isinstance_test(stmt.test) if type(stmt) is ast.If and not stmt.orelse \
                and _jumps(stmt.body) else (None, frozenset())
            if name is not None:
                excluded[name] = excluded.get(name, frozenset()) | kinds
            elif excluded:
                excluded.clear()  # (only consecutive checks rule kinds out: nothing rebinds between)
            previous = stmt

    def branch(self, statements, evaluating: bool) -> None:
        """A branch of an ``if``; ``evaluating``: it runs only while the receiver is in eval mode
        (``if not self.training:``), where nothing is trained through: its values are followed,
        and nothing in it is a finding (YOLO's ``Detect`` decoding boxes in place in eval)."""
        if not evaluating or not self.record:
            self.block(statements)
            return
        self.record = False
        try:
            self.block(statements)
        finally:
            self.record = True

    def mode_test(self, test) -> bool | None:
        """What a test says of the receiver's mode: False where it holds only in eval mode
        (``not self.training``, ``not self.training and x``), True where it fails only in eval
        mode (``self.training``, ``self.training or x``), else None."""
        if self.cls is None or not self.cls.may_be_module \
                or once("eval-backward", self.facts.module, _differentiates_in_eval):
            return None
        node = self.function.node
        args = getattr(node, "args", None)
        positional = [*args.posonlyargs, *args.args] if args is not None else []
        if not positional:
            return None
        receiver = positional[0].arg

        def training(expr) -> bool:
            return type(expr) is ast.Attribute and expr.attr == "training" \
                and type(expr.value) is ast.Name and expr.value.id == receiver

        kind = type(test)
        if kind is ast.UnaryOp and type(test.op) is ast.Not and training(test.operand):
            return False
        if training(test):
            return True
        if kind is ast.Compare and len(test.ops) == 1 and training(test.left) \
                and type(test.comparators[0]) is ast.Constant and type(test.comparators[0].value) is bool:
            # (`self.training == False`, `self.training is True`)
            said = test.comparators[0].value
            return said if type(test.ops[0]) in (ast.Eq, ast.Is) else not said if type(test.ops[0]) in (ast.NotEq, ast.IsNot) else None
        if kind is ast.BoolOp:
            wanted = False if type(test.op) is ast.And else True
            if any(self.mode_test(value) is wanted for value in test.values):
                return wanted
        return None

    def if_mode(self, stmt: ast.If) -> bool | None:
        """``mode_test`` of an ``if``'s test; also False for an early exit taken in eval mode or
        by a setting (`if not self.training or self.drop_prob == 0: return x`: the module switched
        off; training with it on is what follows). Not for an arm that goes on (`if step >= start
        or not self.training: d_loss = …` is the training path once the step is reached)."""
        mode = self.mode_test(stmt.test)
        test = stmt.test
        if mode is None and type(test) is ast.BoolOp and type(test.op) is ast.Or and not stmt.orelse \
                and len(stmt.body) == 1 and type(stmt.body[0]) is ast.Return \
                and any(self.mode_test(value) is False for value in test.values):
            return False
        return mode

    def isinstance_test(self, test) -> tuple[str | None, frozenset]:
        """(name, the kinds of holder of tensors a test ``isinstance(name, T)`` names: tensor,
        dict, list, tuple), else (None, ∅)."""
        if type(test) is not ast.Call or type(test.func) is not ast.Name or test.func.id != "isinstance" \
                or len(test.args) != 2 or test.keywords or type(test.args[0]) is not ast.Name:
            return None, frozenset()
        types = test.args[1].elts if type(test.args[1]) is ast.Tuple else [test.args[1]]
        kinds = set()
        for t in types:
            name = self.imports.qualname(t) if type(t) in (ast.Name, ast.Attribute) else None
            if name == "torch.Tensor":
                kinds.add("tensor")
            elif name in ("dict", "list", "tuple"):
                kinds.add(name)
        return (test.args[0].id, frozenset(kinds)) if kinds else (None, frozenset())

    def statement(self, stmt) -> None:
        self.seq += 1
        self.statement_node = stmt
        self.memo.clear()
        kind = type(stmt)
        if kind in SMALL:
            self.small(stmt)
        elif kind in FUNCTIONS or kind is ast.ClassDef:
            self.deferred.append(stmt)
            if kind in FUNCTIONS and self.function is not None and self.function.name != "<module>":
                # (a helper defined in a function, `def block(h, skip=None)` in a forward: what
                # its calls there hand it seeds its parameters, as for a module-level function)
                self.facts.parameters.setdefault(stmt.name, [p.arg for p in [*stmt.args.posonlyargs, *stmt.args.args]])
            nograd = kind in FUNCTIONS and returns_under_nograd(stmt, self.imports)
            self.env[stmt.name] = NOGRAD_DEFINITION if nograd else DEFINITION
        elif kind is ast.If:
            self.expr(stmt.test)
            arm = self.forced_arms.get(stmt)
            if arm is None and self.summarizing and self.cls is not None:
                arm = once("built-one-way", self.facts.module, settings.built_one_way).get(stmt)
            if arm is None and self.cls is not None and self.cls.node is not None:
                arm = _fixed_setting(stmt.test, once("fixed-settings", self.facts.module, _fixed_settings))
            if arm is not None:  # (an instance of this file built that way: the arm its calls run)
                self.block(stmt.body if arm else stmt.orelse)
                return
            before, steps = dict(self.env), list(self.pending_steps)
            none, when = _none_test(stmt.test)
            if none is not None and when:  # `if hidden is None: …`: it holds None there
                self.env[none] = PLAIN
            mode = self.if_mode(stmt)
            last_before = self.last_backward
            self.branch(stmt.body, evaluating=mode is False)
            after_body, body_steps = self.env, self.pending_steps
            self.env, self.pending_steps = dict(before), steps
            body_last, body_others = self.last_backward, self.other_last
            if none is not None and not when:  # `if hidden is not None: hidden = repackage(hidden)`
                self.env[none] = PLAIN
            self.branch(stmt.orelse, evaluating=mode is True)  # an elif is an If alone in the orelse
            if mode is None and body_last is not None and body_last is not last_before \
                    and self.last_backward is not body_last:
                self.other_last = (*self.other_last, body_last, *body_others)
            if mode is True:  # (what training goes on with: the eval branch's values train nothing)
                self.env, self.pending_steps = after_body, body_steps
                return
            if mode is False:
                return
            if not stmt.orelse and id(stmt) in once("exhaustive-tails", self.facts.module, _exhaustive_tails):
                # the last `elif` of a chain over one setting's values (`if args.loss == "wgan-gp":
                # … elif args.loss == "r1": …`): the chain covers what the program is run with
                self.env, self.pending_steps = after_body, body_steps
                return
            # A branch that ends in continue, break, return or raise does not reach what follows
            # (`if warmup: loss.backward(); opt.step(); continue`).
            if _jumps(stmt.body) and not _jumps(stmt.orelse):
                return
            if _jumps(stmt.orelse) and not _jumps(stmt.body):
                self.env, self.pending_steps = after_body, body_steps
                return
            if none is not None and none in before:
                narrowed, kept = (after_body, self.env) if when else (self.env, after_body)
                if narrowed.get(none) is PLAIN and kept.get(none) is before[none]:
                    # (`if attacker is not None: attacker.perturb(…)`, neither arm rebinding it:
                    # the test narrowed it in one arm only; after the `if` it is what it was)
                    after_body = {**after_body, none: before[none]}
                    self.env = {**self.env, none: before[none]}
            if not stmt.orelse and self.loops and _invariant_test(stmt.test, self.loops):
                # `if teacher is not None: loss_kd = …` in a loop, `loss_kd` unbound before it: a
                # run that skips the arm skips it every iteration and never reads `loss_kd` bound
                # by an earlier one
                elsewhere = _bound_outside(self.loops[-1].node, stmt)
                for name in after_body.keys() - self.loops[-1].bound_before - elsewhere:
                    if "." not in name and after_body[name] is not before.get(name):
                        self.env[name] = after_body[name]
            self.env = _may_alias(_join_envs(after_body, self.env, self.outside), after_body, self.env,
                                  self.renamed, self.may_alias, len(self.save_log))
            self.pending_steps = [*body_steps, *(s for s in self.pending_steps if s not in body_steps)]
        elif kind in LOOPS:
            self.loop(stmt)
        elif kind in WITHS:
            self.with_(stmt)
        elif kind in TRIES:
            before = dict(self.env)
            self.block(stmt.body)
            self.block(stmt.orelse)
            after = self.env
            for handler in stmt.handlers:
                self.env = _join_envs(before, after)
                self.block(handler.body)
                after = _join_envs(after, self.env)
            self.env = after
            self.block(stmt.finalbody)
        elif kind in (ast.Import, ast.ImportFrom):
            if self.nograd is None and self.function.name == "<module>" and self.imports.project is not None:
                # (`from run import estimate` of a script that calls `torch.set_grad_enabled(False)`
                # at its top level: nothing this module computes after the import is recorded)
                for level, dotted, names in ([(stmt.level, stmt.module or "", [a.name for a in stmt.names])]
                                             if kind is ast.ImportFrom else [(0, alias.name, ()) for alias in stmt.names]):
                    switch = self.imports.project.switched_off_by_import(level, dotted, names)
                    if switch is not None:
                        self.nograd = self.facts.import_switch = switch
                        break
        elif kind is MATCH:
            self.expr(stmt.subject)
            before = dict(self.env)
            after = None
            for case in stmt.cases:
                self.env = dict(before)
                self.block(case.body)
                after = self.env if after is None else _join_envs(after, self.env)
            self.env = _join_envs(before, after) if after is not None else before

    def small(self, node) -> None:
        if type(node) is ast.Assign:
            pairs = _paired(node)
            if pairs is not None:
                # `encoder, head = nn.Linear(6, 5), nn.Linear(5, 2)`: each name its own value
                # (all computed before any is bound: `a, b = b, a`)
                values = [self.assigned_value(expr, target) for target, expr in pairs]
                for (target, _), value in zip(pairs, values):
                    self.bind(target, value, node)
                return
            value = self.assigned_value(node.value, node.targets[0] if len(node.targets) == 1 else None)
            for target in node.targets:
                self.bind(target, value, node)
        elif type(node) is ast.AnnAssign:
            if node.value is not None:
                self.bind(node.target, self.assigned_value(node.value, node.target), node)
        elif type(node) is ast.AugAssign:
            self.aug_assign(node)
        elif type(node) is ast.Expr:
            call = node.value
            if type(call) is ast.Call and self.imports.qualname(call.func) in SET_GRAD_ENABLED \
                    and (call.args or call.keywords):
                # torch.set_grad_enabled(False) as a statement switches recording off until
                # it is switched back on.
                first = _first_argument(call)
                if literal_false(first):
                    self.nograd = node
                elif literal_true(first):
                    self.nograd = None
                return
            if _stores_locals(call):
                # `self.__dict__.update(locals())`: each local becomes the attribute of its name
                for name, value in self.env.items():
                    if name != "self" and "." not in name:
                        self.note_attribute("self." + name, value)
                return
            self.expr(node.value)
        elif type(node) is ast.Return:
            value = self.expr(node.value) if node.value is not None else CONST
            if self.record:
                parts = self.return_parts(node.value)
                self.facts.returns.append(Return(node, value, self.function, parts,
                                                 _return_shape(node.value) if parts else ()))
            if self.state_entries:
                self.note_state()
        elif type(node) is ast.Raise:
            self.expr(node.exc)  # (the ``from`` cause is not looked at)
        elif type(node) is ast.Assert:
            self.expr(node.test)
            self.expr(node.msg)

    def loop(self, stmt) -> None:
        body = stmt.body
        assigned, carried = assigned_and_carried(stmt)
        before = dict(self.env)
        iter_value = self.expr(stmt.iter) if type(stmt) in FORS else self.expr(stmt.test)
        # Pass one, silent: learn what each name holds at the end of an iteration.
        record, self.record = self.record, False
        pending, kept = list(self.pending_steps), self.kept_steps
        first = _Loop(stmt, assigned, carried)
        first.bound_before = frozenset(before)
        self.loops.append(first)
        self.loop_iteration(stmt, iter_value, body)
        self.loops.pop()
        if record:
            # (the steps still pending before the loop are pending for the recording pass too:
            # `critic_opt.step()`, then `for loss in actor_losses: loss.backward()`)
            self.pending_steps = pending + [e for e in self.pending_steps if e not in pending]
            self.kept_steps = kept | self.kept_steps
        end_env = self.env
        carried_env = _join_envs(before, end_env, self.outside)
        if not record:
            # A silent walk (an enclosing loop's first pass or its carried-state pass, or the
            # top level walked for the globals) wants what names hold after the loop, not its
            # findings: one iteration joined with none is that, and walking the iteration twice
            # more at each depth of nesting made a nest of k loops cost 3^k iterations.
            self.record = record
            self.env = carried_env
            self.block(stmt.orelse)
            return
        # State the body cuts somewhere (`h = h.detach()`, every k steps or not) is truncated
        # on purpose: it is not carried with its whole history.
        truncated = carried & detached_in(stmt, self.facts.module)
        grown = self.grown_in_iteration(stmt, iter_value, before, assigned, carried - truncated, end_env)
        self.record = record
        for name in grown:
            value = carried_env.get(name)
            if value is not None:
                carried_env[name] = replace(value, carried=value.carried | {name})
            for key, item in self.items.items():
                if key[0] == name:
                    self.items[key] = replace(item, carried=item.carried | {name})
        # Pass two, recording, with carried values in place.
        self.env = carried_env
        ctx = _Loop(stmt, assigned, carried)
        ctx.grown = frozenset(grown)
        ctx.bound_before = frozenset(before)
        self.loops.append(ctx)
        if type(stmt) in FORS and type(stmt.iter) is ast.Name and stmt.iter.id in carried_env:
            # (`for loss in losses`: the list as an iteration leaves it, its graphs stale once
            # a step in the body updated what they saved)
            iter_value = carried_env[stmt.iter.id]
        self.loop_iteration(stmt, iter_value, body)
        self.loops.pop()
        # A backward's graph hangs off an earlier iteration's only through state some loop around
        # it carries; what an inner loop carried and then finished with (an adapted clone, an
        # RNN run over a sequence) is rebuilt whenever that inner loop runs again.
        around = ctx.grown.union(ctx.state, *(outer.grown | outer.state for outer in self.loops))
        for site in ctx.backwards:
            if site.value.carried - around:
                site.value = replace(site.value, carried=site.value.carried & around)
        for site in ctx.backwards:
            root = site.root.split(".")[0].split("(")[0].split("[")[0]
            # `losses[i].backward(…)` walks a different root of one graph each iteration.
            indexed = bool(site.reads & (assigned | (_target_names(stmt.target) if type(stmt) in FORS else set())))
            # (`compute_loss(batch).backward()` computes its root in the iteration: a call in the
            # root is no graph bound before the loop)
            site.root_from_outside = root.isidentifier() and root not in assigned and root in before \
                and not indexed and "(" not in site.root
            if site.retain_graph and not site.root_from_outside and (site.value.attached or site.value.live):
                site.history_from_outside = tuple(sorted(
                    {name for name in _loaded_names(stmt) - assigned - _called_names(stmt)
                     if name in before and (_history_kept(before[name], site.value)
                                            or self.instance_output(name, stmt, before, site.value))}
                    | self.constructed_history(_called_names(stmt) - assigned, before, site.value)
                    | self.constructed_reads(stmt, assigned)))
        last = _last_iteration_arms(stmt) if type(stmt) in FORS else {}
        if last:
            # (`if i != len(layers) - 1: h = relu(h)`: the last iteration skips it, and what the
            # loop leaves is what that iteration leaves)
            self.env, record, self.record = carried_env, self.record, False
            forced, self.forced_arms = self.forced_arms, {**self.forced_arms, **last}
            self.loops.append(_Loop(stmt, assigned, carried))
            self.loop_iteration(stmt, iter_value, body)
            self.loops.pop()
            self.forced_arms, self.record = forced, record
        if type(stmt) in FORS and _over_layers(stmt.iter, self):
            # (a loop over a network's layers runs at least once: what it leaves is an iteration's)
            self.env = dict(self.env)
            self.chained_through(stmt)
        else:
            self.env = _join_envs(before, self.env, self.outside)
        self.block(stmt.orelse)

    def handed_live_input(self, method: str, param: str) -> bool:
        """The class's forward hands ``param`` of ``method`` one of its own inputs as it is, one
        that some call of the module hands a value with history."""
        handed = once("forward-handed", self.cls.node, _forward_handed).get(method, {}).get(param)
        if handed is None:
            return False
        i, name = handed
        key = self.cls.name
        return not (self.facts.forward_still.get((key, i)) or self.facts.forward_still.get((key, name)))

    def chained_through(self, loop) -> None:
        """``for layer in self.layers: x = layer(x)`` over a ModuleList whose last layer saves its
        output (`[conv, bn, nn.ReLU()]`): ``x`` after the loop is that output, saved for backward."""
        last = loop.body[-1]
        if type(loop.target) is not ast.Name or type(last) is not ast.Assign or len(last.targets) != 1 \
                or type(last.targets[0]) is not ast.Name or type(last.value) is not ast.Call:
            return
        call, name = last.value, last.targets[0].id
        if type(call.func) is not ast.Name or call.func.id != loop.target.id or not call.args \
                or type(call.args[0]) is not ast.Name or call.args[0].id != name or name not in self.env:
            return
        module = self.lookup(dotted(loop.iter)).module
        if module is not None and module.qualname == "torch.nn.ModuleList" and module.saves_output:
            value = self.env[name]
            self.env[name] = replace(value, saved=value.saved | {Save.at(dotted(loop.iter), call)})

    def instance_output(self, name: str, loop, before: dict, loss: Value) -> bool:
        """``name`` holds what a module instance returned before the loop (``kl = kl_loss(model)``),
        carrying history ``loss`` carries: a forward's output, whatever its summary could prove of
        its type (`total = 0.0` then summed). A class called there (``MAML(model)``) builds a
        module, no output."""
        value = before[name]
        if not (value.attached and value.computed and value.trainables & loss.trainables) or value.cuts \
                or value.module is not None or value.optimizer or value.container:
            return False
        binds = [n for n in iter_nodes(self.function.node, into_functions=False)
                 if type(n) in (ast.Assign, ast.AnnAssign, ast.AugAssign)
                 and name in _target_names(n.targets[0] if type(n) is ast.Assign else n.target)]
        if not binds or any(loop.lineno <= n.lineno <= loop.end_lineno for n in binds):
            return False
        return all(type(n) is ast.Assign and len(n.targets) == 1 and type(n.targets[0]) is ast.Name
                   and type(n.value) is ast.Call and type(n.value.func) is ast.Name
                   and getattr(before.get(n.value.func.id), "module", None) is not None for n in binds)

    def constructed_reads(self, loop, assigned: set) -> set:
        """The attributes the loop's arithmetic reads (`loss + self.reg_loss`, `loss +
        model.reg_loss`) that the object's constructor computed with history from its own
        parameters (`self.reg_loss = l2 * self.emb.weight.pow(2).sum()`) and no other method
        rebinds: a graph built before the loop, which every iteration's backward walks again."""
        out = set()
        for inner in loop.body:
            for n in iter_nodes(inner):
                if type(n) is not ast.BinOp:
                    continue
                for operand in (n.left, n.right):
                    if type(operand) is not ast.Attribute or type(operand.value) is not ast.Name \
                            or operand.value.id in assigned:
                        continue
                    owner = operand.value.id
                    if owner == "self":
                        cls = self.cls
                    else:
                        held = self.env.get(owner)
                        cls = self.classes.get(held.module.qualname) if held is not None and held.module is not None else None
                    if cls is not None and cls.node is not None and origin(cls.node) is None \
                            and _constructed_attribute(cls, operand.attr, self):
                        out.add(f"{owner}.{operand.attr}")
        return out

    def constructed_history(self, called, before: dict, loss: Value) -> set:
        """``model.adj`` for each model bound before the loop and called in it, whose forward
        reads an attribute its constructor computed once from its parameters
        (``Summary.constructed``), where the loss carries that model: a graph built before the
        loop that every iteration's backward walks again."""
        out = set()
        for name in called:
            held = before.get(name)
            if held is None:
                continue
            key = f"{name}@{self.function.name}"
            if held.module is not None and name in loss.trainables:
                classes = {held.module.qualname}
            elif key in loss.trainables:
                # (`train(model, …)` handed the model its callers built: their classes)
                found = [self.globals.get(r) for r in self.facts.resolve({key})]
                classes = {v.module.qualname for v in found if v is not None and v.module is not None} \
                    | self.facts.param_instances.get(key, set())
            else:
                continue
            for qualname in classes:
                summary = self.facts.callee(f"{qualname}.forward")
                if summary is not None and summary.method:
                    out |= {name + attr for attr in summary.constructed}
        return out

    def grown_in_iteration(self, stmt, iter_value: Value, before: dict, assigned: set[str],
                           names: set[str], end_env: dict) -> set[str]:
        """Which of ``names`` (read in the body before it rebinds them) hold, at the end of an
        iteration, history that iteration recorded on top of what they held at its start: only
        then does the next iteration's graph hang off this one's. One more silent pass follows
        each name from its start-of-iteration value with that value's own history set aside and
        a mark in its place: ``h = cell(x, h)`` or ``total = total + loss`` end with the mark
        and new history; ``policy = policy.to(device)``, a number reset and summed again, a
        state detached before use, or a fresh clone end without one of the two. A module or
        leaf held by the name itself (``model = model.cuda()``) is no graph either."""
        # A name that ends the first pass holding no history at all (a step counter, a list of
        # `.item()` numbers) ends this pass without it too: each value here carries at most what
        # it carried there. Most loops carry only such names, and skip this pass.
        names = {name for name in names if _historied(end_env.get(name))
                 or any(key[0] == name and _historied(item) for key, item in self.items.items())}
        if not names:
            return set()
        end_env_saved, self.env = self.env, before
        try:
            entries = {name: self.lookup(name) for name in names}
        finally:
            self.env = end_env_saved
        marks = {name: "\0" + name for name in names}
        seeds = {}
        for name, entry in entries.items():
            seeds[name] = _marked(entry, marks[name])
        # (the pass is silent, but a cut still notes whether its operand was carried)
        flags = {node: cut.carried for node, cut in self.facts.cuts.items()}
        self.env = {**before, **seeds}
        items = self.items
        # (what a container holds under a constant key, `memory["h"]`, is read from its entry)
        self.items = {key: _marked(item, marks[key[0]]) if key[0] in marks else item
                      for key, item in items.items()}
        self.loops.append(_Loop(stmt, assigned, set(names)))
        self.loop_iteration(stmt, iter_value, stmt.body)
        self.loops.pop()
        ends, self.env = self.env, end_env_saved
        for key, item in self.items.items():
            if key[0] in marks:  # the container's entries are its state too
                ends[key[0]] = ends[key[0]].join(item) if key[0] in ends else item
        self.items = items
        for node, cut in self.facts.cuts.items():
            cut.carried = flags.get(node, False)
        every_mark = set(marks.values())
        grown = set()
        for name, entry in entries.items():
            end = ends.get(name)
            if end is None or not (end.carried & every_mark):
                continue  # rebuilt, reset or detached: nothing of the previous iteration
            history = {c for c in end.carried - every_mark if c[0] != STATE_MARK}
            if not (end.trainables or end.post or history):
                continue  # no op on a trainable recorded in the iteration
            holds_object = entry.module is not None or (entry.trainables and not entry.computed and not entry.tensor)
            if holds_object and end.trainables <= entry.trainables and not end.post and not history:
                continue  # the module object itself, moved or cast
            grown.add(name)
        return grown

    def loop_iteration(self, stmt, iter_value: Value, body) -> None:
        if type(stmt) in FORS:
            self.bind_items(stmt.target, stmt.iter, iter_value, stmt)
        self.block(body)

    def bind_items(self, target, iterable: ast.expr, value: Value, node) -> None:
        """Bind a ``for`` target to what the iterable's items hold; unpacking ``zip(a, b)`` or
        ``enumerate(a)`` gives each name the items of its own sequence (``for a_s, a_t, beta in
        zip(acts_s, acts_t, betas)``: ``beta`` holds a weight, not an activation)."""
        if type(target) is ast.Tuple and type(iterable) is ast.Call and type(iterable.func) is ast.Name \
                and not iterable.keywords and iterable.func.id not in self.env \
                and not any(type(a) is ast.Starred for a in iterable.args):
            kind, args = iterable.func.id, iterable.args
            if kind == "zip" and len(args) == len(target.elts) and len(args) > 1:
                for element, arg in zip(target.elts, args):
                    self.bind(element, self.loop_target(arg, self.expr(arg)), node)
                return
            if kind == "enumerate" and len(args) == 1 and len(target.elts) == 2:
                self.bind(target.elts[0], PLAIN, node)
                inner = target.elts[1]
                if type(inner) is ast.Tuple:
                    self.bind_items(inner, args[0], self.expr(args[0]), node)
                else:
                    self.bind(inner, self.loop_target(args[0], self.expr(args[0])), node)
                return
        self.bind(target, self.loop_target(iterable, value), node)

    def loop_target(self, iterable: ast.expr, value: Value) -> Value:
        """What a ``for`` target holds: the modules of a ``self.layers`` loop carry their roots;
        the items of a data loader carry nothing known."""
        base = iterable
        of_module = False  # (through `.parameters()`, `.modules()`…: the items are a model's own)
        while type(base) in (ast.Subscript, ast.Call):
            if type(base) is ast.Call:
                if type(base.func) is ast.Attribute and base.func.attr in MODULE_ITERATORS:
                    base = base.func.value
                    of_module = True
                    continue
                if type(base.func) is ast.Name and base.func.id in ("enumerate", "zip", "reversed", "list") \
                        and (base.args or base.keywords):
                    base = _first_argument(base)
                    continue
                break
            base = base.value
        if value.rows is not None and base is iterable:
            return _row(value)  # `for obs, log_prob, reward in memory`
        if value.parts and base is iterable and (type(iterable) in (ast.Tuple, ast.List) or (
                type(iterable) is ast.Name and value.container)):
            # `for key, feats in (("src", fs), ("tgt", ft))`: each element in turn, unpacked by
            # position
            item = value.parts[0]
            for part in value.parts[1:]:
                item = item.join(part)
            return item
        name = dotted(base)
        if name and (name.startswith("self.") or value.module is not None or (
                of_module and (name in value.trainables
                               # (`for w in net.parameters()` of a model the function is handed,
                               # `net@fit`: the same model's leaves)
                               or f"{name}@{getattr(self.function, 'name', '')}" in value.trainables))):
            # (`for p in model.parameters()`: each a leaf of `model`; a member iterated so is a
            # model, whatever the walk knows of what was stored there)
            items = value.module.items if value.module is not None and base is iterable else None
            trainables = value.trainables or (frozenset({name}) if of_module and name.startswith("self.") else EMPTY)
            return Value(trainables=trainables, carried=value.carried, module=items)
        if value.computed and value.tensor:  # the tensors of a list a model computed
            return replace(value, saved=EMPTY, module=None, optimizer=False, alias=None)
        if value.container and (value.tensor or value.computed) and value.trainables and value.module is None \
                and type(iterable) is ast.Name and not any(r.startswith("%") for r in value.trainables):
            # `for loss in losses` of `losses = [mse(head(emb), y) for head in heads]`: each a
            # tensor those models computed (recorded where the list was built: a step since
            # leaves it stale)
            return replace(value, container=False, computed=True, saved=EMPTY, held=EMPTY, module=None,
                           optimizer=False, alias=None, parts=None, rows=None)
        if value.plain:  # range(n), a list of numbers (pulled out of a tensor, perhaps)
            return _plain_of(value)
        # (a summary walk's parameter `%k` stands for whatever the caller hands: its items are
        # part of it)
        handed = frozenset(r for r in value.trainables if r.startswith("%"))
        return replace(UNKNOWN, nograd=value.nograd, cuts=value.cuts, pulled=value.pulled,
                       carried=value.carried, rebuilt=value.rebuilt, live=value.attached or value.live,
                       inputs=value.inputs, trainables=handed)

    def with_(self, stmt: ast.With | ast.AsyncWith) -> None:
        region = None
        enable = False
        for item in stmt.items:
            call = item.context_expr
            target = call.func if type(call) is ast.Call else call
            name = self.imports.qualname(target)
            if opens_nograd(call, self.imports):
                region = stmt
            elif name in ENABLE_GRAD or (name in SET_GRAD_ENABLED and type(call) is ast.Call and literal_true(_first_argument(call))):
                enable = True
            else:
                value = self.expr(call)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, value, stmt)
        saved = self.nograd
        if region is not None:
            self.nograd = region
        elif enable and not (saved is not None and _inference_region(saved, self.imports)):
            # (inference mode is not lifted by `torch.enable_grad()`: what runs inside it still
            # records nothing, and a backward there raises)
            self.nograd = None
        self.block(stmt.body)
        self.nograd = saved

    def assigned_value(self, expr: ast.expr, target) -> Value:
        """The value bound by ``target = expr``; a trainable leaf or module gets its own root."""
        name = dotted(target) if target is not None else None
        if name is not None:
            self.bound_at[name] = self.seq
        if name is not None and self.makes_new_module(expr):
            self.rebinds.append((self.statement_node, name, self.key(name), self.seq))
        if name is not None and type(expr) is ast.Call and self.imports.qualname(expr.func) == "copy.deepcopy" \
                and expr.args and not expr.keywords:
            # `target_net = copy.deepcopy(net)`: a model of its own, whose parameters are new
            # leaves; what is computed from it under no_grad starves nothing of `net`.
            source = self.expr(expr.args[0])
            if source.module is not None or (source.trainables and not source.computed and not source.tensor
                                             and not _selects_elements(expr.args[0])):
                return Value(trainables=frozenset({name}), module=source.module)
            held = self.lookup(name) if name.startswith("self.") and name.count(".") == 1 and self.cls is not None \
                else UNKNOWN
            if held.trainables and held.module is None and not (held.tensor or held.computed or source.tensor):
                # (`self.net = copy.deepcopy(adapted)` of what a method returned, `self.net` a model
                # an optimizer was given: a model again, of its own)
                return Value(trainables=frozenset({name}))
            return source
        if name is not None and type(expr) is ast.Call and self.nograd is None:
            stepper = self.optimizer_holder(expr, name)
            if stepper is not None:
                return stepper
        # (a module built where nothing is recorded still holds parameters to train)
        if name is not None and (self.nograd is None or (type(expr) is ast.Call and module_info(
                expr, self.imports, self.classes) is not None)) and self.makes_root(expr, name):
            value = self.expr(expr)  # still record what happens inside the call
            module = module_info(expr, self.imports, self.classes)
            built_in = expr  # where its constructors are called
            if module is None and value.module is not None and type(expr) is ast.Call:
                # `stylizer = build_stylizer(…)`: what the factory builds, as its summary says
                module = value.module
                factory = self.facts.callee(self.imports.qualname(expr.func) or "")
                if factory is not None and origin(factory.node) is None:
                    built_in = factory.node
            # (a module built from another, `PerceptualLoss(vgg)`, is a module of its own)
            built_from_models = module is not None and value.attached and not value.post \
                and not (value.rebuilt or value.cuts or value.nograd)
            if built_from_models and module.qualname in CONTAINERS and type(expr) is ast.Call:
                # `ae = nn.Sequential(enc, dec)`: a container of those very modules, whose
                # parameters it trains wherever it is called (`enc[0]`, a part, is not `enc`)
                whole = [dotted(a) for a in expr.args if type(a) is ast.Name
                         or (type(a) is ast.Attribute and dotted(a) and dotted(a).count(".") == 1
                             and dotted(a).startswith("self."))]
                members = frozenset().union(*(self.lookup(n).trainables for n in whole if n))
                if members:
                    return Value(trainables=frozenset({name}) | members, module=module)
            if (value.rebuilt or value.cuts or value.attached or value.nograd) and not built_from_models:
                # `loss = raw.detach().requires_grad_()`: a leaf cut from a history, not a
                # parameter; what it was cut from matters.
                return value
            if module is not None and module.parameters and type(expr) is ast.Call and self.holds_nothing(module, expr):
                module = replace(module, parameters=False)
            if type(target) is ast.Name and self.function.name != "<module>" and type(expr) is ast.Call \
                    and not self.makes_leaf(expr) and once("only-called", self.function.node, _only_called).get(name):
                # `jmax = JaggedMaxModule()` built in the function that calls it, each call anew,
                # and neither kept, returned, handed on nor given to an optimizer: whatever
                # parameters it makes start afresh every call, and nothing trains them
                return Value(module=replace(module or ModuleInfo(self.imports.qualname(expr.func) or name), parameters=False))
            if module is not None and not module.parameters:
                return Value(module=module)
            if module is not None and module.qualname not in self.classes:
                # (a container of the file's own modules: an optimizer given it updates theirs)
                built = {n for n in (self.imports.qualname(c.func) for c in iter_nodes(built_in) if type(c) is ast.Call)
                         if n in self.classes and self.classes[n].is_module}
                if built:
                    self.facts.members.setdefault(self.key(name), set()).update(built)
            # (`patch = nn.Parameter(…)` bound to a name is a leaf of its own; `self.w = nn.Parameter(…)`
            # is a member of its module)
            leaf = (module is None or (module.qualname in PARAMETER and type(target) is ast.Name)) \
                and self.makes_leaf(expr)
            if leaf:
                self.facts.leaves.add(name)  # made to be trained: requires_grad=True, nn.Parameter
            return Value(trainables=frozenset({name}), module=module, tensor=leaf)
        entries = _module_entries(expr, self.imports, self.classes) if name is not None and self.nograd is None else None
        if entries:
            # `nets = Munch(generator=G(), predictor=nn.Linear(…))`, `{"predictor": nn.Linear(…)}`:
            # each entry a model of its own, named by its key (`nets.predictor`)
            value = self.expr(expr)
            fields = tuple((key, Value(trainables=frozenset({f"{name}.{key}"}), module=module))
                           for key, module in entries)
            return replace(value, fields=fields, trainables=frozenset(f"{name}.{key}" for key, _ in entries),
                           container=True, computed=False, module=None)
        value = self.expr(expr)
        if name is not None and type(expr) in (ast.ListComp, ast.List):
            covers = self.optimizers_listed(expr)
            if covers is not None:
                # `self.critic_opts = [Adam(c.parameters()) for c in self.critics]`: each element
                # updates one of them; a step of any element is read as updating them all
                self.facts.optimizers[self.key(name)] = covers
                self.facts.optimized |= covers
                return replace(value, optimizer=True)
        if name is not None and type(expr) is ast.Call:
            qual = self.imports.qualname(expr.func)
            own = self.classes.get(qual) if qual else None
            # (a class of the project built on one of torch's: `class SAM(torch.optim.Optimizer)`)
            own_optimizer = own is not None and own.node is not None and any(
                (b or "").startswith("torch.optim.") for b in own.bases)
            # (or one of another file of the project, `from sam import SAM`)
            elsewhere = self.imports.project.optimizer_class(qual) \
                if qual and own is None and self.imports.project is not None and not qual.startswith("torch") else None
            if qual and (own_optimizer or elsewhere is not None
                         or is_optimizer_class(qual)):
                covers = self.coverage(expr)
                self.facts.optimizers[self.key(name)] = covers | self.members_given(expr)
                self.built_optimizer(name, expr)
                if self.cls is not None and name.startswith("self."):
                    self.cls.optimizers[name] = covers
                if own_optimizer or elsewhere is not None:
                    self.facts.stepping[self.key(name)] = once(
                        "stepping", own.node if own_optimizer else elsewhere, _stepping_methods)
                own_optimizer = own_optimizer or elsewhere is not None
                return replace(value, optimizer=True, module=None if own_optimizer else value.module)
            if (expr.args or "params" in {k.arg for k in expr.keywords}) and not value.module \
                    and name in once("zeroed-and-stepped", self.facts.module, _zeroed_and_stepped):
                # `self.beta_optimizer = optimizer_class([self.log_beta], lr=…)`, the class
                # handed in: an optimizer (the file zeroes and steps it) of what it is given
                covers = self.coverage(expr)
                self.facts.optimizers[self.key(name)] = covers
                self.facts.optimized |= covers
                self.built_optimizer(name, expr)
                return replace(value, optimizer=True)
        return value

    def optimizer_holder(self, expr: ast.Call, name: str) -> Value | None:
        """`stepper = WarmupStepper(model, lr)`, a class of the file or the project whose `__init__`
        keeps one of torch's optimizers over the model it is handed (`Adam(model.parameters())`):
        an optimizer (its `step()` steps that one) of what this call hands it; None otherwise."""
        qual = self.imports.qualname(expr.func)
        if not qual or qual.startswith("torch"):
            return None
        own = self.classes.get(qual)
        holder = own.node if own is not None and own.node is not None else next(
            (c for c in self.facts.module.body if type(c) is ast.ClassDef and c.name == qual), None) \
            or (self.imports.project.class_def(qual) if self.imports.project is not None else None)
        # (a stepper only: a class with a `step` method that backpropagates nothing itself; a trainer
        # or an agent that does is read through its methods' summaries)
        stepper = holder is not None and any(type(m) is ast.FunctionDef and m.name == "step" for m in holder.body) \
            and not any(type(n) is ast.Attribute and n.attr in ("backward", "manual_backward") for n in ast.walk(holder))
        handed_in = optimized_init_parameters(holder) if stepper else ()
        covers = frozenset().union(*(self.coverage(_parameters_of(arg)) for arg in _handed_arguments(expr, handed_in)))
        if not covers:
            return None
        self.expr(expr)  # (what the call records)
        self.facts.optimizers[self.key(name)] = covers
        self.facts.optimized |= covers
        self.built_optimizer(name, expr)
        return Value(optimizer=True)

    def built_optimizer(self, name: str, call) -> None:
        self.optimizer_built[self.key(name)] = self.seq
        self.facts.optimizer_nodes[self.key(name)] = call

    def makes_new_module(self, expr) -> bool:
        """``expr`` makes a module with parameters of its own: a deep copy, or a constructor not
        handed a model (``nn.DataParallel(model)`` wraps that model's own parameters)."""
        while type(expr) is ast.Call and type(expr.func) is ast.Attribute and type(expr.func.value) is ast.Call:
            expr = expr.func.value  # (`DataParallel(net).cuda()`: what the chain starts from)
        if type(expr) is not ast.Call:
            return False
        if self.imports.qualname(expr.func) == "copy.deepcopy":
            return True
        info = module_info(expr, self.imports, self.classes)
        return info is not None and info.parameters and info.qualname not in PARAMETER and not any(
            self.expr(a).trainables or self.expr(a).module is not None
            for a in [*expr.args, *(k.value for k in expr.keywords)])

    def note_rebound(self, step, name: str, covers) -> None:
        """``name``'s optimizer steps after a backward through a module bound, since it was built,
        to a name whose parameters it was given: it updates the old ones (``Rebound``)."""
        last = self.last_backward
        if not covers or last is None or not self.record:
            return
        built = self.optimizer_built.get(self.key(name))
        if built is None and not name.startswith("self."):
            return  # (an optimizer of that name another function built)
        built = max(built if built is not None else -1, self.bound_at.get(name, -1))  # (or bound anew here)
        for assign, target, key, seq in self.rebinds:
            # (not an optimizer the new object holds itself, `gan.d_opt` of `gan = GAN()`: built with it)
            if key in covers and built < seq < self.backward_seq and not name.startswith(target + ".") and (
                    target in last.value.trainables or any(t.startswith(target + ".") for t in last.value.trainables)
                    or _called_between(self.function.node, target, assign, last.node)) \
                    and all(r.node is not assign for r in self.facts.rebounds):
                self.facts.rebounds.append(Rebound(assign, target, name, step, last, self.function))

    def optimizers_listed(self, expr) -> frozenset | None:
        """What a list of torch optimizers updates, all of them (``[Adam(c.parameters()) for c
        in self.critics]``, ``[Adam(a.parameters()), Adam(b.parameters())]``); None where the
        list holds anything else."""
        if type(expr) is ast.ListComp:
            renamed = {gen.target.id: dotted(gen.iter) for gen in expr.generators
                       if type(gen.target) is ast.Name and dotted(gen.iter) is not None}
            calls = [(expr.elt, renamed)]
        else:
            calls = [(e, None) for e in expr.elts]
        covers = set()
        for call, renamed in calls:
            qual = self.imports.qualname(call.func) if type(call) is ast.Call else None
            if not is_optimizer_class(qual):
                return None
            covers |= self.coverage(call, renamed)
        return frozenset(covers) if covers else None

    def loop_optimizers(self, name: str, at) -> frozenset | None:
        """What ``name`` updates where it is a loop variable over a list of optimizers (``for
        loss, opt in zip(losses, self.critic_opts)``, ``for opt in opts``) in a loop around
        ``at``."""
        if self.function is None:
            return None
        for loop in iter_nodes(self.function.node, into_functions=False):
            if type(loop) not in FORS or not (loop.lineno <= at.lineno <= (loop.end_lineno or loop.lineno)):
                continue
            source = None
            if type(loop.target) is ast.Name and loop.target.id == name:
                source = loop.iter
            elif type(loop.target) is ast.Tuple and type(loop.iter) is ast.Call \
                    and dotted(loop.iter.func) == "zip" and len(loop.iter.args) == len(loop.target.elts):
                source = next((arg for target, arg in zip(loop.target.elts, loop.iter.args)
                               if type(target) is ast.Name and target.id == name), None)
            listed = dotted(source) if source is not None else None
            if listed is not None and self.key(listed) in self.facts.optimizers:
                return self.facts.optimizers[self.key(listed)]
        return None

    def key(self, name: str) -> str:
        """A name as the whole module can compare it: ``self.x`` qualified by its class."""
        if name == "self" or name.startswith("self."):
            return f"{self.cls.name if self.cls else '?'}.{'*' if name == 'self' else name}"
        return name

    def members_given(self, call: ast.Call) -> frozenset[str]:
        """`self.policy = policy` and `Adam(policy.parameters())` in ``__init__``: the keys of the
        members an optimizer holds through the constructor's parameters they were set from."""
        if self.cls is None or self.function.name != "__init__":
            return EMPTY
        pairs = once("set_from_parameters", self.function.node, set_from_parameters)
        keys = set()
        for node in iter_nodes(call):
            if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("parameters", "named_parameters"):
                head, _, rest = (dotted(node.func.value) or "").partition(".")
                keys |= {self.key(f"self.{attr}" + (f".{rest}" if rest else "")) for attr, param in pairs if param == head}
        return frozenset(keys)

    def coverage(self, call: ast.Call, renamed: dict | None = None) -> frozenset[str]:
        """What an optimizer updates: the keys of the modules whose ``.parameters()`` it was given
        (``Net.*`` for an instance of this file's ``Net``) and of the tensors listed to it.
        ``renamed``: a comprehension's variable -> what it iterates (``c`` -> ``self.critics`` in
        ``[Adam(c.parameters()) for c in self.critics]``)."""
        keys: set[str] = set()
        entries = set()  # dicts of models one entry of which is given: not the dict's own name
        parents, owners = set(), set()  # models one member of which is given; models given whole
        built = self.built_from(_arguments(call))
        if renamed is None:
            # (`[p for m in self.world.values() for p in m.parameters()]`: `m` is each model the
            # dict `self.world` holds)
            renamed = {}
            for arg in built:
                for comp in iter_nodes(arg):
                    if type(comp) not in (ast.ListComp, ast.GeneratorExp, ast.SetComp):
                        continue
                    for gen in comp.generators:
                        held = gen.iter
                        if type(held) is ast.Call and type(held.func) is ast.Attribute \
                                and held.func.attr in ("values", "children") and not held.args:
                            held = held.func.value
                        if type(gen.target) is ast.Name and dotted(held) is not None:
                            renamed[gen.target.id] = dotted(held)
        for arg in built:
            for node in iter_nodes(arg):
                if type(node) is ast.Attribute and node.attr == "requires_grad":
                    self.facts.optimizes_what_requires_grad = True
                handed = self.parameters_listed(node) if type(node) is ast.Call else None
                if handed is not None or type(node) is ast.Call and type(node.func) is ast.Attribute \
                        and node.func.attr in ("parameters", "named_parameters"):
                    held = handed if handed is not None else node.func.value
                    owner = dotted(held)
                    if type(held) is ast.Subscript and type(held.slice) is ast.Constant \
                            and type(held.slice.value) is str and dotted(held.value) is not None:
                        # (`nets["student"].parameters()` of a dict of models: that entry's)
                        mapping = self.lookup(dotted(held.value))
                        entry = mapping.field(held.slice.value) if mapping.fields is not None else None
                        if entry is not None and entry is not NOTHING_YET and entry.module is not None:
                            owner = f"{dotted(held.value)}.{held.slice.value}"
                            entries.add(dotted(held.value))
                    if owner is not None and renamed and owner.split(".")[0] in renamed:
                        head, _, rest = owner.partition(".")
                        owner = renamed[head] + (f".{rest}" if rest else "")
                    if owner is None:
                        self.facts.optimizers_open = True
                        continue
                    owners.add(owner)
                    keys.add(self.key(owner))
                    head, _, rest = owner.partition(".")
                    held_module = self.lookup(head).module if rest and head != "self" else None
                    if held_module is not None and getattr(self.classes.get(held_module.qualname), "is_module", False):
                        # (a model of this file's class, whose members the walk names one by one)
                        parents.add(head)
                    module = self.lookup(head).module if head != "self" else None
                    if not rest:
                        # `nn.Sequential(FeatureGate(6), nn.Linear(6, 1))`: the file's modules built into it
                        keys |= {f"{cls}.*" for cls in self.facts.members.get(self.key(owner), ())}
                    if module is not None and module.qualname in self.classes:
                        keys.add(f"{module.qualname}.{'self.' + rest if rest else '*'}")
                        if getattr(self.classes[module.qualname], "foreign", False):
                            # another file's class (project.View.class_for): the keys its own
                            # walk gave its members are not this module's
                            self.facts.optimizers_open = True
                    elif head != "self" and (module is None or rest):
                        # A model of another file's class (or a part of one): what it holds,
                        # and so what this optimizer covers, is not known here.
                        self.facts.optimizers_open = True
        for arg in _arguments(call):
            # (`Adam(critic.head_a.parameters())` updates that member, not `critic` whole)
            keys |= _names(arg) - entries - (parents - owners)
        return frozenset(keys)

    def parameters_listed(self, call: ast.Call):
        """The argument of ``call`` whose parameters it lists: a function of the project that
        returns (some of) what a model it is handed holds (`lora_params(clip_l)` of `return [p
        for n, p in module.named_parameters() if "lora_" in n]`); None for any other call."""
        if type(call.func) is not ast.Name:
            return None
        summary = self.facts.callee(self.imports.qualname(call.func) or call.func.id)
        if summary is None or summary.method or type(summary.node) not in (ast.FunctionDef, ast.AsyncFunctionDef):
            return None
        k = once("parameters-listed", summary.node, _parameters_listed)
        return call.args[k] if k is not None and k < len(call.args) and type(call.args[k]) is not ast.Starred else None

    def built_from(self, args) -> list:
        """``args`` and, for a name among them, what the enclosing function assigns it or adds
        to it (``params = list(enc.parameters()) + list(head.parameters())``, ``params +=
        …``): what an optimizer given ``params`` holds, read from how the list was built."""
        out = list(args)
        # (and `self.wm_params = list(self.encoder.parameters()) + …` just above, in `__init__`)
        # (`te_params + dit_params`: each list named)
        names = {dotted(arg) for arg in (o for a in args for o in _added(a)) if type(arg) is ast.Name
                 or (type(arg) is ast.Attribute and dotted(arg) is not None and dotted(arg).count(".") == 1
                     and dotted(arg).startswith("self."))}
        if not names or self.function is None:
            return out
        for node in iter_nodes(self.function.node, into_functions=False):
            kind = type(node)
            if kind is ast.Assign and any(dotted(t) in names for t in node.targets):
                out.append(node.value)
            elif kind is ast.Assign and type(node.value) is ast.Tuple and any(
                    type(t) is ast.Tuple and len(t.elts) == len(node.value.elts) for t in node.targets):
                # (`te_params, dn_params = adapter_params(te), adapter_params(dn)`)
                out += [v for t in node.targets if type(t) is ast.Tuple and len(t.elts) == len(node.value.elts)
                        for e, v in zip(t.elts, node.value.elts) if dotted(e) in names]
            elif kind is ast.AugAssign and dotted(node.target) in names:
                out.append(node.value)
            elif kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("append", "extend") \
                    and dotted(node.func.value) in names:
                out.extend(node.args)
        return out

    def makes_leaf(self, expr: ast.expr) -> bool:
        """A tensor leaf that requires grad: ``torch.tensor(…, requires_grad=True)``, ``nn.Parameter(…)``."""
        while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in ("to", "cuda", "cpu", "float", "double", "half", "requires_grad_"):
            if expr.func.attr == "requires_grad_":
                return True
            expr = expr.func.value
        if type(expr) is not ast.Call:
            return False
        return self.imports.qualname(expr.func) in PARAMETER or any(
            k.arg == "requires_grad" and literal_true(k.value) for k in expr.keywords)

    def holds_nothing(self, module: ModuleInfo, call: ast.Call) -> bool:
        """An instance of a plain class of the project that builds no module and is handed none:
        a metric or loss wrapper given a function (`RunningLoss(F.mse_loss, transform)`) holds
        no parameter, so what its methods return carries none of its own."""
        cls = self.classes.get(module.qualname)
        if cls is None or cls.is_module or cls.bases or any(held is not None for held in cls.attrs.values()) \
                or (cls.node is not None and once("makes-leaves", cls.node, _makes_own_leaves)):
            return False
        return all(self._holds_no_model(a) for a in _arguments(call))

    def _holds_no_model(self, arg) -> bool:
        """A constructor argument known to hold no model: a literal, a lambda, a torch function
        (`F.mse_loss`), a plain number or setting."""
        if type(arg) in (ast.Constant, ast.Lambda, ast.JoinedStr):
            return True
        qual = self.imports.qualname(arg) if type(arg) in (ast.Name, ast.Attribute) else None
        if qual is not None and qual.startswith("torch.nn.functional."):
            return True
        value = self.expr(arg)
        return value.plain or (value.const and not value.tensor and value.module is None and not value.attached
                               and type(arg) is not ast.Name)

    def makes_root(self, expr: ast.expr, target: str | None = None) -> bool:
        while type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in ("to", "cuda", "cpu", "train", "eval", "float", "double", "half", "requires_grad_"):
            if expr.func.attr == "requires_grad_" and not literal_false(_first_argument(expr)):
                return True
            expr = expr.func.value
        if type(expr) is not ast.Call:
            return False
        if any(k.arg == "requires_grad" and literal_true(k.value) for k in expr.keywords):
            return True
        if type(expr.func) is ast.Subscript and self.registry(expr.func):
            return all(self.makes_root(ast.Call(func=cls, args=[], keywords=[])) for cls in self.registry(expr.func))
        name = self.imports.qualname(expr.func)
        if name is None:
            return False
        if name in PARAMETER:
            return True
        last = name.split(".")[-1]
        if name.startswith("torch.nn.") and last[:1].isupper():
            return True
        if name.startswith(("torch.", "numpy.", "np.")) or name.split(".")[0] in ("torch", "numpy"):
            return False
        cls = self.classes.get(name)
        if cls is not None:
            # (or a callable object of plain classes of the project, a criterion whose base's
            # `__call__` runs its override: not a replay buffer's subclass, which holds data)
            return cls.is_module or not cls.bases or (self.plain_chain(cls) and self.callable_chain(cls))
        if name in self.functions or (self.imports.project is not None and name.split(".")[0] in self.imports.sources):
            # `gen = build_generator()`: a function of the project that returns a module it builds
            summary = self.facts.callee(name)
            if summary is not None and not summary.method and summary.module is not None:
                return True
        # A class of another file or library: a model if the file uses what it built as one
        # (calls it, takes its parameters, switches it to train or eval), whatever it is named.
        return last[:1].isupper() and not last.isupper() and target is not None and target in self.used_as_modules()

    def plain_chain(self, cls, seen=()) -> bool:
        """A class of the project without a base, or whose bases are such classes (`class
        MyLoss(QuantileLoss)` over `class QuantileLoss:`): its objects hold what they are handed."""
        if getattr(cls, "foreign", False):
            # (a class of another file: its bases were resolved in its own file's scan)
            return not cls.bases or getattr(cls, "plain_chain", False)
        parents = [self.classes.get(b) for b in cls.bases if b]
        return all(p is not None and p.name not in seen and p is not cls and not p.is_module
                   and self.plain_chain(p, seen + (cls.name,)) for p in parents)

    def callable_chain(self, cls, seen=()) -> bool:
        """``cls`` or one of its bases of the project defines ``__call__``."""
        if "__call__" in cls.methods:
            return True
        if getattr(cls, "foreign", False):
            return "__call__" in getattr(cls, "chain_methods", ())
        return any(p is not None and p.name not in seen and p is not cls and self.callable_chain(p, seen + (cls.name,))
                   for p in (self.classes.get(b) for b in cls.bases if b))

    def used_as_modules(self) -> set[str]:
        """The names and attributes the module calls (``encoder(x)``) or uses as an
        ``nn.Module`` only is used (``MODULE_USES``), computed once per module."""
        return once("used-as-modules", self.facts.module, _used_as_modules)

    def bind(self, target, value: Value, node) -> None:
        if type(target) is ast.Name and type(node) is ast.Assign and type(node.value) is ast.Name \
                and node.value.id in self.functions and node.value.id != target.id \
                and value in (DEFINITION, NOGRAD_DEFINITION):
            # `training_loss_fn = mase_loss`: the name calls that function of this file
            self.env[target.id] = HANDED
            self.handed[target.id] = frozenset({node.value.id})
            return
        chosen = _chosen_functions(node.value, self.functions) if type(target) is ast.Name and type(node) is ast.Assign \
            and type(node.value) is ast.IfExp else None
        if chosen and target.id not in chosen:
            # `fn = giou_loss_torch if exact else giou_loss_np`: the name calls one of them
            self.env[target.id] = HANDED
            self.handed[target.id] = chosen
            return
        if type(target) is ast.Name and self.handed.get(target.id) and self.env.get(target.id) is HANDED:
            del self.handed[target.id]  # (rebound to something else)
        if type(target) is ast.Name:
            # (`live = ProxClient(model, …)`: an object of a plain class of the project, which an
            # optimizer step or an edit of its model's parameters leaves as it is, no recorded tensor)
            made = node.value if type(node) is ast.Assign and type(node.value) is ast.Call else None
            if made is not None and self.plain_class(self.imports.qualname(made.func) or ""):
                self.objects.add(target.id)
            else:
                self.objects.discard(target.id)
        if value.fields is not None and type(target) is not ast.Name:
            # (a dict kept on an object, `self.rollout = {"logp": [], …}`, is filled by other
            # methods this walk reads as a whole: read whole)
            value = replace(value, fields=None)
        if type(target) is ast.Name and self.function.name == "<module>":
            kept = hook_stores(self.facts.module).get((None, target.id))
            if kept is not None:
                # (`acts = {}` that a forward hook fills with `output.detach()`: the dict holds
                # the cut wherever it is handed, `feature_loss(acts, …)`)
                value = value.join(self.kept_cut(kept))
        if self.loops and value.cuts:
            name = dotted(target)
            if name is not None and name in self.loops[-1].carried:
                # `hidden = hidden.detach()`: the state carried into the next iteration is cut
                # on purpose (truncated backpropagation through time).
                for cut in value.cuts:
                    # (of a cut this loop makes: one a call in an outer loop made, in a method
                    # whose own loop carries a sum, `flow = flow + dec(feats)`, is no state of it)
                    if cut in self.facts.cuts and self.facts.cuts[cut].loop in (None, self.loops[-1].node):
                        self.facts.cuts[cut].carried = True
        if type(target) in (ast.Name, ast.Attribute) and dotted(target) in self.intended_leaves:
            # `x_adv = torch.tensor(..., requires_grad=True)` differentiated against or handed to
            # an optimizer: a leaf made on purpose (the copy bound itself, not one the value was
            # computed from: `z = z + dt * f`, `dt` from a copied end time)
            made = _made_by(getattr(node, "value", None), self.imports)
            if value.rebuilt:
                self.facts.intended_rebuilds.update(r for r in value.rebuilt if r is made or made is None)
            if type(made) is ast.Call and type(made.func) is ast.Name and made.func.id in self.functions:
                self.facts.leaf_makers.add(made.func.id)  # (`self.image = preprocess(self.created)`)
        if type(target) is ast.Name:
            if type(node) is ast.Assign and type(node.value) is ast.Name and node.value.id != target.id \
                    and value.alias is None and (value.tensor or value.computed) \
                    and not (value.container or value.plain or value.module is not None or value.optimizer):
                # `pitch_cond = condition`: one tensor under two names (what an op saves of one,
                # an in-place edit of the other breaks)
                value = replace(value, alias=node.value.id)
                self.renamed.add(target.id)
            else:
                self.renamed.discard(target.id)
            self.env[target.id] = value
            self.may_alias.pop(target.id, None)
            self.born[target.id] = self.seq
            self.consumed.discard(target.id)
            self.opaque.discard(target.id)
            if value.rebuilt and not (value.attached or value.live) and self.record:
                self.facts.bare_copies.setdefault((self.function.node, target.id), set()).update(value.rebuilt)
            if type(node) is ast.Assign and _cut_copy(node.value):
                # `fake = fake.detach()`, then `fake.requires_grad_()`: a new leaf on purpose (a
                # `.clone()` alone may only be how an inference tensor is made switchable)
                self.copies.add(target.id)
            else:
                self.copies.discard(target.id)
            if self.items:
                for key in [k for k in self.items if k[0] == target.id]:
                    del self.items[key]
        elif type(target) in (ast.Tuple, ast.List):
            # `mean, std = head(h)` where the call's summary knows what saved each element
            # (only for the assignment's own target: `o, (h, c) = self.rnn(x)` unpacks its
            # second element into `(h, c)`, which the parts do not describe)
            parts = self.element_saves.get(node.value) if type(node) is ast.Assign \
                and any(t is target for t in node.targets) else None
            if parts is not None and (len(parts) != len(target.elts)
                                      or any(type(e) is ast.Starred for e in target.elts)):
                parts = None
            built = self.element_built.get(node.value) if type(node) is ast.Assign else None
            # (`model, opt = setup()`, or onto the receiver: `self.G, self.D, self.opt_g, … = build()`)
            names = [e.id if type(e) is ast.Name else dotted(e) if type(e) is ast.Attribute
                     and (dotted(e) or "").count(".") == 1 and dotted(e).startswith("self.") else None
                     for e in target.elts]
            if built is not None and (len(built) != len(target.elts) or None in names):
                built = None
            for i, element in enumerate(target.elts):
                inner = _unstarred(element)  # `a, *rest = …`: rest is bound as an element
                saved = frozenset({parts[i]}) if parts and parts[i] is not None else EMPTY
                part = built[i] if built else None
                if part is not None and part[0] == "module" and self.nograd is None:
                    # `model, criterion, optimizer = setup()`: a model of its own, as `Net()` is
                    self.bind(inner, Value(trainables=frozenset({names[i]}), module=part[1]), node)
                elif part is not None and part[0] == "optimizer":
                    keys = set()
                    for j in part[1]:
                        keys.add(self.key(names[j]))
                        module = built[j][1] if built[j] is not None and built[j][0] == "module" else None
                        if module is not None and module.qualname in self.classes:
                            keys.add(f"{module.qualname}.*")
                    self.facts.optimizers[self.key(names[i])] = frozenset(keys)
                    if self.cls is not None and names[i].startswith("self."):
                        self.cls.optimizers[names[i]] = frozenset(keys)
                    self.bind(inner, replace(value, saved=EMPTY, module=None, optimizer=True, trainables=EMPTY), node)
                else:
                    trained = self.element_trained.get(node.value) if type(node) is ast.Assign else None
                    element = value
                    if value.parts is not None and len(value.parts) == len(target.elts) \
                            and not any(type(e) is ast.Starred for e in target.elts):
                        element = value.parts[i]  # `obs, log_prob, reward = row`
                    groups = self.element_groups(node.value, trained, len(target.elts)) if trained else None
                    if groups is not None:
                        leaves = [self.returned_element(node.value, value, trained, j) for j in groups[i]]
                        element = leaves[0] if len(leaves) == 1 else replace(
                            union(leaves), computed=False, container=True, parts=tuple(leaves))
                    self.bind(inner, replace(element, saved=saved, module=None, optimizer=False), node)
                    # (a call's tuple, its parts read off the summary, is as opaque as before)
                    if type(inner) is ast.Name and (value.parts is None or trained is not None) \
                            and value.computed and not value.container:
                        self.opaque.add(inner.id)
        elif type(target) is ast.Starred:
            self.bind(target.value, value, node)
        elif type(target) is ast.Attribute:
            name = dotted(target)
            if target.attr == "requires_grad" and type(node) is ast.Assign and literal_true(node.value):
                base = dotted(target.value)
                if base is not None:
                    self.switch(node, base, self.lookup(base), fresh=base in self.copies)
                return
            if target.attr == "data" and type(node) is ast.Assign and self.rebound_storage(node, target, value):
                return
            if name is not None:
                self.env[name] = value
                self.born[name] = self.seq
                self.note_attribute(name, value)  # `self.tau = tau` in __init__
                if self.events is not None and self.record and name.startswith("self.") and name.count(".") == 1:
                    self.events.append(Event("bind", node, name[5:], touches=self.touches(value) if (
                        value.computed and value.attached) else None))
            else:
                self.expr(target.value)
        elif type(target) is ast.Subscript:
            base = _edit_base(target)
            # (`outputs["logits"] = …` stores an item; so does `highs[i] = …` in a list)
            if base is not None and not _by_key(target) and not (
                    type(target.value) is ast.Name and self.lookup(base).container and not self.lookup(base).tensor):
                self.edit(node, base, (target, " = …"))
            written = self.expr(target.value)
            index = target.slice
            if type(index) in (ast.Name, ast.Attribute) and (written.attached or written.live) and self.record:
                held = self.expr(index)
                if held.tensor and not (held.plain or held.container or held.module is not None):
                    # `logits[mask] = -inf` into a tensor with history: the indexed write saves its
                    # index tensor for backward, so an edit of `mask` before then breaks it
                    self.mark_saved(index, Save.at(f"{self.written(target)} = …", node))
            self.store_item(target, value)

    def aug_assign(self, node: ast.AugAssign) -> None:
        value = self.expr(node.value)
        name = dotted(node.target) if type(node.target) is not ast.Subscript else _edit_base(node.target)
        if name is None:
            return
        old = self.lookup(name)
        if old.tensor or old.saved or old.attached or (old.alias is not None and old.live) \
                or (old.computed and not old.const) or type(node.target) is ast.Subscript:
            op = AUG_OPERATORS.get(type(node.op), "op=")
            # `laterals[i] += …` on a list edits the element tensor itself
            self.edit(node, name, (node.target, f" {op} …"),
                      element=node.target if type(node.target) is ast.Subscript else None,
                      itself=self.saves_own_operand(node, name, old))
        if type(node.target) is ast.Subscript:
            self.store_item(node.target, value)
            return
        new = (old | value)
        if type(node.op) in (ast.Add, ast.Sub) and new.cuts:
            new = joined(new, (old, value), self.facts.switched_off)  # `update_loss += policy_loss + 0.5 * value_loss`, as `a + b` is
        elif type(node.op) in (ast.Mult, ast.Div) and not (value.attached or value.live or value.cuts):
            new = replace(new, cuts=old.cuts)  # `update_loss /= self.recurrence`: scaled by a number
        if self.nograd is not None:
            new = self.no_history(new)
        # (a tensor edited in place is still the view it was: `z2 += shift`, then `z2 *= scale`)
        self.env[name] = replace(new, saved=old.saved, module=None, alias=old.alias if not old.plain else None)
        self.born.setdefault(name, self.seq)

    def store_item(self, target: ast.Subscript, value: Value) -> None:
        """``storage[k] += [to_np(v)]``, ``out[key] = loss``: a dict or list (anything not known
        to be a tensor) named by a plain name now holds what was stored in it."""
        name = dotted(target.value)
        if name is None and type(target.value) is ast.Subscript:
            # (`hidden.data[i][a:b] = …`: a slice of a row of the tensor)
            name = _edit_base(target.value)
        if name is not None and name.endswith(".data"):
            name = name[: -len(".data")]  # (written where autograd does not see: only cut values reach it)
        if name is not None and name.startswith("self.") and name.count(".") == 1 and self.cls is not None \
                and value.cuts and not (value.attached or value.live) and (value.tensor or value.computed):
            # (`self.recordings["v_mem"] = v.detach().clone()` in a forward: the dict on the object
            # holds the cut values, read by whoever reads the entry there, ``stored_cut``)
            self.note_attribute(name, replace(value, saved=EMPTY, container=True, tensor=False, fields=None))
            return
        if name is None or "." in name or name not in self.env:
            return
        old = self.env[name]
        # (a rebuild of values pulled out of tensors, `torch.tensor(log_probs).sum()` of `.item()`
        # numbers, stored in a buffer, carries its cut; a copy of data, `obs[step] =
        # torch.Tensor(next_obs)`, or of what a reward function returned, is the rebuild's own)
        pulled = {r.node for r in self.facts.rebuilds if r.source.pulled} if any(
            getattr(self.facts.cuts.get(c), "kind", None) == REBUILD for c in value.cuts) else set()
        cut = {node: kept for node, kept in value.cuts.items()
               if node in self.facts.cuts and (self.facts.cuts[node].kind != REBUILD or node in pulled)}
        if old.tensor and not old.container and not old.plain and (value.attached or value.live) \
                and (value.tensor or value.computed):
            # `log_c[:, t] = logsumexp(…)` into a buffer made by `torch.zeros`: the buffer now
            # carries the history written into it (CopySlices), and the cuts on its way (a
            # layer's output detached inside the step that computed it)
            self.env[name] = replace(old.join(replace(value, saved=EMPTY, cuts={})), tensor=True, container=False,
                                     saved=old.saved, alias=old.alias, held=old.held, cuts={**old.cuts, **cut})
            return
        if old.tensor and not old.container and not old.plain and cut and (value.tensor or value.computed) \
                and (old.attached or old.live) and old.trainables:
            # `hidden.data[i, a:b] = images.data[k]` into the activations a model computed: they
            # keep their own history, and what the written part was cut from trains nothing
            # through them
            self.env[name] = replace(old, cuts={**old.cuts, **cut})
            return
        if old.tensor and not old.container and not old.plain and cut and (value.tensor or value.computed) \
                and not (old.attached or old.live):
            # `scores[i] = scorer(x[i]).detach()` into a buffer that held no history: it holds
            # the cut values, and what they were cut from gets no gradient through it (a copy of
            # data, `obs[step] = torch.Tensor(next_obs)`, is the rebuild's own to judge)
            self.env[name] = replace(old, cuts={**old.cuts, **cut}, computed=True,
                                     rebuilt=old.rebuilt | (value.rebuilt & cut.keys()))
            return
        if old.plain and not old.container and (value.pulled - old.pulled):
            # (`profiles[i] = np.abs(np.fft.fft2(plane))` into `np.zeros(…)`: the array now holds
            # values pulled out of tensors, as the array they were computed in does)
            self.env[name] = replace(old, pulled=old.pulled | value.pulled, nograd=old.nograd | value.nograd)
            return
        if (old.tensor and not old.container) or old.plain or old.module is not None or old.optimizer:
            return
        key = _item_key(target)
        fields = None
        if key is not None and type(key[1]) is str and (old.fields is not None or old == NOTHING_YET):
            # (`losses = {}`, then `losses["d"] = …`, `losses["g"] = …`: a dict of those keys,
            # each holding what was stored under it, as a display of them would)
            fields = old.fields or ()
            if key[1] not in {k for k, _ in fields}:
                fields = (*fields, (key[1], value))
        self.env[name] = replace(old.join(replace(value, saved=EMPTY)), held=old.held | _held([value]),
                                 container=True, computed=old.computed, alias=None, fields=fields)
        if key is not None:
            # (`+=` adds to what the key held; a store on one path keeps the other's: may)
            seen = self.items.get(key)
            self.items[key] = value if seen is None else seen.join(value)

    # ---- facts ---------------------------------------------------------------------------------

    def saves_own_operand(self, node: ast.AugAssign, name: str, old: Value) -> frozenset:
        """``x[:, 5:] *= x[:, 4:5]`` (or ``x *= x``) on a tensor with history: the multiplication
        saves its operand for the gradient of the edited side, and that operand is a view of the
        very tensor it then edits (one version counter): backward fails. What it saves, as a Save."""
        if type(node.op) not in (ast.Mult, ast.Div) or self.nograd is not None or not (old.attached or old.live):
            return EMPTY
        # (a NumPy array does the same without complaint: `cum /= cum[-1]` in a file that never
        # imports torch is no tensor)
        if not old.tensor and not any(q == "torch" or q.startswith("torch.") for q in self.imports.names.values()):
            return EMPTY
        operand = node.value
        base = operand.id if type(operand) is ast.Name else _edit_base(operand) if type(operand) is ast.Subscript else None
        if base != name:
            return EMPTY
        return frozenset({Save(AUG_OPERATORS[type(node.op)], node, id(node), view=self.facts.code(operand))})

    def edit(self, node, name: str, how, element=None, itself: frozenset = EMPTY) -> None:
        """An in-place edit of ``name``'s tensor; a view or detached alias edits its base too.
        ``element``: the subscript edited (``x[i] += …``), which for a container is one of the
        tensors it holds, and is the tensor named; ``itself``: what the edit's own op saved of it."""
        via_data = name.endswith(".data")
        name = name[: -len(".data")] if via_data else name
        value = self.lookup(name)
        if value.plain:  # `eta *= 0.5` on a number, `scores[i] = s` on a list: no tensor edited
            return
        saved = value.saved | itself
        if element is not None and _by_key(element):
            saved = EMPTY  # (`outputs["logits"] += b`: a dict's item, not the dict, is edited)
        if element is not None and value.held:
            saved = saved | value.held
            name = self.written(element)
        base = same_as = None
        if value.alias is not None and value.alias != name:
            aliased = self.lookup(value.alias)
            since = self.may_alias.get(name)
            saved = saved | (aliased.saved if since is None else frozenset(
                save for n, save in self.save_log[since:] if n == value.alias and save in aliased.saved))
            base = value.alias if not aliased.computed else None
            same_as = value.alias if name in self.renamed and aliased.saved - value.saved else None
        if self.record:
            self.facts.edits.append(Edit(node, name, how, saved, self.function, via_data=via_data or (
                                             value.unversioned and value.alias is not None and not value.saved),
                                         trainables=value.trainables | value.post,
                                         recording=self.nograd is None, as_bound=not value.computed, base=base,
                                         same_as=same_as))

    def edit_of(self, node, expr, element=None) -> None:
        """An in-place edit of the tensor ``expr`` gives (``x``, ``x[i]``, ``x.view(…)``): by its
        name where it has one (``edit``), else of the unnamed tensor itself, where the op that
        made it saved it (``conv(x).unsqueeze_(1)`` on what a ReLU ending the forward saved)."""
        base = _edit_base(expr)
        if base is not None:
            self.edit(node, base, node, element=element)
            return
        root = _edit_root(expr)
        value = self.expr(root)
        if value.saved and not value.plain and self.record:
            self.facts.edits.append(Edit(node, self.written(root), node, value.saved, self.function,
                                         trainables=value.trainables | value.post,
                                         recording=self.nograd is None))

    def switch(self, node, name: str | None, value: Value, fresh: bool = False) -> None:
        """requires_grad switched on for ``value`` (held by ``name``, if it is a name)."""
        if type(node) is ast.Call and not fresh and value.attached and value.trainables - self.facts.frozen \
                and any(not kept for kept in value.cuts.values()) and not _under_requires_grad_test(node, self.facts.module):
            # `loss.requires_grad_()` on a sum of attached terms and a dead one (computed under
            # no_grad): on a tensor that is no leaf the call does nothing, and what lost its history
            # is that term, GL001's (the attribute form, `.requires_grad = True`, raises there)
            return
        if self.record:
            bound = name
            if bound is None:
                # (`mix = (eps * real + (1 - eps) * fake).requires_grad_(True)`: the new leaf is
                # the name the switched expression is bound to)
                up = tree_parents(self.facts.module).get(node)
                if type(up) is ast.Assign and up.value is node and len(up.targets) == 1:
                    bound = dotted(up.targets[0])
            intended = (fresh and not (bound is not None and _only_backpropagated(self.function.node, bound))) \
                or (bound is not None and bound in self.intended_leaves)
            self.facts.switches.append(Switch(node, bound, value, intended, self.function))

    def made_leaf(self, value: Value) -> None:
        """The rebuilds ``value`` descends from are made leaves that require grad (``Cut.leaf``)."""
        for node in value.cuts:
            cut = self.facts.cuts.get(node)
            if cut is not None and cut.kind == REBUILD:
                cut.leaf = True

    def constructs_object(self, node) -> bool:
        """``node`` builds an instance of a plain class of this file or the project (a trainer,
        an agent): no op autograd records, whatever the region."""
        if type(node) is not ast.Call:
            return False
        qualname = self.imports.qualname(node.func)
        info = self.classes.get(qualname) if qualname else None
        return info is not None and not info.is_module

    def no_history(self, value: Value, node=None) -> Value:
        """A value computed where autograd records nothing (under no_grad / inference_mode).
        The region is remembered only where history was lost: data scaled under no_grad
        had none to lose. Where the expression ``node`` computed it from trainables, that is a
        cut of their history (a Cut of kind "no_grad"), as a ``.detach()`` there would be; the
        no_grad cuts it already descends from are kept (the first place history was lost)."""
        lost = value.attached or value.live
        cuts = {c: EMPTY for c in value.cuts if getattr(self.facts.cuts.get(c), "kind", None) == "no_grad"}
        if node is not None and (value.trainables or value.post):
            self.nograd_cut(node, value)
            cuts[node] = EMPTY
        elif node is not None and len(own := self.joined_in_region(node, cuts)) > 1:
            # (`kl = expm1(ref - old) - (ref - old)` of the policy's and the reference's
            # log-probabilities, each cut here: a value of its own, computed here, whatever its
            # parts do elsewhere)
            cut = self.facts.cuts.get(node)
            if cut is None:
                cut = self.facts.cuts[node] = Cut(node, "no_grad", self.written(node), function=self.function,
                                                  loop=self.loops[-1].node if self.loops else None,
                                                  region=self.nograd)
            for c in own:
                cut.upstream |= self.facts.cuts[c].upstream
                cut.keys |= self.facts.cuts[c].keys
            cuts = {c: held for c, held in cuts.items() if c not in own}
            cuts[node] = EMPTY
        return replace(value, trainables=EMPTY, post=EMPTY, cuts=cuts, carried=EMPTY, stale=EMPTY,
                       nograd=value.nograd | ({self.nograd} if lost else EMPTY),
                       const=True, saved=EMPTY, live=False, inputs=EMPTY)

    def joined_in_region(self, node, cuts) -> set:
        """The cuts of this no_grad region that ``node`` brings together from two or more of its
        operands, each holding its own (``ref - old``); none where one operand holds them all
        (``relu(adapter(pooled))``, one chain of ops)."""
        kind = type(node)
        operands = [node.left, node.right] if kind is ast.BinOp else \
            [*node.args, *(k.value for k in node.keywords)] + (
                [node.func.value] if type(node.func) is ast.Attribute else []) if kind is ast.Call else []
        held = []
        for operand in operands:
            value = self.memo.get(id(operand))
            mine = {c for c in value.cuts if c in cuts and self.facts.cuts[c].region is self.nograd} \
                if value is not None else set()
            if mine:
                held.append(mine)
        if len(held) < 2 or any(a == b for i, a in enumerate(held) for b in held[i + 1:]):
            return set()
        return set().union(*held)

    def nograd_cut(self, node, value: Value) -> None:
        """Record ``node``, computed from trainables under the no_grad region, as a cut."""
        cut = self.facts.cuts.get(node)
        if cut is None:
            cut = self.facts.cuts[node] = Cut(node, "no_grad", self.written(node), function=self.function,
                                              loop=self.loops[-1].node if self.loops else None,
                                              region=self.nograd, fresh=self.fresh_forward(node))
        self.add_upstream(cut, value.trainables | value.post)

    def fresh_forward(self, node) -> bool:
        """``node`` runs a model on values with no history (`policy(ids)` under no_grad): every
        name it reads outside a call's callee holds no history, and one callee is a model."""
        callees = {id(n.func) for n in ast.walk(node) if type(n) is ast.Call}
        model = False
        for n in ast.walk(node):
            if type(n) not in (ast.Name, ast.Attribute) or dotted(n) is None:
                continue
            value = self.lookup(dotted(n))
            if id(n) in callees:
                model = model or value.module is not None or bool(value.trainables)
            elif type(n) is ast.Name and value.module is None and (
                    value.attached or value.live or value.trainables or value.post or value.inputs):
                return False
        return model

    def add_upstream(self, cut: Cut, names) -> None:
        """The trainables ``names`` (as this walker names them) starve behind ``cut``."""
        cut.upstream |= names
        for name in names:
            if name.startswith("%"):
                continue  # a summary walk's parameter: its callers say what it is
            cut.keys.add(self.key(name.split("@")[0]))
            module = self.lookup(name).module
            if self.cls is not None and name.startswith("self."):
                cut.keys.add(f"{self.cls.name}.*")
                seen = self.cls.assigned.get(name)
                if not self.cls.may_be_module and module is not None and module.qualname in self.classes \
                        and not (seen is not None and seen.trainables == frozenset({name})):
                    # (a plain trainer's `self.model`, handed a `Classifier()`: that model; one
                    # its own constructor builds, `self.target_q = QNet(…)`, is that instance only)
                    cut.keys.add(f"{module.qualname}.*")
            elif module is not None and module.qualname in self.classes and "@" in name:
                # (a model handed to a function, `model@train`: any instance of its class may be
                # it; a name bound to one instance, `target_net = QNet()`, is that one only)
                cut.keys.add(f"{module.qualname}.*")

    def mark_saved(self, operand: ast.expr, save: Save) -> None:
        if self.nograd is not None:
            return
        if type(operand) is ast.Subscript and type(operand.value) is ast.Name:
            # `F.linear(h, fast[0])` saves the list's element itself: an edit of `fast[0]` breaks it
            held = self.env.get(operand.value.id)
            position = _position(operand.slice)
            if held is not None and held.container and held.parts is not None and position is not None \
                    and -len(held.parts) <= position < len(held.parts):
                parts = list(held.parts)
                parts[position] = replace(parts[position], saved=parts[position].saved | {save})
                self.env[operand.value.id] = replace(held, parts=tuple(parts), held=held.held | {save})
                return
        if type(operand) is ast.Subscript:
            # `f[i - 1] * w` saves a view of `f`: it shares `f`'s version counter, so a later
            # write into any part of `f` invalidates it
            base = self.viewed(operand)
            if base is None:
                return
            save = dataclasses.replace(save, view=self.written(operand))
            operand = base
        elif _view_of(operand) is not None:
            # `conv(x.transpose(1, 2))` saves a view of `x` (a method that always returns one):
            # it shares `x`'s version counter, so `x += …` later invalidates it
            base = operand
            while _view_of(base) is not None:
                base = _view_of(base)
            name = dotted(base)
            held = self.env.get(name) if name is not None and name not in self.opaque else None
            if held is None and name is not None and name.startswith("self.") and name.count(".") == 2 \
                    and name.rpartition(".")[2] in ("weight", "bias") and name not in self.opaque:
                # (`u @ self.item_emb.weight.t()`: a view of a submodule's parameter)
                held = replace(self.lookup(name), tensor=True)
            elif held is None and name is not None and name.startswith("self.") and name.count(".") == 1 \
                    and name not in self.opaque:
                held = self.lookup(name)  # (`q @ self.bank.t()`: a view of a buffer the module holds)
            # (also a forward's input, an activation it is handed: `self.conv(x.transpose(1, 2))`;
            # and a submodule's parameter under a name of its own, `table = self.item_emb.weight`)
            if held is None or not (held.tensor or held.live or _submodule_parameter(held.alias)) \
                    or held.container or held.plain:
                return
            save = dataclasses.replace(save, view=self.written(operand))
            operand = base
        name = dotted(operand)
        if name is None or (name not in self.env and not name.startswith("self.")):
            return
        value = self.lookup(name)
        if value.plain:  # an op keeps a Python number as a scalar, not as a saved tensor
            return
        self.env[name] = replace(value, saved=value.saved | {save})
        self.save_log.append((name, save))
        base = value.alias
        if base is not None and base != name and base not in self.env and type(operand) is ast.Name \
                and _submodule_parameter(base) and base not in self.opaque:
            self.env[base] = replace(self.lookup(base), tensor=True)  # (`table = self.item_emb.weight`)
        if base is not None and base != name and base in self.env and type(operand) is ast.Name:
            # `previous = survival[:, k]` then `previous * w`: the view saved shares `survival`'s
            # version counter, so a write into `survival` breaks the backward too
            held = self.env[base]
            # (also a forward's input, an activation: `z1, z2 = z[:, :h], z[:, h:]` in a coupling)
            if (held.tensor or held.live) and not (held.container or held.plain):
                view = dataclasses.replace(save, view=name, renamed=name in self.renamed) if save.view is None else save
                self.env[base] = replace(held, saved=held.saved | {view})
                self.save_log.append((base, view))

    def copied_by(self, node: ast.Subscript) -> bool:
        """Whether indexing may copy: an index not known to be an integer, slice, ``None`` or
        ``...``. (A tensor of indices or a mask copies; `table[b["u"], :]` of rows a batch dict
        holds may, and a copy shares no version counter with the table.)"""
        index = node.slice
        for element in index.elts if type(index) is ast.Tuple else (index,):
            kind = type(element)
            if kind is ast.Slice or kind is ast.Constant:
                continue
            if not self.expr(element).plain:
                return True
        return False

    def viewed(self, node: ast.Subscript) -> ast.expr | None:
        """The tensor ``node`` is a view of: basic indexing (integers, slices, ``None``, ``...``)
        of a tensor; an index that may be a tensor copies, and a container's element is its own."""
        base = node.value
        name = dotted(base)
        if name is None or name not in self.env or name in self.opaque:
            return None
        held = self.env[name]
        # (a value that may require grad, a function's input, indexed on several dimensions at
        # once, `p[:, 2]`, is a tensor: a list's element takes one index)
        if not (held.tensor or (held.live and type(node.slice) is ast.Tuple and self.used_as_tensor(name))) \
                or held.container or held.plain:
            return None
        if _by_key(node):
            return None
        index = node.slice
        for element in index.elts if type(index) is ast.Tuple else (index,):
            kind = type(element)
            if kind is ast.Slice or (kind is ast.Constant and (element.value is None or element.value is Ellipsis
                                                                or type(element.value) is int)):
                continue
            if not self.expr(element).plain:
                return None
        return base

    def forget_saves(self, since: int) -> None:
        """Undo the saves recorded since ``len(self.save_log) == since``."""
        for name, save in self.save_log[since:]:
            value = self.env.get(name)
            if value is not None and save in value.saved:
                self.env[name] = replace(value, saved=value.saved - {save})
        del self.save_log[since:]

    def backward(self, node: ast.Call, root_expr, root: Value, retain: bool, create: bool,
                 accumulates: bool = True, inner: ast.AST | None = None, asks: frozenset | None = None) -> None:
        site = Backward(node, self.written(root_expr) if root_expr is not None else "?", root, asks=asks,
                        retain_graph=retain or create, create_graph=create, function=self.function, inner=inner,
                        loop=self.loops[-1].node if self.loops else None, accumulates=accumulates,
                        reads=_index_names(root_expr),
                        containers=frozenset(n for n in root.carried if n in self.env and self.env[n].container),
                        states=frozenset(root.carried & self.state_names),
                        across_calls=frozenset(c[1:] for c in root.carried if c[0] == STATE_MARK)
                        if not self.summarizing else frozenset(),
                        fed=self.loops[-1].fed if self.loops and root.carried else frozenset())
        if self.loops:
            self.loops[-1].backwards.append(site)
        if self.record:
            self.facts.backwards.append(site)
            if self.events is not None:
                self.events.append(Event("backward", node, reads=frozenset(n for m, n in root.stale if m is ENTRY),
                                         retain=site.retain_graph, root=site.root))
        self.last_backward = site
        self.other_last = ()
        self.backward_seq = self.seq
        if type(root_expr) is ast.Name and inner is not None and self.lookup(root_expr.id).container:
            self.consumed.add(root_expr.id)  # (a helper handed the list backpropagates its losses)
        if type(root_expr) is ast.Name and not literal_true(
                next((k.value for k in node.keywords if k.arg == "retain_graph"), None)):
            for loop in self.loops:
                if type(loop.node) in FORS and root_expr.id in _target_names(loop.node.target):
                    source = loop.node.iter
                    if type(source) is ast.Call and type(source.func) is ast.Name and source.func.id in ("enumerate", "zip"):
                        self.consumed |= {a.id for a in source.args if type(a) is ast.Name}
                    elif type(source) is ast.Name:
                        self.consumed.add(source.id)
        # A backward of a loss computed before an optimizer step that updated parameters its
        # graph saved (the DDPG/GAN ordering: step the critic, then backward the actor's loss).
        root_name = dotted(root_expr) if root_expr is not None else None
        if root_name is None and type(root_expr) is ast.Subscript and _item_key(root_expr) is not None \
                and self.lookup(root_expr.value.id).fields is not None:
            # (`losses["g"]` of a dict whose keys hold their own trainables: born with the dict)
            root_name = self.written(root_expr)
        # (a step whose parameters this loss's graph does not reach stays pending for the next
        # backward: `qf1_opt.step()`, then `qf2_loss.backward()`, then the policy loss's backward
        # through both critics)
        later = []
        for entry in self.pending_steps:
            step, optimizer, step_seq, covers = entry
            if not self.record:
                continue
            if root_name is not None and self.born.get(root_name.split(".")[0].split("[")[0], 1 << 30) < step_seq:
                if "." in root_name and not root_name.startswith("self."):
                    continue  # `losses.qf1_loss`: a field of what a helper returned holds what all of them do
                stepped = self.stepped_roots(root, covers, step)
                if stepped and self.saves_parameters(root, stepped):
                    self.facts.steps.append(StepBetween(step, optimizer, node, root_name, self.function,
                                                        shared=tuple(sorted(str(s) for s in stepped))))
                elif covers and not stepped:
                    later.append(entry)
                continue
            # computed after the step, from tensors recorded before it (`g_loss = f(d_fake)`); a
            # step below the backward is the previous iteration's, and what it marked is
            # recomputed before this backward unless a loop ran zero times
            if step in self.kept_steps:
                # kept past a backward that did not reach it: only a loss recorded before it is
                # checked (what was recorded between has been differentiated once already)
                if covers and not self.stepped_roots(root, covers, step):
                    later.append(entry)
                continue
            names = {name for at, name in root.stale if at is step}
            if not names and covers and (step.lineno, step.col_offset) < (node.lineno, node.col_offset) \
                    and not self.stepped_roots(root, covers, step):
                later.append(entry)  # (`loss_b` recorded after `opt_a.step()`, reaching only critic b)
            if (step.lineno, step.col_offset) > (node.lineno, node.col_offset):
                # the previous iteration's step: only what the loop never rebinds (`fake`, made
                # before the generator's loop and backpropagated in each pass) still holds the
                # graph recorded before it
                loop = self.loops[-1] if self.loops else None
                if loop is None or not _within(step, loop.node):
                    continue
                if site.retain_graph:
                    # (a tensor: a model held in a name, `model = load(...)`, is no recorded output)
                    names = {name for name in names if name not in loop.assigned and name not in self.used_as_modules()
                             and self.lookup(name).tensor}
                else:
                    # (without retain_graph, the previous pass's backward freed what it reached of
                    # that graph; not a value that pass recorded before the step and carried to
                    # this one unread, `next_state` of an option-critic's `state = next_state`)
                    freed = once("backward-reads", loop.node, _backward_reads)
                    names = {name for name in names if name in loop.assigned and name not in freed
                             and name not in self.used_as_modules() and self.lookup(name).tensor}
            through = tuple(sorted(names))
            if through:
                shared = self.stepped_roots(root, covers, step) if covers else frozenset()
                self.facts.steps.append(StepBetween(step, optimizer, node, self.written(root_expr), self.function,
                                                    through=through, shared=tuple(sorted(str(s) for s in shared))))
        self.pending_steps = later
        self.kept_steps = self.kept_steps | {entry[0] for entry in later}
        if site.retain_graph:
            self.retained.append(site)
        else:
            self.retained = []
            # The graph's saved tensors are freed: edits after this point are harmless.
            for key, value in self.env.items():
                if value.saved or value.held:
                    self.env[key] = replace(value, saved=EMPTY, held=EMPTY)

    def handed_as_is(self, operand: Value) -> bool:
        """In a summary walk, a parameter cut as handed (`g = z.detach()`): whether that
        starves anything is what each call hands it."""
        # (a module's too: a critic's forward detaching the actions it is handed, then applying
        # its own layers, starves the actor; one applying nothing of its own after the cut is a
        # loss module's target, left out of its summary: ``summaries._read``)
        return self.summarizing and all(
            r.startswith("%") for r in operand.trainables | operand.post)

    def receiver_step(self, node: ast.Call, owner: str | None, j: tuple) -> None:
        """A step, inside the method ``node`` calls, of the receiver's own optimizer (``j``: as
        ``Summary.backprops_param`` records it): pending for the next backward, as a step
        written here would be."""
        own, step, members, handed_in = j
        name = owner + own[4:] if owner is not None else None
        if name is None or step is None or not self.record:
            return
        covers = self.facts.optimizers.get(self.key(name))
        if covers is None and handed_in:
            # (`self.trainer = Trainer(self.wm)`, the trainer's optimizer over the
            # model it was handed: `self.wm`, as this file built it)
            covers = self.handed_to_constructor(owner, handed_in) or None
        if covers is None and members:
            # (built by the receiver's class over its own members: `model.discriminator`)
            covers = frozenset(owner + m[4:] for m in members)
        self.note_step(covers, name)
        # (a step of another file's method is reported at this call)
        self.facts.call_sites.setdefault(step, node)
        self.pending_steps.append((step, name, self.seq, covers))
        self.mark_stale(step, covers)

    def note_step(self, covers, name: str | None = None) -> None:
        """An optimizer step after this function's last backward: what it updates is what that
        loss was computed to train (``Backward.stepped``)."""
        if self.last_backward is None:
            return
        for last in (self.last_backward, *self.other_last):
            if name is not None:
                last.stepped_names.add(name)
            last.open_step |= covers is None
            last.stepped = (last.stepped or frozenset()) | (covers or frozenset())
            if last.loop is not None and any(loop.node is last.loop for loop in self.loops) and covers:
                # (within the backward's own loop: the next iteration's backward comes after it)
                last.stepped_in_loop = last.stepped_in_loop | covers
                if name is not None:
                    last.stepped_in_loop_names = last.stepped_in_loop_names | {name}

    def a_parameter(self, expr) -> bool:
        """A name bound to a parameter itself (``x, y = self.x, self.y``), not computed."""
        value = self.expr(expr)
        return bool(value.trainables) and not value.computed and not value.container \
            and value.module is not None and value.module.qualname in PARAMETER

    def own_parameter(self, expr) -> bool:
        """``self.weight`` in a module's method, where ``__init__`` made it a leaf to train
        (``nn.Parameter(…)``): its ``.data`` or ``.detach()`` starves it."""
        name = dotted(expr)
        if name is None or self.cls is None or not self.cls.is_module or not name.startswith("self.") \
                or name.count(".") != 1:
            return False
        seen = self.cls.assigned.get(name)
        # (a trainable root that is no module: `nn.Parameter(…)`, `torch.zeros(…, requires_grad=True)`)
        return seen is not None and seen.trainables == frozenset({name}) and not seen.computed and not seen.cuts \
            and (seen.module is None or seen.module.qualname in PARAMETER)

    def rebound_storage(self, node: ast.Assign, target: ast.Attribute, value: Value) -> bool:
        """``layer.weight.data = w`` where ``w`` was computed with history from other trainables
        (a hypernetwork's prediction): the values go into the parameter and their history does
        not, so what computed them gets no gradient through the model that now holds them. The
        model carries that cut into whatever it computes. False where nothing is cut (an update
        of the parameter from itself, `p.data = p - lr * p.grad`; values without history)."""
        if self.nograd is not None or not value.computed:
            return False
        model = self.parameters_edited(target.value)
        models = [model] if model is not None else []
        name = dotted(target.value) if model is None else None
        while name is not None and "." in name:
            # (`denoiser.adaptive.weight`: each model that holds it, a member of a known class or
            # a model this function is handed, `denoiser.adaptive` and `denoiser`)
            name = name.rpartition(".")[0]
            held = self.lookup(name)
            if held.module is not None or (held.trainables and not (held.computed or held.tensor)):
                models.append(name)
        if not models:
            return False
        model = models[0]
        owner = self.lookup(model)
        upstream = (value.trainables | value.post) - owner.trainables
        if not upstream:
            return False
        cut = self.cut_of(node.value, node.value, replace(value, trainables=value.trainables & upstream,
                                                          post=value.post & upstream), STORAGE_REBOUND)
        if node.value not in self.facts.cuts:
            return False
        made = self.facts.cuts[node.value]
        made.into = self.facts.code(target.value)
        made.written = f"{self.facts.code(target)} = {made.tensor}"
        for name in models:
            held = self.lookup(name)
            self.env[name] = replace(held, cuts={**held.cuts, node.value: cut.cuts.get(node.value, EMPTY)})
        return True

    def handed_to_constructor(self, owner: str, handed_in: tuple) -> frozenset:
        """The coverage keys of what the construction of ``owner`` (`self.trainer = Trainer(self.wm,
        lr=…)`, in this class or this function) hands the constructor parameters ``handed_in``."""
        scope = self.cls.node if owner.startswith("self.") and self.cls is not None and self.cls.node is not None \
            else self.function.node
        found = set()
        for stmt in iter_nodes(scope):
            if type(stmt) is not ast.Assign or len(stmt.targets) != 1 or dotted(stmt.targets[0]) != owner \
                    or type(stmt.value) is not ast.Call:
                continue
            for arg in _handed_arguments(stmt.value, handed_in):
                name = dotted(arg)
                if name is not None:
                    found |= {name, self.key(name)}
        return frozenset(found)

    def handed_on(self, arg) -> frozenset:
        """``cam_net@train`` for a parameter of this module-level function handed on as it is
        (``apply_head(model, cam_net, …)``) whose callers this walk has not met yet (they are
        defined before it): what they hand it is resolved when the checks read the cut."""
        if type(arg) is not ast.Name or self.cls is not None or self.function.name == "<module>":
            return EMPTY
        node = self.function.node
        params = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
        return frozenset({f"{arg.id}@{self.function.name}"}) if arg.id in params else EMPTY

    def parameters_edited(self, expr) -> str | None:
        """The model whose parameters ``expr`` (`p`, `p.data`) iterates, as written, where an
        enclosing loop of this function binds `p` to each of `model.parameters()` (or the second
        of each of `model.named_parameters()`); None elsewhere."""
        if type(expr) is ast.Attribute and expr.attr == "data":
            expr = expr.value
        if type(expr) is not ast.Name:
            return None
        for loop in reversed(self.loops):
            stmt = loop.node
            if type(stmt) not in (ast.For, ast.AsyncFor) or type(stmt.iter) is not ast.Call \
                    or type(stmt.iter.func) is not ast.Attribute:
                continue
            target, how = stmt.target, stmt.iter.func.attr
            named = how == "named_parameters" and type(target) is ast.Tuple and len(target.elts) == 2 \
                and type(target.elts[1]) is ast.Name and target.elts[1].id == expr.id
            if named or (how == "parameters" and type(target) is ast.Name and target.id == expr.id):
                owner = dotted(stmt.iter.func.value)
                return owner if owner is not None and self.lookup(owner).trainables else None
        return None

    def comprehended_parameter(self, expr) -> bool:
        """``p`` of ``[p.data.flatten() for p in model.parameters()]``: a comprehension around it
        binds it to each parameter of a model (or the second of each of ``named_parameters()``)."""
        if type(expr) is not ast.Name:
            return False
        up = tree_parents(self.facts.module)
        node = up.get(expr)
        while node is not None and not isinstance(node, ast.stmt):
            if type(node) in (ast.ListComp, ast.GeneratorExp, ast.SetComp, ast.DictComp):
                for gen in node.generators:
                    it, target = gen.iter, gen.target
                    if type(it) is not ast.Call or type(it.func) is not ast.Attribute:
                        continue
                    if (it.func.attr == "parameters" and type(target) is ast.Name and target.id == expr.id) or (
                            it.func.attr == "named_parameters" and type(target) is ast.Tuple and len(target.elts) == 2
                            and type(target.elts[1]) is ast.Name and target.elts[1].id == expr.id):
                        return True
            node = up.get(node)
        return False

    def held_by_model(self, name: str) -> frozenset | None:
        """What an optimizer that a model holds as its own attribute updates (``self.actor.optimizer``,
        built in the actor's class over ``self.parameters()``, as such code does): that model.
        None where the owner is no known model."""
        owner = name.rpartition(".")[0]
        if not owner:
            return None
        value = self.lookup(owner)
        built = self.cls is not None and owner in self.cls.attrs and owner.count(".") == 1
        if value.module is None and not value.trainables and built:
            # (`self.actor = ActorNetwork(...)` in a trainer class: called as a model, `self.actor(s)`)
            return frozenset({self.key(owner)})
        if value.module is None or not value.module.parameters or value.trainables != frozenset({owner}):
            return None
        keys = {self.key(owner)}
        if value.module.qualname in self.classes:
            keys.add(f"{value.module.qualname}.*")
        return frozenset(keys)

    def mark_stale(self, step: ast.Call, covers: frozenset | None) -> None:
        """The tensors recorded so far whose graphs saved parameters ``step`` updates in place:
        what is computed from them later still leads back to the old values."""
        for name, value in list(self.env.items()):
            # (a list of losses recorded before it, `losses = [mse(head(emb), y) for head in heads]`,
            # holds their graphs too, where the backward before the step kept them:
            # `retain_graph=True`)
            if name in self.objects or (value.container and name in self.consumed):
                continue
            if (value.computed or value.container) and value.trainables:
                stepped = self.stepped_roots(value, covers)
                if stepped and self.saves_parameters(value, stepped):
                    self.env[name] = replace(value, stale=value.stale | {(step, name)})

    def stepped_roots(self, root: Value, covers: frozenset | None, step: ast.AST | None = None) -> frozenset:
        """The trainables of ``root``'s graph that the stepped optimizer updates; without knowing
        what it updates, those of a graph kept with retain_graph=True, else those the backward
        the step follows trained where ``root`` reaches through them into more (an optimizer
        handed in as an argument, stepped right after `loss_d.backward()`, applies that
        backward's gradients; `loss_g` through the discriminator into the generator then saved
        what it updated: the GAN and DDPG ordering). A first loss that reaches more than the
        second (the generator's, through the discriminator) says nothing of what its optimizer
        holds."""
        if covers is None:
            if self.retained:
                return root.trainables
            after = self.stepped_after.get(step)
            if after is None:
                return EMPTY
            trained, reached = self.facts.resolve(after.value.trainables), self.facts.resolve(root.trainables)
            if not (trained and trained < reached):
                return EMPTY
            return frozenset(name for name in root.trainables if self.facts.resolve({name}) & trained)
        found = set()
        # (`self.opt = SGD(list(encoder.parameters()) + …)` in `__init__`, which keeps `self.encoder =
        # encoder`: the constructor's argument is the member)
        handed = {f"self.{attr}" for attr, p in set_from_parameters(self.cls.init) if p in covers} \
            if self.cls is not None and self.cls.init is not None else set()
        for name in root.trainables:
            if name in handed:
                found.add(name)
                continue
            key = self.key(name)
            module = self.lookup(name).module
            parts = key.split(".")  # a class of the table heads the key (``Net.self.conv``)
            cls = parts[0] if any(".".join(parts[:i]) in self.classes for i in range(1, len(parts))) else None
            # (a name bound to one instance of a class, `value_net2`, is covered by name only:
            # another instance of its class, `value_net1`, is another set of parameters)
            # (a model this function is handed, `netG@train`, is what `netG.parameters()` names here)
            local = name == f"{name.split('@')[0]}@{getattr(self.function, 'name', '')}" and name.split("@")[0] in covers
            # (`model.trunk`, a member of the model whose parameters it was given whole: not of
            # `model` where it was given `model.price_head.parameters()`, which names both)
            member = "@" not in key and any(key.startswith(c + ".") and not any(o.startswith(c + ".") for o in covers)
                                            for c in covers if "*" not in c)
            # (`loss_adv` of `net(x)` whole, an optimizer over `net.block2` only: a member of the
            # model the graph went through, unless the loss names that model's members one by one,
            # `critic.head_b` of `va, vb = critic(s, a)`)
            whole = not any(t.startswith(name + ".") for t in root.trainables) and any(
                c.startswith(r + ".") for r in {key, *self.facts.resolve({name})} for c in covers)
            if key in covers or local or member or whole or (cls and f"{cls}.*" in covers) or (
                    module is not None and f"{module.qualname}.*" in covers
                    and ("@" in name or name.startswith("self"))) or (
                    self.facts.resolve({name}) & covers):  # `disc@train_step`, handed `disc` by main()
                found.add(name)
        return frozenset(found)

    def element_groups(self, call: ast.expr, trained: tuple, targets: int) -> list | None:
        """Which elements of a call's returned tuple (``Summary.trained_parts``, nested tuples
        flattened) each of ``targets`` names unpacking it gets, or None where they do not match."""
        if len(trained) == targets:
            return [[k] for k in range(targets)]
        shape = self.element_shape.get(call)
        if shape is None or len(shape) != targets or sum(shape) != len(trained):
            return None
        groups, start = [], 0
        for size in shape:
            groups.append(list(range(start, start + size)))
            start += size
        return groups

    def returned_element(self, call: ast.expr, value: Value, trained: tuple, k: int) -> Value:
        """The ``k``-th element of the tuple a call returns, from the whole call's ``value``."""
        # (`model.discriminator` of `model`: the member a named receiver's part passes through)
        element = replace(value, trainables=frozenset(
            t for t in trained[k] if t in value.trainables or t.rpartition(".")[0] in value.trainables))
        post = self.element_post.get(call)
        if post is not None and len(post) == len(trained):
            # (`loss_g, loss_d = losses(g, d, x)`, `loss_g` of `d(fake.detach())`: the
            # discriminator after the cut in that element)
            element = replace(element, post=element.post | post[k])
        held = self.element_cuts.get(call)
        if held is not None and len(held) == len(trained):
            # (`policy_loss, entropies = …` of `return loss, entropies.detach()`: the cut is the
            # second element's, not the first's)
            every = frozenset().union(*held)
            element = replace(element, cuts={c: beside for c, beside in element.cuts.items()
                                             if c in held[k] or c not in every})
        const = self.element_const.get(call)
        if const is not None and len(const) == len(trained) and const[k] and not element.trainables:
            # (`z, logdet = flow(x)` of `return out, torch.tensor(np.linalg.slogdet(…))`: the
            # element is the copy, a constant)
            copies = frozenset(c for c in element.cuts if getattr(self.facts.cuts.get(c), "kind", None) == REBUILD)
            element = replace(element, const=True, live=False, rebuilt=element.rebuilt | copies)
        held_items = self.element_container.get(call)
        if held_items is not None and len(held_items) == len(trained) and held_items[k]:
            element = replace(element, container=True, tensor=False, alias=None)  # (`yl, highs = dwt(x)`)
        pulls = self.element_pulled.get(call)
        if pulls is not None and len(pulls) == len(trained):
            every = frozenset().union(*pulls)
            element = replace(element, pulled=frozenset(n for n in element.pulled if n in pulls[k] or n not in every))
        return element

    def return_parts(self, expr) -> tuple:
        """``return logits, aux.detach()``: each element is its own output, used on its own by
        the caller. (expression, value) per element, nested tuples flattened."""
        if type(expr) not in (ast.Tuple, ast.List):
            return ()
        parts = []
        for element in expr.elts:
            element = _unstarred(element)
            inner = self.return_parts(element)
            parts.extend(inner or [(element, self.expr(element))])
        return tuple(parts)

    def touches(self, value: Value):
        """Whether a step of an optimizer updating ``covers`` edits parameters ``value``'s graph
        saved: asked later, by the replay of a sequence of calls (``sequence``)."""
        def touched(covers, step) -> bool:
            stepped = self.stepped_roots(value, covers, step)
            return bool(stepped) and self.saves_parameters(value, stepped)
        return touched

    def saves_parameters(self, root: Value, names) -> bool:
        """Whether the graph of ``root`` may have saved some of ``names`` for backward: a module
        (``nn.Linear`` saves its weight) or a leaf some recorded op saved."""
        for name in names - root.weightless:
            held = self.lookup(name)
            if held.tensor and not held.saved:
                continue
            built = [self.classes.get(held.module.qualname)] if held.module is not None else [
                self.classes.get(c) for c in _built_as(self.cls.node, name)] if self.cls is not None and self.cls.node else []
            if built and all(c is not None and c.node is not None and _returns_own_parameter(c.node) for c in built) \
                    and not once("saving_calls", self.facts.module, _saving_calls).get(name, True):
                # `self.log_alpha().exp()`: the module hands out its parameter itself, and every
                # op the file applies to it saves its result, not the parameter
                continue
            return True
        return False

    # ---- expressions ---------------------------------------------------------------------------

    def outside(self, name: str) -> Value:
        """What a name holds before this function binds it."""
        env, self.env = self.env, {}
        try:
            return self.lookup(name)
        finally:
            self.env = env

    def lookup(self, name: str) -> Value:
        if name in self.env:
            value = self.env[name]
            if value.fields is not None and self.items:
                # (what was stored or appended under a key since the display: `batch["r"] = …`)
                value = replace(value, fields=tuple((k, self.items.get((name, k), field)) for k, field in value.fields))
            return value
        head = name.split(".")[0]
        if head == "self" and self.cls is None and self.closure_cls is not None and "self" not in self.env:
            # `self.scale` in a hook defined in a method: the attribute of that method's object
            self.cls = self.closure_cls
            try:
                return self.lookup(name)
            finally:
                self.cls = None
        if head == "self" and name.count(".") == 1 and self.cls is not None:
            if name in self.cls.buffers:
                return BUFFER
            if name in self.cls.functions:
                return UNKNOWN  # (`self.act = F.softplus`: a function, called as one)
            if not self.cls.init_walked:
                self.walk_init(self.cls)
            seen = self.cls.assigned.get(name)
            if not self.cls.may_be_module and self.cls.attrs.get(name) is None:
                if name not in self.cls.filled and name not in once("fills", self.function.node, _filled):
                    self.walk_fillers(self.cls, name)  # (read by a method that does not fill it)
                    seen = self.cls.assigned.get(name)
                if seen is not None and seen.container and (seen.attached or seen.rows is not None):
                    return seen  # a buffer its methods fill (a rollout's rows), read in another
            if self.cls.attrs.get(name) is None:
                stored = self.stored_cut(name)
                if stored is not None:
                    return stored
            if seen is not None and seen.plain and self.cls.attrs.get(name) is None:
                return _plain_of(seen)  # a temperature, a size, a flag: set from numbers only
            if name in self.cls.literal_attrs and name not in self.cls.attrs:
                return CONST
            module = self.cls.attrs.get(name)
            if module is not None and module.items is None and seen is not None and seen.module is not None \
                    and seen.module.qualname == module.qualname and seen.module.items is not None:
                module = seen.module  # (`nn.ModuleList([Block(…), …])` of a class of another file)
            if module is None and seen is not None and seen.module is not None and self.plain_class(seen.module.qualname):
                # `self.env = env`, every constructor call handing an object of a plain class
                return Value(module=replace(seen.module, parameters=False))
            if module is None and name in self.cls.settings:
                return PLAIN  # `self.tau = tau`, read only by arithmetic: a number, not a parameter
            if module is None and seen is not None and seen.tensor and seen.const and not (seen.attached or seen.live):
                # `self.target = gram(extractor(style)).detach()`: a tensor attribute that is no
                # parameter (nothing registers it), computed without history
                return Value(tensor=True, const=True)
            if module is None and seen is not None and seen.container and (seen.tensor or seen.const) \
                    and seen.module is None and not (seen.trainables or seen.attached or seen.live):
                # `self.bindings = OrderedDict()` filled with buffers it allocated: nn.Module
                # registers no parameter kept in a plain dict or list
                return replace(seen, computed=False, alias=None)
            if module is None and not self.cls.may_be_module:
                if seen is not None and seen.module is not None and seen.module.parameters \
                        and not seen.computed and not self.plain_class(seen.module.qualname) \
                        and self.cls.node is not None and any(once("steps", n, _steps, self.imports) for n in self.class_nodes()):
                    # `self.model = model`, every constructor call handing it a network, in a
                    # class that steps an optimizer: a trainer's (a meta-learner's, an agent's)
                    # model, trained through its methods (an attack's or a probe's is not)
                    return Value(trainables=frozenset({name}), module=seen.module)
                if (seen is None or (seen.trainables and seen.module is None and not (
                        seen.computed or seen.tensor or seen.live))) and self.cls.node is not None \
                        and name in self.optimized_members():
                    # `RMSprop(self.acmodel.parameters())` in a class whose base set `self.acmodel`
                    # (torch-ac's algorithms), or `self.net = net` handed a model of unknown class
                    # beside `Adam(net.parameters())`: what the class's own optimizer updates is a model
                    return Value(trainables=frozenset({name}))
                if seen is not None and seen.tensor and not seen.container \
                        and (seen.live or seen.trainables == frozenset({name})) \
                        and self.cls.node is not None \
                        and name in self.optimized_members():
                    # `self.patch = torch.full(…, requires_grad=True)` beside `Adam([self.patch])`:
                    # a leaf the class trains itself (an adversarial patch, a learned prompt)
                    return Value(trainables=frozenset({name}), tensor=True)
                if seen is not None and seen.module is not None and seen.module.qualname in self.classes \
                        and seen.module.parameters and not (seen.computed or seen.attached or seen.live) \
                        and not self.plain_class(seen.module.qualname):
                    # `self.model = model` in an evaluator or a test loop that steps nothing: the
                    # network's methods run as their summaries say (a backward inside one, under
                    # the loop's no_grad), and nothing here trains it; unless every constructor
                    # call hands it a model an optimizer beside the call holds (an ODE solver, a
                    # loss object kept by a training loop): what the methods compute trains it
                    model = once("handed-trained-members", self.cls.node, members_handed_trained,
                                 self.facts.module, self.imports).get(name)
                    if model is not None:
                        return Value(trainables=frozenset({model}), module=seen.module)
                    return Value(module=seen.module)
                stored = self.stored_tensor(name)
                if stored is not None:
                    return stored
                return UNKNOWN  # a plain class's attributes: settings, data, not parameters
            if module is None and seen is None and (name[5:] in self.cls.methods or self.inherited_method(name[5:])):
                return UNKNOWN  # a method of its own, bound: its call computes, it holds no parameter
            if module is not None and not module.parameters:
                return Value(module=module)
            if module is None and seen is not None and seen.module is not None and not seen.module.parameters \
                    and not (seen.attached or seen.live):
                return Value(module=seen.module)  # a module of another file that holds no parameter
            if module is not None and seen is not None and not (seen.attached or seen.live) \
                    and self.plain_class(module.qualname):
                # `self.sampler = Sampler(weights)`: an object of a class of this file that is no
                # nn.Module, built from nothing trainable, registers no parameter with the module.
                return Value(module=replace(module, parameters=False))
            if module is None and seen is not None and seen.module is not None and seen.module.qualname in self.classes \
                    and not (seen.computed or seen.attached or seen.live):
                module = seen.module  # `self.encoder = encoder`, every constructor call handing one class's instance
            if module is None and self.cls.node is not None \
                    and name in once("rebound-by-arithmetic", self.cls.node, _rebound_by_arithmetic):
                # `self.running_mean = self.running_mean + m * (mean.data - self.running_mean)` in
                # a method: nn.Module refuses a computed tensor in a parameter's place, so what the
                # attribute holds is no parameter (a running statistic, state)
                return Value(tensor=True, computed=True)
            if module is None and self.cls.node is not None and name in once("records", self.cls.node, _records_set_later):
                return UNKNOWN  # `self.speaker_stats[k].mean`, set by a setup method: data, no parameter
            return Value(trainables=frozenset({name}), module=module)
        if head == "self" and name.count(".") == 1:
            return Value(trainables=frozenset({name}))
        if name in self.globals:
            value = self.globals[name]  # (a definition is compared by identity: kept as it is)
            return replace(value, saved=EMPTY) if value.saved else value
        if "." in name:
            parent, _, attr = name.rpartition(".")
            base = self.lookup(parent)
            owner = self.classes.get(base.module.qualname) if base.module is not None else None
            member = owner.attrs.get(f"self.{attr}") if owner is not None and owner.is_module else None
            if head == "self" and base.trainables == frozenset({parent}) and member is not None \
                    and member.parameters and not (base.computed or base.live):
                # `self.critic.q1`, a module the class of `self.critic` builds: named itself, so
                # that an optimizer over it alone (`Adam(self.critic.q1.parameters())`) is told
                # apart from one over its sibling
                return Value(trainables=frozenset({name}), module=member)
            return replace(base, saved=EMPTY, module=None, computed=base.computed, optimizer=False)
        return UNKNOWN

    def note_pull(self, node, source: Value) -> None:
        """``node`` takes values out of ``source`` (``.item()``, ``float(…)``, ``.numpy()``): what
        it had, and what a cut on its way had (``y.detach().numpy()``)."""
        self.facts.pulled_history[node] = source.trainables | source.post | source.inputs
        self.facts.pulled_cuts[node] = frozenset(source.cuts)
        self.facts.pulled_from[node] = self.facts.pulled_history[node] | frozenset(
            ).union(*(self.facts.cuts[c].upstream for c in source.cuts if c in self.facts.cuts))

    def module_method(self, fn) -> bool:
        """``fn`` is a method of one of this file's ``nn.Module`` classes."""
        owner = once("method-owners", self.facts.module, _method_owners).get(id(fn))
        info = self.classes.get(owner) if owner is not None else None
        return info is not None and info.is_module

    def inherited_method(self, name: str) -> bool:
        """A method a base class of this class defines (this file's or another project file's,
        whose own bases are read through that file's imports)."""
        todo, seen = [(base, self.imports) for base in self.cls.bases], set()
        while todo:
            base, imports = todo.pop()
            if not base or (base, id(imports)) in seen:
                continue
            seen.add((base, id(imports)))
            info = (self.classes.get(base) or self.classes.get(base.rpartition(".")[2])) if imports is self.imports else None
            if info is None:
                info, imports = self.project_class(base, imports)
            if info is None:
                continue
            if name in info.methods:
                return True
            todo.extend((b, imports) for b in info.bases)
        return False

    def project_class(self, qualname: str, imports) -> tuple:
        """(the class ``qualname`` of another file of the project, as that file's scan has it
        (whatever its base), that file's imports), or (None, None); ``imports``: those of the
        file that names it."""
        view = imports.project
        where = imports.target(qualname) if view is not None else None
        found = view.load(*where) if where is not None else None
        if found is None or len(found[1]) != 1:
            return None, None
        info = found[0].own_classes.get(found[1][0])
        if info is not None and info.nograd_region is not None:
            found[0].parsed.own([info.nograd_region])  # (a finding placed there is that file's)
        return info, found[0].imports

    def plain_class(self, qualname: str) -> bool:
        """A class of this file that is no ``nn.Module`` (nor may be one through a base class
        this file cannot see)."""
        cls = self.classes.get(qualname)
        return cls is not None and not cls.may_be_module

    def expr(self, node) -> Value:
        if node is None:
            return CONST
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        value = self._expr(node)
        if self.nograd is not None and value.computed and type(node) is not ast.Name \
                and not self.constructs_object(node):
            # (a name read in the region runs no op: what it holds keeps the history it was
            # computed with, in an `enable_grad` block of the region or before it; an object
            # built there, `trainer = Trainer(model)` under an imported switch, is no tensor)
            value = self.no_history(value, node)
        self.memo[key] = value
        return value

    def _expr(self, node) -> Value:
        if node is None:
            return CONST
        kind = type(node)
        if kind is ast.Name:
            value = self.lookup(node.id)
            kept = hook_stores(self.facts.module).get((None, node.id))
            return value if kept is None else value.join(self.kept_cut(kept))
        if kind is ast.Constant:  # numbers, strings, bytes, ``...``, True/False/None
            return PLAIN
        if kind is ast.JoinedStr:
            if not _concatenated(self.facts.lines, node):
                # (libcst read ``"a" f"{x}"`` as a concatenation of strings and looked no further)
                for part in node.values:
                    if type(part) is ast.FormattedValue:
                        self.expr(part.value)
            return PLAIN
        if kind is ast.Attribute:
            return self.attribute(node)
        if kind is ast.Call:
            return self.call(node)
        if kind is ast.BinOp:
            return self.binary(node)
        if kind is ast.UnaryOp:
            return self.expr(node.operand).result()
        if kind is ast.BoolOp:
            # ``a and b and c`` is joined as ``(a and b) and c``, each inner operation a value of
            # its own (under no_grad, one without history).
            value = self.expr(node.values[0])
            for i, operand in enumerate(node.values[1:], 2):
                value = value.join(self.expr(operand))
                if i < len(node.values) and self.nograd is not None and value.computed:
                    value = self.no_history(value)
            return value
        if kind is ast.Compare:
            values = [self.expr(node.left)] + [self.expr(c) for c in node.comparators]
            out = union(values)
            # A comparison is not differentiable: the result has no history, but had some to lose;
            # a cut above it loses nothing (`(confidence > threshold).float()` of detached scores).
            return replace(out, trainables=EMPTY, post=EMPTY, carried=EMPTY, stale=EMPTY, computed=True, const=True,
                           live=False, inputs=EMPTY, cuts={},
                           # (in a summary, what a parameter handed: `probs > threshold` of `%1`)
                           lost=out.lost or out.attached or out.live or _symbolic(out, self))
        if kind is ast.Subscript:
            if type(node.value) is ast.Attribute and node.value.attr == "data" \
                    and type(node.slice) is ast.Constant and type(node.slice.value) is str:
                # `g.nodes[i].data["v"]`: a graph's feature store read by key, no tensor's `.data`
                return self.expr(node.value.value)
            base = self.expr(node.value)
            index = node.slice
            for element in index.elts if type(index) is ast.Tuple else (index,):
                if type(element) is not ast.Slice:  # the bounds of a slice are not looked at
                    held = self.expr(element)
                    if type(element) in (ast.Name, ast.Attribute) and (base.attached or base.live) \
                            and base.tensor and not base.container \
                            and (held.tensor or held.computed) and not held.plain and not held.container:
                        # `normals[mask]` of a tensor with history saves the mask (or index tensor)
                        # for its backward: `mask[i] = …` later breaks that backward
                        self.mark_saved(element, Save.at(self.facts.code(node), node))
            item = self.items.get(_item_key(node)) if self.items else None
            if item is not None:
                return item
            if base.fields is not None and type(index) is ast.Constant:
                field = base.field(index.value)
                if field is not None and field is not NOTHING_YET:
                    # `batch["rewards"]` of `{"rewards": rewards, …}` (a list the display left
                    # empty, filled where this walk did not see, is read as the whole dict)
                    return field
            trained = self.element_trained.get(node.value) if type(node.value) is ast.Call else None
            if trained and not self.element_shape.get(node.value):
                # `losses(…)[0]`, `sum(losses(…)[:2])` of a helper returning a tuple: those
                # elements only, as unpacking it would give them
                picked = _picked(index, len(trained))
                if picked is not None:
                    leaves = [self.returned_element(node.value, base, trained, j) for j in picked]
                    return leaves[0] if type(index) is not ast.Slice else replace(
                        union(leaves) if leaves else CONST, computed=False, container=True, parts=tuple(leaves))
            if base.parts is not None or base.rows is not None:
                position = _position(index)
                if base.parts is not None and position is not None and -len(base.parts) <= position < len(base.parts):
                    return base.parts[position]  # `m[1]` of `(obs, log_prob, reward)`
                if base.rows is not None and type(index) is not ast.Slice:
                    return _row(base)  # `memory[-1]`: one of the rows
            # (a tensor indexed by a tensor is a copy: it shares nothing with its base)
            alias = _alias(node.value, base) if base.container or not self.copied_by(node) else None
            if base.module is not None and base.module.items is not None:
                return replace(base, module=base.module.items, saved=EMPTY, held=EMPTY, optimizer=False)
            if type(index) is ast.Constant and type(index.value) is str and index.value.isidentifier() \
                    and base.trainables and not (base.tensor or base.computed or base.container or base.live) \
                    and all("@" not in t and not t.startswith("%") for t in base.trainables):
                # `self.net["encoder"]` of a model (a ModuleDict): that member, not the whole model
                # beside `self.net["head"]`
                return replace(base, trainables=frozenset(f"{t}.{index.value}" for t in base.trainables),
                               module=None, saved=EMPTY, held=EMPTY, optimizer=False)
            if base.module is not None and base.module.qualname in PARAMETER_CONTAINERS:
                return replace(base, module=None, saved=EMPTY, held=EMPTY, optimizer=False)  # a parameter
            return replace(base, saved=base.held, held=EMPTY, optimizer=False, computed=base.computed,
                           alias=alias)
        if kind in (ast.Tuple, ast.List, ast.Set):
            if not node.elts:
                return NOTHING_YET
            elements = [self.expr(_unstarred(e)) for e in node.elts]
            positional = kind is not ast.Set and not any(type(e) is ast.Starred for e in node.elts)
            return replace(union(elements), computed=False, held=_held(elements), container=True,
                           parts=tuple(elements) if positional else None)
        if kind is ast.Dict:
            if not node.keys:
                return NOTHING_YET
            # (the keys, and the mappings a ``**m`` entry unpacks, are not looked at)
            values = [self.expr(v) for k, v in zip(node.keys, node.values) if k is not None]
            keyed = all(type(k) is ast.Constant and type(k.value) is str for k in node.keys)
            return replace(union(values), computed=False, held=_held(values), container=True,
                           fields=tuple((k.value, v) for k, v in zip(node.keys, values)) if keyed else None)
        if kind in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            return self.comprehension(node)
        if kind is ast.IfExp:
            self.expr(node.test)
            mode = self.mode_test(node.test)
            if mode is None:
                # (one arm runs: what `F.leaky_relu(h)` saves in one is no save that an in-place
                # Function of `h` in the other edits; after the expression, either may hold)
                marks = len(self.save_log)
                body = self.expr(node.body)
                body_saves = self.save_log[marks:]
                self.forget_saves(marks)
                orelse = self.expr(node.orelse)
                for name, save in body_saves:
                    held = self.env.get(name)
                    if held is not None:
                        self.env[name] = replace(held, saved=held.saved | {save})
                    self.save_log.append((name, save))
                out = body.join(orelse)
                default = self.setting_default(node.test)
                taken = None if default is None else body if default else orelse
                if taken is not None and taken.alias is not None:
                    # (`w.clone() if self.clone_table else w` of a model built with `clone_table`
                    # False by default: `w` itself, on the path its default construction takes)
                    out = replace(out, alias=taken.alias)
                return out
            # (`x if self.training else decode(x)`: what training computes is the training arm)
            return self.expr(node.body if mode else node.orelse)
        if kind is ast.NamedExpr:
            value = self.expr(node.value)
            self.bind(node.target, value, node)
            return value
        if kind is ast.Await:
            return self.expr(node.value)
        if kind is ast.Starred:
            return self.expr(node.value)
        return UNKNOWN

    def comprehension(self, node) -> Value:
        saved_env = dict(self.env)
        for comp in node.generators:
            iter_value = self.expr(comp.iter)
            self.bind_items(comp.target, comp.iter, iter_value, node)
            for cond in comp.ifs:
                self.expr(cond)
        if type(node) is ast.DictComp:
            # (a dict holds its values: its keys, names or numbers, are no tensor anyone trains)
            self.expr(node.key)
            value = element = self.expr(node.value)
        else:
            value = element = self.expr(node.elt)
        self.env = saved_env
        return replace(value, computed=False, saved=EMPTY, held=_held([element]), container=True)

    def attribute(self, node: ast.Attribute) -> Value:
        attr = node.attr
        if attr == "data" and self.packed(node.value):
            # `out.data` of a packed output: the field, with the history it holds
            return replace(self.expr(node.value), packed=False, container=False, tensor=True, computed=True,
                           saved=EMPTY, alias=None, parts=None, rows=None)
        if attr == "data":
            return self.cut(node, node.value, ".data")
        name = dotted(node)
        if self.from_plain_library(node):
            return PLAIN
        kept = self.hook_kept(node)
        if kept is not None:
            return kept
        if name is not None and name.count(".") == 1 and name.startswith("self.") and self.cls is not None \
                and attr in self.cls.properties and name not in self.cls.attrs \
                and type(node.ctx) is ast.Load and attr != getattr(self.function, "name", None):
            # `self.expand_embedding` of a `@property` returning `self.embedding`: what its body
            # returns, as a call of it would (a stand-in call, read only here)
            call = ast.copy_location(ast.Call(func=node, args=[], keywords=[]), node)
            call.end_lineno, call.end_col_offset = node.end_lineno, node.end_col_offset
            self.env.pop(name, None)  # (what an op marked on the name is no value the property holds)
            return self.call(call)
        if name is not None and (name in self.env or name.startswith("self.")) and not name.startswith("self.__"):
            if self.events is not None and name not in self.env and name.count(".") == 1 \
                    and attr in once("method-bound-attributes", self.cls.node, _method_bound_attributes):
                # (what an earlier call of the receiver's methods left there: ``sequence``)
                value = self.lookup(name)
                return replace(value, stale=value.stale | {(ENTRY, attr)})
            if name.count(".") == 1 or name in self.env:
                return self.lookup(name)
        if name is not None and name.count(".") == 1 and type(node.ctx) is ast.Load and node.value.id in self.env \
                and self.env[node.value.id].module is not None:
            stored = self.stored_on_instance(node.value.id, attr)
            if stored is not None:
                return stored
        base = self.expr(node.value)
        if name is not None and name.count(".") > 1 and type(node.ctx) is ast.Load and not name.startswith("self.") \
                and (member := self.member_module(name.rsplit(".", 1)[0])) is not None:
            # (`net.lif.recordings`: what the forward of a member's class stores on it)
            stored = self.stored_on_module(member, attr)
            if stored is not None:
                return stored
        if base.fields is not None and base.container and type(node.ctx) is ast.Load:
            # (`nets.predictor` of an attribute dict, `Munch(predictor=…)`: that entry; a plain
            # dict has no such attribute)
            field = base.field(attr)
            if field is not None and field is not NOTHING_YET and field.module is not None:
                return field
        if attr in METADATA:
            return PLAIN
        if base.plain:  # ``args.lr``: an attribute of a plain value is one
            return _plain_of(base)
        if attr == "grad":
            return Value(tensor=True, const=True)
        if attr == "T" or attr == "mT":
            return base.result()
        if name is not None and _submodule_parameter(name) \
                and base.module is not None and base.module.parameters and not base.plain:
            # `table = self.item_emb.weight`: the submodule's parameter itself, one tensor under two
            # names (what an op saves of `table`, a lookup's `max_norm` edits through the other)
            # (a tensor: `self.emb.weight.pow(2)` computes, it calls no method of a model)
            return replace(base, saved=EMPTY, module=None, optimizer=False, alias=name, tensor=True)
        if type(node.value) is ast.Name and type(node.ctx) is ast.Load:
            base = self.handed_member(f"{node.value.id}.{attr}", base)
        return replace(base, saved=EMPTY, module=None, optimizer=False)

    def handed_member(self, name: str, value: Value) -> Value:
        """``gan.gen`` of the model ``gan`` this function is handed, as ``value`` holds it whole:
        that member, ``gan.gen@train``, which the callers' names resolve to ``gan.gen`` (a step
        over ``gan.disc`` is no step of it)."""
        root, _, attr = name.partition(".")
        if self.cls is not None or "." in attr or name in self.env \
                or value.trainables != frozenset({f"{root}@{self.function.name}"}) \
                or value.computed or value.tensor or value.container:
            return value
        return replace(value, trainables=frozenset({f"{name}@{self.function.name}"}), module=None)

    def hook_kept(self, node: ast.Attribute) -> Value | None:
        """What a forward hook keeps cut in this attribute (`self.feats` that a hook fills with
        `output.detach()`), read on an object of the hook's class, of this file or of another
        file of the project (`self.hook_s.features` of a capture helper imported from hooks.py);
        None elsewhere."""
        receiver = node.value
        if type(receiver) is ast.Name and receiver.id == "self":
            stores = hook_stores(self.facts.module)
            owners = {self.cls.name} if stores and self.cls is not None else set()
        elif dotted(receiver) is not None:
            stores = hook_stores(self.facts.module)
            module = self.expr(receiver).module
            owners = {module.qualname, module.qualname.rsplit(".", 1)[-1]} if module is not None else set()
            elsewhere = self.imports.project.keys.get(module.qualname) \
                if module is not None and self.imports.project is not None else None
            if elsewhere is not None:
                other, cls = elsewhere
                stores, owners = hook_stores(other.tree), {cls}
                other.parsed.own(cut for owner in owners for cut, *_ in stores.get((owner, node.attr), ()))
                kept = [found for owner in owners for found in stores.get((owner, node.attr), ())]
                for cut, *_ in kept:
                    self.facts.call_sites.setdefault(cut, node)  # (reported at this read)
                return self.kept_cut(kept, other.tree) if kept else None
        else:
            return None
        kept = [found for owner in owners for found in stores.get((owner, node.attr), ())]
        return self.kept_cut(kept) if kept else None

    def kept_cut(self, kept, tree: ast.Module | None = None) -> Value:
        """The value hooks keep cut (``hook_stores``): each cut alone, in a container where one
        appends or stores by key. The cut is known here before (or without) a walk of its hook:
        of the hooked module's output, whatever computed it, and of the member of the object the
        hooked layer belongs to, where the object registers it on one of its own (``tree``: the
        file the hooks are in, if not this one)."""
        members = hooked_members(tree if tree is not None else self.facts.module)
        for cut, _, hook, output, owner in kept:
            if cut not in self.facts.cuts:
                kind = ".data" if type(cut) is ast.Attribute else ".detach()"
                member = {members[hook]} if hook in members else set()
                info = self.classes.get(owner) if member and tree is None else None
                if info is not None and info.node is not None:
                    # (`Extractor(backbone)` beside `Adam(backbone.parameters())`: the model
                    # every construction hands that member, which the optimizer trains)
                    handed = once("handed-trained-members", info.node, members_handed_trained,
                                  self.facts.module, self.imports).get(members[hook])
                    member |= {handed} if handed is not None else set()
                self.facts.cuts[cut] = Cut(cut, kind, output, upstream={f"{output}@input"} | member,
                                           function=Function(hook, hook.name, owner), keys={output} | member,
                                           hooked=True)
                receiver = cut.func.value if type(cut) is ast.Call else cut.value
                if not (type(receiver) is ast.Name and receiver.id == output):
                    # (`t.clone().detach()` of a lambda the hook maps over the output)
                    self.facts.cuts[cut].written = self.facts.code(cut)
        container = any(inside for _, inside, *_ in kept)
        return Value(cuts={cut: EMPTY for cut, *_ in kept}, tensor=not container, container=container,
                     computed=True, const=True)

    def note_attribute(self, name: str, value: Value) -> None:
        """What the methods walked so far leave in ``self.x`` (``cls.assigned``), joined: what the
        attribute holds in the other methods. What the walk of the file assigns replaces what a
        walk of __init__ alone learned before the calls that seed its parameters were seen."""
        if self.cls is None or not name.startswith("self.") or name.count(".") != 1 \
                or self.summarizing:
            return
        first = not getattr(self, "provisional", False) and name not in self.cls.walked
        seen = None if first else self.cls.assigned.get(name)
        self.cls.assigned[name] = value if seen is None else seen.join(value)
        if first:
            self.cls.walked.add(name)

    def walk_fillers(self, cls: ClassInfo, name: str) -> None:
        """Learn what the other methods of a plain class append to its buffer ``name``
        (``self.memory.append((obs, log_prob, reward))`` in ``rollout``) before a method that
        reads it is walked: the file's methods are walked last to first, so the reader comes
        first. A silent walk of each method that fills it, recording no fact but the buffer."""
        cls.filled.add(name)
        if cls.node is None:
            return
        for stmt in cls.node.body:
            if type(stmt) in FUNCTIONS and name in once("fills", stmt, _filled):
                self.silent_walker(stmt, cls).function_body(stmt)

    def stored_on_instance(self, owner: str, attr: str) -> Value | None:
        """`model.embeddings` after `out = model(x)`, where the forward of the model's class (of
        this file) stores a cut there (`self.embeddings = h.detach()`, kept for plots): that cut,
        read by the caller."""
        return self.stored_on_module(self.env[owner].module, attr)

    def member_module(self, name: str):
        """The module ``net.lif`` holds: the member of the class of ``net`` (a model of this file's
        class) that its constructor builds, through each dotted step; None where one is unknown."""
        head, *path = name.split(".")
        held = self.env.get(head)
        module = held.module if held is not None else None
        for part in path:
            info = dict.get(self.classes, module.qualname) if module is not None else None
            module = info.attrs.get(f"self.{part}") if info is not None else None
        return module

    def stored_on_module(self, module, attr: str) -> Value | None:
        """What the forward of ``module``'s class (of this file) stores cut in ``self.<attr>``."""
        info = dict.get(self.classes, module.qualname)
        if info is None or info.node is None or info.attrs.get(f"self.{attr}") is not None or f"self.{attr}" in info.buffers:
            return None
        saved_cls, self.cls = self.cls, info
        try:
            return self.stored_cut(f"self.{attr}")
        finally:
            self.cls = saved_cls

    def stored_cut(self, name: str) -> Value | None:
        """What another method of the class stores in ``self.x`` cut from the record (`self.old_logits
        = logits.detach()` in ``rollout``), read in this one: the methods are walked last to
        first, so a silent walk of each method storing a cut there comes first (once per
        attribute). None where no method stores a cut value there."""
        cls = self.cls
        if name not in cls.stored and not self.summarizing:
            cls.stored.add(name)
            if cls.node is not None:
                walked = cls.__dict__.setdefault("walked_storing", set())
                for stmt in cls.node.body:
                    if type(stmt) in FUNCTIONS and stmt.name != "__init__" and stmt is not self.function.node \
                            and name in once("stores_cut", stmt, _stores_cut) and stmt not in walked:
                        # (once per method: its silent walk sets every attribute it binds)
                        walked.add(stmt)
                        self.silent_walker(stmt, cls).function_body(stmt)
        seen = cls.assigned.get(name)
        if seen is None or seen.attached or seen.module is not None:
            return None
        # (a constant `__init__` computes and detaches once, a template or a target, is data)
        cuts = {c: v for c, v in seen.cuts.items() if cls.init is None or not _within(c, cls.init)}
        nograd = frozenset(r for r in seen.nograd if cls.init is None or not _within(r, cls.init))
        # (or a copy of values taken out of the record: `self.log_probs` of a distribution built
        # from `torch.FloatTensor(mu)`, `mu` a NumPy array)
        rebuilt = frozenset(r for r in seen.rebuilt if cls.init is None or not _within(r, cls.init))
        if not (cuts or nograd or rebuilt):
            return None
        return replace(seen, saved=EMPTY, cuts=cuts, nograd=nograd, rebuilt=rebuilt)

    def stored_tensor(self, name: str) -> Value | None:
        """What the other methods of a plain class (a trainer, an agent) store in ``self.x`` with
        history (`self.fake = self.netg(self.input)` in ``forward_g``), read in this one
        (``backward_g``): each method binding it walked silently first, once; None where none
        stores a tensor computed with history, or a cut of one, there."""
        cls = self.cls
        if cls.node is None or name[5:] not in once("method-bound-attributes", cls.node, _method_bound_attributes):
            return None
        walked = cls.__dict__.setdefault("walked_storing", set())
        for stmt in cls.node.body:
            if type(stmt) in FUNCTIONS and stmt.name != "__init__" and stmt is not self.function.node \
                    and stmt not in walked and name in once("binds-attributes", stmt, _bound_attributes):
                walked.add(stmt)
                self.silent_walker(stmt, cls).function_body(stmt)
        seen = cls.assigned.get(name)
        # (known to be a tensor: what a method of an object returns, `self._network.copy()`, may
        # be a model)
        if seen is None or seen.container or seen.module is not None or seen.plain or not seen.computed \
                or not seen.tensor or not (seen.attached or seen.cuts):
            return None
        # (history of the object's own members, `self.netg`: not of what a method was handed,
        # data a transform is given as easily as activations)
        own = seen.trainables | seen.post | EMPTY.union(*(
            self.facts.cuts[c].upstream for c in seen.cuts if c in self.facts.cuts))
        if not own or not all(t.startswith("self.") for t in own):
            return None
        return replace(seen, saved=EMPTY, alias=None)

    def class_nodes(self) -> list:
        """The class's definition and those of its bases in this file, which its methods run as
        their own where it does not define them."""
        nodes = [self.cls.node] if self.cls.node is not None else []
        for b in self.cls.bases:
            base = self.classes.get(b) if b else None
            if base is not None and base.node is not None and base.node not in nodes:
                nodes.append(base.node)
        return nodes

    def optimized_members(self) -> set:
        """The members an optimizer of the class (or of a base of this file) is given."""
        return set().union(*(once("optimized-members", n, _optimized_members, self.imports) for n in self.class_nodes()))

    def walk_init(self, cls: ClassInfo) -> None:
        """Learn what ``cls.__init__`` assigns its attributes (``cls.assigned``) before a method
        that reads them is walked or summarized: a silent walk, recording no fact."""
        cls.init_walked = True
        # (a plain class's `__init__` inherited from a base of this file, or run by its own through
        # `super().__init__(…)`: the attributes the base sets are the subclass's too)
        base = next((self.classes.get(b) for b in cls.bases if b and not cls.may_be_module
                     and self.classes.get(b) is not None and self.classes.get(b).init is not None
                     and not getattr(self.classes.get(b), "foreign", False)), None)
        if base is not None and (cls.init is None or _calls_super_init(cls.init)):
            walker = self.silent_walker(base.init, cls)
            walker.provisional = True
            walker.function_body(base.init)
        if cls.init is None:
            return
        walker = self.silent_walker(cls.init, cls)
        walker.provisional = True
        walker.function_body(cls.init)
        # (and the helpers only the constructor calls, `self._init_regularisers()`: what they
        # assign is set when the object is built)
        for helper in _init_only_helpers(cls):
            walker = self.silent_walker(helper, cls)
            walker.provisional = True
            walker.function_body(helper)

    def silent_walker(self, method, cls: ClassInfo) -> "Walker":
        """A walker of ``cls``'s ``method`` that records no fact of the file (what it learns of
        the class's attributes it keeps on ``cls``)."""
        scratch = ModuleFacts(module=self.facts.module, imports=self.imports)
        scratch.lines = self.facts.lines
        scratch.forward_plain = self.facts.forward_plain
        scratch.init_instances = self.facts.init_instances
        walker = Walker(scratch, self.classes, self.functions, self.globals,
                        Function(method, method.name, cls.name), cls=cls)
        walker.record = False
        return walker

    def note_forward_arguments(self, qualname: str, node: ast.Call, positional) -> None:
        """What this call of a module of this file's class ``qualname`` hands its ``forward``,
        argument by argument: whether every call site seen so far passes a plain value
        (``selector(x, temperature)`` with ``temperature = 2.0``)."""
        given = [(i, self.expr(p)) for i, p in enumerate(positional)]
        given += [(k.arg, self.expr(k.value)) for k in node.keywords if k.arg is not None]
        plain, still = self.facts.forward_plain, self.facts.forward_still
        if qualname.endswith(".__init__"):
            exprs = [*positional, *(k.value for k in node.keywords if k.arg is not None)]
            for (key, value), expr in zip(given, exprs):
                instance = self.instance_of(expr, value) or value.module or module_info(expr, self.imports, self.classes)
                self.facts.init_instances.setdefault((qualname, key), set()).add(instance)
                # `ContentLoss(feats)` with `feats` frozen: the loss's feature extractor trains nothing
                frozen = self.facts.init_frozen
                frozen[(qualname, key)] = frozen.get((qualname, key), True) and dotted(expr) in self.facts.frozen
        exprs = [*positional, *(k.value for k in node.keywords if k.arg is not None)]
        for (key, value), expr in zip(given, exprs):
            plain[(qualname, key)] = plain.get((qualname, key), True) and value.plain
            still[(qualname, key)] = still.get((qualname, key), True) and not (value.attached or value.live)
            if value.module is not None:
                self.facts.forward_models.add((qualname, key))
            if self.probe_leaf(expr):
                self.facts.forward_probed.setdefault((qualname, key), set()).add(self.function.node)
            if value.saved and self.nograd is None:
                self.facts.forward_saved.setdefault((qualname, key), set()).update(value.saved)
            if value.trainables and value.attached and self.nograd is None and self.record:
                self.facts.forward_attached.setdefault((qualname, key), node)

    def probe_leaf(self, expr) -> bool:
        """``expr`` names a leaf this function made to require grad and whose ``.grad`` it reads,
        which no optimizer holds: a probe of what the call differentiates."""
        if type(expr) is not ast.Name or expr.id not in self.facts.leaves or expr.id in self.facts.optimized \
                or self.key(expr.id) in self.facts.optimized:
            return False
        return expr.id in once("grad-reads", self.function.node, _grad_reads)

    def used_as_tensor(self, name: str) -> bool:
        """The function hands ``name`` (or a part of it) to one of torch's functions, or reads
        what only a tensor has (``.data``, ``.detach()``, ``.unsqueeze(…)``): no NumPy array, which
        takes the same indexing and arithmetic."""
        def named(expr) -> bool:
            while type(expr) in (ast.Subscript, ast.Attribute, ast.Starred):
                expr = expr.value
            return type(expr) is ast.Name and expr.id == name
        for n in iter_nodes(self.function.node):
            if type(n) is ast.Attribute and n.attr in TENSOR_ONLY and named(n.value):
                return True
            if type(n) is ast.Call and (self.imports.qualname(n.func) or "").startswith("torch.") and any(
                    named(a) or (type(a) in (ast.List, ast.Tuple) and any(named(e) for e in a.elts))
                    for a in [*n.args, *(k.value for k in n.keywords)]):
                return True
        return False

    def on_by_default(self, flag) -> bool:
        """``True``, or a setting that is True unless a caller says otherwise: a parameter of this
        function defaulting to True that the body never rebinds (`def fit(self, codes,
        retain=True)`), an attribute `__init__` sets so (``self.retain``)."""
        if literal_true(flag):
            return True
        if self.cls is not None and dotted(flag) in self.cls.true_attrs:
            return True
        fn = self.function.node
        if type(flag) is not ast.Name or type(fn) not in FUNCTIONS:
            return False
        args = fn.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults))
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        return flag.id in defaults and literal_true(defaults[flag.id]) and not any(
            type(n) is ast.Name and n.id == flag.id and type(n.ctx) is ast.Store for n in iter_nodes(fn))

    def note_pulled_argument(self, key: str, value: Value) -> None:
        """What a call hands parameter ``key`` of pulled values, key by key where it is a dict."""
        self.facts.pulled_arguments.setdefault(key, set()).update(value.pulled)
        fields = tuple((k, frozenset(v.pulled)) for k, v in value.fields) \
            if value.fields is not None and all(v is not NOTHING_YET for _, v in value.fields) else None
        known = self.facts.pulled_fields.get(key, fields)
        if known is None or fields is None or [k for k, _ in known] != [k for k, _ in fields]:
            self.facts.pulled_fields[key] = None
        else:
            self.facts.pulled_fields[key] = tuple((k, a | b) for (k, a), (_, b) in zip(known, fields))

    def note_method_arguments(self, node: ast.Call, summary, qualname: str, values) -> None:
        """What this call hands a method of this file's class (``flow.fit(codes)``), keyed
        ``param@Class.method``: an argument with history may require grad in there, as a
        module-level function's does (``live_arguments``)."""
        params = summary.params[1:]
        owner = dotted(node.func.value) if type(node.func) is ast.Attribute else None
        for i, (arg, value) in enumerate(zip(_argument_nodes(node), values)):
            if type(arg) is ast.Starred or (type(arg) is ast.keyword and arg.arg is None):
                return  # (the places of what follows are unknown)
            param = arg.arg if type(arg) is ast.keyword else (params[i] if i < len(params) else None)
            # (the forward's own input handed to a helper of it, `self.features(pos)`, is one too)
            if param is not None and (value.attached or value.live) and (value.tensor or value.inputs) \
                    and value.module is None and not value.container:
                self.facts.live_arguments.add(f"{param}@{qualname}")
            if param is not None and value.pulled and not value.rebuilt:
                # `learner.learn(rollout(net))`, the episode holding `.item()` numbers: a tensor
                # rebuilt from them in there is where the history was lost
                self.note_pulled_argument(f"{param}@{qualname}", value)
            if param is not None:
                # `fake = gan.d_steps(…)` then `gan.g_steps(fake)`: inside, `fake` was computed by
                # the receiver's own `self.netG`, whose step the method may take
                key = f"{param}@{qualname}"
                members = _as_members(value, owner) if value.tensor and value.module is None else None
                known = self.facts.member_arguments.get(key, EMPTY)
                self.facts.member_arguments[key] = None if known is None or members is None else known | members

    def is_module_object(self, expr, value: Value) -> bool:
        """``expr`` holds an ``nn.Module`` (built from a module class, an attribute of one, the
        module itself), not a tensor."""
        name = dotted(expr)
        if value.module is not None:
            return True
        if name == "self":
            return self.cls is not None and self.cls.is_module
        return name is not None and bool(value.trainables) and not value.computed and not value.tensor \
            and name.split(".")[0] in ("self",) + tuple(value.trainables)

    def from_plain_library(self, expr) -> bool:
        """``expr`` names something of a library that makes no tensor (``np.mean``, ``sympy.S``),
        by its import, not by a local name that happens to be spelled the same."""
        name = dotted(expr)
        if name is None:
            return False
        head = name.split(".")[0]
        return head in self.imports.names and head not in self.env and \
            self.imports.names[head].split(".")[0] in PLAIN_LIBRARIES

    def bound_to_plain_library(self, member: str) -> bool:
        """The class's ``__init__`` binds ``member`` only to what a plain library's call makes
        (``self.colormap = plt.get_cmap(name)``): a callable that holds no parameters."""
        init = self.cls.init if self.cls is not None else None
        values = [n.value for n in iter_nodes(init, into_functions=False) if type(n) is ast.Assign
                  and any(dotted(t) == member for t in n.targets)] if init is not None else []
        return bool(values) and all(type(v) is ast.Call and self.from_plain_library(v.func) for v in values)

    def cut(self, node, operand_expr, kind: str) -> Value:
        marks = len(self.save_log)
        operand = self.expr(operand_expr)
        if type(operand_expr) is ast.Name and _guarded_without_history(node, operand_expr.id, tree_parents(self.facts.module)):
            # `if not term.requires_grad: term = term.detach().requires_grad_(True)`: the copy is
            # made only where there is no history to cut
            return operand
        if type(operand_expr) is ast.Call and not any(
                type(n) is ast.Call and type(n.func) is ast.Attribute and saves.is_inplace_method(n.func.attr)
                for n in ast.walk(operand_expr)):
            # `torch.clamp(ratio, 1 / r_max, r_max).data`: the ops computing an unnamed operand
            # are reached by no backward once it is cut, so what they saved is never checked (an
            # in-place op in it, `h.mul_(w).detach()`, records on `h`, which lives on)
            self.forget_saves(marks)
        return self.cut_of(node, operand_expr, operand, kind)

    def map_detach(self, node: ast.Call, operand_expr, operand: Value) -> Value:
        """``map(torch.detach, (q, k, v))``: each item cut, as ``.detach()`` on each would; the
        items of a tuple written out keep their places (``q, k, v = map(…)``)."""
        parts = operand.parts
        computed = operand.computed or (parts is not None and any(p.computed for p in parts))
        whole = self.cut_of(node, operand_expr, replace(operand, computed=computed), ".detach()")
        if node in self.facts.cuts:
            self.facts.cuts[node].written = self.written(node)
        if parts is not None and node in self.facts.cuts:
            # (as for `.detach()`: the cuts inside an item starve nothing this one does not)
            parts = tuple(Value(cuts={node: EMPTY} if p.trainables or p.post else p.cuts,
                                nograd=p.nograd, pulled=p.pulled, rebuilt=p.rebuilt, tensor=True,
                                computed=True, const=True) for p in parts)
        return replace(whole, container=True, parts=parts)

    def cut_of(self, node, operand_expr, operand: Value, kind: str) -> Value:
        """``cut`` of an operand whose value is known (``operand``, of ``operand_expr``)."""
        input_name = dotted(operand_expr) if operand.live and not (operand.trainables or operand.post) else None
        if input_name is not None and "." not in input_name and self.bound_by_for(input_name):
            # (`l` of `for i, l in enumerate(losses)`: an element, no input of the forward; but
            # `table` of `for table in tables` is an item of the parameter `tables`, what callers hand)
            input_name = self.iterated_parameter(input_name)
        elif input_name is not None and "." not in input_name:
            # (`sum(w.data.abs().sum() for w in weights)`: an item of the parameter `weights`)
            input_name = self.iterated_parameter(input_name) or input_name
        if self.nograd is None and operand.live and not (operand.trainables or operand.post) and (
                operand.inputs or (input_name is not None and "." not in input_name)):
            # `pred = pred.data` in a loss's forward: what computed `pred` is the caller's model,
            # through the forward's inputs it was computed from (`z0`, `z1` for a `pos` made of
            # them; `torch.sigmoid(logits).detach()`).
            named = operand.inputs or frozenset({f"{input_name}@input"})
            computed_input = input_name is None or "." in input_name
            operand = replace(operand, trainables=named, computed=True)
        else:
            computed_input = False
        if self.nograd is None and (operand.trainables or operand.post) and (
                operand.computed or self.own_parameter(operand_expr) or self.handed_as_is(operand)
                or (_a_parameter(operand) and dotted(operand_expr) not in operand.trainables)
                or self.comprehended_parameter(operand_expr)):
            cut = self.facts.cuts.get(node)
            if cut is None:
                cut = self.facts.cuts[node] = Cut(node, kind, self.written(operand_expr), function=self.function,
                                                  loop=self.loops[-1].node if self.loops else None)
            self.add_upstream(cut, operand.trainables | operand.post)
            cut.inputs |= operand.inputs
            # (state an inner loop carried and finished with, `log_probs` filled over an episode,
            # is not carried by the loops around this cut)
            state = operand.carried & frozenset().union(*(loop.grown for loop in self.loops))
            cut.carried |= bool(state)
            # (a truncation cuts the state, or what the state's own layers made of it; a layer
            # this iteration applies to the state first, `self.attn(h).detach()`, is no part of
            # it: that layer's only path is cut, not an earlier iteration's)
            held = frozenset().union(*(self.lookup(n).trainables | self.lookup(n).post for n in state))
            layer = dotted(operand_expr.func) if type(operand_expr) is ast.Call else None
            cut.truncates |= bool(state) and not (layer is not None and layer in operand.trainables - held)
            cut.of_computed_input |= computed_input
            cut.of_leaf |= not operand.computed
            cut.of_module_input |= not operand.computed and self.cls is not None and self.cls.may_be_module \
                and _symbolic(replace(operand, trainables=operand.trainables | operand.post), self)
            cut.hooked |= bool(operand.inputs) and operand.inputs <= self.hooked
            cuts = {node: EMPTY}  # (the cuts inside it starve nothing this one does not)
        elif kind == ".detach()":
            # (`x = (x - lr * g).detach().requires_grad_()` of `g` taken without create_graph, a
            # Langevin or attack step: the detach says no graph through the gradient was wanted)
            cuts = {c: kept for c, kept in operand.cuts.items()
                    if getattr(self.facts.cuts.get(c), "kind", None) != UNRECORDED_GRAD}
        else:
            cuts = operand.cuts
        return Value(cuts=cuts, nograd=operand.nograd, pulled=operand.pulled, rebuilt=operand.rebuilt,
                     tensor=True, computed=True, const=True, alias=_alias(operand_expr, operand),
                     unversioned=kind == ".data" or (operand.unversioned and operand.alias is not None))

    def binary(self, node: ast.BinOp) -> Value:
        left, right = self.expr(node.left), self.expr(node.right)
        if type(node.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
            left = self.number_in_tensor_op(node.left, left, right)
            right = self.number_in_tensor_op(node.right, right, left)
            if self.summarizing:
                # (`nll * n + kl_weight * kl`: what a caller hands `kl` enters a tensor op as a
                # number, ``Summary.numbers_in_ops``)
                for expr, other in ((node.left, right), (node.right, left)):
                    if other.tensor and not other.container and _numbers_only(expr):
                        self.number_operands |= {n.id for n in ast.walk(expr) if type(n) is ast.Name}
        if (type(node.op) is ast.Mult and ((left.container and right.plain) or (right.container and left.plain))) \
                or (type(node.op) is ast.Add and left.container and right.container):
            # `[torch.empty(0)] * T`, `[h0] + states`: a list of what the lists hold, no tensor
            held = left | right if left.container and right.container else left if left.container else right
            return replace(held, container=True, parts=None, rows=None, saved=EMPTY, alias=None)
        out = left | right
        if type(node.op) is ast.FloorDiv:
            # (rounded down: zero derivative wherever it has one; `half_dim = dim // 2` is a
            # size, whatever `dim` is)
            return replace(out, trainables=EMPTY, post=EMPTY, cuts={}, inputs=EMPTY, live=False, dead=EMPTY,
                           lost=out.lost or out.attached, const=True, saved=EMPTY)
        if type(node.op) in (ast.Add, ast.Sub) and out.cuts:
            out = joined(out, (left, right), self.facts.switched_off)
        out = self.beside_itself(node, out, left, right)
        if type(node.op) in (ast.Mult, ast.Div) and out.cuts:
            # `0.1 * (l1 + dead)`, `(l1 + dead) / 4`: a sum scaled by a number keeps its terms, each
            # with what it had beside it (the number is no companion of a cut; `4 / (l1 + dead)` is
            # no scaling: the dead value weighs the other term's gradient there)
            for number, other in ((left, right), (right, left)):
                if number.plain and not (number.cuts or number.attached or number.live) and other.cuts \
                        and (type(node.op) is ast.Mult or number is right):
                    out = replace(out, cuts=dict(other.cuts), dead=other.dead)
                    break
        if type(node.op) in SCALING and out.cuts and (left.inputs or right.inputs):
            out = scaled(out, (left, right))
        if type(node.op) in (ast.Mult, ast.Div) and self.record:
            # (a cut value weighing an attached operand, an advantage or an importance weight: a
            # coefficient, not a target the other side is pulled to)
            for weight, other in ((left, right), (right, left)):
                if weight.cuts and (other.attached or other.live) and not other.plain:
                    self.facts.weighing |= set(weight.cuts)
        if type(node.op) in SCALING and out.dead:
            # (a term of constants that weighs another, `log_prob * (rewards - rewards.mean())`,
            # is at work there: no dead term)
            working = {entry for entry in out.dead if (dead_cut(entry) in left.cuts and not right.const)
                       or (dead_cut(entry) in right.cuts and not left.const)}
            out = replace(out, dead=out.dead - working)
        elif type(node.op) is ast.Pow and (left.inputs or left.trainables):
            out = self.mix(out, (left,))
        out = replace(out, tensor=left.tensor or right.tensor)
        if type(node.op) in OPERATORS and (left.tensor or right.tensor or left.live or right.live) \
                and not (left.const and right.const):
            qual, symbol = OPERATORS[type(node.op)]
            operands = [node.left, node.right]
            values = [left, right]
            out = self.apply_saves(qual, symbol, node, operands, values, out)
        return out

    def number_in_tensor_op(self, expr, value: Value, other: Value) -> Value:
        """``loss + aux.item()``: a number pulled out of a tensor with history, combined with a
        tensor, enters the op as a constant tensor: a copy of its value, as
        ``torch.tensor(aux.item())`` would be (a Rebuild at the pull, ``IMPLICIT``), whose
        history is cut there."""
        if not value.pulled or not (other.tensor or other.attached or other.live):
            return value
        if value.tensor and not (value.const and self.function is not None and not (
                value.attached or value.live or value.trainables or value.container) and all(
                type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in ("numpy", "tolist")
                for n in value.pulled) and _array_reduction(
                expr, self.function.node, self.imports, set(self.functions))):
            # (an array pulled with `.numpy()` and reduced by its own methods, `w.data.numpy().std()`,
            # is a number here, as NumPy's functions of it are)
            return value
        # (a method's number, `lam * model.weight_penalty()` returning `w.norm().item()`: a number
        # by what its summary says it returns, pulled in this file)
        returned = not (value.attached or value.live or value.trainables or value.container) and all(
            self.facts.pulled_history.get(n) for n in value.pulled)
        if not _numbers_only(expr) and not returned:
            return value
        # (written in the expression, or bound to a name before it: `v = terms[k].item()`, `w * v`)
        pulls = [n for n in _number_terms(expr) if self.facts.pulled_history.get(n)] or [
            n for n in _bound_pulls(expr, self.function.node if self.function is not None else None)
            if n in value.pulled and self.facts.pulled_history.get(n)] or (
            sorted(value.pulled, key=lambda n: (n.lineno, n.col_offset)) if returned and (
                not _numbers_only(expr) or not any(self.function is not None and _within(n, self.function.node)
                                                   for n in value.pulled)) else [])
        if not pulls and not (value.container or value.inputs or value.trainables or value.attached or value.live) \
                and not _number_terms(expr) and self.function is not None \
                and _bound_to_numbers(expr, self.function.node, self.imports, set(self.functions)) and any(
                type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in ("numpy", "tolist")
                and any(not r.endswith("@input") for r in self.facts.pulled_from.get(n, ())) for n in value.pulled):
            # `criterion(pred, y) + average_wsd`, a number computed in NumPy from
            # `pred.detach().numpy()`: a copy of its value, placed where it joins the tensor (a
            # stand-in call of the expression: the Rebuild fact is a call's). (`.numpy()` needs
            # the `.detach()` before it, the pull's spelling; `.detach().item()` keeps its cut.)
            join = ast.copy_location(ast.Call(func=expr, args=[], keywords=[]), expr)
            join.end_lineno, join.end_col_offset = expr.end_lineno, expr.end_col_offset
            self.facts.pulled_history.setdefault(join, frozenset())
            for pull in value.pulled:
                self.facts.pulled_from[join] = self.facts.pulled_from.get(join, frozenset()) | self.facts.pulled_from.get(pull, frozenset())
            return self.rebuild(join, IMPLICIT, [expr], {})
        if not pulls:
            return value
        # (placed at the pull, `aux.item()`, whatever arithmetic of numbers is around it)
        return self.rebuild(pulls[0], IMPLICIT, [expr], {})

    def beside_itself(self, node: ast.BinOp, out: Value, left: Value, right: Value) -> Value:
        """A cut whose own operand is attached on the other side of the operation (a
        straight-through estimator: ``hard + soft - soft.detach()``, ``x + (q - x).detach()``):
        the value keeps that operand's history, so the cut starves nothing of it; written whole,
        ``soft + (hard - soft).detach()`` keeps the soft side's, and starves what only the hard
        side computed from (the levels of ``z + (q - z).detach()``). So is a statistic cut from
        the tensor it is combined with (``x - mu`` for ``mu = x.mean(…).detach()``)."""
        if not out.cuts:
            return out
        cuts = None
        itself = set()  # (`q * m + q.detach() * (1 - m)`: a masked stop-gradient of one tensor, no dead term)
        for cut in out.cuts:
            fact = self.facts.cuts.get(cut)
            if fact is None:
                continue
            for mine, other, kept, held in ((node.left, node.right, right, left), (node.right, node.left, left, right)):
                if not _within(cut, mine):
                    continue
                # (added as it is, or at work beside values that are no constants on its side,
                # `(z_q.detach() - z) ** 2`; not a loss of constants, `kl_div(log_softmax(pred.detach()), t)`)
                working = _linear_in(cut, mine) or not held.const
                if fact.tensor in _attached_names(other) and fact.kind != STATE_DICT and working:
                    # (`model.state_dict()` beside `model(x)`: a copy of the weights, not of the
                    # output the other side keeps)
                    cuts = cuts or dict(out.cuts)
                    cuts[cut] = cuts[cut] | fact.upstream
                    itself.add(cut)
                elif _subtracts(cut, other):
                    cuts = cuts or dict(out.cuts)
                    cuts[cut] = cuts[cut] | kept.trainables | kept.post
            # `x - mu` with `mu = x.mean(...).detach()`: a statistic cut from the very tensor on
            # the other side, which stays attached (a stop-gradient through the statistic)
            for mine, kept in ((left, right), (right, left)):
                if cut in mine.cuts and cut not in kept.cuts and not kept.computed and fact.upstream \
                        and fact.upstream <= kept.inputs | kept.trainables:
                    cuts = cuts or dict(out.cuts)
                    cuts[cut] = cuts[cut] | fact.upstream
        if itself & {dead_cut(entry) for entry in out.dead}:
            out = replace(out, dead=frozenset(e for e in out.dead if dead_cut(e) not in itself))
        return replace(out, cuts=cuts) if cuts else out

    def apply_saves(self, qual: str, shown: str, node, operands, values, out: Value) -> Value:
        """Record which operands (and whether the result) the recorded op saves for backward."""
        if self.nograd is not None:
            return out
        # Only operands known to require grad count: outside model code (optimizers, metrics,
        # data processing) most tensors do not, and an op saves an operand only for the
        # gradient of another (``u * x`` saves ``u`` only if ``x`` requires grad).
        # (in a summary, a parameter as handed, ``%k``: what its callers hand decides, and the
        # edits of it inside are judged at each call, ``Summary.inner_edits``)
        grad_inputs = [i for i, v in enumerate(values) if (v.attached or v.live or _symbolic(v, self)) and not v.plain]
        if not grad_inputs or _constant_pad(qual, node):
            return out
        tensor_inputs = [i for i, v in enumerate(values) if not v.plain and (v.tensor or not v.const)]
        # (`x.max(dim=0)` is the shape `x.max(0)` was measured in, which saves neither)
        keywords = sum(1 for k in node.keywords if k.arg is not None) if type(node) is ast.Call else 0
        data = saves.op_saves(qual, grad_inputs, tensor_inputs=tensor_inputs, nargs=len(operands) + keywords)
        if data is None:
            return out
        save = Save.at(shown, node)
        for i in data.inputs:
            if i < len(operands):
                self.mark_saved(operands[i], _needing(save, [values[j] for j in grad_inputs if j != i]))
        if data.output:
            out = replace(out, saved=frozenset({save}))
        return out

    # ---- calls ---------------------------------------------------------------------------------

    def call(self, node: ast.Call) -> Value:
        value = self.call_value(node)
        if self.events is not None and self.record and type(node.func) is ast.Attribute \
                and type(node.func.value) is ast.Name and node.func.value.id == "self" \
                and node.func.attr in self.cls.methods:
            self.events.append(Event("call", node, node.func.attr))
        if not value.packed and self.packs(node):
            value = replace(value, packed=True)
        return value

    def registry(self, func: ast.Subscript) -> list | None:
        """The classes a module-level dict display of classes holds (`MODELS = {"res": ResNet,
        "cnn": models.ConvNet}`), where ``func`` indexes it by any key and nothing here rebinds
        its name; None elsewhere."""
        if type(func.value) is not ast.Name or (func.value.id in self.env and self.function.name != "<module>"):
            return None  # (a name of a function's own, whatever the module binds)
        found = once("class-registries", self.facts.module, _class_registries).get(func.value.id)
        if not found or not all(self.classes.get(dotted(v)) is not None
                                or self.classes.get(self.imports.qualname(v) or "") is not None for v in found):
            return None
        return found

    def inline_call(self, node: ast.Call, params: list, body: ast.expr) -> Value:
        """A call of a lambda or one-expression function the walked function defines for itself
        (`to_np = lambda t: t.detach().cpu().numpy()`): its expression, walked with its parameters
        bound to what the call hands them."""
        values = [self.expr(a) for a in node.args]
        saved, memo = dict(self.env), self.memo
        self.env.update(zip(params, values))
        self.memo = {}  # (each call walks the expression anew, with what it is handed)
        self.inlining = self.inlining | {body}  # (a lambda calling itself, `flat = lambda t: … flat(sub) …`)
        try:
            return self.expr(body)
        finally:
            self.env, self.memo = saved, memo
            self.inlining = self.inlining - {body}

    def packs(self, node: ast.Call) -> bool:
        """Whether a call may return a ``PackedSequence``: torch's packing calls, and a call of a
        module or function of the user's given one (an RNN returns its output packed as it was
        given; what unpacks it, ``pad_packed_sequence``, is torch's own)."""
        qual = self.imports.qualname(node.func)
        if qual is not None and qual.startswith("torch"):
            return qual.rsplit(".", 1)[-1] in PACKS or (
                qual.rsplit(".", 1)[-1] in ("RNN", "LSTM", "GRU") and any(self.packed(a) for a in node.args))
        return any(self.packed(a) for a in node.args)

    def packed(self, expr: ast.expr) -> bool:
        """Whether ``expr`` may be a ``PackedSequence``, read without walking it again."""
        while type(expr) is ast.Subscript:
            expr = expr.value  # (`rnn(packed)[0]`: the output of the pair, still packed)
        if type(expr) is ast.Call:
            return self.packs(expr)
        name = dotted(expr)
        return name is not None and name in self.env and self.env[name].packed

    def call_value(self, node: ast.Call) -> Value:
        func = node.func
        positional = [a for a in node.args if type(a) is not ast.Starred]
        keywords = {k.arg: k.value for k in node.keywords if k.arg is not None}
        qual = self.imports.qualname(func)
        head = dotted(func)
        imported = head is not None and (head.split(".")[0] in self.imports.names or (
            # (`from utils import *` handing on `torch`: nothing else can bind it unimported)
            head.split(".")[0] == "torch" and self.imports.stars and "torch" not in self.env))
        registry = self.registry(func) if type(func) is ast.Subscript else None
        if registry:
            # `net_G_models[FLAGS.arch](FLAGS.z_dim)`: a construction of each class the module's
            # dict of classes holds, whichever the key picks
            found, infos = None, []
            for cls in registry:
                call = ast.copy_location(ast.Call(func=cls, args=node.args, keywords=node.keywords), node)
                call.end_lineno, call.end_col_offset = node.end_lineno, node.end_col_offset
                value = self.expr(call)
                found = value if found is None else found.join(value)
                infos.append(module_info(call, self.imports, self.classes))
            module = infos[0]
            for info in infos[1:]:
                module = joined_module(module, info) if module is not None and info is not None else None
            # (one class: as its constructor says; several: a model, whose forward is either's)
            return replace(found, module=module)
        if qual in PARAMETRIZATIONS and node.args and type(node.args[0]) is not ast.Starred:
            # `weight_norm(self.mix)`: the module itself, its weight reparametrized
            return self.expr(node.args[0])
        if qual is not None and imported and qual.startswith("torch"):
            return self.torch_call(node, qual, positional, keywords)
        if qual in ("copy.deepcopy", "copy.copy") and len(node.args) == 1 and not node.keywords:
            source = self.expr(node.args[0])
            if source.module is not None and not (source.tensor or source.computed):
                # (`train(copy.deepcopy(base))`: a model of the same class, handed on)
                return source
        edited = function_edits(self.facts.module, self.imports).get(head) if head is not None else None
        if edited and (head not in self.env or self.function.name == "<module>"):
            # a custom autograd Function whose forward edits an input in place (`logits -=
            # logits.max(…)[0]`, unmarked): the tensor handed there is edited, as by an in-place
            # op written here (what the caller saved of it is stale at backward)
            for i, how in edited.items():
                arg = node.args[i] if i < len(node.args) and type(node.args[i]) is not ast.Starred else None
                name = dotted(arg) if arg is not None else None
                if name is not None:
                    shown = (how.target, f" {AUG_OPERATORS.get(type(how.op), 'op=')} …") \
                        if type(how) is ast.AugAssign else (how.targets[0], " = …") if type(how) is ast.Assign else how
                    self.edit(how, name, shown)
        if head is not None and self.nograd is None:
            saved = function_saves(self.facts.module, self.imports).get(head)
            if saved and (head not in self.env or self.function.name == "<module>"):
                # a custom autograd Function (`Splat.apply(frame, flow)`): what its forward
                # saves as given is saved, where any input records
                values = self.arg_values(node)
                if any(v.attached or v.live for v in values):
                    for i in saved:
                        if i < len(positional) and i < len(node.args) and type(node.args[i]) is not ast.Starred:
                            self.mark_saved(positional[i], Save.at(self.written(func), node))
        if self.from_plain_library(func):  # np.mean(a), math.sqrt(d), sympy.simplify(e)
            given = union(self.arg_values(node))
            if (qual or "").startswith("numpy.") and not given.plain and (given.tensor or given.computed) \
                    and (given.cuts or given.nograd):
                # `np.mean(np.asarray(limits))` of tensors computed after `ang.detach()`: NumPy
                # reads their values as `.numpy()` does (torch refuses it where one requires grad,
                # so a cut on the way is where the history went)
                self.note_pull(node, given)
                return replace(_plain_of(given), pulled=given.pulled | {node}, tensor=False, computed=True)
            return replace(_plain_of(given), computed=True)
        if head is not None and head.count(".") == 1 and head.split(".")[0] in self.classes \
                and head.split(".")[0] not in self.env:
            # `Embedding.table(n, dim)`: a static method of a class of this file, from its summary
            summary = self.facts.callee(head)
            if summary is not None and not summary.method and summary.node is not getattr(self.function, "node", None):
                result = self.apply_summary(node, summary, None, self.arg_values(node), head)
                if result is not None:
                    return result
        if head is not None and head.startswith("self.") and head.count(".") == 1 and self.cls is not None \
                and head[5:] == self.function.name and self.function.class_name == self.cls.name:
            # A method calling itself (`self._build_tree(q, p, j - 1)`): what it returns on the
            # paths walked so far (the base case), element by element, as a function's does.
            so_far = [r for r in self.facts.returns if r.function.node is self.function.node]
            if so_far:
                self.arg_values(node)
                return _returned_so_far(so_far)
        if head is not None and head.startswith("self.") and head.count(".") == 1 and self.cls is not None \
                and head in self.cls.functions and head not in self.env and self.cls.init is not None:
            # `self.fn(…)` with `self.fn = kep_loss_fixed if fixed else kep_loss` in `__init__`:
            # what each function bound there does, joined
            found = self.bound_functions_call(node, _init_bindings(self.cls.init, head[5:]), positional, keywords)
            if found is not None:
                return found
        if head is not None and head.startswith("self.") and head.count(".") == 1 and self.cls is not None \
                and self.cls.init is not None and head not in self.env and self.cls.node is not None:
            handed = self.handed_to_init(head[5:])
            if handed:
                # `self.distill_fn(…)` with `self.distill_fn = distill_fn` in `__init__`, every
                # construction of the class handing it a function (`LwFTrainer(net,
                # soft_target_cross_entropy)`): what each of those does, joined
                found = self.bound_functions_call(node, handed, positional, keywords)
                if found is not None:
                    return found
            elif handed is None:
                # (built by the project's other files, `PGDAttack(probe.input_gradient)` in
                # main.py: what the functions they hand do, joined)
                targets = self.handed_to_init_elsewhere(head[5:])
                if targets:
                    results = [self.handed_call(node, t, positional, keywords) for t in sorted(targets)]
                    found = results[0]
                    for value in results[1:]:
                        found = found.join(value)
                    return found
        if head is not None and head.startswith("self.") and head.count(".") == 1:
            # self.encoder(x), self.predict(x): a submodule or a method of this model.
            if self.cls is not None and head[5:] in self.cls.nograd_methods:
                values = self.arg_values(node)
                # (a decorated method handed activations with history, `self.features(torch.cat([dist,
                # ref]))` in a metric's forward: its result is cut from them, at its decorator)
                method = next((f for f in getattr(self.cls.node, "body", ()) if type(f) in FUNCTIONS
                               and f.name == head[5:] and f.decorator_list), None)
                region = method if method is not None and nograd_decorator(method, self.imports) is not None else None
                # (`self.forward(x)` in `training_step`, the forward decorated: what it runs is cut)
                own = _members_run(self.cls, "forward") if head == "self.forward" and region is not None \
                    and self.function.name not in ("forward", "__call__") else EMPTY
                out = self.no_history_call(node, union(values), region=region, own=own)
                key, summary = self.method_summary(head[5:])
                if summary is not None and summary.node is not getattr(self.function, "node", None):
                    self.receiver_edits(node, summary)
                if summary is not None and summary.cuts and summary.node is not getattr(self.function, "node", None):
                    # (`self.encode_text(ids)` computing a trainable head inside its no_grad
                    # region: its result has no history, and which trainables it lost is the
                    # region's cut, followed to where the result is trained through)
                    applied = self.apply_summary(node, summary, Value(trainables=summary.trainables), values, key)
                    if applied is not None and applied.cuts:
                        out = replace(out, cuts=applied.cuts)
                return out
            callee = self.handed_member(head, self.lookup(head)) if head.count(".") == 1 else self.lookup(head)
            if head in ("self.forward", "self.__call__"):
                callee = Value(trainables=frozenset({"self"}))  # the module itself
            if not callee.trainables and callee.module is None and head not in self.env \
                    and self.cls is not None and head in self.cls.attrs and not self.bound_to_plain_library(head) \
                    and head not in self.cls.functions:
                # self.model(x) in a trainer class (not `self.colormap = plt.get_cmap(name)`: a
                # plain library's callable, nor `self.act = F.softplus`: they hold no parameters)
                callee = Value(trainables=frozenset({head}))
            if callee.trainables or callee.module is not None:
                return self.apply_module(node, callee, self.arg_values(node), positional)
            if self.cls is not None and head not in self.env:
                # `self.encode(obs)` in a plain class (an agent, a trainer): what the method does,
                # from its summary, its members (`self.encoder`) standing for themselves
                key, summary = self.method_summary(head[5:])
                if summary is not None and not summary.method and summary.node is not getattr(self.function, "node", None):
                    result = self.apply_summary(node, summary, None, self.arg_values(node), key)  # a staticmethod
                    if result is not None:
                        return result
                if summary is not None and summary.method and summary.node is not getattr(self.function, "node", None):
                    result = self.apply_summary(node, summary, Value(trainables=summary.trainables),
                                                self.arg_values(node), key)
                    if result is not None:
                        # (`self._update_memory(k, v)` in a forward: the state it carries is
                        # the forward's too)
                        self.state_called |= summary.state
                        if summary.state and self.loops:
                            # (`loss = self.step_loss(obs, r)` in a loop of a trainer, the policy it
                            # calls leaving `self.policy.lstm_hidden` built on what it held: the
                            # member's state, which a call of the member's own reset clears)
                            result = self.carry_member_state(node.func.value, summary.state, result)
                        return result
        if head is not None and head.count(".") == 2 and head.startswith("self.") and self.cls is not None:
            # `self.critic.q1(s, a)`: the submodule the class of `self.critic` builds, named itself
            # (an optimizer over it alone, `Adam(self.critic.q1.parameters())`, is told apart
            # from one over its sibling)
            parent = self.lookup(head.rpartition(".")[0])
            cls = self.classes.get(parent.module.qualname) if parent.module is not None else None
            module = cls.attrs.get("self." + head.rpartition(".")[2]) if cls is not None and cls.is_module else None
            if module is not None and module.parameters and parent.trainables == frozenset({head.rpartition(".")[0]}) \
                    and not (parent.computed or parent.live):
                callee = Value(trainables=frozenset({head}), module=module)
                return self.apply_module(node, callee, self.arg_values(node), positional)
        if head is not None and head.count(".") == 1 and not head.startswith("self."):
            # `policy.pi(h)` on an instance of this file's class: the submodule it was built with.
            owner = self.lookup(head.split(".")[0]).module
            cls = self.classes.get(owner.qualname) if owner is not None else None
            module = cls.attrs.get("self." + head.split(".")[1]) if cls is not None else None
            if module is not None:
                # (of a model this function is handed: that member, `gan.gen@train`)
                member = self.handed_member(head, replace(self.lookup(head.split(".")[0]), module=None))
                callee = Value(trainables=member.trainables, module=module)
                return self.apply_module(node, callee, self.arg_values(node), positional)
        if head is not None and self.imports.project is not None and head not in self.functions \
                and head.split(".")[0] in self.imports.sources and head.split(".")[0] not in self.env \
                and head.split(".")[0] not in self.globals:
            # A function of another file of the project (`from helpers import embed`): what its
            # body does to what it is given, from its summary (a class there is called through
            # apply_module, as an instance).
            summary = self.facts.callee(qual)
            if summary is not None and not summary.method:
                result = self.apply_summary(node, summary, None, self.arg_values(node), head)
                if result is not None:
                    return result
        if qual in STDLIB_CONTAINERS and (head or "").split(".")[0] not in self.env:
            # (an OrderedDict is a dict: empty, what `{}` is; else what it is given)
            return NOTHING_YET if not (positional or keywords) else self.name_call(node, "dict", positional, keywords)
        if type(func) is ast.Attribute:
            return self.method_call(node, func, positional, keywords)
        if type(func) is ast.Name:
            inline = once("local-callables", self.function.node, _local_callables).get(func.id) \
                if type(self.function.node) in FUNCTIONS else None
            if inline is not None and len(inline[0]) == len(node.args) and not node.keywords \
                    and not any(type(a) is ast.Starred for a in node.args) and inline[1] not in self.inlining:
                return self.inline_call(node, *inline)
            return self.name_call(node, func.id, positional, keywords)
        callee = self.expr(func)
        if type(func) is ast.Call and callee.module is None:
            info = module_info(func, self.imports, self.classes)  # nn.Dropout(0.5, inplace=True)(x)
            if info is not None:
                callee = replace(callee, module=info)
        return self.apply_module(node, callee, self.arg_values(node), positional)

    def arg_values(self, node: ast.Call) -> list[Value]:
        """The value of each argument: the positional ones (``*xs``: what ``xs`` holds), then
        the keywords (``**kw``: what ``kw`` holds)."""
        return [self.expr(a) for a in _arguments(node)]

    def written(self, node) -> str:
        """The expression as written, with the parentheses around it (``(a + b)`` of
        ``(a + b).backward()``), as facts name the tensors and roots they are about."""
        return self.facts.code(_with_parentheses(self.facts.lines, node))

    def torch_call(self, node: ast.Call, qual: str, positional, keywords) -> Value:
        last = qual.split(".")[-1]
        if qual in BACKWARD_FUNCS:
            root_expr = keywords.get("outputs", keywords.get("tensors", positional[0] if positional else None))
            values = self.arg_values(node)
            root = self.expr(root_expr) if root_expr is not None else CONST
            retain = self.on_by_default(keywords.get("retain_graph"))
            create = literal_true(keywords.get("create_graph"))
            inputs = keywords.get("inputs", positional[1] if len(positional) > 1 else None) \
                if qual == "torch.autograd.grad" else None
            asked = self.expr(inputs) if inputs is not None else None
            # (what it names of the trainables; nothing of them where it names only a leaf made
            # here, `z = d.detach().clone().requires_grad_()`; else every leaf the root reaches)
            asks = asked.trainables or (EMPTY if asked.tensor and asked.computed and not (
                asked.post or asked.inputs or asked.live or asked.container) else None) if asked is not None else None
            self.backward(node, root_expr, root, retain, create, accumulates=qual != "torch.autograd.grad",
                          asks=asks)
            asked = keywords.get("create_graph")
            if (create or (asked is not None and type(asked) is not ast.Constant)) and qual == "torch.autograd.grad":
                # (`create_graph=create_graph`: a helper whose callers choose, `flat_grad(…,
                # create_graph=True)` in a Fisher-vector product; what it returns may be recorded)
                # a gradient taken with create_graph=True is recorded: it carries the history of
                # what it was computed from (a gradient penalty, a PDE residual, an inner step)
                # (the cuts on the way stay behind: what it is taken with respect to is often a
                # leaf made from them on purpose, a gradient penalty's interpolates)
                return replace(union(values), tensor=True, computed=True, const=False, saved=EMPTY, parts=None, cuts={})
            # (what it differentiates against is a leaf made for that, not what the root trains)
            against = keywords.get("inputs", positional[1] if len(positional) > 1 else None)
            against = frozenset(filter(None, map(dotted, against.elts if type(against) in (ast.Tuple, ast.List)
                                                 else [against])))
            root = replace(root, trainables=root.trainables - against, post=root.post - against)
            if root_expr is not None and (root.trainables or root.post) and qual == "torch.autograd.grad":
                # Without create_graph the gradients are computed from the record and are none of it:
                # a cut of what computed the root (a gradient penalty of them trains nothing; a
                # first-order inner step beside the parameters it updates starves nothing).
                out = self.cut_of(node, root_expr, root, UNRECORDED_GRAD)
                if node in self.facts.cuts:
                    self.facts.cuts[node].written = self.written(node)
                return replace(out, lost=True, alias=None)
            return replace(union(values), trainables=EMPTY, post=EMPTY, cuts={}, tensor=True, const=not create)
        if qual in REBUILDERS:
            return self.rebuild(node, qual, positional, keywords)
        return self.other_torch_call(node, qual, last, positional, keywords)

    def history_cut_from(self, value: Value) -> frozenset:
        """What the `.data`/`.detach()` cuts ``value`` descends from had upstream, where that is
        more than forward inputs: the model whose output a copy of ``value`` copies."""
        had = frozenset().union(*(self.facts.cuts[c].upstream for c in value.cuts if c in self.facts.cuts
                                  and self.facts.cuts[c].kind in (".data", ".detach()")))
        return had if had and not all(r.endswith("@input") for r in had) else EMPTY

    def rebuild(self, node: ast.Call, qual: str, positional, keywords) -> Value:
        """``torch.tensor(x)``, ``Variable(x, requires_grad=True)``, ``out.new_tensor(x)``: the
        values of ``x`` copied into a new tensor."""
        values = self.arg_values(node)
        if positional and _truth_values(positional[0]):
            # `torch.tensor([ids[-1] not in stop for ids in rows])`: booleans of comparisons,
            # which have no derivative whatever they compared
            return Value(tensor=True, computed=True, const=True)
        source = self.expr(positional[0]) if positional else CONST
        if positional and type(positional[0]) is ast.Name and source.parts is not None and not source.container \
                and any(p.computed and (p.attached or p.live) for p in source.parts):
            # `t = regress(deltas, proposal)` of a helper returning a tuple of tensors with
            # history, then `torch.Tensor(t)`: each element's values copied
            source = replace(source, computed=True, tensor=True)
        elif positional and type(positional[0]) in (ast.List, ast.Tuple, ast.ListComp) \
                and (source.attached or source.live) and (source.tensor or any(
                    self.own_parameter(e) or (type(e) is ast.Name and self.a_parameter(e))
                    or (type(e) in (ast.BinOp, ast.UnaryOp, ast.Call) and self.expr(e).computed and self.expr(e).attached)
                    for e in _nested_elements(positional[0]))):
            # `torch.tensor([torch.cos(a), torch.cos(b)])`, `torch.Tensor([self.log_var_a,
            # self.log_var_b])`, `torch.tensor([0.0, t * t])`: the tensors' values copied, their
            # history dropped
            # (`torch.stack` keeps it)
            source = replace(source, computed=True, tensor=True)
        requires = literal_true(keywords.get("requires_grad"))
        dtype = self.imports.qualname(keywords["dtype"]) if "dtype" in keywords else None
        if qual in ("torch.LongTensor", "torch.IntTensor") or dtype in INTEGER_DTYPES:
            # an integer tensor (indices, labels) has no gradient to lose, and cannot require one
            return Value(tensor=True, computed=True, const=True)
        if qual == "torch.autograd.Variable" and not requires:
            return source  # a plain tensor since PyTorch 0.4: Variable(x) is x
        if qual == "torch.as_tensor" and not requires and positional \
                and ((source.live and not source.trainables) or (
                    source.trainables and source.tensor and not source.live and not any(
                        t.startswith("self.") and self.lookup(t).module is None for t in source.trainables))) \
                and not (source.pulled or source.container or source.plain) \
                and type(positional[0]) not in (ast.List, ast.Tuple, ast.ListComp):
            # `torch.as_tensor(x, dtype=…)` of a tensor (a forward's input, a model's output) is
            # that tensor or its differentiable cast (ToCopyBackward0), history kept (of what a
            # member of unknown kind returns, an inference engine's array, a copy of its data)
            return replace(source, computed=True, saved=EMPTY)
        if qual in LEGACY_CONSTRUCTORS and len(node.args) == 1 and not node.keywords and source.parts is None \
                and not (source.pulled or source.container) and (source.tensor or not source.plain) \
                and type(node.args[0]) not in (ast.List, ast.Tuple, ast.ListComp, ast.Constant, ast.Starred):
            return source  # `torch.Tensor(t)` of one tensor is an alias of it, history kept (AliasBackward0)
        copy = positional[0] if positional else None
        if requires and copy is not None and source.cuts and not source.attached and qual == "torch.autograd.Variable" \
                and type(copy) is ast.Attribute and copy.attr == "data":
            # `Variable(value.data, requires_grad=True)`: a copy of `value` made a new leaf, as
            # `Variable(value, requires_grad=True)` is (the old idiom's `.data` only says so twice)
            held = self.expr(copy.value)
            if held.attached or held.live:
                source, copy = replace(held, computed=True, tensor=True), copy.value
        elif requires and copy is not None and source.cuts and not source.attached and qual == "torch.autograd.Variable" \
                and source.computed and not source.pulled:
            # `Variable(scaler.inverse(pred.data), requires_grad=True)`: values computed from a
            # model's output read through `.data`, copied into a new leaf: as the `.data` alone
            had = self.history_cut_from(source)
            if had:
                source = replace(source, trainables=source.trainables | had, tensor=True)
        fresh = copy is not None and is_fresh_copy(copy)
        of_cut = None
        if fresh and requires and source.cuts and not source.attached and not source.pulled:
            # `torch.tensor(values.detach(), requires_grad=True)` of a critic's values: a leaf
            # made on purpose, and a copy of what the cut had where an optimizer holds that
            # (``Cut.of_cut``: the starved analysis judges it)
            had = self.history_cut_from(source)
            if had:
                of_cut = replace(source, trainables=source.trainables | had, tensor=True, computed=True)
        rebuild = Rebuild(node, qual, source, requires, self.function, fresh_copy=fresh)
        rebuilt = frozenset({node}) if rebuild.roundtrip or rebuild.copies_history else EMPTY
        # (`torch.tensor([[a, b], [b, c]])` of elements of a parameter, or a list filled with them:
        # of what each call hands it)
        handed_elements = self.summarizing \
            and (type(copy) in (ast.List, ast.Tuple) or (type(copy) is ast.Name and source.container)) \
            and bool(source.trainables) and all(r.startswith("%") for r in source.trainables) \
            and once("params-read-as-tensors", self.function.node, _params_read_as_tensors)
        if handed_elements and not rebuilt:
            rebuilt = frozenset({node})
        if not rebuilt and self.summarizing and type(copy) is ast.Name and source.trainables \
                and not qual.endswith(("as_tensor", "asarray", "from_numpy")) \
                and all(r.startswith("%") for r in source.trainables):
            # `torch.tensor(value, requires_grad=True)` of a parameter as handed: a copy of
            # whatever each call hands it (a loss with history, at `as_scalar(loss)`; `as_tensor`
            # returns a tensor it is handed as it is)
            rebuilt = frozenset({node})
        if requires and source.nograd and not source.pulled and not rebuild.fresh_copy:
            # Variable(features, requires_grad=True) on no_grad features: a requires_grad
            # switch on a tensor without history (GL003), not a round trip through Python.
            self.switch(node, dotted(copy) if copy is not None else None, source)
            rebuild, rebuilt = replace(rebuild, requires_grad=False), EMPTY
        if self.record:
            self.facts.rebuilds.append(rebuild)
        # The copy cuts the history of the tensors it copies, as `.detach()` would: where
        # that starves what computed them is decided as for any cut (GL002 reports it).
        # (a rebuild ends the lineage of what its values came from: only its own cut, if any,
        # goes on; a `.data` read on the way to a metric's NumPy is no cut of the result)
        cuts = {}
        if of_cut is not None:
            cuts = self.cut_of(node, copy, of_cut, REBUILD).cuts
            if node in self.facts.cuts:
                self.facts.cuts[node].of_cut = True
        elif copy is not None and not rebuild.fresh_copy:
            if handed_elements and not source.pulled:
                # (the elements of a parameter: the caller's tensors, whose history the copy cuts)
                cuts = self.cut_of(node, copy, replace(source, tensor=True, computed=True), REBUILD).cuts
            elif (source.tensor and (source.attached or source.live or not source.pulled)) \
                    or (source.live and source.inputs and not (source.plain or source.container)):
                # (also a forward's input, the activations its callers hand it; not an array
                # computed from pulled values, `thetas[0] * scale` of `t.detach().numpy()`, which
                # holds no history of its own)
                cuts = self.cut_of(node, copy, source, REBUILD).cuts
            elif source.pulled:
                # `torch.tensor([lp.item() for lp in log_probs])`: the history the pulled
                # values had is cut here, as a copy of the tensors themselves would cut it
                history = EMPTY.union(*(self.facts.pulled_history.get(p, EMPTY) for p in source.pulled))
                # (else the history a cut on the way had: `logits.data.numpy()` scored in Python
                # and copied back is a number computed from the model, a dead term if added alone)
                through_cut = not history
                if through_cut:
                    history = EMPTY.union(*(self.facts.pulled_from.get(p, EMPTY) for p in source.pulled))
                inputs = frozenset(n for n in history if n.endswith("@input"))
                if history:
                    had = replace(source, trainables=history - inputs, inputs=inputs, computed=True, tensor=True,
                                  live=source.live or bool(inputs))
                    cuts = self.cut_of(node, copy, had, REBUILD).cuts
                    if node in self.facts.cuts and through_cut:
                        self.facts.cuts[node].through_cut = True
        cuts = {node: cuts[node]} if node in cuts else {}
        out = Value(rebuilt=source.rebuilt | rebuilt, pulled=source.pulled, nograd=source.nograd,
                    cuts=cuts, tensor=True, computed=True, const=not requires)
        if requires:
            self.made_leaf(out)
        return out

    def other_torch_call(self, node: ast.Call, qual: str, last: str, positional, keywords) -> Value:
        if qual in PARAMETER:
            given = union(self.arg_values(node))
            if positional and type(positional[0]) is not ast.Starred and given.computed and given.trainables \
                    and not _cut_copy(positional[0]):
                # `nn.Parameter(evolved)` of a weight a GRU computed: a new leaf sharing its
                # storage, whose history is gone, as `.detach()` would leave it
                cut = self.cut(node, positional[0], ".detach()")
                if node in self.facts.cuts:
                    self.facts.cuts[node].written = self.written(node)
                return replace(cut, tensor=True, computed=False, const=False)
            return replace(given, tensor=True, computed=False, const=False)
        if last == "GradScaler" and qual in GRAD_SCALERS:
            return Value(module=ModuleInfo(qual, parameters=False), computed=True)
        if qual == "torch.nn.Sequential" and self.record:
            if len(node.args) == 1 and type(node.args[0]) is ast.Starred and type(node.args[0].value) is ast.Name:
                # `nn.Sequential(*layers)`: the modules the function put in `layers`, in order
                self.sequential(listed_modules(self.function.node, node.args[0].value.id, node))
            else:
                self.sequential(positional)
        if qual in NOGRAD or qual in SET_GRAD_ENABLED or qual in ENABLE_GRAD:
            return CONST
        values = self.arg_values(node)
        if qual.startswith("torch.nn.") and last[:1].isupper() and qual not in CONTAINERS:
            info = module_info(node, self.imports, self.classes)
            if info is not None:
                return Value(module=info, computed=True)  # `loss_fn=nn.CrossEntropyLoss()`: a module, no tensor
        if last in FACTORIES and qual.count(".") == 1:
            requires = literal_true(keywords.get("requires_grad"))
            # (`x @ torch.randn(3, 3, requires_grad=True)`: a leaf made where it is used requires
            # grad as much as one bound to a name first)
            return Value(tensor=True, computed=True, const=not requires, live=requires)
        if is_optimizer_class(qual):
            if self.function is None or node not in once("unstepped", self.function.node, _unstepped_optimizers):
                self.facts.optimized |= self.coverage(node) | self.members_given(node)
            return Value(optimizer=True)
        index_at = self.index_operands(node, qual, positional)
        if index_at:
            values = [v for i, v in enumerate(values) if i not in index_at]
        out = replace(union(values), tensor=True, computed=True, plain=False)
        if torch_types.carries_grad(qual) is False and not last.endswith("_"):
            return _without_history(out)  # torch.argmax(x), torch.eq(a, b): no derivative to lose
        if out.cuts and last not in JOINING and len(values) > 1:
            out = scaled(out, values)  # F.mse_loss(pred, target.detach()): a target
            # (a term of constants compared with a prediction, `F.mse_loss(v, returns)` of returns
            # rebuilt from NumPy, is at work there, as `(v - returns) ** 2` is: no dead term)
            working = {entry for entry in out.dead if any(dead_cut(entry) in v.cuts for v in values)
                       and any(dead_cut(entry) not in v.cuts and not v.const for v in values)}
            out = replace(out, dead=out.dead - working) if working else out
        if last not in JOINING and last not in LINEAR:
            out = self.mix(out, values)  # torch.exp(a - b.detach())
        if last.endswith("_") and not last.endswith("__") and saves.is_inplace_method(last) and positional:
            self.edit_of(node, positional[0])
        at = saves.inplace_argument(qual)
        flag = keywords.get("inplace", positional[at] if at is not None and len(positional) > at else None)
        # (`F.relu(x, inplace=self.inplace)`: as the class is built by default)
        inplace = literal_true(flag) or (self.cls is not None and dotted(flag) in self.cls.true_attrs)
        # F.hardtanh_(x), F.elu_(x): functional.*_ edits its first argument, like x.relu_()
        inplace = inplace or (qual.startswith("torch.nn.functional.") and last.endswith("_") and not last.endswith("__"))
        if inplace and positional:
            self.edit_of(node, positional[0])
        if "out" in keywords:
            self.edit_of(node, keywords["out"])
        pos_values = [CONST if i in index_at else self.expr(p) for i, p in enumerate(positional)]
        out = self.apply_saves(qual, dotted(node.func) or qual, node, positional, pos_values, out)
        # `values, inds = torch.topk(x, k)`: as the method's, the second element is indices
        return _with_indices(out, last, positional[1:], keywords) if qual == f"torch.{last}" else out

    def index_operands(self, node: ast.Call, qual: str, positional) -> frozenset:
        """Which of ``arg_values(node)`` are indices or masks (``torch.index_select(x, 0, idx)``'s
        ``idx``): integer or bool tensors, which autograd never differentiates, so whatever
        computed them gives the result no history (measured: ``torch_types.index_arguments``);
        and Python numbers (``torch.topk(x, k)``'s ``k``: ``torch_types.number_arguments``)."""
        positions, names = torch_types.index_arguments(qual)
        # (and a Python number's, `k` of `torch.topk(sim, self.topk)`: no tensor goes there)
        numbers, number_names = torch_types.number_arguments(qual)
        positions, names = (*positions, *numbers), (*names, *number_names)
        if not (positions or names) or len(positional) != len(node.args):
            return frozenset()  # (after a ``*args`` the positions are not known)
        found = {i for i in positions if i < len(positional)}
        found.update(len(positional) + j for j, k in enumerate(node.keywords) if k.arg in names)
        return frozenset(found)

    def sequential(self, items) -> None:
        """``nn.Sequential(nn.Sigmoid(), nn.ReLU(inplace=True))``: an in-place module right after
        one that saves its output edits that saved output."""
        previous = None
        for item in items:
            info = module_info(item, self.imports, self.classes)
            if info is not None and info.inplace and previous is not None and previous[1].saves_output:
                self.facts.sequential_edits.append(SequentialEdit(item, item, previous[0]))
            previous = (item, info) if info is not None else None

    def method_call(self, node: ast.Call, func: ast.Attribute, positional, keywords) -> Value:
        meth = func.attr
        recv_expr = func.value
        if meth == "forward" and type(recv_expr) is ast.Name and recv_expr.id == "self" and self.own_nograd_forward():
            return self.own_forward_unrecorded(node)
        if meth == "detach":
            return self.cut(node, recv_expr, ".detach()")
        if meth == "detach_":
            value = self.cut(node, recv_expr, ".detach_()")
            name = dotted(recv_expr)
            if name is not None:
                self.env[name] = value
            return value
        marks = len(self.save_log)
        receiver = self.expr(recv_expr)
        if type(recv_expr) is ast.Call and receiver.module is None:
            # (`QuantileLoss(q).loss(pred, y)`: an object of a class of the project, made where its
            # method is called, as one bound to a name first)
            info = module_info(recv_expr, self.imports, self.classes)
            if info is not None and info.qualname in self.classes:
                receiver = replace(receiver, module=info, plain=False)
        if meth == "scale" and len(positional) == 1 and not keywords and receiver.module is not None \
                and receiver.module.qualname in GRAD_SCALERS:
            # `scaler.scale(loss).backward()`: the loss times the scale factor, a number
            return replace(self.expr(positional[0]), saved=EMPTY, alias=None)
        if meth in SAME_MODULE and (receiver.module is not None or (
                receiver.trainables and not (receiver.computed or receiver.tensor or receiver.container))) \
                and (self.nograd is not None or meth in ("eval", "train") or receiver.module is not None):
            # `model = model.eval()` under no_grad, `model = model.train()`, `gen = gen.cuda()` of
            # a known module: the very module, not a value computed (there without recording);
            # a tensor's `.cpu()` is left to the methods' rules (on CPU, the tensor itself)
            self.arg_values(node)
            return receiver
        if meth == "new_tensor" and positional and (receiver.tensor or receiver.attached or receiver.live):
            return self.rebuild(node, "Tensor.new_tensor", positional, keywords)
        values = self.arg_values(node)
        index_at = self.index_operands(node, f"Tensor.{meth}", positional)
        if index_at:  # `memory.index_select(0, idx)`: what computed `idx` gets no gradient
            values = [v for i, v in enumerate(values) if i not in index_at]
        args = union(values) if values else CONST
        if meth in DISTRIBUTION_METHODS and values and not (receiver.computed or receiver.module is not None) \
                and receiver.trainables == frozenset({dotted(recv_expr)}) \
                and dotted(recv_expr) not in self.used_as_modules():
            # `self.prior.log_prob(z)` of a prior handed to the constructor, which the module never
            # calls nor uses as a module (a torch.distributions object): the result carries what
            # it is handed, not a model applied after it
            receiver = replace(receiver, trainables=EMPTY)
        if meth == "state_dict" and not any(k.arg == "keep_vars" and not literal_false(k.value) for k in node.keywords):
            # `model.state_dict()`: copies of the values, detached (unless `keep_vars=True`):
            # what is computed from them has no history to lose; of a model trained here, a
            # cut of its parameters (a proximal term built from them trains nothing)
            member = dotted(recv_expr)
            if not receiver.trainables and self.cls is not None and member in self.cls.attrs and member not in self.env \
                    and member in self.used_as_modules() and not (receiver.optimizer or receiver.computed):
                # (`self.model.state_dict()` in a method of a plain class the model was handed to,
                # which calls it: the member itself, as `self.model(x)` is read)
                receiver = replace(receiver, trainables=frozenset({member}))
            if receiver.trainables and not (receiver.computed or receiver.tensor) and self.nograd is None:
                return replace(self.cut_of(node, recv_expr, replace(receiver, computed=True), STATE_DICT),
                               container=True)
            return Value(tensor=True, computed=True, const=True, container=True)
        if meth in PULL_METHODS:
            # `h.pow(2).mean().item()`: the graph built to compute a logged number is dropped at
            # once, so the tensors it saved are never checked by a backward.
            self.forget_saves(marks)
            # (`np.finfo(np.float32).eps.item()`: NumPy's scalar, no tensor's value)
            from_tensor = not receiver.plain and (
                receiver.tensor or receiver.attached or receiver.live or receiver.computed or receiver.nograd)
            # (`torch.rand(5).numpy()`: a tensor known to have had no history loses none)
            # (`log_probs.detach().exp().numpy()` of what a caller hands in: a cut on its way says
            # there was history to lose, where the walk knows none)
            from_tensor = from_tensor and not (receiver.const and not (
                receiver.cuts or receiver.nograd or receiver.lost or _cut_on_the_way(recv_expr)))
            if meth == "numpy" and not (receiver.cuts or receiver.nograd or receiver.pulled or receiver.rebuilt) \
                    and not any(k.arg == "force" for k in node.keywords) and not _cut_on_the_way(recv_expr):
                # `samples.numpy()`, no cut on its way: torch refuses it on a tensor that requires
                # grad, so a run that gets past it had no history there to lose
                from_tensor = False
            pulled = receiver.pulled | ({node} if from_tensor else EMPTY)
            if from_tensor:
                self.note_pull(node, receiver)
            # (a number keeps the cuts on its way: `loss + term.detach().item()` adds a dead term;
            # an array or a list is data, whose rebuild is GL002's)
            return Value(pulled=pulled, nograd=receiver.nograd, rebuilt=receiver.rebuilt,
                         cuts=receiver.cuts if meth == "item" else {},
                         tensor=meth == "numpy", computed=True, const=True, plain=meth != "numpy")
        if receiver.plain and meth == "forward" and (args.attached or args.live or args.cuts):
            # a module built from settings (`MemoryBankModule(size=n)` of a library), its forward
            # handed a tensor with history (`bank.forward(out1)`): what it returns may be that tensor
            return replace(args, computed=True, plain=False, saved=EMPTY)
        if receiver.plain:  # `args.lr.split(",")`, `arr.sum()`: a plain value's methods make no tensor
            return replace(_plain_of(receiver | args), computed=True)
        if meth in ("sample", "sample_n") and dotted(recv_expr) != "self" and not (
                receiver.module is not None and receiver.module.qualname in self.classes) \
                and not any(v.tensor or v.attached or v.live for v in values) \
                and not (receiver.trainables and not receiver.computed):
            # `Categorical(logits=policy(s)).sample()`: a draw has no history (`rsample` keeps it;
            # a distribution is built from a model's outputs, and its draw handed a shape:
            # `nets["policy"].sample(obs)` of a model held as it is handed is the model's method)
            return Value(tensor=True, computed=True, const=True, nograd=receiver.nograd)
        if meth == "requires_grad_":
            if self.is_module_object(recv_expr, receiver):
                # `backbone.requires_grad_(False)` … `(True)`: freezing or unfreezing a module's
                # parameters, leaves all; no tensor's lost history is switched on.
                return receiver
            if not (positional and literal_false(positional[0])):
                self.switch(node, dotted(recv_expr), receiver,
                            fresh=is_fresh_copy(recv_expr) or dotted(recv_expr) in self.copies)
                self.made_leaf(receiver)
            return receiver
        if meth in ALLOCATION_METHODS and (receiver.tensor or receiver.attached or receiver.live or receiver.cuts):
            return Value(tensor=True, computed=True, const=True)
        if meth in ("backward", "manual_backward") and not (meth == "backward" and receiver.module is not None):
            # (a model's own `backward` method, `model.backward(g_loss, d_loss)` in a class that
            # trains its parts, is its method: read from its summary below)
            if meth == "manual_backward" or (not receiver.tensor and not receiver.attached and not receiver.computed and positional):
                root_expr = positional[0] if positional else None
                root = self.expr(root_expr) if root_expr is not None else CONST
            else:
                root_expr, root = recv_expr, receiver
                if type(root_expr) is ast.Call and type(root_expr.func) is ast.Attribute \
                        and root_expr.func.attr == "scale" and (root_expr.args or root_expr.keywords):
                    root_expr = _first_argument(root_expr)  # scaler.scale(loss).backward()
            self.backward(node, root_expr, root, self.on_by_default(keywords.get("retain_graph")), literal_true(keywords.get("create_graph")))
            return CONST
        # (a method of an optimizer class of the file that updates the parameters in place,
        # called on an optimizer handed in: `optimizer.first_step()` in a train step SAM's
        # instance is given)
        handed_stepping = meth != "step" and receiver.module is None and not receiver.tensor \
            and self.key(dotted(recv_expr) or "") not in self.facts.stepping \
            and meth in once("file-stepping", self.facts.module, _file_stepping_methods, self.imports)
        if meth == "step" or meth in self.facts.stepping.get(self.key(dotted(recv_expr) or ""), ()) or handed_stepping:
            # (or a method of a project's optimizer that updates the parameters in place: SAM's
            # `first_step()` moving them to the worst case)
            optimizer = recv_expr
            if meth == "step" and positional and self.is_optimizer(positional[0]):
                optimizer = positional[0]  # scaler.step(optimizer)
            name = dotted(optimizer)
            listed = self.loop_optimizers(name, node) if name is not None and self.key(name) not in self.facts.optimizers else None
            if listed is not None:
                self.facts.optimizers[self.key(name)] = listed
            if name is not None and (handed_stepping or self.is_optimizer(optimizer)):
                covers = self.facts.optimizers.get(self.key(name))
                if covers is None:
                    covers = self.held_by_model(name)
                self.note_step(covers, name)
                self.note_rebound(node, name, covers)
                if covers is None and self.last_backward is not None:
                    self.stepped_after[node] = self.last_backward
                self.pending_steps.append((node, name, self.seq, covers))
                self.mark_stale(node, covers)
                if self.events is not None and self.record:
                    self.events.append(Event("step", node, optimizer=name, covers=covers))
                return CONST
        if meth == "load_state_dict" and receiver.trainables and not (receiver.computed or receiver.tensor) \
                and self.record and self.nograd is None and dotted(recv_expr) is not None:
            # `meta_net.load_state_dict(original)` restoring the weights: every parameter copied
            # into in place, as a step edits them; a loss recorded before it and backpropagated
            # after it reads the new values where its graph saved the old
            covers = frozenset(self.key(t) for t in receiver.trainables)
            self.pending_steps.append((node, dotted(recv_expr), self.seq, covers))
            self.mark_stale(node, covers)
        if meth in METADATA_METHODS:
            return PLAIN
        if meth in ("append", "extend", "insert") and values:
            name = dotted(recv_expr)
            key = _item_key(recv_expr) if type(recv_expr) is ast.Subscript else None
            if key is not None and key[0] in self.env:
                # `batch["log_probs"].append(lp.item())`: the list under that key holds it, and so
                # does the dict
                owner = self.env[key[0]]
                # (the list under that key, not the whole dict an unknown key reads as)
                old = self.items.get(key) or (owner.field(key[1]) if owner.fields is not None else None) or receiver
                self.items[key] = replace(old | values[-1], saved=EMPTY, alias=None, container=True,
                                          held=old.held | _held(values[-1:]), fields=None)
                self.env[key[0]] = replace(owner | values[-1], saved=EMPTY, alias=None, container=True,
                                           held=owner.held, fields=owner.fields, computed=owner.computed)
            if name is not None:  # a list that collects tensors holds what they hold
                old = self.lookup(name)
                held = old.held | _held(values[-1:])
                rows = with_row(old, values[-1]) if meth == "append" else None
                self.env[name] = replace(old | values[-1], saved=EMPTY, alias=None, held=held,
                                         container=True, rows=rows)
                self.note_attribute(name, self.env[name])  # `self.memory.append((obs, log_prob, reward))`
            return CONST
        if meth.endswith("_") and not meth.endswith("__") and saves.is_inplace_method(meth):
            base = _edit_base(recv_expr)
            owner = self.parameters_edited(recv_expr)
            if owner is not None and self.record:
                # `for p in model.parameters(): p.data.mul_(mask)`: every parameter of `model`
                # edited in place, as an optimizer's step edits them; a loss recorded before it and
                # backpropagated after it reads the new values where its graph saved the old
                covers = frozenset(self.key(t) for t in self.lookup(owner).trainables)
                if covers:
                    self.pending_steps.append((node, owner, self.seq, covers))
                    self.mark_stale(node, covers)
            # (`maps["k"].add_(…)` edits an element a container holds; `fast[0].data.clamp_(…)`
            # that element through `.data`)
            inner = recv_expr.value if type(recv_expr) is ast.Attribute and recv_expr.attr == "data" else None
            if type(inner) is ast.Subscript and _edit_base(inner) is not None:
                self.edit(node, _edit_base(inner) + ".data", node, element=inner)
            else:
                self.edit_of(node, recv_expr, element=recv_expr if type(recv_expr) is ast.Subscript else None)
            result = receiver | args
            if self.nograd is not None:
                result = self.no_history(result)
            if base is not None and base == dotted(recv_expr) and base in self.env and "." not in base:
                # (an edit through `value.detach()` changes the values, not what `value` is)
                self.env[base] = replace(result, saved=receiver.saved, module=receiver.module)
            return replace(result, saved=receiver.saved)
        name = dotted(recv_expr)
        # `self.encoder.encode(x)`, `model.generate(x)`: a method of a model. Only where the
        # receiver is known to be one: in a class whose base this file cannot see, `self.groups`
        # may as well be a dict.
        owner_is_model = receiver.module is not None or not name or not name.startswith("self.") or (
            self.cls is not None and (self.cls.is_module or not self.cls.bases))
        # (`QuantileLoss(q).loss(pred, y)`: a method of an object made where it is called)
        is_root_object = (name is not None or type(recv_expr) is ast.Call) and owner_is_model and (
            receiver.module is not None or (
                name is not None and receiver.trainables and not receiver.computed and not receiver.tensor
                and name.split(".")[0] in ("self",) + tuple(receiver.trainables)))
        # (`gan.update(d_loss, g_loss)`: a method the object's own class defines, whatever a
        # dict's or a tensor's of that name does)
        defined = receiver.module is not None and receiver.module.qualname in self.classes \
            and meth in self.classes[receiver.module.qualname].methods
        if is_root_object and (defined or (meth not in CAST_METHODS and meth not in MODULE_ITERATORS
                                           and meth not in CONTAINER_METHODS)):
            return self.apply_module(node, receiver, values, positional, method=True)
        if meth == "get" and len(positional) == 2 and len(values) == 2 and self.integer_tensor(positional[1]) \
                and not (receiver.held or receiver.rows):
            # `cache.get("step", x.new_zeros(n).long())`: a mapping (no tensor has `get`) of unknown
            # contents holds what the code stores under the key, of the kind it starts from: an
            # integer counter has no gradient whatever computed it
            return values[1]
        # (a cast's or a reshape's arguments, `x.to(self.device)`, `x.view(n, -1)`, `x.type_as(y)`,
        # give the result a device, a dtype or a shape, never history)
        cast = meth in CAST_METHODS
        out = receiver | (CONST if cast else args)
        if not values or cast:
            # `(dead - 0.01 * entropy).mean()`: one operand; what accompanies each cut is what
            # accompanied it there (a dead term stays dead), not all the operand holds
            out = replace(out, cuts=receiver.cuts)
        if out.cuts and meth not in JOINING and values:
            out = scaled(out, (receiver, *values))  # `p.mul(w.detach())`
        if meth not in JOINING and meth not in LINEAR:
            out = self.mix(out, (receiver, *values))  # `(a - b.detach()).pow(2)`
        out = replace(out, tensor=receiver.tensor or meth in TENSOR_ONLY_METHODS, carried=out.carried)
        if len(receiver.trainables) > 1 and torch_types.result_of(f"Tensor.{meth}") is None:
            # `model.encode(x)`, no tensor's method, of an object built from several models
            # (`ARGVA(encoder, discriminator)`): it may use any of them, so none is known saved
            out = replace(out, weightless=out.weightless | receiver.trainables)
        if meth in VIEW_METHODS or meth in MAY_ALIAS:
            # A view shares the saved tensor's storage and version counter; so does a
            # conversion that had nothing to convert (`.float()` of a float tensor is itself).
            return replace(out, alias=_alias(recv_expr, receiver), saved=receiver.saved)
        if meth in INTEGER_CASTS and not positional and (receiver.tensor or receiver.attached or receiver.live):
            return _without_history(out)  # `x.long()`: integers have no gradient
        if meth in CAST_METHODS:
            return out
        if (receiver.tensor or receiver.attached or receiver.live) and torch_types.carries_grad(f"Tensor.{meth}") is False:
            return _without_history(out)  # `logits.argmax(-1)`, `x.eq(y)`: integer or bool results
        if (not receiver.const or not args.const) and (receiver.tensor or meth not in NDARRAY_METHODS
                                                        or _symbolic(receiver, self)):
            qual = f"torch.Tensor.{meth}"
            out = self.apply_saves(qual, f".{meth}()", node, [recv_expr, *positional],
                                   [receiver, *[CONST if i in index_at else self.expr(p)
                                                for i, p in enumerate(positional)]], out)
        return _with_indices(out, meth, positional, keywords) if receiver.tensor or receiver.attached or receiver.live else out

    def bound_by_for(self, name: str) -> bool:
        """``name`` is bound by a ``for`` of the function walked, and is none of its parameters."""
        node = getattr(self.function, "node", None)
        if type(node) not in FUNCTIONS:
            return False
        args = node.args
        if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
            return False
        return name in once("for-targets", node, _for_targets)

    def iterated_parameter(self, name: str) -> str | None:
        """The parameter whose items ``name`` is bound to by a ``for`` or a comprehension of the
        function walked (``for table in tables``), where that is the only loop binding it; None
        elsewhere."""
        node = getattr(self.function, "node", None)
        if type(node) not in FUNCTIONS:
            return None
        args = node.args
        params = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        loops = [n for n in iter_nodes(node) if type(n) in (ast.For, ast.AsyncFor, ast.comprehension)
                 and any(type(t) is ast.Name and t.id == name for t in iter_nodes(n.target))]
        if len(loops) == 1 and type(loops[0].target) is ast.Name and type(loops[0].iter) is ast.Name \
                and loops[0].iter.id in params and loops[0].iter.id not in self.born:
            return loops[0].iter.id
        return None

    def integer_tensor(self, expr) -> bool:
        """``x.new_zeros(n).long()``, ``torch.zeros(n, dtype=torch.long)``: a tensor of integers."""
        if type(expr) is not ast.Call:
            return False
        if type(expr.func) is ast.Attribute and expr.func.attr in INTEGER_CASTS and not expr.args:
            return True
        dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
        return dtype is not None and self.imports.qualname(dtype) in INTEGER_DTYPES

    # ---- summaries ---------------------------------------------------------------------------

    def instance_of(self, expr, value: Value) -> str | None:
        """The class of this file ``expr`` is an instance of (``FGSM(model)``, a name bound to
        one), or None."""
        if value.module is not None and value.module.qualname in self.classes:
            return value.module.qualname
        if type(expr) is ast.Call:
            name = self.imports.qualname(expr.func)
            if name in self.classes:
                return name
        return None

    def setting_default(self, test) -> bool | None:
        """The value ``test`` (``self.flag``, ``not self.flag``) has in an instance built with
        its constructor's defaults (``self.flag = flag`` of ``flag=False``); None where unknown."""
        if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
            inner = self.setting_default(test.operand)
            return None if inner is None else not inner
        if self.cls is None or self.cls.init is None or type(test) is not ast.Attribute \
                or type(test.value) is not ast.Name or test.value.id != "self":
            return None
        params = [p for attr, p in set_from_parameters(self.cls.init) if attr == test.attr]
        default = defaults_of(self.cls.init).get(params[0]) if len(params) == 1 else None
        return default.value if type(default) is ast.Constant and type(default.value) is bool else None

    def imported_function(self, name: ast.Name) -> bool:
        """``name`` is a function another file of the project defines (``from chamfer import
        torch_chamfer``), not a class."""
        qualname = self.imports.qualname(name)
        if qualname is None or qualname.startswith("torch") or self.classes.get(qualname) is not None:
            return False
        summary = self.facts.callee(qualname)
        return summary is not None and not summary.method and type(summary.node) in FUNCTIONS

    def seed_instances(self, node) -> None:
        """A parameter every call site of this module-level function hands an instance of one
        class of this file holds that instance: calls of its methods read their summaries."""
        if self.cls is not None:
            return
        for name, value in list(self.env.items()):
            found = self.facts.param_instances.get(f"{name}@{node.name}")
            found = _one_lineage(found, self.classes, self.facts.module) or found
            if found and len(found) == 1 and None not in found and value.module is None:
                (qualname,) = found
                info = qualname if type(qualname) is ModuleInfo else module_info_of_class(qualname, self.classes)
                if not value.trainables and info is not None and info.parameters \
                        and f"{name}@{node.name}" in self.facts.caller_instances:
                    # (handed by callers in other files, `trainer = InpaintTrainer()` in main.py:
                    # a model, named for this parameter, whose forward's summary is its class's)
                    value = replace(value, trainables=frozenset({f"{name}@{node.name}"}))
                self.env[name] = replace(value, module=info)

    def summary_body(self, node: ast.FunctionDef | ast.AsyncFunctionDef, cut=None) -> tuple[list[str], int]:
        """Walk a function for its summary (``summaries.Table``): parameter ``k`` holds the
        symbolic trainable root ``%k`` (a method's receiver is ``self``, its members ``self.x``),
        or ``cut[k]`` where given (``Summary.alone``).
        Returns the parameter names and how many of them can be given by position."""
        self.summarizing = True
        self.number_operands = set()
        self.intended_leaves = intended_leaves(node, self.imports) | leaves_handed_on(node, self.facts.module, self.imports)
        params = node.args
        positional = [*params.posonlyargs, *params.args]
        names = [p.arg for p in [*positional, *params.kwonlyargs]]
        plain = _plain_parameters(params, self.facts.module)
        if self.cls is None:
            plain |= once("numbers-handed", self.facts.module, _numbers_handed).get(node.name, set())
        for i, name in enumerate(names):
            if i == 0 and self.cls is not None:
                continue  # the receiver: `self.x` is looked up as the class's member
            # (`beta=0.5`, `lr: float`: a number, as the function's own walk reads it)
            self.env[name] = PLAIN if name in plain else Value(trainables=frozenset({f"%{i}"}), live=True)
            if cut and i in cut:
                self.env[name] = cut[i]
        for star in (params.vararg, params.kwarg):
            if star is not None:
                self.env[star.arg] = UNKNOWN
        if params.vararg is not None:
            # `forward(self, *embeddings)`: the positional arguments past the named ones, together,
            # a tuple of what each call hands there (a parameter of its own, the last)
            names.append(params.vararg.arg)
            k = len(names) - 1
            self.env[params.vararg.arg] = cut[k] if cut and k in cut else Value(
                trainables=frozenset({f"%{k}"}), live=True, container=True)
        self.forced = _grad_forced_spans(node, self.imports)
        if self.cls is not None:
            # The receiver's attributes the method reads and rebinds (`out, self.hidden =
            # self.lstm(x, self.hidden)`): followed through the call, marked, to learn whether
            # it leaves them holding history built on what they held (``Summary.state``).
            self.mark_state(_rebound_attributes(node))
        self.block(node.body)
        self.note_state()
        return names, len(positional)

    def mark_state(self, names) -> None:
        """Follow the receiver's attributes ``names`` through the walk from what they held on
        entry, marked (``STATE_MARK``)."""
        for name in names:
            if self.cls is None or self.cls.attrs.get(name) is None:
                entry = self.lookup(name)
                self.state_entries[name] = entry
                self.env[name] = replace(entry, carried=entry.carried | {STATE_MARK + name})

    def carried_state(self) -> frozenset:
        """The rebound attributes that leave the method holding what they held before (their
        mark) and history recorded in the call on top of it (``Summary.state``), with what the
        receiver's methods it calls carry."""
        out = set()
        # (what the method backpropagates has history, whatever computed it: `self.accum =
        # self.accum + self.criterion.losses(self.model, x)`, then `self.accum.backward(…)`)
        backpropagated = {b.root for b in self.facts.backwards
                          if b.function is not None and b.function.node is getattr(self.function, "node", None)}
        for name, entry in self.state_entries.items():
            end = self.state_exits.get(name)
            if end is None or STATE_MARK + name not in end.carried:
                continue  # rebuilt, reset or detached on some path out
            if (end.trainables | end.post) - (entry.trainables | entry.post) or name in backpropagated:
                out.add(name)
        return frozenset(out) | self.state_called

    def note_state(self) -> None:
        """At an exit of a method whose rebound attributes the walk follows: what they hold."""
        for name in self.state_entries:
            value = self.env.get(name)
            if value is not None:
                seen = self.state_exits.get(name)
                self.state_exits[name] = value if seen is None else seen.join(value)

    @staticmethod
    def _part_trainables(params, mine, given: dict, receiver, summary, own, owner=None) -> frozenset:
        """What one element of a summarized call's returned tuple carries, in this call's names."""
        out = set()
        for k in params:
            value = given.get(k) if not (summary.method and k == 0) else None
            if value is not None:
                out |= value.trainables
        members = {r for r in mine if r == "self" or r.startswith("self.")}
        if members and receiver is not None:
            # (`self.losses()`: the receiver stands for the members by their own names)
            out |= members if members <= receiver.trainables else receiver.trainables
            if owner is not None and receiver.trainables == {owner}:
                # (`model.process(x)` on a name bound to the model: its members too, by the name,
                # `model.discriminator`, so that a step of one member's optimizer is told apart)
                out |= {owner + r[4:] for r in members if r.count(".") == 1}
        out |= {r for r in mine - members if r in own}
        return frozenset(out)

    def trained_fields(self, node: ast.Call, summary, out: Value, given: dict, receiver, own) -> tuple:
        """Each key of the dict a summarized call returns with what reaches it
        (``Summary.trained_fields``): `losses = trainer(x, mask)` of a GAN's `return {"d": …,
        "g": …}` has the discriminator's loss under "d" alone. A receiver this walk holds by a
        plain name (a parameter: `trainer@train_step`) is also named member by member,
        `trainer.netD`, so that a step of one member's optimizer is told apart."""
        func = node.func.value if summary.method and type(node.func) is ast.Attribute else node.func
        owner = dotted(func)
        if owner is None or "." in owner or receiver is None \
                or {t.split("@")[0] for t in receiver.trainables} != {owner}:
            owner = None
        # (a cut of the receiver's history, kept by the receiver whole, by its members then)
        every = frozenset(owner + r[4:] for r in summary.trainables if r.startswith("self.") and r.count(".") == 1) \
            if owner is not None and "self" not in summary.trainables else EMPTY
        fields = []
        for k, (params, mine, cuts) in summary.trained_fields:
            field = out.field(k) or out
            members = {owner + r[4:] for r in mine if r.startswith("self.") and r.count(".") == 1} \
                if every and "self" not in mine else EMPTY
            field = replace(field, cuts={
                c: (kept - receiver.trainables) | every if members and kept & receiver.trainables else kept
                for c, kept in field.cuts.items() if c in cuts or c not in summary.cuts})
            if members:
                # (the receiver named by the members the key reaches, not whole: an optimizer of
                # `trainer.netG` steps nothing `losses["d"]` saved)
                trainables = self._part_trainables(params, mine - {r for r in mine if r.startswith("self.")},
                                                   given, None, summary, own) | members
            else:
                trainables = self._part_trainables(params, mine, given, receiver, summary, own)
            fields.append((k, replace(field, trainables=trainables)))
        return tuple(fields)

    @staticmethod
    def _beside(beside, given: dict, receiver, own) -> frozenset:
        """What a summary's cut stays beside in its result, in this call's names: what the call
        hands the parameters it names, and the callee's own trainables."""
        out = set()
        for part in beside:
            if type(part) is int:
                value = receiver if part == 0 and receiver is not None and part not in given else given.get(part)
                if value is not None:
                    out |= value.trainables | value.post
            elif part in own or not (part == "self" or part.startswith("self.")):
                out.add(part)
            elif receiver is not None:
                out |= receiver.trainables
        return frozenset(out)

    def grad_forced_at(self, node) -> bool:
        """Whether ``node`` runs with grad mode switched on by the function itself
        (``with torch.enable_grad():``, ``@torch.enable_grad()``), whatever its caller's mode."""
        point = (node.lineno, node.col_offset)
        return any(start <= point <= end for start, end in getattr(self, "forced", ()))

    def method_summary(self, name: str):
        """(key, summary) of the method ``self.name(…)`` calls: its own class's, else one it
        inherits from a base class, nearest first (`class DDPG(BaseAgent)` calling
        `self.take_optimisation_step(…)`); (key, None) where none is known."""
        key = f"{self.cls.name}.{name}"
        owners, seen = [self.cls.name], set()
        while owners:
            owner = owners.pop(0)
            if owner in seen:
                continue
            seen.add(owner)
            summary = self.facts.callee(f"{owner}.{name}")
            if summary is not None:
                return f"{owner}.{name}", summary
            own = self.classes.get(owner)
            bases = own.bases if own is not None and own.node is not None and origin(own.node) is None else ()
            # (a base imported from another file by its module's path, `fairseq.criterions.….Base`,
            # is asked by that path: its methods and those its own bases define, in their files)
            owners += [*(b.split(".")[-1] for b in bases if b), *(b for b in bases if b and "." in b)]
        return key, None

    def receiver_members(self, node: ast.Call, summary, receiver: Value) -> frozenset:
        """What a method's result carries of its receiver: the members its summary names
        (`gan.d_steps(…)` returns what `self.netG` computed: `gan.netG`), where the receiver is an
        object this walk holds by a plain name of this function; else the receiver whole."""
        owner = dotted(node.func.value) if type(node.func) is ast.Attribute else None
        members = {r for r in summary.trainables if r.startswith("self.")}
        if owner is None or "." in owner or owner == "self" or receiver.trainables != frozenset({owner}) \
                or not members or "self" in summary.trainables or self.cls is not None:
            return receiver.trainables
        return frozenset(owner + r[4:] for r in members)

    def summarized_callee(self, node: ast.Call, callee: Value, method: bool):
        """The summary key of a call of a module, model or method of this file, and the value
        its receiver (parameter 0) holds: ``(None, None)`` where no summary speaks for it."""
        module = callee.module
        if module is not None and module.qualname in self.classes:
            if method:
                return f"{module.qualname}.{node.func.attr}", callee
            return module.qualname, callee
        func = node.func
        if not method and self.imports.project is not None and self.cls is not None and self.cls.init is not None \
                and type(func) is ast.Attribute and type(func.value) is ast.Name and func.value.id == "self":
            # `self.prior(z)` where `__init__` built `self.prior = Denoiser(…)`, a class of another
            # file of the project: its forward, from that file's summary
            built = _built_in_init(self.cls.init, func.attr)
            qualname = self.imports.qualname(built) if built is not None else None
            summary = self.facts.callee(qualname) if qualname else None
            if summary is not None and summary.method:
                return qualname, callee
        if method and self.imports.project is not None and self.cls is not None and self.cls.init is not None \
                and type(func) is ast.Attribute and type(func.value) is ast.Attribute \
                and type(func.value.value) is ast.Name and func.value.value.id == "self":
            # `self.encoder.extract_features(x)`, the member built in `__init__` from a class of
            # another file: that method's summary, as for its forward above
            built = _built_in_init(self.cls.init, func.value.attr)
            qualname = self.imports.qualname(built) if built is not None else None
            summary = self.facts.callee(f"{qualname}.{func.attr}") if qualname else None
            if summary is not None and summary.method:
                return f"{qualname}.{func.attr}", callee
        if not method and self.cls is not None and self.cls.init is not None and type(func) is ast.Attribute \
                and type(func.value) is ast.Name and func.value.id == "self":
            # `self.dwt(x)` where `__init__` built `self.dwt = DWT1DForward(…).cuda() if … else
            # DWT1DForward(…)`, a class of this file holding no parameter: its forward's summary
            built = _assigned_in_init(self.cls.init, func.attr)
            info = module_info(built, self.imports, self.classes) if built is not None else None
            if info is not None and info.qualname in self.classes and self.facts.callee(info.qualname) is not None:
                return info.qualname, callee
        if not method and type(func) is ast.Attribute and type(func.value) is ast.Name \
                and func.value.id == "self" and self.cls is not None:
            key, summary = self.method_summary(func.attr)
            if summary is not None and summary.node is not getattr(self.function, "node", None):
                return key, Value(trainables=summary.trainables)
        if not method and type(func) is ast.Name and func.id == "self" and self.cls is not None:
            summary = self.facts.callee(self.cls.name)  # `self(x)`: the class's own forward
            if summary is not None and summary.method and summary.node is not getattr(self.function, "node", None):
                return self.cls.name, Value(trainables=summary.trainables)
        return None, None

    def receiver_saves(self, node: ast.Call, summary) -> None:
        """What this call of a method (or of a module, its forward) saved of its receiver's own
        tensors (``Summary.own_saved``), on the receiver's attributes here: `out = net(x)`, then
        `net.reset_noise()` writing into the buffer `net`'s forward saved, breaks `out`'s backward."""
        # (in a summary too: a member's saves, `self.fc_h(x)`, are the receiver's own)
        if not summary.own_saved or not (self.record or self.summarizing) \
                or self.nograd is not None or not summary.method:
            return
        owner = dotted(node.func.value) if type(node.func) is ast.Attribute \
            and getattr(summary.node, "name", None) not in ("forward", "__call__") else dotted(node.func)
        if owner is None or owner == "self":
            return
        edited = {attr for attr, _ in summary.own_edits.values()}
        for attr, saves in summary.own_saved.items():
            if attr in edited:
                continue  # (a sampler refreshing the buffer it then uses, `self.eps.data.normal_()`: each call's own)
            name = owner + attr
            held = self.lookup(name)
            if held.plain or held.container:
                continue
            self.env[name] = replace(held, saved=held.saved | saves, tensor=True)
            self.save_log.extend((name, save) for save in saves)  # (each one undone with the others)

    def receiver_edits(self, node: ast.Call, summary) -> None:
        """A method's edits of its receiver's tensors (``Summary.own_edits``) at this call of it:
        `self._dequeue_and_enqueue(k)` writing into `self.queue` after `torch.einsum(…, self.queue)`
        saved it breaks the backward of what that op computed (the method's own walk knows nothing
        its caller saved)."""
        owner = dotted(node.func.value) if summary.method and type(node.func) is ast.Attribute \
            and getattr(summary.node, "name", None) not in ("forward", "__call__") else None
        if owner is None and summary.method and getattr(summary.node, "name", None) in ("forward", "__call__"):
            owner = dotted(node.func)  # (`layer(x2)`: the module's forward, on the module's own buffers)
        if not summary.own_edits or owner is None:
            return
        if self.summarizing and owner.startswith("self."):
            # (a member's method editing the member's own tensors: an edit of this receiver's)
            self.member_edits += [
                (edit_node, owner + attr, edit) for edit_node, (attr, edit) in summary.own_edits.items()]
        if not self.record:
            return
        for edit_node, (attr, edit) in summary.own_edits.items():
            held = self.env.get(owner + attr)
            if held is not None and held.saved:
                self.facts.edits.append(Edit(edit_node, owner + attr, edit.how, held.saved, self.function,
                                             via_data=edit.via_data, trainables=held.trainables | held.post))
                self.facts.call_sites.setdefault(edit_node, node)

    def apply_summary(self, node: ast.Call, summary, receiver: Value | None, values: list[Value],
                      shown: str) -> Value | None:
        """The value of a call of a summarized function: the history of the arguments it passes
        on, the cuts inside it the result descends from (their upstream: what this call hands
        those parameters), its saved output. None where the arguments cannot be matched to its
        parameters (``*xs``, ``**kw``, a keyword it does not name): the call stays unknown."""
        if summary is None or summary.generator:
            return None
        arg_nodes = _argument_nodes(node)
        if len(arg_nodes) != len(values):
            return None
        given: dict[int, Value] = {}
        handed: dict[int, ast.expr] = {}  # parameter -> the argument as written
        position = 1 if summary.method else 0
        spread = False  # a starred argument came: the places of the positional ones after it are unknown
        for arg, value in zip(arg_nodes, values):
            parts = self.element_trained.get(arg.value) if type(arg) is ast.Starred and arg is node.args[-1] \
                and type(arg.value) is ast.Call else None
            if parts is not None:
                # `model.process(*batch())`: the tuple the helper returns, element by element, at
                # the parameters' places (a tuple of data carries nothing)
                for trained in parts:
                    if summary.positional >= 0 and position >= summary.positional or position >= len(summary.params):
                        return None
                    given[position] = replace(value, trainables=trained) if trained else CONST
                    position += 1
                continue
            if (type(arg) is ast.Starred or spread and type(arg) is not ast.keyword) \
                    and summary.trained_parts and not (value.attached or value.live or value.trainables or value.cuts):
                # `self.losses(*batch, idx)`, `hard_triplets(model, *batch)`: which places the batch
                # (and what follows it) fills is not known, and it fills none with history of its
                # own here; what the callee computes from the receiver's members (its losses through
                # `self.critic`) or the model handed before the batch is what it returns, element by
                # element where it returns a tuple (a list built in a loop over two critics holds
                # both in each element: the call stays unknown)
                spread = True
                continue
            if type(arg) is ast.Starred or (type(arg) is ast.keyword and arg.arg is None) \
                    or spread and type(arg) is not ast.keyword:
                return None
            if type(arg) is ast.keyword:
                if arg.arg not in summary.params:
                    return None
                given[summary.params.index(arg.arg)] = value
                handed[summary.params.index(arg.arg)] = arg.value
            else:
                if position >= summary.positional and summary.star >= 0:
                    # (past the named ones: an element of `*embeddings`)
                    star = summary.star
                    given[star] = given[star] | value if star in given else replace(value, container=True)
                    continue
                handed[position] = arg
                if position >= summary.positional:
                    return None
                given[position] = value
                position += 1
        if summary.method:
            given[0] = receiver if receiver is not None else UNKNOWN
        for k in summary.numbers_in_ops:
            if k in handed and k in given and given[k].pulled and not given[k].tensor:
                # `elbo(log_probs, y, float(model.divergence()), w)`, the loss adding `kl` to a
                # tensor: the number pulled out of the record enters the op as a constant there
                given[k] = self.number_in_tensor_op(handed[k], given[k], replace(CONST, tensor=True))
        if summary.star >= 0 and summary.star not in given:
            given[summary.star] = CONST  # (no argument past the named ones: an empty tuple)
        if summary.bound is not None:
            models = tuple((k, value.module) for k, value in sorted(given.items())
                           if value.module is not None and value.module.qualname in self.classes
                           and value.module.parameters and not value.computed)
            special = summary.bound(models) if models else None
            if special is not None:
                # (`render(field, deform, …)`: the function as it runs with these models)
                summary = special
        if summary.saves and self.nograd is None:
            # `post = mel + self.post(mel)` where Post's forward hands `mel` to a conv
            position = 1 if summary.method else 0
            for arg in arg_nodes:
                if type(arg) is ast.Starred:
                    break  # (a tuple spread into the last places: no argument as written there)
                k = summary.params.index(arg.arg) if type(arg) is ast.keyword else position
                if type(arg) is not ast.keyword:
                    position += 1
                needs = summary.save_needs.get(k)
                if needs is not None and not any(j in given and (given[j].attached or given[j].live)
                                                 and not given[j].plain for j in needs):
                    continue  # (`initial * source` with `initial` a number here: nothing saved)
                if k in summary.saves and k in given and (given[k].attached or given[k].live or any(
                        given[j].attached or given[j].live for j in given if j != k)):
                    self.mark_saved(arg.value if type(arg) is ast.keyword else arg, Save.at(self.written(node.func), node))
        own = (self.receiver_members(node, summary, receiver)
               if summary.method and receiver is not None and 0 in summary.passes else EMPTY) \
            | (summary.trainables if not summary.method else frozenset(r for r in summary.trainables if not r.startswith("self")))
        # (the receiver named member by member, `gan.netG`, is not also passed whole)
        whole = not (summary.method and receiver is not None and own and not own & receiver.trainables)
        passing = [given[k] for k in sorted(summary.passes) if k in given and (k or whole)]
        base = union(passing) if passing else CONST
        every = union(values) if values else CONST
        cuts = dict(base.cuts)
        for cut_node, params in summary.cuts.items():
            template = summary.cut_facts.get(cut_node)
            upstream = set()
            for k in params:
                # (a method's receiver: its members inside the callee, `inside`, stand for it)
                source = given.get(k) if not (summary.method and k == 0) else None
                if source is not None:
                    upstream |= source.trainables | source.post
            # (``x@input``: the callee's guess at what computed its input; here the caller's
            # arguments say what did)
            own_upstream = {r for r in (template.upstream if template else ()) if not r.startswith("%")
                            and (not r.endswith("@input") or template.hooked)
                            and not (summary.method and (r == "self" or r.startswith("self.")))}
            inside = {r for r in (template.upstream if template else ()) if summary.method and (r == "self" or r.startswith("self."))}
            if receiver is not None and receiver.module is not None and not receiver.module.parameters:
                inside = set()  # (an object that holds no parameter: its members train nothing)
            if not (upstream or own_upstream or inside):
                continue
            if not upstream and self.imports.project is not None and origin(cut_node) is not None and not (
                    inside and any(cut_node in part for part in summary.cut_parts)) and not (
                    template is not None and template.hooked) and not (
                    inside and receiver is not None and template is not None and template.kind == "no_grad"
                    and template.function is not None and template.region is template.function.node):
                # A cut in another file that starves only that file's own trainables: its own
                # lint has all there is to know, and reports it there (or judges it intended).
                # Not a member's cut in an element of a returned tuple: the caller's use judges it.
                # Nor what a forward hook of another file's class keeps of a module this file
                # hooks (`FeatHook(student.backbone, …)`): which module, and whether a loss trains
                # through what it keeps, only this file knows.
                # Nor a method of the receiver's decorated to run under no_grad (`encoder.embed(x)`):
                # whether a loss is made of what it returns, only this file knows.
                continue
            cut = self.facts.cuts.get(cut_node)
            unwalked = cut is None  # (no walk of the callee's own made it: only its summary's did)
            if cut is None:
                # (the loop of the call: state handed through a helper that detaches it each
                # iteration is truncated backpropagation, as a `.detach()` written there is)
                cut = self.facts.cuts[cut_node] = Cut(
                    cut_node, template.kind, template.tensor, function=template.function,
                    loop=self.loops[-1].node if self.loops else None, region=template.region,
                    hooked=template.hooked, leaf=template.leaf, of_leaf=template.of_leaf,
                    of_module_input=template.of_module_input)
                cut.written = template.written
            if inside and receiver is not None and receiver.trainables and not upstream \
                    and origin(cut_node) is not None:
                # (a member's cut of another file's class, returned to this caller to judge: it
                # starves the receiver, `self.encoder`, as this walk names it; a method run under
                # no_grad whole starves the members it computes, `model.convs`, beside the ones
                # another of its methods keeps attached)
                whole = template.kind == "no_grad" and template.function is not None \
                    and template.region is template.function.node
                members = {f"{r}.{m[len('self.'):]}" for r in receiver.trainables if not r.startswith(SYMBOL)
                           for m in inside if m.count(".") == 1} if whole else set()
                self.add_upstream(cut, members or receiver.trainables)
            else:
                # The callee's own members keep the names and coverage keys its walk gave them.
                cut.upstream |= inside
            cut.keys |= {k for k in template.keys if not k.startswith("%")}
            if cut.kind == "no_grad" or (self.imports.project is not None and origin(cut_node) is not None):
                # (a cut in another file of the project: no walk of this module names what it
                # starves, so the names this call hands it are its upstream)
                self.add_upstream(cut, upstream | own_upstream)
            else:
                # A .detach() in the callee names what it starves as the callee's walk does
                # (``model@compute_loss``, resolved through ``param_sources``); the caller's
                # names go to the coverage keys only, so the callee's own return still reads
                # its siblings (``return loss, logits.detach()``) as before.
                keys_before = set(cut.keys)
                probe = Cut(cut_node, cut.kind, cut.tensor)
                self.add_upstream(probe, upstream | own_upstream)
                cut.keys |= probe.keys | keys_before
                # (the callee's own trainables, a global leaf, are named as its walk names them:
                # a summary handed on by another summary has had no walk of that callee)
                cut.upstream |= own_upstream
                if self.summarizing:
                    # (a summary walk's cut is its own scratch fact: what its caller hands this
                    # call symbolically is what the caller's summary reports it starves)
                    cut.upstream |= {r for r in upstream if r.startswith("%")}
                if ((summary.method and summary.node.name != "forward")
                        or (cut.kind == REBUILD and (cut_node in summary.pulled or (unwalked and stand_in(cut_node))))) \
                        and not cut.upstream:
                    # (no walk of a method but a forward names what its callers hand it: `self.env.get_logprobs(
                    # policy_outputs, …)` on another class's object; what this call hands it is; nor
                    # one of a helper's number added to the loss it returns, `l1 + edge(pred, y)`
                    # of an edge term returned as `.item()`, or computed in NumPy from what it is
                    # handed and joined to the loss there, `out + alpha * ipm`)
                    self.add_upstream(cut, upstream)
            cuts[cut_node] = EMPTY
            # (a cut in another file is reported here, or where a function of this file reached it)
            site = summary.cut_sites.get(cut_node)
            self.facts.call_sites.setdefault(cut_node, site if site is not None and origin(summary.node) is None
                                             and origin(cut_node) is not None else node)
        roots = base.trainables | own
        if cuts:
            # (a cut handed in beside inputs the callee combines it with, `mask_l2_loss(t, s,
            # mask.detach())`: those inputs stay attached beside it)
            cuts = {c: companions | (self._beside(summary.beside[c], given, receiver, own)
                                     if c in summary.beside else roots | base.inputs)
                    for c, companions in cuts.items()}
        # A rebuild inside a function of this file of what it is handed, where this call hands it
        # tensors with history (the facts of the function's own walk hold the rebuild).
        rebuilt = every.rebuilt
        if summary.rebuilt:
            for rebuild, ks in summary.rebuilt.items():
                if not ks:
                    # (a copy of values it pulled itself, in another file: named there; one of
                    # this file is in this file's own facts)
                    if origin(rebuild) is not None:
                        rebuilt = rebuilt | {rebuild}
                        if self.record:
                            self.facts.call_sites.setdefault(rebuild, node)
                    continue
                attached = [given[k] for k in ks if k in given and (given[k].attached or given[k].live)]
                if attached and self.record and origin(rebuild) is not None:
                    self.facts.call_sites.setdefault(rebuild, node)
                if attached:
                    rebuilt = rebuilt | {rebuild}
                    self.rebuilt_from[rebuild] = frozenset().union(*(v.trainables for v in attached))
        for cut_node, params in summary.cuts.items():
            template = summary.cut_facts.get(cut_node)
            if template is not None and template.kind == REBUILD and template.through_cut and not template.leaf \
                    and cut_node in cuts \
                    and any(given[k].attached or given[k].live for k in params if k in given):
                # (`torch.from_numpy(spectrum)` of a helper's NumPy copy of what this call hands
                # it: a copy, whose term alone in a loss is dead, as one written here is; the
                # helper's own walk, handed nothing known, cannot tell it dropped a history)
                rebuilt = rebuilt | {cut_node}
                self.facts.lossy_rebuilds.add(cut_node)
        pulled = every.pulled
        # (not what it pulled out of what this call hands it as data: `coverage(sites, picked)`
        # pulling a number out of the sites, data at this call, pulled no history)
        handed_pulls = frozenset(pull for pull in summary.pulled if not all(
            k in given and _no_history(given[k]) for k in summary.pulled_params.get(pull, (None,))))
        if handed_pulls:
            pulled = pulled | handed_pulls  # `run_model(model, x)` returning NumPy of its outputs
            sources = frozenset().union(*(v.trainables | v.post | v.inputs for v in given.values()))
            for pull in summary.pulled:
                self.facts.pulled_from[pull] = self.facts.pulled_from.get(pull, EMPTY) | sources
            own = receiver.trainables if receiver is not None and origin(summary.node) is None \
                and summary.returns_number else EMPTY  # (a number, not an array a caller hands on)
            for pull in summary.pulled_own if own else ():
                # (`model.weight_penalty()` pulling its own weight's norm: what the receiver trains)
                self.facts.pulled_from[pull] = self.facts.pulled_from[pull] | own
                self.facts.pulled_history[pull] = self.facts.pulled_history.get(pull, EMPTY) | own
            if summary.returns_number:
                # (`self.policy_entropy(dist)` returning `dist.entropy().mean().item()` of a value its
                # own walk knows no history of: the history of what this call hands it)
                for pull, ks in summary.pulled_params.items():
                    # (not a model handed in, which the helper runs: its own walk names that)
                    # (in a summary walk, what the caller hands on as it is: `%1`)
                    handed_history = frozenset().union(*(given[k].trainables | given[k].post for k in ks if k in given
                                                         and (given[k].computed or _symbolic(given[k], self))
                                                         and given[k].module is None))
                    if handed_history:
                        self.facts.pulled_history[pull] = self.facts.pulled_history.get(pull, EMPTY) | handed_history
                        if origin(pull) is not None:
                            self.facts.call_sites.setdefault(pull, node)  # (reported at this call)
        mixing = [given[k] for k in summary.mixes if k in given]
        # (`multiscale_loss(preds, gt)` putting each `prev.detach() + delta` through a norm: the
        # cut values shape the gradient of what they were added to)
        dead = frozenset(e for e in base.dead if not any(dead_cut(e) in v.cuts for v in mixing)
                         or getattr(self.facts.cuts.get(dead_cut(e)), "of_leaf", False)) \
            | frozenset(c for c in summary.dead if c in cuts)
        for c, ks in (entry for entry in summary.dead if type(entry) is tuple and entry[0] in cuts):
            # (a loss module's term dead where this call hands those parameters no history,
            # `self.dice(output, target)` handed the labels; or handed on to this walk's own
            # callers, as its own parameters)
            fed = [given[k] for k in ks if k in given]
            if any(v.post or v.inputs or v.carried or (v.attached or v.live) and not v.trainables for v in fed):
                continue
            companions = frozenset().union(*(v.trainables for v in fed))
            if not companions:
                dead = dead | {c}
            elif all(r.startswith("%") and r[1:].isdigit() for r in companions):
                dead = dead | {(c, frozenset(int(r[1:]) for r in companions))}
        if roots and summary.alone is not None:
            data = {j: v for j, v in given.items() if not (summary.method and j == 0) and not (
                v.cuts or v.trainables or v.post or v.inputs or v.live or v.carried or v.module is not None)}
            for k, value in given.items():
                if not value.cuts or k not in summary.passes or (summary.method and k == 0) or (
                        value.trainables or value.post or value.inputs or value.live or value.carried):
                    continue
                # (what the call hands the others wholly cut is no history either: `fm(real_feats,
                # fake_feats)`, both detached, is a term of its own)
                beside = summary.alone(k, {**data, **{j: CUT_DATA for j, v in given.items() if j != k and j not in data
                                                      and not (summary.method and j == 0) and v.cuts and not (
                        v.trainables or v.post or v.inputs or v.live or v.carried)}})
                if beside is None:
                    continue
                # (a loss object's `rec + beta * kl(*latent)` handed the model's detached latents:
                # a term of its own, whatever the other arguments carry; `rank + lam * reg(x)`
                # in a helper handed `lam` by its own caller: what that caller hands)
                companions = frozenset().union(*(given[j].trainables | given[j].post for j in beside if j in given))
                if not companions:
                    dead = dead | frozenset(value.cuts)
                cuts = {c: companions if c in value.cuts else held for c, held in cuts.items()}
        out = replace(base, trainables=roots, cuts=cuts, pulled=pulled, rebuilt=rebuilt, dead=dead,
                      carried=base.carried, tensor=summary.tensor or base.tensor, computed=True,
                      packed=summary.packed or base.packed,
                      const=base.const and not own, saved=EMPTY, optimizer=False,
                      # (what a factory builds, `make_transformer(tanh=True)`: as its constructor says)
                      module=summary.module if not summary.method else None,
                      alias=self.returned_view(summary, handed, given),
                      nograd=base.nograd | ({node} if summary.nograd else EMPTY),
                      # (handed a parameter of unknown history, `jaccard(output, label)` in a loss
                      # function of a module whose callers are elsewhere: what it had, it lost)
                      lost=base.lost or ((summary.lost or (summary.lost_beside and not (base.attached or base.live)))
                                         and (every.attached or every.live or any(
                          not (v.const or v.plain or v.computed or v.optimizer) and v.module is None
                          for v in values))))
        if not summary.method and out.cuts:
            out = self.models_after_cut(out, given)
        if summary.pulled_fields is not None and out.pulled:
            # (`batch = collect(policy)` of `return {"log_probs": …, "rewards": …}`: each key its
            # own pulls)
            every_field = frozenset().union(*(p for _, p in summary.pulled_fields))
            out = replace(out, fields=tuple(
                (k, replace(out, pulled=frozenset(n for n in out.pulled if n in p or n not in every_field)))
                for k, p in summary.pulled_fields))
        if summary.trained_fields is not None and (out.trainables or out.post):
            out = replace(out, fields=self.trained_fields(node, summary, out, given, receiver, own))
        if summary.inner_edits and self.nograd is None and (
                origin(summary.node) is not None or self.module_method(summary.node)
                or getattr(summary.node, "name", None) == "__call__"):
            # A helper of another file that edits in place what one of its ops saved, computed
            # from what this call hands it with history: this call's backward breaks there (its
            # own lint cannot know what its callers hand it). So does a module's method of this
            # file (`self.encoder.extract_features(h)`), or a loss object's `__call__`
            # (`crit(model(x))`): its own walk knows no caller's values.
            # (what carries history here is a tensor, a forward() input or a name handed on:
            # `model.num_latent_scales` read off a model handed in is a number)
            # (a parameter handed on by name, `self.normalize(x_enc)`, is what the caller handed)
            def has_history(k: int) -> bool:
                v = given[k]
                return (v.attached or v.live) and (v.tensor or v.computed or v.container or bool(v.inputs)
                                                   or type(handed.get(k)) is ast.Name)

            for edit_node, (ks, edit) in summary.inner_edits.items():
                attached = [given[k] for k in ks if k in given and has_history(k)]
                if all(save.needs and not any(k in given and has_history(k) for k in save.needs)
                       for save in edit.saved):
                    continue  # (`beta * p_tgt` saves `p_tgt` for `beta`'s gradient: a number here)
                if attached and self.record:
                    self.facts.edits.append(Edit(edit_node, edit.name, edit.how, edit.saved, self.function,
                                                 via_data=edit.via_data, same_as=edit.same_as,
                                                 trainables=frozenset().union(*(v.trainables | v.post for v in attached))))
                    self.facts.call_sites.setdefault(edit_node, node)
        if summary.param_edits and self.record and (origin(summary.node) is not None or summary.method
                                                    or self.module_method(summary.node)):
            # A helper of another file that edits in place the tensor it is handed, where this
            # call hands it one an op here saved (`subtract_mean(y)` on a Tanh output): this
            # call's backward breaks there (its own lint cannot know what its callers hand it).
            # So does a method of this file (`norm.cut(y)`): its walk has no caller's values.
            for edit_node, (k, edit) in summary.param_edits.items():
                value = given.get(k)
                if value is not None and not value.saved and value.alias is not None \
                        and type(handed.get(k)) is ast.Subscript:
                    # (`hard_dice(probs[:, 1], y)`: a view of a saved tensor, edited through it)
                    value = replace(value, saved=self.lookup(value.alias).saved)
                if value is not None and value.saved and origin(summary.node) is None and not (
                        self.nograd is None and self.module_method(summary.node)):
                    # (a method of this file: only a tensor a recorded op saved, one with history or
                    # one saved for another's gradient, `self.dice(output, target)` after
                    # `self.ce(output, target)`)
                    continue
                if value is not None and value.saved:
                    self.facts.edits.append(Edit(edit_node, edit.name, edit.how, value.saved, self.function,
                                                 via_data=edit.via_data, trainables=value.trainables | value.post))
                    self.facts.call_sites.setdefault(edit_node, node)
        if summary.param_edits and self.summarizing and self.nograd is None:
            # (`data = self.position_embedding(data)` in a block's forward, the embedding adding
            # into what it is handed: an edit of this function's own input too, for its callers)
            for edit_node, (k, edit) in summary.param_edits.items():
                arg = handed.get(k)
                if type(arg) is ast.Name and arg.id in self.env and not self.env[arg.id].computed:
                    # (not what this very call saves of it inside: the callee's walk judges that)
                    held = self.env[arg.id]
                    self.env[arg.id] = replace(held, saved=frozenset(x for x in held.saved if x.node is not node))
                    self.edit(edit_node, arg.id, edit.how)
                    self.env[arg.id] = held
        self.receiver_edits(node, summary)
        self.receiver_saves(node, summary)
        for k, rebound in summary.rebound.items():
            # (`load_head(classifier, hyper, code)` copying `hyper(code)` into `classifier.head.
            # weight.data`: this call's `classifier` computes with values whose history is cut)
            name = dotted(handed.get(k)) if handed.get(k) is not None else None
            held = self.lookup(name) if name is not None else None
            if held is None or not held.trainables or (held.computed and held.module is None):
                continue
            cuts = {}
            # (a parameter the helper calls, `cam_net(cam)`: a model, whatever this walk knows of it yet)
            called = {n.func.id for n in ast.walk(summary.node) if type(n) is ast.Call and type(n.func) is ast.Name}
            for c, (ks, template) in rebound.items():
                upstream = frozenset().union(*(given[j].trainables | given[j].post for j in ks if j in given))
                # (and this function's own parameters handed on as they are, which the helper
                # calls, `cam_net(cam)`: a model whose callers this walk has not met yet)
                handed_on = frozenset().union(*(
                    self.handed_on(handed.get(j)) for j in ks if j in given and not (given[j].trainables or given[j].post)
                    and j < len(summary.params) and summary.params[j] in called))
                if not upstream | handed_on:
                    continue
                cut = self.facts.cuts.get(c)
                if cut is None:
                    cut = self.facts.cuts[c] = Cut(c, STORAGE_REBOUND, template.tensor, function=template.function)
                    cut.written, cut.into = template.written, template.into
                if origin(c) is not None:
                    self.add_upstream(cut, upstream)  # (no walk of this module names what it starves)
                else:
                    # (the helper's own walk names what it knows for models, `gen@load_head`, resolved
                    # to this call's `hyper`; this call's names go to the coverage keys)
                    probe = Cut(c, cut.kind, cut.tensor)
                    self.add_upstream(probe, upstream)
                    cut.keys |= probe.keys
                self.add_upstream(cut, handed_on)
                cuts[c] = EMPTY  # (nothing attached beside it in the model: what it computes adds that)
            if cuts:
                self.env[name] = replace(held, cuts={**held.cuts, **cuts})
        # (what records nothing saves nothing: `unitwise_norm(p.detach())`'s norm saved no output)
        recorded = self.nograd is None and (out.attached or out.live or not out.const)
        if recorded and summary.saved_output is not None:
            out = replace(out, saved=frozenset({summary.saved_output}))
        if recorded and summary.saved_parts:
            self.element_saves[node] = summary.saved_parts
        if summary.built_parts:
            self.element_built[node] = summary.built_parts
        if summary.rows:
            # what a helper returns rows of (`rows = collect(actor, 8)`), each position in this
            # call's names: `[row[2] for row in rows]` holds what computed the log-probabilities
            out = replace(out, container=True, tensor=False, rows=tuple(
                Value(trainables=self._part_trainables(params, mine, given, receiver, summary, own),
                      tensor=tensor, computed=not plain, const=plain, plain=plain)
                for params, mine, tensor, plain in summary.rows))
        if summary.trained_parts:
            owner = dotted(node.func.value) if summary.method and type(node.func) is ast.Attribute else None
            if summary.method and getattr(summary.node, "name", None) in ("forward", "__call__") \
                    and not (type(node.func) is ast.Attribute and node.func.attr in ("forward", "__call__")):
                # (`q1, q2 = self.critic(s, a)` of `return self.Q1(x), self.Q2(x)`: the module's
                # members by its name, `self.critic.Q1`, so that a step of an optimizer over one
                # of them is told apart from the other's)
                owner = dotted(node.func)
            if summary.cut_parts:
                self.element_cuts[node] = summary.cut_parts
            if summary.part_shape:
                self.element_shape[node] = summary.part_shape
            if summary.pulled_parts:
                self.element_pulled[node] = summary.pulled_parts
            if summary.const_parts:
                self.element_const[node] = summary.const_parts
            if summary.container_parts:
                self.element_container[node] = summary.container_parts
            self.element_trained[node] = tuple(
                self._part_trainables(params, mine, given, receiver, summary, own, owner)
                for params, mine in summary.trained_parts)
            if len(summary.post_parts) == len(summary.trained_parts) and any(p or m for p, m in summary.post_parts):
                self.element_post[node] = tuple(
                    self._part_trainables(params, mine, given, receiver, summary, own, owner)
                    for params, mine in summary.post_parts)
            # (the tuple kept whole, `t = regress(d, p)`: its elements, for what copies it whole,
            # `torch.Tensor(t)`)
            out = replace(out, parts=tuple(self.returned_element(node, out, self.element_trained[node], k)
                                           for k in range(len(summary.trained_parts))))
        for inner, ks in summary.retains_from or ():
            # `x, l = self.rollout_step(x, truth)` in a loop, the step calling
            # `loss.backward(retain_graph=True)` on what it computes from `x`: the state this loop
            # feeds back carries every earlier step's graph into that backward
            carried = [k for k in ks if k in given and given[k].carried]
            if self.loops and carried and self.nograd is None and self.record:
                root = union([given[k] for k in carried])
                self.backward(inner, handed[carried[0]], root, True, False)
                self.facts.call_sites.setdefault(inner, node)
        for switch, name, held in summary.switched_returns:
            if out.rebuilt and self.record and self.nograd is None and origin(switch) is not None:
                # `loss = loss_fn(…)` of another file's helper that switched on the copy it
                # returns: that switch silenced the error this caller's backward would raise
                # (the copy switched, as the callee returns it on that path: nothing attached, the
                # path that keeps history is the other arm's)
                # (the copies the switched name held: `A` and `rhs` each switch their own)
                rebuilt = (out.rebuilt & held) or out.rebuilt
                copy = Value(tensor=True, computed=True, rebuilt=rebuilt,
                             cuts={c: EMPTY for c in out.cuts if c in rebuilt})
                self.facts.switches.append(Switch(switch, name, copy, False, Function(summary.node, summary.node.name)))
                self.facts.call_sites.setdefault(switch, node)
        for k, switch in summary.switched_params.items():
            value = given.get(k)
            if value is not None and (value.nograd or value.lost) and not (value.attached or value.live) \
                    and self.record and self.nograd is None:
                # `self.g_step(sr, hr)` handed `sr` a `no_grad` method made: its switch hides that
                self.facts.switches.append(Switch(switch, summary.params[k], value, False,
                                                  Function(summary.node, summary.node.name)))
                self.facts.call_sites.setdefault(switch, node)
        trained = frozenset().union(*(given[k].trainables for k in summary.trains_params if k in given))
        if trained and self.record and self.nograd is None:
            # `reinforce_update(traj, …)` backpropagating the value loss of the rollout it is handed
            self.facts.trained_by_calls.append((node, trained))
        for k in summary.trains_params:
            # (`task_grads(losses)` backpropagating each loss of the list it is handed: their
            # graphs are freed by it)
            if k in handed and type(handed[k]) is ast.Name and self.lookup(handed[k].id).container:
                self.consumed.add(handed[k].id)
        for k, retain, create, stepped, inner, derived in summary.backprops_param or ():
            # `self.take_optimisation_step(self.actor_optimizer, actor_loss)`: a backward of
            # what this call hands the helper, at this call
            if k not in handed or self.nograd is not None:
                continue
            if derived and not (given[k].computed and given[k].module is None):
                continue  # (a loss the helper computes by applying the model it is handed)
            self.backward(node, handed[k], given[k], retain, create, inner=inner)
            if self.record:
                self.facts.call_sites.setdefault(inner, node)
            owner = dotted(node.func.value) if type(node.func) is ast.Attribute else None
            for j in stepped:  # `optimizer.step()` inside it, on the optimizer this call hands it
                if type(j) is tuple:  # the receiver's own (`self.opt_d` of `self.update_d(loss)`)
                    self.receiver_step(node, owner, j)
                    continue
                name = dotted(handed[j]) if j in handed else None
                covers = self.facts.optimizers.get(self.key(name)) if name else None
                self.note_step(covers)
                if covers and self.record:
                    # (`update_params(self.q1_optim, q1_loss)` stepping the optimizer it is handed:
                    # a loss recorded before this call through what it updates is stale after it,
                    # reported at this call)
                    self.pending_steps.append((node, name, self.seq, covers))
                    self.mark_stale(node, covers)
        if summary.own_steps and self.nograd is None and type(node.func) is ast.Attribute:
            # (`ml.end_iteration()` backpropagating its own last loss and stepping its own
            # optimizer: a loss recorded before this call through those members is stale after it)
            for j in summary.own_steps:
                self.receiver_step(node, dotted(node.func.value), j)
        # (the call itself runs before its own switch: only what follows it is unrecorded)
        if self.nograd is not None and summary.backprops and self.record \
                and _guard_passes(summary, summary.backward, handed, self.evaluated_before(node)) \
                and not (summary.reenables is not None and not _inference_region(self.nograd, self.imports)
                         and _guard_passes(summary, summary.reenables, handed, self.evaluated_before(node))):
            self.facts.nograd_backprops.append(BackpropUnderNoGrad(
                node, shown, summary.backward, self.nograd, self.function))
        elif self.nograd is not None and summary.inference_backward is not None and self.record \
                and _inference_region(self.nograd, self.imports):
            self.facts.nograd_backprops.append(BackpropUnderNoGrad(
                node, shown, summary.inference_backward, self.nograd, self.function))
        elif summary.inference_backward is not None and self.nograd is None:
            self.facts.backprop_calls.append((node, self.function, not summary.backprops))
        if summary.switches_off is not None and self.nograd is None:
            # `detector = load_detector()` whose body ends with `torch.set_grad_enabled(False)`:
            # nothing this function computes after the call is recorded
            self.nograd = summary.switches_off
            self.facts.call_sites.setdefault(summary.switches_off, node)
        if self.loops and not summary.method:
            out = self.carry_handed_state(summary, handed, given, out)
        if summary.stale_return and self.nograd is None and self.record and receiver is not None:
            out = self.stale_from_the_call(node, summary, out)
        if summary.nograd and summary.method and self.nograd is None:
            # (`self.seg_model.predict(enhanced)`, a method of another file's class decorated to
            # run under no_grad, handed activations: their history is cut there, at its decorator,
            # as by a module whose forward is decorated)
            other = origin(summary.node)
            handed_values = [v for k, v in given.items() if k != 0]
            region = nograd_decorator(summary.node, other.imports) if other is not None else None
            args = union(handed_values) if handed_values else CONST
            # (a module's forward's own inputs are activations: a loss module's `enhanced`)
            forward = self.cls is not None and self.function.name in ("forward", "__call__")
            # (not a summary's own parameter, `%1`: what its callers hand it says whether it had history)
            handed = {r for r in args.trainables | args.post if not r.startswith("%")}
            if region is not None and (handed or forward and args.inputs):
                other.own([region])  # (its line is that file's: the finding is this call's)
                self.facts.call_sites.setdefault(region, node)
                cut = self.no_history_call(node, args, region=region, inputs=forward)
                if cut.cuts:
                    # (the receiver is the model applied after the cut, as in `seg(x.detach())`)
                    out = replace(out, cuts={**out.cuts, **cut.cuts},
                                  post=out.post | (receiver.trainables if receiver is not None else EMPTY))
        return out

    def stale_from_the_call(self, node: ast.Call, summary, out: Value) -> Value:
        """What a method returns, recorded before it edited the receiver's parameters in place
        (`pred = self.model(x)`, then `self.model.load_state_dict(self.keep_weight)`): stale
        after the call, as a value recorded here before a step written here is."""
        owner = dotted(node.func.value) if type(node.func) is ast.Attribute else dotted(node.func)
        if owner is None:
            return out
        stale = set(out.stale)
        own = once("node-ids", self.facts.module, lambda module: {id(n) for n in iter_nodes(module)})
        for step, member in summary.stale_return:
            if id(step) not in own:
                continue  # (another file's method: its own file reports the edit, at its line)
            name = owner + member[member.index("."):]
            self.facts.call_sites.setdefault(step, node)
            self.pending_steps.append((step, name, self.seq, frozenset({self.key(name)})))
            stale.add((step, self.written(node)))
        return replace(out, stale=frozenset(stale))

    def note_positions(self, param: str, function: str, expr) -> None:
        """`train_and_evaluate(rank, [net_g, net_d], …)`: the model each position of a list or
        tuple display of names hands (``ModuleFacts.param_positions``), so that the callee's
        `net_g, net_d = nets` keeps the generator apart from the discriminator."""
        key, positions = f"{param}@{function}", self.facts.param_positions
        elts = expr.elts if type(expr) in (ast.List, ast.Tuple) else ()
        names = [dotted(e) for e in elts]
        if len(names) < 2 or None in names or positions.get(key, len(names)) != len(names):
            positions[key] = None
            return
        positions[key] = len(names)
        for j, name in enumerate(names):
            trainables = self.lookup(name).trainables
            if trainables:
                self.facts.param_sources.setdefault(f"{param}#{j}@{function}", set()).update(trainables)

    def carry_handed_state(self, summary, handed: dict, given: dict, out: Value) -> Value:
        """``carry_state`` for a helper handed a model whose method leaves state
        (`world_model_loss(model, obs)` calling `model.observe(obs)`, which rebinds
        `self._memory` from itself): the state of the model this call hands it."""
        for entry in sorted(summary.state):
            if not entry.startswith(SYMBOL):
                continue
            index, _, attr = entry[1:].partition(".")
            k = int(index) if index.isdigit() else None
            if k is None or k not in handed or k not in given or given[k].module is None:
                continue
            info = self.classes.get(given[k].module.qualname)
            out = self.carry_state(handed[k], _StateOf(frozenset({"self." + attr})), info, out)
        return out

    def is_optimizer(self, expr) -> bool:
        """What ``torch.optim.X(…)`` built (bound to this name here or, for ``self.opt``, in
        another method), or what the file both zeroes and steps (``opt.zero_grad()``): an
        optimizer handed in as a parameter, or one of another library. A scheduler is stepped,
        never zeroed; a module is zeroed, never stepped."""
        name = dotted(expr)
        if name is None:
            return False
        value = self.lookup(name)
        if value.optimizer or self.key(name) in self.facts.optimizers:
            return True
        if self.cls is not None and name in self.cls.optimizers:
            return True  # (built by the class's __init__: `self.opt_d = torch.optim.Adam(…)`)
        zeroed = getattr(self.facts, "_zeroed", None)
        if zeroed is None:  # computed once per module, on the first step() met
            zeroed = self.facts._zeroed = {
                dotted(n.func.value) for n in iter_nodes(self.facts.module)
                if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "zero_grad"}
        return name in zeroed and value.module is None

    def no_history_call(self, node: ast.Call, args: Value, region=None, own=EMPTY, inputs: bool = False) -> Value:
        """The result of a call that runs under no_grad (a decorated function, a module whose
        ``__call__`` disables recording): a tensor without history. Where the module's
        ``forward`` is decorated (``region``) and it is handed activations of trainables (a
        rotary embedding applied to the queries), that is a cut of their history there, and of
        the module's own parameters (``own``)."""
        cuts = {}
        # (its own parameters only where it is handed data: handed activations, what is cut is
        # theirs, and a frozen scorer of a policy's features is a reward on purpose)
        # (``inputs``: a forward's own inputs count as activations, `enhanced@input`)
        handed = args.trainables | args.post | (args.inputs if inputs else EMPTY)
        own = own if not handed else EMPTY
        if region is not None and self.nograd is None and (handed or own):
            cut = self.facts.cuts.get(node)
            if cut is None:
                cut = self.facts.cuts[node] = Cut(node, "no_grad", self.written(node), function=self.function,
                                                  loop=self.loops[-1].node if self.loops else None, region=region)
            self.add_upstream(cut, handed | own)
            cuts = {node: EMPTY}
        return replace(args, trainables=EMPTY, post=EMPTY, cuts=cuts, carried=EMPTY, stale=EMPTY,
                       nograd=args.nograd | {node}, tensor=True, computed=True, const=True, saved=EMPTY, live=False,
                       inputs=EMPTY)

    def fed_back(self, args: Value, names) -> bool:
        """Every cut ``args`` holds is a state handed in and detached (`h = h.detach()` at a
        rollout's start) that the callers computed with this very model (``names``): the model runs
        on its own earlier state, truncated recurrence, and stays beside what it computes now."""
        keys = {self.key(name.split("@")[0]) for name in names}
        cuts = [self.facts.cuts.get(c) for c in args.cuts]
        return bool(keys) and all(cut is not None and cut.upstream and all(r.endswith("@input") for r in cut.upstream)
                                  and keys <= cut.keys for cut in cuts)

    def bound_method(self, expr) -> bool:
        """``renderer.render``: a method of a class of this file, of an object a module-level
        name holds."""
        if type(expr) is not ast.Attribute or type(expr.value) is not ast.Name or self.function.name != "<module>":
            return False
        module = self.lookup(expr.value.id).module
        cls = self.classes.get(module.qualname) if module is not None else None
        return cls is not None and cls.node is not None and expr.attr in cls.methods

    def evaluated_before(self, node) -> frozenset:
        """The models this function last put in eval mode (`model.eval()`, `model.train(False)`)
        on the lines before ``node``."""
        modes = {}
        for call in sorted((n for n in iter_nodes(self.function.node, into_functions=False) if type(n) is ast.Call
                            and type(n.func) is ast.Attribute and n.func.attr in ("eval", "train")
                            and n.lineno < node.lineno), key=lambda n: (n.lineno, n.col_offset)):
            owner = dotted(call.func.value)
            if owner is not None:
                modes[owner] = call.func.attr == "eval" or (
                    bool(call.args) and type(call.args[0]) is ast.Constant and call.args[0].value is False)
        return frozenset(name for name, evaluated in modes.items() if evaluated)

    @staticmethod
    def returned_view(summary, handed: dict, given: dict) -> str | None:
        """The name whose storage the call's result may share: what it hands the one parameter
        the callee returns a view of (``Summary.views``), as written here."""
        if len(summary.views) != 1:
            return None
        (k,) = summary.views
        expr, value = handed.get(k), given.get(k)
        return _alias(expr, value) if expr is not None and value is not None and value.tensor else None

    def mix(self, value: Value, operands) -> Value:
        """``mixed``, noting in a summary's walk which parameters went through the op."""
        if self.summarizing:
            self.mixed_roots = getattr(self, "mixed_roots", frozenset()) | {
                r for o in operands for r in o.trainables if r[:1] == "%" and r[1:].isdigit()}
        return mixed(value, operands, self.facts) if value.cuts else value

    def handed_to_init(self, attr: str) -> list | None:
        """What every construction of this class in the file hands the ``__init__`` parameter that
        ``self.<attr>`` is bound to (its one binding there), each a name; None where one hands
        something else, leaves it to a default, or no construction is seen."""
        bound = _init_bindings(self.cls.init, attr)
        if len(bound) != 1 or type(bound[0]) is not ast.Name:
            return None
        params = [p.arg for p in [*self.cls.init.args.posonlyargs, *self.cls.init.args.args]][1:]
        param = bound[0].id
        if param not in params and param not in [p.arg for p in self.cls.init.args.kwonlyargs]:
            return None
        # (`def __init__(self, dist_fn=pairwise_distance)`: what a construction leaving it out binds)
        args = self.cls.init.args
        defaults = dict(zip([p.arg for p in [*args.posonlyargs, *args.args]][-len(args.defaults):], args.defaults)) \
            if args.defaults else {}
        defaults.update((p.arg, d) for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
        default = defaults.get(param) if type(defaults.get(param)) is ast.Name else None
        found = []
        constructions = class_constructions(self.facts.module).get(self.cls.name, ())
        for call, _ in constructions:
            given = {k.arg: k.value for k in call.keywords if k.arg is not None}
            if any(k.arg is None for k in call.keywords) or any(type(a) is ast.Starred for a in call.args):
                return None
            given.update({params[i]: a for i, a in enumerate(call.args) if i < len(params)})
            if param not in given and default is not None:
                found.append(default)
                continue
            if param not in given or type(given[param]) is not ast.Name:
                return None
            found.append(given[param])
        if not constructions and default is not None:
            return [default]  # (constructed in another file, or by a caller: its default at least)
        return found or None

    def handed_to_init_elsewhere(self, attr: str) -> frozenset:
        """The functions of the project (``::path::name`` keys, ``name`` may be `Class.method`)
        that every construction of this class in the files beside it hands the ``__init__``
        parameter ``self.<attr>`` is bound to, where this file builds none itself."""
        project = self.imports.project
        if project is None or self.cls.name in class_constructions(self.facts.module):
            return EMPTY
        bound = _init_bindings(self.cls.init, attr)
        if len(bound) != 1 or type(bound[0]) is not ast.Name:
            return EMPTY
        params = [p.arg for p in [*self.cls.init.args.posonlyargs, *self.cls.init.args.args]][1:]
        if bound[0].id not in params:
            return EMPTY
        key = (self.cls.name, attr)
        memo = self.facts.handed_to_init
        if key not in memo:
            found = project.handed_functions(self.cls.name, params).get(bound[0].id, EMPTY)
            memo[key] = frozenset(f"::{path}::{name}" for path, name in found)
        return memo[key]

    def bound_functions_call(self, node: ast.Call, bindings: list, positional, keywords) -> Value | None:
        """A call of what ``bindings`` bind, each a function of this file or of another file of
        the project (either branch of a conditional): their results joined; None where one of
        them is something else."""
        names = []
        for expr in bindings:
            names += [expr.body, expr.orelse] if type(expr) is ast.IfExp else [expr]
        targets = []
        for name in names:
            if type(name) is not ast.Name:
                return None
            if name.id in self.functions and self.lookup(name.id) in (DEFINITION, NOGRAD_DEFINITION):
                targets.append(name.id)
                continue
            qualname = self.imports.qualname(name) if self.imports.project is not None else None
            summary = self.facts.callee(qualname) if qualname and name.id not in self.functions else None
            if summary is None or summary.method:
                return None
            targets.append((summary, name.id))
        results = [self.handed_call(node, t, positional, keywords) if type(t) is str
                   else self.apply_summary(node, t[0], None, self.arg_values(node), t[1]) for t in targets]
        if not results or any(r is None for r in results):
            return None
        result = results[0]
        for value in results[1:]:
            result = result.join(value)
        return result

    def handed_call(self, node: ast.Call, target: str, positional, keywords) -> Value:
        """A call of the module-level ``target`` that a caller hands a parameter: read past
        a parameter of this function of the same name (`def evaluate(net): net(X)`, handed the
        function `net`), which would otherwise lead back here. A method of a module-level
        object (`renderer.render`) is called on it."""
        if target.startswith("::"):
            # (a function of another file its callers hand: what its summary says)
            path, _, name = target[2:].rpartition("::")
            summary = self.imports.project.function_summary(path, name) if self.imports.project else None
            result = self.apply_summary(node, summary, None, self.arg_values(node), name) if summary else None
            return result if result is not None else replace(union(self.arg_values(node)) if node.args else CONST,
                                                             computed=True, saved=EMPTY)
        if "." in target:
            owner, method = target.split(".")
            # (placed where the parameter is called: the user reads `render(points)`)
            call = ast.copy_location(ast.Call(func=ast.copy_location(ast.Attribute(
                value=ast.copy_location(ast.Name(owner, ast.Load()), node.func), attr=method, ctx=ast.Load()),
                node.func), args=node.args, keywords=node.keywords), node)
            return self.expr(call)
        shadow = self.env.get(target)
        if shadow is not HANDED:
            return self.name_call(node, target, positional, keywords)
        del self.env[target]
        try:
            return self.name_call(node, target, positional, keywords)
        finally:
            self.env[target] = shadow

    def own_nograd_forward(self) -> bool:
        """This method's class decorates its forward `@torch.no_grad()`, and this is another method."""
        return self.cls is not None and self.cls.nograd_call and self.cls.nograd_region is not None \
            and self.function.name not in ("forward", "__call__")

    def own_forward_unrecorded(self, node: ast.Call) -> Value:
        """`self(x)` or `self.forward(x)` in `training_step` of a module whose forward is decorated
        `@torch.no_grad()`: the members that forward runs compute nothing autograd records."""
        own = _members_run(self.cls, "forward")
        values = self.arg_values(node)
        return self.no_history_call(node, union(values) if values else CONST, region=self.cls.nograd_region,
                                    own=own or frozenset({"self"}))

    def name_call(self, node: ast.Call, name: str, positional, keywords) -> Value:
        if self.handed and self.env.get(name) is HANDED and name in self.handed:
            # (each argument is evaluated once per statement: ``memo``)
            found = [self.handed_call(node, target, positional, keywords) for target in sorted(self.handed[name])]
            result = found[0]
            for value in found[1:]:
                result = result.join(value)
            return result
        if name in self.classes and self.lookup(name) is DEFINITION:  # `Loss(2.0)`: what its __init__ is given
            self.note_forward_arguments(f"{name}.__init__", node, positional)
        if name == "self" and self.cls is not None and self.cls.may_be_module:
            if self.own_nograd_forward():
                return self.own_forward_unrecorded(node)
            return self.apply_module(node, Value(trainables=frozenset({"self"})), self.arg_values(node), positional)
        values = self.arg_values(node)
        bound = self.env.get(name, DEFINITION)
        if self.summarizing and self.cls is None and name == self.function.name \
                and bound is DEFINITION:
            # A function calling itself, as its own summary is computed (`repackage_hidden` on
            # each part of a tuple): what it returns on the paths walked so far (the base case,
            # `return h.detach()`), not whatever its arguments carry.
            so_far = [r.value for r in self.facts.returns if r.function.node is self.function.node]
            if so_far:
                found = so_far[0]
                for value in so_far[1:]:
                    found = found.join(value)
                return replace(found, computed=True, saved=EMPTY)
        if name not in self.functions and name in self.facts.parameters and bound is DEFINITION:
            # (a helper defined in this function, `block(h0, skip=h1)`: which of its parameters
            # may require grad, as its calls here hand them)
            params = self.facts.parameters[name]
            for i, (arg, value) in enumerate(zip(_argument_nodes(node), values)):
                param = arg.arg if type(arg) is ast.keyword else (params[i] if i < len(params) else None)
                if param is not None and type(arg) is not ast.Starred and (value.attached or value.live) \
                        and value.tensor and value.module is None:
                    self.facts.live_arguments.add(f"{param}@{name}")
        if name in self.functions and (bound is DEFINITION or bound is NOGRAD_DEFINITION):
            # What this call site hands the module-level function `name`, keyed `param@name`
            # (one that returns from under no_grad too: what it computes there is still seeded).
            params = self.facts.parameters.get(name, [])
            # (``*xs`` and ``**kw`` are left out; a keyword's place in this list still counts)
            given = [(arg, value) for arg, value in zip(_argument_nodes(node), values)
                     if type(arg) is not ast.Starred and not (type(arg) is ast.keyword and arg.arg is None)]
            last = node.args[-1] if node.args else None
            if type(last) is ast.Starred and type(last.value) is ast.Call and self.element_trained.get(last.value) \
                    and not any(type(a) is ast.Starred for a in node.args[:-1]):
                # `update(opt, *rollout(policy, critic))`: each element of the tuple the helper
                # returns is handed to the parameter at its place
                first = len(node.args) - 1
                for j, trained in enumerate(self.element_trained[last.value]):
                    if trained and first + j < len(params):
                        key = f"{params[first + j]}@{name}"
                        self.facts.live_arguments.add(key)
                        self.facts.param_sources.setdefault(key, set()).update(trained)
            for i, (arg, value) in enumerate(given):
                param = arg.arg if type(arg) is ast.keyword else (params[i] if i < len(params) else None)
                if param is not None and (value.attached or value.live):
                    self.facts.live_arguments.add(f"{param}@{name}")  # it may require grad in there
                if param is not None and value.pulled and not value.rebuilt:
                    # `reinforce_update(opt, storage)`, the storage holding `.numpy()` values
                    # (a tensor copied from them is a tensor: its rebuild is where it went wrong)
                    self.note_pulled_argument(f"{param}@{name}", value)
                # (a view of one, `binarise(probs[:, 1])`: an edit of the view edits what was saved)
                saved = value.saved or (self.lookup(value.alias).saved if value.alias is not None
                                        and type(arg) is ast.Subscript else EMPTY)
                if param is not None and saved:
                    # `mask_invalid_(probs, m)` hands the helper a tensor an op saved: an edit
                    # of that parameter in the helper breaks the caller's backward.
                    self.facts.saved_arguments.setdefault(f"{param}@{name}", set()).update(saved)
                # (this helper's own input handed on, `aux_term([h], …)` in `step(logits, y, h)`:
                # what computed it is what this helper's callers handed it)
                handed = {key for key in (f"{n.split('@')[0]}@{self.function.name}" for n in value.inputs)
                          if key in self.facts.param_sources} if self.cls is None and value.inputs else set()
                if param is not None and (value.trainables or handed):
                    # `embed(encoder, x)`: inside embed(), the model `net@embed` is `encoder`.
                    self.facts.param_sources.setdefault(f"{param}@{name}", set()).update(value.trainables | handed)
                    self.note_positions(param, name, arg.value if type(arg) is ast.keyword else arg)
                    # (a list of the tensors a model computed, `[adapter(a) for …]`, is activations)
                    if value.trainables and (not ((value.computed or value.container) and value.tensor)
                                             or value.module is not None):
                        self.facts.model_arguments.add(f"{param}@{name}")
                handed = arg.value if type(arg) is ast.keyword else arg
                instance = self.instance_of(handed, value)
                if instance is None:
                    # a network of torch's, as its constructor says (what it saves)
                    instance = value.module or module_info(handed, self.imports, self.classes)
                if param is not None:
                    handed = arg.value if type(arg) is ast.keyword else arg
                    key = f"{param}@{name}"
                    if self.facts.handed_functions.get(key, EMPTY) is not None:
                        # (None once some call hands it anything but a function of this file, or
                        # a method of an object the module binds, `renderer.render`)
                        self.facts.handed_functions[key] = (
                            self.facts.handed_functions.get(key, EMPTY) | {handed.id}
                            if type(handed) is ast.Name and handed.id in self.functions
                            and (value is DEFINITION or value is NOGRAD_DEFINITION)
                            else self.facts.handed_functions.get(key, EMPTY) | {dotted(handed)}
                            if self.bound_method(handed)
                            # (its own parameter handed on: the functions its callers hand)
                            else self.facts.handed_functions.get(key, EMPTY) | self.handed[handed.id]
                            if type(handed) is ast.Name and value is HANDED and handed.id in self.handed else None)
                    function = (type(handed) is ast.Name and (
                        (handed.id in self.functions and (value is DEFINITION or value is NOGRAD_DEFINITION))
                        or (handed.id not in self.env and self.imported_function(handed)))) or (
                        # (`train(model, F.smooth_l1_loss)`: one of torch's functions, as measured)
                        type(handed) in (ast.Name, ast.Attribute) and (self.imports.qualname(handed) or "").startswith("torch.")
                        and torch_types.result_of(self.imports.qualname(handed)) is not None)
                    if not (function and instance is None):
                        # (a function of this file handed by another call, `train(giou_loss)`
                        # beside `train(GIoULoss())`, leaves the instance what the others hand)
                        self.facts.param_instances.setdefault(f"{param}@{name}", set()).add(instance)
                    key = f"{param}@{name}"
                    if key not in self.facts.handed_rows or self.facts.handed_rows[key] is not None:
                        # (a call that hands something else makes the rows unknown there)
                        seen = self.facts.handed_rows.get(key, value.rows)
                        self.facts.handed_rows[key] = joined_rows(seen, value.rows)
        args = union(values) if values else CONST
        if name in ("float", "int") and values:
            arg = values[0]
            if arg.tensor or arg.attached or arg.live or arg.nograd:
                # (what a callable of unknown kind returned from tensors with history, `float(lpips(out,
                # y))`, is pulled too)
                if name == "float" and (arg.tensor or arg.computed and not arg.const) and not arg.plain \
                        and (arg.trainables or arg.post or arg.inputs):
                    self.note_pull(node, arg)  # (`float(loss)`, as `loss.item()`)
                return Value(pulled=arg.pulled | {node}, nograd=arg.nograd, rebuilt=arg.rebuilt, computed=True,
                             const=True, plain=True, cuts=arg.cuts)
            return replace(arg, computed=True, tensor=False, const=True, plain=True)
        if name in PLAIN_BUILTINS and name not in self.env:
            return PLAIN
        if name in CONST_BUILTINS:
            return CONST
        if name == "sum" and name not in self.env and len(node.args) == 1 and not node.keywords \
                and type(node.args[0]) in (ast.List, ast.Tuple) and args.cuts \
                and not any(type(e) is ast.Starred for e in node.args[0].elts):
            # `sum([gamma * l2(model), loss])`: the terms added up, as `+` adds them (a term of
            # cut values alone beside attached ones is a dead term)
            terms = [self.expr(e) for e in node.args[0].elts]
            return replace(joined(union(terms), terms, self.facts.switched_off), computed=True,
                           container=False, parts=None, saved=EMPTY, alias=None)
        if name in PASSTHROUGH_BUILTINS:
            if name in ("list", "tuple", "dict", "set", "sorted") and name not in self.env:
                # `outputs = list(outputs)`: a new container of the tensors, none of them a view
                # of it (`outputs[0] = proj(embed)` rebinds a slot, editing no tensor)
                parts = [p for v in values for p in (v.parts or ())]
                return replace(args, computed=args.computed, container=True, saved=EMPTY, alias=None,
                               held=_held([*values, *parts]))
            return replace(args, computed=args.computed)
        if name == "map" and name not in self.env and len(positional) == 2 and not keywords \
                and _detaches(positional[0], self.imports):
            return self.map_detach(node, positional[1], values[1])
        if name in self.env and (self.env[name].module is not None or self.env[name].trainables):
            return self.apply_module(node, self.env[name], values, positional)
        if name not in self.env and name in self.globals and (self.globals[name].module is not None or self.globals[name].trainables):
            return self.apply_module(node, self.lookup(name), values, positional)
        bound = self.env.get(name, DEFINITION)
        if bound is NOGRAD_DEFINITION or (self.functions.get(name) and bound is DEFINITION):
            summary = self.facts.callee(name) if name in self.functions else None
            if summary is not None and summary.cuts:
                # It returns from under no_grad what it computed there from what it is given:
                # the result carries those no_grad cuts (where the history was lost).
                result = self.apply_summary(node, summary, None, values, name)
                if result is not None:
                    return replace(self.no_history_call(node, args), cuts=result.cuts)
            return self.no_history_call(node, args)  # it returns from under no_grad
        if name in self.functions and bound is DEFINITION:
            # A function of this file: what its body does to what it is given (a helper that
            # detaches its argument returns it without history; one that computes under no_grad
            # returns it cut there). One defined later, or not in this file, stays unknown.
            result = self.apply_summary(node, self.facts.callee(name), None, values, name)
            if result is not None:
                return result
        return replace(args, computed=True, saved=EMPTY)

    def models_after_cut(self, out: Value, given: dict) -> Value:
        """``run_d(disc, fake.detach())``: a function handed models and values cut, and nothing
        else with history, applies the models after the cut: ``post``, as a module's call of the
        cut value is (the discriminator of a generator's loss, which the generator's step does
        not update), not trainables beside the cut."""
        models, cut = [], []
        for value in given.values():
            if value.trainables and not (value.computed or value.tensor or value.container or value.cuts
                                         or value.post or value.inputs):
                models.append(value)
            elif value.cuts and not (value.trainables or value.post or value.inputs or value.live or value.carried):
                cut.append(value)
            elif value.attached or value.live or value.trainables or value.inputs or value.post:
                return out
        if not (models and cut):
            return out
        moved = frozenset().union(*(m.trainables for m in models)) & out.trainables
        cuts = set().union(*(v.cuts for v in cut))
        # (not a model's own output cut and handed back with it: truncated recurrence)
        if not moved or any(self.facts.cuts[c].upstream & moved for c in cuts if c in self.facts.cuts):
            return out
        return replace(out, trainables=out.trainables - moved, post=out.post | moved,
                       cuts={c: (held - moved if c in cuts else held) for c, held in out.cuts.items()})

    def carry_state(self, owner_expr, summary, info, result: Value, shown: str | None = None) -> Value:
        """A call, in a loop, of a model whose method leaves state holding this call's history
        (``Summary.state``, of the class ``info``): where the model outlives the iteration and the
        iteration neither assigns that state nor calls a method that does (a reset), the next
        call builds on this one's graph. The result carries the state's name (``model.hidden``;
        ``RunningNorm.running_mean`` for a member ``shown`` by its class)."""
        owner = dotted(owner_expr)
        if owner is None:
            return result
        head = owner.split(".")[0]
        names = set()
        for attr in summary.state:
            name = (shown or owner) + attr[4:]
            for loop in self.loops:
                if head not in loop.assigned and not _resets(loop.node, owner, attr, info):
                    loop.state = loop.state | {name}
                    names.add(name)
        if not names:
            return result
        self.state_names |= names
        return replace(result, carried=result.carried | names)

    def carry_member_state(self, receiver: ast.expr, state: frozenset, result: Value) -> Value:
        """``carry_state`` of a method of this object whose calls leave state (``self.x``) or its
        members' state (``self.policy.lstm_hidden``), each judged on the object that holds it."""
        by_owner: dict = {}
        for name in state:
            owner, _, attr = name.rpartition(".")
            by_owner.setdefault(owner, set()).add("self." + attr)
        for owner, attrs in sorted(by_owner.items()):
            expr = receiver if owner == "self" else ast.parse(dotted(receiver) + owner[4:], mode="eval").body
            module = self.lookup(dotted(expr)).module if owner != "self" else None
            info = self.cls if owner == "self" else self.classes.get(module.qualname) if module is not None else None
            result = self.carry_state(expr, _State(frozenset(attrs)), info, result)
        return result

    def apply_module(self, node: ast.Call, callee: Value, values: list[Value], positional, method: bool = False) -> Value:
        """A call of a trainable object (a module, ``self.layer``, a model): its roots join the result,
        and what its parameters were rebound to without history (``rebound_storage``)."""
        out = self.module_output(node, callee, values, positional, method)
        rebound = {c: held for c, held in callee.cuts.items()
                   if c in self.facts.cuts and self.facts.cuts[c].kind == STORAGE_REBOUND}
        if rebound and (not method or (type(node.func) is ast.Attribute and node.func.attr == "forward")):
            # (`m.forward(x)` runs what `m(x)` runs)
            out = replace(out, cuts={**out.cuts, **rebound})
        return out

    def module_output(self, node: ast.Call, callee: Value, values: list[Value], positional, method: bool) -> Value:
        args = union(values) if values else CONST
        if self.loops and args.carried and callee.trainables:
            self.loops[-1].fed = self.loops[-1].fed | callee.trainables
        module = callee.module
        if module is not None and not method and module.qualname in self.classes:
            self.note_forward_arguments(module.qualname, node, positional)
        if module is not None and module.nograd_call and not method:  # (`pipe.denoise(…)` records)
            cls = self.classes.get(module.qualname)
            if cls is None:  # (a pipeline of another file whose `__call__` is `@torch.no_grad()`)
                cls, _ = self.project_class(module.qualname, self.imports)
            # (its own parameters too: a tower built frozen, `unfreeze()`d and handed to the
            # optimizer, still computes nothing autograd records)
            own = callee.trainables if module.parameters else EMPTY
            return self.no_history_call(node, args, region=cls.nograd_region if cls is not None else None, own=own)
        qualname, receiver = self.summarized_callee(node, callee, method)
        if qualname is not None and module is None and not method and self.nograd is None:
            cls = self.classes.get(qualname)
            if cls is None or cls.nograd_region is None:
                cls, _ = self.project_class(qualname, self.imports)
            if cls is not None and cls.nograd_region is not None and cls.parameters:
                # (a member of a class of another file whose forward is decorated, known by its
                # summary: as a module of this file whose `__call__` records nothing)
                return self.no_history_call(node, args, region=cls.nograd_region, own=callee.trainables)
        if qualname is not None:
            summary = self.facts.callee(qualname)
            if method and summary is not None and summary.method and origin(summary.node) is None:
                self.note_method_arguments(node, summary, qualname, values)
            result = self.apply_summary(node, summary, receiver, values, qualname)
            if result is not None and args.cuts and not method:
                # `self.D(x_fake.detach())` of a class another file defines: the model applied
                # after the cut is `post`, as for a module this walk cannot read, not a trainable
                # beside the cut (a generator step through a discriminator it does not step)
                moved = result.trainables & callee.trainables
                # (not the model's own output cut and handed back, `model(x, hidden.detach_())`:
                # truncated recurrence, the model beside its own earlier state)
                if moved and not any(self.facts.cuts[c].upstream & moved for c in args.cuts if c in self.facts.cuts) \
                        and not self.fed_back(args, moved):
                    result = replace(result, trainables=result.trainables - moved, post=result.post | moved,
                                     cuts={c: (held - moved if c in args.cuts else held) for c, held in result.cuts.items()})
            if result is not None:
                if summary.state and self.loops:
                    owner = node.func.value if method and type(node.func) is ast.Attribute else node.func
                    result = self.carry_state(owner, summary, self.classes.get(qualname.split(".")[0]), result)
                elif summary.state and callee.trainables == frozenset({"self"}) and self.cls is not None \
                        and not self.summarizing:
                    # `prediction = self(x)` in a method, the forward leaving `self.state` built on
                    # what it held: what this call backpropagates reaches every earlier call's
                    # graph (``Backward.across_calls``)
                    result = replace(result, carried=result.carried | {STATE_MARK + name for name in summary.state})
                elif summary.state and method and type(node.func) is ast.Attribute \
                        and len(callee.trainables) == 1 and next(iter(callee.trainables)).startswith(SYMBOL) \
                        and next(iter(callee.trainables))[1:].isdigit():
                    # `model.observe(obs)` in a helper handed `model`, the method leaving
                    # `self._memory` built on what it held: the state of what its caller hands it
                    # (``carry_handed_state``)
                    root = next(iter(callee.trainables))
                    self.state_called |= {root + name[4:] for name in summary.state if name.startswith("self.")}
                elif summary.state and self.cls is not None and not method and type(node.func) is ast.Attribute \
                        and (dotted(node.func) or "").count(".") == 1 and dotted(node.func).startswith("self."):
                    # `self.shifter(amps)` in a forward, the member leaving `history` built on
                    # what it held: the state this model's calls carry too (`self.shifter.history`)
                    self.state_called |= {dotted(node.func) + name[4:] for name in summary.state}
                elif not summary.state and self.loops and method and type(node.func) is ast.Attribute \
                        and (result.trainables or result.post or result.tensor or result.computed):
                    # `model.draw()` after `model.sim_step()` in the loop, which left `model.states`
                    # built on what it held: what the model computes now reads that state
                    owner = dotted(node.func.value)
                    held = {n for loop in self.loops for n in loop.state if owner and n.startswith(owner + ".")}
                    if held:
                        result = replace(result, carried=result.carried | held)
                return result
        names = callee.trainables
        if args.cuts and len(values) > 1:
            args = scaled(args, values)  # `self.criterion(pred, target.detach())`
        if module is not None and module.qualname.split(".")[-1] not in LINEAR:
            args = self.mix(args, values)  # `self.act(a - b.detach())`
        if args.cuts and not self.fed_back(args, names):
            out = replace(args, post=args.post | names)
        else:
            out = replace(args, trainables=args.trainables | names)
        # A layer of torch that needs its weight only for its input's gradient saves none of it
        # where the input has no history.
        weightless = (out.weightless | names) if module is not None and module.qualname in WEIGHT_FOR_INPUT \
            and not (args.attached or args.live) else out.weightless - names
        out = replace(out, carried=args.carried | callee.carried, tensor=True, computed=True, const=False,
                      saved=EMPTY, module=None, optimizer=False, weightless=weightless,
                      plain=out.plain and not (method and module is not None and names))  # (a model's method of a number: a tensor)
        if module is None or method or self.nograd is not None:
            return out
        # (`self.first_dense_layers[l]`: the module as written, whatever selects it)
        shown = dotted(node.func) or self.facts.code(node.func)
        if self.loops and module.qualname not in self.classes:
            # a container of the file's modules (`nn.Sequential(…, RunningNorm(5), …)`): the
            # state its members carry from call to call
            for member in sorted(self.facts.members.get(self.key(shown), ())):
                summary = self.facts.callee(member)
                if summary is not None and summary.state:
                    out = self.carry_state(node.func, summary, self.classes.get(member), out, shown=member)
        if module.inplace and positional:
            self.edit_of(node, positional[0])
        if module.renorms and dotted(node.func) is not None and self.nograd is None:
            # `nn.Embedding(…, max_norm=1.0)(ids)` rescales the rows it looks up in `.weight` in place
            # (under no_grad, as its note says): an op that saved the weight before is invalidated
            self.edit(node, f"{dotted(node.func)}.weight", node)
        save = Save.at(shown, node)
        if module.saves_input and positional:
            self.mark_saved(positional[0], save)
        if module.saves_args and self.nograd is None and (args.attached or args.live):
            # (`self.ce(output, target)` saves `target` for the gradient of `output`)
            for i in sorted(module.saves_args):
                if i < len(positional):
                    self.mark_saved(positional[i], save)
        if module.saves_output and module.qualname in TUPLE_OUTPUTS:
            # (`o, (h, c) = self.rnn(x)`: the LSTM saves its output sequence, not its last state)
            self.element_saves[node] = (save, None)
        elif module.saves_output:
            out = replace(out, saved=frozenset({save}))
        return out


@dataclasses.dataclass(frozen=True)
class _StateOf:
    """What ``Walker.carry_state`` reads of a summary: the state its call leaves."""
    state: frozenset


# Layers returning a tuple whose first element is the output they save for backward (measured:
# an LSTM's output edited in place fails its backward; its `(h_n, c_n)` does not)
TUPLE_OUTPUTS = frozenset({"torch.nn.LSTM"})


HOLDERS = frozenset({"tensor", "dict", "list", "tuple"})  # what may hold a tensor with history


def _historied(value: Value | None) -> bool:
    return value is not None and bool(value.trainables or value.post or value.carried)


def _differentiates_in_eval(module: ast.Module) -> bool:
    """Whether some function of the module (or its top level) calls backward() or
    autograd.grad() after putting a model in eval mode (`model.eval()`, `.train(False)`) and
    before putting it back (`.train()`): an adversarial attack on a model in eval mode, or a
    fine-tuning that freezes batch statistics. Its eval-mode code is then differentiated, and
    is no eval-only code."""
    for scope in [module, *(n for n in iter_nodes(module) if type(n) in FUNCTIONS)]:
        evaluating = False
        for node in iter_nodes(scope, into_functions=False):
            if type(node) is not ast.Call or type(node.func) is not ast.Attribute:
                continue
            attr = node.func.attr
            if attr == "eval" and not node.args:
                evaluating = True
            elif attr == "train":
                evaluating = bool(node.args) and type(node.args[0]) is ast.Constant and node.args[0].value is False
            elif evaluating and (attr == "backward" or (attr == "grad" and dotted(node.func.value) in ("autograd", "torch.autograd"))):
                return True
    return False


def _init_bindings(init: ast.AST, attr: str) -> list:
    """What ``__init__`` assigns ``self.<attr>``, binding by binding."""
    return [stmt.value for stmt in ast.walk(init) if type(stmt) is ast.Assign and len(stmt.targets) == 1
            and type(stmt.targets[0]) is ast.Attribute and stmt.targets[0].attr == attr
            and type(stmt.targets[0].value) is ast.Name and stmt.targets[0].value.id == "self"]


def _built_in_init(init: ast.AST, attr: str) -> ast.expr | None:
    """What ``self.<attr> = C(…)`` in ``__init__`` calls, when that is the one call bound there."""
    found = [value.func for value in _init_bindings(init, attr)
             if type(value) is ast.Call and type(value.func) in (ast.Name, ast.Attribute)]
    return found[0] if len(found) == 1 else None


def _assigned_in_init(init: ast.AST, attr: str) -> ast.expr | None:
    """What ``__init__`` assigns ``self.<attr>``, when that is the one binding there."""
    found = _init_bindings(init, attr)
    return found[0] if len(found) == 1 else None


def _none_test(test) -> tuple[str | None, bool]:
    """(the name a test compares with None, whether it is None where the test holds):
    ``hidden is None`` -> ("hidden", True), ``self.h is not None`` -> ("self.h", False)."""
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot) \
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None:
        name = dotted(test.left)
        if name is not None and name.count(".") <= 1:
            return name, type(test.ops[0]) is ast.Is
    return None, False


@dataclasses.dataclass(frozen=True)
class _State:
    """What ``Walker.carry_state`` reads of a summary: the state its calls leave."""
    state: frozenset


def _resets(loop, owner: str, attr: str, info) -> bool:
    """Whether the loop body assigns ``owner``'s state ``attr`` (``model.hidden = …``) or calls a
    method of ``owner`` that assigns it without reading it (``model.reset_state()``)."""
    name = owner + attr[4:]
    setters = set()
    if info is not None and info.node is not None:
        for stmt in info.node.body:
            if type(stmt) in FUNCTIONS:
                read, written = once("receiver-attributes", stmt, _receiver_attributes)
                if attr in written and attr not in read:
                    setters.add(stmt.name)
    for stmt in loop.body:
        for node in iter_nodes(stmt, into_functions=False):
            if type(node) is ast.Attribute and type(node.ctx) is ast.Store and dotted(node) == name:
                return True
            if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in setters \
                    and dotted(node.func.value) == owner:
                return True
    return False


def _receiver_attributes(function) -> tuple[frozenset, frozenset]:
    """The receiver's attributes (``self.x``) the function's own body reads, and assigns (or, where
    it backpropagates, keeps appending to without emptying)."""
    read, written, grown, cleared = set(), set(), set(), set()
    for stmt in function.body:
        for node in iter_nodes(stmt, into_functions=False):
            if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == "self":
                (written if type(node.ctx) is ast.Store else read).add("self." + node.attr)
            elif type(node) is ast.Call and type(node.func) is ast.Attribute and type(node.func.value) is ast.Attribute \
                    and type(node.func.value.value) is ast.Name and node.func.value.value.id == "self":
                # (`self.outputs.append(out)`: a list the receiver keeps growing from call to call,
                # unless the call empties it, `self.outputs.clear()`)
                if node.func.attr in ("append", "extend"):
                    grown.add("self." + node.func.value.attr)
                elif node.func.attr == "clear":
                    cleared.add("self." + node.func.value.attr)
    # (only where the method backpropagates what it keeps: a rollout appending its transitions
    # for another method to read is no state a backward of its own reaches)
    backpropagates = any(type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "backward"
                         for n in iter_nodes(function, into_functions=False))
    return frozenset(read), frozenset(written | (grown - cleared if backpropagates else set()))


def _handed_arguments(call: ast.Call, handed_in: tuple) -> list:
    """The arguments ``call`` hands the constructor parameters ``handed_in`` ((position, name) with
    the receiver left out)."""
    out = []
    for index, param in handed_in:
        if index < len(call.args) and not any(type(a) is ast.Starred for a in call.args[:index + 1]):
            out.append(call.args[index])
        else:
            out += [k.value for k in call.keywords if k.arg == param]
    return out


def _parameters_of(model: ast.expr) -> ast.Call:
    """A stand-in optimizer call over ``model``'s parameters (``Adam(model.parameters())``), for
    ``Walker.coverage`` to read."""
    params = ast.Call(func=ast.Attribute(value=model, attr="parameters", ctx=ast.Load()), args=[], keywords=[])
    call = ast.Call(func=ast.Name(id="Adam", ctx=ast.Load()), args=[params], keywords=[])
    for node in (params, params.func, call, call.func):
        ast.copy_location(node, model)
        node.end_lineno, node.end_col_offset = model.end_lineno, model.end_col_offset
    return call


def _rebound_globals(function) -> frozenset:
    """The module's names a function declares ``global`` and rebinds from themselves (`global
    hidden`, then `out, hidden = rnn(x, hidden)`): state kept from call to call."""
    declared = {name for node in iter_nodes(function, into_functions=False) if type(node) is ast.Global
                for name in node.names}
    if not declared:
        return EMPTY
    rebound = set()
    for node in iter_nodes(function, into_functions=False):
        if type(node) in (ast.Assign, ast.AugAssign):
            targets = node.targets if type(node) is ast.Assign else [node.target]
            written = {n.id for t in targets for n in ast.walk(t) if type(n) is ast.Name} & declared
            read = {n.id for n in ast.walk(node.value) if type(n) is ast.Name}
            rebound |= written & (read | ({node.target.id} if type(node) is ast.AugAssign
                                          and type(node.target) is ast.Name else set()))
    return frozenset(rebound)


def _rebound_by_arithmetic(cls: ast.ClassDef) -> frozenset:
    """``self.x`` names a method of the class other than ``__init__`` binds to the result of
    arithmetic (``self.x = self.x + …``) or of a cast (``self.x = self.x.to(device)``, which
    makes a plain tensor of a parameter moved or converted)."""
    found = set()
    for method in cls.body:
        if type(method) not in FUNCTIONS or method.name == "__init__":
            continue
        for node in iter_nodes(method, into_functions=False):
            if type(node) is ast.Assign and (type(node.value) is ast.BinOp or (
                    type(node.value) is ast.Call and type(node.value.func) is ast.Attribute
                    and node.value.func.attr in CAST_METHODS - {"clone", "contiguous"})):
                found.update(name for name in map(dotted, node.targets)
                             if name and name.startswith("self.") and name.count(".") == 1)
    return frozenset(found)


def _records_set_later(cls: ast.ClassDef) -> frozenset:
    """``self.x`` names that ``__init__`` never binds (but to None) and another method binds to one of its
    own arguments (``setup_stats(self, speaker_stats)``), read only as a field of an element
    (``self.speaker_stats[k].mean``): a table of records handed in after construction, no
    parameter or submodule the model registered when it was built."""
    handed, bound_in_init = set(), set()
    for method in cls.body:
        if type(method) not in FUNCTIONS:
            continue
        params = {a.arg for a in [*method.args.posonlyargs, *method.args.args, *method.args.kwonlyargs]}
        for node in iter_nodes(method, into_functions=False):
            if type(node) in (ast.Assign, ast.AnnAssign, ast.AugAssign):
                for target in node.targets if type(node) is ast.Assign else [node.target]:
                    name = dotted(target)
                    if not name or not name.startswith("self.") or name.count(".") != 1:
                        continue
                    if method.name == "__init__":
                        if not (type(node.value) is ast.Constant and node.value.value is None):
                            bound_in_init.add(name)  # (`self.stats = None`: a place kept for it)
                    elif type(node) is ast.Assign and type(node.value) is ast.Name and node.value.id in params:
                        handed.add(name)
                    else:
                        bound_in_init.add(name)  # (bound to something else too: not only handed in)
    found = handed - bound_in_init
    if not found:
        return frozenset()
    parents = tree_parents(cls)

    def field(node) -> bool:  # `….mean`, read, not called
        up = parents.get(node)
        return type(up) is ast.Attribute and up.value is node and type(parents.get(up)) is not ast.Call

    for node in ast.walk(cls):
        if type(node) is ast.Attribute and type(node.ctx) is ast.Load and dotted(node) in found:
            element = parents.get(node)
            if type(element) is not ast.Subscript or element.value is not node:
                found.discard(dotted(node))
                continue
            bound = parents.get(element)
            if type(bound) is ast.Assign and len(bound.targets) == 1 and type(bound.targets[0]) is ast.Name:
                # (`stat = self.speaker_stats[k]`, then `stat.mean`)
                scope = next(up for up in _ancestors(bound, parents) if type(up) in FUNCTIONS)
                reads = [n for n in ast.walk(scope) if type(n) is ast.Name and n.id == bound.targets[0].id
                         and type(n.ctx) is ast.Load]
                if not all(field(n) for n in reads):
                    found.discard(dotted(node))
            elif not field(element):
                found.discard(dotted(node))
    return frozenset(found)


def _ancestors(node, parents):
    while node in parents:
        node = parents[node]
        yield node


def _rebound_attributes(function) -> frozenset:
    """The receiver's attributes the function's own body both reads and assigns."""
    read, written = once("receiver-attributes", function, _receiver_attributes)
    return read & written


def _used_as_modules(module: ast.Module) -> set[str]:
    found = set()
    for node in iter_nodes(module):
        if type(node) is ast.Call:
            func = node.func
            if type(func) is ast.Attribute and func.attr in MODULE_USES:
                found.add(dotted(func.value))
            elif type(func) in (ast.Name, ast.Attribute):
                found.add(dotted(func))
    return found


def module_info_of_class(qualname: str, classes: dict) -> ModuleInfo:
    """What an instance of this file's class ``qualname`` is, as a constructor call says."""
    cls = classes[qualname]
    return ModuleInfo(qualname, nograd_call=cls.nograd_call, parameters=cls.parameters)


def _grad_forced_spans(node, imports) -> list[tuple]:
    """The stretches of a function where it switches grad mode on itself."""
    spans = []
    for deco in node.decorator_list:
        target = deco.func if type(deco) is ast.Call else deco
        if imports.qualname(target) in ENABLE_GRAD:
            return [((node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset))]
    for child in iter_nodes(node, into_functions=False):
        if type(child) in WITHS:
            for item in child.items:
                call = item.context_expr
                target = call.func if type(call) is ast.Call else call
                name = imports.qualname(target)
                if name in ENABLE_GRAD or (name in SET_GRAD_ENABLED and type(call) is ast.Call
                                           and literal_true(_first_argument(call))):
                    spans.append(((child.lineno, child.col_offset), (child.end_lineno, child.end_col_offset)))
    return spans


def _plain_of(value: Value) -> Value:
    """A plain value computed from ``value``: no tensor, but still what it was pulled out of
    (``[v[0] for v in pred.tolist()]``) and where history was lost on the way."""
    return replace(PLAIN, pulled=value.pulled, nograd=value.nograd, rebuilt=value.rebuilt, computed=value.computed)


# `w.detach() * x`, `x / t.detach()`: the cut value scales the other operand's gradient.
SCALING = (ast.Mult, ast.Div, ast.MatMult)
# mixed precision's loss scalers: `scale(loss)` is the loss times a number
GRAD_SCALERS = frozenset({"torch.cuda.amp.GradScaler", "torch.amp.GradScaler", "torch.cpu.amp.GradScaler",
                          "torch.cuda.amp.grad_scaler.GradScaler", "torch.amp.grad_scaler.GradScaler"})
# What joins its tensor operands by adding, stacking or selecting them: the gradient of one does
# not depend on the values of another, so a cut operand among them is a term that adds nothing.
# Every other op of two tensors (a product, a loss comparing a prediction with a target, a
# similarity) gives each operand a gradient computed from the other's values.
JOINING = frozenset({
    "add", "sub", "subtract", "add_", "sub_", "subtract_", "cat", "concat", "concatenate", "stack",
    "hstack", "vstack", "dstack", "column_stack", "row_stack", "where", "masked_fill", "masked_fill_",
    "masked_scatter", "index_add", "index_add_", "scatter", "scatter_", "scatter_add", "scatter_add_",
    "index_copy", "index_copy_", "index_put", "index_put_", "copy_", "maximum", "minimum", "fmax",
    "fmin", "max", "min", "clamp", "clip", "broadcast_tensors", "block_diag", "cartesian_prod",
})


# What is linear in its tensor operand: a term joined to others and then only reshaped, reduced
# by a sum or a mean, or multiplied by a number still adds nothing to their gradient. Through any
# other op (`(a - b.detach()).pow(2)`, `torch.exp(a - b.detach())`) the joined values shape each
# other's gradient (``mixed``).
# Layers whose backward reads their weight only to compute their input's gradient (measured:
# `tests/test_saved_tensors_data.py`): applied to an input without history, they save none of it.
# (A convolution saves its weight whatever its input.)
WEIGHT_FOR_INPUT = frozenset({"torch.nn.Linear", "torch.nn.Embedding"})
LINEAR = frozenset({
    "sum", "mean", "neg", "negative", "view", "view_as", "reshape", "transpose", "permute", "t",
    "flatten", "unflatten", "squeeze", "unsqueeze", "expand", "expand_as", "contiguous", "clone",
    "to", "cpu", "cuda", "float", "double", "half", "bfloat16", "type", "type_as", "repeat", "tile",
    "narrow", "select", "split", "chunk", "unbind", "flip", "roll", "diagonal", "diag", "trace",
    "cumsum", "movedim", "moveaxis", "swapaxes", "swapdims", "index_select", "gather", "take",
    "take_along_dim", "masked_select", "mul", "multiply", "div", "divide", "true_divide", "pad",
    "dropout", "identity", "Identity", "Flatten", "Dropout",
})


def _subtracts(cut, other) -> bool:
    """``(hard - soft).detach() + soft``: the cut operand is a difference whose subtrahend is the
    very expression attached on the other side (a straight-through estimator written whole)."""
    operand = cut.func.value if type(cut) is ast.Call and type(cut.func) is ast.Attribute else \
        cut.value if type(cut) is ast.Attribute else None
    return type(operand) is ast.BinOp and type(operand.op) is ast.Sub and _same_tree(operand.right, other)


def _same_tree(a, b) -> bool:
    """Whether two expressions are written alike (``ast.dump`` would do, but leaves a cycle of
    closures behind it at each call)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_tree(x, y) for x, y in zip(a, b))
    if not isinstance(a, ast.AST):
        return a == b
    return all(_same_tree(getattr(a, f, None), getattr(b, f, None)) for f in a._fields if f != "ctx")


def joined(value: Value, operands, frozen=frozenset()) -> Value:
    """``a + w * b.detach()``: a cut term that accompanies nothing (it shapes no one's gradient)
    added to (or subtracted from) another is a dead term: the other term's history is no
    companion of it, its gradient does not depend on the cut values (unless a later op mixes
    them: ``mixed``). A cut term that does work (a target, a weight) keeps what is attached
    beside it in the whole sum (a VQ-VAE's commitment term beside its codebook term). A model
    the file switches off (``frozen``: ``ModuleFacts.switched_off``), beside the cut or applied
    after it, trains nothing there."""
    cuts, dead = {}, set()
    for cut, beside in value.cuts.items():
        # (a model applied after the cut, `probe(features.detach())`, is trained by the term;
        # a frozen one, `recognizer(y.detach())`, is not)
        own = EMPTY.union(*(o.cuts[cut] | o.post for o in operands if cut in o.cuts))
        cuts[cut] = beside if own else EMPTY
        if own and any(cut in o.cuts and not (_unfrozen(o.cuts[cut] | o.post | o.trainables, frozen) or o.inputs)
                       for o in operands):
            dead.add(cut)  # (alone in one term, at work in another)
        elif own and (handed := _handed_only(cut, operands)):
            # (a summary's term beside only what its callers hand it, `dice(probs.data, target)`:
            # dead at each call that hands those without history, `(cut, {k…})`: ``Summary.dead``)
            dead.add((cut, handed))
        elif not own and any(cut in o.cuts and cut in o.rebuilt and o.const
                             and not (o.post or o.trainables or o.inputs or o.live or o.carried) for o in operands):
            dead.add(cut)  # (a copy of constants added alone: `ce + torch.tensor(score)`)
    return replace(value, cuts=cuts, dead=value.dead | dead) if dead else replace(value, cuts=cuts)


def _unfrozen(names, frozen) -> frozenset:
    """Of ``names``, those no frozen model (``recognizer``, or a member of it) names."""
    return frozenset(n for n in names if not any(n == f or n.startswith(f + ".") for f in frozen))


def _handed_only(cut, operands) -> frozenset | None:
    """The parameters (``%k``) that alone accompany ``cut`` in one of ``operands`` (a summary
    walk's term of the cut and of arguments only), or None."""
    for o in operands:
        if cut in o.cuts and not (o.post or o.inputs):
            beside = o.cuts[cut] | o.trainables
            if beside and all(r.startswith("%") and r[1:].isdigit() for r in beside):
                return frozenset(int(r[1:]) for r in beside)
    return None


def dead_cut(entry):
    """The cut of a ``Value.dead`` entry: a cut node, or ``(cut, parameters)`` for a summary's
    term dead where its callers hand those parameters no history (``joined``)."""
    return entry[0] if type(entry) is tuple else entry


def mixed(value: Value, operands, facts=None) -> Value:
    """A cut joined to what a forward's inputs compute (``a - b.detach()``) and then put through
    an op that is not linear in the join: those inputs' gradient is computed from the cut
    values, as a target's is. Each cut is joined by the inputs of the operands it is in."""
    cuts, working = {}, set()
    for cut, companions in value.cuts.items():
        within = [operand.inputs | operand.trainables for operand in operands
                  if cut in operand.cuts and (operand.inputs or operand.trainables)]
        cuts[cut] = companions.union(*within) if within else companions
        if within and facts is not None and cut in facts.cuts and not facts.cuts[cut].of_leaf:
            working.add(cut)
    # (a term of a computed value cut alone, joined to attached ones and then put through this op,
    # `((v_old + clamp(v - v_old, -c, c)) - ret) ** 2`, shapes their gradient: no dead term any
    # more; a parameter's own values cut, `x @ self.weight.data`, still add nothing to its own)
    dead = frozenset(e for e in value.dead if dead_cut(e) not in working)
    return replace(value, cuts=cuts, dead=dead) if dead != value.dead else replace(value, cuts=cuts)


def scaled(value: Value, operands) -> Value:
    """A cut that meets what a forward's inputs compute in an op whose gradient for one operand is
    computed from the other's values (a temperature, a weight computed from detached
    similarities, a target a loss compares the prediction with): those inputs still get their
    gradient, shaped by the cut value; what the cut starves is only its own operand's gradient,
    a stop-gradient on purpose. Unlike ``bce + dice.detach()``, where the cut term adds nothing
    to the gradient at all. Each cut is joined by the inputs of the operands it is not in."""
    cuts = {}
    for cut, companions in value.cuts.items():
        beside = [operand.inputs for operand in operands if cut not in operand.cuts and operand.inputs]
        cuts[cut] = companions.union(*beside) if beside else companions
    return replace(value, cuts=cuts)


def _item_key(node: ast.Subscript):
    """``("storage", "log_prob")`` for ``storage["log_prob"]``: a plain name and a constant key."""
    if type(node.value) is ast.Name and type(node.slice) is ast.Constant and type(node.slice.value) in (str, int):
        return node.value.id, node.slice.value
    return None


JUMPS = (ast.Continue, ast.Break, ast.Return, ast.Raise)


def _backward_reads(loop) -> frozenset:
    """The names the roots of the loop body's backward calls are computed from, through the
    assignments of the body above each (a syntactic closure, in one pass's order): what each
    pass's backward reaches, and frees."""
    backwards, assigns = [], []
    for node in iter_nodes(loop, into_functions=False):
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "backward":
            backwards.append((node.lineno, {n.id for part in (node.func.value, *node.args)
                                            for n in ast.walk(part) if type(n) is ast.Name}))
        elif type(node) in (ast.Assign, ast.AugAssign, ast.AnnAssign) and node.value is not None:
            targets = node.targets if type(node) is ast.Assign else [node.target]
            written = {n.id for t in targets for n in ast.walk(t) if type(n) is ast.Name}
            assigns.append((node.lineno, written, {n.id for n in ast.walk(node.value) if type(n) is ast.Name}))
    out = set()
    for line, reads in backwards:
        before = [(w, r) for at, w, r in assigns if at < line]
        grown = True
        while grown:
            grown = False
            for written, read in before:
                if written & reads and not read <= reads:
                    reads |= read
                    grown = True
        out |= reads
    return frozenset(out)


def _jumps(block: list) -> bool:
    """Whether the block's last statement leaves it (nothing after the block runs from there):
    a jump, or a `with` whose body ends in one (`with torch.no_grad(): return …`), or an `if`
    whose both arms do."""
    if not block:
        return False
    last = block[-1]
    kind = type(last)
    return kind in JUMPS or (kind in (ast.With, ast.AsyncWith) and _jumps(last.body)) \
        or (kind is ast.If and _jumps(last.body) and _jumps(last.orelse))


# Reductions that return ``(values, indices)`` (``max``, ``min`` and ``median`` only when given a
# dimension): the indices are integers, with no history to carry.
VALUES_AND_INDICES = {"max", "min", "median", "mode", "kthvalue", "sort", "topk", "cummax", "cummin"}
DIM_OPTIONAL = {"max", "min", "median"}


def _with_indices(value: Value, op: str, rest, keywords) -> Value:
    """``confidence, labels = probs.max(dim=1)``: the second element is integer indices, with
    no history and nothing a cut above it could starve; the first is the values."""
    if op not in VALUES_AND_INDICES or (op in DIM_OPTIONAL and not rest and "dim" not in keywords):
        return value
    if op in ("max", "min") and rest and not _literal_number(rest[0]):
        return value  # `a.max(b)`: the elementwise maximum of two tensors (`-1` is a dim)
    return replace(value, parts=(value, _without_history(value)))


def _without_history(value: Value) -> Value:
    """The result of an op autograd does not differentiate (integer or bool outputs): it has no
    history, and a cut above it loses nothing, but it had history to lose (``lost``)."""
    return replace(value, trainables=EMPTY, post=EMPTY, cuts={}, carried=EMPTY, stale=EMPTY, computed=True, const=True,
                   live=False, inputs=EMPTY, saved=EMPTY, lost=value.lost or value.attached or value.live, tensor=True)


# (a method call that keeps every element's value: a view, a copy, a cast)
_ELEMENTWISE_SAME = frozenset({"view", "reshape", "expand", "expand_as", "squeeze", "unsqueeze", "flatten", "permute",
                               "transpose", "contiguous", "clone", "float", "double", "half", "to", "type_as", "view_as",
                               "detach", "detach_"})


def _linear_in(node: ast.AST, root: ast.AST) -> bool:
    """``node`` enters ``root`` through arithmetic, indexing and views only (``hard - soft.detach()``,
    ``q.detach() * (1 - m)``): the cut value itself is added, a straight-through's or a masked
    stop-gradient's term, not a loss computed of it (``kl_div(log_softmax(pred.detach()), t)``)."""
    if root is node:
        return True
    if type(root) is ast.BinOp:
        return _linear_in(node, root.left) or _linear_in(node, root.right)
    if type(root) is ast.UnaryOp:
        return _linear_in(node, root.operand)
    if type(root) is ast.Subscript:
        return _linear_in(node, root.value)
    if type(root) is ast.Attribute and root.attr == "data":
        return _linear_in(node, root.value)
    if type(root) is ast.Call and type(root.func) is ast.Attribute and root.func.attr in _ELEMENTWISE_SAME:
        return _linear_in(node, root.func.value)
    return False


# (attributes of a tensor that are no field of an object holding it)
_TENSOR_ATTRIBUTES = frozenset({"shape", "T", "mT", "device", "dtype", "data", "ndim", "is_cuda", "requires_grad"})


def _params_read_as_tensors(function) -> bool:
    """Every parameter of ``function`` is read as a tensor is: indexed, iterated, or through its
    methods, never by a field (`grad.amplitude` of an event object handed in, whose other fields,
    `grad.rise_time`, are numbers)."""
    if type(function) not in FUNCTIONS:
        return False
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args]} - {"self", "cls"}
    up = tree_parents(function)
    return not any(type(n) is ast.Attribute and type(n.value) is ast.Name and n.value.id in params
                   and n.attr not in _TENSOR_ATTRIBUTES
                   and not (type(up.get(n)) is ast.Call and up[n].func is n)
                   for n in ast.walk(function))


def _within(node: ast.AST, root: ast.AST) -> bool:
    return any(inner is node for inner in iter_nodes(root))


def _makes_own_leaves(cls: ast.ClassDef) -> bool:
    """The class binds a tensor made to be trained to an attribute of its own (`self.centres =
    torch.randn(k, d, requires_grad=True)`, `self.w = nn.Parameter(…)`): a plain class that holds
    a parameter, however it is built."""
    for node in ast.walk(cls):
        if type(node) is not ast.Assign or not any(
                type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self" for t in node.targets):
            continue
        call = node.value
        while type(call) is ast.Call and type(call.func) is ast.Attribute \
                and call.func.attr in ("to", "cuda", "cpu", "float", "double", "requires_grad_"):
            if call.func.attr == "requires_grad_" and not literal_false(_first_argument(call)):
                return True
            call = call.func.value
        if type(call) is ast.Call and (any(k.arg == "requires_grad" and literal_true(k.value) for k in call.keywords)
                                       or (dotted(call.func) or "").rpartition(".")[2] == "Parameter"):
            return True
    return False


def _attached_names(expr: ast.AST) -> set[str]:
    """The names and attributes ``expr`` reads other than through a ``.detach()`` or ``.data``."""
    found: set[str] = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("detach", "detach_"):
            continue
        if type(node) is ast.Attribute and node.attr == "data":
            continue
        if type(node) in (ast.Name, ast.Attribute):
            name = dotted(node)
            if name is not None:
                found.add(name)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _module_uses(function: ast.AST) -> dict[str, str]:
    """How the body uses each bare name: ``"module"`` where it takes what only an ``nn.Module``
    has (``net.parameters()``, ``model.eval()``), ``"called"`` where it only
    calls it (``encoder(x)``, ``net.embed(x)``)."""
    found: dict[str, str] = {}
    # (`for i, agent in enumerate(agents):` … `agent.critic.parameters()`: `agents` holds objects
    # whose members are models)
    elements: dict[str, str] = {}
    for node in iter_nodes(function, into_functions=False):
        if type(node) not in (ast.For, ast.AsyncFor):
            continue
        held, target = node.iter, node.target
        if type(held) is ast.Call and type(held.func) is ast.Name and held.func.id == "enumerate" \
                and held.args and type(target) is ast.Tuple and len(target.elts) == 2:
            held, target = held.args[0], target.elts[1]
        if type(held) is ast.Name and type(target) is ast.Name:
            elements[target.id] = held.id
    for node in iter_nodes(function, into_functions=False):
        if type(node) is not ast.Call:
            continue
        func = node.func
        if type(func) is ast.Attribute and func.attr in MODULE_ONLY:
            # (`models[s].train()`: a list of models; `agent.critic.parameters()` of a loop's element)
            base = func.value
            while type(base) in (ast.Attribute, ast.Subscript):
                base = base.value
            if type(base) is ast.Name and base.id in elements:
                found.setdefault(elements[base.id], "modules")
            elif type(base) is ast.Name and type(func.value) is ast.Subscript:
                found.setdefault(base.id, "modules")
        if type(func) is ast.Attribute and type(func.value) is ast.Name:
            if func.attr in MODULE_ONLY:
                found[func.value.id] = "module"
            else:
                found.setdefault(func.value.id, "called")
        elif type(func) is ast.Name:
            found.setdefault(func.id, "called")
    return found


def _guard_passes(summary, inner, handed: dict, evaluated=frozenset()) -> bool:
    """Whether ``inner`` (a node of the summarized function) may run in a call that hands
    ``handed`` (parameter index -> argument): False where it sits under ``if flag:`` (or ``if
    not flag:``, ``if optim is not None:``, or a conjunction of such) of a parameter this call
    gives the literal that skips it, or leaves at such a default (`self.fisher_loss(…,
    do_backward=False)` of a body that differentiates only `if do_backward:`; a validation epoch
    `do_epoch(…, optim=None)` under no_grad of one that steps only `if optim is not None:`)."""
    function = summary.node
    if inner is None or type(function) not in (ast.FunctionDef, ast.AsyncFunctionDef):
        return True
    defaults = defaults_of(function)
    path = _path_to(function, inner)
    for parent, child in zip(path, path[1:]):
        if type(parent) is not ast.If:
            continue
        wanted = child in parent.body
        decided = _truth_in_call(parent.test, summary, handed, defaults, evaluated)
        if decided is not None and decided is not wanted:
            return False
    return True


def _truth_in_call(test, summary, handed: dict, defaults: dict, evaluated=frozenset()):
    """What ``test`` of a summarized function's ``if`` is in a call that hands ``handed``: True,
    False, or None where the call does not say (``optim is not None`` of ``optim=None``; ``if
    model.training:`` of a model the caller put in eval mode, ``evaluated``)."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        inner = _truth_in_call(test.operand, summary, handed, defaults, evaluated)
        return None if inner is None else not inner
    if type(test) is ast.Attribute and test.attr == "training" and type(test.value) is ast.Name \
            and test.value.id in summary.params:
        given = handed.get(summary.params.index(test.value.id))
        return False if given is not None and dotted(given) in evaluated else None
    if type(test) is ast.BoolOp and type(test.op) is ast.And:
        parts = [_truth_in_call(v, summary, handed, defaults, evaluated) for v in test.values]
        return False if False in parts else True if all(parts) else None
    none_test = None  # (`optim is not None`: what the call hands `optim`)
    if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot) \
            and type(test.comparators[0]) is ast.Constant and test.comparators[0].value is None:
        test, none_test = test.left, type(test.ops[0]) is ast.Is
    if type(test) is not ast.Name or test.id not in summary.params:
        return None
    given = handed.get(summary.params.index(test.id), defaults.get(test.id))
    if type(given) is not ast.Constant:
        return None
    if none_test is not None:
        return (given.value is None) is none_test
    return bool(given.value) if type(given.value) in (bool, type(None)) else None


def _path_to(root, target) -> list:
    """The nodes from ``root`` down to ``target`` (``[root, …, target]``), or [] if absent."""
    if root is target:
        return [root]
    for child in ast.iter_child_nodes(root):
        if getattr(child, "lineno", None) is not None and getattr(target, "lineno", 0) is not None and not (
                child.lineno <= target.lineno <= (getattr(child, "end_lineno", None) or child.lineno)):
            continue
        found = _path_to(child, target)
        if found:
            return [root, *found]
    return []


def _constant_pad(qual: str, node) -> bool:
    """``F.pad(x, pads)`` in its default constant mode: ConstantPadNdBackward0 keeps only the pad
    sizes (measured), where the reflect and replicate modes the table measured too save the input."""
    if qual != "torch.nn.functional.pad" or type(node) is not ast.Call:
        return False
    mode = next((k.value for k in node.keywords if k.arg == "mode"), node.args[2] if len(node.args) > 2 else None)
    return mode is None or (type(mode) is ast.Constant and mode.value == "constant")


def _number_terms(expr) -> list:
    """The ``x.item()`` (and ``float(x)``) calls of an arithmetic expression made only of them, names and constants
    (``0.5 * aux.item()``); empty where it holds anything else (a call, an in-place op)."""
    if type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr == "item" and not expr.args:
        return [expr]
    if type(expr) is ast.Call and type(expr.func) is ast.Name and expr.func.id == "float" and len(expr.args) == 1:
        return [expr]
    if type(expr) is ast.BinOp:
        left, right = _number_terms(expr.left), _number_terms(expr.right)
        if (left or _number_arithmetic(expr.left)) and (right or _number_arithmetic(expr.right)):
            return left + right
        return []
    if type(expr) is ast.UnaryOp:
        return _number_terms(expr.operand)
    return []


def _number_arithmetic(expr) -> bool:
    """Constants, names and attributes, and arithmetic of them (``(1/2)``, ``abs(-0.5)``,
    ``min(w, 1)``): a factor that makes no tensor."""
    if _number_leaf(expr):
        return True
    if type(expr) is ast.BinOp:
        return _number_arithmetic(expr.left) and _number_arithmetic(expr.right)
    if type(expr) is ast.UnaryOp:
        return _number_arithmetic(expr.operand)
    return type(expr) is ast.Call and type(expr.func) is ast.Name and expr.func.id in ("abs", "min", "max", "round") \
        and not expr.keywords and all(_number_arithmetic(a) for a in expr.args)


def _method_owners(module: ast.Module) -> dict:
    """id(method) -> the name of the module-level class defining it."""
    return {id(fn): cls.name for cls in module.body if type(cls) is ast.ClassDef
            for fn in cls.body if type(fn) in FUNCTIONS}


def _over_layers(iterable, walker) -> bool:
    """``for layer in self.layers`` (also through ``enumerate``): the iterable is a network, a
    container of layers, which is never empty."""
    if type(iterable) is ast.Call and type(iterable.func) is ast.Name and iterable.func.id == "enumerate" \
            and len(iterable.args) == 1:
        iterable = iterable.args[0]
    if type(iterable) not in (ast.Name, ast.Attribute) or dotted(iterable) is None:
        return False
    return walker.lookup(dotted(iterable)).module is not None


def _last_iteration_arms(loop) -> dict:
    """{if statement: whether its body runs on the loop's last iteration} for the tests in the
    body of ``for i, x in enumerate(xs)`` (or ``for i in range(n)``) that tell the last
    iteration apart: ``i != len(xs) - 1``, ``i < n - 1``, ``i + 1 == len(xs)``, …"""
    target, iterable = loop.target, loop.iter
    if type(iterable) is not ast.Call or type(iterable.func) is not ast.Name or len(iterable.args) != 1:
        return {}
    if iterable.func.id == "enumerate" and type(target) is ast.Tuple and len(target.elts) == 2 \
            and type(target.elts[0]) is ast.Name:
        index, bound = target.elts[0].id, f"len({ast.unparse(iterable.args[0])})"
    elif iterable.func.id == "range" and type(target) is ast.Name:
        index, bound = target.id, ast.unparse(iterable.args[0])
    else:
        return {}
    last = f"{bound} - 1"
    arms = {}
    for node in iter_nodes(loop, into_functions=False):
        if type(node) is not ast.If or type(node.test) is not ast.Compare or len(node.test.ops) != 1:
            continue
        left, op, right = ast.unparse(node.test.left), type(node.test.ops[0]), ast.unparse(node.test.comparators[0])
        if left == f"{index} + 1" and right == bound or left == index and right == last:
            if op in (ast.NotEq, ast.Lt):
                arms[node] = False
            elif op in (ast.Eq, ast.GtE):
                arms[node] = True
    return arms


_NUMBER_BUILTINS = frozenset({"sum", "len", "float", "max", "min", "abs", "round"})


def _bound_to_numbers(expr, fn, imports, functions, depth: int = 0) -> bool:
    """Every name of ``expr`` is bound in ``fn`` to numbers computed outside torch: a builtin's
    (``sum(wsd) / len(wsd)``), NumPy's, or a function of this file's (``contrastive_loss(t,
    h.numpy(), y)``); constants and arithmetic of such names too."""
    if type(expr) is ast.Constant:
        return True
    if type(expr) is ast.BinOp:
        return _bound_to_numbers(expr.left, fn, imports, functions, depth) \
            and _bound_to_numbers(expr.right, fn, imports, functions, depth)
    if type(expr) is ast.UnaryOp:
        return _bound_to_numbers(expr.operand, fn, imports, functions, depth)
    if type(expr) is ast.Call:
        name = imports.qualname(expr.func) or ""
        if type(expr.func) is ast.Attribute and (expr.func.attr in ("numpy", "tolist") or _bound_to_numbers(
                expr.func.value, fn, imports, functions, depth)):
            # (`w.numpy()`, pulled; `np.abs(w).mean()`, `gram.std()`: an array's own method)
            return True
        return (type(expr.func) is ast.Name and (expr.func.id in _NUMBER_BUILTINS or expr.func.id in functions)) \
            or name.startswith(("numpy.", "np.", "scipy.", "math."))
    if type(expr) in (ast.Attribute, ast.Subscript):  # (`w.T`, `gram[0]`: of an array, an array)
        return _bound_to_numbers(expr.value, fn, imports, functions, depth)
    if type(expr) is not ast.Name or depth > 3:
        return False
    if any(type(a) is ast.arg and a.arg == expr.id for a in ast.walk(fn)):
        return True  # (a number the caller hands: a weight, a temperature)
    bindings = [n.value for n in ast.walk(fn) if type(n) is ast.Assign and len(n.targets) == 1
                and type(n.targets[0]) is ast.Name and n.targets[0].id == expr.id]
    return bool(bindings) and all(_bound_to_numbers(b, fn, imports, functions, depth + 1) for b in bindings)


ARRAY_REDUCTIONS = frozenset({"mean", "std", "sum", "var", "max", "min", "prod"})


def _array_reduction(expr, fn, imports, functions, depth: int = 0) -> bool:
    """``expr`` is an arithmetic of constants and one NumPy scalar: an array's own reduction
    (`w.data.numpy().std()`, `gram.mean()`) of what is bound to numbers, or a name every binding
    of which is one."""
    if type(expr) is ast.BinOp:
        sides = [expr.left, expr.right]
        return any(_array_reduction(e, fn, imports, functions, depth) for e in sides) and all(
            type(e) is ast.Constant or _array_reduction(e, fn, imports, functions, depth) for e in sides)
    if type(expr) is ast.Call:
        return type(expr.func) is ast.Attribute and expr.func.attr in ARRAY_REDUCTIONS \
            and _bound_to_numbers(expr.func.value, fn, imports, functions, depth)
    if type(expr) is not ast.Name or depth > 3:
        return False
    bindings = [n.value for n in ast.walk(fn) if type(n) is ast.Assign and len(n.targets) == 1
                and type(n.targets[0]) is ast.Name and n.targets[0].id == expr.id]
    return bool(bindings) and all(_array_reduction(b, fn, imports, functions, depth + 1) for b in bindings)


def _bound_pulls(expr, fn) -> list:
    """The pulls bound to the names of ``expr`` in ``fn`` (``value = terms[k].item()`` for
    ``w * value``): each assignment of such a name an arithmetic of pulls and numbers."""
    if fn is None:
        return []
    names = {n.id for n in ast.walk(expr) if type(n) is ast.Name}
    found = []
    for node in ast.walk(fn):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name \
                and node.targets[0].id in names:
            found += _number_terms(node.value)
    return sorted(found, key=lambda n: (n.lineno, n.col_offset))


def _numbers_only(expr) -> bool:
    """An arithmetic expression of pulls (``x.item()``, ``float(x)``), names, attributes and
    constants: nothing in it that could make a tensor again."""
    if _number_terms(expr) or _number_leaf(expr):
        return True
    if type(expr) is ast.BinOp:
        return _numbers_only(expr.left) and _numbers_only(expr.right)
    if type(expr) is ast.UnaryOp:
        return _numbers_only(expr.operand)
    return False


def _number_leaf(expr) -> bool:
    return type(expr) in (ast.Constant, ast.Name) or (type(expr) is ast.Attribute and dotted(expr) is not None)


def _truth_values(expr) -> bool:
    """A list (or comprehension) whose every element is a comparison, a membership test or a
    boolean operation of them: truth values only."""
    if type(expr) is ast.ListComp:
        elements = [expr.elt]
    elif type(expr) in (ast.List, ast.Tuple) and expr.elts:
        elements = expr.elts
    else:
        return False
    return all(_truth(e) for e in elements)


def _truth(e) -> bool:
    if type(e) is ast.UnaryOp and type(e.op) is ast.Not:
        return True
    if type(e) is ast.BoolOp:
        return all(_truth(v) for v in e.values)
    return type(e) is ast.Compare


def _local_callables(function) -> dict:
    """name -> (parameters, expression) of each lambda or one-``return`` function ``function``
    defines for itself (``to_np = lambda t: t.detach().cpu().numpy()``), where it binds that name
    once and the callable takes plain positional parameters."""
    found: dict = {}
    bound: dict = {}
    for node in iter_nodes(function, into_functions=False):
        if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            name = node.targets[0].id
            bound[name] = bound.get(name, 0) + 1
            if type(node.value) is ast.Lambda:
                found[name] = (node.value.args, node.value.body)
        elif type(node) in (ast.FunctionDef, ast.AsyncFunctionDef) and node is not function:
            bound[node.name] = bound.get(node.name, 0) + 1
            body = [s for s in node.body if not (type(s) is ast.Expr and type(s.value) is ast.Constant)]
            if not node.decorator_list and len(body) == 1 and type(body[0]) is ast.Return and body[0].value is not None:
                found[node.name] = (node.args, body[0].value)
        elif type(node) in (ast.For, ast.With) or type(node) is ast.AugAssign:
            for target in iter_nodes(getattr(node, "target", None)) if hasattr(node, "target") else ():
                if type(target) is ast.Name:
                    bound[target.id] = bound.get(target.id, 0) + 1
    out = {}
    for name, (args, body) in found.items():
        if bound.get(name) != 1 or args.vararg or args.kwarg or args.kwonlyargs or args.defaults or args.posonlyargs:
            continue
        out[name] = ([a.arg for a in args.args], body)
    return out


def _selects_elements(expr) -> bool:
    """Whether ``expr`` picks elements of a tensor: a mask, a slice or several indices
    (``target[~idx]``, ``x[:, 0]``), never how a module of a container is picked (``layers[i]``)."""
    if type(expr) is not ast.Subscript:
        return False
    index = expr.slice
    return type(index) in (ast.Slice, ast.Tuple, ast.Compare, ast.Call) or (
        type(index) is ast.UnaryOp and type(index.op) in (ast.Invert, ast.Not))


def _view_of(expr) -> ast.expr | None:
    """The receiver of a method that always returns a view of it (``x.transpose(1, 2)``,
    ``x.T``), else None."""
    if type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr in VIEW_METHODS:
        return expr.func.value
    if type(expr) is ast.Attribute and expr.attr in ("T", "mT", "H", "mH"):
        return expr.value
    return None


def _plain_parameters(params: ast.arguments, module: ast.Module) -> set[str]:
    """The parameters a function declares to hold no tensor: annotated ``int``/``float``/``bool``/
    ``str``, or defaulting to a number, a string or a bool, as written or as a name the module's
    top level binds only to one (``lam=LAM`` after ``LAM = 0.3``; ``None`` says nothing)."""
    positional = [*params.posonlyargs, *params.args]
    defaults = [None] * (len(positional) - len(params.defaults)) + list(params.defaults)
    literal = once("literal-globals", module, _literal_globals)
    found = set()
    for param, default in [*zip(positional, defaults), *zip(params.kwonlyargs, params.kw_defaults)]:
        annotation = param.annotation
        if type(annotation) is ast.Name and annotation.id in PLAIN_ANNOTATIONS:
            found.add(param.arg)
        elif default is not None and (_literal_number(default) or (
                type(default) is ast.Name and literal.get(default.id, False))):
            found.add(param.arg)
    return found


def _for_targets(function) -> frozenset:
    """The names the ``for`` loops of ``function`` bind."""
    return frozenset(t.id for n in iter_nodes(function) if type(n) in (ast.For, ast.AsyncFor)
                     for t in iter_nodes(n.target) if type(t) is ast.Name)


def _literal_globals(module: ast.Module) -> dict:
    """Name -> whether the module's top level binds it only to literal numbers, strings or bools."""
    literal: dict = {}
    for stmt in module.body:
        if type(stmt) in FUNCTIONS or type(stmt) is ast.ClassDef:
            continue
        for node in iter_nodes(stmt, into_functions=False):
            if type(node) is ast.Assign:
                for target in node.targets:
                    for name in iter_nodes(target):
                        if type(name) is ast.Name:
                            literal[name.id] = literal.get(name.id, True) and type(target) is ast.Name \
                                and _literal_number(node.value)
            elif type(node) in (ast.For, ast.AugAssign, ast.AnnAssign, ast.NamedExpr, ast.With):
                for name in iter_nodes(node.target if hasattr(node, "target") else node):
                    if type(name) is ast.Name and type(name.ctx) is ast.Store:
                        literal[name.id] = False
    return literal


# What a call hands a parameter wholly cut, as data (``Summary.alone``)
CUT_DATA = Value(tensor=True, computed=True, const=True)


def _numbers_handed(module: ast.Module) -> dict:
    """Module-level function -> its parameters that every call of it in the file hands a number:
    a literal, or at the top level a name the top level binds only to literals (`step_loss(batch,
    lam)` after `lam = 1e-2`)."""
    top = [stmt for stmt in module.body if type(stmt) not in FUNCTIONS and type(stmt) is not ast.ClassDef]
    literal = once("literal-globals", module, _literal_globals)
    top_calls = {id(node) for stmt in top for node in iter_nodes(stmt, into_functions=False) if type(node) is ast.Call}
    defined = {stmt.name: stmt for stmt in module.body if type(stmt) in FUNCTIONS}
    # (each call with the module-level function it is made in, if any: `denoise_loss(…, lam)` in
    # `grads_for(model, x, lam)` hands a number where every call of `grads_for` does)
    calls = [(node, None) for stmt in top for node in iter_nodes(stmt, into_functions=False) if type(node) is ast.Call]
    calls += [(node, fn) for fn in defined.values() for node in iter_nodes(fn) if type(node) is ast.Call]
    found: dict = {}
    for _ in range(4):  # (through a few levels of functions handing their own parameters on)
        handed: dict = {}
        for node, inside in calls:
            if type(node.func) is not ast.Name or node.func.id not in defined:
                continue
            fn = defined[node.func.id]
            names = [p.arg for p in [*fn.args.posonlyargs, *fn.args.args]]
            seen = handed.setdefault(fn.name, {})
            if any(type(a) is ast.Starred for a in node.args) or any(k.arg is None for k in node.keywords):
                seen[None] = False
                continue
            own = found.get(inside.name, set()) if inside is not None else set()
            rebound = _rebound_names(inside) if inside is not None else set()
            for name, arg in [*zip(names, node.args), *((k.arg, k.value) for k in node.keywords)]:
                number = _literal_number(arg) or (
                    type(arg) is ast.Name and id(node) in top_calls and literal.get(arg.id, False)) or (
                    type(arg) is ast.Name and arg.id in own and arg.id not in rebound)
                seen[name] = seen.get(name, True) and number
        now = {fn: {name for name, number in seen.items() if number and name is not None}
               for fn, seen in handed.items() if seen.get(None, True)}
        if now == found:
            break
        found = now
    return found


def _rebound_names(fn) -> set:
    """The names a function binds in its body (its parameters rebound there among them)."""
    return {t.id for n in iter_nodes(fn) if type(n) in (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)
            for target in (n.targets if type(n) is ast.Assign else [n.target])
            for t in iter_nodes(target) if type(t) is ast.Name}


def _literal_number(expr) -> bool:
    if type(expr) is ast.UnaryOp and type(expr.op) in (ast.USub, ast.UAdd):
        expr = expr.operand
    return type(expr) is ast.Constant and type(expr.value) in (int, float, complex, str, bool)


def _index_names(expr) -> set[str]:
    """The names a root expression indexes with (``i`` of ``losses[i]``)."""
    found: set[str] = set()
    for node in iter_nodes(expr) if expr is not None else ():
        if type(node) is ast.Subscript:
            found |= _names(node.slice)
    return found


def _target_names(target) -> set[str]:
    return _names(target)


def _names(root: ast.AST) -> set[str]:
    """Every name written in ``root``, as libcst's ``Name`` nodes had it: variables, attribute
    names (``i`` of ``self.i``), keyword and lambda parameter names, ``True``/``False``/``None``."""
    found: set[str] = set()
    for node in iter_nodes(root):
        kind = type(node)
        if kind is ast.Name:
            found.add(node.id)
        elif kind is ast.Attribute:
            found.add(node.attr)
        elif kind is ast.keyword or kind is ast.arg:
            if node.arg is not None:
                found.add(node.arg)
        elif kind is ast.Constant and (node.value is None or node.value is True or node.value is False):
            found.add(repr(node.value))
    return found


def dotted(expr) -> str | None:
    """``imports.dotted``, with ``True``/``False``/``None`` read as the names libcst made them
    (``nn.ReLU(True)`` is an in-place edit of "True", which nothing saved: no finding)."""
    if type(expr) is ast.Constant and (expr.value is None or expr.value is True or expr.value is False):
        return repr(expr.value)
    return _dotted(expr)


def _stepping_methods(cls: ast.ClassDef) -> frozenset:
    """The methods of an optimizer class of the project, besides ``step``, that update the
    parameters in place: an in-place op on each ``p`` of ``group["params"]`` (SAM's
    `first_step`, `p.add_(e_w)`), or a step of an inner optimizer."""
    found = set()
    for method in cls.body:
        if type(method) not in FUNCTIONS or method.name in ("step", "zero_grad", "__init__"):
            continue
        params = set()
        for node in ast.walk(method):
            if type(node) is ast.For and type(node.target) is ast.Name and any(
                    type(n) is ast.Constant and n.value == "params" for n in ast.walk(node.iter)):
                params.add(node.target.id)
        for node in ast.walk(method):
            if type(node) is not ast.Call or type(node.func) is not ast.Attribute:
                continue
            receiver = node.func.value
            if type(receiver) is ast.Attribute and receiver.attr == "data":
                receiver = receiver.value
            if (saves.is_inplace_method(node.func.attr) and type(receiver) is ast.Name and receiver.id in params) \
                    or node.func.attr == "step":
                found.add(method.name)
                break
    return frozenset(found)


def _file_stepping_methods(module: ast.Module, imports) -> frozenset:
    """The methods besides ``step`` that update the parameters in place (``_stepping_methods``)
    of the optimizer classes this file defines on torch's (``class SAM(torch.optim.Optimizer)``)."""
    found = set()
    for node in iter_nodes(module):
        if type(node) is ast.ClassDef and any((imports.qualname(b) or "").startswith("torch.optim.") for b in node.bases):
            found |= _stepping_methods(node)
    return frozenset(found)


def _made_by(expr, imports):
    """The call an assigned value is made by, past the casts and switches chained after it
    (`torch.tensor(x).to(device).requires_grad_()`); None where the assignment has no value
    of its own (a loop's target)."""
    if expr is None:
        return None
    while type(expr) is ast.Call:
        if type(expr.func) is ast.Attribute and (expr.func.attr in CAST_METHODS or expr.func.attr == "requires_grad_"):
            expr = expr.func.value
        elif imports.qualname(expr.func) in PARAMETER and len(expr.args) == 1:
            expr = expr.args[0]  # (`nn.Parameter(torch.tensor(…))`: the copy made a parameter)
        else:
            break
    return expr


def _exhaustive_tails(module: ast.Module) -> frozenset:
    """The ids of the last ``elif`` of each chain of two or more tests comparing one setting
    with constants (`args.loss == "wgan-gp"`, then `== "r1"`), with no ``else``: a chain written
    for each value the setting takes (argparse's `choices`), whose arms each bind what follows
    reads; the path through none of them is no program's."""
    def subject(test) -> str | None:
        if type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Eq, ast.In) \
                and type(test.comparators[0]) in (ast.Constant, ast.Tuple, ast.List):
            return dotted(test.left)
        return None

    tails, inner = set(), set()
    for node in ast.walk(module):
        if type(node) is not ast.If or id(node) in inner:
            continue
        chain = [node]
        while len(chain[-1].orelse) == 1 and type(chain[-1].orelse[0]) is ast.If:
            chain.append(chain[-1].orelse[0])
        inner.update(id(n) for n in chain)
        names = {subject(n.test) for n in chain}
        if len(chain) >= 2 and not chain[-1].orelse and len(names) == 1 and None not in names:
            tails.add(id(chain[-1]))
    return frozenset(tails)


def _cut_copy(expr) -> bool:
    """``x.detach()``, ``x.detach().clone()``, ``x.data``: a copy cut from its history as written."""
    while type(expr) is ast.Call and type(expr.func) is ast.Attribute:
        if expr.func.attr == "detach":
            return True
        expr = expr.func.value
    return type(expr) is ast.Attribute and expr.attr == "data"


def _argument_nodes(call: ast.Call) -> list:
    """The arguments (``ast.expr``, ``ast.Starred`` or ``ast.keyword``) in source order:
    ``ast`` lists positionals before keywords, and ``f(x, key=y, *rest)`` reads ``key`` first."""
    if not call.keywords:
        return call.args
    if not call.args:
        return call.keywords
    last, first = call.args[-1], call.keywords[0]
    if (last.lineno, last.col_offset) < (first.lineno, first.col_offset):
        return [*call.args, *call.keywords]
    return sorted([*call.args, *call.keywords], key=lambda a: (a.lineno, a.col_offset))


def _only_backpropagated(fn, name: str) -> bool:
    """The function calls backward() and does nothing with ``name`` that a leaf made on purpose is
    made for: it neither returns it, stores it in an attribute or item, appends it, hooks it nor
    reads or differentiates against its gradient (`value = q.detach()`, `value.
    requires_grad = True`, `loss = -value.mean()`, `loss.backward()`: a loss, not a leaf)."""
    backward = False
    for node in iter_nodes(fn, into_functions=False):
        kind = type(node)
        if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "backward":
            backward = True
        if kind is ast.Attribute and type(node.value) is ast.Name and node.value.id == name \
                and node.attr in ("grad", "register_hook", "retain_grad"):
            return False
        if kind in (ast.Return, ast.Yield) and node.value is not None and any(
                type(n) is ast.Name and n.id == name
                for n in (node.value.elts if type(node.value) in (ast.Tuple, ast.List) else [node.value])):
            return False  # (the leaf itself handed out, not a number read off it)
        if kind is ast.Assign and any(type(t) in (ast.Attribute, ast.Subscript) for t in node.targets) \
                and type(node.value) is ast.Name and node.value.id == name:
            return False
        if kind is ast.Call and type(node.func) is ast.Attribute and node.func.attr in ("append", "extend", "grad") \
                and any(type(a) is ast.Name and a.id == name for a in ast.walk(node)):
            return False
    return backward


def _guarded_without_history(node, name: str, up: dict) -> bool:
    """``node`` runs only where ``name`` requires no grad: in the body of `if not name.requires_grad:`."""
    child, parent = node, up.get(node)
    while parent is not None and not isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        if type(parent) is ast.If and any(child is s for s in parent.body) and without_history_test(parent.test) == name:
            return True
        child, parent = parent, up.get(parent)
    return False


def _added(expr) -> list:
    """The operands of a sum (`a + b + c`), or the expression itself."""
    if type(expr) is ast.BinOp and type(expr.op) is ast.Add:
        return _added(expr.left) + _added(expr.right)
    return [expr]


def _parameters_listed(fn) -> int | None:
    """The position of the parameter whose ``.parameters()`` / ``.named_parameters()`` the
    function returns, filtered or not (a list, a comprehension, the iterator itself); None."""
    params = [a.arg for a in (*fn.args.posonlyargs, *fn.args.args)]
    returns = [n.value for n in iter_nodes(fn, into_functions=False) if type(n) is ast.Return and n.value is not None]
    if not returns:
        return None
    found = None
    for value in returns:
        held = {dotted(n.func.value) for n in iter_nodes(value) if type(n) is ast.Call and type(n.func) is ast.Attribute
                and n.func.attr in ("parameters", "named_parameters")}
        if len(held) != 1 or next(iter(held)) not in params or found not in (None, next(iter(held))):
            return None
        found = next(iter(held))
    return params.index(found)


def _arguments(call: ast.Call) -> list[ast.expr]:
    """The argument expressions in source order (``*xs`` as ``xs``, ``**kw`` as ``kw``)."""
    return [a.value if type(a) in (ast.Starred, ast.keyword) else a for a in _argument_nodes(call)]


def _needing(save: Save, others: list) -> Save:
    """``save`` as made for the gradient of ``others`` (the other operands that may require grad):
    where they are all a summary's parameters as handed, the save holds only where a caller hands
    one of them a tensor that requires grad."""
    roots = frozenset().union(*(v.trainables | v.post for v in others)) if others else frozenset()
    if not roots or not all(r[:1] == "%" and r[1:].isdigit() for r in roots) \
            or any((v.live or v.inputs) and not (v.trainables | v.post) for v in others):
        return save
    return dataclasses.replace(save, needs=frozenset(int(r[1:]) for r in roots))


def _inference_region(region, imports) -> bool:
    """The no_grad region is ``torch.inference_mode()``'s (a ``with`` or a decorator, or a
    decorator of the file's that names it: yolov5's ``smart_inference_mode()``)."""
    if type(region) in WITHS:
        exprs = [item.context_expr for item in region.items]
    elif type(region) in FUNCTIONS:
        exprs = region.decorator_list
    else:
        return False
    for expr in exprs:
        name = imports.qualname(expr.func if type(expr) is ast.Call else expr)
        if name in INFERENCE_MODE:
            return True
        if name is not None and "." not in name and name in imports.defined and any(
                type(n) in (ast.Name, ast.Attribute) and imports.qualname(n) in INFERENCE_MODE
                for n in ast.walk(imports.defined[name])):
            return True
    return False



def _nested_elements(node) -> list:
    """The elements of a list or tuple display, those of the displays nested in it too
    (``[[x, y], [y, 0.0]]`` gives x, y, y, 0.0)."""
    out = []
    for e in getattr(node, "elts", ()):
        out.extend(_nested_elements(e) if type(e) in (ast.List, ast.Tuple) else [e])
    return out


def _stores_locals(call) -> bool:
    """``self.__dict__.update(locals())``."""
    return type(call) is ast.Call and dotted(call.func) == "self.__dict__.update" and len(call.args) == 1 \
        and type(call.args[0]) is ast.Call and dotted(call.args[0].func) == "locals"


def _first_argument(call: ast.Call) -> ast.expr | None:
    """The first argument's expression, positional or not (``set_grad_enabled(mode=False)``)."""
    if call.args:
        return _unstarred(call.args[0])
    return call.keywords[0].value if call.keywords else None


def _held(elements) -> frozenset:
    """The Saves of the tensors a container made of ``elements`` holds."""
    out = EMPTY
    for element in elements:
        if element.saved or element.held:
            out = out | element.saved | element.held
    return out


def _paired(node: ast.Assign) -> list | None:
    """The (target, value) pairs of ``a, b = x, y``; None for any other assignment."""
    if len(node.targets) != 1:
        return None
    target, value = node.targets[0], node.value
    if type(target) not in (ast.Tuple, ast.List) or type(value) not in (ast.Tuple, ast.List) \
            or len(target.elts) != len(value.elts):
        return None
    if any(type(e) is ast.Starred for e in (*target.elts, *value.elts)):
        return None
    return list(zip(target.elts, value.elts))


def _detaches(func: ast.expr, imports) -> bool:
    """``torch.detach``, ``torch.Tensor.detach`` or ``lambda t: t.detach()``: what ``map`` is
    given to cut each item."""
    if type(func) is ast.Lambda:
        params = func.args.args
        body = func.body
        return len(params) == 1 and type(body) is ast.Call and not body.args and not body.keywords \
            and type(body.func) is ast.Attribute and body.func.attr == "detach" \
            and type(body.func.value) is ast.Name and body.func.value.id == params[0].arg
    return imports.qualname(func) in ("torch.detach", "torch.Tensor.detach")


def _filled(function) -> set:
    """What ``function`` appends to (``self.memory`` of ``self.memory.append(…)``)."""
    return {dotted(node.func.value) for node in iter_nodes(function, into_functions=False)
            if type(node) is ast.Call and type(node.func) is ast.Attribute and node.func.attr == "append"}


def _built_as(cls: ast.ClassDef, name: str) -> list[str]:
    """The classes ``cls``'s methods build into ``name`` (``self.log_alpha = Scalar(0.0)``; a
    ``None`` on another path builds nothing)."""
    return [dotted(n.value.func) for n in ast.walk(cls) if type(n) is ast.Assign and type(n.value) is ast.Call
            and any(dotted(t) == name for t in n.targets)]


def _returns_own_parameter(cls: ast.ClassDef) -> bool:
    """The class's ``forward`` returns one of its own attributes as it is (``return
    self.constant``, a temperature or a scale held as an ``nn.Parameter``)."""
    forward = next((s for s in cls.body if type(s) in FUNCTIONS and s.name == "forward"), None)
    if forward is None:
        return False
    returns = [n for n in iter_nodes(forward, into_functions=False) if type(n) is ast.Return]
    return bool(returns) and all(type(r.value) is ast.Attribute and type(r.value.value) is ast.Name
                                 and r.value.value.id == "self" for r in returns)


def _saving_calls(module: ast.Module) -> dict:
    """For each module called without arguments (``self.log_alpha()``): whether some op the file
    applies to the call's result may save that result for backward (a method or an operator
    whose measured saves include the operand's place; an operand of anything else counts as
    saved)."""
    parents = {}
    for node in ast.walk(module):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    out: dict = {}
    for node in ast.walk(module):
        if type(node) is not ast.Call or node.args or node.keywords:
            continue
        name = dotted(node.func)
        if name is None:
            continue
        parent = parents.get(id(node))
        out[name] = out.get(name, False) or _saves_operand(node, parent, parents)
    return out


def _saves_operand(node, parent, parents) -> bool:
    if type(parent) is ast.Attribute and parent.value is node:
        call = parents.get(id(parent))
        if type(call) is ast.Call and call.func is parent:
            saved = saves.op_saves(f"torch.Tensor.{parent.attr}", nargs=1 + len(call.args))
            return saved is None or 0 in saved.inputs
        return True
    if type(parent) is ast.BinOp:
        at = 0 if parent.left is node else 1
        other = parent.right if at == 0 else parent.left
        # an operand with no history (`….detach()`, a number) needs no gradient: nothing of it is saved
        grad = {at} if _no_history_operand(other) else {0, 1}
        op = {ast.Mult: "mul", ast.Add: "add", ast.Sub: "sub", ast.Div: "truediv", ast.Pow: "pow"}.get(type(parent.op))
        saved = saves.op_saves(f"operator.{op}", grad) if op else None
        return saved is None or at in saved.inputs
    return True


def _no_history_operand(expr) -> bool:
    if type(expr) is ast.Constant:
        return True
    if type(expr) is ast.Call and type(expr.func) is ast.Attribute and expr.func.attr == "detach":
        return True
    return False


def _only_called(function) -> dict:
    """Local name -> whether every read of it in ``function`` calls it (``jmax(x, v)``): bound
    once to a call, never returned, stored, handed on or asked for its parameters."""
    bound: dict = {}
    for node in iter_nodes(function, into_functions=False):
        if type(node) in (ast.Assign, ast.AnnAssign, ast.AugAssign):
            targets = node.targets if type(node) is ast.Assign else [node.target]
            for target in targets:
                for name in ast.walk(target):
                    if type(name) is ast.Name:
                        bound[name.id] = bound.get(name.id, 0) + (1 if type(node) is ast.Assign and len(targets) == 1
                                                                  and type(node.value) is ast.Call else 2)
    called, other = set(), set()
    parents = {child: up for up in iter_nodes(function, into_functions=False) for child in ast.iter_child_nodes(up)}
    for node in iter_nodes(function, into_functions=False):
        if type(node) is ast.Name and type(node.ctx) is ast.Load:
            up = parents.get(node)
            (called if type(up) is ast.Call and up.func is node else other).add(node.id)
    return {name: count == 1 and name in called and name not in other for name, count in bound.items()}


def _one_lineage(found, classes, module):
    """Where every call hands instances of classes of the file of one lineage (the model and its
    fixed subclass, `train(FlowNet())` and `train(FixedFlowNet())`): the base alone, ``{base}``,
    whose instance the file runs too, so what its methods do is what one of those calls does;
    None otherwise."""
    if not found or len(found) < 2 or None in found or any(type(q) is not str or q not in classes for q in found):
        return None
    for root in found:
        if all(other == root or root in ancestors(other, module) for other in found):
            return {root}
    return None


def _stores_cut(function) -> set:
    """The attributes ``function`` binds to an expression that cuts history (``self.x =
    y.detach()``, ``.data``) or binds inside a ``no_grad`` region or function; and, where it
    takes values out of the record anywhere (``.detach()``, ``.numpy()``, ``.item()``) or copies
    them into a new tensor (``torch.FloatTensor(mu)``), every attribute it binds: what it stores
    may be built from those (``self.log_probs = dist.log_prob(a)`` of a distribution made of a
    NumPy copy)."""
    out = set()
    regions = [function] if any("no_grad" in ast.unparse(d) or "inference_mode" in ast.unparse(d)
                                for d in function.decorator_list) else []
    regions += [n for n in iter_nodes(function, into_functions=False) if type(n) in (ast.With, ast.AsyncWith)
                and any(type(i.context_expr) is ast.Call and type(i.context_expr.func) is ast.Attribute
                        and i.context_expr.func.attr in ("no_grad", "inference_mode") for i in n.items)]
    whole = {id(n) for region in regions for n in ast.walk(region)}
    pulls = any(type(n) is ast.Call and (
        (type(n.func) is ast.Attribute and n.func.attr in PULLING_METHODS)
        or (dotted(n.func) or "").rpartition(".")[2] in TENSOR_REBUILDERS) for n in iter_nodes(function, into_functions=False))
    for node in iter_nodes(function, into_functions=False):
        if type(node) is not ast.Assign:
            continue
        cuts = pulls or id(node) in whole or any(
            (type(n) is ast.Attribute and n.attr == "data")
            or (type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "detach")
            for n in ast.walk(node.value))
        if cuts:
            # (`self.pred_fake, self.feat_fake = self.netd(self.fake.detach())`: each element)
            targets = [e for t in node.targets for e in (t.elts if type(t) in (ast.Tuple, ast.List) else [t])]
            # (`self.recordings["h"] = h.detach()`: an entry of a dict the object holds)
            targets = [t.value if type(t) is ast.Subscript else t for t in targets]
            out.update(dotted(t) for t in targets if type(t) is ast.Attribute and dotted(t) is not None)
    return out


# (the calls that take values out of the record, and those that copy values into a new tensor)
PULLING_METHODS = frozenset({"detach", "numpy", "item", "tolist"})
TENSOR_REBUILDERS = frozenset({"tensor", "as_tensor", "from_numpy", "FloatTensor", "Tensor", "DoubleTensor", "LongTensor"})


def _picked(index, size: int) -> list | None:
    """The positions of a tuple of ``size`` elements that an index of constant bounds picks
    (``[1]``, ``[-1]``, ``[:2]``), else None."""
    if type(index) is ast.Slice:
        bounds = [None if b is None else _position(b) for b in (index.lower, index.upper, index.step)]
        if any(b is None and e is not None for b, e in zip(bounds, (index.lower, index.upper, index.step))) \
                or bounds[2] == 0:
            return None  # (not constant, or `[::0]`, which raises)
        return list(range(size))[slice(*bounds)]
    position = _position(index)
    return [position % size] if position is not None and -size <= position < size else None


def _position(index) -> int | None:
    """The constant position an index names (``1``, ``-1``), else None."""
    if type(index) is ast.UnaryOp and type(index.op) is ast.USub:
        inner = _position(index.operand)
        return None if inner is None else -inner
    if type(index) is ast.Constant and type(index.value) is int:
        return index.value
    return None


def _row(container: Value) -> Value:
    """One row of a container of tuples: the whole of what it may hold, by position."""
    return replace(union(container.rows), computed=False, container=True, parts=container.rows)


def _unstarred(expr: ast.expr) -> ast.expr:
    return expr.value if type(expr) is ast.Starred else expr


def _return_shape(expr) -> tuple:
    """``Return.shape``: per top-level element of a returned tuple, how many of its flattened
    parts it holds."""
    return tuple(_leaves(e) for e in expr.elts)


def _leaves(element) -> int:
    element = _unstarred(element)
    if type(element) in (ast.Tuple, ast.List) and element.elts:
        return sum(_leaves(e) for e in element.elts)
    return 1


def _concatenated(lines: list[str], node: ast.JoinedStr) -> bool:
    """Whether an f-string is written as several adjacent literals (``"a" f"{x}"``), which
    ``ast`` joins into one."""
    text = source_segment(lines, node)
    depth = count = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO("(" + text + ")").readline):
            if token.type == _FSTRING_START:
                count += depth == 0
                depth += 1
            elif token.type == _FSTRING_END:
                depth -= 1
            elif token.type == tokenize.STRING and depth == 0:
                count += 1
            if count > 1:
                return True
    except (tokenize.TokenError, SyntaxError):
        return False
    return False


_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)  # Python 3.12 tokenizes f-strings' parts
_FSTRING_END = getattr(tokenize, "FSTRING_END", -1)


class _Span:
    """A stretch of source in ``ast``'s coordinates (lines from 1, UTF-8 byte columns)."""

    def __init__(self, lineno: int, col_offset: int, end_lineno: int, end_col_offset: int):
        self.lineno, self.col_offset = lineno, col_offset
        self.end_lineno, self.end_col_offset = end_lineno, end_col_offset


def _with_parentheses(lines: list[str], node: ast.AST):
    """``node``, or the span of the parentheses that group it alone (``(a + b)``): ``ast``
    leaves them out of the node, and the text a fact names keeps them. The parentheses of a
    call (``f(x)``) or a class's bases are not the expression's."""
    encoded: dict[int, bytes] = {}

    def line(i: int) -> bytes:
        if i not in encoded:
            encoded[i] = lines[i].encode() if 0 <= i < len(lines) else b""
        return encoded[i]

    def back(row: int, col: int):
        """The last byte before (row, col) that is not blank, a line continuation or a comment."""
        text = line(row)[:col]
        while True:
            stripped = text.rstrip(b" \t\f")
            if stripped:
                return row, len(stripped) - 1
            row -= 1
            if row < 0:
                return None
            text = line(row).rstrip(b"\r\n")
            text = text[:_code_end(text, len(text))].rstrip(b" \t\f").rstrip(b"\\")

    def forward(row: int, col: int):
        """The first byte at or after (row, col) that is not blank, a line continuation or a comment."""
        while row < len(lines):
            text = line(row)
            while text[col:col + 1] in (b" ", b"\t", b"\f", b"\\"):
                col += 1
            if col < len(text) and text[col:col + 1] not in (b"#", b"\r", b"\n"):
                return row, col
            row, col = row + 1, 0
        return None

    start = (node.lineno - 1, node.col_offset)
    end = (node.end_lineno - 1, node.end_col_offset)
    span = None
    while True:
        before = back(*start)
        after = forward(*end)
        if before is None or after is None:
            break
        if line(before[0])[before[1]:before[1] + 1] != b"(" or line(after[0])[after[1]:after[1] + 1] != b")":
            break
        ahead = back(*before)
        # `f(x)`: a call's parentheses (a name on the line before ends another statement;
        # a call spelled `f` newline `(x)` inside brackets is read as grouping)
        if ahead is not None and ahead[0] == before[0] and _ends_operand(line(ahead[0]), ahead[1]):
            break
        start, end = before, (after[0], after[1] + 1)
        span = _Span(start[0] + 1, start[1], end[0] + 1, end[1])
    return span or node


def _code_end(text: bytes, col: int) -> int:
    """Where the code of a line ends before ``col``: a ``#`` comment is not code (a ``#``
    inside a string on such a line is rare enough to be read as a comment)."""
    at = text.find(b"#", 0, col)
    return at if at >= 0 else col


def _ends_operand(text: bytes, col: int) -> bool:
    """Whether the byte at ``col`` ends an expression that a ``(`` after it would call: a name
    that is not a keyword, a closing bracket, a string's quote."""
    char = text[col:col + 1]
    if char in (b")", b"]", b"}", b"'", b'"'):
        return True
    if not (char.isalnum() or char == b"_" or char >= b"\x80"):
        return False
    start = col
    while start > 0 and (text[start - 1:start].isalnum() or text[start - 1:start] == b"_" or text[start - 1:start] >= b"\x80"):
        start -= 1
    word = text[start:col + 1].decode(errors="replace")
    return not keyword.iskeyword(word)


def _cut_on_the_way(expr) -> bool:
    """``y.detach().cpu()``, ``y.data``: the chain of calls, attributes and subscripts ending in
    ``expr`` cuts its history somewhere."""
    while True:
        if type(expr) is ast.Attribute:
            if expr.attr == "data":
                return True
            expr = expr.value
        elif type(expr) is ast.Call and type(expr.func) is ast.Attribute:
            if expr.func.attr in ("detach", "detach_"):
                return True
            expr = expr.func.value
        elif type(expr) is ast.Subscript:
            expr = expr.value
        else:
            return False


def _by_key(node: ast.Subscript) -> bool:
    """``outputs["logits"]``: a string key indexes a mapping (a dict of outputs or losses),
    never a tensor."""
    key = node.slice
    return type(key) is ast.JoinedStr or (type(key) is ast.Constant and type(key.value) is str)


def _edit_base(expr) -> str | None:
    """The name whose tensor an edit of ``expr`` modifies: ``x`` for ``x[i]``, ``x.detach()``
    and ``x``; ``x.data`` for an edit through ``.data``, which autograd does not see."""
    return dotted(_edit_root(expr))


def _edit_root(expr):
    """The expression whose tensor an edit of ``expr`` modifies: ``x`` of ``x[i]``,
    ``x.view(…)``, ``x.detach()`` and ``x.mul_(a)``, ``f(x)`` of ``f(x)[0]``."""
    while True:
        if type(expr) is ast.Subscript:
            expr = expr.value
        elif type(expr) is ast.Call and type(expr.func) is ast.Attribute and (
                expr.func.attr in VIEW_METHODS or expr.func.attr == "detach" or (
                    expr.func.attr.endswith("_") and saves.is_inplace_method(expr.func.attr))):
            expr = expr.func.value  # (`x.mul_(a)` is `x`: `x.mul_(a).add_(b)` edits `x` twice)
        else:
            return expr


def _class_registries(module: ast.Module) -> dict:
    """Module-level names bound once, to a dict display whose every value is a name or a dotted
    name (`{"res32": models.ResGenerator32, "cnn32": models.Generator32}`) -> those values."""
    bound: dict = {}
    for stmt in module.body:
        for target in (stmt.targets if type(stmt) is ast.Assign else [stmt.target] if type(stmt) in (
                ast.AnnAssign, ast.AugAssign) else []):
            if type(target) is ast.Name:
                bound.setdefault(target.id, []).append(stmt.value)
    return {name: values[0].values for name, values in bound.items()
            if len(values) == 1 and type(values[0]) is ast.Dict and values[0].values
            and None not in values[0].keys and all(dotted(v) is not None for v in values[0].values)}


def _alias(expr, value: Value) -> str | None:
    """The name a view or detached alias of ``expr`` shares storage with."""
    return value.alias or dotted(expr)


def _bound_outside(loop, stmt) -> set:
    """The names the loop binds in statements other than ``stmt``."""
    inside = {id(n) for n in ast.walk(stmt)}
    return {n.id for n in ast.walk(loop) if type(n) is ast.Name and type(n.ctx) is ast.Store and id(n) not in inside}


def _invariant_test(test, loops) -> bool:
    """The test reads only names no enclosing loop assigns, and calls and indexes nothing: it
    holds the same in every iteration."""
    for node in ast.walk(test):
        if type(node) in (ast.Call, ast.Subscript, ast.NamedExpr, ast.Attribute, ast.Await):
            return False
        if type(node) is ast.Name and any(node.id in loop.assigned for loop in loops):
            return False
    return True


def _may_alias(joined: dict, a: dict, b: dict, renamed: set, may: dict, since: int) -> dict:
    """A local one arm of an ``if`` binds to another name's tensor and the other arm to a new one
    (``if variant: r = mix(h) else: r = support``): after the ``if`` it may be that tensor, and an
    in-place edit of it breaks, on that arm, the backward of what an op saved of it."""
    for name, value in joined.items():
        x, y = a.get(name), b.get(name)
        if value.alias is None and x is not None and y is not None and "." not in name \
                and (x.alias is None) != (y.alias is None):
            alias = x.alias or y.alias
            if alias in joined and (value.tensor or value.computed) and not (value.container or value.plain):
                joined[name] = replace(value, alias=alias)
                renamed.add(name)
                may[name] = since
    return joined


def _join_envs(a: dict, b: dict, default=None) -> dict:
    """Join two paths' bindings. An attribute bound on one path only keeps, on the other, what
    it held before the function (``default``); a local bound on one path only is taken as is."""
    out = dict(a)
    for key, value in b.items():
        if key in out:
            out[key] = out[key].join(value)
        elif default is not None and "." in key:
            out[key] = default(key).join(value)
        else:
            out[key] = value
    if default is not None:
        for key in a.keys() - b.keys():
            if "." in key:
                out[key] = a[key].join(default(key))
    return out


