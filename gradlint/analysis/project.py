"""The project's own files: where an import of the linted module leads, and what calling the
imported function or class does (its ``summaries.Summary``).

A module of the project is read, parsed with ``ast`` and summarized by the same walker as the
linted one (``flow._summaries``): one model, whichever file a function is in. Findings stay in
the linted file: a summary's facts are used at the call site there, and a message names a line of
another file as ``helpers.py, line 19`` (``display``).

What is followed, and what is not:

* ``import pkg.mod``, ``from pkg.mod import f``, ``from .mod import f``, ``from . import mod``,
  resolved to ``pkg/mod.py`` or ``pkg/mod/__init__.py`` under the importing file's own folder
  first (a script run from its folder, Python's ``sys.path[0]``), then the project root and its
  ``src/``. Nothing outside the root is read (torch, site-packages), nor the importing file itself.
* Imports are followed ``FOLLOW`` files deep (the linted file's imports, and theirs): each
  module is summarized at a depth, and its own imports at one less, so an import cycle unrolls
  into a bounded chain instead of looping, and the answer does not depend on which file was
  linted first. A module that cannot be read or parsed gives no summary, never an error.
* Per process, a module is parsed and summarized once per (path, depth, root) and reused while
  its bytes (and those of the modules it followed) hash the same: a file imported by many files
  is summarized once. ``View.dependencies`` lists the files a lint used, with their hashes, for
  the cache.
"""
from __future__ import annotations

import ast
import copy
import functools
import os
import stat
import time
from pathlib import Path

MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
FOLLOW = 2  # files followed beyond the linted one: its imports, and their imports
_OUTSIDE = {"site-packages", "dist-packages", "__pycache__"}

# (path, depth, root) -> _Module: what this process has read of the project's files.
_MODULES: dict[tuple[str, int, str], "_Module"] = {}
# id(node) -> (node, module): the nodes of other files that summaries carry into a lint (cuts,
# saves, regions, backward calls). The node is held, so its id cannot be reused while registered.
_ORIGIN: dict[int, tuple[ast.AST, "_Module"]] = {}


def find_root(start: str | os.PathLike) -> Path:
    """The project root for files under ``start`` (a folder): the nearest folder at or above it
    holding pyproject.toml, setup.py, setup.cfg or .git; else ``start`` itself."""
    return _find_root(os.path.abspath(start))


def _find_root(start: str) -> Path:
    found = _marked_above(start)
    return Path(start) if found is None else Path(found)


@functools.lru_cache(maxsize=4096)
def _marked_above(folder: str) -> str | None:
    """The nearest marked folder at or above ``folder``, else None. Asked per folder and
    remembered, so the folders of a tree share their parents' answers: each folder's markers are
    looked for once per run, not once per folder below it."""
    if any(os.path.exists(os.path.join(folder, marker)) for marker in MARKERS):
        return folder
    parent = os.path.dirname(folder)
    return None if parent == folder else _marked_above(parent)


def _marked(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in MARKERS)


def for_file(path: str | None, root: str | os.PathLike | None = None) -> "Project | None":
    """The project a linted file's imports resolve in: the nearest marked folder above the file;
    under none, ``root`` when given (the folder the linted paths share), else its own folder. None
    for standard input without a name, or a name whose folder does not exist."""
    top = root_for(path, root)
    return None if top is None else Project(top)


def root_for(path: str | None, root: str | os.PathLike | None = None) -> Path | None:
    """The root ``for_file`` gives (the cache keeps it with a file's findings)."""
    if not path or path == "-":
        return None
    folder = os.path.dirname(os.path.abspath(path))
    key = (folder, None if root is None else os.fspath(root))
    top = _ROOTS.get(key)
    if top is not None:  # (the files of a folder share their root: asked once per folder)
        return top
    if not os.path.isdir(folder):
        return None
    # A file's own project (the nearest marked folder above it) whatever else is linted with
    # it: `check repo/` and `check corpus/` give its imports, and so its findings, the same.
    # Only a file under no marked folder takes the shared folder's.
    top = find_root(folder)
    if root is not None and not _marked(top):
        top = find_root(root)
        if not _within(Path(folder), top):  # a file outside the shared folder: its own
            top = find_root(folder)
    if len(_ROOTS) < 4096:
        _ROOTS[key] = top
    return top


_ROOTS: dict[tuple, Path] = {}


class Project:
    def __init__(self, root: str | os.PathLike):
        self.root = Path(os.path.abspath(root))

    def view(self, path: str, imports, depth: int = FOLLOW) -> "View":
        """Where the imports of the module at ``path`` lead (attached to its ``ImportTable``)."""
        if depth >= FOLLOW:
            _begin(path)  # the linted module's own view: a new lint
        view = View(self, Path(os.path.abspath(path)), imports, depth)
        imports.project = view
        return view


_UNASKED = object()


def _star_names(tree: ast.Module, imports) -> list:
    """What ``from module import *`` binds, as (name, how that module imports it or None where
    it defines it): its ``__all__`` if it spells one out, else its public top-level names."""
    defined: dict = {}
    exported = None
    for stmt in tree.body:
        if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            defined[stmt.name] = None
        elif type(stmt) in (ast.Import, ast.ImportFrom):
            for alias in stmt.names:
                name = (alias.asname or alias.name).split(".")[0]
                if name != "*" and name in imports.sources:
                    defined[name] = imports.sources[name]
        elif type(stmt) is ast.Assign:
            for target in stmt.targets:
                if type(target) is ast.Name:
                    if target.id == "__all__" and type(stmt.value) in (ast.List, ast.Tuple):
                        exported = [e.value for e in stmt.value.elts
                                    if type(e) is ast.Constant and type(e.value) is str]
                    else:
                        defined.setdefault(target.id, None)
    if exported is not None:
        return [(name, defined.get(name)) for name in exported]
    return [(name, how) for name, how in defined.items() if not name.startswith("_")]


