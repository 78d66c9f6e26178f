"""Settings that choose a path: a function's parameter, or an attribute a class's ``__init__``
sets from one, that the file's own calls hand both ``True`` and ``False`` (a literal, or the
default where a call leaves it out), and that an ``if`` tests.

The walk joins the two arms of an ``if``: what one arm cuts and the other keeps attached looks
attached. Where the file runs both arms (a training step called once with ``detach_state=False``
and once with ``True``, a trainer built with and without ``both_regressed``), each is a program
the user runs, and a bug on one arm is a bug. ``variants`` gives, per such setting and value, the
``if`` statements it decides and the arm each takes, and ``pruned`` the module with each of those
``if`` statements replaced by that arm: the checks run once more on it, as on the program that
setting's calls run, and a finding of any of the walks is reported once.

A setting the file's calls hand one way only (``SegmentTrainer(model)``, leaving
``truncate=False``) is that program's too, walked once more where an arm it decides cuts history.
A class or a function handed as a setting (``fit(Ranker)``, ``step(…, loss_fn=alignment_loss)``)
is named in place of the parameter. A setting passed from a configuration (``args.freeze``) is
left joined: which arm runs is not the file's to say.

A caller's parameter handed on as it is to two functions (`learn(…, is_train)` calling
`predict(x, is_train)` and `update(loss, is_train)`) is one setting: every run gives both one value
(``_linked``). A flag with a literal default that two ``if`` statements of its function test, one
cutting history, is walked once more on its default's arms (``defaults_repeated``): what a call
leaving it out runs, wherever that call is.

``correlated`` gives the ``if`` statements of one function that repeat a test (the engine keeps a
finding inside one only where a walk taking the same arm at each makes it too).
"""
from __future__ import annotations

import ast
import copy

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
MAX_SETTINGS = 3  # settings split per module: two walks more for each
CLASS = "class:"  # a class handed as a setting's value, by name


def programs(module: ast.Module, text: str) -> list[tuple[ast.Module, str, tuple]]:
    """The trees to walk, each with what decides its arms and the lines of the statements it
    decides: the module itself (every `if` joined, "", ()), then one copy per setting and value
    (``variants``, ``pruned``), and one per defaulted flag its function's ``if`` statements repeat
    (``defaults_repeated``)."""
    found = variants(module)
    decided = {stmt for arms, _ in found for stmt in arms}
    found += [(arms, said) for arms, said in defaults_repeated(module) if not decided & arms.keys()]
    return [(module, "", ()), *((pruned(module, arms), said, _spans(arms)) for arms, said in found)]


def _spans(arms: dict) -> tuple:
    """The (first, last) lines of each ``if`` (or conditional expression) ``arms`` decides."""
    return tuple((n.lineno, n.end_lineno) for n in arms if isinstance(n, ast.AST))


def defaults_repeated(module: ast.Module) -> list[tuple[dict, str]]:
    """``({if: whether its body runs}, what decides it)`` for a function's parameter with a
    literal boolean default that two or more of its ``if`` statements test, one of them cutting
    history (``if fixed: state = …detach()`` … ``if fixed: l.backward() else:
    l.backward(retain_graph=True)``): a call leaving it out runs the default's arm at each, a
    program the joined walk, pairing one ``if``'s cut with the other's other arm, never sees."""
    out = []
    for fn in (n for n in ast.walk(module) if type(n) in FUNCTIONS):
        defaults = defaults_of(fn)
        assigned = {ast.unparse(t) for n in ast.walk(fn) for t in _targets(n)}
        for name, default in defaults.items():
            if type(default) is not ast.Constant or type(default.value) is not bool or name in assigned:
                continue
            tests = _tests(fn, lambda t, p=name: type(t) is ast.Name and t.id == p)
            if len(tests) < 2 or not any(_cuts(stmt) for stmt in tests):
                continue
            arms = _arms(tests, default.value)
            if arms:
                out.append((arms, f"`{name}` is {default.value}, its default"))
        if len(out) >= MAX_SETTINGS:
            break
    return out[:MAX_SETTINGS]


