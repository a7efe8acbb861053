# The def wrappers' one check of an array that a kernel reads (or writes) raw, with the GIL
# held: the kernel takes its pointer and trusts dtype, shape and layout, so they are checked
# here, each mistake with the same words in every module.  Packed GF(2) rows have their own
# check with the bit layout's rules, lightsout._base.validate.packed_matrix.

cdef inline object raw_array(object value, str name, object dtype, object shape, int ndim, bint writable):
    """`value` if it is a C-contiguous numpy array of `dtype`, of `shape` (None: any) and `ndim`
    axes (-1: any), writable when asked; else InvalidTypeError (not such an array) or
    InvalidBoardError (its shape or layout)."""
    import numpy as np
    cdef str problem = ""
    if not isinstance(value, np.ndarray) or value.dtype != dtype:
        from lightsout._base.errors import InvalidTypeError
        got = f"dtype {value.dtype}" if isinstance(value, np.ndarray) else type(value).__name__
        raise InvalidTypeError(f"{name} must be a numpy array of dtype {np.dtype(dtype).name}, got {got}")
    if shape is not None and value.shape != shape:
        problem = f"{name} must have shape {shape}, got {value.shape}"
    elif ndim >= 0 and value.ndim != ndim:
        problem = f"{name} must have {ndim} axes, got shape {value.shape}"
    elif not value.flags.c_contiguous:
        problem = f"{name} must be C-contiguous; pass numpy.ascontiguousarray({name})"
    elif writable and not value.flags.writeable:
        problem = f"{name} is read-only, but this kernel writes to it: pass a writable array"
    if problem:
        from lightsout._base.errors import InvalidBoardError
        raise InvalidBoardError(problem)
    return value