class View:
    """One module's imports, resolved in the project."""

    def __init__(self, project: Project, path: Path, imports, depth: int):
        self.project = project
        self.path = path
        self.folder = path.parent
        self.imports = imports
        self.depth = depth
        self.used: dict[str, _Module] = {}  # path -> module this view read
        self.keys: dict[str, tuple[_Module, str]] = {}  # injected class key -> (module, class)
        self._classes: dict = {}  # class key -> ClassInfo, of the keys asked so far
        self._asked: set[str] = set()
        self._by_name: dict | None = None
        self._found: dict[tuple[int, str], tuple | None] = {}
        self._callees: dict = {}  # qualname -> what ``callee`` answered
        self.callers: dict[str, str] = {}  # path -> hash of the other files read for their calls
        self.trained: dict[str, bool] = {}  # class -> whether another file optimizes an instance
        self.differentiated: dict[str, bool] = {}  # method name -> whether another file backpropagates its result
        if imports.stars and depth > 0:
            self._bring_stars()

    def _bring_stars(self) -> None:
        """``from retrieval import *`` of a module of the project: the names it brings, as if
        each were imported by name (``nearest_memories`` is ``retrieval.nearest_memories``, its
        summary read as any imported function's). Names the module imports itself come as it
        imports them (``torch``, ``nn``); its ``__all__`` where it has one, else its public names.
        A name imported by name stays as imported."""
        imports = self.imports
        sources: dict = {}
        names: dict = {}
        for level, source in reversed(imports.stars):  # (the last one that has a name binds it)
            where = self.locate(level, source) if source else None
            if where is None or where[1]:
                continue
            module = _module(where[0], self.depth - 1, self.project)
            if module is None:
                continue
            self.used[str(module.path)] = module
            for name, imported in _star_names(module.tree, module.imports):
                if name in imports.sources or name in sources:
                    continue
                if imported is None:
                    sources[name] = (level, f"{source}.{name}")
                    if not level:
                        names[name] = f"{source}.{name}"
                elif not imported[0]:
                    sources[name] = imported
                    names[name] = imported[1]
        if sources:
            # (new tables: the module's parsed table is shared by every view of it)
            imports.sources = {**sources, **imports.sources}
            imports.names = {**names, **imports.names}

    # ---- resolution -----------------------------------------------------------------------

    def _bases(self) -> list[Path]:
        root = self.project.root
        bases = [self.folder, self._above_package, root, root / "src"]
        return [b for i, b in enumerate(bases) if b not in bases[:i] and b.is_dir()]

    @functools.cached_property
    def _above_package(self) -> Path:
        """The folder holding the outermost package this file is in (itself where it is in
        none): where a script beside that package runs from, so that the package's absolute
        imports of itself (`from criterions.smoothed import …` in criterions/rdrop.py) resolve
        there, as Python's path entry for the script finds them."""
        folder = self.folder
        while (folder / "__init__.py").is_file() and folder.parent != folder and _within(folder.parent, self.project.root):
            folder = folder.parent
        return folder

    def locate(self, level: int, dotted: str) -> tuple[Path, list[str]] | None:
        """The file of the project that ``dotted`` (imported with ``level`` leading dots) names,
        and the attribute path left inside it: ``helpers.embed`` -> (helpers.py, ["embed"]).

        Remembered per process while every folder it may be found in keeps its modification
        time (a file created or removed there changes it): the files of a folder import the
        same modules, and most imports (``torch``, ``numpy``) are of no file of the project,
        which takes a dozen file system lookups to show each time."""
        key = (str(self.folder), str(self.project.root), level, dotted)
        known = _LOCATED.get(key)
        if known is None or known[0] != _stamp(known[1]):
            if not level and self._nowhere(dotted):
                # (most imports: `torch`, `numpy`, `os`; no folder searched has its first name)
                folders, found = self._first_bases(), None
            else:
                found, folders = self._locate(level, dotted), self._searched(level, dotted)
            known = (_stamp(folders), folders, found, found and os.path.realpath(found[0]))
            if len(_LOCATED) >= LOCATED_MAX:
                _LOCATED.clear()
            _LOCATED[key] = known
        if known[2] is not None and known[3] == self._real:
            return None  # the module itself (a script importing itself by name)
        return known[2]

    def _first_bases(self) -> tuple[str, ...]:
        root = self.project.root
        return (str(self.folder), str(self._above_package), str(root), str(root / "src"))

    def _nowhere(self, dotted: str) -> bool:
        """Whether no folder an absolute import is searched in holds its first name, as a
        module or a package: read from each folder's entries (listed once while it keeps its
        modification time), not from lookups of every path it could take. A folder created or
        removed there changes that time, which ``locate`` then notices."""
        first = dotted.partition(".")[0]
        if not first:
            return True
        for folder in self._first_bases():
            names = _entries(folder)
            if names is None or first in names or first + ".py" in names:
                return False
        return True

    def _searched(self, level: int, dotted: str) -> tuple[str, ...]:
        """The folders whose entries decide where ``dotted`` leads: each base searched, and
        the folders along the dotted path under it (``pkg`` for ``pkg.later``)."""
        parts = [p for p in dotted.split(".") if p]
        if level:
            bases = [self._package(level)]
        else:
            root = self.project.root
            bases = [self.folder, self._above_package, root, root / "src"]
        # As strings: a Path keeps its parts besides its text, and these are kept in ``_LOCATED``.
        return tuple(str(base.joinpath(*parts[:i])) for base in bases for i in range(len(parts))) \
            or tuple(map(str, bases))

    def _package(self, level: int) -> Path:
        """The folder an import with ``level`` leading dots starts from."""
        base = self.folder
        for _ in range(level - 1):
            base = base.parent
        return base

    @functools.cached_property
    def _real(self) -> str:
        return os.path.realpath(self.path)

    def _locate(self, level: int, dotted: str) -> tuple[Path, list[str]] | None:
        parts = [p for p in dotted.split(".") if p]
        if level:
            base = self._package(level)
            if not _within(base, self.project.root):
                return None
            bases = [base]
        else:
            if not parts:
                return None
            candidates = self._bases()
            # Python takes the first path entry holding the top-level module or package.
            bases = [b for b in candidates if (b / (parts[0] + ".py")).is_file()
                     or (b / parts[0] / "__init__.py").is_file()]
            bases = bases[:1] or [b for b in candidates if (b / parts[0]).is_dir()][:1]
        for base in bases:
            for i in range(len(parts), -1, -1):
                folder = base.joinpath(*parts[:i])
                if i and (folder / "__init__.py").is_file():
                    found = folder / "__init__.py"
                elif i and folder.with_name(folder.name + ".py").is_file():
                    found = folder.with_name(folder.name + ".py")
                elif i == 0 and level and (folder / "__init__.py").is_file():
                    found = folder / "__init__.py"  # `from . import x`: the package's own names
                else:
                    continue
                if not self._allowed(found):
                    return None
                return found, parts[i:]
        return None

    def _allowed(self, found: Path) -> bool:
        try:
            real = Path(os.path.realpath(found))
        except OSError:
            return False
        if _OUTSIDE.intersection(real.parts):
            return False
        return _within(real, Path(os.path.realpath(self.project.root)))

    def load(self, level: int, dotted: str) -> tuple["_Module", list[str]] | None:
        """The module ``dotted`` leads to, read at one depth less, and the attributes left."""
        if self.depth <= 0:
            return None
        key = (level, dotted)
        if key not in self._found:
            where = self.locate(level, dotted)
            found = None
            if where is not None:
                module = _module(where[0], self.depth - 1, self.project)
                if module is not None:
                    self.used[str(module.path)] = module
                    found = (module, where[1])
            self._found[key] = found
        return self._found[key]

    def switched_off_by_import(self, level: int, dotted: str, names=()):
        """The `torch.set_grad_enabled(False)` statement at the top level of the project's module
        ``dotted`` that its import leaves in force (an inference script's own switch, made for
        itself, that turns recording off for the whole process that imports it), or None. The
        import runs each package on the way first (`from textkit.tokenize import …` runs
        `textkit/__init__.py`), and ``names`` imported from it that are modules after it; a
        top-level call of a function of the module whose own body switches counts as the
        switch (`_configure_renderer()`)."""
        parts = [p for p in dotted.split(".") if p]
        paths = [".".join(parts[:i]) for i in range(0 if level else 1, len(parts) + 1)]
        paths += [".".join([*parts, name]) for name in names]
        switch = None
        for path in paths:
            found = self.load(level, path)
            if found is None or found[1]:
                continue
            state = _top_level_switch(found[0])
            if state is not None:
                switch = state if state is not False else None
        return switch

    # ---- what the linted module asks -------------------------------------------------------

    def callee(self, qualname: str):
        """The summary of calling ``qualname`` (a name of the module, resolved through its
        imports: ``helpers.embed``, ``blocks.Head`` for an instance, ``blocks.Head.encode``)
        where it is a function or class of another file of the project; else None. Asked at
        each call of an imported name (most lead out of the project: ``F.relu``,
        ``self.assertEqual``), and answered once per name per lint."""
        known = self._callees.get(qualname, _UNASKED)
        if known is _UNASKED:
            known = self._callees[qualname] = self._callee(qualname)
        return known

    def _callee(self, qualname: str):
        parts = qualname.split(".")
        for i in range(1, len(parts) + 1):  # the classes it may be called through
            self.class_for(".".join(parts[:i]))
        for key, (module, name) in self.keys.items():
            if qualname == key or qualname.startswith(key + "."):
                own = name + qualname[len(key):]
                return module.summary(own) or (module.inherited_summary(own) if own.count(".") == 1 else None)
        target = self.imports.target(qualname)
        if target is None:
            return None
        found = self.load(*target)
        if found is None:
            return None
        module, attrs = found
        return module.attribute_summary(attrs)

    def leaf_places(self, qualname: str) -> set:
        """For ``qualname``, a function of another file of the project (``helpers.r1_reg``): the
        places (position as called, parameter name) of the parameters it differentiates against
        (``autograd.grad(d_out.sum(), x_in)``), as ``scan.leaves_handed_on`` reads its own
        file's; empty elsewhere."""
        from gradlint.analysis.scan import leaf_places

        target = self.imports.target(qualname)
        found = self.load(*target) if target is not None else None
        if found is not None and len(found[1]) == 1:
            module, attrs = found
            return leaf_places(module.tree, module.imports).get(attrs[0], set())
        if target is None and "." not in qualname:
            for level, name in self.imports.stars:  # (`from helpers import *`)
                found = self.load(level, name)
                if found is not None and not found[1]:
                    places = leaf_places(found[0].tree, found[0].imports).get(qualname)
                    if places:
                        return places
        return set()

    def class_def(self, qualname: str):
        """The class definition another file of the project has under ``qualname`` as this
        module imports it, else None."""
        target = self.imports.target(qualname)
        found = self.load(*target) if target is not None else None
        if found is None or len(found[1]) != 1:
            return None
        module, (name,) = found
        return next((stmt for stmt in module.tree.body if type(stmt) is ast.ClassDef and stmt.name == name), None)

    def function_def(self, qualname: str):
        """The module-level function another file of the project has under ``qualname`` as this
        module imports it (``TorchUtils.soft_update``), else None."""
        target = self.imports.target(qualname)
        found = self.load(*target) if target is not None else None
        if found is None or len(found[1]) != 1:
            return None
        module, (name,) = found
        return next((stmt for stmt in module.tree.body
                     if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef) and stmt.name == name), None)

    def optimizer_class(self, qualname: str):
        """The class definition of an optimizer of another file of the project that the module
        imports under ``qualname`` (`from sam import SAM`: `class SAM(torch.optim.Optimizer)`),
        else None. (Not a module, so ``class_for`` does not give it.)"""
        target = self.imports.target(qualname)
        found = self.load(*target) if target is not None else None
        if found is None or len(found[1]) != 1:
            return None
        module, (name,) = found
        for stmt in module.tree.body:
            if type(stmt) is ast.ClassDef and stmt.name == name and any(
                    (module.imports.qualname(base) or "").startswith("torch.optim.") for base in stmt.bases):
                return stmt
        return None

    def class_for(self, key: str):
        """The class of another file of the project that the module imports under ``key``, as
        the module's walk names it (``blocks.Head``, or ``Head`` for a relative import), else
        None: a model built from one is known to be a module, and its calls are read through
        its summary. Only classes known to be ``nn.Module``s or to have no base are given (as
        for a class of the file itself). Read when first asked (``ClassTable``): a module
        imports many classes and its walk asks about few, and reading them all parsed every
        file it imports."""
        out = self._classes
        if key in out:
            return out[key]
        if key in self._asked:
            return None
        self._asked.add(key)
        if key.startswith("<"):
            return None  # another file's own class: known once a class of that file was read
        for module, name in self._imported(key):
            if name in module.own_classes:
                self._inject(out, key, module, name)
            if key in out:  # the first import that gives it (a later one is not read)
                return out[key]
        return None

    def _imported(self, key: str):
        """Where each import that binds ``key`` (``blocks.Head``, or ``Head`` imported by name)
        leads, in the order the module binds them: (module, the name in it), read as a module's
        attribute or through a package's re-export (``class_module``)."""
        head = key.rpartition(".")[0]
        bindings = self._bindings()
        if not head and key not in bindings:
            # (`class DDPGAgent(BaseAgent)` with `from .BaseAgent import *`: the class the star
            # import brings, the last one that has it, as Python binds them)
            for level, target in reversed(self.imports.stars):
                found = self.load(level, target)
                resolved = found[0].class_module(key) if found is not None and not found[1] else None
                if resolved is not None:
                    yield resolved
                    return
        for _, shown, level, target in sorted([*bindings.get(key, ()), *(bindings.get(head, ()) if head else ())]):
            found = self.load(level, target)
            if found is None:
                continue
            module, attrs = found
            if not attrs and shown == head:  # a module: its classes as attributes
                yield module, key[len(head) + 1:]
            elif len(attrs) == 1 and shown == key:
                resolved = module.class_module(attrs[0])
                if resolved is not None:
                    yield resolved

    def base_class(self, key: str):
        """The scan (``scan.ClassInfo``) of ``key``, a base class of another file of the project
        as the module names it, or None."""
        for module, name in self._imported(key):
            return module.own_classes.get(name)
        return None

    def plain_class(self, key: str) -> bool:
        """Whether ``key`` (a base class as the module names it, ``decode.Strategy``) is a class
        of another file of the project that is no ``nn.Module`` and whose own bases are plain
        (``object``, or none): a subclass of it holds no parameters either. Read as
        ``class_for`` reads a class, but from the file's own scan (plain classes are not given to
        the module's class table)."""
        for module, name in self._imported(key):
            info = module.own_classes.get(name)
            return info is not None and not info.is_module and not info.unseen_base
        return False

    def _bindings(self) -> dict:
        """Each name the module binds to something it imports, as its walk names it -> (order,
        name, leading dots, what was imported)."""
        if self._by_name is None:
            imports = self.imports
            bindings = [(name, level, target) for name, (level, target) in imports.sources.items()]
            bindings += [(module, 0, module) for module in sorted(imports.modules) if "." in module]
            self._by_name = {}
            for order, (name, level, target) in enumerate(bindings):
                shown = imports.names.get(name, name)
                self._by_name.setdefault(shown, []).append((order, shown, level, target))
        return self._by_name

    def _inject(self, out: dict, key: str, module: "_Module", cls: str) -> None:
        info = module.exported_class(cls)
        if info is None or key in out:
            return
        out[key] = info
        self.keys[key] = (module, cls)
        # The classes its members are built from, under keys of their own (``self.block =
        # Block()`` in that file is that file's Block, not one of the linting module's).
        for other, inner in module.exported_classes().items():
            inner_key = module.key_of(other)
            if inner_key not in out:
                out[inner_key] = inner
                self.keys[inner_key] = (module, other)

    def close(self) -> None:
        """The lint is over: unlink the view from its module's imports (each refers to the
        other), so reference counting frees both and the modules it read stay only cached."""
        self.imports.project = None
        self.used = {}
        self.keys.clear()
        self._found.clear()
        self._callees.clear()
        self._classes.clear()

    def dependencies(self) -> dict[str, str]:
        """Every file of the project this lint read (transitively), with its content hash."""
        out: dict[str, str] = dict(self.callers)
        for module in self.used.values():
            module.dependencies(out)
        return out

    # ---- the project's other files, as callers ----------------------------------------------

    def called_only_under_nograd(self, name: str) -> bool:
        """Whether the project's other files call ``name``, a module-level function of this
        view's file, and every call runs under no_grad (an evaluation helper called only from a
        ``@torch.no_grad()`` feature extractor in another file): what it computes is recorded
        nowhere. Asked only for a finding about to be reported, so every file of the project that
        spells both the function's and this module's names is read then; those it read count as
        the findings' dependencies."""
        from gradlint.analysis.scan import called_only_under_nograd_in

        return self._every_caller(name, called_only_under_nograd_in)

    def built_only_for_eval(self, name: str) -> bool:
        """Whether the project's other files build ``name``, a module class of this view's file,
        and call every instance they build (``self.clip = ClipBoxes()``, then ``self.clip(boxes,
        img)``) only where nothing is recorded: under no_grad, or in a model's eval-mode branch
        (after ``if self.training: return …``). Asked only for a finding about to be reported."""
        from gradlint.analysis.scan import instances_called_only_in_eval

        return self._every_caller(name, instances_called_only_in_eval)

    def trained_elsewhere(self, name: str) -> bool:
        """Whether another file of the project builds ``name``, a module class of this view's file,
        and hands an instance's parameters to one of torch's optimizers (a training script beside
        the model's file). Asked only for a cut about to be reported or let go, memoized."""
        from gradlint.analysis.scan import instances_optimized_in

        found = self.trained.get(name)
        if found is None:
            found = self.trained[name] = any(
                instances_optimized_in(tree, imports, target) for tree, imports, target, _ in self._calling_files(name))
        return found

    def fed_activations(self, name: str, index: int, param: str) -> bool:
        """Whether another file of the project builds ``name``, a module class of this view's
        file, as a member of a model and calls it on what another member of that model computed
        (``self.segmenter(self.encoder(x))``): its forward's parameter ``param`` (at ``index``)
        carries activations. Asked only for a copy of that parameter about to be let go."""
        from gradlint.analysis.scan import instances_fed_activations

        return any(instances_fed_activations(tree, target, index, param)
                   for tree, _, target, _ in self._calling_files(name, self._near_files()))

    def _every_caller(self, name: str, ask) -> bool:
        """Some other file answers ``ask(tree, imports, target)`` True and none False (None: it
        makes no such call)."""
        found = False
        for tree, imports, target, _ in self._calling_files(name):
            answer = ask(tree, imports, target)
            if answer is None:
                continue
            if not answer:
                return False
            found = True
        return found

    def called_elsewhere(self, name: str) -> bool:
        """Whether another file of the project calls ``name``, a module-level function of this
        view's file (asked, as above, only for a finding about to be reported)."""
        return any(any(type(n) is ast.Call and target(n) for n in ast.walk(tree))
                   for tree, _, target, _ in self._calling_files(name))

    def handed_classes(self, name: str, params: list[str]) -> dict:
        """For ``name``, a module-level function of this view's file: parameter -> the class of
        this file that every call of it in the project's other files hands that parameter
        (`train_step(trainer, …)` in main.py, after `trainer = InpaintTrainer()`), by the
        constructor call itself or by the one name it is bound to in the calling file. Asked
        for a function that trains what a parameter computes and that its own file never calls;
        only the files beside it and one folder up are read (``_near_files``)."""
        here = os.path.realpath(self.path)
        found: dict[str, set] = {}
        for tree, imports, target, caller in self._calling_files(name, self._near_files()):
            built = {}  # name -> the constructor calls it is bound to in the calling file
            for node in ast.walk(tree):
                if type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
                    built.setdefault(node.targets[0].id, []).append(node.value)
                elif type(node) is ast.Assign and len(node.targets) == 1 and type(node.targets[0]) is ast.Tuple \
                        and type(node.value) is ast.Tuple and len(node.targets[0].elts) == len(node.value.elts):
                    # (`disp_net, pose_net = DispNet(), PoseNet()`)
                    for name, value in zip(node.targets[0].elts, node.value.elts):
                        if type(name) is ast.Name:
                            built.setdefault(name.id, []).append(value)
            for param, arg in _handed_arguments(tree, target, params):
                values = built.get(arg.id, []) if type(arg) is ast.Name else [arg]
                classes = {_class_in(caller, imports, value, here) or self._class_elsewhere(caller, imports, value)
                           or _torch_module(imports, value) for value in values}
                found.setdefault(param, set()).update(classes or {None})
        return {param: next(iter(classes)) for param, classes in found.items()
                if len(classes) == 1 and None not in classes}

    def _class_elsewhere(self, caller: "View", imports, value) -> str | None:
        """The key, in this module's class table, of the class of a third file of the project
        that ``value``, a call in ``caller``'s file, constructs (`DiceBCE()` in main.py, of
        lossutils.py, handed to a training function of this file)."""
        if type(value) is not ast.Call or self.depth <= 0:
            return None
        qualname = imports.qualname(value.func)
        where = imports.target(qualname) if qualname else None
        found = caller.locate(*where) if where is not None else None
        if found is None or len(found[1]) != 1:
            return None
        module = _module(found[0], self.depth - 1, self.project)
        if module is None or module.exported_class(found[1][0]) is None:
            return None
        key = module.key_of(found[1][0])
        self._inject(self._classes, key, module, found[1][0])
        self.used[str(module.path)] = module
        return key

    def handed_functions(self, name: str, params: list[str]) -> dict:
        """For ``name``, a module-level function of this view's file: parameter -> the
        functions of the project, as (path, name), that every call of it in the files beside it
        and one folder up hands that parameter (`train_kd(model, …, loss_fn_kd, …)` in main.py,
        after `loss_fn_kd = loss_kd` in one branch and `= loss_kd_self` in the other), by the
        function's own name or by the one local name every binding of which names one. A
        parameter some call hands anything else is left out."""
        here = os.path.realpath(self.path)
        found: dict[str, set] = {}
        for tree, imports, target, caller in self._calling_files(name, self._near_files()):
            bound: dict = {}  # name -> what every assignment of it binds
            defined = {stmt.name for stmt in tree.body if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef)}
            for node in ast.walk(tree):
                if type(node) is ast.Assign:
                    for t in node.targets:
                        if type(t) is ast.Name:
                            bound.setdefault(t.id, []).append(node.value)
            methods = _own_methods(tree)
            for param, arg in _handed_arguments(tree, target, params):
                if id(arg) in methods:
                    # (`armijo_step(self.objective, …)` in a method of the class that defines it)
                    found.setdefault(param, set()).add((str(caller.path), methods[id(arg)]))
                    continue
                names = [arg]
                if type(arg) is ast.Name and arg.id not in defined and arg.id in bound:
                    names = bound[arg.id]
                # (`losses.label_only if args.plain else losses.distill`: either)
                names = [part for value in names for part in (
                    (value.body, value.orelse) if type(value) is ast.IfExp else (value,))]
                functions = {_function_in(caller, imports, value, defined)
                             or _bound_method_in(caller, imports, value, bound, tree) for value in names}
                found.setdefault(param, set()).update(functions)
        return {param: frozenset(functions) for param, functions in found.items()
                if functions and None not in functions and all(os.path.realpath(p) != here for p, _ in functions)}

    def differentiated_elsewhere(self, method: str) -> bool:
        """Whether another file beside this one (``_near_files``) calls a method named
        ``method`` and differentiates what it returns (``loss = model.compute_loss(batch)``,
        then ``loss.backward()``): a training loop handed the instance, whose class only its
        callers know. Memoized per name."""
        found = self.differentiated.get(method)
        if found is None:
            found = self.differentiated[method] = any(
                method in differentiated_methods(tree) for tree in self._near_trees(f".{method}(".encode()))
        return found

    def _near_trees(self, spelled: bytes):
        """The parsed files beside this one (``_near_files``, this file left out) whose text
        holds ``spelled``; each one read is recorded in ``callers``."""
        from gradlint.cache import content_hash
        from gradlint.files import read_regular

        for path in self._near_files():
            path = Path(os.path.abspath(path))
            if path == self.path:
                continue
            data = read_regular(path)
            if data is None or spelled not in data:
                continue
            try:
                tree = ast.parse(data)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            self.callers[str(path)] = content_hash(data)
            yield tree

    def function_summary(self, path: str, name: str):
        """The summary of the module-level function ``name`` of the project's file ``path``."""
        if self.depth <= 0:
            return None
        module = _module(Path(path), self.depth - 1, self.project)
        if module is None:
            return None
        self.used[str(module.path)] = module
        return module.attribute_summary(name.split("."))  # (`Class.method`: a bound method handed)

    def constructions(self, name: str) -> list:
        """The calls of ``name``, a class of this view's file, in the files beside it and one
        folder up (``_near_files``): how the project builds it, read for the defaults its
        constructor leaves."""
        return [call for tree, _, target, _ in self._calling_files(name, self._near_files())
                for call in ast.walk(tree) if type(call) is ast.Call and target(call)]

    def sequences_of(self, name: str) -> list:
        """The sequences of method calls the scripts beside this file make on each instance of
        ``name``, a class of it, they build (``sequence.sequences``): main.py's
        ``model.gen_batch(x, z)``, then ``model.train_generator()``."""
        from gradlint.analysis.sequence import sequences

        return [calls for tree, _, target, _ in self._calling_files(name, self._near_files())
                for calls in sequences(tree, target)]

    def _near_files(self):
        """The Python files of this file's folder and of the folder above it (within the
        project): where the scripts that drive a module's training step usually sit, listed
        without walking the whole project."""
        folders = [self.path.parent]
        if self.path.parent != self.project.root and self.project.root in self.path.parent.parents:
            folders.append(self.path.parent.parent)
        for folder in folders:
            try:
                names = sorted(os.listdir(folder))
            except OSError:
                continue
            yield from (folder / n for n in names if n.endswith(".py"))

    def _calling_files(self, name: str, paths=None):
        """(tree, imports, whether a call is of ``name`` of this file, its view) for each other
        file of the project (or of ``paths``) that spells both the function's and this module's
        names; each one read is recorded in ``callers``."""
        from gradlint.analysis.imports import collect_imports
        from gradlint.cache import content_hash
        from gradlint.files import read_regular

        module = self.path.parent.name if self.path.name == "__init__.py" else self.path.stem
        spelled = (name.encode(), module.encode())
        here = os.path.realpath(self.path)
        if paths is None:
            from gradlint.discovery import discover

            paths = discover([self.project.root], root=self.project.root, on_error=lambda line: None)
        for path in paths:
            path = Path(os.path.abspath(path))
            if path.suffix != ".py" or path == self.path:
                continue
            data = read_regular(path)
            if data is None or not all(word in data for word in spelled):
                continue
            try:
                tree = ast.parse(data)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                continue
            imports = collect_imports(tree)
            # (one level of what that file imports, as its own lint would read it: the class of a
            # third file it builds around the instance, `utils.WarmupStepper(model, lr)`)
            caller = View(self.project, path, imports, 1)
            imports.project = caller

            def target(call: ast.Call, imports=imports, caller=caller) -> bool:
                # (a call of this very function: its import, resolved as the caller's lint would)
                qualname = imports.qualname(call.func)
                if not qualname or qualname.rpartition(".")[2] != name:
                    return False
                where = imports.target(qualname)
                # (`from network import *`, then `Model()`: each star import that may bind it)
                tried = [where] if where is not None else [
                    (level, f"{source}.{qualname}" if source else qualname)
                    for level, source in reversed(imports.stars)] if qualname == name else []
                for place in tried:
                    found = caller.locate(*place)
                    if found is not None and found[1] == [name]:
                        return os.path.realpath(found[0]) == here
                return False

            self.callers[str(path)] = content_hash(data)
            try:
                yield tree, imports, target, caller
            finally:
                caller.close()  # (the view and its imports refer to each other; also when the asker stops early)