def variants(module: ast.Module) -> list[tuple[dict, str]]:
    """``({if statement: whether its body runs}, what decides it)`` per setting and value, for the
    settings of the module that its own calls hand both ways (what decides it: "`flag` is True,
    as the call at line 31 hands it"); empty for most modules."""
    functions, methods, classes = _definitions(module)
    if not functions and not methods:
        return []
    seen: dict[tuple[int, str], dict] = {}  # (id of the def, parameter) -> value -> a call handing it
    calls = []  # (call, the function it is made in, the defs it may call, parameters skipped)
    for fn in [module, *(n for n in ast.walk(module) if type(n) in FUNCTIONS)]:
        for node in _own_calls(fn):
            func = node.func
            if type(func) is ast.Name and func.id in functions:
                targets, skip = [functions[func.id]], 0
            elif type(func) is ast.Name and func.id in classes and "__init__" in classes[func.id][1]:
                targets, skip = [classes[func.id][1]["__init__"]], 1
            elif type(func) is ast.Attribute and func.attr in methods:
                targets, skip = methods[func.attr], 1
            else:
                continue
            calls.append((node, fn, targets, skip))
    # what a call may hand as a thing to build or call: the file's classes and functions, and the
    # names it imports (`step(…, loss_fn=alignment_loss)` and `loss_fn=alignment_loss_with_grad`)
    handable = {*classes, *functions, *(a.asname or a.name for s in module.body if type(s) is ast.ImportFrom
                                        for a in s.names)}
    # (until nothing changes, a few times at most: `run(model, cut)` handing on what its own
    # callers hand it, `cut=True` and `False`, through each level of calls)
    links: dict = {}  # (id of the def, parameter) -> the caller's parameter handed on to it as it is
    configs = _config_fields(module)
    for _ in range(4):
        before = {key: dict(values) for key, values in seen.items()}
        for node, fn, targets, skip in calls:
            for target in targets:
                _handed(node, target, skip, seen, fn, handable, links, configs)
        if seen == before:
            break
    both = {key for key, values in seen.items() if values.keys() >= {True, False}}
    # (a parameter every call hands as a literal, guarding a backward: each call's own literal
    # decides whether that backward runs there, `fisher_loss(…, do_backward=False)` under
    # no_grad; a copy per value would run every call's body as the other calls hand it)
    both -= {key for key in both if _literal_everywhere(key, calls) and _guards_backward(key, calls)
             and _called_without_recording(key, calls)}
    # (nor one guarding the function's own switch of grad mode, `if reenable_grad:
    # torch.set_grad_enabled(True)`: the mode each call runs in is its own literal's)
    both -= {key for key in both if _literal_everywhere(key, calls) and _guards_backward(key, calls, GRAD_MODE)}
    # handed one way only (`StatefulTrainer(model)`, leaving `cut_state=False`): the file runs
    # just that arm, which matters where an arm cuts history (`state = state.detach()`)
    one = {key for key, values in seen.items() if len(values) == 1 and type(next(iter(values))) is bool}
    built = {key: sorted(v[len(CLASS):] for v in values if type(v) is str)
             for key, values in seen.items() if any(type(v) is str for v in values)}
    if not both and not built and not one:
        return []
    found = []  # (position, {if: arm when the setting is True})
    def wanted(key, tests) -> bool:
        return key in both or (key in one and any(_cuts(stmt) for stmt in tests))

    for node in [*functions.values(), *(m for ms in methods.values() for m in ms)]:
        for p in _parameters(node):
            if (id(node), p) in both or (id(node), p) in one:
                tests = _tests(node, lambda t: type(t) is ast.Name and t.id == p)
                if tests and wanted((id(node), p), tests):
                    found.append(((node.lineno, p), tests, p, seen[id(node), p], (id(node), p)))
    for cls, defs in classes.values():
        init = defs.get("__init__")
        if init is None:
            continue
        for attr, p in set_from_parameters(init):
            if (id(init), p) not in both and (id(init), p) not in one:
                continue
            tests = {}
            for method in defs.values():
                tests.update(_tests(method, lambda t, a=attr: type(t) is ast.Attribute and t.attr == a
                                    and type(t.value) is ast.Name and t.value.id == "self"))
            if tests and wanted((id(init), p), tests):
                found.append(((cls.lineno, attr), tests, f"self.{attr}", seen[id(init), p], (id(init), p)))
        for p in _parameters(init)[1:]:
            # (`if freeze_base:` in the `__init__` itself, freezing a member as it is built)
            if (id(init), p) in both or (id(init), p) in one:
                tests = _tests(init, lambda t, p=p: type(t) is ast.Name and t.id == p)
                if tests and wanted((id(init), p), tests):
                    found.append(((init.lineno, p), tests, p, seen[id(init), p], (id(init), p)))
    inits = [defs["__init__"] for _, defs in classes.values() if "__init__" in defs]
    for node in [*functions.values(), *(m for ms in methods.values() for m in ms), *inits]:
        for p in _parameters(node):
            names = built.get((id(node), p))
            if names and _builds(node, p):
                found.append(((node.lineno, p), {(node, p): names}, p, seen[id(node), p], None))
    out = []
    for _, tests, name, calls, _ in _linked(sorted(found, key=lambda f: f[0]), links)[:MAX_SETTINGS]:
        if any(type(k) is tuple for k in tests):
            (key, names), = tests.items()
            for cls_name in names:
                out.append(({key: cls_name}, f"`{name}` is `{cls_name}`, as the call at line "
                                             f"{calls[CLASS + cls_name]} hands it"))
            continue
        for value in (True, False):
            arms = _arms(tests, value)
            if value in calls and arms:
                out.append((arms, f"`{name}` is {value}, as the call at line {calls[value]} hands it"))
    return out


