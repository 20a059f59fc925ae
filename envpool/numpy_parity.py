"""numpy's own float64 kernels and BLAS, found in the numpy that is loaded and handed
to an extension module whose envs compute as numpy does (cpp/envpool/numpy/).

numpy's SIMD ufunc loops and its OpenBLAS round differently from libm and from a
plain C++ loop in the last bit; calling numpy's own code keeps rewards and
observations bit for bit equal to the reference's.
"""

from __future__ import annotations

import ctypes
import importlib
import os
from typing import Any

import numpy as np

# numpy's PyUFuncObject, whose leading fields are stable public ABI in numpy 1.x and 2.x:
# PyObject_HEAD; int nin, nout, nargs, identity; functions; data; int ntypes, reserved1;
# const char *name; const char *types.
_UFUNC_FUNCTIONS = 2 * ctypes.sizeof(ctypes.c_void_p) + 4 * ctypes.sizeof(ctypes.c_int)
_UFUNC_DATA = _UFUNC_FUNCTIONS + ctypes.sizeof(ctypes.c_void_p)
_UFUNC_NTYPES = _UFUNC_DATA + ctypes.sizeof(ctypes.c_void_p)
_UFUNC_NAME = _UFUNC_NTYPES + 2 * ctypes.sizeof(ctypes.c_int)
_UFUNC_TYPES = _UFUNC_NAME + ctypes.sizeof(ctypes.c_void_p)
_NPY_DOUBLE = np.dtype(np.float64).num
_UFUNC_LOOP = ctypes.CFUNCTYPE(
    None,
    ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_ssize_t),
    ctypes.POINTER(ctypes.c_ssize_t),
    ctypes.c_void_p,
)


def _float64_loop(ufunc: np.ufunc) -> tuple[int, int] | None:
    """The address of `ufunc`'s float64 -> float64 inner loop and its data, or None
    where the ufunc object does not look as expected (the C++ then uses libm)."""

    def pointer(offset: int) -> int:
        return ctypes.c_void_p.from_address(id(ufunc) + offset).value or 0

    ntypes = ctypes.c_int.from_address(id(ufunc) + _UFUNC_NTYPES).value
    name = pointer(_UFUNC_NAME)
    if ntypes != ufunc.ntypes or not name or ctypes.string_at(name).decode() != ufunc.__name__:
        return None
    functions, data, types = pointer(_UFUNC_FUNCTIONS), pointer(_UFUNC_DATA), pointer(_UFUNC_TYPES)
    for i in range(ntypes):
        signature = ctypes.string_at(types + i * ufunc.nargs, ufunc.nargs)
        if all(t == _NPY_DOUBLE for t in signature):
            loop = ctypes.c_void_p.from_address(functions + i * ctypes.sizeof(ctypes.c_void_p))
            extra = ctypes.c_void_p.from_address(data + i * ctypes.sizeof(ctypes.c_void_p))
            found = (loop.value or 0, extra.value or 0)
            return found if found[0] and _loop_agrees(ufunc, found) else None
    return None


def _loop_agrees(ufunc: np.ufunc, found: tuple[int, int]) -> bool:
    """Whether the loop gives the ufunc's own results on a few arguments (one-argument
    ufuncs, and two-argument ones such as arctan2, the second argument -0.75)."""
    loop = _UFUNC_LOOP(found[0])
    checked = 0
    for x in (0.25, 0.5, 0.9375, 1.5, 3.0):  # in the domain of each of the functions
        inputs = (x,) if ufunc.nin == 1 else (x, -0.75)
        with np.errstate(all="ignore"):
            expected = float(ufunc(*map(np.float64, inputs)))
        if np.isnan(expected):
            continue
        given = [ctypes.c_double(v) for v in inputs]
        out = ctypes.c_double()
        addresses = [ctypes.addressof(v) for v in (*given, out)]
        args = (ctypes.c_void_p * ufunc.nargs)(*addresses)
        size = (ctypes.c_ssize_t * 1)(1)
        steps = (ctypes.c_ssize_t * ufunc.nargs)(*([8] * ufunc.nargs))
        loop(args, size, steps, found[1])
        if out.value != expected:
            return False
        checked += 1
    return checked >= 2


