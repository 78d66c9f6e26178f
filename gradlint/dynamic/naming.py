"""The names the evidence gives leaves: ``model.layers.0.weight``, as the user's code calls it.

Each leaf the tracer meets gets a key (its id may be reused once it dies: the key is checked
against a weak reference); its name is looked up once, in the user's frames, outermost first.
A mixin of ``tracer.Tracer``, whose ``__init__`` sets the state it reads.
"""
from __future__ import annotations

import sys
import types
import weakref
from dataclasses import dataclass

import torch

from gradlint.dynamic import record


@dataclass
class Leaf:
    ref: weakref.ref
    name: str
    version: int  # when first seen
    looked: bool = False  # the frames were searched for a name (once is enough)
    # required grad when first seen: an attack's perturbation, a latent updated by hand, a
    # model's parameter in a test that builds the model in a function, still known once the run
    # freed it
    loose: bool = False
    read: bool = False  # the user's code read its ``.grad``


class Naming:
    """Leaves and their names. State (set by ``Tracer.__init__``): ``leaves`` (key -> Leaf),
    ``key_of`` (id -> key), ``next_key``, ``module_names``, ``files``, ``cwd``, ``prefixes``,
    ``_user``."""

    def is_user(self, filename: str) -> bool:
        """Whether a frame of this file is the user's code: an instrumented module, or a file
        under the working directory outside any installed package."""
        known = self._user.get(filename)
        if known is None:
            known = filename in self.files or (
                filename.startswith(self.cwd) and "site-packages" not in filename
                and not filename.startswith(self.prefixes))
            self._user[filename] = known
        return known

    def key(self, leaf: torch.Tensor, frame=None) -> int:
        known = self.key_of.get(id(leaf))
        if known is not None and self.leaves[known].ref() is leaf:
            key = known
        else:
            key = self.next_key
            self.next_key += 1
            self.key_of[id(leaf)] = key
            self.leaves[key] = Leaf(weakref.ref(leaf), "", leaf._version,
                                    loose=leaf.requires_grad)
        if frame is not None:
            self.name(key, frame)
        return key

    def name(self, key: int, frame) -> None:
        leaf = self.leaves[key]
        if leaf.looked:
            return
        leaf.looked = True
        target = leaf.ref()
        if target is None:
            return
        fallback = ""
        seen = []
        for depth, f in enumerate(user_frames(frame, self.is_user)):
            if depth > 12:
                break
            seen.append(f)
        # Outermost first: `model.layers.0.weight` where the model was built names the leaf the
        # same way at every call, where a loop's `layer.weight` would name another each time.
        for f in reversed(seen):
            for var, value in list(f.f_locals.items()):
                found = self._find(target, var, value)
                if found and var != "self":
                    leaf.name = found
                    return
                if found and not fallback:
                    fallback = found
        if not fallback:
            # A module-level parameter used inside functions (a --driver callable, a test) is a
            # global of those frames, not a local of any of them.
            for f in seen:
                if f.f_globals is f.f_locals:
                    continue
                for var, value in list(f.f_globals.items()):
                    found = "" if var.startswith("__") else self._find(target, var, value)
                    if found:
                        leaf.name = found
                        return
        leaf.name = fallback

    def _find(self, target, var: str, value, depth: int = 0) -> str:
        if value is target:
            return var
        if isinstance(value, torch.nn.Module):
            names = self.module_names.get(id(value))
            if names is None:
                names = self.module_names[id(value)] = record.parameter_names(value)
            name = names.get(id(target))
            return f"{var}.{name}" if name else ""
        if isinstance(value, (list, tuple)) and len(value) <= 64:
            for i, item in enumerate(value):
                if item is target:
                    return f"{var}[{i}]"
        try:  # (a user's object may answer any attribute, or refuse one)
            attributes = getattr(value, "__dict__", None)
        except Exception:  # noqa: BLE001
            return ""
        if depth == 0 and type(attributes) is dict and not isinstance(value, (type, types.ModuleType)) \
                and not var.startswith("__") and len(attributes) <= 256:
            # (an agent or trainer holding its networks, `self.critic_network.q_out.weight`)
            for attr, held in list(attributes.items()):
                if not attr.startswith("_") and isinstance(held, (torch.nn.Module, torch.Tensor, list, tuple)):
                    found = self._find(target, f"{var}.{attr}", held, depth + 1)
                    if found:
                        return found
        return ""

    def shown(self, key: int) -> str:
        leaf = self.leaves.get(key)
        if leaf is None:
            return "a leaf"
        if leaf.name:
            return f"`{leaf.name}`"
        t = leaf.ref()
        return f"a leaf of shape {list(t.shape)}" if t is not None else "a leaf"

    def user_line(self, frame=None) -> int:
        for f in user_frames(frame or sys._getframe(1), self.is_user):
            return f.f_lineno
        return 0

    def user_place(self, frame=None) -> tuple[str, int]:
        """(path, line) of the innermost user frame; ("", 0) where there is none."""
        for f in user_frames(frame or sys._getframe(1), self.is_user):
            return f.f_code.co_filename, f.f_lineno
        return "", 0

    def _label(self, leaf) -> str:
        key = self.key_of.get(id(leaf))
        if key is not None and self.leaves[key].ref() is leaf:
            return self.shown(key).strip("`")
        return f"leaf {list(leaf.shape)}"


def user_frames(frame, is_user):
    while frame is not None:
        # A program's own TorchFunctionMode sits between its code and ours: not where it called.
        if is_user(frame.f_code.co_filename) and frame.f_code.co_name != "__torch_function__":
            yield frame
        frame = frame.f_back


def local_name(frame, t) -> str:
    if frame is None:
        return ""
    for var, value in frame.f_locals.items():
        if value is t:
            return var
    return ""