def _linked(found: list, links: dict) -> list:
    """The settings of ``found`` merged where one caller's parameter is handed on as it is to each
    (`learn(…, is_train)` calling `self.predict(x, is_train)` and `self._update(loss, is_train)`):
    every run gives them one value, so one walk decides the ``if`` statements of all of them."""
    def root(key):
        visited = set()
        while key in links and key not in visited:
            visited.add(key)
            key = links[key]
        return key

    merged, out = {}, []
    for position, tests, name, calls, key in found:
        source = root(key) if key is not None else None
        if source is not None and source in merged and not any(type(k) is tuple for k in tests):
            merged[source][1].update(tests)
            continue
        entry = [position, dict(tests), name, calls, key]
        if source is not None and not any(type(k) is tuple for k in tests):
            merged[source] = entry
        out.append(entry)
    return out


def built_one_way(module: ast.Module) -> dict:
    """{if statement: whether its body runs} for the tests of a class's setting (``if
    self.add_self_loops:``, set in ``__init__`` from a parameter) that every construction of the
    class in the file decides alike, handing the same literal or leaving the same default
    (``Distance(cutoff, max_num_neighbors=32)``). What a call of an instance built here does is
    that arm's (a summary's walk, not the class's own: a library's users may build it otherwise)."""
    functions, _, classes = _definitions(module)
    if not classes:
        return {}
    assigned: dict[str, int] = {}  # attribute -> how many assignments of it the module makes
    for node in ast.walk(module):
        for target in _targets(node) or ():
            if type(target) is ast.Attribute:
                assigned[target.attr] = assigned.get(target.attr, 0) + 1
    derived = {b.id for n in ast.walk(module) if type(n) is ast.ClassDef for b in n.bases if type(b) is ast.Name}
    calls: dict[str, list] = {}
    handed_otherwise: set[str] = set()
    parents = None
    for node in ast.walk(module):
        if type(node) is ast.Name and node.id in classes and type(node.ctx) is ast.Load:
            if parents is None:
                parents = {child: up for up in ast.walk(module) for child in ast.iter_child_nodes(up)}
            up = parents.get(node)
            if type(up) is ast.Call and up.func is node:
                calls.setdefault(node.id, []).append(up)
            elif not (type(up) is ast.ClassDef and node in up.bases):
                handed_otherwise.add(node.id)  # (`cls = Distance`, `isinstance(d, Distance)`)
    out = {}
    for name, (cls, defs) in classes.items():
        init = defs.get("__init__")
        if init is None or name in derived or name in handed_otherwise or not calls.get(name):
            continue
        seen: dict = {}
        for call in calls[name]:
            _handed(call, init, 1, seen)
        for attr, p in set_from_parameters(init):
            values = seen.get((id(init), p), {})
            if len(values) != 1 or assigned.get(attr) != 1 or any(
                    _unsure(call, init, p) for call in calls[name]):
                continue
            (value,) = values
            for method in defs.values():
                out.update(_arms(_tests(method, lambda t, a=attr: type(t) is ast.Attribute and t.attr == a
                                        and type(t.value) is ast.Name and t.value.id == "self"), value))
    return out