def import_name(path: Path) -> str:
    """How a file is imported: ``textkit`` for ``textkit/__init__.py``, ``viz_utils`` for ``viz_utils.py``."""
    return path.parent.name if path.name == "__init__.py" else path.stem


TRIES = tuple(t for t in (ast.Try, getattr(ast, "TryStar", None)) if t is not None)


def _top_level_switch(module):
    """What the top level of ``module`` leaves recording as: the statement that last switched it
    off (`torch.set_grad_enabled(False)`, a call of a function of the module whose body does, or an
    import of a module that leaves it off), False where it last switched it back on (any other
    argument: `torch.set_grad_enabled(previous)` in a `finally` restores what it found), None where
    it does neither. `try` blocks run in order; an `if` (`__name__ == "__main__"`) is not read."""
    functions = {stmt.name: stmt for stmt in module.tree.body if type(stmt) in (ast.FunctionDef, ast.AsyncFunctionDef)}
    state = _switch_of(module, functions, module.tree.body, None, True)
    if state not in (None, False):
        module.parsed.own([state])
    return state


def _switch_of(module, functions: dict, body, state, calls: bool):
    """``_top_level_switch`` over the statements ``body``, from ``state``; ``calls``: also the
    imports and the calls of the module's own functions (not inside one of those)."""
    from gradlint.analysis.scan import SET_GRAD_ENABLED, literal_false

    for stmt in body:
        if type(stmt) in TRIES:
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                state = _switch_of(module, functions, block, state, calls)
            continue
        if calls and type(stmt) in (ast.Import, ast.ImportFrom) and module.view is not None:
            # (what it imports at its top level runs then: `import runtime` switching it off)
            for level, dotted, names in ([(stmt.level, stmt.module or "", [a.name for a in stmt.names])]
                                         if type(stmt) is ast.ImportFrom else [(0, a.name, ()) for a in stmt.names]):
                inner = module.view.switched_off_by_import(level, dotted, names)
                state = inner if inner is not None else state
            continue
        # (`ACTIVE = configure_runtime(SETTINGS)` runs it as a statement of its own does)
        call = stmt.value if type(stmt) in (ast.Expr, ast.Assign, ast.AnnAssign) else None
        if type(call) is not ast.Call:
            continue
        if call.args and module.imports.qualname(call.func) in SET_GRAD_ENABLED:
            state = stmt if literal_false(call.args[0]) else False
        elif calls and type(call.func) is ast.Name and call.func.id in functions:
            # (`_configure_renderer()`: what its own body leaves, as this statement)
            inner = _switch_of(module, functions, functions[call.func.id].body, None, False)
            state = stmt if inner not in (None, False) else False if inner is False else state
    return state


