# CPU feature detection for picking a kernel build (see lightsout/_kernels/__init__.py).
# Compiled for the baseline CPU only, so it is always safe to import.

cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    static int lo_has_avx2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi")
            && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma")
            && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("pclmul")
            && __builtin_cpu_supports("movbe");
    }
    static int lo_has_avx512(void) {
        return lo_has_avx2() && __builtin_cpu_supports("avx512f")
            && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512cd")
            && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    }
    #else
    static int lo_has_avx2(void) { return 0; }
    static int lo_has_avx512(void) { return 0; }
    #endif
    """
    int lo_has_avx2() nogil
    int lo_has_avx512() nogil


def supported_simd_levels():
    """SIMD levels this CPU can run, widest first; "generic" is always last.

    Example:
        >>> supported_simd_levels()[-1]
        'generic'
    """
    levels = []
    if lo_has_avx512():
        levels.append("avx512")
    if lo_has_avx2():
        levels.append("avx2")
    levels.append("generic")
    return levels