def _unsure(call: ast.Call, init, p: str) -> bool:
    """The call leaves what it hands ``p`` unread: anything but a literal where it names it, or
    ``*args``/``**kwargs``."""
    if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return True
    positional = [q.arg for q in [*init.args.posonlyargs, *init.args.args]][1:]
    given = dict(zip(positional, call.args)) | {k.arg: k.value for k in call.keywords}
    value = given.get(p)
    return value is not None and not (type(value) is ast.Constant and type(value.value) is bool)


def cut_on_request(node: ast.AST, function: ast.AST, module: ast.Module) -> bool:
    """``node`` is a cut ``function`` makes only where a parameter asks for it: in the body of an
    ``if`` testing the parameter whose statements all cut (`if stop_gradient: matrix =
    matrix.detach()`), or an arm of a conditional expression testing it (`h.detach() if detach
    else h`). ``module`` may be a variant's copy (``pruned``): the ``if`` is read where it is
    written."""
    module = getattr(module, "written", module)
    where = (getattr(node, "lineno", None), getattr(node, "col_offset", None))
    written = next((n for n in ast.walk(module) if type(n) in FUNCTIONS
                    and n.lineno == getattr(function, "lineno", None) and n.name == getattr(function, "name", None)), None)
    if written is None:
        return False
    params = set(_parameters(written))

    def asks(test) -> bool:
        test = test.operand if type(test) is ast.UnaryOp and type(test.op) is ast.Not else test
        return type(test) is ast.Name and test.id in params

    def holds(tree) -> bool:
        return any((getattr(n, "lineno", None), getattr(n, "col_offset", None)) == where for n in ast.walk(tree))

    todo = list(written.body)
    while todo:
        child = todo.pop()
        if type(child) in FUNCTIONS or type(child) in (ast.ClassDef, ast.Lambda):
            continue
        if type(child) is ast.If and asks(child.test) and all(_cuts(s) for s in child.body) \
                and any(holds(s) for s in child.body):
            return True
        if type(child) is ast.IfExp and asks(child.test) and (holds(child.body) or holds(child.orelse)):
            return True
        todo.extend(ast.iter_child_nodes(child))
    return False


def _cuts(node) -> bool:
    """The ``if`` (or conditional expression) cuts history in an arm: ``.detach()``, ``.data``,
    a no_grad region, a model's ``state_dict()`` (its values detached), values pulled out
    (``.item()``, ``.tolist()``, ``.numpy()``); or freezes parameters (``p.requires_grad =
    False``, ``requires_grad_(False)``): whether a region elsewhere starves them is that arm's."""
    for n in ast.walk(node):
        if type(n) is ast.Attribute and n.attr in ("detach", "detach_", "data", "no_grad", "inference_mode",
                                                   "state_dict", "item", "tolist", "numpy"):
            return True
        if type(n) is ast.Assign and any(type(t) is ast.Attribute and t.attr == "requires_grad" for t in n.targets) \
                and type(n.value) is ast.Constant and n.value.value is False:
            return True
        if type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr == "requires_grad_" \
                and n.args and type(n.args[0]) is ast.Constant and n.args[0].value is False:
            return True
    return False