def differentiated_methods(tree) -> set:
    """The names of the methods whose results a function of ``tree`` (or its top level)
    differentiates: a call ``x.m(…)`` that is, or is a term of, a ``backward()`` or
    ``autograd.grad`` root, directly or through the names it is bound to (``loss, logs =
    model.shared_step(batch)``; ``total = total + loss``)."""
    from gradlint.analysis.imports import dotted

    found = set()
    scopes = [tree, *(n for n in ast.walk(tree) if type(n) in (ast.FunctionDef, ast.AsyncFunctionDef))]
    for scope in scopes:
        holds: dict[str, set] = {}  # name -> the methods whose result it is (or sums)
        roots = []
        for node in _own_nodes(scope):
            kind = type(node)
            if kind in (ast.Assign, ast.AugAssign, ast.AnnAssign) and node.value is not None:
                methods = _result_of(node.value, holds)
                if methods:
                    targets = node.targets if kind is ast.Assign else [node.target]
                    for target in targets:
                        elts = target.elts if type(target) in (ast.Tuple, ast.List) else [target]
                        for elt in elts:
                            if type(elt) is ast.Name:
                                holds.setdefault(elt.id, set()).update(methods)
            elif kind is ast.Call and type(node.func) is ast.Attribute:
                if node.func.attr == "backward":
                    autograd = dotted(node.func.value) in ("torch.autograd", "autograd")
                    roots.append(node.args[0] if autograd and node.args else node.func.value)
                elif node.func.attr == "grad" and dotted(node.func.value) in ("torch.autograd", "autograd"):
                    root = next((k.value for k in node.keywords if k.arg == "outputs"), node.args[0] if node.args else None)
                    if root is not None:
                        roots.append(root)
        for root in roots:
            found |= _result_of(root, holds)
    return found


