// Run a process as on an x86 CPU without AVX-512, VNNI or AMX (AVX2 only), at native speed.
//
// LD_PRELOAD=avx2_only_cpu.so python ...  Linux CPUID faulting (arch_prctl ARCH_SET_CPUID) makes
// every CPUID instruction trap; the handler runs the real one and clears those feature bits, so
// onnxruntime, numpy and OpenCV pick the kernels they would pick on such a CPU. The setting is
// inherited by threads. A program that installs its own SIGSEGV handler (Python's faulthandler,
// node, Chromium) gets it called for every other fault: sigaction and signal are wrapped.
#define _GNU_SOURCE
#include <asm/prctl.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include <cpuid.h>

static int set_cpuid(int on) { return syscall(SYS_arch_prctl, ARCH_SET_CPUID, on); }

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
static struct sigaction theirs;  // the program's own SIGSEGV disposition
static sigaction_fn real_sigaction(void) {
    static sigaction_fn fn;
    if (!fn) fn = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    return fn;
}

static void pass_on(int sig, siginfo_t *info, void *ctx) {
    if (theirs.sa_flags & SA_SIGINFO) {
        theirs.sa_sigaction(sig, info, ctx);
    } else if (theirs.sa_handler != SIG_DFL && theirs.sa_handler != SIG_IGN) {
        theirs.sa_handler(sig);
    } else {  // the default: the faulting instruction runs again and kills the process
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        real_sigaction()(SIGSEGV, &dfl, NULL);
    }
}

static void on_segv(int sig, siginfo_t *info, void *ctx_) {
    ucontext_t *ctx = ctx_;
    greg_t *r = ctx->uc_mcontext.gregs;
    const uint8_t *ip = (const uint8_t *)r[REG_RIP];
    if (ip[0] != 0x0f || ip[1] != 0xa2) { pass_on(sig, info, ctx_); return; }
    uint32_t leaf = (uint32_t)r[REG_RAX], sub = (uint32_t)r[REG_RCX], a, b, c, d;
    set_cpuid(1);
    __cpuid_count(leaf, sub, a, b, c, d);
    set_cpuid(0);
    if (leaf == 7 && sub == 0) {
        b &= ~((1u << 16) | (1u << 17) | (1u << 21) | (1u << 26) | (1u << 27) | (1u << 28) | (1u << 30) | (1u << 31));
        c &= ~((1u << 1) | (1u << 6) | (1u << 11) | (1u << 12) | (1u << 14));
        d &= ~((1u << 2) | (1u << 3) | (1u << 8) | (1u << 22) | (1u << 23) | (1u << 24) | (1u << 25));
    } else if (leaf == 7 && sub == 1) {
        a &= ~((1u << 4) | (1u << 5) | (1u << 23));
        d &= ~((1u << 4) | (1u << 5));
    }
    r[REG_RAX] = a; r[REG_RBX] = b; r[REG_RCX] = c; r[REG_RDX] = d;
    r[REG_RIP] += 2;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    if (sig != SIGSEGV) return real_sigaction()(sig, act, old);
    if (old) *old = theirs;
    if (act) theirs = *act;
    return 0;
}

sighandler_t signal(int sig, sighandler_t handler) {
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    act.sa_flags = SA_RESTART;
    if (sigaction(sig, &act, &old) != 0) return SIG_ERR;
    return old.sa_handler;
}

__attribute__((constructor)) static void hide_features(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    theirs.sa_handler = SIG_DFL;
    real_sigaction()(SIGSEGV, &sa, NULL);
    set_cpuid(0);
}
