/* A crew of threads for one call of a kernel, portable: POSIX threads or Windows threads.
 *
 * fft_crew_run(crew) runs crew->body(crew, tid) on crew->nthreads threads at once: tid 0 on
 * the calling thread, the others on threads started for this call and joined before it
 * returns, so nothing outlives the call.  If fewer threads start than asked (out of
 * resources), the crew is shrunk to those that did before any body runs: bodies divide
 * their work by crew->nthreads as it is when they start, and the answer is the same.
 *
 * The members meet at barriers (fft_barrier_wait_looking).  Stopping is one flag, crew->stop,
 * set by any member and never cleared; every barrier returns the flag as it was when the
 * last member arrived (a snapshot all members share), so the members of one barrier
 * always agree on whether to go on, and a body that stops returns at the same barrier on
 * every thread.  A member may skip the rest of its work once it sees the flag, and still
 * goes to the next barrier, which then reports the stop to all.
 *
 * Waiting is a short spin, then yielding the CPU: the phases between two barriers last
 * from microseconds to milliseconds, and a sleeping wait would cost more than they do.
 */
#ifndef LIGHTSOUT_FFTCREW_H
#define LIGHTSOUT_FFTCREW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The most threads one call runs on (a larger threads= is treated as this many). */
#define FFT_MAX_THREADS 64

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <process.h>
typedef HANDLE fft_thread;
#else
#include <pthread.h>
#include <sched.h>
#include <signal.h>
typedef pthread_t fft_thread;
#endif

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline long fft_atomic_get(volatile long* p) { return _InterlockedCompareExchange(p, 0, 0); }
static inline void fft_atomic_set(volatile long* p, long v) { _InterlockedExchange(p, v); }
static inline long fft_atomic_inc(volatile long* p) { return _InterlockedIncrement(p); }
static inline long fft_atomic_swap(volatile long* p, long v) { return _InterlockedExchange(p, v); }
#define FFT_TLS __declspec(thread)
#else
static inline long fft_atomic_get(volatile long* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static inline void fft_atomic_set(volatile long* p, long v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
static inline long fft_atomic_inc(volatile long* p) { return __atomic_add_fetch(p, 1, __ATOMIC_ACQ_REL); }
static inline long fft_atomic_swap(volatile long* p, long v) { return __atomic_exchange_n(p, v, __ATOMIC_ACQ_REL); }
#define FFT_TLS __thread
#endif

#if defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || defined(_M_IX86)
#include <emmintrin.h>
#define FFT_CPU_RELAX() _mm_pause()
#elif (defined(__aarch64__) || defined(__arm__)) && (defined(__GNUC__) || defined(__clang__))
#define FFT_CPU_RELAX() __asm__ __volatile__("yield")
#else
#define FFT_CPU_RELAX() ((void)0)
#endif

static void fft_yield(void) {
#if defined(_WIN32)
    SwitchToThread();
#else
    sched_yield();
#endif
}

typedef struct fft_crew fft_crew;
typedef int (*fft_crew_body)(fft_crew* crew, int tid);

struct fft_crew {
    volatile long stop;     /* nonzero: stop (set by any member, never cleared) */
    volatile long go;       /* set once every thread that could start has started */
    volatile long claimed;  /* the items of a shared loop taken so far (fft_claim) */
    int nthreads;           /* the members, tid 0 the calling thread */
    fft_crew_body body;     /* what every member runs */
    void* job;              /* its arguments */
};

/* Members meet here: `size` of them, the crew's stop flag read by the last to arrive. */
typedef struct {
    volatile long arrived, round, verdict;
    long size;
    fft_crew* crew;
} fft_barrier;

static void fft_barrier_init(fft_barrier* b, fft_crew* crew, int size) {
    b->arrived = 0;
    b->round = 0;
    b->verdict = 0;
    b->size = size;
    b->crew = crew;
}

/* Wait for the barrier's other members; nonzero when the crew is to stop (the same answer
 * on every member).  While it yields, a member given `look` calls it every 256 yields (about a
 * millisecond): the calling thread looks for Ctrl-C there, and sets the crew's stop flag when
 * told to, while another member finishes a long phase (at 10^10 bits a pass takes seconds). */
static int fft_barrier_wait_looking(fft_barrier* b, int (*look)(void*), void* look_arg) {
    if (b->size <= 1) return fft_atomic_get(&b->crew->stop) != 0;
    long round = fft_atomic_get(&b->round);
    if (fft_atomic_inc(&b->arrived) == b->size) {
        fft_atomic_set(&b->arrived, 0);
        fft_atomic_set(&b->verdict, fft_atomic_get(&b->crew->stop));
        fft_atomic_set(&b->round, round + 1);
    } else {
        unsigned spins = 0;
        while (fft_atomic_get(&b->round) == round) {
            if (++spins < 4096) {
                FFT_CPU_RELAX();
            } else {
                fft_yield();
                if (look != NULL && (spins & 255) == 0) look(look_arg);
            }
        }
    }
    return fft_atomic_get(&b->verdict) != 0;
}

/* The next item of a loop of n items shared by claims, or n when every item is taken: members
 * that run slower (a core busy faulting pages in, say) take fewer items.  Between two loops the
 * members meet, and one sets crew->claimed back to 0 before that meeting. */
static size_t fft_claim(fft_crew* crew, size_t n) {
    long c = fft_atomic_inc(&crew->claimed) - 1;
    return (size_t)c < n ? (size_t)c : n;
}

typedef struct {
    fft_crew* crew;
    int tid;
} fft_crew_seat;

static void fft_crew_seated(fft_crew_seat* seat) {
    while (!fft_atomic_get(&seat->crew->go)) fft_yield();
    if (seat->tid < seat->crew->nthreads) seat->crew->body(seat->crew, seat->tid);
}

/* A thread running entry(arg): the crew's members and the partner below.  On POSIX it starts
 * with every signal blocked: Ctrl-C goes to the calling thread, whose poll sees it. */
#if defined(_WIN32)
#define FFT_THREAD_ENTRY(name) static unsigned __stdcall name(void* arg)
#define FFT_THREAD_RETURN return 0
typedef unsigned(__stdcall* fft_thread_entry)(void*);
static int fft_thread_start(fft_thread* t, fft_thread_entry entry, void* arg) {
    uintptr_t h = _beginthreadex(NULL, 0, entry, arg, 0, NULL);
    if (h == 0) return -1;
    *t = (HANDLE)h;
    return 0;
}
static void fft_thread_join(fft_thread t) {
    WaitForSingleObject(t, INFINITE);
    CloseHandle(t);
}
#else
#define FFT_THREAD_ENTRY(name) static void* name(void* arg)
#define FFT_THREAD_RETURN return NULL
typedef void* (*fft_thread_entry)(void*);
static int fft_thread_start(fft_thread* t, fft_thread_entry entry, void* arg) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(t, NULL, entry, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err == 0 ? 0 : -1;
}
static void fft_thread_join(fft_thread t) { pthread_join(t, NULL); }
#endif

FFT_THREAD_ENTRY(fft_crew_thread) {
    fft_crew_seated((fft_crew_seat*)arg);
    FFT_THREAD_RETURN;
}

/* Run crew->body on crew->nthreads members (at most FFT_MAX_THREADS; fewer if threads fail to
 * start: crew->nthreads is then lowered before any body runs); returns member 0's status,
 * once every member has returned.  `prepare(crew)`, if given, runs after the threads have
 * started and before any body, with crew->nthreads final (the barriers are set up there). */
static int fft_crew_run(fft_crew* crew, void (*prepare)(fft_crew*)) {
    fft_thread threads[FFT_MAX_THREADS];
    fft_crew_seat seats[FFT_MAX_THREADS];
    int started = 0, st;
    if (crew->nthreads > FFT_MAX_THREADS) crew->nthreads = FFT_MAX_THREADS;
    if (crew->nthreads < 1) crew->nthreads = 1;
    crew->stop = 0;
    crew->go = 0;
    crew->claimed = 0;
    for (int i = 1; i < crew->nthreads; i++) {
        seats[i].crew = crew;
        seats[i].tid = i;
        if (fft_thread_start(&threads[i], fft_crew_thread, &seats[i]) != 0) break;
        started++;
    }
    crew->nthreads = started + 1;
    if (prepare != NULL) prepare(crew);
    fft_atomic_set(&crew->go, 1);
    st = crew->body(crew, 0);
    for (int i = 1; i <= started; i++) fft_thread_join(threads[i]);
    /* The calling thread may have looked while it waited at the last barrier after the last
     * member had arrived: the poll said stop (Ctrl-C, its exception kept by the poll's state) and
     * set crew->stop, but the barrier had already answered go on, and the body finished.  The
     * stop must still come out, or the exception is lost. */
    if (st == 0 && fft_atomic_get(&crew->stop)) st = -2;
    return st;
}

/* Two independent jobs at once: job0(arg0) on the calling thread and job1(arg1) on a thread
 * started for them (after job0, on the calling thread, when none starts and job0 succeeded).
 * With a partner (below) job1 runs there instead, and no thread starts.
 * Each job owns what it writes; neither may call into Python.  Once job0 fails (a poll said
 * stop, or memory ran out) job1's polls (fft_pair_poll) say stop too, so the pair ends about
 * when its first job does.  Returns job0's status, or job1's when job0's is 0. */
typedef int (*fft_pair_fn)(void* arg);

typedef struct {
    fft_pair_fn fn[2];
    void* arg[2];
    int status[2];
    volatile long stop; /* set when job0 fails */
} fft_pair_job;

/* On the thread running a pair's second job: that pair's stop flag (NULL elsewhere). */
static FFT_TLS volatile long* fft_pair_stop_here = NULL;

/* The poll of a pair's second job: nonzero once the first job has failed (0 off such a job). */
static int fft_pair_poll(void* unused) {
    (void)unused;
    return fft_pair_stop_here != NULL && fft_atomic_get(fft_pair_stop_here) != 0;
}

/* Runs a pair's second job on this thread, its polls watching the pair's stop flag. */
static void fft_pair_run_second(fft_pair_job* job) {
    volatile long* outer = fft_pair_stop_here;
    fft_pair_stop_here = &job->stop;
    job->status[1] = job->fn[1](job->arg[1]);
    fft_pair_stop_here = outer;
}

/* Runs a pair's first job on this thread; when it fails, the second's polls say stop. */
static void fft_pair_run_first(fft_pair_job* job) {
    job->status[0] = job->fn[0](job->arg[0]);
    if (job->status[0] != 0) fft_atomic_set(&job->stop, 1);
}

static int fft_pair_member(fft_crew* crew, int tid) {
    fft_pair_job* job = (fft_pair_job*)crew->job;
    if (tid == 1)
        fft_pair_run_second(job);
    else
        fft_pair_run_first(job);
    return job->status[tid];
}

/* --- A partner: one thread kept for a call's many pairs ----------------------------------
 *
 * Starting a thread costs tens of microseconds, as much as two products of a few hundred words,
 * and the half-gcd runs thousands of pairs that small.  A caller with many pairs starts one
 * partner for the call (fft_partner_start) and makes it this thread's (fft_partner_use):
 * fft_run_pair then hands the partner its second job, with no thread started.  Between jobs the
 * partner spins briefly, then yields, then sleeps on a condition variable, so an idle partner
 * costs no CPU; fft_partner_stop wakes it to leave and joins it.  The partner starts with every
 * signal blocked (Ctrl-C goes to the caller) and never calls into Python. */
enum { FFT_PARTNER_IDLE = 0, FFT_PARTNER_GIVEN = 1, FFT_PARTNER_DONE = 2, FFT_PARTNER_LEAVE = 3 };

typedef struct {
    fft_thread thread;
    volatile long state;   /* FFT_PARTNER_*: the caller sets GIVEN and LEAVE, the partner DONE */
    fft_pair_job* job;     /* the pair whose second job it runs (while GIVEN) */
#if defined(_WIN32)
    SRWLOCK lock;
    CONDITION_VARIABLE wake;
#else
    pthread_mutex_t lock;
    pthread_cond_t wake;
#endif
} fft_partner;

/* The partner of this thread's pairs (NULL: each pair starts a thread of its own). */
static FFT_TLS fft_partner* fft_partner_here = NULL;

static void fft_partner_lock(fft_partner* p) {
#if defined(_WIN32)
    AcquireSRWLockExclusive(&p->lock);
#else
    pthread_mutex_lock(&p->lock);
#endif
}

static void fft_partner_unlock(fft_partner* p) {
#if defined(_WIN32)
    ReleaseSRWLockExclusive(&p->lock);
#else
    pthread_mutex_unlock(&p->lock);
#endif
}

/* Sets the state under the lock and wakes the partner if it sleeps. */
static void fft_partner_tell(fft_partner* p, long state) {
    fft_partner_lock(p);
    fft_atomic_set(&p->state, state);
#if defined(_WIN32)
    WakeConditionVariable(&p->wake);
#else
    pthread_cond_signal(&p->wake);
#endif
    fft_partner_unlock(p);
}

/* The partner's life: wait for a job (spin, yield, then sleep), run it, say it is done. */
static void fft_partner_serve(fft_partner* p) {
    for (;;) {
        unsigned spins = 0;
        long s;
        while ((s = fft_atomic_get(&p->state)) == FFT_PARTNER_IDLE || s == FFT_PARTNER_DONE) {
            if (++spins < 4096) {
                FFT_CPU_RELAX();
            } else if (spins < 4096 + 64) {
                fft_yield();
            } else {
                fft_partner_lock(p);
                while ((s = fft_atomic_get(&p->state)) == FFT_PARTNER_IDLE || s == FFT_PARTNER_DONE)
#if defined(_WIN32)
                    SleepConditionVariableSRW(&p->wake, &p->lock, INFINITE, 0);
#else
                    pthread_cond_wait(&p->wake, &p->lock);
#endif
                fft_partner_unlock(p);
                spins = 0;
            }
        }
        if (s == FFT_PARTNER_LEAVE) return;
        fft_pair_run_second(p->job);
        fft_atomic_set(&p->state, FFT_PARTNER_DONE);
    }
}

FFT_THREAD_ENTRY(fft_partner_thread) {
    fft_partner_serve((fft_partner*)arg);
    FFT_THREAD_RETURN;
}

/* A partner thread, idle (NULL when it cannot start: pairs then start threads of their own). */
static fft_partner* fft_partner_start(void) {
    fft_partner* p = (fft_partner*)calloc(1, sizeof(fft_partner));
    if (p == NULL) return NULL;
#if defined(_WIN32)
    InitializeSRWLock(&p->lock);
    InitializeConditionVariable(&p->wake);
    if (fft_thread_start(&p->thread, fft_partner_thread, p) != 0) {
        free(p);
        return NULL;
    }
#else
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    if (fft_thread_start(&p->thread, fft_partner_thread, p) != 0) {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
#endif
    return p;
}

/* Ends an idle partner from fft_partner_start (NULL: nothing) and frees it. */
static void fft_partner_stop(fft_partner* p) {
    if (p == NULL) return;
    fft_partner_tell(p, FFT_PARTNER_LEAVE);
    fft_thread_join(p->thread);
#if !defined(_WIN32)
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
#endif
    free(p);
}

/* Makes p this thread's partner (NULL: none); returns the previous one. */
static fft_partner* fft_partner_use(fft_partner* p) {
    fft_partner* old = fft_partner_here;
    fft_partner_here = p;
    return old;
}

static int fft_run_pair(fft_pair_fn job0, void* arg0, fft_pair_fn job1, void* arg1) {
    fft_pair_job job = {{job0, job1}, {arg0, arg1}, {0, 0}, 0};
    fft_partner* p = fft_partner_here;
    if (p != NULL && fft_atomic_get(&p->state) == FFT_PARTNER_IDLE) {
        unsigned spins = 0;
        p->job = &job;
        fft_partner_tell(p, FFT_PARTNER_GIVEN);
        fft_pair_run_first(&job);
        while (fft_atomic_get(&p->state) != FFT_PARTNER_DONE) {
            if (++spins < 4096) FFT_CPU_RELAX();
            else fft_yield();
        }
        fft_atomic_set(&p->state, FFT_PARTNER_IDLE);
    } else {
        fft_crew crew;
        crew.nthreads = 2;
        crew.body = fft_pair_member;
        crew.job = &job;
        fft_crew_run(&crew, NULL);
        if (crew.nthreads < 2 && job.status[0] == 0) job.status[1] = job1(arg1);
    }
    return job.status[0] != 0 ? job.status[0] : job.status[1];
}

#endif
