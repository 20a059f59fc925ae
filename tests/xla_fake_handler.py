"""An XLA FFI handler, written with ctypes, that reports a chosen FFI API version,
so that a test can watch XLA's own version check refuse a handler (a jaxlib whose
FFI API is not one that envpool._xla was built against)."""

from __future__ import annotations

import ctypes
from typing import Any

import jax

_METADATA_EXTENSION = 1  # XLA_FFI_Extension_Metadata (xla/ffi/api/c_api.h)


class _ExtensionBase(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("type", ctypes.c_int),
        ("next", ctypes.c_void_p),
    ]


class _ApiVersion(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("extension_start", ctypes.c_void_p),
        ("major_version", ctypes.c_int),
        ("minor_version", ctypes.c_int),
    ]


class _Metadata(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("api_version", _ApiVersion)]


class _MetadataExtension(ctypes.Structure):
    _fields_ = [("base", _ExtensionBase), ("metadata", ctypes.POINTER(_Metadata))]


class _CallFrameStart(ctypes.Structure):
    """The first two fields of XLA_FFI_CallFrame, the same in every FFI API 0.x."""

    _fields_ = [
        ("struct_size", ctypes.c_size_t),
        ("extension_start", ctypes.POINTER(_ExtensionBase)),
    ]


_HANDLER = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(_CallFrameStart))
_alive: list[Any] = []  # XLA holds the function pointer; keep the callbacks alive


def handler_reporting(major: int, minor: int) -> Any:
    """A PyCapsule for jax.ffi.register_ffi_target: a handler that answers XLA's
    metadata query (made when it registers) with FFI API version major.minor."""

    def handler(frame: Any) -> None:
        extension = frame.contents.extension_start
        if extension and extension.contents.type == _METADATA_EXTENSION:
            query = ctypes.cast(extension, ctypes.POINTER(_MetadataExtension)).contents
            query.metadata.contents.api_version.major_version = major
            query.metadata.contents.api_version.minor_version = minor
        return None  # no error; a refused handler is never executed

    function = _HANDLER(handler)
    _alive.append(function)
    return jax.ffi.pycapsule(function)