def correlated(module: ast.Module) -> list[dict]:
    """``{if statement: whether its body runs when the test holds}`` per test that two or more
    ``if`` statements (or conditional expressions) of one function repeat (`if
    self.as_two_stage:` where the proposals are made, again where they are returned), reading
    only names the function never assigns: each run takes the same arm at every one of them, so
    a path through the body of one and past the other's ``else`` is no path of the program."""
    groups = []
    for fn in (n for n in ast.walk(module) if type(n) in FUNCTIONS):
        assigned = {ast.unparse(t) for n in ast.walk(fn) for t in _targets(n)}
        by_test: dict[str, dict] = {}
        for stmt in _tests(fn, lambda t: True):
            test, arm = stmt.test, True
            if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
                test, arm = test.operand, False
            if not _plain_test(test) or any(ast.unparse(n) in assigned for n in ast.walk(test)
                                            if type(n) in (ast.Name, ast.Attribute)):
                continue
            by_test.setdefault(ast.unparse(test), {})[stmt] = arm
        groups += [tests for tests in by_test.values() if len(tests) > 1]
    return groups


def _plain_test(test) -> bool:
    """A test of names, attributes and constants only: no call, no subscript."""
    return all(type(n) in (ast.Name, ast.Attribute, ast.Constant, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Load)
               or isinstance(n, (ast.cmpop, ast.boolop, ast.unaryop)) for n in ast.walk(test))


def _targets(node):
    if type(node) in (ast.Assign,):
        todo = list(node.targets)
    elif type(node) in (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr):
        todo = [node.target]
    elif type(node) in (ast.With, ast.AsyncWith):
        todo = [i.optional_vars for i in node.items if i.optional_vars is not None]
    else:
        return
    while todo:
        t = todo.pop()
        if type(t) in (ast.Tuple, ast.List):
            todo.extend(t.elts)
        elif type(t) is ast.Starred:
            todo.append(t.value)
        elif type(t) in (ast.Name, ast.Attribute):
            yield t


def _builds(node, p: str) -> bool:
    """The function calls its parameter ``p`` (``model = cls()``): it builds what it is handed."""
    return any(type(n) is ast.Call and type(n.func) is ast.Name and n.func.id == p for n in ast.walk(node))


def _definitions(module: ast.Module):
    functions = {s.name: s for s in module.body if type(s) in FUNCTIONS}
    methods: dict[str, list] = {}
    classes = {}
    for stmt in module.body:
        if type(stmt) is not ast.ClassDef:
            continue
        defs = {m.name: m for m in stmt.body if type(m) in FUNCTIONS}
        classes[stmt.name] = (stmt, defs)
        for name, m in defs.items():
            if not name.startswith("__"):
                methods.setdefault(name, []).append(m)
    return functions, methods, classes


def _parameters(node) -> list[str]:
    return [p.arg for p in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]


def _own_calls(fn):
    """The calls in a function's (or the module's) own body, not in the functions it defines."""
    todo = list(fn.body)
    while todo:
        node = todo.pop()
        if type(node) in FUNCTIONS or type(node) is ast.ClassDef or type(node) is ast.Lambda:
            continue
        if type(node) is ast.Call:
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _config_fields(module: ast.Module) -> dict:
    """Class name -> {field: its boolean default} for the module's classes that declare boolean
    fields with literal defaults (a dataclass's `cond_stop_grad: bool = True`)."""
    out = {}
    for cls in module.body:
        if type(cls) is not ast.ClassDef:
            continue
        fields = {}
        for stmt in cls.body:
            target = stmt.target if type(stmt) is ast.AnnAssign else stmt.targets[0] \
                if type(stmt) is ast.Assign and len(stmt.targets) == 1 else None
            if type(target) is ast.Name and type(stmt.value) is ast.Constant and type(stmt.value.value) is bool:
                fields[target.id] = stmt.value.value
        if fields:
            out[cls.name] = fields
    return out


