"""The typing stubs (koma/__init__.pyi) describe the module as it is: the same
names at the top, the same public members in every class, the same
parameters in every function and method."""
import ast
import inspect
import os
import re

import koma

STUBS = os.path.join(os.path.dirname(koma.__file__), "__init__.pyi")


def stub_tree():
    with open(STUBS, encoding="utf-8") as f:
        return ast.parse(f.read())


def stub_classes():
    return {n.name: n for n in stub_tree().body if isinstance(n, ast.ClassDef)}


def stub_members(cls):
    names = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names


def public(name):
    return not name.startswith("_") or name in ("__init__",)


def test_every_exported_name_has_a_stub():
    tree = stub_tree()
    top = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    assert set(koma.__all__) <= top, set(koma.__all__) - top
    # The stubs name nothing the module lacks (MoveArg is a stub-only alias).
    assert top - {"MoveArg"} <= set(koma.__all__), top - set(koma.__all__)


def test_class_members_match():
    classes = stub_classes()
    for name in koma.__all__:
        obj = getattr(koma, name)
        if not isinstance(obj, type) or issubclass(obj, BaseException):
            continue
        module_names = {m for m in dir(obj) if public(m) and not m.startswith("__")}
        stub_names = {m for m in stub_members(classes[name]) if not m.startswith("__")}
        assert module_names == stub_names, (name, module_names ^ stub_names)


def test_exception_attributes_are_stubbed():
    classes = stub_classes()
    e = koma.DescriptorError("x")
    assert isinstance(e, koma.Error)
    assert stub_members(classes["DescriptorError"]) == {"file", "line", "column", "message"}
    assert {"where", "index", "move", "reason"} <= stub_members(classes["RecordError"])


def pybind_parameters(func):
    """Parameter names of a pybind11 function, read from its signature line."""
    first = (func.__doc__ or "").splitlines()[0] if func.__doc__ else ""
    m = re.match(r"\w+\((.*)\) ->", first)
    assert m, (func, first)
    names = []
    for part in re.split(r",\s*(?![^\[]*\])", m.group(1)):
        part = part.strip()
        if not part or part in ("*",) or part.startswith("*"):
            continue
        names.append(part.split(":")[0].strip())
    return [n for n in names if n not in ("self",)]


def stub_parameters(node):
    args = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
    return [a for a in args if a != "self"]


def test_function_parameters_match():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            assert pybind_parameters(getattr(koma, node.name)) == stub_parameters(node), node.name
    for cname, cls in stub_classes().items():
        obj = getattr(koma, cname)
        if issubclass(obj, BaseException):
            continue
        for node in cls.body:
            if not isinstance(node, ast.FunctionDef) or node.name.startswith("__"):
                continue
            member = inspect.getattr_static(obj, node.name)
            if isinstance(member, property):
                continue
            func = getattr(obj, node.name)
            params = pybind_parameters(func)
            if node.args.kwarg:  # **options: pybind11 shows **kwargs
                params = [p for p in params if p != "kwargs"]
            assert params == stub_parameters(node), (cname, node.name, params)