def _numpy_blas() -> tuple[int, int, int, bool] | None:
    """The addresses of cblas_ddot, cblas_dgemv and cblas_dgemm in the BLAS numpy has
    loaded, and whether they take 64-bit integers; None where none is found or they do
    not give numpy's own results (the C++ then computes as numpy does without a BLAS)."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {
                fields[-1]
                for fields in map(str.split, maps)
                if len(fields) >= 6 and "blas" in os.path.basename(fields[-1]).lower()
            }
    except OSError:
        return None
    # numpy's own copy (numpy.libs beside the package) before any other BLAS loaded
    # by the process (scipy's, torch's): numpy's results decide which one is used.
    numpy_libs = os.path.dirname(os.path.dirname(np.__file__))
    for path in sorted(paths, key=lambda p: not p.startswith(os.path.join(numpy_libs, "numpy"))):
        library = ctypes.CDLL(path)
        for prefix, suffix in (("scipy_cblas_", "64_"), ("cblas_", "64_"), ("cblas_", "")):
            ddot, dgemv, dgemm = (getattr(library, f"{prefix}{n}{suffix}", None) for n in _BLAS)
            if ddot is None or dgemv is None or dgemm is None:
                continue
            integer = ctypes.c_int64 if suffix == "64_" else ctypes.c_int32
            if _blas_agrees(ddot, dgemv, dgemm, integer):
                address = [ctypes.cast(f, ctypes.c_void_p).value or 0 for f in (ddot, dgemv, dgemm)]
                return address[0], address[1], address[2], suffix == "64_"
    return None


# The BLAS functions numpy calls for x.dot(y) and np.linalg.norm, v.dot(m) and a.dot(b).
_BLAS = ("ddot", "dgemv", "dgemm")
_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112


def _blas_agrees(ddot: Any, dgemv: Any, dgemm: Any, integer: Any) -> bool:
    """Whether ddot, dgemv and dgemm give np.linalg.norm's, v.dot(m)'s and a.dot(b)'s
    results on 3-vectors and 3x3 matrices (and norm's on 2- and 4-vectors)."""
    pointer = ctypes.POINTER(ctypes.c_double)
    ddot.restype, dgemv.restype, dgemm.restype = ctypes.c_double, None, None
    ddot.argtypes = [integer, pointer, integer, pointer, integer]
    dgemv.argtypes = [ctypes.c_int, ctypes.c_int, integer, integer, ctypes.c_double]
    dgemv.argtypes += [pointer, integer, pointer, integer, ctypes.c_double, pointer, integer]
    dgemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, integer, integer, integer]
    dgemm.argtypes += [ctypes.c_double, pointer, integer, pointer, integer, ctypes.c_double]
    dgemm.argtypes += [pointer, integer]
    rng = np.random.default_rng(0)
    for _ in range(64):
        for n in (2, 3, 4):
            x = rng.normal(size=n)
            data = x.ctypes.data_as(pointer)
            if np.sqrt(ddot(n, data, 1, data, 1)) != np.linalg.norm(x):
                return False
        a, m = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
        v, out, product = a[0].copy(), np.zeros(3), np.zeros((3, 3))
        v_, a_, m_, out_, product_ = (z.ctypes.data_as(pointer) for z in (v, a, m, out, product))
        dgemv(_ROW_MAJOR, _TRANS, 3, 3, 1.0, m_, 3, v_, 1, 0.0, out_, 1)
        if not np.array_equal(out, v.dot(m)):
            return False
        dgemm(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, 3, 3, 3, 1.0, a_, 3, m_, 3, 0.0, product_, 3)
        if not np.array_equal(product, a.dot(m)):
            return False
    return True


# The slot of _PyDataType_GetArrFuncs in numpy 2's C-API table (__multiarray_api.h),
# and that of argsort[NPY_QUICKSORT] in PyArray_ArrFuncs: after cast[21] and the 12
# function pointers getitem to fillwithscalar, and sort[3].
_GET_ARRFUNCS_SLOT = 365
_ARGSORT_SLOT = 21 + 12 + 3
_ARGSORT = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_void_p
)