def _config_values(expr, caller, configs: dict, depth: int = 0) -> dict | None:
    """{field: bool} of the configuration object ``expr`` builds or names in ``caller``
    (`TrainConfig()`, `TrainConfig(cond_stop_grad=False)`, `dataclasses.replace(cfg, …)`, a name
    bound once to one of those); None where that is not known."""
    if depth > 3 or expr is None:
        return None
    if type(expr) is ast.Name and caller is not None and (type(caller) in FUNCTIONS or type(caller) is ast.Module):
        # (in a function, or at the top level of the script, `if __name__ == "__main__":` included)
        bound = [n.value for n in _scope_nodes(caller) if type(n) is ast.Assign and len(n.targets) == 1
                 and type(n.targets[0]) is ast.Name and n.targets[0].id == expr.id]
        return _config_values(bound[0], caller, configs, depth + 1) if len(bound) == 1 else None
    if type(expr) is not ast.Call or any(k.arg is None for k in expr.keywords):
        return None
    func = expr.func
    name = func.id if type(func) is ast.Name else func.attr if type(func) is ast.Attribute else None
    if name in configs and not expr.args:
        base = dict(configs[name])
    elif name == "replace" and len(expr.args) == 1:
        base = _config_values(expr.args[0], caller, configs, depth + 1)
        if base is None:
            return None
    else:
        return None
    for keyword in expr.keywords:
        if keyword.arg in base:
            if not (type(keyword.value) is ast.Constant and type(keyword.value.value) is bool):
                base.pop(keyword.arg)
            else:
                base[keyword.arg] = keyword.value.value
    return base


def _scope_nodes(scope):
    """The nodes of a function or module, not those of the functions and classes it defines."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if type(node) not in (*FUNCTIONS, ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))


def _handed(call: ast.Call, target, skip: int, seen: dict, caller=None, handable=frozenset(), links=None,
            configs=None) -> None:
    """Note the literal booleans ``call`` hands ``target``'s parameters, and the boolean defaults
    of those it leaves out; a parameter of the calling function handed on as it is carries what
    that function's callers hand it."""
    args = target.args
    positional = [p.arg for p in [*args.posonlyargs, *args.args]][skip:]
    # (`f(*xs)`, `f(**kw)`: which places are filled is not known, but for those named,
    # `hard_triplets(model, *batch, rebuild=True)`)
    unsure = any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords)
    given = {}
    for name, value in zip(positional, call.args if not unsure else ()):
        given[name] = value
    for keyword in call.keywords:
        if keyword.arg is not None:
            given[keyword.arg] = keyword.value
    defaults = defaults_of(target) if not unsure else {}
    for name in {*given, *defaults}:
        value = given.get(name, defaults.get(name))
        fields = _config_values(value, caller, configs) if configs else None
        if fields:
            # `train(cfg)` with `cfg = TrainConfig()`: each boolean field as this call hands it,
            # read in there as `cfg.cond_stop_grad`
            for field, literal in fields.items():
                seen.setdefault((id(target), f"{name}.{field}"), {}).setdefault(literal, call.lineno)
            continue
        if type(value) is ast.Attribute and type(value.value) is ast.Name and caller is not None \
                and type(caller) in FUNCTIONS and value.value.id in _parameters(caller):
            # (`Policy(…, cond_stop_grad=cfg.cond_stop_grad)`: what the callers' configurations hold)
            for handed, line in seen.get((id(caller), f"{value.value.id}.{value.attr}"), {}).items():
                seen.setdefault((id(target), name), {}).setdefault(handed, line)
            continue
        if type(value) is ast.Constant and type(value.value) is bool:
            seen.setdefault((id(target), name), {}).setdefault(value.value, call.lineno)
        elif type(value) is ast.Name and value.id in handable:
            # `train(WideDeep)` and `train(WideDeepFixed)`: a class handed as the model to build
            # (or a function handed as the loss to call)
            seen.setdefault((id(target), name), {}).setdefault(CLASS + value.id, call.lineno)
        elif type(value) is ast.Name and caller is not None and _looped_over(caller, value.id, call):
            # `for keep_graph in (False, True): build(keep_graph)`: the loop hands both
            for literal in _looped_over(caller, value.id, call):
                seen.setdefault((id(target), name), {}).setdefault(literal, call.lineno)
        elif type(value) is ast.Name and caller is not None and type(caller) in FUNCTIONS \
                and value.id in _parameters(caller):
            if links is not None:
                links[id(target), name] = (id(caller), value.id)
            for handed, line in seen.get((id(caller), value.id), {}).items():
                seen.setdefault((id(target), name), {}).setdefault(handed, line)
            default = defaults_of(caller).get(value.id)
            if type(default) is ast.Name and default.id in handable:
                # (`Pico(rope_cls=RoPE)` handing its own default on to `Attention(…, rope_cls)`)
                seen.setdefault((id(target), name), {}).setdefault(CLASS + default.id, default.lineno)


