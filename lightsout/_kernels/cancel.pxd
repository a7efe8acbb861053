# How a long kernel loop stops: the one cancellation primitive of the compiled floor.
#
# A loop that can run for more than a few milliseconds stops for two reasons:
#   * the caller's cancel flag: a C-contiguous numpy uint8 array whose byte 0 another
#     thread sets nonzero (a sibling worker failed, or the caller gave up: the Python
#     side's cancellation token holds the array);
#   * Ctrl-C: Python's signal handlers, which run only on the main thread and only
#     with the GIL.
# The loop counts its work with poll(); every `every` units poll() reads the flag
# and, on the main thread only, takes the GIL for a moment to run the handlers.  It
# answers STOP_CANCELLED or STOP_INTERRUPTED (the handler's exception, usually
# KeyboardInterrupt, left set), and the loop returns that status: nothing
# Python-level happens inside `nogil`.  The def wrapper, back with the GIL, calls
# raise_if_interrupted(status) first thing, so the exception comes out of the call;
# a cancelled run returns normally and its wrapper says so in its result.
#
# Usage (the GIL held while the Poll is made):
#     cdef Poll poll = make_poll(cancel, WORK_PER_POLL)     # cancel: None or the flag array
#     with nogil:
#         status = long_loop(..., &poll)                   # `if poll_work(&poll, n): return ...`
#     raise_if_interrupted(status)
#
# `every` is about a millisecond of work: Ctrl-C and a sibling's failure then stop the
# loop within milliseconds (the tests hold every long kernel to 0.5 s).

from cpython.pythread cimport PyThread_get_thread_ident
from libc.stdint cimport uint8_t

cdef extern from "Python.h":
    # The raw C function: -1 with the handler's exception (KeyboardInterrupt) left
    # set, which raise_if_interrupted propagates once the kernel is back in Python.
    int _lo_run_signal_handlers "PyErr_CheckSignals"() noexcept

cdef extern from *:
    """
    #include <stdint.h>
    /* The caller's cancel flag (NULL: none), read afresh each time: another thread sets it. */
    static int lo_flag_raised(const uint8_t *flag)
    {
        return flag != NULL && *(volatile const uint8_t *)flag != 0;
    }
    /* The main thread's identifier, once known (0: not looked up yet). */
    static unsigned long lo_main_thread_ident = 0;
    """
    bint flag_raised "lo_flag_raised"(const uint8_t* flag) noexcept nogil
    unsigned long _lo_main_thread_ident "lo_main_thread_ident"


cdef enum:
    STOP_NONE = 0               # go on
    STOP_CANCELLED = 1          # the caller's flag is set
    STOP_INTERRUPTED = -3       # a signal handler raised: its exception is set


cdef struct Poll:
    const uint8_t* flag         # the caller's cancel byte, or NULL
    bint signals                # on the main thread: run Python's signal handlers
    Py_ssize_t work             # work counted since the last look
    Py_ssize_t every            # work between two looks


cdef inline bint on_main_thread():
    """Whether the calling thread is Python's main thread (where signal handlers run)."""
    global _lo_main_thread_ident
    if _lo_main_thread_ident == 0:
        import threading
        _lo_main_thread_ident = threading.main_thread().ident
    return PyThread_get_thread_ident() == _lo_main_thread_ident


cdef inline Poll make_poll(object cancel, Py_ssize_t every) except *:
    """A Poll for `cancel` (None, or a C-contiguous numpy uint8 array whose byte 0 is
    polled; the caller keeps the array alive for the run), looking every `every` units."""
    cdef Poll poll
    cdef const uint8_t[::1] flag
    poll.flag = NULL
    poll.signals = on_main_thread()
    poll.work = 0
    poll.every = every
    if cancel is not None:
        import numpy as np
        if (not isinstance(cancel, np.ndarray) or cancel.dtype != np.uint8 or cancel.ndim != 1
                or cancel.shape[0] < 1 or not cancel.flags.c_contiguous):
            from lightsout._base.errors import InvalidTypeError
            got = f"dtype {cancel.dtype}, shape {cancel.shape}" if isinstance(cancel, np.ndarray) \
                else type(cancel).__name__
            raise InvalidTypeError(
                f"cancel must be None or a C-contiguous 1-D numpy uint8 array (byte 0 is polled), got {got}")
        flag = cancel
        poll.flag = &flag[0]
    return poll


cdef inline int look(Poll* poll) noexcept nogil:
    """Look now: STOP_CANCELLED, STOP_INTERRUPTED (exception set) or STOP_NONE."""
    if flag_raised(poll.flag):
        return STOP_CANCELLED
    if poll.signals:
        with gil:
            if _lo_run_signal_handlers() != 0:
                return STOP_INTERRUPTED
    return STOP_NONE


cdef inline int look_callback(void* poll) noexcept nogil:
    """look() for loops written in C, which take a poll as int (*)(void*) and its state: nonzero
    to stop (the loop returns its own stop status; a handler's exception is left set)."""
    return look(<Poll*>poll) != STOP_NONE


cdef inline int poll_work(Poll* poll, Py_ssize_t work) noexcept nogil:
    """Count `work` units; every `poll.every` of them look(), else STOP_NONE."""
    poll.work += work
    if poll.work < poll.every:
        return STOP_NONE
    poll.work = 0
    return look(poll)


cdef inline bint cancelled(const Poll* poll) noexcept nogil:
    """Whether the caller's flag is set (no signal check: safe in any loop)."""
    return flag_raised(poll.flag)


cdef inline int raise_if_interrupted(int status) except -1:
    """Back with the GIL: propagate the exception a signal handler left set (STOP_INTERRUPTED)."""
    if status == STOP_INTERRUPTED:
        return -1       # the exception is already set: Cython raises it
    return 0