def _numpy_argsort() -> int | None:
    """The address of numpy's float64 argsort of the default kind, or None where it is
    not found or does not give np.argsort's order, ties included (the C++ then sorts
    stably, which differs only where two values are equal)."""
    if int(np.__version__.split(".")[0]) < 2:
        return None
    try:
        multiarray = importlib.import_module("numpy._core._multiarray_umath")
    except ImportError:
        return None
    api = ctypes.pythonapi
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    capsule = multiarray._ARRAY_API
    table = api.PyCapsule_GetPointer(capsule, api.PyCapsule_GetName(capsule))
    if not table:
        return None
    size = ctypes.sizeof(ctypes.c_void_p)
    get_arrfuncs = ctypes.c_void_p.from_address(table + _GET_ARRFUNCS_SLOT * size).value
    if not get_arrfuncs:
        return None
    arrfuncs = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(get_arrfuncs)(
        id(np.dtype(np.float64))
    )
    argsort = ctypes.c_void_p.from_address(arrfuncs + _ARGSORT_SLOT * size).value if arrfuncs else 0
    return argsort if argsort and _argsort_agrees(argsort) else None


def _argsort_agrees(address: int) -> bool:
    """Whether the function orders arrays full of ties as np.argsort does."""
    argsort = _ARGSORT(address)
    rng = np.random.default_rng(0)
    for n in [*range(1, 41), 64, 300]:
        for _ in range(8):
            values = rng.integers(0, 4, n).astype(np.float64)
            order = np.arange(n, dtype=np.intp)
            scratch = values.copy()
            argsort(scratch.ctypes.data, order.ctypes.data, n, None)
            if not np.array_equal(order, np.argsort(values)):
                return False
    return True


_INSTALLED: dict[str, list[str]] = {}


def _numpy_normal() -> int | None:
    """The address of numpy's random_normal(bitgen_t*, loc, scale), the sampler behind
    Generator.normal, exported by numpy.random._generator; None where it is not found or
    does not give Generator.normal's draws (the envs that need it then refuse to run)."""
    try:
        generator = importlib.import_module("numpy.random._generator")
        sampler = ctypes.CDLL(generator.__file__).random_normal
    except (ImportError, OSError, AttributeError):
        return None
    sampler.restype = ctypes.c_double
    sampler.argtypes = [ctypes.c_void_p, ctypes.c_double, ctypes.c_double]
    for seed in range(4):
        bits = np.random.PCG64(seed)
        expected = np.random.Generator(np.random.PCG64(seed)).normal(0.5, 0.005, size=64)
        drawn = [sampler(bits.ctypes.bit_generator.value, 0.5, 0.005) for _ in range(64)]
        if not np.array_equal(drawn, expected):
            return None
    return ctypes.cast(sampler, ctypes.c_void_p).value or None


def install_once(module: Any) -> list[str]:
    """install(module) the first time a module of that name is given; the names of the
    functions installed, every time."""
    if module.__name__ not in _INSTALLED:
        _INSTALLED[module.__name__] = install(module)
    return _INSTALLED[module.__name__]


def install(module: Any) -> list[str]:
    """Hands `module` (one with set_numpy_loop, set_numpy_blas and NUMPY_FUNCTIONS, and
    maybe set_numpy_normal and set_numpy_argsort) numpy's float64 loops, BLAS, normal
    sampler and argsort; returns the names of the functions installed, with "blas",
    "normal" and "argsort" when those were."""
    installed = []
    for name in module.NUMPY_FUNCTIONS:
        found = _float64_loop(getattr(np, name))
        if found is not None:
            module.set_numpy_loop(name, *found)
            installed.append(name)
    blas = _numpy_blas()
    if blas is not None:
        module.set_numpy_blas(*blas)
        installed.append("blas")
    normal = _numpy_normal() if hasattr(module, "set_numpy_normal") else None
    if normal is not None:
        module.set_numpy_normal(normal)
        installed.append("normal")
    argsort = _numpy_argsort() if hasattr(module, "set_numpy_argsort") else None
    if argsort is not None:
        module.set_numpy_argsort(argsort)
        installed.append("argsort")
    return installed