def _looped_over(fn, name: str, call: ast.Call) -> tuple:
    """The literal booleans a ``for name in (False, True):`` of ``fn``'s own body around ``call``
    binds ``name`` to, in order; empty where no such loop holds the call."""
    body = fn.body if type(fn) in (*FUNCTIONS, ast.Module) else []
    for node in _own_statements(body):
        if type(node) in (ast.For, ast.AsyncFor) and type(node.target) is ast.Name and node.target.id == name \
                and type(node.iter) in (ast.Tuple, ast.List) and node.iter.elts \
                and all(type(e) is ast.Constant and type(e.value) is bool for e in node.iter.elts) \
                and any(n is call for stmt in node.body for n in ast.walk(stmt)):
            return tuple(e.value for e in node.iter.elts)
    return ()


def _own_statements(body):
    """The statements of a body and of the blocks nested in it, not of nested definitions."""
    for stmt in body:
        yield stmt
        if type(stmt) in (*FUNCTIONS, ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _own_statements(getattr(stmt, field, None) or [])
        for handler in getattr(stmt, "handlers", None) or []:
            yield from _own_statements(handler.body)


def _literal_everywhere(key, calls) -> bool:
    """Every call of the function ``key`` names hands its parameter a literal boolean itself, or
    leaves it at a literal boolean default (`self._run_one_epoch(epoch)` of `cross_valid=False`)."""
    fn_id, name = key
    found = False
    for call, _, targets, skip in calls:
        for target in targets:
            if id(target) != fn_id:
                continue
            found = True
            positional = [p.arg for p in [*target.args.posonlyargs, *target.args.args]][skip:]
            given = {**dict(zip(positional, call.args)), **{k.arg: k.value for k in call.keywords}}
            if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
                return False
            value = given.get(name, defaults_of(target).get(name))
            if not (type(value) is ast.Constant and type(value.value) is bool):
                return False
    return found


def _called_without_recording(key, calls) -> bool:
    """Some call of the function ``key`` names sits in a ``with torch.no_grad()`` (or
    ``inference_mode``, ``set_grad_enabled``) of the function that makes it."""
    fn_id, _ = key
    for call, caller, targets, _ in calls:
        if not any(id(t) == fn_id for t in targets):
            continue
        for node in ast.walk(caller):
            if type(node) in (ast.With, ast.AsyncWith) and any(
                    type(i.context_expr) is ast.Call and type(i.context_expr.func) is ast.Attribute
                    and i.context_expr.func.attr in ("no_grad", "inference_mode", "set_grad_enabled")
                    for i in node.items) \
                    and (node.lineno, node.col_offset) <= (call.lineno, call.col_offset) \
                    and (call.end_lineno, call.end_col_offset) <= (node.end_lineno, node.end_col_offset):
                return True
    return False


GRAD_MODE = ("set_grad_enabled", "enable_grad")


def _guards_backward(key, calls, what=("backward", "grad")) -> bool:
    """The function ``key`` names runs a backward (a call of a name in ``what``) under ``if name:``
    (or ``if not name:``)."""
    fn_id, name = key
    target = next((t for _, _, targets, _ in calls for t in targets if id(t) == fn_id), None)
    if target is None:
        return False
    for node in ast.walk(target):
        if type(node) is ast.If:
            test = node.test.operand if type(node.test) is ast.UnaryOp and type(node.test.op) is ast.Not else node.test
            if type(test) is ast.Name and test.id == name and any(
                    type(n) is ast.Call and type(n.func) is ast.Attribute and n.func.attr in what
                    for n in ast.walk(node)):
                return True
    return False


def defaults_of(fn) -> dict:
    """Parameter name -> its default expression."""
    args = fn.args
    defaults = dict(zip([p.arg for p in [*args.posonlyargs, *args.args]][-len(args.defaults):] if args.defaults else [],
                        args.defaults))
    defaults.update({p.arg: d for p, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
    return defaults


def set_from_parameters(init) -> list[tuple[str, str]]:
    """``self.attr = parameter`` in ``__init__`` (also ``self.a, self.b = a, b``): (attr, parameter)."""
    params = set(_parameters(init))
    pairs = []
    for stmt in ast.walk(init):
        if type(stmt) is not ast.Assign:
            continue
        for target in stmt.targets:
            if type(target) is ast.Tuple and type(stmt.value) is ast.Tuple and len(target.elts) == len(stmt.value.elts):
                pairs += zip(target.elts, stmt.value.elts)
            else:
                pairs.append((target, stmt.value))
    return [(t.attr, v.id) for t, v in pairs if type(v) is ast.Name and v.id in params
            and type(t) is ast.Attribute and type(t.value) is ast.Name and t.value.id == "self"]


def _tests(node, names) -> dict:
    """The ``if`` statements and conditional expressions in ``node`` (not in functions it
    defines) testing the setting, ``names(expr)`` saying whether an expression is it: {if:
    whether the body runs when it is True} (``if not setting:`` runs its body when it is False)."""
    found = {}
    todo = list(node.body)
    while todo:
        child = todo.pop()
        if type(child) in FUNCTIONS or type(child) in (ast.ClassDef, ast.Lambda):
            continue
        if type(child) in (ast.If, ast.IfExp):
            test = child.test
            if names(test):
                found[child] = True
            elif type(test) is ast.UnaryOp and type(test.op) is ast.Not and names(test.operand):
                found[child] = False
            elif type(test) is ast.BoolOp and any(names(v) for v in test.values):
                # `if self.cut_state and state is not None:` runs its body only when the setting
                # is True (`or`: always when it is True); the other value leaves it to the rest
                found[child] = AND if type(test.op) is ast.And else OR
        todo.extend(ast.iter_child_nodes(child))
    return found


AND, OR = "and", "or"  # a setting one operand of a test: which value decides the arm


def _arms(tests: dict, value: bool) -> dict:
    """{if: whether its body runs} where the setting's ``value`` decides it."""
    arms = {}
    for stmt, arm in tests.items():
        if arm is AND:
            if not value:
                arms[stmt] = False
        elif arm is OR:
            if value:
                arms[stmt] = True
        else:
            arms[stmt] = arm == value
    return arms


def pruned(module: ast.Module, arms: dict) -> ast.Module:
    """A copy of ``module`` (positions kept) where each ``if`` of ``arms`` is the arm it takes:
    its body when True, else its ``else`` (a ``pass`` where that arm is empty); a conditional
    expression, the value it takes."""
    twin = copy.deepcopy(module)
    twin.written = getattr(module, "written", module)  # (what ``cut_on_request`` reads)
    taken = {id(copied): arms[original] for original, copied in zip(ast.walk(module), ast.walk(twin))
             if original in arms}
    named = {fn: arms[(fn, p)] for fn, p in (k for k in arms if type(k) is tuple)}
    params = {fn: p for fn, p in (k for k in arms if type(k) is tuple)}
    for original, copied in zip(ast.walk(module), ast.walk(twin)):
        if original in named:  # `model = cls()` in the copy: the class this setting hands it
            for n in ast.walk(copied):
                if type(n) is ast.Name and n.id == params[original] and type(n.ctx) is ast.Load:
                    n.id = named[original]
    for node in ast.walk(twin):
        for name, value in ast.iter_fields(node):
            if type(value) is list and value and isinstance(value[0], ast.stmt):
                setattr(node, name, _taken(value, taken))
            elif type(value) is ast.IfExp and id(value) in taken:
                setattr(node, name, _chosen(value, taken))
            elif type(value) is list:
                setattr(node, name, [_chosen(v, taken) if type(v) is ast.IfExp and id(v) in taken else v
                                     for v in value])
    return twin


def _chosen(expr: ast.IfExp, taken: dict) -> ast.expr:
    while type(expr) is ast.IfExp and id(expr) in taken:
        expr = expr.body if taken[id(expr)] else expr.orelse
    return expr


def _taken(body: list, taken: dict) -> list:
    out = []
    for stmt in body:
        if id(stmt) not in taken:
            out.append(stmt)
            continue
        arm = _taken(stmt.body if taken[id(stmt)] else stmt.orelse, taken)
        out.extend(arm or [ast.copy_location(ast.Pass(), stmt)])
    return out