def _own_nodes(scope):
    """The nodes of a function (or a module's top level), not of the functions nested in it, in
    the order they are written."""
    todo = list(reversed(getattr(scope, "body", [])))
    while todo:
        node = todo.pop()
        if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda):
            continue
        yield node
        todo.extend(reversed(list(ast.iter_child_nodes(node))))


def _result_of(expr, holds: dict) -> set:
    """The methods whose result ``expr`` is, or sums: ``x.m(…)``, ``x.m(…)[0]``, a name bound to
    one, and sums, differences and scalings of those (``loss + 0.1 * aux``)."""
    kind = type(expr)
    if kind is ast.Call and type(expr.func) is ast.Attribute:
        if expr.func.attr in ("mean", "sum") and not expr.args:
            return _result_of(expr.func.value, holds)  # (`model.loss(x).mean().backward()`)
        return {expr.func.attr}
    if kind is ast.Name:
        return holds.get(expr.id, set())
    if kind is ast.Subscript:
        return _result_of(expr.value, holds)
    if kind is ast.BinOp and type(expr.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
        return _result_of(expr.left, holds) | _result_of(expr.right, holds)
    if kind is ast.UnaryOp:
        return _result_of(expr.operand, holds)
    return set()


def _class_in(caller: "View", imports, value, here: str) -> str | None:
    """The class of the file ``here`` that ``value``, a call in ``caller``'s file, constructs."""
    if type(value) is not ast.Call:
        return None
    qualname = imports.qualname(value.func)
    where = imports.target(qualname) if qualname else None
    found = caller.locate(*where) if where is not None else None
    if found is None or len(found[1]) != 1 or os.path.realpath(found[0]) != here:
        return None
    return found[1][0]


def _handed_arguments(tree, target, params: list[str]):
    """(parameter, argument as written) for each argument each call of ``tree`` that ``target``
    accepts hands a parameter of ``params`` (by place or by keyword)."""
    for call in ast.walk(tree):
        if type(call) is not ast.Call or not target(call):
            continue
        yield from ((params[i], arg) for i, arg in enumerate(call.args)
                    if i < len(params) and type(arg) is not ast.Starred)
        yield from ((k.arg, k.value) for k in call.keywords if k.arg in params)


def _torch_module(imports, value):
    """What a module of torch's that ``value``, a constructor call, builds saves
    (``ModuleInfo``): `nn.Sequential(nn.Conv2d(…), nn.Sigmoid())` handed to a training function."""
    from gradlint.analysis.scan import module_info

    if type(value) is not ast.Call or not (imports.qualname(value.func) or "").startswith("torch.nn."):
        return None
    info = module_info(value, imports, {})
    return info if info is not None and info.parameters else None


def _own_methods(tree) -> dict:
    """id of each `self.name` of a method of ``tree``'s classes, where the class defines ``name``
    -> `Class.name`: a bound method handed on."""
    out = {}
    for cls in tree.body:
        if type(cls) is not ast.ClassDef:
            continue
        defined = {f.name for f in cls.body if type(f) in (ast.FunctionDef, ast.AsyncFunctionDef)}
        for fn in cls.body:
            if type(fn) not in (ast.FunctionDef, ast.AsyncFunctionDef) or not fn.args.args:
                continue
            me = fn.args.args[0].arg
            for node in ast.walk(fn):
                if type(node) is ast.Attribute and type(node.value) is ast.Name and node.value.id == me \
                        and node.attr in defined and type(node.ctx) is ast.Load:
                    out[id(node)] = f"{cls.name}.{node.attr}"
    return out


def _function_in(caller: "View", imports, value, defined: set) -> tuple | None:
    """(path, name) of the module-level function of the project that ``value``, a name in
    ``caller``'s file, is: one that file defines (``defined``) or imports from another file."""
    if type(value) not in (ast.Name, ast.Attribute):
        return None
    if type(value) is ast.Name and value.id in defined:
        return str(caller.path), value.id
    qualname = imports.qualname(value)
    where = imports.target(qualname) if qualname else None
    found = caller.locate(*where) if where is not None else None
    if found is None or len(found[1]) != 1:
        return None
    module = _module(found[0], 0, caller.project)
    if module is None or found[1][0] not in module.functions:
        return None
    return str(found[0]), found[1][0]


def _bound_method_in(caller: "View", imports, value, bound: dict, tree) -> tuple | None:
    """(path, `Class.method`) of a method of an object ``caller``'s file builds and hands on
    bound (`PGDAttack(probe.input_gradient)` after `probe = RobustnessProbe(model)`): the class
    its file defines or imports from another file of the project."""
    from gradlint.analysis.imports import dotted

    if type(value) is not ast.Attribute or type(value.value) is not ast.Name:
        return None
    built = bound.get(value.value.id, [])
    if len(built) != 1 or type(built[0]) is not ast.Call or type(built[0].func) not in (ast.Name, ast.Attribute):
        return None
    cls = dotted(built[0].func)
    own = next((c for c in tree.body if type(c) is ast.ClassDef and c.name == cls), None)
    if own is not None:
        path, node = caller.path, own
    else:
        qualname = imports.qualname(built[0].func)
        where = imports.target(qualname) if qualname else None
        found = caller.locate(*where) if where is not None else None
        if found is None or len(found[1]) != 1:
            return None
        module = _module(found[0], 0, caller.project)
        node = next((c for c in module.tree.body if type(c) is ast.ClassDef and c.name == found[1][0]), None) \
            if module is not None else None
        path, cls = found[0], found[1][0]
    if node is None or not any(type(f) in (ast.FunctionDef, ast.AsyncFunctionDef) and f.name == value.attr
                               for f in node.body):
        return None
    return str(path), f"{cls}.{value.attr}"


def _plain_chain(info, classes: dict, seen=()) -> bool:
    """Every base of ``info`` is a plain class of its file, and theirs too (`class
    WrappedAngleLoss(TrajectoryLoss)` over `class TrajectoryLoss:`)."""
    parents = [classes.get(b) for b in info.bases if b]
    return all(p is not None and not p.is_module and p.name not in seen and p is not info
               and _plain_chain(p, classes, seen + (info.name,)) for p in parents)


def _chain_methods(info, classes: dict, seen=()) -> frozenset:
    """The methods ``info`` and its bases of its file define."""
    out = frozenset(info.methods)
    for base in info.bases:
        parent = classes.get(base) if base else None
        if parent is not None and parent is not info and parent.name not in seen:
            out |= _chain_methods(parent, classes, seen + (info.name,))
    return out


class ClassTable(dict):
    """A module's class table for the walker: its own classes, and those of the project's files
    it imports (``View.class_for``), each read when the walk first asks for it."""

    def __init__(self, own: dict, view: "View | None"):
        super().__init__(own)
        self.view = view

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        found = self.view.class_for(key) if self.view is not None and type(key) is str else None
        return default if found is None else found

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __getitem__(self, key):
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found


class _Parsed:
    """One file of the project as read: its tree, lines, imports, classes and top-level functions,
    shared by every depth it is followed at and kept per process while its bytes hash the same."""

    def __init__(self, path: Path, digest: str, tree, lines, size: int = 0):
        self.path = path
        self.size = size  # its bytes: what it costs to keep is in proportion (``KEEP_BYTES``)
        self.digest = digest
        self.tree = tree
        self.lines = lines
        self._exported: dict | None = None
        self.registered: list[int] = []

    # Computed when another file first imports this one (a file parsed for an import may be
    # linted later from this parse, without them).
    @functools.cached_property
    def imports(self):
        from gradlint.analysis.imports import collect_imports

        return collect_imports(self.tree)

    @functools.cached_property
    def own_classes(self) -> dict:
        from gradlint.analysis.scan import scan_classes

        return scan_classes(self.tree, self.imports)

    @functools.cached_property
    def functions(self) -> dict:
        from gradlint.analysis.scan import returns_under_nograd

        return {s.name: returns_under_nograd(s, self.imports) for s in self.tree.body if type(s) in _FUNCTIONS}

    def key_of(self, cls: str) -> str:
        """The key a class of this file has in another module's class table."""
        return f"<{self.path}>.{cls}"

    def exported_classes(self) -> dict:
        """Copies of this file's classes for another module's class table: their members'
        module classes renamed to ``key_of`` keys. Only ``nn.Module``s and classes without a
        base; each copy is marked ``foreign`` (an optimizer given its parameters is taken to
        cover what this file cannot name)."""
        if self._exported is None:
            self._exported = {}
            classes = self.own_classes
            for name, info in classes.items():
                chain = not info.is_module and bool(info.bases) and _plain_chain(info, classes)
                if not (info.is_module or not info.bases or chain):
                    continue
                twin = copy.copy(info)
                twin.plain_chain = chain
                twin.chain_methods = _chain_methods(info, classes) if chain else frozenset()
                twin.attrs = {attr: (_renamed(held, self) if held is not None and held.qualname in self.own_classes else held)
                              for attr, held in info.attrs.items()}
                twin.foreign = True
                self._exported[name] = twin
                if info.nograd_region is not None:
                    self.own([info.nograd_region])  # (a finding placed at its decorator is this file's)
        return self._exported

    def register(self, summary) -> None:
        """Note the nodes of this file that a summary of it carries into other lints."""
        nodes = [summary.node, summary.backward, summary.switches_off, *summary.cuts, *summary.pulled,
                 *(switch for switch, *_ in summary.switched_returns)]
        # (a pull's operand, `dist.entropy().mean()` of `….item()`, which its message quotes)
        nodes += [p.func.value if type(p.func) is ast.Attribute else p.args[0] if p.args else None
                  for p in summary.pulled if type(p) is ast.Call]
        for fact in summary.cut_facts.values():
            nodes += [fact.node, fact.region]
        saves = [summary.saved_output, *summary.saved_parts]
        # (and a method's edits of its receiver's own tensors, and what its forward saved of them)
        for saved in summary.own_saved.values():
            saves += list(saved)
        nodes += [step for step, _ in summary.stale_return]
        for _, edit in [*summary.inner_edits.values(), *summary.param_edits.values(), *summary.own_edits.values()]:
            # (the edit, its target as written, and the ops that saved what it edits)
            nodes += [edit.node, edit.how[0] if isinstance(edit.how, tuple) else edit.how]
            saves += list(edit.saved)
        nodes += [save.node for save in saves if save is not None]
        for _, _, _, stepped, inner, _ in summary.backprops_param or ():
            nodes += [j[1] for j in stepped if type(j) is tuple]  # the receiver's steps
            nodes.append(inner)  # (the backward it makes, a finding's line)
        nodes += [j[1] for j in summary.own_steps]  # (the receiver's steps after its own backward)
        self.own(nodes)

    def own(self, nodes) -> None:
        """Note ``nodes`` of this file as carried into other lints (``origin``)."""
        from gradlint.analysis.tree import stand_in

        for node in nodes:
            # (or a join a summary walk stood in for, `out + alpha * ipm` of a number computed in
            # NumPy: a call no one wrote, around an expression of this file)
            written = node.func if stand_in(node) else node
            if node is not None and id(node) not in _ORIGIN and _owned(written, self.tree):
                _ORIGIN[id(node)] = (node, self)
                self.registered.append(id(node))

    def forget(self) -> None:
        """Out of the cache: what it computed goes with it. (Its class copies and the modules
        that read it refer back to it; left to the cyclic collector, a forgotten file would
        stay in memory until a full collection, which traverses every file still cached.)"""
        for key in self.registered:
            _ORIGIN.pop(key, None)
        self.registered.clear()
        self._exported = None
        for name in ("imports", "own_classes", "functions"):
            self.__dict__.pop(name, None)


class _Module:
    """One file of the project read at a depth: its imports resolved one depth less; its class
    table and each summary computed when first asked."""

    def __init__(self, parsed: _Parsed, depth: int, project: Project):
        self.parsed = parsed
        self.path = parsed.path
        self.digest = parsed.digest
        self.depth = depth
        self.tree = parsed.tree
        self.lines = parsed.lines
        self.imports = imports = copy.copy(parsed.imports)  # its own ``project`` view
        self.view = project.view(str(parsed.path), imports, depth) if depth > 0 else None
        if self.view is None:
            imports.project = None
        self._classes: dict | None = None
        self._table = None

    @property
    def own_classes(self) -> dict:
        return self.parsed.own_classes

    @property
    def functions(self) -> dict:
        return self.parsed.functions

    @property
    def classes(self) -> dict:
        """Its class table: its own classes and those of the files it imports."""
        if self._classes is None:
            self._classes = ClassTable(self.own_classes, self.view)
        return self._classes

    def key_of(self, cls: str) -> str:
        return self.parsed.key_of(cls)

    def exported_classes(self) -> dict:
        return self.parsed.exported_classes()

    def exported_class(self, name: str):
        return self.parsed.exported_classes().get(name)

    def class_module(self, name: str):
        """(module, class) for the class ``name`` of this file, or one it imports (a package's
        ``__init__`` re-exporting it), else None."""
        if name in self.own_classes:
            return self, name
        source = self.imports.sources.get(name)
        if source is None and self.view is not None:
            for level, target in reversed(self.imports.stars):  # a package's `from .x import *`
                found = self.view.load(level, target)
                resolved = found[0].class_module(name) if found is not None and not found[1] else None
                if resolved is not None:
                    return resolved
        if source is None or self.view is None:
            return None
        found = self.view.load(*source)
        if found is None or len(found[1]) != 1:
            return None
        return found[0].class_module(found[1][0])

    def summary(self, key: str):
        if self._table is None:
            from gradlint.analysis.flow import _summaries

            try:
                self._table = _summaries(self.tree, self.lines, self.imports, self.classes, self.functions)
            except (RecursionError, MemoryError):
                self._table = _NO_SUMMARIES
                return None
            self._table.on_summary = self.parsed.register
        _ACTIVE.append(self.parsed)
        try:
            return self._table.get(key)
        except (RecursionError, MemoryError):
            return None
        finally:
            _ACTIVE.pop()

    def attribute_summary(self, attrs: list[str]):
        """The summary of calling the attribute path ``attrs`` of this module: a function, a
        class (an instance called), a method; or, for a name this module imports, its own."""
        if not attrs or len(attrs) > 2:
            return None
        key = ".".join(attrs)
        found = self.summary(key) or (self.inherited_summary(key) if len(attrs) == 2 else None)
        if found is not None:
            return found
        if self.view is not None and attrs[0] in self.imports.sources and attrs[0] not in self.own_classes:
            level, target = self.imports.sources[attrs[0]]
            inner = self.view.load(level, ".".join([target, *attrs[1:]]))
            if inner is not None:
                return inner[0].attribute_summary(inner[1])
        return None

    def inherited_summary(self, key: str, depth: int = 0):
        """The summary of the method ``Class.name`` of this file's class that a base class
        defines (`compute_accuracy` two files up a criterion's bases): each base read through
        this file's imports, its own bases through its file's."""
        name, _, method = key.partition(".")
        cls = self.own_classes.get(name)
        if cls is None or not method or depth > 8:
            return None
        for base in cls.bases:
            if not base:
                continue
            if base in self.own_classes:
                found = self.summary(f"{base}.{method}") or self.inherited_summary(f"{base}.{method}", depth + 1)
            else:
                target = self.imports.target(f"{base}.{method}") if self.view is not None else None
                inner = self.view.load(*target) if target is not None else None
                found = inner[0].attribute_summary(inner[1]) if inner is not None else None
            if found is not None:
                return found
        return None

    def dependencies(self, out: dict) -> None:
        if str(self.path) in out:
            return
        out[str(self.path)] = self.digest
        if self.view is not None:
            for module in list(self.view.used.values()):
                module.dependencies(out)

    def release(self) -> None:
        """Out of the cache: unlink it from its view (which refers back to it through its
        imports), as ``_Parsed.forget`` does, so reference counting frees it."""
        view, self.view = self.view, None
        if view is not None:
            view.close()
        self._table = self._classes = None

    def fresh(self, seen: set | None = None) -> bool:
        """Whether the files this module followed still hash as they did."""
        seen = set() if seen is None else seen
        if self.view is None:
            return True
        for module in list(self.view.used.values()):
            if module.path in seen:
                continue
            seen.add(module.path)
            if _digest(module.path) != module.digest or not module.fresh(seen):
                return False
        return True


class _None:
    def get(self, key):
        return None


_NO_SUMMARIES = _None()


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _renamed(held, module):
    from dataclasses import replace

    return replace(held, qualname=module.key_of(held.qualname))


def _owned(node: ast.AST, tree: ast.Module) -> bool:
    """Whether ``node`` is a node of ``tree`` (not of another file a summary walk reached).

    Looked for first by descending from the module only into the children whose span holds
    the node's (a few dozen nodes looked at), then, where positions mislead (an f-string's parts
    in older Pythons), by a walk of the whole tree; nothing is kept per tree (a set of every
    node's id, kept for each file the process holds, was a sixth of its memory)."""
    from gradlint.analysis.tree import children, every_node

    line = getattr(node, "lineno", None)
    if line is not None:
        where = (line, node.col_offset)
        end = (node.end_lineno, node.end_col_offset)
        todo = [tree]
        while todo:
            current = todo.pop()
            if current is node:
                return True
            for child in children(current):
                start = getattr(child, "lineno", None)
                # A child without a position (arguments, comprehension, withitem, match_case)
                # may hold positioned nodes anywhere in its parent's span: entered.
                if start is None:
                    todo.append(child)
                    continue
                start = (start, child.col_offset)
                decorators = getattr(child, "decorator_list", None)
                if decorators:  # a def's span starts at ``def``, after its decorators
                    start = min(start, (decorators[0].lineno, decorators[0].col_offset))
                if start <= where and end <= (child.end_lineno, child.end_col_offset):
                    todo.append(child)
    return any(n is node for n in every_node(tree))


def _within(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _digest(path: Path) -> str | None:
    """The hash of a file's bytes, asked at most once per lint (``_begin`` starts one). A file
    whose size, times and inode are those it had when this process last hashed it is not read
    again: each lint follows most of the files the one before it did, and read and hashed them
    all again."""
    key = str(path)
    if key not in _HASHES:
        from gradlint.cache import content_hash
        from gradlint.files import read_regular

        try:
            info = os.stat(key)
        except OSError:
            info = None
        sign = info and (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)
        known = _SIGNED.get(key)
        if sign is not None and stat.S_ISREG(info.st_mode) and known is not None and known[0] == sign:
            _HASHES[key] = (known[1], None)  # (its bytes are read again only to be parsed)
        else:
            data = read_regular(path)
            _HASHES[key] = None if data is None else (content_hash(data), data)
            # (a file changed within the last seconds may change again within the same tick of
            # the file system's clock, keeping its signature: it is hashed again, as git does)
            if data is not None and sign is not None and time.time_ns() - info.st_mtime_ns > RACY_NS:
                if len(_SIGNED) >= SIGNED_MAX:
                    _SIGNED.clear()
                _SIGNED[key] = (sign, _HASHES[key][0])
    found = _HASHES[key]
    return None if found is None else found[0]


# path -> (its size, times and inode then, its hash) for the files this process hashed, and how
# many are kept.
_SIGNED: dict = {}
SIGNED_MAX = 16384
RACY_NS = 3 * 10**9
# path -> (hash, bytes) or None, for the lint under way: a file imported by many of the modules
# it follows is read and hashed once.
_HASHES: dict = {}
# folder -> its modification time (None: not a folder), for the lint under way.
_STAMPS: dict = {}
# (importing file, root, level, dotted) -> (stamp of the folders searched, those folders, where
# ``View.locate`` found it)
_LOCATED: dict = {}
# Entries of ``_LOCATED`` kept: each holds a dozen short strings, and the imports of every
# folder of a project linted in one process would otherwise all stay (a lookup it no longer
# holds costs a few ``stat`` calls).
LOCATED_MAX = 4096


def _stamp(folders) -> tuple:
    out = []
    for folder in folders:
        key = str(folder)
        if key not in _STAMPS:
            try:
                _STAMPS[key] = os.stat(key).st_mtime_ns
            except OSError:
                _STAMPS[key] = None
        out.append(_STAMPS[key])
    return tuple(out)


# folder -> (its modification time, the names of its entries), for ``View._nowhere``.
_ENTRIES: dict = {}


def _entries(folder: str) -> frozenset | None:
    """The names in ``folder`` (none if it is not a folder), remembered while its modification
    time holds; None if it cannot be listed."""
    stamp = _stamp((folder,))[0]
    known = _ENTRIES.get(folder)
    if known is not None and known[0] == stamp:
        return known[1]
    if stamp is None:
        names = frozenset()
    else:
        try:
            names = frozenset(os.listdir(folder))
        except NotADirectoryError:
            names = frozenset()
        except OSError:
            return None
    if len(_ENTRIES) >= LOCATED_MAX:
        _ENTRIES.clear()
    _ENTRIES[folder] = (stamp, names)
    return names


# path -> _Parsed: the files parsed by this process, the most recently used last.
_PARSED: dict[str, _Parsed] = {}
# The bytes of source whose parses are kept between lints. A file kept costs some 40 times its
# bytes (its tree, its summaries and class tables, and the modules that followed it), so this
# bounds what a process holds whatever the size of the project or the files in it: a bound
# in files let a project of large files (timm's models) keep several times what one of small
# files does. A lint's own working set (the files it follows) comes on top, and is freed or
# left to this budget once it ends.
KEEP_BYTES = 1024 * 1024


def _kept() -> int:
    return sum(parsed.size for parsed in _PARSED.values())


def _begin(path: str) -> None:
    """A new lint: files are hashed again (they may have changed since), and the files parsed by
    earlier lints are forgotten, least recently used first, until what is kept is within
    ``KEEP_BYTES``, with every module that followed them (it holds their summaries' nodes)."""
    global _LINTED
    _LINTED = Path(os.path.abspath(path))
    _HASHES.clear()
    _STAMPS.clear()
    kept = _kept()
    if kept <= KEEP_BYTES:
        return
    dropped = set()
    for path in list(_PARSED):
        if kept <= KEEP_BYTES:
            break
        parsed = _PARSED.pop(path)
        parsed.forget()
        kept -= parsed.size
        dropped.add(path)
    # A module that followed a forgotten file goes too (it holds summaries with that file's
    # nodes), and those that followed it in turn; their own parses stay.
    changed = True
    while changed:
        changed = False
        for key, module in list(_MODULES.items()):
            used = module.view.used if module.view is not None else {}
            if key[0] in dropped or dropped.intersection(used):
                del _MODULES[key]
                module.release()
                dropped.add(key[0])
                changed = True


def _module(path: Path, depth: int, project: Project) -> _Module | None:
    """The module at ``path`` read ``depth`` imports deep: from this process's memory while it
    and what it followed are unchanged, else read, parsed and scanned now; None if it cannot be."""
    path = Path(os.path.abspath(path))
    digest = _digest(path)
    if digest is None:
        return None
    key = (str(path), depth, str(project.root))
    known = _MODULES.get(key)
    if known is not None:
        if known.digest == digest and known.fresh():
            _touch(known.parsed)
            return known
        del _MODULES[key]
    if key in _BUSY:
        return None
    _BUSY.add(key)
    try:
        parsed = _parse(path, digest)
        module = None if parsed is None else _Module(parsed, depth, project)
    finally:
        _BUSY.discard(key)
    if module is not None:
        _MODULES[key] = module
    return module


def _touch(parsed: _Parsed) -> None:
    if _PARSED.get(str(parsed.path)) is parsed:
        _PARSED[str(parsed.path)] = _PARSED.pop(str(parsed.path))


_BUSY: set = set()


def _parse(path: Path, digest: str) -> _Parsed | None:
    key = str(path)
    known = _PARSED.get(key)
    if known is not None and known.digest == digest:
        _touch(known)
        return known
    if known is not None:
        _PARSED.pop(key).forget()
        for stale in [k for k, m in _MODULES.items() if m.parsed is known]:
            del _MODULES[stale]
    data = _HASHES[key][1]
    if data is None:  # known by its signature: read now, and hashed as read
        from gradlint.cache import content_hash
        from gradlint.files import read_regular

        data = read_regular(path)
        if data is None:
            return None
        digest = content_hash(data)
    parsed = _read(path, data, digest)
    if parsed is not None:
        _PARSED[key] = parsed
    return parsed


def _read(path: Path, data: bytes, digest: str) -> _Parsed | None:
    from gradlint import engine
    from gradlint.analysis.facts import source_lines

    try:
        tree, unreadable = engine._read_ast(data)
        if unreadable is not None:
            return None
        text = engine._as_python_reads(data, data.decode("utf-8", errors="replace"))
        return _Parsed(path, digest, tree, source_lines(text), len(data))
    except (RecursionError, MemoryError, ValueError, SyntaxError):
        return None


def parsed(path: str, data: bytes):
    """The tree of the file at ``path`` whose bytes are ``data``, if this process has parsed
    those bytes (as another file's import, or when it was linted), else None."""
    from gradlint.cache import content_hash

    known = _PARSED.get(os.path.abspath(path))
    if known is None or known.digest != content_hash(data):
        return None
    _touch(known)
    return known.tree


def origin(node: ast.AST):
    """The module of another file that ``node`` belongs to (it has ``path`` and ``lines``), or
    None for a node of the linted file."""
    entry = _ORIGIN.get(id(node))
    if entry is None or entry[0] is not node:
        return None
    # While a file's own functions are being summarized, its nodes are its own, not another
    # file's (as when every summary of a file was computed before any was registered); and the
    # linted file may be linted from the tree its importers read (``parsed``): its nodes are
    # its own too.
    return None if entry[1] in _ACTIVE or entry[1].path == _LINTED else entry[1]


# The files whose summaries are being computed, innermost last.
_ACTIVE: list = []
_LINTED: Path | None = None  # the file being linted


def display(path: Path, linted: str, root: Path | None) -> str:
    """How a message names another file: relative to the linted file's folder (``../x.py``), the
    same wherever gradlint runs (a cached message stays true), and which ``gradlint check``
    turns into a path from the current folder (``cli.from_here``); absolute outside the root."""
    folder = Path(os.path.abspath(linted)).parent
    if _within(path, folder) or (root is not None and _within(path, root)):
        return Path(os.path.relpath(path, folder)).as_posix()
    return path.as_posix()


def clear() -> None:
    """Forget every module read (tests)."""
    for parsed in _PARSED.values():
        parsed.forget()
    for module in _MODULES.values():
        module.release()
    _PARSED.clear()
    _MODULES.clear()
    _HASHES.clear()
    _LOCATED.clear()
    _ENTRIES.clear()
    _SIGNED.clear()
